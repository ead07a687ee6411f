"""The WebSocket protocol: typed messages (pydantic models), one handler per ``type``.

Client to server::

    {"type": "act", "action": {"kind": ..., ...}, "step": n?, "seat": n?}
    {"type": "ping"}
    {"type": "rematch", "seating": "same"|"swap"|"shuffle"?}   # once the game is over
    {"type": "name", "name": "...", "key"?}   # this seat's nickname (and player key)
    {"type": "chat", "text": "..."}           # seats: players' channel; others: spectators'
    {"type": "take_back"}                     # your seat back from the bot playing it

Server to client::

    {"type": "view", "step", "since", "role", "seat", "room", "view", "accepted"?}
                                    # this viewer's only;
                                    # since: null = the whole log, n = the log after step n;
                                    # view.patch instead of view.state: the operations
                                    # (engine.delta) from the state of step n to this one;
                                    # accepted: n in the sender's view once its action is
                                    # stored as step n (the answer to an act)
    {"type": "error", "message"}                               # this connection only
    {"type": "rematch", "url"}                                 # this connection's new link
    {"type": "named", "name"}                                  # your nickname as shown
    {"type": "chat", "number", "channel", "seat", "name", "text", "at"}  # to its readers
    {"type": "chat_log", "messages": [...]}        # on connecting: the chat you may read
    {"type": "taken_back", "seat"}                             # the seat is yours again
    {"type": "pong"}

Every message gets an answer on its own connection (a ``view`` with ``accepted``,
``pong``, ``rematch``, ``named``, ``chat``, ``taken_back`` or ``error``), and a message that is rejected changes nothing. Validation is strict JSON: a
boolean is not a number and a number is not a boolean.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from deathnote.engine.errors import DeathNoteError, IllegalAction
from deathnote.server.rooms import Connection, Room

log = logging.getLogger("deathnote.server")

Scalar = str | int | bool | None
UNEXPECTED = "the server could not handle this message (the error is logged); try again"


class ClientMessage(BaseModel):
    """Base of the client's messages: strict JSON types, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Act(ClientMessage):
    """A seat's action; ``step`` is the step the choice was made at, ``seat`` the sender's."""

    type: Literal["act"]
    action: dict[str, Scalar | list[Scalar]]
    step: int | None = None
    seat: int | None = None


class Ping(ClientMessage):
    """Keep-alive."""

    type: Literal["ping"]


class Name(ClientMessage):
    """The nickname of the sender's seat (shown to everyone as text)."""

    type: Literal["name"]
    name: str
    #: A player key (16-128 of A-Z a-z 0-9 - _): the same key is the same player across
    #: the rooms of this server, for ratings. Kept by the browser; only its hash is stored.
    key: str | None = None


class Chat(ClientMessage):
    """A chat message: a seat writes to the players, a spectator to the spectators."""

    type: Literal["chat"]
    text: str


class TakeBack(ClientMessage):
    """Take back the sender's seat from the bot that plays it (after timeouts)."""

    type: Literal["take_back"]


class Rematch(ClientMessage):
    """Start (or join) the rematch once the game is over; the first one chooses the seating."""

    type: Literal["rematch"]
    seating: Literal["same", "swap", "shuffle"] = "same"


async def on_act(room: Room, conn: Connection, message: Act) -> None:
    """A seat's action: answered by a view with ``accepted`` once it is stored (or an
    error)."""
    await room.act(conn, message.action, step=message.step, seat=message.seat)


def on_ping(room: Room, conn: Connection, message: Ping) -> None:
    """Keep-alive: answered ``pong``."""
    conn.push({"type": "pong"})


async def on_name(room: Room, conn: Connection, message: Name) -> None:
    """A seat's nickname: answered ``named`` with the nickname as it is shown (once stored)."""
    name = await room.set_nickname(conn, message.name, message.key)
    conn.push({"type": "named", "name": name})


