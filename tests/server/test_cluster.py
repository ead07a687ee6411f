"""Two ``deathnote serve --redis`` processes on one PostgreSQL and one Redis (issue 18 §2-3).

Needs a real PostgreSQL (``DEATHNOTE_TEST_PG_URL``) and a real Redis
(``DEATHNOTE_TEST_REDIS_URL``): ``.ci/run`` starts both on 127.0.0.1; without them the
tests are skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from deathnote.server.storage import Storage, database_url
from tests.live_server import LiveServer

PG_URL = os.environ.get("DEATHNOTE_TEST_PG_URL")
REDIS_URL = os.environ.get("DEATHNOTE_TEST_REDIS_URL")
LEASE = "1.5"  # seconds: a dead process's rooms are taken over within about twice this
GAME_SECONDS = 60.0  # bound on one whole game, the takeover included

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def pg() -> Iterator[str]:  # (the tests using it are marked postgres)
    """A fresh PostgreSQL schema (its URL), dropped afterwards."""
    if not PG_URL or not REDIS_URL:
        pytest.skip(
            "DEATHNOTE_TEST_PG_URL and DEATHNOTE_TEST_REDIS_URL are not set "
            "(.ci/run starts a PostgreSQL and a Redis and sets them)"
        )
    from sqlalchemy import create_engine, text

    schema = f"t{uuid.uuid4().hex[:12]}"
    admin = create_engine(database_url(PG_URL))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    with admin.begin() as conn:
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


def cluster_server(db: str, *extra: str) -> LiveServer:
    """One server process of the cluster (started), with more ``serve`` options."""
    server = LiveServer(db, start=False)
    assert REDIS_URL is not None
    server.extra = [
        *("--redis", REDIS_URL, "--lease-seconds", LEASE),
        *("--messages-per-second", "1000"),
        *extra,
    ]
    server.start()
    return server


def lease_holder(room: str) -> str | None:
    """The process id holding the room's lease in Redis (None: nobody)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL or "")
    try:
        value = client.get(f"deathnote:lease:{room}")
    finally:
        client.close()
    return value.decode() if isinstance(value, bytes) else None


class Seat:
    """A scripted person on one seat: acts on each view, reconnects to ``fallback`` when
    its socket dies, and remembers every action the server acknowledged."""

    def __init__(self, index: int, link: str, server: LiveServer, plan: Any) -> None:
        self.index = index
        self.link = link
        self.server = server
        self.plan = plan  # (seat, step, legal) -> the action to send
        self.acked: dict[int, dict[str, Any]] = {}
        self.view: dict[str, Any] | None = None
        self.outstanding: tuple[float, int] | None = None  # (sent at, view step)
        self.reconnects = 0
        self.moved_notes = 0
        self.done = False
        self.hold_from: int | None = 6  # no action from this step on until released

    def url(self) -> str:
        return self.server.base.replace("http", "ws") + self.link.replace("/play/", "/ws/")

    async def _maybe_act(self, ws: Any) -> None:
        view = self.view
        if view is None or self.outstanding is not None or view["view"]["outcome"] is not None:
            return
        if self.hold_from is not None and view["step"] >= self.hold_from:
            return
        legal = view["view"]["legal"]
        if not legal:
            return
        choice = {k: v for k, v in self.plan(self.index, view["step"], legal).items()}
        choice.pop("label", None)
        self.outstanding = (time.monotonic(), view["step"])
        self.choice = choice
        await ws.send(json.dumps({"type": "act", "action": choice}))

    async def run(self, deadline: float) -> None:
        while not self.done and time.monotonic() < deadline:
            try:
                async with websockets.connect(self.url(), open_timeout=10) as ws:
                    await self._session(ws, deadline)
            except (OSError, websockets.ConnectionClosed, TimeoutError):
                self.reconnects += 1
                self.outstanding = None
                await asyncio.sleep(0.2)

    async def _session(self, ws: Any, deadline: float) -> None:
        while not self.done and time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                # An action with no answer for a while was lost with a dead process.
                if self.outstanding and time.monotonic() - self.outstanding[0] > 3:
                    self.outstanding = None
                await self._maybe_act(ws)
                continue
            message = json.loads(raw)
            if message["type"] == "view":
                if message.get("accepted") is not None:  # the answer to our action
                    assert message["accepted"] not in self.acked
                    self.acked[message["accepted"]] = self.choice
                    self.outstanding = None
                self.view = message
                if message["view"]["outcome"] is not None:
                    self.done = True
                    return
                if self.outstanding is None:
                    await self._maybe_act(ws)
            elif message["type"] == "error":
                if "moved" in message["message"]:
                    self.moved_notes += 1
                self.outstanding = None
                await self._maybe_act(ws)


