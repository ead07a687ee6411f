"""Kill the server process mid-game and start it again: every room is back where it was.

Runs a real ``deathnote serve`` on 127.0.0.1, once on SQLite and once on PostgreSQL
(``DEATHNOTE_TEST_PG_URL``, which ``.ci/run`` sets after starting its own server).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

PG_URL = os.environ.get("DEATHNOTE_TEST_PG_URL")
RECV_SECONDS = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``deathnote serve`` process on 127.0.0.1."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "deathnote",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--bot-delay",
                "0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(
                    self.process.stderr.read().decode() if self.process.stderr else ""
                )
            try:
                urllib.request.urlopen(self.base + "/api/games", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not start within 30 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, only what was committed survives."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def ws(self, link: str) -> ClientConnection:
        return connect(
            self.base.replace("http", "ws") + link.replace("/play/", "/ws/"),
            open_timeout=10,
        )


def view_at(ws: ClientConnection, step: int) -> dict[str, Any]:
    for _ in range(100):
        message = json.loads(ws.recv(timeout=RECV_SECONDS))
        if message["type"] == "view" and message["step"] >= step:
            return message
    raise AssertionError(f"no view at step {step}")


def play(server: Server, links: list[str], actions: int) -> dict[int, dict[str, Any]]:
    """Both people play ``actions`` actions (never accusing); returns each seat's last view."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(server.ws(link)) for link in links]
        views = {seat: view_at(ws, 0) for seat, ws in enumerate(sockets)}
        step = views[0]["step"]
        for _ in range(actions):
            seat = next(s for s in (1, 0) if views[s]["view"]["legal"])
            legal = views[seat]["view"]["legal"]
            choice = next((a for a in legal if a["kind"] != "accuse"), legal[0])
            sockets[seat].send(json.dumps({"type": "act", "action": choice}))
            step += 1
            views = {s: view_at(ws, step) for s, ws in enumerate(sockets)}
        return views


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "rooms.db")
        return
    if not PG_URL:
        pytest.skip("DEATHNOTE_TEST_PG_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    yield PG_URL


@pytest.mark.postgres
def test_killing_the_server_mid_game_loses_nothing(database: str) -> None:
    server = Server(database)
    server.start()
    try:
        created = server.post("/api/rooms", {"game": "confrontation", "seed": 7})
        bots = server.post(
            "/api/rooms",
            {"game": "confrontation", "seats": [{"kind": "human"}, {"kind": "bot"}], "seed": 8},
        )
        links = created["links"]["seats"]
        before = play(server, links, 9)
        server.kill()
        server.start()
        # Every seat finds exactly the view it had: same step, same state, same log.
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(server.ws(link)) for link in links]
            after = {seat: view_at(ws, 0) for seat, ws in enumerate(sockets)}
        for seat in (0, 1):
            assert after[seat]["step"] == before[seat]["step"] == 9
            assert after[seat]["view"] == before[seat]["view"]
        # The game goes on from there.
        assert play(server, links, 3)[0]["step"] == 12
        # The room with a bot is back too, with its bot.
        with server.ws(bots["links"]["seats"][0]) as ws:
            restored = view_at(ws, 0)
            assert restored["room"]["seats"][1]["kind"] == "bot"
    finally:
        server.stop()


def test_an_unknown_database_url_is_a_clear_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "deathnote", "serve", "--db", f"nosuchdb://{uuid.uuid4().hex}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "cannot open the database" in result.stderr
