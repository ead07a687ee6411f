"""Storage of rooms and their accepted actions (SQLAlchemy 2: SQLite file or PostgreSQL).

A room is stored as its set-up (game, players, options, seed, seats) plus its accepted
actions in order; the match is rebuilt by replaying them, so a restart brings every room
back exactly where it was. Each room also keeps the rules version, content digest and
record format it was played under: a room recorded under other rules is not restored.

Accepted actions are written off the event loop by ``GroupCommit``: one writer thread,
and the actions that arrive while a commit runs are stored together in the next
transaction (group commit). The caller awaits its own action's commit before anyone hears
of it.

The schema is built and upgraded by the Alembic migrations in ``server/migrations``, run
automatically when the storage opens (SQLite and PostgreSQL alike; on PostgreSQL under an
advisory lock, so several server processes starting together migrate once).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from deathnote.engine.errors import DeathNoteError


class Base(DeclarativeBase):
    """Declarative base of the two tables."""


class RoomRow(Base):
    """One room: its match set-up and its seats (kinds, agents and tokens)."""

    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    creator_token: Mapped[str] = mapped_column(String(64))
    spectator_token: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(default=False)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Added by migration 0002 (None in rooms stored before it: they are not restored).
    rules_version: Mapped[str | None] = mapped_column(String(32), nullable=True)
    content_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    record_format: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Added by migration 0003 (None in rooms stored before it, which are in format 1).
    rng_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seed_chosen: Mapped[bool] = mapped_column(default=False)
    opened: Mapped[bool] = mapped_column(default=True)
    # Added by migration 0004 (None in rooms stored before it: no clock, not rated).
    clock: Mapped[str | None] = mapped_column(String(16), nullable=True)
    clock_state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool | None] = mapped_column(nullable=True)


class ChatRow(Base):
    """One chat message of a room, in order (``number`` from 0), on one channel."""

    __tablename__ = "chat"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A player's rating in one game (the player as the SHA-256 of their key)."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)


class ActionRow(Base):
    """One accepted action of a room, in order (``step`` from 0)."""

    __tablename__ = "actions"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    step: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)


_ACTIONS = Base.metadata.tables["actions"]
_ROOMS = Base.metadata.tables["rooms"]
# Built once (hot paths: every room's opening and end): a statement made per call with
# ``update(RoomRow).where(RoomRow.id == id)`` costs more to build than to run.
_MARK_OPENED = _ROOMS.update().where(_ROOMS.c.id == bindparam("room")).values(opened=True)
_MARK_FINISHED = _ROOMS.update().where(_ROOMS.c.id == bindparam("room")).values(finished=True)


@dataclass
class StoredRoom:
    """A room as read back from storage."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    creator_token: str
    spectator_token: str
    created: float
    finished: bool
    rematch_of: str | None
    rematch: str | None
    actions: list[tuple[int, dict[str, Any]]]
    rules_version: str | None = None
    content_digest: str | None = None
    record_format: int | None = None
    #: The random generator's version the deal was drawn with (record format 2).
    rng_version: int | None = None
    #: The creator chose the seed (allowed only with bots in every other seat).
    seed_chosen: bool = False
    #: Someone opened a page of the room (a room never opened expires).
    opened: bool = True
    #: The turn clock: none, relaxed, normal or fast.
    clock: str = "none"
    #: The clocks' state (deadlines, reserves, timeouts), kept across a restart.
    clock_state: dict[str, Any] | None = None
    #: The outcome updates the players' ratings.
    rated: bool = False


def database_url(db: str) -> str:
    """A SQLAlchemy URL from ``--db``: a URL as given, otherwise a SQLite file path."""
    if "://" in db:
        if db.startswith("postgresql://") or db.startswith("postgres://"):
            # Use psycopg 3 (the dependency we ship) rather than psycopg2.
            return "postgresql+psycopg://" + db.split("://", 1)[1]
        return db
    path = Path(db).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


class NewAction(NamedTuple):
    """One accepted action to store (``finished``: it ended the game)."""

    room_id: str
    step: int
    seat: int
    action: dict[str, Any]
    finished: bool


