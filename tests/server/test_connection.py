"""A connection's writer: queued messages in order, then the latest view; a connection
holds no queue while nothing waits to be sent (a server holds one per socket)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from deathnote.server.rooms import Connection, RoomManager, Wake
from deathnote.server.storage import Storage
from tests.server.conftest import TEST_LIMITS


def test_wake_is_an_event_for_one_waiter() -> None:
    async def scenario() -> list[str]:
        wake, seen = Wake(), []

        async def waiter() -> None:
            await wake.wait()
            seen.append("woken")

        task = asyncio.create_task(waiter())
        await asyncio.sleep(0.01)
        assert seen == [] and not wake.is_set()
        wake.set()
        await asyncio.wait_for(task, 1)
        assert wake.is_set()
        await asyncio.wait_for(wake.wait(), 1)  # set: returns at once
        wake.clear()
        late = asyncio.create_task(wake.wait())
        await asyncio.sleep(0.01)
        assert not late.done()
        late.cancel()
        await asyncio.gather(late, return_exceptions=True)
        wake.set()  # nobody waits: kept for the next wait
        await asyncio.wait_for(wake.wait(), 1)
        return seen

    assert asyncio.run(scenario()) == ["woken"]


def test_the_writer_sends_queued_messages_in_order_then_the_view(tmp_path: Path) -> None:
    storage = Storage(str(tmp_path / "rooms.db"))
    manager = RoomManager(storage, limits=TEST_LIMITS, log=lambda _text: None)
    room = manager.create("confrontation", 2, None, None)
    sent: list[str] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message["type"])
        await asyncio.sleep(0)

    conn = Connection("seat", 0, send)
    assert conn.queue is None and not hasattr(conn, "__dict__")

    async def scenario() -> None:
        writer = asyncio.create_task(room.writer(conn))
        room.connections.append(conn)
        conn.push({"type": "pong"})
        conn.push({"type": "named", "name": "x"})
        room.broadcast()
        await asyncio.sleep(0.05)
        assert sent == ["pong", "named", "view"]
        assert conn.queue is None  # drained: nothing kept
        conn.push({"type": "pong"})
        await asyncio.sleep(0.05)
        assert sent == ["pong", "named", "view", "pong"]
        conn.closed = True
        conn.wake.set()
        await asyncio.wait_for(writer, 1)

    try:
        asyncio.run(scenario())
    finally:
        storage.close()
