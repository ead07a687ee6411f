"""Kill the server process mid-game and start it again: every room is back where it was.

Runs a real ``deathnote serve`` on 127.0.0.1, once on SQLite and once on PostgreSQL
(``DEATHNOTE_TEST_PG_URL``, which ``.ci/run`` sets after starting its own server).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from tests.live_server import LiveServer
from tests.server.conftest import with_whole_log

PG_URL = os.environ.get("DEATHNOTE_TEST_PG_URL")
RECV_SECONDS = 10.0


def view_at(ws: ClientConnection, step: int) -> dict[str, Any]:
    for _ in range(100):
        message = with_whole_log(ws, json.loads(ws.recv(timeout=RECV_SECONDS)))
        if message["type"] == "view" and message["step"] >= step:
            return message
    raise AssertionError(f"no view at step {step}")


def play(server: LiveServer, links: list[str], actions: int) -> dict[int, dict[str, Any]]:
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
    server = LiveServer(database)
    try:
        # Two people: the server draws the seed (no game of 12 such steps ends, any seed).
        created = server.post("/api/rooms", {"game": "confrontation"})
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
