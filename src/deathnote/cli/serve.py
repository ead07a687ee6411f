"""``deathnote serve`` (the web app) and ``deathnote loadtest`` (a bounded load test)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

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
    debug_memory: Annotated[
        bool, typer.Option(hidden=True, help="Trace memory and expose /api/debug/memory.")
    ] = False,
) -> None:
    """Run the web app: rooms, invite links, bots, spectators; prints the address to open."""
    import uvicorn

    from deathnote.engine.errors import DeathNoteError
    from deathnote.server.app import create_app

    try:
        app = create_app(
            db, bot_delay=bot_delay, idle_seconds=idle_seconds, debug_memory=debug_memory
        )
    except DeathNoteError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"deathnote: open http://{shown}:{port}/ in a browser (rooms stored in {db})")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=64 * 1024,
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
) -> None:
    """Start a server on 127.0.0.1 and drive N rooms with scripted clients; print figures."""
    import asyncio

    from deathnote.server.loadtest import run_loadtest

    result = asyncio.run(run_loadtest(rooms, actions, seconds, game, db, port))
    for line in result.lines():
        typer.echo(line)
