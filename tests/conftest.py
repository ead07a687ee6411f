from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from deathnote.engine import registry
from tests.engine.toy import TOY


@pytest.fixture
def toy_registered() -> Iterator[None]:
    """Register the toy game for the duration of a test."""
    table = registry.games()
    table["toy"] = TOY
    yield
    table.pop("toy", None)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the fuzz tests' counts (tests/server/test_fuzz.py) (kept in user_properties, so they survive xdist)."""
    lines = [
        value
        for report in terminalreporter.stats.get("passed", [])
        for name, value in getattr(report, "user_properties", [])
        if name == "fuzz"
    ]
    if lines:
        terminalreporter.section("fuzz counts")
        for line in lines:
            terminalreporter.line(line)
