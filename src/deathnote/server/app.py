"""The FastAPI application: pages, the JSON API and the play WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import tracemalloc
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from deathnote.agents import agent_names
from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Viewer
from deathnote.engine.errors import DeathNoteError, IllegalAction
from deathnote.engine.registry import games
from deathnote.server import protocol
from deathnote.server.rooms import CREATOR_ROLE, Connection, Room, RoomManager
from deathnote.server.storage import Storage

WEB = Path(str(resources.files("deathnote") / "web"))


class CreateRoom(BaseModel):
    """Body of ``POST /api/rooms``."""

    game: str
    players: int | None = None
    options: dict[str, Any] | None = None
    seats: list[dict[str, Any]] | None = None
    seed: int | None = None


class TokenBody(BaseModel):
    """A body carrying a room token (and, for a seat handed to a bot, the bot's name)."""

    token: str
    agent: str | None = None


def _page(name: str) -> FileResponse:
    return FileResponse(WEB / "templates" / name, media_type="text/html")


def create_app(
    db: str,
    bot_delay: float = 0.0,
    idle_seconds: float = 60.0,
    debug_memory: bool = False,
) -> FastAPI:
    """The app, storing rooms in ``db`` (a SQLite path or a database URL)."""
    storage = Storage(db)
    manager = RoomManager(storage, bot_delay=bot_delay, idle_seconds=idle_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager.restore()
        yield
        await manager.close()
        storage.close()

    app = FastAPI(title="deathnote", lifespan=lifespan)
    app.state.manager = manager
    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")

    def room_or_404(room_id: str) -> Room:
        room = manager.get(room_id)
        if room is None:
            raise HTTPException(404, f"no room {room_id!r}")
        return room

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
                "seat_names": g.seat_names(g.min_players, g.parse_options(g.min_players, {})),
                "board": (WEB / "static" / "boards" / f"{g.id}.js").exists(),
            }
            for g in games().values()
        ]

    @app.post("/api/rooms")
    async def create_room(body: CreateRoom) -> Response:
        """A new room; the answer holds the invite links (keep it: it is the creator's)."""
        try:
            room = manager.create(body.game, body.players, body.options, body.seats, body.seed)
        except DeathNoteError as exc:
            return error(400, str(exc))
        room.kick_bots()
        return JSONResponse(
            {"room": room.id, "creator_token": room.stored.creator_token, "links": room.links()},
            status_code=201,
        )

    @app.get("/api/rooms/{room_id}")
    async def room_info(room_id: str, token: str = "") -> Response:
        """Public room facts; with the creator token also the invite links."""
        room = room_or_404(room_id)
        out: dict[str, Any] = {"room": room.public_info(SPECTATOR)}
        try:
            role, _seat = room.role_of(token)
        except IllegalAction as exc:
            return error(403, str(exc))
        if role == CREATOR_ROLE:
            out["links"] = room.links()
        return JSONResponse(out)

    @app.post("/api/rooms/{room_id}/seats/{seat}/bot")
    async def hand_to_bot(room_id: str, seat: int, body: TokenBody) -> Response:
        """The creator hands an idle or absent seat to a bot."""
        room = room_or_404(room_id)
        try:
            role, _ = room.role_of(body.token)
            if role != CREATOR_ROLE:
                return error(403, "only the room's creator can hand a seat to a bot")
            room.hand_to_bot(seat, body.agent or _default_agent(room))
        except IllegalAction as exc:
            return error(409 if "token" not in str(exc) else 403, str(exc))
        return JSONResponse({"room": room.public_info()})

    @app.post("/api/rooms/{room_id}/rematch")
    async def rematch(room_id: str, body: TokenBody) -> Response:
        """The rematch room (same game, options and seats); the answer is this token's link."""
        room = room_or_404(room_id)
        try:
            role, seat = room.role_of(body.token)
            new = manager.rematch(room)
        except IllegalAction as exc:
            return error(403 if "token" in str(exc) else 409, str(exc))
        return JSONResponse({"room": new.id, "url": new.link_for(role, seat)})

    @app.get("/api/rooms/{room_id}/replay")
    async def replay(room_id: str, viewer: str = OMNISCIENT, step: int = -1) -> Response:
        """A finished game's view after ``step`` actions (-1: the end) from any viewer."""
        room = room_or_404(room_id)
        if room.match.outcome() is None:
            return error(409, "the replay opens once the game is over")
        total = len(room.match.actions)
        if step < 0 or step > total:
            step = total
        try:
            who = _parse_viewer(viewer, room.match.players)
        except IllegalAction as exc:
            return error(400, str(exc))
        view = room.at_step(step).view(who)
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

        @app.get("/api/debug/memory")
        async def memory(stop: bool = False) -> dict[str, Any]:
            """Process memory (for ``deathnote loadtest``; only with --debug-memory).

            ``stop``: stop tracing after this measure (tracing slows every allocation).
            """
            current, _peak = tracemalloc.get_traced_memory()
            if stop:
                tracemalloc.stop()
            return {
                "rss_bytes": _rss_bytes(),
                "max_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                "traced_bytes": current,
                "rooms": len(manager.rooms),
            }

    # -- the play WebSocket -----------------------------------------------------------------
    @app.websocket("/ws/{room_id}")
    async def play(ws: WebSocket, room_id: str, token: str = "") -> None:
        await ws.accept()

        async def send(message: dict[str, Any]) -> None:
            await ws.send_text(orjson.dumps(message).decode())

        room = manager.get(room_id)
        if room is None:
            await send({"type": "error", "message": f"no room {room_id!r}"})
            await ws.close(code=4404)
            return
        try:
            role, seat = room.role_of(token)
        except IllegalAction as exc:
            await send({"type": "error", "message": str(exc)})
            await ws.close(code=4403)
            return
        conn = Connection(role, seat, send)
        room.attach(conn)

        async def read() -> None:
            while not conn.closed:
                incoming = await ws.receive()
                if incoming["type"] == "websocket.disconnect":
                    return
                try:
                    protocol.handle(room, conn, incoming.get("text"))
                except DeathNoteError as exc:
                    conn.push({"type": "error", "message": str(exc)})

        # The reader ends when the client leaves; the writer when a send fails or the
        # client is too slow to keep up. Either way the connection is over.
        tasks = {asyncio.create_task(read()), asyncio.create_task(room.writer(conn))}
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            room.detach(conn)
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                    await task
            with contextlib.suppress(Exception):
                await ws.close()

    return app


def _default_agent(room: Room) -> str:
    names = agent_names(room.match.game.id)
    return "heuristic" if "heuristic" in names else "random"


def _parse_viewer(text: str, players: int) -> Viewer:
    if text in (OMNISCIENT, SPECTATOR):
        return text
    if text.isdigit() and 0 <= int(text) < players:
        return int(text)
    raise IllegalAction(f"unknown viewer {text!r}: a seat 0-{players - 1}, spectator or omniscient")


def _label(room: Room, step: int) -> str | None:
    if step == 0:
        return None
    seat, action = room.match.actions[step - 1]
    return f"{room.match.seat_name(seat)}: {action.label}"


def _rss_bytes() -> int:
    with open(f"/proc/{os.getpid()}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0
