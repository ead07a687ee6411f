"""The open bot protocol: the server's messages as pydantic models, and the JSON Schema of
both directions generated from the models (``/api/protocol.json``, ``docs/protocol.md``).

The client's messages are the models the server validates with (``protocol.HANDLERS``);
the server's are described here, and a test checks that every message a game sends
validates against them, so the schema cannot drift from what the server does.

    python -m deathnote.server.schema > docs/protocol.md    # regenerate the page
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from deathnote.server import protocol

JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema"


class ServerModel(BaseModel):
    """Base of the server's messages (what a client may rely on; more fields may come)."""

    model_config = ConfigDict(extra="forbid")


class LogEntry(ServerModel):
    """One log entry the viewer may see: its text for people and structured data."""

    text: str
    data: dict[str, Any]


class DecisionInfo(ServerModel):
    """The decision this seat is asked: a stable ``kind``, a prompt and structured data."""

    kind: str
    prompt: str
    data: dict[str, Any]


class OutcomeInfo(ServerModel):
    """How the game ended."""

    winners: list[str] = Field(description="internal team ids, for programs (not shown)")
    condition: str
    reason: str
    scores: dict[str, Any]
    winning_seats: list[int]


class ViewBody(ServerModel):
    """What one viewer may see: only its own secrets, never anyone else's."""

    game: str
    viewer: int | str = Field(description="the seat number, or 'spectator'")
    seats: list[str] = Field(description="the seats' names as shown (nicknames included)")
    waiting: list[int] = Field(description="the seats this viewer sees as asked")
    state: Any = Field(
        None,
        description="the game's own view of its state (per game); absent when ``patch`` is given",
    )
    patch: list[list[Any]] | None = Field(
        None,
        description="instead of ``state``, after a connection's first view: the operations "
        "that turn the state of the view at step ``since`` into this one, applied in order: "
        "['set', path, value] (put value at path; a list position equal to the list's "
        "length appends), ['del', path] (remove that object key), ['cut', path, length] "
        "(shorten that list); a path is a list of object keys and list positions",
    )
    log: list[LogEntry]
    outcome: OutcomeInfo | None
    decision: DecisionInfo | None = Field(None, description="seats only: what you are asked")
    legal: list[dict[str, Any]] | None = Field(
        None,
        description="seats only: the legal actions, each {'kind', ...fields, 'label'}; send "
        "one back without its label",
    )
    since: int | None = None


class SeatClockInfo(ServerModel):
    """A seat's clock: reserve and timeouts; ``left`` only where the viewer sees it asked."""

    reserve: float
    timeouts: int
    left: float | None = None


class SeatInfo(ServerModel):
    """A seat as everyone may see it."""

    seat: int
    name: str = Field(description="as shown: the nickname if chosen")
    seat_name: str = Field(description="the game's name of the seat (Player 2, Kira)")
    nick: str | None
    muted: bool
    kind: Literal["human", "bot"]
    agent: str | None
    bot: str | None = Field(
        None, description="what a person reads for the seat's bot: its level (easy, normal, hard)"
    )
    stand_in: str | None = None
    connected: bool
    idle: float | None
    taken_over: bool = Field(description="a bot plays the seat until its person takes it back")
    clock: SeatClockInfo | None


class ClockInfo(ServerModel):
    """The room's turn clock."""

    name: str
    label: str
    decision: float
    reserve: float
    timeouts: int = Field(description="timeouts after which a bot keeps the seat")


class RoomInfo(ServerModel):
    """Public facts of the room."""

    model_config = ConfigDict(extra="allow")

    id: str
    game: str
    game_name: str
    seats: list[SeatInfo]
    spectators: int
    step: int
    finished: bool
    rematch: bool
    seed_chosen: bool
    clock: ClockInfo | None
    rated: bool = False


class ViewMessage(ServerModel):
    """This connection's view after ``step`` actions. With ``since`` = n, the view's log
    holds only the entries after step n: append them to the log you had."""

    type: Literal["view"]
    step: int
    since: int | None
    role: Literal["seat", "spectator", "creator"]
    seat: int | None
    room: RoomInfo
    view: ViewBody
    accepted: int | None = Field(
        None,
        description="only in the sender's first view after its action was stored: that "
        "action is step ``accepted`` of the game (the answer to your ``act``)",
    )


class ErrorMessage(ServerModel):
    """Your last message was refused (nothing changed), with the reason."""

    type: Literal["error"]
    message: str


class RematchMessage(ServerModel):
    """Your link in the rematch room."""

    type: Literal["rematch"]
    url: str


class PongMessage(ServerModel):
    """The answer to a ping."""

    type: Literal["pong"]


class NamedMessage(ServerModel):
    """Your nickname as shown."""

    type: Literal["named"]
    name: str


class ChatMessage(ServerModel):
    """A chat message (seat None: a spectator or the creator)."""

    type: Literal["chat"]
    number: int
    channel: Literal["players", "spectators"]
    seat: int | None
    name: str
    text: str = Field(description="show it as text, never as markup")
    at: float


