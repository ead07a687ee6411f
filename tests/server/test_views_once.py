"""Each distinct view message is built and encoded once per change (issue 18, figures):
every spectator gets the same text; each seat gets its own view and never another's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest

from deathnote.engine.actions import SPECTATOR
from deathnote.server.rooms import Connection, RoomManager, View
from deathnote.server.storage import Storage
from tests.server.conftest import TEST_LIMITS


def test_spectators_share_one_built_view_and_seats_get_only_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = Storage(str(tmp_path / "rooms.db"))
    manager = RoomManager(storage, limits=TEST_LIMITS, log=lambda _text: None)
    room = manager.create("confrontation", 2, None, None)
    built: list[Any] = []
    real_view = room.match.view

    def counted(viewer: Any, **kwargs: Any) -> dict[str, Any]:
        built.append(viewer)
        return real_view(viewer, **kwargs)

    monkeypatch.setattr(room.match, "view", counted)
    texts: dict[str, list[str]] = {}

    def sender(name: str) -> Any:
        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "view":
                # What the socket writes: the text encoded once, equal to the message.
                assert isinstance(message, View)
                assert orjson.loads(message.text) == dict(message)
                texts.setdefault(name, []).append(message.text)

        return send

    conns = {
        "seat0": Connection("seat", 0, sender("seat0")),
        "seat1": Connection("seat", 1, sender("seat1")),
        **{
            f"spectator{i}": Connection("spectator", None, sender(f"spectator{i}"))
            for i in range(4)
        },
    }

    async def scenario() -> None:
        writers = [asyncio.create_task(room.writer(c)) for c in conns.values()]
        for conn in conns.values():
            room.connections.append(conn)
        room.broadcast()
        await asyncio.sleep(0.05)
        first = list(built)
        built.clear()
        seat = min(room.match.pending())
        await room.submit(seat, room.match.legal(seat)[0])
        await asyncio.sleep(0.05)
        # One view per distinct message after the action, however many spectators watch.
        assert sorted(map(str, built)) == sorted(["0", "1", SPECTATOR])
        assert sorted(map(str, first)) == sorted(["0", "1", SPECTATOR])
        for conn in conns.values():
            conn.closed = True
            conn.wake.set()
        await asyncio.gather(*writers)

    asyncio.run(scenario())
    spectators = [texts[f"spectator{i}"] for i in range(4)]
    assert all(sent == spectators[0] for sent in spectators) and len(spectators[0]) == 2
    for seat in (0, 1):
        for text in texts[f"seat{seat}"]:
            message = orjson.loads(text)
            assert message["seat"] == seat and message["view"]["viewer"] == seat
        assert not set(texts[f"seat{seat}"]) & set(spectators[0])
    assert not set(texts["seat0"]) & set(texts["seat1"])
    storage.close()