async def on_chat(room: Room, conn: Connection, message: Chat) -> None:
    """A chat message: every reader of its channel gets it as ``chat`` (the sender too)."""
    await room.chat.say(conn, message.text)


def on_take_back(room: Room, conn: Connection, message: TakeBack) -> None:
    """The seat is the person's again: answered ``taken_back``."""
    room.take_back(conn)
    conn.push({"type": "taken_back", "seat": conn.seat})


def on_rematch(room: Room, conn: Connection, message: Rematch) -> None:
    """The rematch with the same seats; this connection is answered with its own link."""
    new, told = room.manager.rematch(room, message.seating)
    if not told or conn not in room.connections:
        conn.push({"type": "rematch", "url": room.rematch_link(new, conn)})


#: A handler answers at once (returns None) or once its awaitable is done.
Handler = Callable[[Room, Connection, Any], Awaitable[None] | None]

HANDLERS: dict[str, tuple[type[ClientMessage], Handler]] = {
    "act": (Act, on_act),
    "ping": (Ping, on_ping),
    "rematch": (Rematch, on_rematch),
    "name": (Name, on_name),
    "chat": (Chat, on_chat),
    "take_back": (TakeBack, on_take_back),
}


def parse(text: str | bytes | None, max_bytes: int) -> ClientMessage:
    """A client message as its model; raises IllegalAction with a reason otherwise."""
    if text is None or isinstance(text, bytes):
        raise IllegalAction("malformed message: send JSON text")
    if len(text) > max_bytes:
        raise IllegalAction(f"malformed message: too long (at most {max_bytes} bytes)")
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise IllegalAction("malformed message: not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise IllegalAction("malformed message: expected an object with a 'type' field")
    entry = HANDLERS.get(data["type"])
    if entry is None:
        shown = data["type"][:40]
        raise IllegalAction(f"unknown message type {shown!r}; use one of {', '.join(HANDLERS)}")
    try:
        return entry[0].model_validate(data)
    except ValidationError as exc:
        raise IllegalAction(_explain(data["type"], exc)) from None


def _explain(kind: str, exc: ValidationError) -> str:
    error = exc.errors()[0]
    loc = error["loc"]
    if loc and loc[0] == "action":
        if len(loc) == 1:
            return "malformed action: expected an object with a 'kind' field"
        return (
            f"malformed action: field {str(loc[1])[:40]!r} must be a number, a text, true, "
            "false, null or a list of those"
        )
    if error["type"] == "extra_forbidden":
        return f"malformed message: a {kind!r} message has no field {str(loc[0])[:40]!r}"
    if loc and loc[0] in ("step", "seat"):
        return f"malformed message: {loc[0]!r} must be a whole number (not true or false)"
    where = ".".join(str(p) for p in loc)[:60] or "message"
    return f"malformed message: {where}: {error['msg']}"


async def handle(room: Room, conn: Connection, text: str | bytes | None) -> None:
    """Dispatch one message; raises IllegalAction (sent back to this connection only)."""
    message = parse(text, room.manager.limits.max_message_bytes)
    _model, handler = HANDLERS[message.type]  # type: ignore[attr-defined]
    result = handler(room, conn, message)
    if result is not None:
        await result


async def answer(room: Room, conn: Connection, text: str | bytes | None) -> None:
    """Handle one message so that it always gets an answer and the socket stays open.

    Rejected input is answered with its reason; an unexpected failure is logged with its
    traceback and answered with a general error (the match is left as it was: the Match
    rebuilds its state when a rule fails, and an action is not accepted until stored).
    """
    try:
        if not room.manager.allow_message(conn):
            raise IllegalAction(
                f"too many messages: at most {room.manager.limits.messages_per_second} a "
                "second; this one was ignored"
            )
        await handle(room, conn, text)
    except DeathNoteError as exc:
        conn.push({"type": "error", "message": str(exc)})
    except Exception:
        log.exception("room %s: unexpected error on a message", room.id)
        conn.push({"type": "error", "message": UNEXPECTED})
