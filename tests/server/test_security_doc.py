"""docs/security.md names the test that checks each promise: every one it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMED = re.compile(r"`(?:tests/)?([\w/]*?)(test_\w+\.py)::(test_\w+)`")


def test_every_test_named_in_the_security_doc_exists() -> None:
    text = (ROOT / "docs" / "security.md").read_text()
    named = NAMED.findall(text)
    assert len(named) >= 30  # the page names a test for each promise and limit
    missing = []
    for folder, file, test in named:
        path = ROOT / "tests" / (folder or "server/") / file
        if not path.exists() or not re.search(rf"^def {test}\(", path.read_text(), re.M):
            missing.append(f"{folder}{file}::{test}")
    assert missing == []
