"""The WebSocket protocol: typed messages, one handler per ``type``.

Client to server::

    {"type": "act", "action": {"kind": ..., ...}, "step": n?, "seat": n?}
    {"type": "ping"}
    {"type": "rematch"}                       # once the game is over

Server to client::

    {"type": "view", "step", "since", "role", "seat", "room", "view"}  # this viewer's only;
                                    # since: null = the whole log, n = the log after step n
    {"type": "error", "message"}                               # this connection only
    {"type": "accepted", "step"}                               # your action is step n
    {"type": "rematch", "url"}                                 # this connection's new link
    {"type": "pong"}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from deathnote.engine.errors import IllegalAction
from deathnote.server.rooms import Connection, Room

MAX_MESSAGE_BYTES = 64 * 1024

Handler = Callable[[Room, Connection, dict[str, Any]], None]


def parse(text: str | bytes | None) -> dict[str, Any]:
    """A client message as a dict with a string ``type``; raises IllegalAction otherwise."""
    if text is None:
        raise IllegalAction("malformed message: send JSON text")
    if len(text) > MAX_MESSAGE_BYTES:
        raise IllegalAction("malformed message: too long")
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise IllegalAction("malformed message: not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise IllegalAction("malformed message: expected an object with a 'type' field")
    return data


def on_act(room: Room, conn: Connection, message: dict[str, Any]) -> None:
    """A seat's action."""
    room.act(conn, message)


def on_ping(room: Room, conn: Connection, message: dict[str, Any]) -> None:
    """Keep-alive."""
    conn.push({"type": "pong"})


def on_rematch(room: Room, conn: Connection, message: dict[str, Any]) -> None:
    """Start (or join) the rematch with the same seats; each connection gets its own link."""
    room.manager.rematch(room)


HANDLERS: dict[str, Handler] = {"act": on_act, "ping": on_ping, "rematch": on_rematch}


def handle(room: Room, conn: Connection, text: str | bytes | None) -> None:
    """Dispatch one message; raises IllegalAction (sent back to this connection only)."""
    message = parse(text)
    handler = HANDLERS.get(message["type"])
    if handler is None:
        raise IllegalAction(
            f"unknown message type {message['type']!r}; use one of {', '.join(HANDLERS)}"
        )
    handler(room, conn, message)
