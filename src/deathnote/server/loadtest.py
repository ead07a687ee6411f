"""A bounded load test: a real server process on 127.0.0.1 and N rooms of scripted clients.

Every seat of every room is a scripted client on its own WebSocket that picks a random
legal action from its view (``seats="random"``), or lets one of the game's bots choose
from the whole view it rebuilds from the server's messages, as a browser does
(``seats="heuristic"``: games of a realistic length; random play ends a Confrontation
game in about 9 actions, where careful players take about 30, so a room is made 3-4 times
as often per action). For each accepted action it measures the time from sending it to
every seat of the room having received a view that includes it.

Next to them, ``bot_rooms`` rooms may be kept playing with a bot of ``bot_level`` in every
seat (a finished one is replaced by a new one until the end): the people's latencies with
and without them show whether thinking bots hold up anyone else's room.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import http.client
import json
import math
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from deathnote.agents import Agent, Observation, check_agent, make_agent
from deathnote.engine.actions import Action
from deathnote.engine.delta import apply_op
from deathnote.server.collector import LONG_PAUSE, Pauses, settled

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets built without its C helpers
    from websockets.utils import apply_mask

CONNECT_SECONDS = 30.0
MAX_RETRIES = 3  # choices refused in a row on one view before a seat waits for the next
MAX_PARSED = 10_000  # legal actions kept parsed (a game has a few hundred distinct ones)

#: Legal actions as the seats' bots take them, by their JSON from the server: parsed once
#: for every room and view that lists them (actions are immutable values), not per choice.
_parsed: dict[bytes, Action] = {}


def parsed_action(entry: dict[str, Any]) -> Action:
    """The action of one entry of a view's ``legal`` (its label is not part of it)."""
    key = orjson.dumps(entry)
    action = _parsed.get(key)
    if action is None:
        if len(_parsed) >= MAX_PARSED:
            _parsed.clear()
        action = _parsed[key] = Action.from_json(entry)
    return action


