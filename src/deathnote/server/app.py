"""The FastAPI application: pages, the JSON API and the play WebSocket.

Nothing a client sends names a server path, and nothing it sends runs long on the event
loop: matches are built and replayed in worker threads, and every input is bounded by the
server's ``Limits`` (see ``docs/security.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import resource
import time
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deathnote.agents import agent_names, bot_choices
from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Viewer
from deathnote.engine.errors import DeathNoteError, IllegalAction
from deathnote.engine.options import schema as options_schema
from deathnote.engine.registry import games
from deathnote.server import protocol
from deathnote.server.clock import Clock
from deathnote.server.collector import Pauses
from deathnote.server.config import Limits
from deathnote.server.ratelimit import LocalMovingWindow
from deathnote.server.ratings import leaderboard
from deathnote.server.rooms import (
    CREATOR_ROLE,
    Connection,
    Room,
    RoomManager,
    View,
    WrongLink,
)
from deathnote.server.schema import protocol_schema
from deathnote.server.storage import Storage

WEB = Path(str(resources.files("deathnote") / "web"))
log = logging.getLogger("deathnote.server")

# WebSocket close codes of this server (besides 1009, a frame over the transport limit).
CLOSE_FORBIDDEN = 4403  # a wrong or missing token, or a page of a foreign origin
CLOSE_NOT_FOUND = 4404  # no such room
CLOSE_UNAVAILABLE = 4409  # a room recorded under other rules
CLOSE_FULL = 4429  # the room has its maximum of connections
CLOSE_TOO_MANY = 4429  # the address opened more connections than --connect-rate allows


class CreateRoom(BaseModel):
    """Body of ``POST /api/rooms``: strict JSON types, unknown fields (``content``) refused.

    There is no way to name content or any other file: a room plays the game's shipped
    content with the options given here as data.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str
    players: int | None = None
    options: dict[str, Any] | None = None
    seats: list[dict[str, Any]] | None = None
    seed: int | None = None
    #: The turn clock: none (default), relaxed, normal or fast.
    clock: str | None = None
    #: The game's end updates the players' ratings (leaderboard per game).
    rated: bool = False


class TokenBody(BaseModel):
    """A body carrying a room token (and, for a seat handed to a bot, the bot's name)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str
    agent: str | None = None
    #: a rematch's seating: same, swap or shuffle
    seating: str = "same"


class MuteBody(BaseModel):
    """The creator's token and whether the seat is muted in the chat."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str
    muted: bool = True


PlaySocket = Callable[[WebSocket, str, str], Awaitable[None]]


class App(FastAPI):
    """FastAPI, with the play WebSocket (``/ws/{room_id}?token=...``) answered before the
    routing and the middleware, which only HTTP requests need: every send of a view went
    through four wrappers of the exception and telemetry middleware, and each socket kept
    their exit stacks and closures for its whole life (about a fifth of a room's memory
    and a tenth of the CPU of an action in ``deathnote loadtest``)."""

    play_socket: PlaySocket | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.play_socket is not None:
            path = scope["path"]
            room_id = path[4:] if path.startswith("/ws/") else ""
            if room_id and "/" not in room_id:
                ws = WebSocket(scope, receive, send)
                await self.play_socket(ws, room_id, ws.query_params.get("token", ""))
                return
        await super().__call__(scope, receive, send)


def _page(name: str) -> FileResponse:
    return FileResponse(WEB / "templates" / name, media_type="text/html")


