"""Issue 11 §7 (server half): each room keeps its rules version, content digest and record
format; the schema is migrated by Alembic on start; a room recorded under other rules is
refused with a clear message.

The migration tests run on SQLite and on PostgreSQL (``DEATHNOTE_TEST_PG_URL``, each test
in a schema of its own).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text, update
from starlette.websockets import WebSocketDisconnect

from deathnote.engine.match import RECORD_FORMAT
from deathnote.engine.registry import get_game
from deathnote.engine.rng import RNG_VERSION
from deathnote.server.app import create_app
from deathnote.server.rooms import RoomManager, RoomUnavailable
from deathnote.server.storage import Base, RoomRow, Storage, database_url
from tests.server.conftest import TEST_LIMITS, new_room, view_at, ws_path

PG_URL = os.environ.get("DEATHNOTE_TEST_PG_URL")

# The tables exactly as the server before the migrations created them.
OLD_SCHEMA = (
    """CREATE TABLE rooms (
        id VARCHAR(32) NOT NULL PRIMARY KEY, game VARCHAR(32) NOT NULL,
        players INTEGER NOT NULL, options JSON NOT NULL, seed INTEGER NOT NULL,
        seats JSON NOT NULL, creator_token VARCHAR(64) NOT NULL,
        spectator_token VARCHAR(64) NOT NULL, created FLOAT NOT NULL,
        finished BOOLEAN NOT NULL, rematch_of VARCHAR(32), rematch VARCHAR(32))""",
    """CREATE TABLE actions (
        room_id VARCHAR(32) NOT NULL REFERENCES rooms (id), step INTEGER NOT NULL,
        seat INTEGER NOT NULL, action JSON NOT NULL, PRIMARY KEY (room_id, step))""",
)
OLD_ROOM = """INSERT INTO rooms VALUES ('old1', 'confrontation', 2, '{"chapter": 1}', 7,
    '[{"kind": "human", "agent": null, "token": "seat0"},
      {"kind": "human", "agent": null, "token": "seat1"}]',
    'creator', 'spectators', 0.0, false, NULL, NULL)"""
OLD_ACTION = """INSERT INTO actions VALUES ('old1', 0, 1, '{"kind": "follow"}')"""


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "rooms.db")
        return
    if not PG_URL:
        pytest.skip("DEATHNOTE_TEST_PG_URL is not set (.ci/run starts a PostgreSQL and sets it)")
    schema = f"t{uuid.uuid4().hex[:12]}"
    admin = create_engine(database_url(PG_URL))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    with admin.begin() as conn:
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


def _old_database(db: str) -> None:
    engine = create_engine(database_url(db))
    with engine.begin() as conn:
        for statement in (*OLD_SCHEMA, OLD_ROOM, OLD_ACTION):
            conn.execute(text(statement))
    engine.dispose()


def test_the_migrations_build_exactly_the_models(db: str) -> None:
    storage = Storage(db)
    with storage.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0004"
    storage.close()
    Storage(db).close()  # a second start finds nothing to do


def test_todays_table_is_migrated_and_its_rooms_are_refused(db: str) -> None:
    _old_database(db)
    storage = Storage(db)
    columns = {c["name"] for c in inspect(storage.engine).get_columns("rooms")}
    assert {
        "rules_version",
        "content_digest",
        "record_format",
        "rng_version",
        "seed_chosen",
        "opened",
    } <= columns
    old = storage.load_room("old1")
    assert old is not None and old.actions == [(1, {"kind": "follow"})]
    assert old.rules_version is None and old.opened is True and old.seed_chosen is False
    manager = RoomManager(storage, limits=TEST_LIMITS, log=lambda _line: None)
    # A missing version no longer counts as current.
    with pytest.raises(RoomUnavailable, match="before rooms kept their rules version"):
        manager.get("old1")
    assert manager.restore() == 0  # logged and skipped at start-up, not a crash
    storage.close()


def test_a_room_without_a_version_is_refused_on_the_wire(tmp_path: Path) -> None:
    db = str(tmp_path / "rooms.db")
    _old_database(db)
    with TestClient(create_app(db, limits=TEST_LIMITS)) as client:
        with client.websocket_connect("/ws/old1?token=seat1") as ws:
            assert "cannot be restored" in ws.receive_json()["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4409
        info = client.get("/api/rooms/old1?token=creator")
        assert info.status_code == 409 and "cannot be restored" in info.json()["error"]
        replay = client.get("/api/rooms/old1/replay?token=creator")
        assert replay.status_code == 409


def _stored_room(db: str) -> tuple[dict[str, Any], Storage]:
    with TestClient(create_app(db, limits=TEST_LIMITS)) as client:
        created = new_room(client)
        with client.websocket_connect(ws_path(created["links"]["seats"][1])) as ws:
            view_at(ws, 0)
            ws.send_json({"type": "act", "action": {"kind": "follow"}})
            view_at(ws, 1)
    return created, Storage(db)


def test_each_room_keeps_its_rules_version_digest_and_format(tmp_path: Path) -> None:
    created, storage = _stored_room(str(tmp_path / "rooms.db"))
    stored = storage.load_room(created["room"])
    assert stored is not None
    game = get_game("confrontation")
    assert stored.rules_version == game.rules_version
    assert stored.record_format == RECORD_FORMAT
    assert stored.rng_version == RNG_VERSION
    room = RoomManager(storage, limits=TEST_LIMITS).get(created["room"])
    assert room is not None and stored.content_digest == room.match.content_digest
    assert len(room.match.actions) == 1


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [
        ("rules_version", "0", "rules version 0; this server plays version"),
        ("content_digest", "0123456789abcdef", "other Death Note: Confrontation content"),
        ("record_format", 99, "record format 99"),
        ("rng_version", 99, "random generator version 99"),
    ],
)
def test_a_room_recorded_under_other_rules_is_refused(
    tmp_path: Path, column: str, value: Any, words: str
) -> None:
    created, storage = _stored_room(str(tmp_path / "rooms.db"))
    with storage.engine.begin() as conn:
        conn.execute(update(RoomRow).where(RoomRow.id == created["room"]).values({column: value}))
    with pytest.raises(RoomUnavailable) as refused:
        RoomManager(storage, limits=TEST_LIMITS).get(created["room"])
    assert words in str(refused.value) and created["room"] in str(refused.value)


def test_a_rules_version_bump_refuses_the_old_rooms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    created, storage = _stored_room(str(tmp_path / "rooms.db"))
    played = get_game("confrontation").rules_version
    monkeypatch.setattr(type(get_game("confrontation")), "rules_version", "999")
    words = f"rules version {played}; this server plays version 999"
    with pytest.raises(RoomUnavailable, match=words):
        RoomManager(storage, limits=TEST_LIMITS).get(created["room"])


def test_a_format_1_room_without_a_generator_version_still_restores(tmp_path: Path) -> None:
    # Rooms stored in record format 1 (before migration 0003) name no generator: version 1.
    created, storage = _stored_room(str(tmp_path / "rooms.db"))
    with storage.engine.begin() as conn:
        conn.execute(
            update(RoomRow)
            .where(RoomRow.id == created["room"])
            .values(record_format=1, rng_version=None)
        )
    room = RoomManager(storage, limits=TEST_LIMITS).get(created["room"])
    assert room is not None and len(room.match.actions) == 1