@dataclass
class Figures:
    """What one load test measured."""

    rooms: int
    seconds: float
    accepted: int
    rejected: int
    games_finished: int
    latencies: list[float] = field(default_factory=list)
    #: When each latency was measured (``time.time()``), and when the play started.
    latency_at: list[float] = field(default_factory=list)
    play_start: float = 0.0
    #: The collector's pauses while the rooms played, in the server and in this client
    #: (``Pauses.to_json``; the server's counts are those of the play only).
    server_pauses: dict[str, Any] | None = None
    client_pauses: dict[str, Any] | None = None
    memory_before: dict[str, Any] = field(default_factory=dict)
    memory_after: dict[str, Any] = field(default_factory=dict)
    rooms_in_memory: int = 0
    failed_rooms: int = 0
    #: Rooms still making a room, connecting or closing 30 s after the play's end.
    cut_off_rooms: int = 0
    #: Server CPU seconds (user + system) while the rooms played.
    server_cpu: float = 0.0
    #: This client's own CPU seconds meanwhile (it shares the machine with the server).
    client_cpu: float = 0.0
    #: Seconds the server's and this client's threads were ready to run but waited for a
    #: CPU meanwhile (summed over threads; Linux schedstat, None elsewhere): the machine's
    #: other work, or the two of them, wanting more CPUs than there are.
    server_cpu_wait: float | None = None
    client_cpu_wait: float | None = None
    #: With ``kill_after``: what survived the server's kill -9 and restart.
    crash: dict[str, Any] | None = None
    #: The failed rooms' errors.
    errors: list[str] = field(default_factory=list)
    bot_rooms: int = 0
    bot_level: str = ""
    bot_games: int = 0
    #: Seconds to make every room and connect every seat, before the play.
    connect_seconds: float = 0.0
    #: A seat's mean seconds between being asked and answering (0: at once).
    think: float = 0.0
    #: How the scripted seats choose: "random", or the name of the game's bot they use.
    seats: str = "random"
    #: The server's transactions of accepted actions and the actions they stored, from its
    #: start to the end of the play (the last server's, after a kill).
    commits: int = 0
    stored: int = 0

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
        return (
            [
                *bots,
                f"rooms: {self.rooms} concurrent, made and connected in "
                f"{self.connect_seconds:.1f} s ({self.games_finished} games finished, "
                f"{self.failed_rooms} rooms failed, {self.cut_off_rooms} cut off at the end)",
                "each seat answers "
                + (f"after {self.think:g} s on average" if self.think else "at once")
                + (
                    ", at random"
                    if self.seats == "random"
                    else f", as the game's {self.seats} bot chooses"
                ),
                *[f"  error: {e}" for e in self.errors[:3]],
                f"accepted actions: {self.accepted} in {self.seconds:.1f} s = "
                f"{self.accepted / max(self.seconds, 1e-9):.1f} actions/s "
                f"(rejected: {self.rejected})",
                f"action sent -> every seat's view updated: p50 {self.percentile(0.5):.1f} ms, "
                f"p99 {self.percentile(0.99):.1f} ms ({len(self.latencies)} samples)",
                f"server memory with every room live: RSS +{rss / 2**20:.1f} MiB for "
                f"{self.rooms_in_memory} rooms in memory "
                f"= {rss / per / 1024:.1f} KiB/room; tracemalloc +{traced / 2**20:.1f} MiB "
                f"= {traced / per / 1024:.1f} KiB/room",
                f"server CPU: {self.server_cpu:.1f} s = "
                f"{1000 * self.server_cpu / max(1, self.accepted):.3f} ms per accepted action",
                f"load-test client CPU: {self.client_cpu:.1f} s = "
                f"{1000 * self.client_cpu / max(1, self.accepted):.3f} ms per accepted action",
                *self.slowest_lines(),
                *self.wait_lines(),
                *self.commit_lines(),
            ]
            + (self.crash_lines() if self.crash is not None else [])
            + [
                f"  allocated since the start, by line: {site}"
                for site in self.memory_after.get("sites", [])
            ]
        )

    def slowest_lines(self) -> list[str]:
        """When the slowest 1% of the actions were measured, and the collector's pauses:
        a p99 made in a few seconds (a pause, a burst of new rooms) reads differently from
        one spread over the whole play (a server short of CPU)."""
        out: list[str] = []
        if len(self.latency_at) == len(self.latencies) and len(self.latencies) >= 100:
            slow = self.percentile(0.99) / 1000
            per_second: dict[int, int] = {}
            for latency, at in zip(self.latencies, self.latency_at, strict=True):
                if latency >= slow:
                    second = int(at - self.play_start)
                    per_second[second] = per_second.get(second, 0) + 1
            total = sum(per_second.values())
            busiest = sorted(per_second, key=lambda s: (-per_second[s], s))
            held = 0
            worst: list[int] = []
            for second in busiest:
                worst.append(second)
                held += per_second[second]
                if 2 * held >= total:
                    break
            out.append(
                f"slowest 1% (at least {1000 * slow:.1f} ms, {total} actions): half of them "
                f"in {len(worst)} of the {max(1, math.ceil(self.seconds))} seconds of play "
                f"(second {', '.join(str(s) for s in sorted(worst))}), the rest in "
                f"{len(per_second) - len(worst)} others"
            )
        for who, pauses in (("server", self.server_pauses), ("client", self.client_pauses)):
            if pauses is None:
                continue
            long = pauses["long"]
            longest = max((pause[2] for pause in long), default=0.0)
            seconds = sorted({int(pause[0] - self.play_start) for pause in long})
            young, middle, whole = pauses["collections"]
            spent = pauses["seconds"]
            out.append(
                f"{who}'s collector while playing: {young + middle + whole} collections "
                f"({young} young, {middle} middle, {whole} whole), {sum(spent):.2f} s in all "
                f"({' / '.join(f'{x:.2f}' for x in spent)}), {len(long)} "
                f"{'pause' if len(long) == 1 else 'pauses'} of {1000 * LONG_PAUSE:.0f} ms or more"
                + (
                    f" (longest {1000 * longest:.0f} ms; second "
                    f"{', '.join(str(s) for s in seconds)})"
                    if long
                    else ""
                )
            )
        return out

    def wait_lines(self) -> list[str]:
        """How long the server and this client waited for a CPU while the rooms played."""
        if self.server_cpu_wait is None or self.client_cpu_wait is None:
            return []
        return [
            f"waited for a CPU (ready, not running): server {self.server_cpu_wait:.1f} s, "
            f"load-test client {self.client_cpu_wait:.1f} s, in {self.seconds:.1f} s of play"
        ]

    def commit_lines(self) -> list[str]:
        """How many actions the server stored in each transaction (group commit)."""
        if not self.commits:
            return []
        return [
            f"storage: {self.stored} actions in {self.commits} transactions "
            f"({self.stored / self.commits:.1f} per commit)"
        ]

    def crash_lines(self) -> list[str]:
        """The kill -9 figures."""
        crash = self.crash or {}
        return [
            f"kill -9 after {crash['after']:.1f} s of play, restarted in "
            f"{crash['restart_seconds']:.1f} s: {crash['acknowledged']} acknowledged actions, "
            f"{crash['found']} of them in storage ({crash['lost']} lost, "
            f"{crash['acknowledged_before_kill']} acknowledged before the kill)",
            f"rooms playing at the kill: {crash['live_at_kill']}, resumed after the restart: "
            f"{crash['resumed']}",
        ]


