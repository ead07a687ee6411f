"""Table chat: the players' channel and a separate spectators' channel.

A seat's person writes to the players' channel, which every connection of the room reads
(players and spectators alike: it is the table talk). Spectators write to the spectators'
channel, which only the spectators' link reads while the game runs: a spectator never
writes to the players. The room's creator (often a player too) reads the players' channel
on the room page, to moderate it, and never the spectators' while the game runs; the room
page writes to neither. Both channels are stored with the room and shown together in the
replay once the game is over.

Messages are bounded in length (``--max-chat-chars``), in rate per seat or spectator
connection (``--chat-rate``) and for all the spectators of a room together
(``--spectator-chat-rate``: reconnecting gives no new share), and in number per channel
(``--max-chat-messages``); they are stripped of control characters, stored before anyone
hears of them (written in a worker thread, one message of a room at a time, in order: the
event loop never waits on the database), and always rendered as text by the pages. The
creator can mute a seat.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
import weakref
from typing import TYPE_CHECKING, Any

from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from deathnote.engine.errors import IllegalAction

if TYPE_CHECKING:
    from deathnote.server.rooms import Connection, Room

PLAYERS = "players"
SPECTATORS = "spectators"
#: The connection roles (rooms.py) that read or write the spectators' channel.
SPECTATOR_ROLE = "spectator"
#: Messages a connection receives when it opens (the newest ones).
HISTORY = 200

#: The room's client rates (chat, spectators' chat, nickname changes), in memory.
limiter = MovingWindowRateLimiter(MemoryStorage())


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


def channel_of(conn: Connection) -> str | None:
    """The channel a connection writes to (None: the room page, which only reads)."""
    if conn.seat is not None:
        return PLAYERS
    return SPECTATORS if conn.role == SPECTATOR_ROLE else None


def readable(role: str, finished: bool) -> tuple[str, ...]:
    """The channels a link's holder reads: the spectators' link reads both; a seat and the
    room's creator read the players' channel while the game runs (both once it is over)."""
    if role == SPECTATOR_ROLE or finished:
        return (PLAYERS, SPECTATORS)
    return (PLAYERS,)


class RoomChat:
    """The chat of one room, loaded from storage with the room."""

    def __init__(self, room: Room, stored: list[dict[str, Any]]) -> None:
        # Weak: a room and its chat would otherwise make a cycle, and every finished room
        # would wait for the garbage collector's full pass instead of going at once.
        self._room = weakref.ref(room)
        self.messages: list[dict[str, Any]] = stored
        #: One message at a time: checked, stored (off the loop), then told, in order.
        self._saying = asyncio.Lock()

    @property
    def room(self) -> Room:
        """The room of this chat (alive as long as anyone uses its chat)."""
        room = self._room()
        assert room is not None, "a chat outlived its room"
        return room

    def history_for(self, role: str, finished: bool | None = None) -> list[dict[str, Any]]:
        """The messages this link's holder may read, oldest first."""
        if finished is None:
            finished = self.room.match.outcome() is not None
        return self.filter(self.messages, role, finished)

    @staticmethod
    def filter(messages: list[dict[str, Any]], role: str, finished: bool) -> list[dict[str, Any]]:
        """The messages of a list this link's holder may read."""
        channels = readable(role, finished)
        return [m for m in messages if m["channel"] in channels]

    def send_history(self, conn: Connection) -> None:
        """A new connection gets the newest messages it may read, in one message."""
        messages = self.history_for(conn.role)[-HISTORY:]
        if messages:
            conn.push({"type": "chat_log", "messages": messages})

    async def say(self, conn: Connection, text: str) -> dict[str, Any]:
        """A message from a connection: checked, stored, then sent to every reader.

        The room's messages are taken one at a time, in arrival order; each is stored in a
        worker thread and nobody hears of it before it is committed."""
        async with self._saying:
            return await self._say(conn, text)

    async def _say(self, conn: Connection, text: str) -> dict[str, Any]:
        room = self.room
        limits = room.manager.limits
        seat = conn.seat
        channel = channel_of(conn)
        if channel is None:
            raise IllegalAction(
                "the room page only reads the table's chat; to talk with the spectators, "
                "open the spectators' link"
            )
        if seat is not None and room.stored.seats[seat].get("muted"):
            raise IllegalAction("the room's creator has muted you in the chat")
        clean = clean_text(text, limits.max_chat_chars)
        if sum(1 for m in self.messages if m["channel"] == channel) >= limits.max_chat_messages:
            raise IllegalAction(
                f"this room's chat is full ({limits.max_chat_messages} messages); "
                "nothing more can be said here"
            )
        key = f"{room.id}:{seat}" if seat is not None else f"{room.id}:{conn.key}"
        if not limiter.hit(limits.chat_rate_item(), "chat", key):
            raise IllegalAction(
                f"too many chat messages (at most {limits.chat_rate}); wait a little"
            )
        if channel == SPECTATORS and not limiter.hit(
            limits.spectator_chat_rate_item(), "spectators", room.id
        ):
            raise IllegalAction(
                f"the spectators of this room say too much (at most "
                f"{limits.spectator_chat_rate} together); wait a little"
            )
        name = room.names().display(seat) if seat is not None else "Spectator"
        entry = {
            "number": len(self.messages),
            "channel": channel,
            "seat": seat,
            "name": name,
            "text": clean,
            "at": round(time.time(), 3),
        }
        try:
            await asyncio.to_thread(room.manager.storage.append_chat, room.id, entry)
        except Exception as exc:
            room.manager.log(f"room {room.id}: storing a chat message failed: {exc!r}")
            raise IllegalAction("your message could not be stored; try again") from exc
        self.messages.append(entry)
        finished = room.match.outcome() is not None
        for other in room.connections:
            if channel in readable(other.role, finished):
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
