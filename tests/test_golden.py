"""Golden playthroughs (``deathnote.engine.golden``): a transcript may change only with the
game's rules_version, and then it is made again with ``python -m deathnote.engine.golden --write``."""

from __future__ import annotations

from pathlib import Path

import pytest

from deathnote.engine import golden

DIRECTORY = Path(__file__).parent / "golden"
CASES = golden.cases()


@pytest.mark.parametrize("case", CASES, ids=[c.filename for c in CASES])
def test_golden_playthrough_is_current(case: golden.Case) -> None:
    problem = golden.compare(case, DIRECTORY)
    assert problem is None, problem


def test_no_stale_golden_files() -> None:
    assert golden.stale(DIRECTORY) == []


def test_a_changed_transcript_without_a_new_rules_version_fails(tmp_path: Path) -> None:
    case = golden.cases(["confrontation"])[0]
    text = golden.transcript(case)
    assert text == golden.transcript(case)  # the same every time
    assert "# rules_version " in text and "step 0: asked" in text and "end after" in text
    path = tmp_path / case.filename
    path.write_text(text)
    assert golden.compare(case, tmp_path) is None
    path.write_text(text.replace("step 3:", "step three:"))
    assert "while confrontation's rules_version is still" in (golden.compare(case, tmp_path) or "")
    version = golden.recorded_version(text)
    path.write_text(text.replace(f"# rules_version {version}", "# rules_version 0"))
    assert "rules_version changed (0 -> " in (golden.compare(case, tmp_path) or "")
    path.unlink()
    assert "is missing" in (golden.compare(case, tmp_path) or "")