class RoomDriver:
    """The scripted seats of one room (a new room whenever a game ends early).

    A seat whose socket drops (the server was killed) connects again until the deadline
    and plays on from the view it is sent.
    """

    def __init__(
        self,
        base: str,
        game: str,
        actions: int,
        deadline: float,
        seed: int,
        go: asyncio.Event,
        think: float = 0.0,
        seats: str = "random",
    ) -> None:
        self.go = go  # every room is made and connected before anyone plays
        #: A seat's mean seconds between being asked and answering (0: at once).
        self.think = think
        #: "random", or the bot that chooses for every seat from its rebuilt view.
        self.seats = seats
        self.agents: dict[int, Agent] = {}
        self.views: dict[int, dict[str, Any]] = {}  # seat -> its whole view (bot seats)
        self.thinking: set[int] = set()  # seats thinking before they answer
        self.later: set[asyncio.Task[None]] = set()  # their answers to come
        self.legal: dict[int, list[dict[str, Any]]] = {}  # seat -> its latest view's legal
        self.base = base
        self.game = game
        self.actions = actions
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.accepted = 0
        self.rejected = 0
        self.finished = 0
        self.latencies: list[float] = []
        #: When each latency was measured (``time.time()``, in the same order).
        self.latency_at: list[float] = []
        self.steps: list[int] = []
        self.sent: dict[int, float] = {}  # seat -> send time of its unanswered action
        self.choices: dict[int, dict[str, Any]] = {}  # seat -> its unanswered action
        self.waiting: list[tuple[int, float]] = []  # (accepted step, send time)
        self.over = asyncio.Event()
        self.connected = asyncio.Event()  # set once this driver's first room is live
        self.room = ""
        self.sockets: list[Any] = []
        #: Every acknowledged action: (room, step, seat, action) and when it was told.
        self.acked: list[tuple[str, int, int, dict[str, Any], float]] = []
        self.reconnects = 0
        self.finished_rooms: set[str] = set()

    def _check(self) -> None:
        now = time.perf_counter()
        wall = time.time()
        seen = min(self.steps) if self.steps else -1
        keep = []
        for step, sent in self.waiting:
            if seen > step:
                self.latencies.append(now - sent)
                self.latency_at.append(wall)
            else:
                keep.append((step, sent))
        self.waiting = keep

    async def _seat(self, ws: Any, index: int, url: str) -> None:
        while True:
            try:
                await self._play(ws, index)
                return
            except OSError:  # Closed too
                # The server went away: this seat's unanswered action is lost, not told.
                self.sent.pop(index, None)
                self.choices.pop(index, None)
                self.waiting = [w for w in self.waiting if w[0] < 0]
            with contextlib.suppress(Exception):
                await ws.close()
            ws = await self._reconnect(url)
            if ws is None:
                return
            self.sockets[index] = ws
            self.reconnects += 1

    async def _reconnect(self, url: str) -> Any:
        while time.monotonic() < self.deadline and not self.over.is_set():
            try:
                return await open_seat(url, 5)
            except (OSError, TimeoutError):  # Closed too
                await asyncio.sleep(0.2)
        return None

    def _accepted(self, index: int, step: int) -> None:
        """Seat ``index`` was told its action is stored as ``step`` (in its view)."""
        self.accepted += 1
        self.waiting.append((step, self.sent.pop(index)))
        self.acked.append((self.room, step, index, self.choices.pop(index), time.monotonic()))
        if self.accepted >= self.actions:
            self.over.set()

    async def _choose(
        self, ws: Any, index: int, legal: list[dict[str, Any]], retry: bool = False
    ) -> None:
        agent = self.agents.get(index)
        view = self.views.get(index)
        if agent is not None and view is not None and not retry:
            actions = [parsed_action(a) for a in view["legal"]]
            obs = Observation(index, actions, lambda: view, self.rng)
            choice = agent.choose(obs).to_json()
        else:  # at random (and a bot's refused choice is retried at random)
            choice = dict(self.rng.choice(legal))
            choice.pop("label", None)
        self.sent[index] = time.perf_counter()
        self.choices[index] = choice
        await ws.send(orjson.dumps({"type": "act", "action": choice}))

    def _ask(self, ws: Any, index: int) -> None:
        """The seat answers after thinking (a person's pace), from its latest view then.

        It thinks in a task of its own: it keeps reading its views meanwhile, so the
        latency of the other seats' actions is not held up by its thinking.
        """
        self.thinking.add(index)
        # Between half and one and a half times the mean, so the rooms do not act in step.
        delay = self.think * (0.5 + self.rng.random())
        task = asyncio.create_task(self._answer_later(ws, index, delay))
        self.later.add(task)
        task.add_done_callback(self.later.discard)

    async def _answer_later(self, ws: Any, index: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self.thinking.discard(index)
        legal = self.legal.get(index)
        if legal and self.accepted < self.actions and index not in self.sent:
            with contextlib.suppress(OSError):  # the seat's reader reconnects
                await self._choose(ws, index, legal)

    async def _play(self, ws: Any, index: int) -> None:
        last_sent_step = -1
        legal: list[dict[str, Any]] = []  # of this seat's last view
        retries = 0
        while True:
            message = orjson.loads(await ws.recv())
            kind = message["type"]
            if kind == "view":
                if message.get("accepted") is not None:
                    self._accepted(index, message["accepted"])
                self.steps[index] = message["step"]
                self._check()
                view = message["view"]
                if self.agents:
                    view = self._rebuild(index, message)
                if view["outcome"] is not None:
                    self.finished_rooms.add(self.room)
                    if not self.over.is_set():
                        self.finished += 1
                    self.over.set()
                    return
                legal = view.get("legal") or []
                self.legal[index] = legal
                if (
                    legal
                    and message["step"] > last_sent_step
                    and self.accepted < self.actions
                    and index not in self.sent
                    and index not in self.thinking
                ):
                    last_sent_step = message["step"]
                    retries = 0
                    if self.think > 0:
                        self._ask(ws, index)
                    else:
                        await self._choose(ws, index, legal)
            elif kind == "error":
                self.rejected += 1
                self.sent.pop(index, None)
                self.choices.pop(index, None)
                if legal and retries < MAX_RETRIES and self.accepted < self.actions:
                    # Choose again on the same view (no other view may come: this seat
                    # may be the only one asked, and the room would wait to its end).
                    retries += 1
                    await self._choose(ws, index, legal, retry=True)

    def _rebuild(self, index: int, message: dict[str, Any]) -> dict[str, Any]:
        """Seat ``index``'s whole view from a message that may hold only the log after the
        step it last had and a patch of the state (as the browser rebuilds it)."""
        view = message["view"]
        old = self.views.get(index)
        # The old view is this seat's own and replaced now: its log and state are
        # extended and patched in place (no copy of either per message).
        if message.get("since") is not None and old is not None:
            log = old["log"]
            log.extend(view["log"])
            view["log"] = log
        if "patch" in view:
            if old is None:
                raise RuntimeError("a state patch before any whole state")
            state = old["state"]
            # The operations were decoded from this message alone: their values are
            # taken as they are, not copied.
            for op in view.pop("patch"):
                state = apply_op(state, op, copy=False)
            view["state"] = state
        self.views[index] = view
        return view

    async def run(self) -> None:
        """Play rooms until this driver's share of actions is done or time is up."""
        while self.accepted < self.actions and time.monotonic() < self.deadline:
            try:
                created = await _post_on_loop(f"{self.base}/api/rooms", {"game": self.game})
                links = [link for link in created["links"]["seats"] if link]
                ws_base = self.base.replace("http://", "ws://")
                urls = [ws_base + link.replace("/play/", "/ws/") for link in links]
                sockets = [await open_seat(url, CONNECT_SECONDS) for url in urls]
            except (
                OSError,  # Closed too: a refused or closed WebSocket
                http.client.HTTPException,  # a response cut short by the kill (IncompleteRead)
            ):
                await asyncio.sleep(0.2)  # the server is down (killed): try again
                continue
            self.room = created["room"]
            self.steps = [-1] * len(sockets)
            self.sockets = sockets
            if not self.connected.is_set():
                self.connected.set()
                await self.go.wait()
            self.sent.clear()
            self.choices.clear()
            self.views.clear()
            if self.seats != "random":
                self.agents = {i: make_agent(self.game, self.seats, i) for i in range(len(sockets))}
            self.thinking.clear()
            self.legal.clear()
            self.waiting.clear()
            self.over.clear()
            tasks = [
                asyncio.create_task(self._seat(ws, i, urls[i])) for i, ws in enumerate(sockets)
            ]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.over.wait(), max(0.0, self.deadline - time.monotonic()))
            # Let the last views arrive before closing (bounded).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._drain(), 5.0)
            for task in [*tasks, *self.later]:
                task.cancel()
            for ws in self.sockets:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def _drain(self) -> None:
        while self.waiting:
            await asyncio.sleep(0.01)