class ChatEntry(ServerModel):
    """A chat message in a ``chat_log``."""

    number: int
    channel: Literal["players", "spectators"]
    seat: int | None
    name: str
    text: str
    at: float


class ChatLogMessage(ServerModel):
    """On connecting: the newest chat messages you may read."""

    type: Literal["chat_log"]
    messages: list[ChatEntry]


class TakenBackMessage(ServerModel):
    """Your seat is yours again (a bot played it)."""

    type: Literal["taken_back"]
    seat: int


SERVER_MESSAGES: tuple[type[ServerModel], ...] = (
    ViewMessage,
    ErrorMessage,
    RematchMessage,
    PongMessage,
    NamedMessage,
    ChatMessage,
    ChatLogMessage,
    TakenBackMessage,
)


def _union(models: tuple[type[BaseModel], ...]) -> TypeAdapter[Any]:
    union: Any = models[0]
    for model in models[1:]:
        union = union | model
    return TypeAdapter(Annotated[union, Field(discriminator="type")])


CLIENT = _union(tuple(model for model, _handler in protocol.HANDLERS.values()))
SERVER = _union(SERVER_MESSAGES)


def protocol_schema() -> dict[str, Any]:
    """Both directions' JSON Schemas, generated from the models."""

    def schema(adapter: TypeAdapter[Any], title: str, description: str) -> dict[str, Any]:
        out = adapter.json_schema()
        return {"$schema": JSON_SCHEMA, "title": title, "description": description, **out}

    return {
        "client": schema(
            CLIENT,
            "deathnote client message",
            "What a program holding a seat (or a spectator link) sends on "
            "ws://HOST/ws/ROOM?token=TOKEN, one JSON object per text frame.",
        ),
        "server": schema(
            SERVER,
            "deathnote server message",
            "What the server sends on the same socket, one JSON object per text frame.",
        ),
    }


def validate_server_message(message: dict[str, Any]) -> None:
    """Raise pydantic's ValidationError when a server message does not fit the schema."""
    SERVER.validate_python(message)


PAGE = """# The play WebSocket protocol (bots and other programs)

Any program can take a seat with a seat link, over the same WebSocket as the browser,
under the same clocks and limits (docs/security.md). This page is generated from the
server's message models (`python -m deathnote.server.schema > docs/protocol.md`); the
server serves the same schema at `/api/protocol.json`, and a test checks both are current
and that every message a real game sends fits it.

## Connecting

A seat link `http://HOST:PORT/play/ROOM?token=TOKEN` is the socket
`ws://HOST:PORT/ws/ROOM?token=TOKEN` (`wss://` behind https). Send no `Origin` header (a
program is not a web page) or the server's own. A wrong link is answered with an `error`
and closed with code 4403, and so is a room id that does not exist (the same answer: a
link tells nothing of other rooms); 4404 only when the room was deleted just as the link
was checked.

## Playing

1. On connecting you get `chat_log` (if there is chat) and a `view` with the whole log.
2. Each later `view` has `since` = the step of the one before, and only the log entries
   after it: append them. Its `state` comes as a `patch` (a list of `set` / `del` / `cut`
   operations on the state you had, see `deathnote.engine.delta`); a bot that reads only
   `decision`, `legal` and `outcome`, like the example, may ignore it.
3. When your `view.decision` is not null and `view.legal` is not empty, send one legal
   action back without its `label`: `{"type": "act", "action": {"kind": ..., ...},
   "step": STEP}` where STEP is the view's `step` (an action chosen on an older view is
   refused with "the game moved on", and nothing changes).
4. The answer is your next `view` with `"accepted": N` (your action was stored as step
   N, and this view shows it; the others get their views too), or an `error` with the
   reason (choose again). Send no other action before that answer: while a question is
   put to several seats at once, the views that others' answers bring (without
   `accepted`) still show it to you until yours is stored.
5. When `view.outcome` is not null the game is over.

Clocks: in a room with a clock, `view.room.seats[YOUR SEAT].clock.left` is your time left
(seconds) while you are asked. When it runs out a bot moves for you; after the server's
number of timeouts a bot keeps your seat (`room.seats[YOUR SEAT].taken_over` is true, your
actions are refused) until you send `{"type": "take_back"}`. The server sends nothing
while others think (minutes, with a relaxed clock): send `ping` now and then to stay
connected.

Every message gets an answer on its own connection. Optional: `{"type": "name", "name":
...}` (your nickname), `{"type": "chat", "text": ...}`, `{"type": "take_back"}` (your seat
back after a clock's timeouts gave it to a bot), `{"type": "ping"}`.

`examples/bot_client.py URL` is a complete client in about 150 lines of Python (it
waits for its answers, keeps the connection alive and takes its seat back).

## Client messages (JSON Schema)

```json
{client}
```

## Server messages (JSON Schema)

```json
{server}
```
"""


def protocol_markdown() -> str:
    """docs/protocol.md, from the models."""
    schema = protocol_schema()

    def dump(value: Any) -> str:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode()

    return PAGE.replace("{client}", dump(schema["client"])).replace(
        "{server}", dump(schema["server"])
    )


if __name__ == "__main__":
    print(protocol_markdown(), end="")