def room_rate_limiter(redis: str | None) -> MovingWindowRateLimiter | LocalMovingWindow:
    """The limiter of new rooms per address: in this process's memory, or with ``--redis``
    in that Redis, so that several processes share one count (otherwise N processes
    behind a load balancer would let an address make N times as many rooms)."""
    if redis is None:
        return LocalMovingWindow()
    storage = RedisStorage(
        f"async+{redis}", implementation="redispy", key_prefix="deathnote:limits"
    )
    return MovingWindowRateLimiter(storage)


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``max_bytes`` is answered 413.

    A declared Content-Length over the limit is refused before reading; a body streamed
    without one is counted as it arrives and refused as soon as it passes the limit.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_bytes):
                await self._refuse(send)
                return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise HTTPException(413, self._message())
            return message

        await self.app(scope, limited, send)

    def _message(self) -> str:
        return f"the request body is too large (at most {self.max_bytes} bytes)"

    async def _refuse(self, send: Send) -> None:
        body = orjson.dumps({"error": self._message()})
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a WebSocket from a page of ``origin`` may open here.

    No Origin header: not a browser page (a terminal client, a bot), allowed. Otherwise the
    origin must be this server's own (same host and port, http or https) or listed.
    """
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if origin in (o.rstrip("/").lower() for o in allowed):
        return True
    return host is not None and origin in (f"http://{host.lower()}", f"https://{host.lower()}")


def create_app(
    db: str,
    bot_delay: float = 0.0,
    idle_seconds: float = 60.0,
    debug_memory: bool = False,
    limits: Limits | None = None,
    bot_workers: int | None = None,
    redis: str | None = None,
    lease_seconds: float = 10.0,
    clock: Clock | None = None,
    clock_scale: float = 1.0,
) -> FastAPI:
    """The app, storing rooms in ``db`` (a SQLite path or a database URL).

    With ``redis`` (a Redis URL) it is one of several processes sharing ``db`` (a
    PostgreSQL URL): see ``server.cluster``. ``clock``: the turn clocks' time source
    (tests pass a FakeClock); ``clock_scale`` multiplies every clock's seconds
    (``serve --clock-scale``, for tests of a real server).
    """
    limits = limits or Limits()
    storage = Storage(db)
    manager = RoomManager(
        storage,
        bot_delay=bot_delay,
        idle_seconds=idle_seconds,
        limits=limits,
        bot_workers=bot_workers,
        clock=clock,
        clock_scale=clock_scale,
    )
    cluster = None
    if redis is not None:
        try:
            from deathnote.server.cluster import Cluster  # only with --redis
        except ImportError as exc:
            raise DeathNoteError(
                f"--redis needs redis-py ({exc}); install it with pip install 'deathnote[scale]'"
            ) from None
        cluster = Cluster(redis, manager, lease_seconds=lease_seconds)
    room_rate = limits.room_rate_item()
    room_limiter = room_rate_limiter(redis)
    read_rate = limits.room_read_rate_item()
    connect_rate = limits.connect_rate_item()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if cluster is not None:
            await cluster.start()
            await cluster.restore()
        else:
            manager.restore()
        sweeper = asyncio.create_task(manager.sweep_forever())
        yield
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        await manager.close()
        # The queued commits land before the leases are given back.
        await asyncio.to_thread(storage.commits.close)
        if cluster is not None:
            await cluster.stop()
        storage.close()

    app = App(title="deathnote", lifespan=lifespan)
    app.state.manager = manager
    app.state.limits = limits
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Every refusal answers in one shape, {"error": text}, as the API's own answers do
        # (FastAPI's default would be {"detail": ...}).
        return JSONResponse(
            {"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        where = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}"
            for e in exc.errors()[:5]
        )
        return JSONResponse({"error": f"invalid request ({where})"[:500]}, status_code=422)

    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")

    async def located(room_id: str) -> tuple[Room, str | None]:
        """The room and the process running it (None: this one; else ours is a copy)."""
        owner = None
        try:
            if cluster is None:
                room = await manager.get_off_loop(room_id)
            else:
                room, holder = await cluster.room_for_request(room_id)
                owner = None if holder == cluster.me else holder
        except DeathNoteError as exc:
            raise HTTPException(409, str(exc)) from None
        if room is None:
            raise HTTPException(404, f"no room {room_id[:40]!r}")
        return room, owner

    async def room_or_error(room_id: str) -> Room:
        return (await located(room_id))[0]

    async def seconds_to_wait(rate: Any, kind: str, address: str) -> int:
        """Count one hit of ``address`` under ``kind``: 0 within ``rate``, else the whole
        seconds until the window lets it in again."""
        if await room_limiter.hit(rate, kind, address):
            return 0
        reset = (await room_limiter.get_window_stats(rate, kind, address)).reset_time
        return max(1, round(reset - time.time()))

    async def within_rate(request: Request, kind: str, rate: Any, text: str) -> None:
        """Refuse (429 with Retry-After) an address that passed ``rate`` (counted under
        ``kind``)."""
        address = request.client.host if request.client else "unknown"
        if wait := await seconds_to_wait(rate, kind, address):
            raise HTTPException(429, f"{text}; try again in {wait} s", {"Retry-After": str(wait)})

    async def linked(room_id: str, token: str, refusal: str = "") -> None:
        """Refuse (403) a token that is not one of the room's links, before the room is
        loaded, and the same way when there is no such room."""
        try:
            await manager.check_link(room_id, token)
        except WrongLink as exc:
            raise HTTPException(403, f"{refusal}{exc}") from None

    async def read_room(request: Request, room_id: str, token: str, refusal: str = "") -> Room:
        """The room of a read (``GET``): within the read rate, with one of its links."""
        await within_rate(
            request,
            "reads",
            read_rate,
            f"too many reads of rooms from your address ({limits.room_read_rate})",
        )
        await linked(room_id, token, refusal)
        return await room_or_error(room_id)

    async def on_owner(room_id: str, op: str, args: dict[str, Any]) -> Response:
        """Run an operation that changes a room where the room is run (the token checked
        before the room is loaded)."""
        await linked(room_id, args["token"])
        room, owner = await located(room_id)
        if owner is not None and cluster is not None:
            status, body = await cluster.call(owner, op, room.id, args)
        else:
            status, body = await operations[op](room, args)
        return JSONResponse(body, status_code=status)

    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    # -- pages ----------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return _page("lobby.html")

    @app.get("/play/{room_id}", include_in_schema=False)
    async def play_page(room_id: str) -> FileResponse:
        return _page("play.html")

    @app.get("/room/{room_id}", include_in_schema=False)
    async def admin_page(room_id: str) -> FileResponse:
        return _page("room.html")

    @app.get("/rooms", include_in_schema=False)
    async def my_rooms_page() -> FileResponse:
        return _page("rooms.html")

    @app.get("/leaderboard/{game_id}", include_in_schema=False)
    async def leaderboard_page(game_id: str) -> FileResponse:
        return _page("leaderboard.html")

    @app.get("/api/leaderboard/{game_id}")
    async def leaderboard_api(game_id: str) -> Response:
        """The best-rated players of a game (names and ratings only, never a key)."""
        game = games().get(game_id)
        if game is None:
            return error(404, f"no game {game_id[:40]!r}")
        players = await asyncio.to_thread(leaderboard, storage, game.id)
        return JSONResponse({"game": game.id, "game_name": game.name, "players": players})

    @app.get("/replay/{room_id}", include_in_schema=False)
    async def replay_page(room_id: str) -> FileResponse:
        return _page("replay.html")

    # -- JSON API ---------------------------------------------------------------------------
    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        """Every registered game, with its player counts and bots."""
        return [
            {
                "id": g.id,
                "name": g.name,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "agents": agent_names(g.id),
                "bots": bot_choices(g.id),
                "seat_names": g.seat_names(g.min_players, g.parse_options(g.min_players, {})),
                "board": (WEB / "static" / "boards" / f"{g.id}.js").exists(),
                # the rules panel of every screen (issue 16 §6)
                "rules_summary": list(g.rules_summary),
                # the lobby's form is built from it (issue 16 §5)
                "options_schema": options_schema(g),
            }
            for g in games().values()
        ]

    @app.get("/api/protocol.json")
    async def protocol_json() -> dict[str, Any]:
        """The JSON Schema of the play WebSocket's messages (docs/protocol.md)."""
        return protocol_schema()

    @app.post("/api/rooms")
    async def create_room(body: CreateRoom, request: Request) -> Response:
        """A new room; the answer holds the invite links (keep it: it is the creator's)."""
        await within_rate(
            request,
            "rooms",
            room_rate,
            f"too many new rooms from your address ({limits.room_rate})",
        )
        if manager.full():
            return error(503, "the server holds as many rooms as it may; try again later")
        try:
            room = await manager.create_off_loop(
                body.game, body.players, body.options, body.seats, body.seed, body.clock, body.rated
            )
        except DeathNoteError as exc:
            return error(400, str(exc))
        except Exception:
            # Never a traceback or an OS error's text to the client: it is logged here.
            log.exception("creating a room failed")
            return error(500, "the room could not be created (the error is logged)")
        room.kick_bots()
        return JSONResponse(
            {"room": room.id, "creator_token": room.stored.creator_token, "links": room.links()},
            status_code=201,
        )

    @app.get("/api/rooms/{room_id}")
    async def room_info(request: Request, room_id: str, token: str = "") -> Response:
        """The room facts as this link's holder sees them; the creator also gets the links."""
        room = await read_room(request, room_id, token)
        try:
            role, seat = room.role_of(token)
        except IllegalAction as exc:
            return error(403, str(exc))
        # As this link's holder sees them (a seat: its own time left, even when covert).
        out: dict[str, Any] = {"room": room.public_info(SPECTATOR if seat is None else seat)}
        if role == CREATOR_ROLE:
            out["links"] = room.links()
        # What this link's holder may know of itself ("my rooms": is it my turn?).
        out["you"] = {
            "role": role,
            "seat": seat,
            "asked": seat is not None and seat in room.match.pending(),
        }
        return JSONResponse(out)

    async def do_hand_to_bot(room: Room, args: dict[str, Any]) -> tuple[int, Any]:
        try:
            role, _ = room.role_of(args["token"])
            if role != CREATOR_ROLE:
                return 403, {"error": "only the room's creator can hand a seat to a bot"}
            room.hand_to_bot(args["seat"], args["agent"])
        except IllegalAction as exc:
            return (403 if isinstance(exc, WrongLink) else 409), {"error": str(exc)}
        return 200, {"room": room.public_info()}

    async def do_rematch(room: Room, args: dict[str, Any]) -> tuple[int, Any]:
        try:
            role, seat = room.role_of(args["token"])
            new, _told = manager.rematch(room, args.get("seating", "same"))
        except IllegalAction as exc:
            return (403 if isinstance(exc, WrongLink) else 409), {"error": str(exc)}
        return 200, {"room": new.id, "url": new.link_for(role, room.new_seat(seat))}

    async def do_mute(room: Room, args: dict[str, Any]) -> tuple[int, Any]:
        try:
            role, _ = room.role_of(args["token"])
            if role != CREATOR_ROLE:
                return 403, {"error": "only the room's creator can mute a seat"}
            room.chat.mute(args["seat"], args["muted"])
        except IllegalAction as exc:
            return (403 if isinstance(exc, WrongLink) else 409), {"error": str(exc)}
        return 200, {"room": room.public_info()}

    operations = {"hand_to_bot": do_hand_to_bot, "rematch": do_rematch, "mute": do_mute}
    if cluster is not None:
        cluster.operations.update(operations)

    @app.post("/api/rooms/{room_id}/seats/{seat}/bot")
    async def hand_to_bot(room_id: str, seat: int, body: TokenBody) -> Response:
        """The creator hands an idle or absent seat to a bot."""
        return await on_owner(
            room_id, "hand_to_bot", {"token": body.token, "seat": seat, "agent": body.agent}
        )

    @app.post("/api/rooms/{room_id}/seats/{seat}/mute")
    async def mute(room_id: str, seat: int, body: MuteBody) -> Response:
        """The creator mutes (or unmutes) a seat in the chat."""
        return await on_owner(
            room_id, "mute", {"token": body.token, "seat": seat, "muted": body.muted}
        )

    @app.get("/api/rooms/{room_id}/chat")
    async def chat(request: Request, room_id: str, token: str = "") -> Response:
        """The chat this link may read (both channels once the game is over: the replay)."""
        room = await read_room(request, room_id, token)
        try:
            role, _seat = room.role_of(token)
        except IllegalAction as exc:
            return error(403, str(exc))
        # From storage, not the room in memory: here it may be another process's copy.
        stored = await asyncio.to_thread(storage.load_chat, room.id)
        finished = room.match.outcome() is not None or room.stored.finished
        return JSONResponse({"messages": room.chat.filter(stored, role, finished)})

    @app.post("/api/rooms/{room_id}/rematch")
    async def rematch(room_id: str, body: TokenBody) -> Response:
        """The rematch room (same game, options and seats); the answer is this token's link."""
        return await on_owner(room_id, "rematch", {"token": body.token, "seating": body.seating})

    @app.get("/api/rooms/{room_id}/replay")
    async def replay(
        request: Request, room_id: str, token: str = "", viewer: str = OMNISCIENT, step: int = -1
    ) -> Response:
        """A finished game's view after ``step`` actions (-1: the end) from any viewer.

        Open to the holders of the room's links (any seat, the spectators, the creator).
        """
        room = await read_room(
            request, room_id, token, "the replay needs one of the room's links: "
        )
        try:
            room.role_of(token)
        except IllegalAction as exc:
            return error(403, f"the replay needs one of the room's links: {exc}")
        if room.match.outcome() is None or room.storing:
            # (While the last action is being stored it may still not count.)
            return error(409, "the replay opens once the game is over")
        total = len(room.match.actions)
        if step < 0 or step > total:
            step = total
        try:
            who = _parse_viewer(viewer, room.match.players)
        except IllegalAction as exc:
            return error(400, str(exc))
        # From the nearest snapshot of the room's timeline, off the event loop.
        view = room.names().view((await asyncio.to_thread(room.at_step, step)).view(who))
        return JSONResponse(
            {
                "room": room.public_info(),
                "step": step,
                "steps": total,
                "viewer": who,
                "view": view,
                "last": _label(room, step) if who == OMNISCIENT else None,
            }
        )

    if debug_memory:
        tracemalloc.start()
        # The collector's pauses since the start (the load test reads them after its play).
        pauses = Pauses().start()
        first: list[tracemalloc.Snapshot] = []

        @app.get("/api/debug/memory")
        async def memory(stop: bool = False, top: int = 0) -> dict[str, Any]:
            """Process memory (for ``deathnote loadtest``; only with --debug-memory).

            ``stop``: stop tracing after this measure (tracing slows every allocation).
            ``top``: also the N lines of code that allocated most since the first call with
            ``top`` (which takes the snapshot they are compared with).

            Garbage is collected first: the figures are what the process holds, not the
            cycles waiting for the collector (how many wait depends on its thresholds).
            ``collector``: its pauses until this call (``Pauses``; this call's own
            collection is not among them).
            """
            collector = pauses.to_json()
            gc.collect()
            current, _peak = tracemalloc.get_traced_memory()
            sites: list[str] = []
            if top > 0:
                snapshot = tracemalloc.take_snapshot()
                if not first:
                    first.append(snapshot)
                else:
                    sites = [str(s) for s in snapshot.compare_to(first[0], "lineno")[:top]]
            if stop:
                tracemalloc.stop()
            return {
                "rss_bytes": _rss_bytes(),
                "max_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                "traced_bytes": current,
                "sites": sites,
                "rooms": len(manager.rooms),
                # Transactions of accepted actions, and the actions they stored.
                "commits": storage.commits.commits,
                "stored": storage.commits.stored,
                "collector": collector,
            }

    # -- the play WebSocket -----------------------------------------------------------------
    async def play(ws: WebSocket, room_id: str, token: str = "") -> None:
        if not origin_allowed(
            ws.headers.get("origin"), ws.headers.get("host"), limits.allowed_origins
        ):
            # Refused before the handshake completes: the page's browser sees HTTP 403.
            await ws.close(code=CLOSE_FORBIDDEN)
            return
        await ws.accept()

        async def send(message: dict[str, Any]) -> None:
            # A view comes encoded already (once for every connection sent it).
            text = message.text if isinstance(message, View) else orjson.dumps(message).decode()
            await ws.send_text(text)

        # Counted per address before any link is checked, so guessing links is bounded too.
        address = ws.client.host if ws.client else "unknown"
        if wait := await seconds_to_wait(connect_rate, "connects", address):
            await send(
                {
                    "type": "error",
                    "message": f"too many connections from your address "
                    f"({limits.connect_rate}); try again in {wait} s",
                }
            )
            await ws.close(code=CLOSE_TOO_MANY)
            return

        try:
            # The token first, before any room is loaded (no such room: the same refusal).
            await manager.check_link(room_id, token)
        except WrongLink as exc:
            await send({"type": "error", "message": str(exc)})
            await ws.close(code=CLOSE_FORBIDDEN)
            return

        if cluster is not None:
            # The room may be run by another process: the cluster routes the socket.
            async def receive() -> str | bytes | None:
                incoming = await ws.receive()
                if incoming["type"] == "websocket.disconnect":
                    return None
                text = incoming.get("text")
                return text if text is not None else incoming.get("bytes")

            async def close(code: int) -> None:
                await ws.close(code=code)

            try:
                await cluster.serve_socket(room_id, token, send, receive, close)
            finally:
                with contextlib.suppress(Exception):
                    await ws.close()
            return

        async def refuse(message: str, code: int) -> None:
            await send({"type": "error", "message": message})
            await ws.close(code=code)

        try:
            room = await manager.get_off_loop(room_id)
        except DeathNoteError as exc:
            await refuse(str(exc), CLOSE_UNAVAILABLE)
            return
        if room is None:
            await refuse(f"no room {room_id[:40]!r}", CLOSE_NOT_FOUND)
            return
        try:
            role, seat = room.role_of(token)
        except IllegalAction as exc:
            await refuse(str(exc), CLOSE_FORBIDDEN)
            return
        conn = Connection(role, seat, send)
        try:
            room.attach(conn)
        except IllegalAction as exc:
            await refuse(str(exc), CLOSE_FULL)
            return

        async def read() -> None:
            while not conn.closed:
                incoming = await ws.receive()
                if incoming["type"] == "websocket.disconnect":
                    return
                text = incoming.get("text")
                await protocol.answer(
                    room, conn, text if text is not None else incoming.get("bytes")
                )

        # The reader ends when the client leaves; the writer when a send fails or the
        # client is too slow to keep up. Either way the connection is over. The reading
        # runs in this handler's own task (one task less per socket): a writer that ends
        # first cancels it.
        writer = asyncio.create_task(room.writer(conn))
        reading = asyncio.current_task()
        over = False

        def writer_ended(_task: asyncio.Task[None]) -> None:
            if not over and reading is not None:
                reading.cancel()

        writer.add_done_callback(writer_ended)
        try:
            await read()
        except asyncio.CancelledError:
            # Cancelled by the writer's end: the connection is over. From elsewhere (the
            # server stopping): passed on once the connection is closed.
            if reading is None or not writer.done() or reading.uncancel() > 0:
                raise
        except Exception:  # a read that failed ends this connection only (as before)
            pass
        finally:
            over = True
            room.detach(conn)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                await writer
            with contextlib.suppress(Exception):
                await ws.close()

    app.play_socket = play
    return app


def _parse_viewer(text: str, players: int) -> Viewer:
    if text in (OMNISCIENT, SPECTATOR):
        return text
    if text.isdigit() and 0 <= int(text) < players:
        return int(text)
    shown = text[:40]
    raise IllegalAction(
        f"unknown viewer {shown!r}: a seat 0-{players - 1}, spectator or omniscient"
    )


def _label(room: Room, step: int) -> str | None:
    if step == 0:
        return None
    seat, action = room.match.actions[step - 1]
    names = room.names()
    return f"{names.display(seat)}: {names.text(action.label)}"


def _rss_bytes() -> int:
    with open(f"/proc/{os.getpid()}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0