class Closed(ConnectionError):
    """The seat's WebSocket is closed (or its opening was refused)."""


#: RFC 6455's constant for the handshake's Sec-WebSocket-Accept.
WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class SeatSocket(asyncio.Protocol):
    """A lean client WebSocket (RFC 6455, text messages only) for the load test's seats.

    The client shares the machine with the server it measures: a general WebSocket client
    spends several layers of Python on every message. This one parses the server's frames
    (never masked, never fragmented by this server) in one pass over the bytes received,
    answers pings, checks the handshake's Sec-WebSocket-Accept, masks what it sends (with
    ``websockets``' C helper) and hands each message over as the bytes orjson parses.
    """

    def __init__(self, key: bytes) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.messages: deque[bytes] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.accept = base64.b64encode(hashlib.sha1(key + WS_GUID).digest()).lower()
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """The TCP connection is up (the handshake is sent by ``open_seat``)."""
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        """The handshake's answer, then frames."""
        self.buffer += data
        if not self.opened.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).lower()
            del self.buffer[: end + 4]
            if (
                not head.startswith(b"http/1.1 101")
                or b"sec-websocket-accept: " + self.accept not in head
            ):
                self.opened.set_exception(Closed(f"handshake refused: {head[:60]!r}"))
                self._close()
                return
            self.opened.set_result(None)
        self._frames()

    def _frames(self) -> None:
        buf = self.buffer
        size = len(buf)
        pos = 0
        while size - pos >= 2:
            first, length = buf[pos], buf[pos + 1] & 0x7F
            start = pos + 2
            if length == 126:
                start = pos + 4
                length = int.from_bytes(buf[pos + 2 : start], "big")
            elif length == 127:
                start = pos + 10
                length = int.from_bytes(buf[pos + 2 : start], "big")
            end = start + length
            if end > size:
                break
            payload = bytes(buf[start:end])
            pos = end
            opcode = first & 0x0F
            if not first & 0x80 or opcode == 0x2:
                self._close()  # a fragment or a binary message: not from this server
            elif opcode == 0x1:
                self.messages.append(payload)
            elif opcode == 0x9:
                self._write(0xA, payload)  # ping: pong
            elif opcode == 0x8:
                self._write(0x8, payload[:2])  # the closing handshake, then the end
                self._close()
        del buf[:pos]
        waiter = self.waiter
        if self.messages and waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _write(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            head = bytes((0x80 | opcode, 0x80 | length))
        elif length < 2**16:
            head = bytes((0x80 | opcode, 0x80 | 126)) + length.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + length.to_bytes(8, "big")
        self.transport.write(head + mask + apply_mask(payload, mask))

    def _close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        """The server went away (or closed)."""
        if not self.opened.done():
            self.opened.set_exception(Closed("the connection closed during the handshake"))
        self._close()

    async def recv(self) -> bytes:
        """The next message's bytes; raises Closed once the socket is closed."""
        while not self.messages:
            if self.closed:
                raise Closed("the WebSocket is closed")
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.messages.popleft()

    async def send(self, text: bytes) -> None:
        """Send one text message (the JSON's UTF-8 bytes)."""
        if self.closed:
            raise Closed("the WebSocket is closed")
        self._write(0x1, text)

    async def close(self) -> None:
        """The closing handshake's first frame (1000), then the TCP connection."""
        if not self.closed:
            self._write(0x8, (1000).to_bytes(2, "big"))
            self._close()


async def open_seat(url: str, timeout: float) -> SeatSocket:
    """A seat's WebSocket at ``ws://HOST:PORT/PATH``: no proxy, no compression offered
    (the server takes none), no pings of its own (each costs the server a timer)."""
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    key = base64.b64encode(os.urandom(16))
    loop = asyncio.get_running_loop()
    path = parts.path + (f"?{parts.query}" if parts.query else "")

    async def opening() -> SeatSocket:
        _transport, seat = await loop.create_connection(lambda: SeatSocket(key), host, port)
        assert seat.transport is not None
        seat.transport.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        try:
            await seat.opened
        except BaseException:
            seat._close()
            raise
        return seat

    return await asyncio.wait_for(opening(), timeout)


def _client_cpu() -> float:
    """This process's CPU seconds so far (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _post_on_loop(url: str, body: dict[str, Any]) -> Any:
    """POST a JSON body on the event loop (no thread to wake and no lock to take on the
    client that shares the machine with the server); the answer's JSON. OSError for an
    error status or an answer cut short (the server killed)."""
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    data = orjson.dumps(body)
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(
            f"POST {parts.path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            "Connection: close\r\n\r\n".encode()
            + data
        )
        answer = await reader.read()  # to the end: the server closes after it
    finally:
        writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = lines[0].split(b" ", 2)
    length = next(
        (
            int(v)
            for k, _, v in (x.partition(b":") for x in lines[1:])
            if k.lower() == b"content-length"
        ),
        -1,
    )
    if len(status) < 2 or not status[1].isdigit() or length != len(payload):
        raise OSError(f"an answer cut short from {parts.path}: {answer[:200]!r}")
    if int(status[1]) >= 400:
        raise OSError(f"HTTP {int(status[1])} from {parts.path}: {payload[:200]!r}")
    return orjson.loads(payload)


def _post(url: str, body: dict[str, Any]) -> Any:
    """POST a JSON body; the answer's JSON (OSError for an error status). Plain http.client:
    urllib looks up the proxies in the environment and builds an opener on every call."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        conn.request("POST", parts.path, orjson.dumps(body), {"Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    if response.status >= 400:
        raise OSError(f"HTTP {response.status} from {parts.path}: {data[:200]!r}")
    return orjson.loads(data)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(
    port: int,
    database: str,
    pythonpath: str | None,
    profile: str | None = None,
    bot_workers: int | None = None,
) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if pythonpath:
        # Serve another checkout's code (figures before and after a change, same run).
        env["PYTHONPATH"] = os.pathsep.join(p for p in (pythonpath, env.get("PYTHONPATH")) if p)
    # With ``profile``: the server runs under cProfile, written there when it stops.
    profiled = ["-m", "cProfile", "-o", profile] if profile else []
    return subprocess.Popen(
        [
            sys.executable,
            *profiled,
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
            # The load test is one address opening (and polling) many rooms at once.
            "--room-rate",
            "1000000/minute",
            "--room-read-rate",
            "1000000/minute",
            "--connect-rate",
            "1000000/minute",
            "--max-live-rooms",
            "1000000",
            # A scripted seat answers at once: a fast room's seat sends more than a person's
            # 20 messages a second, and its refused action would stop its room.
            "--messages-per-second",
            "1000",
            "--debug-memory",
            *(["--bot-workers", str(bot_workers)] if bot_workers is not None else []),
        ],
        stdout=subprocess.DEVNULL,
        env=env,
    )


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_wait(pid: int) -> float | None:
    """Seconds the threads of a process have spent ready to run but waiting for a CPU
    (Linux /proc/PID/task/*/schedstat; None where there is none). A thread that has ended
    takes its figure with it: the load test's threads live through the play."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            path = f"/proc/{pid}/task/{task}/schedstat"
            with contextlib.suppress(OSError), open(path) as stat:  # OSError: it just ended
                total += int(stat.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return total / 1e9


def _stop(server: subprocess.Popen[bytes], profiled: bool = False) -> None:
    # uvicorn raises the signal again once it has shut down: SIGTERM would then end the
    # process before cProfile writes; after SIGINT (KeyboardInterrupt) it writes.
    wait = 120.0 if profiled else 10.0
    if profiled:
        server.send_signal(signal.SIGINT)
    else:
        server.terminate()
    try:
        server.wait(wait)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(10)


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
    bot_workers: int | None = None,
    kill_after: float | None = None,
    server_pythonpath: str | None = None,
    profile: str | None = None,
    memory_sites: int = 0,
    think: float = 0.0,
    seats: str = "random",
) -> Figures:
    """Start a server, drive ``rooms`` rooms for ``actions`` actions each or ``seconds``
    (and keep ``bot_rooms`` rooms of ``bot_level`` bots playing meanwhile).

    ``think``: each scripted seat waits about that many seconds before it answers (a
    person's pace; 0: at once, as fast as the server and this client go).

    ``seats``: "random" (each seat picks a legal action at random) or the name of one of
    the game's bots (e.g. "heuristic"), which each seat asks from its whole view.

    ``kill_after``: that many seconds into the play, kill -9 the server and start it again
    on the same port and database; the seats reconnect and play on. At the end every
    action a seat was told was accepted is looked up in storage.
    """
    if seats != "random":
        check_agent(game, seats)  # a wrong name fails before any server starts
    port = port or _free_port()
    base = f"http://127.0.0.1:{port}"
    crash: dict[str, Any] | None = None
    with tempfile.TemporaryDirectory(prefix="deathnote-load-") as tmp:
        database = db or str(Path(tmp) / "load.db")
        server = _start_server(port, database, server_pythonpath, profile, bot_workers)
        cpu = 0.0
        collector = contextlib.ExitStack()
        try:
            await _wait_ready(base, server)
            before = await asyncio.to_thread(_get, f"{base}/api/debug/memory?top={memory_sites}")
            bots = BotRooms(base, game, bot_rooms, bot_level)
            bot_task = asyncio.create_task(bots.run()) if bot_rooms else None
            go = asyncio.Event()
            # Making and connecting the rooms has its own bound; ``seconds`` of play start
            # once every room is live (each driver's deadline is moved then).
            deadline = time.monotonic() + 2 * seconds
            drivers = [
                RoomDriver(base, game, actions, deadline, seed=i, go=go, think=think, seats=seats)
                for i in range(rooms)
            ]
            # Open the rooms in waves so the connection burst stays bounded.
            connecting = time.monotonic()
            tasks = []
            for driver in drivers:
                tasks.append(asyncio.create_task(driver.run()))
                await asyncio.sleep(0.002)
            # Memory while every room is live (all N rooms made and connected), then play.
            live = [asyncio.create_task(d.connected.wait()) for d in drivers]
            await asyncio.wait(live, timeout=seconds)
            after = await asyncio.to_thread(
                _get, f"{base}/api/debug/memory?stop=true&top={memory_sites}"
            )
            start = time.monotonic()
            connect_seconds = start - connecting
            for driver in drivers:
                driver.deadline = start + seconds
            # This client's collector as the server's while the rooms play (the rooms and
            # their sockets frozen out of it): about a fifth of its CPU went to collecting.
            collector.enter_context(settled())
            client_pauses = Pauses().start()
            collector.callback(client_pauses.stop)
            play_start = time.time()
            cpu_start = _cpu_seconds(server.pid)
            client_start = _client_cpu()
            server_wait = _cpu_wait(server.pid)
            client_wait = _cpu_wait(os.getpid())
            go.set()
            mark = os.environ.get("DEATHNOTE_LOADTEST_PLAYING")
            if mark:  # a profiler waiting for the play to start (not the connections)
                Path(mark).write_text(f"{server.pid}\n")
            if kill_after is not None:
                await asyncio.sleep(kill_after)
                playing = {d.room for d in drivers if not d.over.is_set()}
                cpu += _cpu_seconds(server.pid) - cpu_start
                server.kill()  # SIGKILL: no shutdown handler runs
                server.wait(10)
                killed = time.monotonic()
                told_before = sum(1 for d in drivers for a in d.acked if a[4] <= killed)
                server = _start_server(port, database, server_pythonpath, bot_workers=bot_workers)
                await _wait_ready(base, server)
                cpu_start = _cpu_seconds(server.pid)
                restarted = time.monotonic()
            await asyncio.wait(tasks, timeout=seconds + 30)
            # The rate is over the play: from the start to the last action acknowledged
            # (not the rooms' closing afterwards).
            told = [a[4] for d in drivers for a in d.acked]
            elapsed = (max(told) if told else time.monotonic()) - start
            cpu += _cpu_seconds(server.pid) - cpu_start
            client_cpu = _client_cpu() - client_start
            waits = None
            if kill_after is None and server_wait is not None and client_wait is not None:
                server_waited, client_waited = _cpu_wait(server.pid), _cpu_wait(os.getpid())
                if server_waited is not None and client_waited is not None:
                    waits = (server_waited - server_wait, client_waited - client_wait)
            client_pauses.stop()
            # Read after the CPU figures (it collects the server's garbage first).
            final = await asyncio.to_thread(_get, f"{base}/api/debug/memory")
            failed = cut_off = 0
            errors: list[str] = []
            for task in tasks:
                if not task.done():
                    task.cancel()
                    cut_off += 1
                elif task.exception() is not None:
                    failed += 1
                    errors.append(repr(task.exception()))
            if bot_task is not None:
                bots.stop.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bot_task, 30)
        finally:
            collector.close()
            _stop(server, profiled=profile is not None)
        if kill_after is not None:
            acked = [a for d in drivers for a in d.acked]
            found = await asyncio.to_thread(_count_stored, database, acked)
            resumed = {a[0] for a in acked if a[4] >= restarted}.union(
                *(d.finished_rooms for d in drivers)
            )
            crash = {
                "after": kill_after,
                "restart_seconds": restarted - killed,
                "acknowledged": len(acked),
                "acknowledged_before_kill": told_before,
                "found": found,
                "lost": len(acked) - found,
                "live_at_kill": len(playing),
                "resumed": len(playing & resumed),
            }
    figures = Figures(
        rooms=rooms,
        seconds=elapsed,
        accepted=sum(d.accepted for d in drivers),
        rejected=sum(d.rejected for d in drivers),
        games_finished=sum(d.finished for d in drivers),
        failed_rooms=failed,
        cut_off_rooms=cut_off,
        latencies=[x for d in drivers for x in d.latencies],
        latency_at=[x for d in drivers for x in d.latency_at],
        play_start=play_start,
        server_pauses=None if kill_after is not None else _played(after, final, play_start),
        client_pauses=client_pauses.to_json(),
        memory_before=before,
        memory_after=after,
        rooms_in_memory=int(after.get("rooms", 0)) - int(before.get("rooms", 0)),
        server_cpu=cpu,
        client_cpu=client_cpu,
        server_cpu_wait=waits[0] if waits else None,
        client_cpu_wait=waits[1] if waits else None,
        crash=crash,
        errors=errors,
        connect_seconds=connect_seconds,
        think=think,
        seats=seats,
        bot_rooms=bot_rooms,
        bot_level=bot_level,
        bot_games=bots.played,
        commits=int(final.get("commits", 0)),
        stored=int(final.get("stored", 0)),
    )
    return figures


def _played(before: dict[str, Any], after: dict[str, Any], start: float) -> dict[str, Any] | None:
    """The server's collector pauses between two reads of its debug endpoint: the counts'
    differences and the long pauses that ended after ``start``."""
    if "collector" not in before or "collector" not in after:
        return None
    first, last = before["collector"], after["collector"]
    return {
        "collections": [
            b - a for a, b in zip(first["collections"], last["collections"], strict=True)
        ],
        "seconds": [b - a for a, b in zip(first["seconds"], last["seconds"], strict=True)],
        "long": [pause for pause in last["long"] if pause[0] >= start],
    }


def _count_stored(database: str, acked: list[tuple[str, int, int, dict[str, Any], float]]) -> int:
    """How many acknowledged actions storage holds, at their step, by their seat."""
    from deathnote.server.storage import Storage

    storage = Storage(database)
    try:
        found = 0
        records: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for room, step, seat, action, _told in acked:
            if room not in records:
                loaded = storage.load_room(room)
                records[room] = loaded.actions if loaded is not None else []
            stored = records[room]
            if step < len(stored) and stored[step][0] == seat:
                kept = {k: v for k, v in stored[step][1].items() if k in action}
                found += kept == action
        return found
    finally:
        storage.close()


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
