"""Fixtures of the browser tests: a real server on 127.0.0.1 and Debian's Chromium.

Playwright drives the system ``chromium`` (never a downloaded browser); the tests skip with
the reason when either is missing.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed"
)

CHROMIUM = shutil.which("chromium")


class LiveServer:
    """A ``deathnote serve`` process on 127.0.0.1 with a fresh SQLite file."""

    def __init__(self, db: Path) -> None:
        self.db = db
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        """Start (or start again) on the same port and database."""
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "deathnote",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--bot-delay",
                "0",
            ],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/api/games", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        self.process.kill()
        raise RuntimeError("the server did not start within 30 s")

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        self.process.kill()
        self.process.wait(10)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.load(response)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


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
