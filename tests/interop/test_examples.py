"""The README's research example runs (a few episodes: its figures come from the full run)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_tiny_qlearning.py"


def test_the_readme_quotes_the_example() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    assert "examples/train_tiny_qlearning.py" in readme
    assert "tabular_qlearner" in EXAMPLE.read_text()


@pytest.mark.timeout(120)
def test_the_training_example_runs() -> None:
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--episodes", "40", "--games", "30", "--seed", "2"],
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("trained 40 episodes")
    assert lines[1].startswith("random L    vs random Kira: ")
    assert lines[2].startswith("Q-learned L vs random Kira: ")
    assert "95% interval" in lines[3]
