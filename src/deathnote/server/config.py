"""The server's limits on what clients may send, with safe defaults.

Every field is an option of ``deathnote serve`` (``--max-body-bytes`` and so on); the
defaults and the test that checks each are listed in ``docs/security.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from limits import RateLimitItem, parse

from deathnote.engine.errors import DeathNoteError


@dataclass(frozen=True)
class Limits:
    """What one client may send and hold on this server."""

    #: Largest HTTP request body (bytes); a larger one is answered 413.
    max_body_bytes: int = 64 * 1024
    #: Largest ``options`` of a new room, as compact JSON (bytes).
    max_options_bytes: int = 16 * 1024
    #: Largest WebSocket message answered with an error instead of being handled; a frame
    #: over ``FRAME_FACTOR`` times this closes the socket (code 1009).
    max_message_bytes: int = 16 * 1024
    #: Rooms one client address may create, in the ``limits`` notation ("20/minute").
    room_rate: str = "20/minute"
    #: Reads of a room (``GET /api/rooms/ID``, its ``/chat`` and ``/replay``) one client
    #: address may make, in the ``limits`` notation; more are answered 429.
    room_read_rate: str = "300/minute"
    #: WebSocket connections (play and spectate) one client address may open, in the
    #: ``limits`` notation; more are refused (close code 4429) before any link is checked.
    connect_rate: str = "120/minute"
    #: Rooms held in memory at once; a new room beyond it is answered 503.
    max_live_rooms: int = 1000
    #: Seconds after which a room nobody ever opened is removed (memory and storage).
    unopened_room_seconds: float = 3600.0
    #: Live WebSocket connections of one room.
    connections_per_room: int = 32
    #: Messages one connection may send per second; more are answered with an error.
    messages_per_second: int = 20
    #: Origins (``scheme://host[:port]``) whose pages may open the play WebSocket besides
    #: the server's own.
    allowed_origins: tuple[str, ...] = ()
    #: Longest nickname a player may choose (characters).
    max_nickname_chars: int = 24
    #: Longest chat message (characters).
    max_chat_chars: int = 300
    #: Chat messages one seat (or one spectator connection) may send, in the ``limits``
    #: notation; more are answered with an error.
    chat_rate: str = "12/minute"
    #: Chat messages all the spectators of one room may send together (a spectator who
    #: reconnects gets a new connection, never a new share of this).
    spectator_chat_rate: str = "30/minute"
    #: Chat messages one room keeps per channel; more are refused ("the chat is full").
    max_chat_messages: int = 2000
    #: Nickname changes of one seat (each renames every screen of the room).
    name_rate: str = "6/minute"
    #: Clock timeouts of one seat (not counting covert decisions) after which the seat is
    #: handed to a bot until its person takes it back.
    clock_timeouts: int = 3

    def __post_init__(self) -> None:
        for name in (
            "max_body_bytes",
            "max_options_bytes",
            "max_message_bytes",
            "max_live_rooms",
            "connections_per_room",
            "messages_per_second",
            "max_nickname_chars",
            "max_chat_chars",
            "max_chat_messages",
            "clock_timeouts",
        ):
            if getattr(self, name) < 1:
                raise DeathNoteError(f"{name.replace('_', '-')} must be at least 1")
        if self.unopened_room_seconds <= 0:
            raise DeathNoteError("unopened-room-seconds must be more than 0")
        self.room_rate_item()  # a bad rate fails at start, not on the first room
        self.room_read_rate_item()
        self.connect_rate_item()
        self.chat_rate_item()
        self.spectator_chat_rate_item()
        self.name_rate_item()

    def room_rate_item(self) -> RateLimitItem:
        """The room-creation rate as a ``limits`` item."""
        return _rate("room-rate", self.room_rate)

    def room_read_rate_item(self) -> RateLimitItem:
        """The rate of room reads per address as a ``limits`` item."""
        return _rate("room-read-rate", self.room_read_rate)

    def connect_rate_item(self) -> RateLimitItem:
        """The rate of WebSocket connections per address as a ``limits`` item."""
        return _rate("connect-rate", self.connect_rate)

    def chat_rate_item(self) -> RateLimitItem:
        """The chat rate as a ``limits`` item."""
        return _rate("chat-rate", self.chat_rate)

    def spectator_chat_rate_item(self) -> RateLimitItem:
        """The spectators' chat rate (per room) as a ``limits`` item."""
        return _rate("spectator-chat-rate", self.spectator_chat_rate)

    def name_rate_item(self) -> RateLimitItem:
        """The nickname-change rate (per seat) as a ``limits`` item."""
        return _rate("name-rate", self.name_rate)


def _rate(option: str, text: str) -> RateLimitItem:
    try:
        item = parse(text)
    except ValueError:
        item = None
    if item is None or item.amount < 1:
        raise DeathNoteError(f"{option} {text!r}: write it as N/second, N/minute or N/hour, N >= 1")
    return item


#: A WebSocket frame larger than this many times ``max_message_bytes`` closes the socket.
FRAME_FACTOR = 4
