"""Turn clocks with an injected clock: timeouts, the covert rule, take-over, take-back,
restarts. Nothing here sleeps for the clock: time is moved by hand (FakeClock)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deathnote.server.app import create_app
from deathnote.server.clock import PRESETS, FakeClock
from deathnote.server.rooms import Room
from tests.server.conftest import TEST_LIMITS, new_room, receive, view_at, ws_path

FAST = PRESETS["fast"]
assert FAST is not None
WAIT_SECONDS = 10.0


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def clocked(tmp_path: Path, fake: FakeClock) -> Iterator[TestClient]:
    limits = dataclasses.replace(TEST_LIMITS, clock_timeouts=2)
    app = create_app(str(tmp_path / "rooms.db"), limits=limits, clock=fake)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def patient(tmp_path: Path, fake: FakeClock) -> Iterator[TestClient]:
    """Seats are never handed to a bot (every timeout moves once)."""
    limits = dataclasses.replace(TEST_LIMITS, clock_timeouts=1000)
    app = create_app(str(tmp_path / "rooms.db"), limits=limits, clock=fake)
    with TestClient(app) as client:
        yield client


def live_room(client: TestClient, room_id: str) -> Room:
    room = client.app.state.manager.rooms[room_id]  # type: ignore[attr-defined]
    assert isinstance(room, Room)
    return room


def wait_for(check: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.01)
    raise AssertionError(f"not within {WAIT_SECONDS} s: {what}")


def settled(room: Room, fake: FakeClock) -> bool:
    """No timeout's bot is choosing, and every seat asked has a clock running, not yet due."""
    clocks = room.clocks
    assert clocks is not None
    if room.match.outcome() is not None:
        return True
    if room._timing_out or room.storing:
        return False
    deadlines = [clocks.seats[s].deadline for s in room.match.pending()]
    return all(d is not None and d > fake.now() for d in deadlines)


def test_a_clock_needs_a_known_name(clocked: TestClient) -> None:
    answer = clocked.post("/api/rooms", json={"game": "confrontation", "clock": "blitz"})
    assert answer.status_code == 400 and "unknown clock" in answer.json()["error"]


def test_a_timeout_moves_for_the_seat_then_a_bot_takes_it_until_taken_back(
    clocked: TestClient, fake: FakeClock
) -> None:
    created = new_room(clocked, clock="fast")
    room = live_room(clocked, created["room"])
    links = created["links"]
    with (
        clocked.websocket_connect(ws_path(links["seats"][1])) as l_ws,
        clocked.websocket_connect(ws_path(links["spectator"])) as spectator,
    ):
        first = view_at(spectator, 0)
        assert first["room"]["clock"]["name"] == "fast"
        # L is asked first (openly): everyone sees L's time left, the decision plus reserve.
        shown = first["room"]["seats"][1]["clock"]
        assert shown["left"] == FAST.decision + FAST.reserve and shown["timeouts"] == 0
        view_at(l_ws, 0)
        fake.advance(FAST.decision + FAST.reserve + 1)
        wait_for(lambda: len(room.match.actions) >= 1, "the bot's move for L")
        moved = view_at(spectator, 1)
        assert moved["room"]["seats"][1]["clock"]["timeouts"] == 1
        assert moved["room"]["seats"][1]["clock"]["reserve"] == 0
        assert moved["room"]["seats"][1]["kind"] == "human"
        # The second timeout (no reserve left: the decision's seconds only) hands L to a bot.
        wait_for(lambda: 1 in room.match.pending(), "L asked again")
        assert room.clocks is not None and room.clocks.seats[1].deadline is not None
        assert room.clocks.seats[1].deadline == pytest.approx(fake.now() + FAST.decision)
        fake.advance(FAST.decision + 1)
        taken = receive(spectator, "view", lambda m: m["room"]["seats"][1]["kind"] == "bot")
        assert taken["room"]["seats"][1]["taken_over"] is True
        # The bot plays L now; L's person comes back with the link and takes the seat back.
        wait_for(lambda: 1 not in room.match.pending() or room.bots.get(1) is None, "bot plays")
        l_ws.send_json({"type": "act", "action": {"kind": "day"}})
        assert "a bot plays this seat" in receive(l_ws, "error")["message"]
        l_ws.send_json({"type": "take_back"})
        assert receive(l_ws, "taken_back")["seat"] == 1
        back = receive(spectator, "view", lambda m: m["room"]["seats"][1]["kind"] == "human")
        assert back["room"]["seats"][1]["clock"]["timeouts"] == 0
        assert 1 not in room.bots
        l_ws.send_json({"type": "take_back"})
        assert "already" in receive(l_ws, "error")["message"]
    stored = clocked.app.state.manager.storage.load_room(created["room"])  # type: ignore[attr-defined]
    assert stored.seats[1]["kind"] == "human" and stored.seats[1]["token"]


