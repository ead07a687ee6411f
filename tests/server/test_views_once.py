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


@pytest.mark.parametrize("game_id", ["confrontation", "tcg"])
def test_each_connection_rebuilds_exactly_its_own_fresh_view_at_every_step(
    tmp_path: Path, game_id: str
) -> None:
    # The messages are built from the match's remembered views and its one public table
    # per step (never copied): each seat and spectator, rebuilding its view from its
    # messages as a browser does (log appended, state patched), holds at every message
    # exactly the view a fresh Match.view gives that viewer then, so no seat is ever sent
    # another seat's view or a stale one.
    import random

    from deathnote.engine import delta

    storage = Storage(str(tmp_path / "rooms.db"))
    manager = RoomManager(storage, limits=TEST_LIMITS, log=lambda _text: None)
    room = manager.create(game_id, None, None, None)
    match = room.match
    checked: list[str] = []
    held: dict[str, dict[str, Any]] = {}

    def sender(name: str, viewer: Any) -> Any:
        async def send(message: dict[str, Any]) -> None:
            if message["type"] != "view":
                return
            got = orjson.loads(message.text)
            view = got["view"]
            before = held.get(name)
            if got["since"] is not None:
                assert before is not None
                view["log"] = before["log"] + view["log"]
            if "patch" in view:
                assert before is not None
                view["state"] = delta.patch(before["state"], view.pop("patch"))
            view.pop("since", None)
            held[name] = view
            fresh = orjson.loads(orjson.dumps(match.view(viewer)))
            assert got["step"] == len(match.actions)
            assert view == fresh
            checked.append(name)

        return send

    viewers = {"seat0": 0, "seat1": 1, "spectator": SPECTATOR}
    conns = {
        name: Connection("seat" if name.startswith("seat") else "spectator", None, send)
        for name, send in ((n, sender(n, v)) for n, v in viewers.items())
    }
    conns["seat0"].seat, conns["seat1"].seat = 0, 1
    rng = random.Random(7)

    async def scenario() -> None:
        writers = [asyncio.create_task(room.writer(c)) for c in conns.values()]
        for conn in conns.values():
            room.connections.append(conn)
        room.broadcast()
        await asyncio.sleep(0)
        for _ in range(60):
            if match.outcome() is not None:
                break
            seat = min(match.pending())
            legal = match.legal(seat)
            # A long game: an accusation (a likely loss) only when nothing else is legal.
            choices = [a for a in legal if a.kind != "accuse"] or list(legal)
            await room.submit(seat, rng.choice(choices))
            for _ in range(3):
                await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        for conn in conns.values():
            conn.closed = True
            conn.wake.set()
        await asyncio.gather(*writers)

    asyncio.run(scenario())
    assert len(match.actions) >= 5
    for name in viewers:
        assert checked.count(name) >= len(match.actions) // 2
    storage.close()