def plan(seat: int, step: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Play on (never accusing) until step 14; then L accuses and the game ends."""
    if step >= 14 and seat == 1:
        return next((a for a in legal if a["kind"] == "accuse"), legal[0])
    return next((a for a in legal if a["kind"] != "accuse"), legal[0])


async def _play_and_kill(a: LiveServer, b: LiveServer, room: str, seats: list[Seat]) -> None:
    deadline = time.monotonic() + GAME_SECONDS
    tasks = [asyncio.create_task(s.run(deadline)) for s in seats]
    # Mid-game: kill -9 the process holding the room (it was made there).
    while sum(len(s.acked) for s in seats) < 6 and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    # The seats hold still from step 6, so the game cannot end before the kill lands (an
    # idle machine plays the rest of the game in less time than a poll takes).
    holder = lease_holder(room)
    assert holder is not None
    await asyncio.to_thread(a.kill)
    # The seat that was on the dead process comes back through the other one.
    seats[0].server = b
    for seat in seats:
        seat.hold_from = None
    game = asyncio.gather(*tasks)
    holders = set()
    end = time.monotonic() + GAME_SECONDS + 10
    while not game.done() and time.monotonic() < end:
        holders.add(await asyncio.to_thread(lease_holder, room))
        await asyncio.sleep(0.05)
    await asyncio.wait_for(game, 10)
    # The other process took the room over (and gave it back once the game was over).
    assert holders - {holder, None}


@pytest.mark.postgres
def test_two_processes_one_room_the_owner_killed_mid_game(pg: str) -> None:
    a = cluster_server(pg)
    try:
        b = cluster_server(pg)
        try:
            created = a.post("/api/rooms", {"game": "confrontation"})
            room = created["room"]
            links = created["links"]["seats"]
            # The seats connect to different processes; the room is run by the first.
            seats = [Seat(0, links[0], a, plan), Seat(1, links[1], b, plan)]
            asyncio.run(_play_and_kill(a, b, room, seats))
            assert all(s.done for s in seats), "the game did not finish after the takeover"
            assert seats[0].reconnects >= 1  # its process died under it
            assert seats[1].moved_notes >= 1  # told its room moved, on a live socket
            # No acknowledged action is lost: each is in the stored record at its step.
            storage = Storage(pg)
            try:
                stored = storage.load_room(room)
            finally:
                storage.close()
            assert stored is not None and stored.finished
            acked = {step: (s.index, act) for s in seats for step, act in s.acked.items()}
            assert len(acked) >= 10
            for step, (seat, action) in acked.items():
                assert stored.actions[step][0] == seat
                assert {k: v for k, v in stored.actions[step][1].items() if k in action} == action
            # Both processes saw the same end (the survivor answers for the room now).
            info = b.get(f"/api/rooms/{room}?token={created['creator_token']}")
            assert info["room"]["finished"] is True
            assert info["room"]["step"] == len(stored.actions)
        finally:
            b.stop()
    finally:
        a.stop()


@pytest.mark.postgres
def test_a_socket_on_another_process_is_served_and_refused_like_a_local_one(pg: str) -> None:
    a = cluster_server(pg)
    try:
        b = cluster_server(pg)
        try:
            created = a.post("/api/rooms", {"game": "confrontation"})
            room = created["room"]
            holders = [lease_holder(room)]

            async def scenario() -> None:
                base = b.base.replace("http", "ws")
                # A wrong token through the other process: refused with the same code.
                async with websockets.connect(f"{base}/ws/{room}?token=nope") as ws:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    assert message["type"] == "error" and "not one of" in message["message"]
                    with contextlib.suppress(websockets.ConnectionClosed):
                        await asyncio.wait_for(ws.recv(), 10)
                    assert ws.close_code == 4403
                link = created["links"]["seats"][1].replace("/play/", "/ws/")
                async with websockets.connect(base + link) as ws:
                    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    assert first["type"] == "view" and first["seat"] == 1
                    holders.append(lease_holder(room))
                    await ws.send(json.dumps({"type": "act", "action": {"kind": "follow"}}))
                    kinds = set()
                    for _ in range(10):
                        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        kinds.add(message["type"])
                        if message.get("accepted") == 0:
                            kinds.add("accepted")
                        if message["type"] == "view" and message["step"] == 1:
                            break
                    assert "accepted" in kinds
                    await ws.send(json.dumps({"type": "act", "action": {"kind": "nonsense"}}))
                    for _ in range(10):
                        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if message["type"] == "error":
                            break
                    assert message["type"] == "error"
                    # A change asked of the other process is made by the room's owner.
                    token = created["creator_token"]
                    answer = await asyncio.to_thread(
                        b.post, f"/api/rooms/{room}/seats/0/bot", {"token": token}
                    )
                    assert answer["room"]["seats"][0]["kind"] == "bot"
                    holders.append(lease_holder(room))
                    for _ in range(20):  # the bot (on the owner) plays Kira's seat
                        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if message["type"] == "view" and message["step"] >= 2:
                            break
                    assert message["step"] >= 2

            asyncio.run(scenario())
            # The room stayed with the process that made it while it was played...
            assert holders[0] is not None and holders == [holders[0]] * 3
            # ...and its lease was given back once nobody was there (and nothing moved).
            deadline = time.monotonic() + 5
            while lease_holder(room) is not None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert lease_holder(room) is None
            path = f"/api/rooms/{room}?token={created['creator_token']}"
            assert a.get(path)["room"]["step"] == b.get(path)["room"]["step"] >= 2
        finally:
            b.stop()
    finally:
        a.stop()


def test_the_default_server_imports_nothing_of_redis(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from deathnote.server.app import create_app\n"
        f"create_app({str(tmp_path / 'rooms.db')!r})\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'redis'], 'redis imported'\n"
        "assert 'deathnote.server.cluster' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


def _stored_steps(db: str, room: str) -> int:
    storage = Storage(db)
    try:
        loaded = storage.load_room(room)
    finally:
        storage.close()
    return len(loaded.actions) if loaded is not None else 0


@pytest.mark.postgres
def test_a_room_of_bots_alone_is_taken_over_when_its_process_dies(pg: str) -> None:
    a = cluster_server(pg, "--bot-delay", "0.3")
    try:
        b = cluster_server(pg, "--bot-delay", "0.3")
        try:
            bots = [{"kind": "bot", "agent": "random"}] * 2
            created = a.post("/api/rooms", {"game": "tcg", "seats": bots})  # (long games)
            room = created["room"]
            deadline = time.monotonic() + 30
            while _stored_steps(pg, room) < 3 and time.monotonic() < deadline:
                time.sleep(0.1)
            a.kill()
            at_kill = _stored_steps(pg, room)
            assert at_kill >= 3
            # Nobody opens the room: the other process adopts it and its bots play on.
            while _stored_steps(pg, room) < at_kill + 2 and time.monotonic() < deadline + 30:
                time.sleep(0.2)
            assert _stored_steps(pg, room) >= at_kill + 2
        finally:
            b.stop()
    finally:
        a.stop()


@pytest.mark.postgres
def test_the_processes_share_one_count_of_new_rooms_per_address(pg: str) -> None:
    import urllib.error

    import redis

    # The count lives in the shared Redis: clear this rate's keys left by an earlier run.
    client = redis.Redis.from_url(REDIS_URL or "")
    try:
        for key in client.scan_iter("deathnote:limits*rooms*"):
            client.delete(key)
    finally:
        client.close()
    rate = ("--room-rate", "3/minute")
    a, b = cluster_server(pg, *rate), cluster_server(pg, *rate)
    try:
        for server in (a, b, a):
            assert server.post("/api/rooms", {"game": "confrontation"})["room"]
        # A fourth room from the same address is refused by either process.
        for server in (b, a):
            with pytest.raises(urllib.error.HTTPError) as refused:
                server.post("/api/rooms", {"game": "confrontation"})
            assert refused.value.code == 429
            assert int(refused.value.headers["Retry-After"]) >= 1
            assert "too many new rooms" in json.loads(refused.value.read())["error"]
    finally:
        a.stop()
        b.stop()