def test_covert_decisions_time_out_identically_and_show_only_to_their_seat(
    patient: TestClient, fake: FakeClock
) -> None:
    clocked = patient
    created = new_room(clocked, "werewolf", players=4, clock="fast")
    room = live_room(clocked, created["room"])
    clocks = room.clocks
    assert clocks is not None
    links = created["links"]
    covert_states = 0
    with clocked.websocket_connect(ws_path(links["spectator"])) as spectator:
        view_at(spectator, 0)
        # Every decision times out (a bot moves for it) until several covert ones passed.
        for _ in range(80):
            if room.match.outcome() is not None or covert_states >= 3:
                break
            # Seats asked together share one deadline, so one advance sets off several
            # timeouts, each a bot's move in its own time: look only at a settled table.
            wait_for(lambda: settled(room, fake), "every asked seat's clock running")
            step = len(room.match.actions)
            pending = room.match.pending()
            asked = sorted(s for s, d in pending.items() if d.covert)
            if asked:
                covert_states += 1
                before = [(c.reserve, c.timeouts) for c in clocks.seats]
                # Each seat asked covertly runs on the decision's seconds alone, from the
                # moment it was asked: with the same start, the same deadline for all.
                for seat in asked:
                    clock = clocks.seats[seat]
                    assert clock.covert and clock.asked_at is not None
                    assert clock.deadline == pytest.approx(clock.asked_at + FAST.decision)
                seen = receive(spectator, "view", lambda m, s=step: m["step"] == s)
                # The spectator is told no one's time left for them (nor that they are asked).
                assert all("left" not in seen["room"]["seats"][s]["clock"] for s in asked)
                with clocked.websocket_connect(ws_path(links["seats"][asked[0]])) as own:
                    shown = view_at(own, step)["room"]["seats"]
                    assert "left" in shown[asked[0]]["clock"]
                    assert all("left" not in shown[s]["clock"] for s in asked[1:])
            due = clocks.next_deadline()
            assert due is not None
            fake.advance(due[0] - fake.now() + 0.5)
            wait_for(
                lambda s=step: len(room.match.actions) > s and settled(room, fake),
                "the timeouts' moves",
            )
            if asked:
                # Covert timeouts neither spend the reserve nor count (both are public).
                assert [(c.reserve, c.timeouts) for c in clocks.seats] == before
    assert covert_states >= 1


def test_the_clocks_survive_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "rooms.db")
    fake = FakeClock()
    with TestClient(create_app(db, limits=TEST_LIMITS, clock=fake)) as first:
        created = new_room(first, clock="normal")
        with first.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
            view_at(l_ws, 0)
        deadline = live_room(first, created["room"]).clocks.seats[1].deadline  # type: ignore[union-attr]
    normal = PRESETS["normal"]
    assert normal is not None and deadline == fake.now() + normal.decision + normal.reserve
    fake.advance(30)
    with TestClient(create_app(db, limits=TEST_LIMITS, clock=fake)) as second:
        with second.websocket_connect(ws_path(created["links"]["spectator"])) as spectator:
            shown = view_at(spectator, 0)["room"]["seats"][1]["clock"]
        # The deadline was stored: 30 s of it are gone after the restart, not reset.
        assert shown["left"] == normal.decision + normal.reserve - 30
        room = live_room(second, created["room"])
        fake.advance(normal.decision + normal.reserve)
        wait_for(lambda: len(room.match.actions) >= 1, "the timeout after the restart")


def test_seats_asked_together_covertly_are_all_moved_at_their_one_deadline(
    patient: TestClient, fake: FakeClock
) -> None:
    """One deadline, one timeout each: a seat's timeout is not voided because another seat
    asked the same covert question moved first (each used to get a fresh deadline), and a
    seat is never shown asked with no time left while the bot chooses its move."""
    created = new_room(patient, "werewolf", players=4, clock="fast")
    room = live_room(patient, created["room"])
    clocks = room.clocks
    assert clocks is not None
    asked: list[int] = []
    for _ in range(80):
        wait_for(lambda: settled(room, fake), "every asked seat's clock running")
        asked = sorted(s for s, d in room.match.pending().items() if d.covert)
        if len(asked) >= 2 or room.match.outcome() is not None:
            break
        step = len(room.match.actions)
        due = clocks.next_deadline()
        assert due is not None
        fake.advance(due[0] - fake.now() + 0.5)
        wait_for(lambda s=step: len(room.match.actions) > s, "an overt timeout's move")
    assert len(asked) >= 2, "no covert question to several seats"
    step = len(room.match.actions)
    deadlines = {clocks.seats[s].deadline for s in asked}
    assert len(deadlines) == 1
    (deadline,) = deadlines
    assert deadline is not None
    before = [(c.reserve, c.timeouts) for c in clocks.seats]
    with patient.websocket_connect(ws_path(created["links"]["seats"][asked[-1]])) as own:
        view_at(own, step)
        fake.advance(deadline - fake.now() + 0.5)  # once: every asked seat's time is up
        wait_for(
            lambda: {s for s, _a in room.match.actions[step:]} >= set(asked),
            "a bot's move for every seat asked",
        )
        moved = len(room.match.actions)
        # Every view the last seat got while it was asked showed its time left (0 once up).
        for _ in range(200):
            message = receive(own, "view")
            if message["view"]["decision"] is not None and message["step"] < moved:
                assert "left" in message["room"]["seats"][asked[-1]]["clock"], message["step"]
            if message["step"] >= moved:
                break
    # Covert timeouts neither spend the reserve nor count.
    assert [(c.reserve, c.timeouts) for c in clocks.seats] == before
