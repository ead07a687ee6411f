"""Several server processes on one PostgreSQL and one Redis (``deathnote serve --redis URL``).

Each room is run by exactly one process at a time, the holder of its lease: a Redis key
``deathnote:lease:<room>`` naming the process, set only when absent and with an expiry,
renewed by its holder every third of the lease. A process that dies stops renewing; once
the lease has expired the next process that needs the room takes it and rebuilds the room
from the database (every acknowledged action is committed there before it is told).

A WebSocket may land on any process. Its process (the socket's side) sends what the client
says to the room's owner, and the owner sends the connection's messages back, each over the
owner's or the socket's own Redis channel (``deathnote:to:<process>``); when the owner is
the socket's own process nothing goes through Redis. The owner treats a socket elsewhere
as one more connection of the room, built from what its token allows. The socket's side
checks the lease now and then; when the owner changed (or died and someone, maybe itself,
took the room over) it attaches again to the new owner, and the client gets a new view.

Only imported with ``--redis``: the default server needs neither Redis nor redis-py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from deathnote.engine.errors import DeathNoteError, IllegalAction
from deathnote.server import protocol
from deathnote.server.rooms import Connection, Room, RoomManager

log = logging.getLogger("deathnote.server")

PREFIX = "deathnote:"
#: Seconds a lease lasts unless renewed (renewed every third of it).
LEASE_SECONDS = 10.0
#: A call to another process (a room's owner) is answered within this or fails.
CALL_SECONDS = 10.0
#: Attempts at finding a room's owner before a socket is refused.
ATTACH_TRIES = 5

# Renew or release a lease only while this process still holds it.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""

# Close codes (as in app.py).
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_UNAVAILABLE = 4409
CLOSE_FULL = 4429
CLOSE_TRY_AGAIN = 1013

MOVED_NOTE = (
    "the room moved to another server process; an action that got no answer did not "
    "count: choose it again"
)

#: Runs a forwarded HTTP operation on the owner: (room, args) -> (status, JSON body).
Operation = Callable[[Room, dict[str, Any]], Awaitable[tuple[int, Any]]]


@dataclass
class Link:
    """One WebSocket on this process, attached to its room's owner (maybe this process)."""

    room_id: str
    token: str
    key: str = field(default_factory=lambda: secrets.token_hex(8))
    owner: str | None = None
    #: From the owner: ("out", message), ("close", code, text) or ("moved",).
    events: asyncio.Queue[tuple[Any, ...]] = field(default_factory=asyncio.Queue)


@dataclass
class Remote:
    """On the owner: a connection whose socket is on another process (or this one)."""

    room: Room
    conn: Connection
    proc: str
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


