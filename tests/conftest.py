from __future__ import annotations

from collections.abc import Iterator

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
