"""Issue 11 §3: a fuzz test on the wire (hypothesis).

Generated messages of every type (legal actions, legal actions with a field of the wrong
type, an extra or a missing field, actions from the wrong seat or a spectator, stale
steps, pings, rematches) plus garbage (random JSON, text, bytes, oversized messages):

- in-process, at least ``MESSAGES`` messages per run over the app's WebSocket (Starlette's
  test client: the same handler, Origin check and read loop as a real server) to rooms of
  every game, with a socket for every seat and a spectator: every message gets its answer,
  no unexpected error, every socket is still open and served at the end of each room, and
  after every rejected message the match is unchanged;
- on a real socket (a ``deathnote serve`` process over TCP): every message gets its
  answer and the socket stays open throughout.

The counts are printed at the end of the test run (``fuzz:`` lines).
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

import orjson
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathnote.engine.actions import OMNISCIENT
from deathnote.engine.registry import games, get_game
from deathnote.server import protocol
from deathnote.server import rooms as rooms_module
from deathnote.server.app import create_app
from deathnote.server.rooms import Room
from tests.live_server import LiveServer
from tests.server.conftest import TEST_LIMITS, ws_path

MESSAGES = 10_000  # at least this many in-process messages per run
PER_ROOM = 60  # messages sent to one room (one hypothesis example)
EXAMPLES = MESSAGES // PER_ROOM + 10
SOCKET_MESSAGES = 400
SOCKET_BATCH = 40  # messages per hypothesis example on the real socket
ANSWERS = {"accepted", "pong", "rematch", "error"}  # "accepted": a view that says it
MAX_MESSAGE = TEST_LIMITS.max_message_bytes

json_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=12)
json_values = json_scalars | st.lists(json_scalars, max_size=3)
text_garbage = st.one_of(
    st.text(max_size=40),
    st.dictionaries(st.text(max_size=6), json_values, max_size=3).map(
        lambda v: orjson.dumps(v).decode()
    ),
    st.lists(json_values, max_size=3).map(lambda v: orjson.dumps(v).decode()),
    st.integers(MAX_MESSAGE + 1, MAX_MESSAGE + 500).map(
        lambda n: '{"type":"ping","x":"' + "y" * n + '"}'
    ),
    st.sampled_from(["", "{", "null", "[]", '{"type":null}', '{"type":"act","action":null}']),
)
garbage = text_garbage | st.binary(max_size=40)
HOW = ("as is", "as is", "as is", "wrong type", "extra", "drop", "junk")
EXTRA_FIELDS = ("cls", "label", "x", "side", "criminal", "kind")
STEPS = ("now", "before", True, "0", None, 10**6)
SEATS = ("own", 0, 1, -1, True, "L", None)


def _wrong_type(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value == 1
    if isinstance(value, list):
        return [_wrong_type(v) for v in value] or [True]
    if value is None:
        return 0
    return [value]


@dataclass(frozen=True)
class Offer:
    """What the match offers now (read on the server's loop): the draws pick among it."""

    players: int
    step: int
    pending: tuple[int, ...]
    legal: dict[int, list[dict[str, Any]]]

    @classmethod
    def of(cls, room: Room) -> Offer:
        """The offer of this room's match now."""
        match = room.match
        pending = tuple(sorted(match.pending()))
        legal = {s: [a.to_json() for a in match.legal(s)] for s in range(match.players)}
        return cls(match.players, len(match.actions), pending, legal)


@st.composite
def act_messages(draw: st.DrawFn, offer: Offer) -> tuple[int | None, dict[str, Any]]:
    """An ``act`` message (and the seat whose connection sends it; None: a spectator).

    The draws are small integers (cheap to generate) that pick among what the match
    offers now: a pending seat or any seat or a spectator, one of the legal actions, and
    how to spoil it.
    """
    seats: list[int | None] = [*offer.pending, *range(offer.players), None]
    seat = seats[draw(st.integers(0, len(seats) - 1))]
    legal = list(offer.legal[seat]) if seat is not None else []
    if not legal and offer.pending:
        legal = list(offer.legal[offer.pending[0]])
    pick = draw(st.integers(0, 10**6))
    action: dict[str, Any] = (
        dict(legal[pick % len(legal)]) if legal else {"kind": draw(st.text(max_size=8))}
    )
    how = HOW[draw(st.integers(0, len(HOW) - 1))]
    fields = [k for k in action if k != "kind"]
    if how == "wrong type" and fields:
        key = fields[pick % len(fields)]
        action[key] = _wrong_type(action[key])
    elif how == "extra":
        action[EXTRA_FIELDS[pick % len(EXTRA_FIELDS)]] = draw(json_values)
    elif how == "drop" and fields:
        del action[fields[pick % len(fields)]]
    elif how == "junk":
        action = draw(st.dictionaries(st.text(max_size=6), json_values, max_size=3))
    message: dict[str, Any] = {"type": "act", "action": action}
    extras = draw(st.integers(0, 15))
    if extras & 1:
        step = STEPS[(extras >> 1) % len(STEPS)]
        now = offer.step
        message["step"] = now if step == "now" else now - 1 if step == "before" else step
    if extras == 15:
        given = SEATS[pick % len(SEATS)]
        message["seat"] = seat if given == "own" else given
    return seat, message


def fingerprint(room: Room) -> bytes:
    """The whole match as the omniscient viewer sees it, with the record."""
    match = room.match
    return orjson.dumps([match.record(), match.view(OMNISCIENT)], option=orjson.OPT_SORT_KEYS)


KINDS = ("act",) * 6 + ("ping", "rematch", "garbage")
COUNTS = {"messages": 0, "rejected": 0, "accepted": 0, "rooms": 0}


class Wire:
    """One WebSocket of the in-process app, and the messages it must still skip."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.unasked_rematches = 0  # told of a rematch another connection started

    def answer(self) -> dict[str, Any]:
        """The answer to the last message sent (views and unasked rematches skipped)."""
        for _ in range(1000):
            message = orjson.loads(self.ws.receive_text())
            if message["type"] == "rematch" and self.unasked_rematches:
                self.unasked_rematches -= 1
                continue
            if answer_kind(message) in ANSWERS:
                return dict(message)
        raise AssertionError("no answer")


def answer_kind(message: dict[str, Any]) -> str:
    """What a message answers: ``accepted`` for the sender's view that says so."""
    if message["type"] == "view" and message.get("accepted") is not None:
        return "accepted"
    return str(message["type"])


def test_fuzz_the_wire_in_process(tmp_path: Path, record_property: Any) -> None:
    """At least MESSAGES messages over the app's WebSocket (Starlette's test client)."""
    game_ids = sorted(games())
    with TestClient(create_app(str(tmp_path / "fuzz.db"), limits=TEST_LIMITS)) as client:
        portal = client.portal
        assert portal is not None
        manager = client.app.state.manager  # type: ignore[attr-defined]

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(st.data())
        def run(data: st.DataObject) -> None:
            game = get_game(data.draw(st.sampled_from(game_ids)))
            players = data.draw(st.integers(game.min_players, game.max_players))
            # The server's secret seed, drawn by hypothesis here so every run replays.
            seed = data.draw(st.integers(0, 2**31 - 1))
            body = {"game": game.id, "players": players, "seats": [{"kind": "human"}] * players}
            with patch.object(rooms_module.secrets, "randbelow", lambda _n: seed):
                created = client.post("/api/rooms", json=body).json()
            COUNTS["rooms"] += 1
            links = [*created["links"]["seats"], created["links"]["spectator"]]
            with contextlib.ExitStack() as stack:
                wires = [
                    Wire(stack.enter_context(client.websocket_connect(ws_path(link))))
                    for link in links
                ]
                room: Room = manager.rooms[created["room"]]
                for _ in range(PER_ROOM):
                    _one_message(data, portal, room, wires)
                for wire in wires:  # every socket is still open and served
                    wire.ws.send_text('{"type":"ping"}')
                    assert wire.answer()["type"] == "pong"

        run()
    line = (
        f"fuzz: {COUNTS['messages']} messages over the in-process WebSocket to "
        f"{COUNTS['rooms']} rooms of {len(game_ids)} games ({COUNTS['accepted']} accepted, "
        f"{COUNTS['rejected']} rejected)"
    )
    record_property("fuzz", line)
    print(line)
    assert COUNTS["messages"] >= MESSAGES
    assert COUNTS["accepted"] > 0 and COUNTS["rejected"] > 0


def _one_message(data: st.DataObject, portal: Any, room: Room, wires: list[Wire]) -> None:
    """Send one generated message and check its answer and what it did to the match."""
    kind = KINDS[data.draw(st.integers(0, len(KINDS) - 1))]
    spectator = wires[-1]
    # Read on the server's loop, where the match lives: what it offers, and all of it.
    offer, before = portal.call(lambda: (Offer.of(room), fingerprint(room)))
    frame: str | bytes
    if kind == "act":
        seat, message = data.draw(act_messages(offer))
        wire = wires[seat] if seat is not None else spectator
        frame = orjson.dumps(message).decode()
    elif kind == "garbage":
        wire = wires[0]
        frame = data.draw(garbage)
    else:
        wire = wires[data.draw(st.integers(0, len(wires) - 1))]
        frame = json.dumps({"type": kind})
    had_rematch = room.stored.rematch is not None
    if isinstance(frame, bytes):
        wire.ws.send_bytes(frame)
    else:
        wire.ws.send_text(frame)
    answer = wire.answer()
    COUNTS["messages"] += 1
    if not had_rematch and room.stored.rematch is not None:
        for other in wires:  # every connection was told of the new room
            if other is not wire:
                other.unasked_rematches += 1
    assert answer.get("message") != protocol.UNEXPECTED, frame
    if answer["type"] == "error":
        COUNTS["rejected"] += 1
        assert portal.call(fingerprint, room) == before, frame
    elif answer_kind(answer) == "accepted":
        COUNTS["accepted"] += 1


#: A message for the real socket: ("legal", k) is the sender's k-th legal action (modulo
#: their number) when it is sent, so the draws never depend on the match.
socket_messages = st.lists(
    st.tuples(
        st.sampled_from([0, 1]),
        st.one_of(
            st.tuples(st.just("legal"), st.integers(0, 40)),
            st.tuples(st.just("text"), text_garbage),
            st.tuples(st.just("text"), st.sampled_from(['{"type":"ping"}', '{"type":"rematch"}'])),
        ),
    ),
    min_size=SOCKET_BATCH,
    max_size=SOCKET_BATCH,
)


def test_fuzz_a_real_socket(tmp_path: Path, record_property: Any) -> None:
    server = LiveServer(tmp_path / "socket.db", start=False)
    server.extra = ["--messages-per-second", "100000"]
    server.start()
    sent = {"messages": 0, "accepted": 0}
    try:
        created = server.post("/api/rooms", {"game": "confrontation"})
        stack = contextlib.ExitStack()
        sockets = [stack.enter_context(server.ws(link)) for link in created["links"]["seats"]]
        views: dict[int, dict[str, Any]] = {}

        def answer_of(seat: int, sent: str = "") -> dict[str, Any]:
            for _ in range(200):
                message = json.loads(sockets[seat].recv(timeout=10))
                if message["type"] == "view":
                    views[seat] = message
                    if message.get("accepted") is not None:
                        return dict(message)
                elif message["type"] == "rematch" and '"rematch"' not in sent:
                    continue  # the other seat started the rematch: every seat hears of it
                elif message["type"] in ANSWERS:
                    return dict(message)
            raise AssertionError("no answer")

        for seat in (0, 1):
            while seat not in views:
                first = json.loads(sockets[seat].recv(timeout=10))
                if first["type"] == "view":
                    views[seat] = first

        @settings(
            max_examples=SOCKET_MESSAGES // SOCKET_BATCH,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(socket_messages)
        def run(messages: list[tuple[int, tuple[str, Any]]]) -> None:
            for seat, (how, value) in messages:
                if how == "legal":
                    legal = views[seat]["view"].get("legal") or [{"kind": "follow"}]
                    if value % 10:  # mostly keep playing rather than end the game at once
                        legal = [a for a in legal if a["kind"] != "accuse"] or legal
                    action = {k: v for k, v in legal[value % len(legal)].items() if k != "label"}
                    text = json.dumps({"type": "act", "action": action})
                else:
                    text = value
                sockets[seat].send(text)
                answer = answer_of(seat, text)
                sent["messages"] += 1
                sent["accepted"] += answer_kind(answer) == "accepted"
                assert answer.get("message") != protocol.UNEXPECTED, text

        run()
        # Both sockets are still open and served.
        with stack:
            for seat in (0, 1):
                sockets[seat].send('{"type":"ping"}')
                assert answer_of(seat)["type"] == "pong"
    finally:
        server.stop()
    line = f"fuzz: {sent['messages']} messages on a real socket ({sent['accepted']} accepted)"
    record_property("fuzz", line)
    print(line)
    assert sent["messages"] >= SOCKET_MESSAGES


@pytest.fixture(autouse=True)
def _reset_counts() -> None:
    for key in COUNTS:
        COUNTS[key] = 0
