"""Table chat: the players' channel and a separate spectators' channel.

A seat's person writes to the players' channel, which every connection of the room reads
(players and spectators alike: it is the table talk). Spectators and the room's creator
write to the spectators' channel, which only they read while the game runs: a spectator
never writes to the players. Both channels are stored with the room and shown together in
the replay once the game is over.

Messages are bounded in length (``--max-chat-chars``) and in rate per seat or spectator
connection (``--chat-rate``), stripped of control characters, stored before anyone hears
of them, and always rendered as text by the pages. The creator can mute a seat.
"""

from __future__ import annotations

import time
import unicodedata
from typing import TYPE_CHECKING, Any

from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from deathnote.engine.errors import IllegalAction

if TYPE_CHECKING:
    from deathnote.server.rooms import Connection, Room

PLAYERS = "players"
SPECTATORS = "spectators"
#: Messages a connection receives when it opens (the newest ones).
HISTORY = 200

_limiter = MovingWindowRateLimiter(MemoryStorage())


def clean_text(text: str, max_chars: int) -> str:
    """The message as stored: control and format characters dropped (a new line kept as a
    space), trimmed; raises IllegalAction when empty or too long."""
    kept = "".join(
        " " if c in "\n\r\t" else c
        for c in text
        if c in "\n\r\t" or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    ).strip()
    if not kept:
        raise IllegalAction("a chat message needs some text")
    if len(kept) > max_chars:
        raise IllegalAction(f"a chat message has at most {max_chars} characters")
    return kept


def channel_of(conn: Connection) -> str:
    """The channel a connection writes to."""
    return PLAYERS if conn.seat is not None else SPECTATORS


def readable(conn_seat: int | None, finished: bool) -> tuple[str, ...]:
    """The channels a viewer reads: a seat reads the players' channel while the game runs
    (both once it is over); spectators and the creator always read both."""
    if conn_seat is None or finished:
        return (PLAYERS, SPECTATORS)
    return (PLAYERS,)


class RoomChat:
    """The chat of one room, loaded from storage with the room."""

    def __init__(self, room: Room, stored: list[dict[str, Any]]) -> None:
        self.room = room
        self.messages: list[dict[str, Any]] = stored

    def history_for(self, seat: int | None, finished: bool | None = None) -> list[dict[str, Any]]:
        """The messages this viewer may read, oldest first."""
        if finished is None:
            finished = self.room.match.outcome() is not None
        return self.filter(self.messages, seat, finished)

    @staticmethod
    def filter(
        messages: list[dict[str, Any]], seat: int | None, finished: bool
    ) -> list[dict[str, Any]]:
        """The messages of a list this viewer may read."""
        channels = readable(seat, finished)
        return [m for m in messages if m["channel"] in channels]

    def send_history(self, conn: Connection) -> None:
        """A new connection gets the newest messages it may read, in one message."""
        messages = self.history_for(conn.seat)[-HISTORY:]
        if messages:
            conn.push({"type": "chat_log", "messages": messages})

    def say(self, conn: Connection, text: str) -> dict[str, Any]:
        """A message from a connection: checked, stored, then sent to every reader."""
        room = self.room
        limits = room.manager.limits
        seat = conn.seat
        if seat is not None and room.stored.seats[seat].get("muted"):
            raise IllegalAction("the room's creator has muted you in the chat")
        clean = clean_text(text, limits.max_chat_chars)
        key = f"{room.id}:{seat}" if seat is not None else f"{room.id}:{conn.key}"
        if not _limiter.hit(limits.chat_rate_item(), "chat", key):
            raise IllegalAction(
                f"too many chat messages (at most {limits.chat_rate}); wait a little"
            )
        if seat is not None:
            name = room.names().display(seat)
        else:
            name = "Room creator" if conn.role == "creator" else "Spectator"
        entry = {
            "number": len(self.messages),
            "channel": channel_of(conn),
            "seat": seat,
            "name": name,
            "text": clean,
            "at": round(time.time(), 3),
        }
        try:
            room.manager.storage.append_chat(room.id, entry)
        except Exception as exc:
            room.manager.log(f"room {room.id}: storing a chat message failed: {exc!r}")
            raise IllegalAction("your message could not be stored; try again") from exc
        self.messages.append(entry)
        finished = room.match.outcome() is not None
        for other in room.connections:
            if entry["channel"] in readable(other.seat, finished):
                other.push({"type": "chat", **entry})
        return entry

    def mute(self, seat: int, muted: bool) -> None:
        """The creator mutes (or unmutes) a seat in the chat."""
        room = self.room
        if not 0 <= seat < room.match.players:
            raise IllegalAction(f"there is no seat {seat} in this room")
        seats = [dict(s) for s in room.stored.seats]
        if muted:
            seats[seat]["muted"] = True
        else:
            seats[seat].pop("muted", None)
        room.manager.storage.update_seats(room.id, seats)
        room.stored.seats = seats
        room.broadcast()