#: Most actions stored in one transaction (a bound on one commit's size).
MAX_BATCH = 1024
#: While actions keep coming (the last commit ended less than COMMIT_BUSY seconds ago), the
#: writer waits COMMIT_WINDOW seconds before it takes a batch, so the actions arriving
#: meanwhile share its transaction: a commit of one action costs about as much CPU as one
#: of ten (the transaction, the thread's wake-ups), and at a person's pace nothing waits.
COMMIT_WINDOW = 0.002
COMMIT_BUSY = 0.05


class GroupCommit:
    """Accepted actions stored off the event loop, those arriving together in one commit.

    ``append`` queues an action and waits for its commit. One writer thread stores
    batches: while it commits one, the next actions queue up and go in the following
    transaction. When a batch fails, each of its actions is tried alone, so one bad
    action (a step already stored) fails only itself.
    """

    def __init__(self, storage: Storage, window: float = COMMIT_WINDOW) -> None:
        self.storage = storage
        #: Seconds a busy writer waits for more actions before a commit (0: never).
        self.window = window
        self._last_commit = float("-inf")
        # A thread of its own: bots thinking in the default pool never delay a commit.
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="deathnote-commit")
        self._queue: list[tuple[NewAction, asyncio.Future[None]]] = []
        self._running = False
        self._task: asyncio.Task[None] | None = None
        #: Transactions committed and actions stored (for the load test's figures).
        self.commits = 0
        self.stored = 0

    async def append(self, action: NewAction) -> None:
        """Store one action; returns once it is committed (raises when it is not)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.append((action, future))
        if not self._running:
            self._running = True
            self._task = loop.create_task(self._drain())
        await future

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._queue:
                if (
                    self.window > 0
                    and len(self._queue) < MAX_BATCH
                    and loop.time() - self._last_commit < COMMIT_BUSY
                ):
                    await asyncio.sleep(self.window)
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                rows = [action for action, _ in batch]
                try:
                    errors = await loop.run_in_executor(self.executor, self._write, rows)
                except BaseException as exc:  # the executor itself is gone (shutdown)
                    errors = [exc] * len(rows)
                self._last_commit = loop.time()
                for (_, future), error in zip(batch, errors, strict=True):
                    if future.done():
                        continue
                    if error is None:
                        future.set_result(None)
                    else:
                        future.set_exception(error)
        finally:
            self._running = False

    def _write(self, rows: list[NewAction]) -> list[BaseException | None]:
        """In the writer thread: the batch in one transaction, else each action alone."""
        try:
            self.storage.append_actions(rows)
        except Exception as exc:
            if len(rows) == 1:
                return [exc]
        else:
            self.commits += 1
            self.stored += len(rows)
            return [None] * len(rows)
        errors: list[BaseException | None] = []
        for row in rows:
            try:
                self.storage.append_actions([row])
            except Exception as exc:
                errors.append(exc)
            else:
                self.commits += 1
                self.stored += 1
                errors.append(None)
        return errors

    def close(self) -> None:
        """Finish the queued commits and stop the writer thread."""
        self.executor.shutdown(wait=True)


class Storage:
    """Rooms and their actions: set-up writes commit before they return; accepted actions
    go through ``commits`` (a ``GroupCommit``) off the event loop."""

    def __init__(self, db: str) -> None:
        self.url = database_url(db)
        self.commits = GroupCommit(self)
        try:
            self.engine: Engine = create_engine(self.url)
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine, "connect", _sqlite_pragmas)
            migrate(self.engine)
        except (ArgumentError, NoSuchModuleError, OperationalError) as exc:
            first = str(exc).strip().splitlines()[0]
            raise DeathNoteError(f"cannot open the database {db!r}: {first}") from None

    def close(self) -> None:
        """Finish the queued commits and release the connections."""
        self.commits.close()
        self.engine.dispose()

    def create_room(self, room: StoredRoom) -> None:
        """Store a new room (with no actions yet)."""
        with self.engine.begin() as conn:
            # A plain table insert with parameters: compiled once and cached (a statement
            # with .values() is built and compiled again for every room).
            conn.execute(
                _ROOMS.insert(),
                {
                    "id": room.id,
                    "game": room.game,
                    "players": room.players,
                    "options": room.options,
                    "seed": room.seed,
                    "seats": room.seats,
                    "creator_token": room.creator_token,
                    "spectator_token": room.spectator_token,
                    "created": room.created,
                    "finished": room.finished,
                    "rematch_of": room.rematch_of,
                    "rematch": room.rematch,
                    "rules_version": room.rules_version,
                    "content_digest": room.content_digest,
                    "record_format": room.record_format,
                    "rng_version": room.rng_version,
                    "seed_chosen": room.seed_chosen,
                    "opened": room.opened,
                    "clock": room.clock,
                    "clock_state": room.clock_state,
                    "rated": room.rated,
                },
            )

    def append_action(
        self, room_id: str, step: int, seat: int, action: dict[str, Any], finished: bool
    ) -> None:
        """Store one accepted action; commits before returning (blocking: off the loop)."""
        self.append_actions([NewAction(room_id, step, seat, action, finished)])

    def append_actions(self, rows: list[NewAction]) -> None:
        """Store accepted actions, of any rooms, in one transaction (blocking)."""
        with self.engine.begin() as conn:
            # A plain table insert with parameters: compiled once and cached (hot path).
            conn.execute(
                _ACTIONS.insert(),
                [
                    {"room_id": r.room_id, "step": r.step, "seat": r.seat, "action": r.action}
                    for r in rows
                ],
            )
            ended = sorted({r.room_id for r in rows if r.finished})
            if ended:
                conn.execute(_MARK_FINISHED, [{"room": room} for room in ended])

    async def store_action(
        self, room_id: str, step: int, seat: int, action: dict[str, Any], finished: bool
    ) -> None:
        """Store one accepted action off the event loop, grouped with those arriving
        together; returns once it is committed."""
        await self.commits.append(NewAction(room_id, step, seat, action, finished))

    def update_seats(self, room_id: str, seats: list[dict[str, Any]]) -> None:
        """Store a change of seat kinds (a seat handed to a bot)."""
        with self.engine.begin() as conn:
            conn.execute(update(RoomRow).where(RoomRow.id == room_id).values(seats=seats))

    def mark_opened(self, room_id: str) -> None:
        """Remember that someone opened the room (it no longer expires unopened)."""
        with self.engine.begin() as conn:
            conn.execute(_MARK_OPENED, {"room": room_id})

    def delete_unopened(self, created_before: float) -> list[str]:
        """Delete the rooms nobody opened that were created before this time; their ids."""
        with self.engine.begin() as conn:
            ids = list(
                conn.execute(
                    select(RoomRow.id).where(
                        RoomRow.opened.is_(False), RoomRow.created < created_before
                    )
                ).scalars()
            )
            if ids:
                conn.execute(delete(ChatRow).where(ChatRow.room_id.in_(ids)))
                conn.execute(delete(ActionRow).where(ActionRow.room_id.in_(ids)))
                conn.execute(delete(RoomRow).where(RoomRow.id.in_(ids)))
        return ids

    def set_rematch(self, room_id: str, rematch: str) -> None:
        """Remember the room that replays this one with the same seats."""
        with self.engine.begin() as conn:
            conn.execute(update(RoomRow).where(RoomRow.id == room_id).values(rematch=rematch))

    def load_room(self, room_id: str) -> StoredRoom | None:
        """A room with its actions, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(RoomRow).where(RoomRow.id == room_id)).mappings().first()
            if row is None:
                return None
            steps = conn.execute(
                select(ActionRow.seat, ActionRow.action)
                .where(ActionRow.room_id == room_id)
                .order_by(ActionRow.step)
            ).all()
        return StoredRoom(
            id=row["id"],
            game=row["game"],
            players=row["players"],
            options=dict(row["options"] or {}),
            seed=row["seed"],
            seats=list(row["seats"]),
            creator_token=row["creator_token"],
            spectator_token=row["spectator_token"],
            created=row["created"],
            finished=bool(row["finished"]),
            rematch_of=row["rematch_of"],
            rematch=row["rematch"],
            actions=[(seat, dict(action)) for seat, action in steps],
            rules_version=row["rules_version"],
            content_digest=row["content_digest"],
            record_format=row["record_format"],
            rng_version=row["rng_version"],
            seed_chosen=bool(row["seed_chosen"]),
            opened=bool(row["opened"]),
            clock=row["clock"] or "none",
            clock_state=row["clock_state"],
            rated=bool(row["rated"]),
        )

    def room_links(self, room_id: str) -> tuple[list[str | None], str, str] | None:
        """A room's tokens (each seat's, the spectators', the creator's), or None: one
        small query, to check a link before the room is loaded."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(RoomRow.seats, RoomRow.spectator_token, RoomRow.creator_token).where(
                    RoomRow.id == room_id
                )
            ).first()
        if row is None:
            return None
        seats, spectator, creator = row
        return [info.get("token") for info in seats], spectator, creator

    def unfinished_room_ids(self) -> list[str]:
        """Ids of rooms whose game is still running (restored at start-up)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(RoomRow.id).where(RoomRow.finished.is_(False)).order_by(RoomRow.created)
                ).scalars()
            )

    # -- playing together online (issue 17) ---------------------------------------------
    def append_chat(self, room_id: str, entry: dict[str, Any]) -> None:
        """Store one chat message (``number``, ``channel``, ``seat``, ``name``, ``text``,
        ``at``); commits before returning."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(ChatRow).values(
                    room_id=room_id,
                    number=entry["number"],
                    channel=entry["channel"],
                    seat=entry["seat"],
                    name=entry["name"],
                    text=entry["text"],
                    at=entry["at"],
                )
            )

    def load_chat(self, room_id: str) -> list[dict[str, Any]]:
        """A room's chat messages in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    ChatRow.number,
                    ChatRow.channel,
                    ChatRow.seat,
                    ChatRow.name,
                    ChatRow.text,
                    ChatRow.at,
                )
                .where(ChatRow.room_id == room_id)
                .order_by(ChatRow.number)
            ).mappings()
            return [dict(row) for row in rows]

    def set_clock_state(self, room_id: str, state: dict[str, Any]) -> None:
        """Store the room's clocks (deadlines as wall-clock times)."""
        with self.engine.begin() as conn:
            conn.execute(update(RoomRow).where(RoomRow.id == room_id).values(clock_state=state))

    def ratings(self, game: str, players: list[str]) -> dict[str, dict[str, Any]]:
        """The stored ratings of these players (by key digest) in one game."""
        if not players:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(RatingRow).where(RatingRow.game == game, RatingRow.player.in_(players))
            ).mappings()
            return {row["player"]: dict(row) for row in rows}

    def save_ratings(self, game: str, rows: list[dict[str, Any]]) -> None:
        """Insert or replace the ratings of these players in one game, in one transaction."""
        with self.engine.begin() as conn:
            for row in rows:
                conn.execute(
                    delete(RatingRow).where(
                        RatingRow.game == game, RatingRow.player == row["player"]
                    )
                )
                conn.execute(insert(RatingRow).values(game=game, **row))

    def leaderboard(self, game: str, limit: int = 100) -> list[dict[str, Any]]:
        """The best-rated players of a game (by the conservative estimate mu - 3 sigma)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(RatingRow)
                .where(RatingRow.game == game)
                .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc())
                .limit(limit)
            ).mappings()
            return [dict(row) for row in rows]


MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: Key of the PostgreSQL advisory lock held while migrating.
MIGRATION_LOCK = 0x6465_6E6F


def alembic_config(conn: Connection | None = None) -> Config:
    """Alembic's configuration for our migrations, running on ``conn``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (creating it in an empty database)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        command.upgrade(alembic_config(conn), "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: a committed transaction survives the process being killed; NORMAL skips the
    # fsync per commit (only a power cut could lose the last commits).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
