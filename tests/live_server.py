"""A real ``deathnote serve`` process on 127.0.0.1, for the restart and browser tests."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

START_SECONDS = 90.0  # a start takes 1-3 s; under heavy load (load 10+) it took over 30
SERVE = (sys.executable, "-m", "deathnote", "serve")


class LiveServer:
    """``deathnote serve`` on a free port of 127.0.0.1 with the given database."""

    def __init__(self, db: str | Path, start: bool = True) -> None:
        self.db = str(db)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        #: More ``deathnote serve`` options (e.g. a limit a test checks).
        self.extra: list[str] = []
        if start:
            self.start()

    def start(self) -> None:
        """Start (or start again) on the same port and database; wait until it answers."""
        self.process = process = subprocess.Popen(
            [
                *SERVE,
                *("--port", str(self.port), "--db", self.db, "--bot-delay", "0"),
                # Every test's rooms come from one address, faster than people make (and
                # read) them.
                *(
                    "--room-rate",
                    "10000/minute",
                    "--room-read-rate",
                    "10000/minute",
                    "--connect-rate",
                    "10000/minute",
                ),
                *self.extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(process.stderr.read().decode() if process.stderr else "")
            try:
                urllib.request.urlopen(self.base + "/api/games", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        process.kill()
        raise AssertionError(f"the server did not start within {START_SECONDS:.0f} s")

    def kill(self) -> None:
        """SIGKILL, as a crash would: no shutdown handler runs, only what was committed
        survives."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """End the process if it still runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """POST a JSON body; the JSON answer."""
        request = urllib.request.Request(
            self.base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def get(self, path: str) -> Any:
        """GET; the JSON answer."""
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.load(response)

    def ws(self, link: str) -> ClientConnection:
        """A WebSocket for a seat's or spectator's invite link."""
        return connect(
            self.base.replace("http", "ws") + link.replace("/play/", "/ws/"), open_timeout=10
        )
