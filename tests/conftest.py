from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

from deathnote.engine import registry
from tests.engine.toy import TOY

# No per-example deadline: on a shared 2-core machine one example of a fast property can
# take over a second while another process runs; a hang still fails by pytest-timeout.
settings.register_profile("deathnote", deadline=None)
settings.load_profile("deathnote")


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
