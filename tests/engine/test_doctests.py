"""The doctests of the engine's modules and of the toy game (the contract's worked example)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "tests.engine.toy",
    "deathnote.engine.actions",
    "deathnote.engine.spaces",
    "deathnote.engine.rng",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no doctest"
    assert result.failed == 0
