"""``deathnote serve`` (the web app) and ``deathnote loadtest`` (a bounded load test)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from deathnote.server.config import FRAME_FACTOR, Limits

DEFAULTS = Limits()
DEFAULT_DB = str(Path.home() / ".deathnote" / "deathnote.db")


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLite file, or a database URL (postgresql://...).")
    ] = DEFAULT_DB,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds between two bot moves (so people can follow).")
    ] = 0.6,
    idle_seconds: Annotated[
        float, typer.Option(help="Seconds before the creator may hand an asked seat to a bot.")
    ] = 60.0,
    max_body_bytes: Annotated[
        int, typer.Option(help="Largest HTTP request body in bytes (larger: 413).")
    ] = DEFAULTS.max_body_bytes,
    max_options_bytes: Annotated[
        int, typer.Option(help="Largest options of a new room, as JSON bytes.")
    ] = DEFAULTS.max_options_bytes,
    max_message_bytes: Annotated[
        int,
        typer.Option(
            help=f"Largest WebSocket message handled (larger: an error; over {FRAME_FACTOR}x "
            "this the socket closes with code 1009)."
        ),
    ] = DEFAULTS.max_message_bytes,
    room_rate: Annotated[
        str, typer.Option(help="New rooms per client address, e.g. 20/minute (more: 429).")
    ] = DEFAULTS.room_rate,
    room_read_rate: Annotated[
        str,
        typer.Option(
            help="Reads of a room (its facts, chat and replay) per client address, e.g. "
            "300/minute (more: 429)."
        ),
    ] = DEFAULTS.room_read_rate,
    connect_rate: Annotated[
        str,
        typer.Option(
            help="WebSocket connections per client address, e.g. 120/minute (more: closed "
            "with code 4429)."
        ),
    ] = DEFAULTS.connect_rate,
    max_live_rooms: Annotated[
        int, typer.Option(help="Rooms held in memory at once (a new room beyond: 503).")
    ] = DEFAULTS.max_live_rooms,
    unopened_room_seconds: Annotated[
        float, typer.Option(help="Seconds after which a room nobody opened is deleted.")
    ] = DEFAULTS.unopened_room_seconds,
    connections_per_room: Annotated[
        int, typer.Option(help="Live WebSocket connections of one room.")
    ] = DEFAULTS.connections_per_room,
    messages_per_second: Annotated[
        int, typer.Option(help="Messages per second one connection may send (more: an error).")
    ] = DEFAULTS.messages_per_second,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="An origin (https://host:port) whose pages may open the play WebSocket "
            "besides this server's own; repeat for several."
        ),
    ] = None,
    max_nickname_chars: Annotated[
        int, typer.Option(help="Longest nickname a player may choose (characters).")
    ] = DEFAULTS.max_nickname_chars,
    max_chat_chars: Annotated[
        int, typer.Option(help="Longest chat message (characters; longer: an error).")
    ] = DEFAULTS.max_chat_chars,
    chat_rate: Annotated[
        str,
        typer.Option(help="Chat messages per seat or spectator, e.g. 12/minute (more: an error)."),
    ] = DEFAULTS.chat_rate,
    spectator_chat_rate: Annotated[
        str,
        typer.Option(
            help="Chat messages all the spectators of one room may send together, e.g. "
            "30/minute (more: an error)."
        ),
    ] = DEFAULTS.spectator_chat_rate,
    max_chat_messages: Annotated[
        int,
        typer.Option(help="Chat messages one room keeps per channel (more: an error)."),
    ] = DEFAULTS.max_chat_messages,
    name_rate: Annotated[
        str,
        typer.Option(help="Nickname changes per seat, e.g. 6/minute (more: an error)."),
    ] = DEFAULTS.name_rate,
    clock_timeouts: Annotated[
        int,
        typer.Option(
            help="Clock timeouts after which a seat is handed to a bot until its person "
            "takes it back."
        ),
    ] = DEFAULTS.clock_timeouts,
    clock_scale: Annotated[
        float, typer.Option(hidden=True, help="Multiply every clock's seconds (tests).")
    ] = 1.0,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Worker processes the search bots think in (default: one per core but "
            "one; 0: in threads of the server, which slows everyone else's rooms).",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="A Redis URL (redis://host:port/0): run as one of several server processes "
            "sharing --db (a PostgreSQL URL) and this Redis; each room is run by one of them."
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(help="With --redis: seconds before a dead process's rooms are taken over."),
    ] = 10.0,
    debug_memory: Annotated[
        bool, typer.Option(hidden=True, help="Trace memory and expose /api/debug/memory.")
    ] = False,
) -> None:
    """Run the web app: rooms, invite links, bots, spectators; prints the address to open."""
    import uvicorn

    from deathnote.engine.errors import DeathNoteError
    from deathnote.server.app import create_app
    from deathnote.server.collector import settle

    try:
        limits = Limits(
            max_body_bytes=max_body_bytes,
            max_options_bytes=max_options_bytes,
            max_message_bytes=max_message_bytes,
            room_rate=room_rate,
            room_read_rate=room_read_rate,
            connect_rate=connect_rate,
            max_live_rooms=max_live_rooms,
            unopened_room_seconds=unopened_room_seconds,
            connections_per_room=connections_per_room,
            messages_per_second=messages_per_second,
            allowed_origins=tuple(allow_origin or ()),
            max_nickname_chars=max_nickname_chars,
            max_chat_chars=max_chat_chars,
            chat_rate=chat_rate,
            spectator_chat_rate=spectator_chat_rate,
            max_chat_messages=max_chat_messages,
            name_rate=name_rate,
            clock_timeouts=clock_timeouts,
        )
        app = create_app(
            db,
            bot_delay=bot_delay,
            idle_seconds=idle_seconds,
            debug_memory=debug_memory,
            limits=limits,
            clock_scale=clock_scale,
            bot_workers=bot_workers,
            redis=redis,
            lease_seconds=lease_seconds,
        )
    except DeathNoteError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"deathnote: open http://{shown}:{port}/ in a browser (rooms stored in {db})")
    # The collector: start-up's objects frozen, young ones collected less often
    # (server.collector says why and what it measured).
    settle()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=FRAME_FACTOR * limits.max_message_bytes,
        ws_per_message_deflate=False,
    )


def loadtest(
    rooms: Annotated[int, typer.Option(help="Concurrent rooms.")] = 100,
    actions: Annotated[int, typer.Option(help="Actions to play in each room.")] = 50,
    seconds: Annotated[float, typer.Option(help="Stop after this many seconds at most.")] = 120.0,
    game: Annotated[str, typer.Option(help="Game of every room.")] = "confrontation",
    db: Annotated[
        str | None, typer.Option(help="Storage of the server (default: a temporary SQLite).")
    ] = None,
    port: Annotated[int, typer.Option(help="Port of the server on 127.0.0.1 (0: any).")] = 0,
    think: Annotated[
        float,
        typer.Option(help="A seat's mean seconds before it answers (a person's pace; 0: at once)."),
    ] = 0.0,
    seats: Annotated[
        str,
        typer.Option(
            help="How each scripted seat chooses: 'random' (a random legal action: short "
            "games, a room made every few actions) or a bot of the game that reads only "
            "its view, e.g. 'heuristic' (games of a realistic length).",
        ),
    ] = "random",
    bot_rooms: Annotated[
        int, typer.Option(help="Rooms of bots alone kept playing meanwhile (not measured).")
    ] = 0,
    bot_level: Annotated[str, typer.Option(help="The bots of those rooms.")] = "ismcts-hard",
    bot_workers: Annotated[
        int | None, typer.Option(help="The server's --bot-workers (0: bots in its threads).")
    ] = None,
    kill_after: Annotated[
        float | None,
        typer.Option(
            help="Seconds into the play: kill -9 the server, start it again, play on, and "
            "count the acknowledged actions found in storage."
        ),
    ] = None,
    server_pythonpath: Annotated[
        str | None,
        typer.Option(hidden=True, help="Serve the code of another checkout's src folder."),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(hidden=True, help="Run the server under cProfile, written to this file."),
    ] = None,
    memory_sites: Annotated[
        int,
        typer.Option(
            hidden=True,
            help="Print the N lines of the server's code that allocated most for the rooms.",
        ),
    ] = 0,
) -> None:
    """Start a server on 127.0.0.1 and drive N rooms with scripted clients; print figures."""
    import asyncio
    import contextlib

    from deathnote.server.loadtest import run_loadtest

    # The client shares the machine with the server it measures: on uvloop (installed
    # with uvicorn[standard], which the server runs on too) its event loop costs less.
    # Paired, 500 rooms --think 0.45 --seats heuristic, 3 rounds: the client's CPU per
    # accepted action 0.393-0.452 ms (median 0.396) against 0.447-0.456 (0.451).
    loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    with contextlib.suppress(ImportError):
        import uvloop

        loop_factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        result = runner.run(
            run_loadtest(
                rooms,
                actions,
                seconds,
                game,
                db,
                port,
                bot_rooms,
                bot_level,
                kill_after=kill_after,
                server_pythonpath=server_pythonpath,
                profile=profile,
                bot_workers=bot_workers,
                memory_sites=memory_sites,
                think=think,
                seats=seats,
            )
        )
    for line in result.lines():
        typer.echo(line)
