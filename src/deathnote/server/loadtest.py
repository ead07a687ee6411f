"""A bounded load test: a real server process on 127.0.0.1 and N rooms of scripted clients.

Every seat of every room is a scripted client on its own WebSocket that picks a random
legal action from its view. For each accepted action it measures the time from sending
it to every seat of the room having received a view that includes it.

Next to them, ``bot_rooms`` rooms may be kept playing with a bot of ``bot_level`` in every
seat (a finished one is replaced by a new one until the end): the people's latencies with
and without them show whether thinking bots hold up anyone else's room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

CONNECT_SECONDS = 30.0


@dataclass
class Figures:
    """What one load test measured."""

    rooms: int
    seconds: float
    accepted: int
    rejected: int
    games_finished: int
    latencies: list[float] = field(default_factory=list)
    memory_before: dict[str, Any] = field(default_factory=dict)
    memory_after: dict[str, Any] = field(default_factory=dict)
    rooms_in_memory: int = 0
    failed_rooms: int = 0
    bot_rooms: int = 0
    bot_level: str = ""
    bot_games: int = 0

    def percentile(self, q: float) -> float:
        """The q-quantile of the latencies in milliseconds (0 when there are none)."""
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def lines(self) -> list[str]:
        """The report, one figure per line."""
        rss = self.memory_after.get("rss_bytes", 0) - self.memory_before.get("rss_bytes", 0)
        traced = self.memory_after.get("traced_bytes", 0) - self.memory_before.get(
            "traced_bytes", 0
        )
        per = max(1, self.rooms_in_memory)
        bots = (
            [
                f"next to {self.bot_rooms} rooms of {self.bot_level} bots in every seat "
                f"({self.bot_games} of their games finished)"
            ]
            if self.bot_rooms
            else []
        )
        return [
            *bots,
            f"rooms: {self.rooms} concurrent ({self.games_finished} games finished, "
            f"{self.failed_rooms} rooms failed)",
            f"accepted actions: {self.accepted} in {self.seconds:.1f} s = "
            f"{self.accepted / max(self.seconds, 1e-9):.1f} actions/s "
            f"(rejected: {self.rejected})",
            f"action sent -> every seat's view updated: p50 {self.percentile(0.5):.1f} ms, "
            f"p99 {self.percentile(0.99):.1f} ms ({len(self.latencies)} samples)",
            f"server memory with every room live: RSS +{rss / 2**20:.1f} MiB for "
            f"{self.rooms_in_memory} rooms in memory "
            f"= {rss / per / 1024:.1f} KiB/room; tracemalloc +{traced / 2**20:.1f} MiB "
            f"= {traced / per / 1024:.1f} KiB/room",
        ]


class RoomDriver:
    """The scripted seats of one room (a new room whenever a game ends early)."""

    def __init__(
        self, base: str, game: str, actions: int, deadline: float, seed: int, go: asyncio.Event
    ) -> None:
        self.go = go  # every room is made and connected before anyone plays
        self.base = base
        self.game = game
        self.actions = actions
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.accepted = 0
        self.rejected = 0
        self.finished = 0
        self.latencies: list[float] = []
        self.steps: list[int] = []
        self.sent: dict[int, float] = {}  # seat -> send time of its unanswered action
        self.waiting: list[tuple[int, float]] = []  # (accepted step, send time)
        self.over = asyncio.Event()
        self.connected = asyncio.Event()  # set once this driver's first room is live

    def _check(self) -> None:
        now = time.perf_counter()
        seen = min(self.steps) if self.steps else -1
        keep = []
        for step, sent in self.waiting:
            if seen > step:
                self.latencies.append(now - sent)
            else:
                keep.append((step, sent))
        self.waiting = keep

    async def _seat(self, ws: Any, index: int) -> None:
        last_sent_step = -1
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "view":
                self.steps[index] = message["step"]
                self._check()
                view = message["view"]
                if view["outcome"] is not None:
                    if not self.over.is_set():
                        self.finished += 1
                    self.over.set()
                    return
                legal = view.get("legal") or []
                if (
                    legal
                    and message["step"] > last_sent_step
                    and self.accepted < self.actions
                    and index not in self.sent
                ):
                    choice = dict(self.rng.choice(legal))
                    choice.pop("label", None)
                    last_sent_step = message["step"]
                    self.sent[index] = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": choice}))
            elif kind == "accepted":
                self.accepted += 1
                self.waiting.append((message["step"], self.sent.pop(index)))
                self._check()
                if self.accepted >= self.actions:
                    self.over.set()
            elif kind == "error":
                self.rejected += 1
                self.sent.pop(index, None)

    async def run(self) -> None:
        """Play rooms until this driver's share of actions is done or time is up."""
        while self.accepted < self.actions and time.monotonic() < self.deadline:
            created = await asyncio.to_thread(_post, f"{self.base}/api/rooms", {"game": self.game})
            links = [link for link in created["links"]["seats"] if link]
            ws_base = self.base.replace("http://", "ws://")
            sockets = [
                await websockets.connect(
                    ws_base + link.replace("/play/", "/ws/"),
                    open_timeout=CONNECT_SECONDS,
                    ping_interval=None,
                )
                for link in links
            ]
            self.steps = [-1] * len(sockets)
            if not self.connected.is_set():
                self.connected.set()
                await self.go.wait()
            self.sent.clear()
            self.waiting.clear()
            self.over.clear()
            tasks = [asyncio.create_task(self._seat(ws, i)) for i, ws in enumerate(sockets)]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.over.wait(), max(0.0, self.deadline - time.monotonic()))
            # Let the last views arrive before closing (bounded).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._drain(), 5.0)
            for task in tasks:
                task.cancel()
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def _drain(self) -> None:
        while self.waiting:
            await asyncio.sleep(0.01)


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class BotRooms:
    """Rooms played by bots alone, kept at ``count`` until ``stop`` is set."""

    def __init__(self, base: str, game: str, count: int, level: str) -> None:
        self.base, self.game, self.count, self.level = base, game, count, level
        self.played = 0  # bot rooms finished
        self.stop = asyncio.Event()

    async def _new(self) -> tuple[str, str]:
        players = await asyncio.to_thread(_get, f"{self.base}/api/games")
        spec = next(g for g in players if g["id"] == self.game)
        seats = [{"kind": "bot", "agent": self.level}] * spec["min_players"]
        body = {"game": self.game, "players": spec["min_players"], "seats": seats}
        created = await asyncio.to_thread(_post, f"{self.base}/api/rooms", body)
        return created["room"], created["creator_token"]

    async def run(self) -> None:
        """Make the rooms, then replace each finished one (polled every half second)."""
        live = [await self._new() for _ in range(self.count)]
        while not self.stop.is_set():
            for i, (room, token) in enumerate(live):
                info = await asyncio.to_thread(_get, f"{self.base}/api/rooms/{room}?token={token}")
                if info["room"]["finished"]:
                    self.played += 1
                    live[i] = await self._new()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), 0.5)


