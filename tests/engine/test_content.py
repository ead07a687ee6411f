from __future__ import annotations

from pathlib import Path

import pytest

from deathnote.engine.content import load_checked, need, read_json
from deathnote.engine.errors import ContentError


def _validate(data: object, where: str) -> None:
    need(isinstance(data, dict) and data.get("n") == 1, where, "n", "must be 1")


def test_load_checked_names_the_file_and_field(tmp_path: Path) -> None:
    good, bad, broken = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "broken.json"
    good.write_text('{"n": 1}')
    bad.write_text('{"n": 2}')
    broken.write_text("{not json")
    assert load_checked(good, dict, _validate, "toy") == {"n": 1}
    with pytest.raises(ContentError, match=r"bad\.json: field 'n' must be 1"):
        load_checked(bad, dict, _validate, "toy")
    with pytest.raises(ContentError, match=r"broken\.json: cannot read JSON"):
        read_json(broken)
    with pytest.raises(ContentError, match="toy default content: field 'n'"):
        load_checked(None, dict, _validate, "toy")