class Cluster:
    """This process's part of the cluster: leases, routing, and the Redis channel."""

    def __init__(
        self, url: str, manager: RoomManager, lease_seconds: float = LEASE_SECONDS
    ) -> None:
        self.url = url
        self.manager = manager
        self.lease_ms = max(300, int(lease_seconds * 1000))
        self.me = secrets.token_hex(8)
        self.redis: aioredis.Redis = aioredis.from_url(url)
        self.held: set[str] = set()
        self.links: dict[str, Link] = {}
        self.remotes: dict[str, Remote] = {}
        self.operations: dict[str, Operation] = {}
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        manager.cluster = self

    # -- keys -----------------------------------------------------------------------------
    @staticmethod
    def lease_key(room_id: str) -> str:
        """The Redis key of a room's lease."""
        return f"{PREFIX}lease:{room_id}"

    @staticmethod
    def channel(proc: str) -> str:
        """The Redis channel of a process."""
        return f"{PREFIX}to:{proc}"

    @staticmethod
    def alive_key(proc: str) -> str:
        """The key a live process keeps renewed."""
        return f"{PREFIX}alive:{proc}"

    # -- life ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Connect, listen on this process's channel, renew the leases in the background."""
        try:
            await self.redis.set(self.alive_key(self.me), "1", px=self.lease_ms)
            self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            await self._pubsub.subscribe(self.channel(self.me))
        except (RedisError, OSError) as exc:
            raise DeathNoteError(f"cannot reach Redis at {self.url!r}: {exc}") from None
        self._tasks = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._renew_forever()),
        ]

    async def stop(self) -> None:
        """Give back every lease (another process may take the rooms at once) and close."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(RedisError, OSError):
            for room_id in list(self.held):
                await self.release(room_id)
            await self.redis.delete(self.alive_key(self.me))
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()
        await self.redis.aclose()

    # -- leases -------------------------------------------------------------------------
    async def holder(self, room_id: str) -> str:
        """The process running this room, taking the lease when nobody holds it."""
        key = self.lease_key(room_id)
        for _ in range(3):
            if await self.redis.set(key, self.me, nx=True, px=self.lease_ms):
                self.held.add(room_id)
                return self.me
            current = await self.redis.get(key)
            if current is not None:
                holder = _text(current)
                if holder == self.me:
                    self.held.add(room_id)
                return holder
        raise DeathNoteError("the room's lease keeps changing hands; try again")

    async def claim(self, room_id: str) -> None:
        """Take the lease of a room just created here (nobody else can know its id)."""
        await self.redis.set(self.lease_key(room_id), self.me, px=self.lease_ms)
        self.held.add(room_id)

    async def release(self, room_id: str) -> None:
        """Give back a room's lease (only if this process still holds it)."""
        self.held.discard(room_id)
        await self.redis.eval(_RELEASE, 1, self.lease_key(room_id), self.me)

    def claim_soon(self, room_id: str) -> None:
        """``claim`` in the background (from code that cannot wait)."""
        self.held.add(room_id)
        self._background(self.claim(room_id))

    def store_failed(self, room_id: str) -> None:
        """An action of a room here was not stored: maybe another process stored that step
        (this one lost the room for a moment). Rebuild the room from storage."""
        self._background(self.drop(room_id))

    def forget(self, room_id: str) -> None:
        """A room left this process's memory: give its lease back in the background."""
        if room_id in self.held:
            self._background(self.release(room_id))

    def _background(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except (RedisError, OSError) as exc:
                log.warning("redis: %s", exc)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.append(task)
        task.add_done_callback(self._tasks.remove)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                await self.renew()
            except (RedisError, OSError) as exc:
                log.warning("renewing the leases failed: %s", exc)

    async def renew(self) -> None:
        """Renew every lease held; drop the rooms whose lease was lost; forget the
        connections of processes that died."""
        held = sorted(self.held)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self.alive_key(self.me), "1", px=self.lease_ms)
            for room_id in held:
                pipe.eval(_RENEW, 1, self.lease_key(room_id), self.me, self.lease_ms)
            results = await pipe.execute()
        for room_id, kept in zip(held, results[1:], strict=True):
            if not kept:
                log.warning("room %s: lease lost; another process runs it now", room_id)
                await self.drop(room_id)
        procs = sorted({r.proc for r in self.remotes.values() if r.proc != self.me})
        if procs:
            alive = await self.redis.exists(*[self.alive_key(p) for p in procs])
            if alive < len(procs):
                for proc in procs:
                    if not await self.redis.exists(self.alive_key(proc)):
                        for key, remote in list(self.remotes.items()):
                            if remote.proc == proc:
                                self._detach_remote(key)

    async def drop(self, room_id: str) -> None:
        """This process no longer runs the room: its sockets look for the new owner."""
        self.held.discard(room_id)
        room = self.manager.rooms.pop(room_id, None)
        for key, remote in list(self.remotes.items()):
            if remote.room.id == room_id:
                await self._to(remote.proc, {"k": "moved", "conn": key})
                self._detach_remote(key, tell=False)
        if room is not None:
            await room.stop()

    # -- rooms --------------------------------------------------------------------------
    async def own(self, room_id: str) -> Room | None:
        """The room, run here (its lease is held here): in memory or rebuilt from storage.

        None when there is no such room (the lease is given back); raises RoomUnavailable.
        """
        try:
            room = await self.manager.get_off_loop(room_id)
        except BaseException:
            await self.release(room_id)
            raise
        if room is None:
            await self.release(room_id)
            return None
        room.kick_bots()
        return room

    async def room_for_request(self, room_id: str) -> tuple[Room | None, str]:
        """For an HTTP request: the room and its owner. Run here when nobody else runs it;
        otherwise a copy read from storage (for reading only)."""
        owner = await self.holder(room_id)
        if owner == self.me:
            return await self.own(room_id), owner
        return await asyncio.to_thread(self.manager.load, room_id), owner

    async def restore(self) -> int:
        """Start-up: take and run the unfinished rooms whose bots must move and that no
        live process runs; returns their count."""
        count = 0
        ids = await asyncio.to_thread(self.manager.storage.unfinished_room_ids)
        for room_id in ids:
            if room_id in self.manager.rooms or await self.holder(room_id) != self.me:
                continue
            try:
                room = await self.manager.get_off_loop(room_id)
            except DeathNoteError as exc:
                self.manager.log(f"room {room_id} not restored: {exc}")
                await self.release(room_id)
                continue
            if room is None or room.dormant():
                self.manager.rooms.pop(room_id, None)
                await self.release(room_id)
                continue
            room.kick_bots()
            count += 1
        return count

    # -- messages between processes ---------------------------------------------------
    async def _to(self, proc: str, message: dict[str, Any]) -> None:
        if proc == self.me:
            await self._handle(message)
        else:
            await self.redis.publish(self.channel(proc), orjson.dumps(message))

    async def _listen(self) -> None:
        assert self._pubsub is not None
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError) as exc:
                log.warning("redis channel: %s", exc)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                await self._handle(orjson.loads(message["data"]))
            except Exception:
                log.exception("a message from another server process failed")

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "attach":
            await self._on_attach(message)
        elif kind == "msg":
            remote = self.remotes.get(message["conn"])
            if remote is None:
                await self._to(message["from"], {"k": "moved", "conn": message["conn"]})
            else:
                remote.inbox.put_nowait(message["text"])
        elif kind == "detach":
            self._detach_remote(message["conn"], tell=False)
        elif kind in ("out", "close", "moved"):
            link = self.links.get(message["conn"])
            if link is not None:
                if kind == "out":
                    link.events.put_nowait(("out", message["m"]))
                elif kind == "close":
                    link.events.put_nowait(("close", message["code"], message["text"]))
                else:
                    link.events.put_nowait(("moved",))
        elif kind == "call":
            self._background(self._on_call(message))
        elif kind == "reply":
            future = self._calls.pop(message["id"], None)
            if future is not None and not future.done():
                future.set_result(message)

    # -- the owner's side of a socket -----------------------------------------------------
    async def _on_attach(self, message: dict[str, Any]) -> None:
        key, proc, room_id = message["conn"], message["from"], message["room"]
        room = self.manager.rooms.get(room_id) if room_id in self.held else None
        if room is None and room_id in self.held:
            # Taken here a moment ago and still being rebuilt: wait for it.
            with contextlib.suppress(DeathNoteError):
                room = await self.manager.get_off_loop(room_id)
        if room is None:
            await self._to(proc, {"k": "moved", "conn": key})
            return

        async def refuse(code: int, text: str) -> None:
            await self._to(proc, {"k": "close", "conn": key, "code": code, "text": text})

        try:
            role, seat = room.role_of(message["token"])
        except IllegalAction as exc:
            await refuse(CLOSE_FORBIDDEN, str(exc))
            return

        async def send(out: dict[str, Any]) -> None:
            await self._to(proc, {"k": "out", "conn": key, "m": out})

        conn = Connection(role, seat, send)
        remote = Remote(room, conn, proc)
        try:
            room.attach(conn)
        except IllegalAction as exc:
            await refuse(CLOSE_FULL, str(exc))
            return
        self.remotes[key] = remote
        remote.tasks = [
            asyncio.create_task(self._write(key, remote)),
            asyncio.create_task(self._read(remote)),
        ]

    async def _write(self, key: str, remote: Remote) -> None:
        try:
            await remote.room.writer(remote.conn)
        finally:
            if self.remotes.get(key) is remote:
                # Too slow to keep up (or a send failed): the socket's side closes it.
                with contextlib.suppress(RedisError, OSError):
                    await self._to(
                        remote.proc,
                        {"k": "close", "conn": key, "code": 1008, "text": "too slow"},
                    )
                self._detach_remote(key, tell=False)

    async def _read(self, remote: Remote) -> None:
        while True:
            text = await remote.inbox.get()
            if text is None:
                return
            await protocol.answer(remote.room, remote.conn, text)

    def _detach_remote(self, key: str, tell: bool = False) -> None:
        remote = self.remotes.pop(key, None)
        if remote is None:
            return
        remote.room.detach(remote.conn)
        remote.conn.wake.set()
        for task in remote.tasks:
            if task is not asyncio.current_task():
                task.cancel()

    # -- the socket's side ----------------------------------------------------------------
    async def serve_socket(
        self,
        room_id: str,
        token: str,
        send: Callable[[dict[str, Any]], Awaitable[None]],
        receive: Callable[[], Awaitable[str | bytes | None]],
        close: Callable[[int], Awaitable[None]],
    ) -> None:
        """Run one accepted WebSocket of a room until either side ends it.

        ``receive`` returns the next text (None once the client left); ``send`` writes a
        message; ``close`` closes the socket with a code.
        """
        link = Link(room_id, token)
        self.links[link.key] = link
        tasks: list[asyncio.Task[Any]] = []
        try:
            refused = await self._attach(link)
            if refused is not None:
                code, text = refused
                await send({"type": "error", "message": text})
                await close(code)
                return
            tasks = [
                asyncio.create_task(self._client_reader(link, receive)),
                asyncio.create_task(self._client_writer(link, send, close)),
                asyncio.create_task(self._watch(link)),
            ]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.links.pop(link.key, None)
            if link.owner is not None:
                with contextlib.suppress(RedisError, OSError):
                    await self._to(link.owner, {"k": "detach", "conn": link.key})

    async def _attach(self, link: Link) -> tuple[int, str] | None:
        """Attach the socket to its room's owner; (code, reason) when it is refused."""
        for attempt in range(ATTACH_TRIES):
            if attempt:
                await asyncio.sleep(0.1 * attempt)
            try:
                owner = await self.holder(link.room_id)
                if owner == self.me:
                    room = await self.own(link.room_id)
                    if room is None:
                        return CLOSE_NOT_FOUND, f"no room {link.room_id[:40]!r}"
            except DeathNoteError as exc:
                return CLOSE_UNAVAILABLE, str(exc)
            except (RedisError, OSError):
                log.exception("redis failed while opening room %s", link.room_id)
                return CLOSE_TRY_AGAIN, "the server cannot reach its peers; try again"
            link.owner = owner
            # A refusal (a wrong token, a full room) comes back as a close event.
            await self._to(
                owner,
                {
                    "k": "attach",
                    "conn": link.key,
                    "from": self.me,
                    "room": link.room_id,
                    "token": link.token,
                },
            )
            return None
        return CLOSE_TRY_AGAIN, "the room's server could not be found; try again"

    async def _reattach(self, link: Link) -> None:
        old = link.owner
        link.owner = None
        if old is not None and old != self.me:
            with contextlib.suppress(RedisError, OSError):
                await self._to(old, {"k": "detach", "conn": link.key})
        elif old == self.me:
            self._detach_remote(link.key)
        refused = await self._attach(link)
        if refused is not None:
            link.events.put_nowait(("close", *refused))
        else:
            link.events.put_nowait(("out", {"type": "error", "message": MOVED_NOTE}))

    async def _client_reader(
        self, link: Link, receive: Callable[[], Awaitable[str | bytes | None]]
    ) -> None:
        while True:
            text = await receive()
            if text is None:
                return
            if isinstance(text, bytes):
                text = "\x00"  # not JSON text: the owner answers with the usual error
            owner = link.owner
            if owner is None:
                continue  # between two owners: unanswered, as if lost on the way
            if owner == self.me:
                remote = self.remotes.get(link.key)
                if remote is not None:
                    await remote.inbox.put(text)
                continue
            await self._to(owner, {"k": "msg", "conn": link.key, "from": self.me, "text": text})

    async def _client_writer(
        self,
        link: Link,
        send: Callable[[dict[str, Any]], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
    ) -> None:
        while True:
            event = await link.events.get()
            if event[0] == "out":
                await send(event[1])
            elif event[0] == "close":
                await send({"type": "error", "message": event[2]})
                await close(event[1])
                return
            else:  # moved: the room has another owner now
                await asyncio.sleep(0.05)
                await self._reattach(link)

    async def _watch(self, link: Link) -> None:
        """Now and then: is the owner still the lease holder? Otherwise attach again."""
        while True:
            await asyncio.sleep(self.lease_ms / 2000)
            try:
                current = await self.redis.get(self.lease_key(link.room_id))
            except (RedisError, OSError) as exc:
                log.warning("redis: %s", exc)
                continue
            holder = _text(current) if current is not None else None
            if holder != link.owner:
                await self._reattach(link)

    # -- HTTP operations on another process's room ------------------------------------
    async def call(self, owner: str, op: str, room_id: str, args: dict[str, Any]) -> Any:
        """Run an operation on the room's owner; its (status, body)."""
        call_id = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        try:
            await self._to(
                owner,
                {
                    "k": "call",
                    "id": call_id,
                    "from": self.me,
                    "op": op,
                    "room": room_id,
                    "args": args,
                },
            )
            reply = await asyncio.wait_for(future, CALL_SECONDS)
        except TimeoutError:
            return 503, {"error": "the room's server did not answer; try again"}
        finally:
            self._calls.pop(call_id, None)
        return reply["status"], reply["body"]

    async def _on_call(self, message: dict[str, Any]) -> None:
        room = self.manager.rooms.get(message["room"]) if message["room"] in self.held else None
        operation = self.operations.get(message["op"])
        if room is None or operation is None:
            status, body = 503, {"error": "the room moved to another server process; try again"}
        else:
            status, body = await operation(room, message["args"])
        await self._to(
            message["from"], {"k": "reply", "id": message["id"], "status": status, "body": body}
        )


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