async def run_loadtest(
    rooms: int,
    actions: int,
    seconds: float,
    game: str,
    db: str | None,
    port: int,
    bot_rooms: int = 0,
    bot_level: str = "ismcts-hard",
) -> Figures:
    """Start a server, drive ``rooms`` rooms for ``actions`` actions each or ``seconds``
    (and keep ``bot_rooms`` rooms of ``bot_level`` bots playing meanwhile)."""
    port = port or _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="deathnote-load-") as tmp:
        database = db or str(Path(tmp) / "load.db")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "deathnote",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                database,
                "--bot-delay",
                "0",
                # The load test is one address opening many rooms at once.
                "--room-rate",
                "1000000/minute",
                "--max-live-rooms",
                "1000000",
                "--debug-memory",
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            await _wait_ready(base, server)
            before = await asyncio.to_thread(_get, f"{base}/api/debug/memory")
            bots = BotRooms(base, game, bot_rooms, bot_level)
            bot_task = asyncio.create_task(bots.run()) if bot_rooms else None
            go = asyncio.Event()
            deadline = time.monotonic() + seconds
            drivers = [
                RoomDriver(base, game, actions, deadline, seed=i, go=go) for i in range(rooms)
            ]
            # Open the rooms in waves so the connection burst stays bounded.
            tasks = []
            for driver in drivers:
                tasks.append(asyncio.create_task(driver.run()))
                await asyncio.sleep(0.002)
            # Memory while every room is live (all N rooms made and connected), then play.
            live = [asyncio.create_task(d.connected.wait()) for d in drivers]
            await asyncio.wait(live, timeout=seconds)
            after = await asyncio.to_thread(_get, f"{base}/api/debug/memory?stop=true")
            start = time.monotonic()
            go.set()
            await asyncio.wait(tasks, timeout=seconds + 30)
            elapsed = time.monotonic() - start
            failed = 0
            for task in tasks:
                if not task.done():
                    task.cancel()
                    failed += 1
                elif task.exception() is not None:
                    failed += 1
            if bot_task is not None:
                bots.stop.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bot_task, 30)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
    figures = Figures(
        rooms=rooms,
        seconds=elapsed,
        accepted=sum(d.accepted for d in drivers),
        rejected=sum(d.rejected for d in drivers),
        games_finished=sum(d.finished for d in drivers),
        failed_rooms=failed,
        latencies=[x for d in drivers for x in d.latencies],
        memory_before=before,
        memory_after=after,
        rooms_in_memory=int(after.get("rooms", 0)) - int(before.get("rooms", 0)),
        bot_rooms=bot_rooms,
        bot_level=bot_level,
        bot_games=bots.played,
    )
    return figures


async def _wait_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if server.poll() is not None:
            raise RuntimeError("the server exited at start-up")
        try:
            await asyncio.to_thread(_get, f"{base}/api/games")
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start within 30 seconds")
