"""The benchmark command runs and prints one line per env (figures are not asserted)."""

from __future__ import annotations

import pytest

from deathnote.engine import games
from deathnote.interop.bench import main


def test_bench_prints_every_game_next_to_the_pettingzoo_reference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--seconds", "0.01", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["env", "steps/s", "games", "x", "ref"]
    assert "(PettingZoo" in lines[1] and lines[1].split()[-1] == "1.00"
    assert [line.split()[0] for line in lines[2:]] == sorted(games())
