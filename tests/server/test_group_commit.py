"""Storage off the event loop: group commit, nothing told before it is durable (issue 18 §1)."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deathnote.engine.errors import IllegalAction
from deathnote.server.rooms import Connection, Room, RoomManager
from deathnote.server.storage import NewAction, Storage
from tests.server.conftest import TEST_LIMITS, first_legal, new_room, view_at, ws_path


def _rooms(tmp_path: Path, count: int) -> tuple[Storage, RoomManager, list[Room]]:
    storage = Storage(str(tmp_path / "rooms.db"))
    manager = RoomManager(storage, limits=TEST_LIMITS, log=lambda _text: None)
    rooms = [manager.create("confrontation", 2, None, None) for _ in range(count)]
    return storage, manager, rooms


def _first(room: Room) -> tuple[int, Any]:
    seat = min(room.match.pending())
    return seat, room.match.legal(seat)[0]


def test_actions_arriving_together_are_committed_in_one_transaction(tmp_path: Path) -> None:
    storage, _manager, rooms = _rooms(tmp_path, 20)

    async def play() -> list[int]:
        return await asyncio.gather(*(room.submit(*_first(room)) for room in rooms))

    assert asyncio.run(play()) == [0] * 20
    assert storage.commits.stored == 20
    assert storage.commits.commits == 1
    for room in rooms:
        loaded = storage.load_room(room.id)
        assert loaded is not None and len(loaded.actions) == 1
    storage.close()


@pytest.mark.parametrize("window", [0.0, 0.5])
def test_a_busy_writer_waits_its_window_for_the_actions_coming_next(
    tmp_path: Path, window: float
) -> None:
    # Right after a commit (a busy server) the writer waits its window before the next
    # one, so actions arriving a moment apart share a transaction; without a window each
    # goes alone. (A large window here: the test must not depend on the machine's speed.)
    storage, _manager, rooms = _rooms(tmp_path, 3)
    storage.commits.window = window

    async def play() -> list[int]:
        first = await rooms[0].submit(*_first(rooms[0]))  # the writer is busy from now
        second = asyncio.create_task(rooms[1].submit(*_first(rooms[1])))
        await asyncio.sleep(0.001)
        third = asyncio.create_task(rooms[2].submit(*_first(rooms[2])))
        return [first, await second, await third]

    assert asyncio.run(play()) == [0, 0, 0]
    assert storage.commits.stored == 3
    assert storage.commits.commits == (2 if window else 3)
    for room in rooms:
        loaded = storage.load_room(room.id)
        assert loaded is not None and len(loaded.actions) == 1
    storage.close()


def test_an_action_is_told_to_nobody_before_its_commit_and_the_loop_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage, _manager, [room] = _rooms(tmp_path, 1)
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    release = threading.Event()
    entered = threading.Event()
    real = storage.append_actions

    def slow(rows: list[NewAction]) -> None:
        entered.set()
        assert release.wait(10)
        real(rows)

    monkeypatch.setattr(storage, "append_actions", slow)

    async def scenario() -> None:
        watcher = Connection("seat", 0, send)
        room.connections.append(watcher)
        watcher.mark_stale()
        writer = asyncio.create_task(room.writer(watcher))
        await asyncio.sleep(0.05)
        assert [m["step"] for m in sent if m["type"] == "view"] == [0]
        seat, action = _first(room)
        actor = Connection("seat", seat, send)
        act = asyncio.create_task(room.act(actor, action.to_json()))
        assert await asyncio.to_thread(entered.wait, 10)
        # The commit blocks its thread, not the loop: other work goes on meanwhile.
        ticks = 0
        for _ in range(10):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 10
        room.broadcast()  # e.g. a presence change: still no view while storing
        await asyncio.sleep(0.05)
        assert room.storing
        assert all(m["step"] == 0 for m in sent if m["type"] == "view")
        assert actor.accepted is None and not actor.queue, "acknowledged before it was stored"
        assert storage.load_room(room.id).actions == []  # type: ignore[union-attr]
        release.set()
        await act
        assert actor.accepted == 0  # its next view says so
        await asyncio.sleep(0.05)
        assert sent[-1]["type"] == "view" and sent[-1]["step"] == 1
        watcher.closed = True
        watcher.wake.set()
        await writer

    asyncio.run(scenario())
    assert len(storage.load_room(room.id).actions) == 1  # type: ignore[union-attr]
    storage.close()


def test_a_bad_action_in_a_batch_fails_alone(tmp_path: Path) -> None:
    storage, _manager, rooms = _rooms(tmp_path, 2)
    storage.append_action(rooms[0].id, 0, 0, {"kind": "x"}, finished=False)

    async def both() -> list[Any]:
        return await asyncio.gather(
            # Step 0 of room 0 is stored already (as when another process took the room).
            storage.store_action(rooms[0].id, 0, 0, {"kind": "y"}, finished=False),
            storage.store_action(rooms[1].id, 0, 0, {"kind": "z"}, finished=False),
            return_exceptions=True,
        )

    first, second = asyncio.run(both())
    assert isinstance(first, Exception) and second is None
    assert storage.load_room(rooms[0].id).actions == [(0, {"kind": "x"})]  # type: ignore[union-attr]
    assert storage.load_room(rooms[1].id).actions == [(0, {"kind": "z"})]  # type: ignore[union-attr]
    storage.close()


def test_a_failed_commit_rewinds_the_room_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage, _manager, [room] = _rooms(tmp_path, 1)

    def broken(_rows: list[NewAction]) -> None:
        raise OSError("disk full")

    before = room.match.record()
    monkeypatch.setattr(storage, "append_actions", broken)
    with pytest.raises(IllegalAction, match="could not be stored"):
        asyncio.run(room.submit(*_first(room)))
    assert room.match.record() == before and not room.storing
    storage.close()


def test_an_action_whose_sender_goes_away_mid_commit_is_stored_and_told_or_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage, _manager, rooms = _rooms(tmp_path, 2)
    release = threading.Event()
    entered = threading.Event()
    real = storage.append_actions

    def slow(rows: list[NewAction]) -> None:
        entered.set()
        assert release.wait(10)
        if rows[0].room_id == rooms[1].id:
            raise OSError("disk full")
        real(rows)

    monkeypatch.setattr(storage, "append_actions", slow)

    async def leave_mid_commit(room: Room) -> None:
        entered.clear()
        release.clear()
        act = asyncio.create_task(room.submit(*_first(room)))
        assert await asyncio.to_thread(entered.wait, 10)
        act.cancel()  # the socket closed while the commit ran
        await asyncio.sleep(0.01)
        release.set()
        for _ in range(200):
            if not room.storing:
                break
            await asyncio.sleep(0.01)

    asyncio.run(leave_mid_commit(rooms[0]))
    asyncio.run(leave_mid_commit(rooms[1]))
    # Stored and kept by the first room; not stored, so undone, in the second.
    for room, steps in ((rooms[0], 1), (rooms[1], 0)):
        loaded = storage.load_room(room.id)
        assert loaded is not None and len(loaded.actions) == steps
        assert len(room.match.actions) == steps and not room.storing
    storage.close()


def test_the_sender_hears_accepted_in_the_first_view_that_shows_its_action(
    client: TestClient,
) -> None:
    created = new_room(client)
    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
        message = view_at(l_ws, 0)
        for step in (0, 1):  # L follows, then chases (Kira, absent, is asked too)
            assert message["step"] == step and message["view"]["legal"]
            l_ws.send_json({"type": "act", "action": first_legal(message)})
            kinds = []
            for _ in range(20):
                answer = l_ws.receive_json()
                kinds.append(answer["type"])
                if answer.get("accepted") is not None:
                    break
                assert answer["type"] != "view" or answer["step"] <= step, kinds
            # The acknowledgement is the first view that shows the action.
            assert answer["type"] == "view" and answer["accepted"] == step, kinds
            assert answer["step"] == step + 1
            message = answer


def test_a_room_is_marked_opened_by_the_commit_thread_not_the_loop(tmp_path: Path) -> None:
    storage, manager, rooms = _rooms(tmp_path, 1)
    room = rooms[0]
    threads: list[str] = []
    mark = storage.mark_opened

    def marking(room_id: str) -> None:
        threads.append(threading.current_thread().name)
        mark(room_id)

    storage.mark_opened = marking  # type: ignore[method-assign]

    async def open_it() -> list[str]:
        async def send(_message: dict[str, Any]) -> None:
            return None

        room.attach(Connection("seat", 0, send))
        # The expiry deletes through the same thread, so only after the mark.
        return await manager.expire_unopened()

    manager.limits = manager.limits.__class__(unopened_room_seconds=0.0001)
    assert asyncio.run(open_it()) == []
    assert threads and threads[0].startswith("deathnote-commit")
    loaded = storage.load_room(room.id)
    assert loaded is not None and loaded.opened
    storage.close()


def test_a_waiting_writer_keeps_no_view_it_sent(tmp_path: Path) -> None:
    # A server holds a writer per connection, idle most of the time: the view it sent last
    # (a few KiB, and the state objects it shares) must not stay alive in its frame.
    storage, _manager, [room] = _rooms(tmp_path, 1)
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def scenario() -> None:
        conn = Connection("seat", 0, send)
        room.connections.append(conn)
        conn.mark_stale()
        writer = asyncio.create_task(room.writer(conn))
        await asyncio.sleep(0.05)  # sent, the built views forgotten, waiting for a change
        assert len(sent) == 1
        view = weakref.ref(sent[0])
        sent.clear()
        gc.collect()
        assert view() is None, "the waiting writer still holds the view it sent"
        conn.closed = True
        conn.wake.set()
        await writer

    asyncio.run(scenario())
    storage.close()


def test_a_forgotten_room_is_freed_without_the_garbage_collector(tmp_path: Path) -> None:
    # A room makes no reference cycle (its chat holds it weakly): once the server forgets
    # it, it goes at once, not at the collector's next full pass over every live room.
    storage, manager, rooms = _rooms(tmp_path, 1)
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def scenario(room: Room) -> None:
        conn = Connection("seat", 0, send)
        writer = asyncio.create_task(room.writer(conn))
        room.attach(conn)
        seat, action = _first(room)
        await room.submit(seat, action)
        await asyncio.sleep(0.05)
        assert room.chat.room is room
        room.detach(conn)  # nobody here, nothing moves: forgotten
        conn.wake.set()
        await writer

    gc.collect()
    gc.disable()
    try:
        asyncio.run(scenario(rooms[0]))
        assert rooms[0].id not in manager.rooms and sent
        freed = weakref.ref(rooms.pop())
        assert freed() is None, "the forgotten room waits for the garbage collector"
    finally:
        gc.enable()
        storage.close()
