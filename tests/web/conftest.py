"""Fixtures of the browser tests: a real server on 127.0.0.1 and Debian's Chromium.

Playwright drives the system ``chromium`` (never a downloaded browser); the tests skip with
the reason when either is missing.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import LiveServer

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed"
)

CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("web") / "rooms.db")
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()
