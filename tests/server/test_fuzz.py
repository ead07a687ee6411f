"""Issue 11 §3: a fuzz test on the wire (hypothesis).

Generated messages of every type (legal actions, legal actions with a field of the wrong
type, an extra or a missing field, actions from the wrong seat or a spectator, stale
steps, pings, rematches) plus garbage (random JSON, text, bytes, oversized messages):

- in-process, at least ``MESSAGES`` messages per run through ``protocol.answer`` (the code
  the socket runs for each frame) on rooms of every game: every message gets exactly one
  answer, no unexpected error, and after every rejected message the match is unchanged;
- on a real socket (a ``deathnote serve`` process over TCP): every message gets its
  answer and the socket stays open throughout.

The counts are printed at the end of the test run (``fuzz:`` lines).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any
from unittest.mock import patch

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathnote.engine.actions import OMNISCIENT
from deathnote.engine.registry import games, get_game
from deathnote.server import protocol
from deathnote.server import rooms as rooms_module
from deathnote.server.rooms import Connection, Room, RoomManager
from deathnote.server.storage import Storage
from tests.live_server import LiveServer
from tests.server.conftest import TEST_LIMITS

MESSAGES = 10_000  # at least this many in-process messages per run
PER_ROOM = 60  # messages sent to one room (one hypothesis example)
EXAMPLES = MESSAGES // PER_ROOM + 10
SOCKET_MESSAGES = 400
SOCKET_BATCH = 40  # messages per hypothesis example on the real socket
ANSWERS = {"accepted", "pong", "rematch", "error"}
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


@st.composite
def act_messages(draw: st.DrawFn, room: Room) -> tuple[int | None, dict[str, Any]]:
    """An ``act`` message (and the seat whose connection sends it; None: a spectator).

    The draws are small integers (cheap to generate) that pick among what the match
    offers now: a pending seat or any seat or a spectator, one of the legal actions, and
    how to spoil it.
    """
    match = room.match
    pending = sorted(match.pending())
    seats: list[int | None] = [*pending, *range(match.players), None]
    seat = seats[draw(st.integers(0, len(seats) - 1))]
    legal = list(match.legal(seat)) if seat is not None else []
    if not legal and pending:
        legal = list(match.legal(pending[0]))
    pick = draw(st.integers(0, 10**6))
    action: dict[str, Any] = (
        legal[pick % len(legal)].to_json() if legal else {"kind": draw(st.text(max_size=8))}
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
        now = len(match.actions)
        message["step"] = now if step == "now" else now - 1 if step == "before" else step
    if extras == 15:
        given = SEATS[pick % len(SEATS)]
        message["seat"] = seat if given == "own" else given
    return seat, message


def fingerprint(room: Room) -> bytes:
    """The whole match as the omniscient viewer sees it, with the record."""
    match = room.match
    return orjson.dumps([match.record(), match.view(OMNISCIENT)], option=orjson.OPT_SORT_KEYS)


async def _nowhere(_message: dict[str, Any]) -> None:
    return None


KINDS = ("act",) * 6 + ("ping", "rematch", "garbage")
COUNTS = {"messages": 0, "rejected": 0, "accepted": 0, "rooms": 0}


def test_fuzz_the_room_handler(tmp_path: Path, record_property: Any) -> None:
    manager = RoomManager(Storage(str(tmp_path / "fuzz.db")), limits=TEST_LIMITS)
    game_ids = sorted(games())

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
        # The server's secret seed, drawn by hypothesis here so every run replays exactly.
        seed = data.draw(st.integers(0, 2**31 - 1))
        with patch.object(rooms_module.secrets, "randbelow", lambda _n: seed):
            room = manager.create(game.id, players, None, [{"kind": "human"}] * players)
        COUNTS["rooms"] += 1
        conns = {s: Connection("seat", s, _nowhere) for s in range(players)}
        spectator = Connection("spectator", None, _nowhere)
        for conn in (*conns.values(), spectator):
            room.attach(conn)
        for _ in range(PER_ROOM):
            kind = KINDS[data.draw(st.integers(0, len(KINDS) - 1))]
            conn: Connection
            if kind == "act":
                seat, message = data.draw(act_messages(room))
                conn = conns[seat] if seat is not None else spectator
                text: str | bytes = orjson.dumps(message).decode()
            elif kind == "garbage":
                conn = conns[0]
                text = data.draw(garbage)
            else:
                conn = [*conns.values(), spectator][data.draw(st.integers(0, players))]
                text = json.dumps({"type": kind})
            before = fingerprint(room) if kind != "ping" else b""
            conn.queue.clear()
            protocol.answer(room, conn, text)
            COUNTS["messages"] += 1
            answers = [m for m in conn.queue if m["type"] in ANSWERS]
            assert len(answers) == 1, (text, list(conn.queue))
            answer = answers[0]
            assert answer.get("message") != protocol.UNEXPECTED, text
            if answer["type"] == "error":
                COUNTS["rejected"] += 1
                if kind != "ping":
                    assert fingerprint(room) == before, text
            elif answer["type"] == "accepted":
                COUNTS["accepted"] += 1

    run()
    manager.storage.close()
    line = (
        f"fuzz: {COUNTS['messages']} messages in process to {COUNTS['rooms']} rooms of "
        f"{len(game_ids)} games ({COUNTS['accepted']} accepted, {COUNTS['rejected']} rejected)"
    )
    record_property("fuzz", line)
    print(line)
    assert COUNTS["messages"] >= MESSAGES
    assert COUNTS["accepted"] > 0 and COUNTS["rejected"] > 0


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
                sent["accepted"] += answer["type"] == "accepted"
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
