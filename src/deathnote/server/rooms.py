"""Rooms: one match, its seats (people by secret token, or bots), its connections.

The server is the only authority. An action is checked by the Match, stored, and only then
does anyone hear of it: every connection is marked stale and its writer sends the viewer's
own view (never anyone else's).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson

from deathnote.agents import (
    Agent,
    Observation,
    agent_names,
    bot_choices,
    bot_label,
    make_agent,
    world_sampler,
)
from deathnote.engine.actions import SPECTATOR, Action, Seat, Viewer
from deathnote.engine.errors import DeathNoteError, IllegalAction, OptionsError, ReplayError
from deathnote.engine.match import RECORD_FORMAT, RECORD_FORMATS, Match, Timeline
from deathnote.engine.play import Table
from deathnote.engine.registry import get_game
from deathnote.engine.rng import RNG_VERSION
from deathnote.server.botpool import BotPool, searches
from deathnote.server.chat import SPECTATOR_ROLE, RoomChat, limiter
from deathnote.server.clock import PRESETS, Clock, RoomClocks, check_clock
from deathnote.server.config import Limits
from deathnote.server.names import Names, check_unique, clean_nickname
from deathnote.server.ratings import bot_player, player_id, rate
from deathnote.server.storage import Storage, StoredRoom

HUMAN = "human"
BOT = "bot"
CREATOR_ROLE = "creator"
SEAT_ROLE = "seat"
MAX_BOT_STEPS = 100_000  # a bound on one run of the bots (every game ends long before)
MAX_SEED = 2**31  # seeds are stored as 32-bit integers
MAX_QUEUED = 256  # messages waiting for one connection before it is dropped as too slow
BOT_RETRIES = 3  # failed bot actions in a row (e.g. storage down) before the bots wait
REPLAY_EVERY = 16  # steps between the snapshots a replay page starts from
MAX_SEAT_WRITES = 4  # writes of one nickname change when other seat changes come meanwhile
#: How a rematch seats the players again (issue 16 §5).
SAME_SEATS, SWAP_SEATS, SHUFFLE_SEATS = "same", "swap", "shuffle"
SEATINGS = (SAME_SEATS, SWAP_SEATS, SHUFFLE_SEATS)

if TYPE_CHECKING:
    from deathnote.server.cluster import Cluster

Send = Callable[[dict[str, Any]], Awaitable[None]]
_CONNECTION_KEYS = itertools.count()
log = logging.getLogger("deathnote.server")


class View(dict[str, Any]):
    """A view message with its JSON text, encoded once for every connection sent it (a
    socket writes ``text``; anything else may read it as the dict it is)."""

    __slots__ = ("__weakref__", "text")  # weakref: a test checks who keeps a view

    def __init__(self, message: dict[str, Any], text: str | None = None) -> None:
        super().__init__(message)
        self.text = orjson.dumps(message).decode() if text is None else text

    def accepting(self, step: int) -> View:
        """This view telling its one receiver that its action was stored as ``step``: the
        acknowledgement rides on the view that shows the action (one frame, not two), and
        the shared text is extended, not encoded again."""
        return View({**self, "accepted": step}, f'{self.text[:-1]},"accepted":{step}}}')


class RoomUnavailable(DeathNoteError):
    """A stored room that cannot be restored here (recorded under other rules)."""


class WrongLink(IllegalAction):
    """A token that is none of the room's links (answered 403, never 409)."""


def new_token() -> str:
    """A secret for an invite link."""
    return secrets.token_urlsafe(18)


class Wake:
    """A connection's writer's alarm: ``asyncio.Event``'s ``set``, ``clear``, ``is_set``
    and ``wait``, without its deque of waiters (one writer waits; a server holds one per
    connection, so it is kept small: a future exists only while the writer waits)."""

    __slots__ = ("_set", "_waiter")

    def __init__(self) -> None:
        self._set = False
        self._waiter: asyncio.Future[None] | None = None

    def set(self) -> None:
        """Wake the writer (now if it waits, else at its next ``wait``)."""
        self._set = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        """Not set any more."""
        self._set = False

    def is_set(self) -> bool:
        """Whether it is set."""
        return self._set

    async def wait(self) -> None:
        """Return once it is set (at once if it is)."""
        if self._set:
            return
        waiter = self._waiter = asyncio.get_running_loop().create_future()
        try:
            await waiter
        finally:
            self._waiter = None


@dataclass(slots=True, eq=False)
class Connection:
    """One WebSocket of a room: who it is, and what it still has to be sent.

    Kept small (a server holds two or more per room): slots, no queue until a message is
    queued, and a ``Wake`` for the writer."""

    role: str
    seat: Seat | None
    send: Send
    #: The messages queued for it (None while there are none).
    queue: deque[dict[str, Any]] | None = None
    stale: bool = True
    wake: Wake = field(default_factory=Wake)
    closed: bool = False
    #: The step of the last view sent: the next one carries only the log after it.
    sent_step: int | None = None
    #: The step of this connection's own action, stored and not yet told: its next view
    #: says ``"accepted": step``.
    accepted: int | None = None
    #: This connection's own key for its message rate.
    key: str = field(default_factory=lambda: f"conn-{next(_CONNECTION_KEYS)}")
    #: Its message rate: the start of the current one-second window, messages in it.
    window_start: float = 0.0
    window_count: int = 0

    @property
    def viewer(self) -> Viewer:
        """The viewer whose view this connection receives."""
        return self.seat if self.seat is not None else SPECTATOR

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message for this connection only."""
        queue = self.queue
        if queue is None:
            queue = self.queue = deque()
        elif len(queue) >= MAX_QUEUED:
            self.closed = True
        queue.append(message)
        self.wake.set()

    def mark_stale(self) -> None:
        """The match changed: send a fresh view when the writer next runs."""
        self.stale = True
        self.wake.set()


class Room:
    """A match with its seats and its live connections."""

    def __init__(
        self,
        stored: StoredRoom,
        match: Match,
        manager: RoomManager,
        chat: list[dict[str, Any]] | None = None,
    ) -> None:
        """``chat``: the room's stored chat (None: loaded from storage; a new room has none)."""
        self.stored = stored
        self.match = match
        self.manager = manager
        self.connections: list[Connection] = []
        #: Where each seat's player sits in the rematch (kept while the server runs; after a
        #: restart a rematch link is given as if the seats were kept).
        self.rematch_seat: dict[Seat, Seat] = {}
        #: The bots' seats at the play loop (the people's seats are played from outside).
        self.table = Table(match, {})
        self.bots: dict[Seat, Agent] = self.table.agents
        #: per bot seat thinking in the worker processes: what its bot carries to its next
        #: move (``Agent.memory``; kept in this process only)
        self.bot_memory: dict[Seat, Any] = {}
        self.pending_since: dict[Seat, float] = {}
        self.pending_step: dict[Seat, int] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self._timeline: Timeline | None = None
        #: One action at a time: checked, stored, then told.
        self._submitting = asyncio.Lock()
        #: One nickname change at a time: checked, stored (off the loop), then shown.
        self._naming = asyncio.Lock()
        #: An action is applied but not yet committed (no view may show it).
        self.storing = False
        #: Bumped by every ``broadcast``: what the views built since then were built from.
        self._version = 0
        #: The view messages built for the connections woken together (``message_text``),
        #: by what makes two connections' messages alike, emptied once they are sent.
        self._built: dict[tuple[Any, ...], View] = {}
        self._built_at: tuple[int, int] | None = None
        self._infos: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._infos_at: tuple[int, int] | None = None
        self._names: Names | None = None
        self.chat = RoomChat(self, manager.storage.load_chat(stored.id) if chat is None else chat)
        for seat, info in enumerate(stored.seats):
            if info["kind"] == BOT:
                self.bots[seat] = make_agent(match.game.id, info["agent"], seat)
        preset = PRESETS.get(stored.clock or "none")
        self.clocks: RoomClocks | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._clock_due: tuple[float, int] | None = None
        #: Seats whose clock ran out and for which a bot is choosing now.
        self._timing_out: set[Seat] = set()
        self._clocks_dirty = False
        self._clock_saver: asyncio.Task[None] | None = None
        if preset is not None:
            self.clocks = RoomClocks(preset, manager.clock_scale, match.players, stored.clock_state)
            for seat, clock in enumerate(self.clocks.seats):
                if clock.asked_step is not None:
                    # A restart: the seat has been asked since this step (its stale-choice
                    # check and its deadline go on from before).
                    self.pending_step[seat] = clock.asked_step
        self._note_pending()

    # -- identity ---------------------------------------------------------------------
    @property
    def id(self) -> str:
        """The room id."""
        return self.stored.id

    def role_of(self, token: str | None) -> tuple[str, Seat | None]:
        """Who holds this token; raises IllegalAction when it is missing or wrong."""
        return link_role(
            [info.get("token") for info in self.stored.seats],
            self.stored.spectator_token,
            self.stored.creator_token,
            token,
        )

    def links(self) -> dict[str, Any]:
        """Invite links (for the creator only)."""
        return {
            "seats": [
                f"/play/{self.id}?token={info['token']}" if info.get("token") else None
                for info in self.stored.seats
            ],
            "spectator": f"/play/{self.id}?token={self.stored.spectator_token}",
            "admin": f"/room/{self.id}?token={self.stored.creator_token}",
        }

    def rematch_link(self, new: Room, conn: Connection) -> str:
        """This connection's link into the rematch room ``new`` (its player's new seat)."""
        return new.link_for(conn.role, self.new_seat(conn.seat))

    def new_seat(self, seat: Seat | None) -> Seat | None:
        """Where the player of ``seat`` sits in the rematch."""
        return None if seat is None else self.rematch_seat.get(seat, seat)

    def link_for(self, role: str, seat: Seat | None) -> str:
        """The link of one role in this room (a seat now played by a bot gets the spectator's)."""
        if role == SEAT_ROLE and seat is not None and self.stored.seats[seat].get("token"):
            return f"/play/{self.id}?token={self.stored.seats[seat]['token']}"
        if role == CREATOR_ROLE:
            return f"/room/{self.id}?token={self.stored.creator_token}"
        return f"/play/{self.id}?token={self.stored.spectator_token}"

    # -- what everyone may see ----------------------------------------------------------
    def connected(self, seat: Seat) -> bool:
        """Whether a connection holds this seat now."""
        return any(c.seat == seat and not c.closed for c in self.connections)

    def public_info(self, viewer: Viewer = SPECTATOR) -> dict[str, Any]:
        """Room facts this viewer may see: seat names, kinds, presence, idle times.

        Idle times are given only for the seats this viewer sees as waiting, so a covert
        decision stays covert.
        """
        return self._public_info(self._seen_waiting(viewer), self.names())

    def _seen_waiting(self, viewer: Viewer) -> frozenset[Seat]:
        """The seats this viewer sees as waiting (a covert decision: only its own seat)."""
        return frozenset(
            s
            for s, d in self.match.pending().items()
            if not d.covert or (isinstance(viewer, int) and viewer == s)
        )

    def _public_info(self, seen_waiting: frozenset[Seat], names: Names) -> dict[str, Any]:
        """``public_info`` of every viewer who sees these seats as waiting (the only part
        of it that depends on the viewer)."""
        now = time.monotonic()
        seats = []
        clocks = self.clocks
        wall = self.manager.clock.now()
        for seat, info in enumerate(self.stored.seats):
            since = self.pending_since.get(seat) if seat in seen_waiting else None
            # A person's seat (or one a bot took over): bots' own seats are never timed.
            timed = clocks is not None and bool(info.get("token"))
            seats.append(
                {
                    "seat": seat,
                    "name": names.display(seat),
                    "seat_name": names.seat_names[seat],
                    "nick": info.get("nick"),
                    "muted": bool(info.get("muted")),
                    "kind": info["kind"],
                    "agent": info.get("agent"),
                    # what a person reads for the bot ("easy"), never the agent's name
                    "bot": bot_label(info.get("agent")) if info["kind"] == BOT else None,
                    "stand_in": info.get("stand_in") if info["kind"] == HUMAN else None,
                    "connected": info["kind"] == BOT or self.connected(seat),
                    "idle": round(now - since, 1) if since is not None else None,
                    # Only a seat whose person may come back with its link can be taken back.
                    "taken_over": info["kind"] == BOT and bool(info.get("token")),
                    "clock": clocks.shown(
                        seat, seat in seen_waiting, wall, due=seat in self._timing_out
                    )
                    if clocks is not None and timed
                    else None,
                }
            )
        return {
            "id": self.id,
            "game": self.match.game.id,
            "game_name": self.match.game.name,
            "seats": seats,
            "spectators": sum(1 for c in self.connections if c.role != SEAT_ROLE),
            "step": len(self.match.actions),
            "finished": self.match.outcome() is not None,
            "rematch": self.stored.rematch is not None,
            # the rematch is the next game of a series (its seats stay as they are)
            "series_next": self.match.next_in_series() is not None,
            # Told to everyone: a chosen seed lets its chooser know the deal in advance.
            "seed_chosen": self.stored.seed_chosen,
            "rated": self.stored.rated,
            "clock": None
            if clocks is None
            else {
                "name": clocks.preset.name,
                "label": clocks.preset.label,
                "decision": clocks.decision,
                "reserve": clocks.start_reserve,
                "timeouts": self.manager.limits.clock_timeouts,
            },
        }

    def message_for(self, conn: Connection) -> View:
        """The view message of one connection (with its JSON text): its own view and the
        public room facts.

        The first view of a connection holds the whole log and state; each later one only
        the log entries after the step it last had (``since``), which the client appends,
        and, where the match still remembers that step's state view, a ``patch`` of the
        state instead of the whole ``state`` (``engine.delta``), which the client applies.

        Built once for every connection woken by the same change that gets the same
        message: the same role, seat and ``since`` (e.g. every spectator who was sent the
        same step), so a room's spectators cost one view and one encoding per step, not one
        each. Kept only until the woken writers have run (the next turn of the event loop),
        so a room holds no built views meanwhile."""
        step = len(self.match.actions)
        since = conn.sent_step if conn.sent_step is not None and conn.sent_step <= step else None
        conn.sent_step = step
        at = (self._version, step)
        if self._built_at != at:
            self._built.clear()
            self._built_at = at
        key = (conn.role, conn.seat, since)
        built = self._built.get(key)
        if built is None:
            if not self._built:
                with contextlib.suppress(RuntimeError):  # no event loop: nothing kept
                    asyncio.get_running_loop().call_soon(self._forget_built)
            viewer = conn.viewer
            names = self.names()
            message: dict[str, Any] = {
                "type": "view",
                "step": step,
                "since": since,
                "role": conn.role,
                "seat": conn.seat,
                "room": self._room_info(viewer, names),
                # Not fresh: the view is encoded at once below and never changed.
                "view": names.view(self.match.view(viewer, since=since, patch=True, fresh=False)),
            }
            built = self._built[key] = View(message)
        return built

    def _room_info(self, viewer: Viewer, names: Names) -> dict[str, Any]:
        """``public_info(viewer)``, shared by the viewers built from the same change who
        see the same seats waiting (all of them unless a decision is covert)."""
        seen = self._seen_waiting(viewer)
        key = ("room", seen)
        info = self._infos.get(key) if self._infos_at == self._built_at else None
        if info is None:
            if self._infos_at != self._built_at:
                self._infos = {}
                self._infos_at = self._built_at
            info = self._infos[key] = self._public_info(seen, names)
        return info

    def _forget_built(self) -> None:
        self._built = {}
        self._built_at = None
        self._infos = {}
        self._infos_at = None

    # -- names --------------------------------------------------------------------------
    def names(self) -> Names:
        """How the seats are named now (the game's names and the chosen nicknames); made
        again only when a nickname changed (a match's seat names never change)."""
        nicks = [info.get("nick") for info in self.stored.seats]
        names = self._names
        if names is None or names.nicks != nicks:
            names = self._names = Names(self.match.seat_names(), nicks)
        return names

    async def set_nickname(self, conn: Connection, text: str, key: str | None = None) -> str:
        """The person of a seat chooses (or changes) the nickname of their seat, and may
        name themselves by a player key (ratings).

        One change of a room at a time, in arrival order; stored in a worker thread (the
        event loop never waits on the database) before any screen shows it."""
        async with self._naming:
            return await self._set_nickname(conn, text, key)

    async def _set_nickname(self, conn: Connection, text: str, key: str | None) -> str:
        if conn.role != SEAT_ROLE or conn.seat is None:
            raise IllegalAction("only a seat's person chooses a nickname")
        nick = clean_nickname(text, self.manager.limits.max_nickname_chars)
        seat_names = self.match.seat_names()
        check_unique(nick, conn.seat, seat_names, [s.get("nick") for s in self.stored.seats])
        player = None if key is None else player_id(key)
        if player is not None and any(
            s.get("player") == player for i, s in enumerate(self.stored.seats) if i != conn.seat
        ):
            raise IllegalAction(
                "your player key already holds another seat of this room; open this link "
                "in another browser (one player, one seat)"
            )
        current = self.stored.seats[conn.seat]
        if current.get("nick") == nick and (player is None or current.get("player") == player):
            return nick  # nothing changes: nothing to store or tell
        limits = self.manager.limits
        if not limiter.hit(limits.name_rate_item(), "name", f"{self.id}:{conn.seat}"):
            raise IllegalAction(
                f"too many name changes (at most {limits.name_rate}); wait a little"
            )
        change: dict[str, Any] = {"nick": nick}
        if player is not None:
            change["player"] = player
        await self._store_seat_change(conn.seat, change)
        # The log is renamed too: every connection gets its whole view again.
        for other in self.connections:
            other.sent_step = None
        self.broadcast()
        return nick

    async def _store_seat_change(self, seat: Seat, change: dict[str, Any]) -> None:
        """Store the seats with ``change`` applied to one seat, in a worker thread, then
        apply it in memory. The other seat changes (a seat handed to a bot, a mute) are
        written on the loop meanwhile: when one came during this write, the write is
        made again from the newest seats, so the stored seats end as the newest."""
        for _attempt in range(MAX_SEAT_WRITES):
            base = self.stored.seats
            seats = [dict(s) for s in base]
            seats[seat].update(change)
            try:
                await asyncio.to_thread(self.manager.storage.update_seats, self.id, seats)
            except Exception as exc:
                self.manager.log(f"room {self.id}: storing a seat change failed: {exc!r}")
                raise IllegalAction("your change could not be stored; try again") from exc
            if self.stored.seats is base:
                self.stored.seats = seats
                return
        # The seats kept changing under these writes (the other changes are rare and the
        # creator's own): memory keeps the newest seats with this change.
        newest = [dict(s) for s in self.stored.seats]
        newest[seat].update(change)
        self.stored.seats = newest
        self.manager.log(f"room {self.id}: the seats changed during {MAX_SEAT_WRITES} writes")

    def at_step(self, step: int) -> Match:
        """The match after ``step`` actions (replay pages): from the nearest snapshot,
        taken every REPLAY_EVERY steps in one replay of the record, never from the start."""
        timeline = self._timeline
        if timeline is None or timeline.steps != len(self.match.actions):
            timeline = self._timeline = self.match.timeline(REPLAY_EVERY)
        return timeline.at(step)

    # -- connections --------------------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        """A new connection: it gets its view, the others see the presence change.

        Raises IllegalAction when the room has its maximum of connections already.
        """
        cap = self.manager.limits.connections_per_room
        if len(self.connections) >= cap:
            raise IllegalAction(f"this room has its maximum of {cap} connections; try later")
        if not self.stored.opened:
            # Opened once: the room no longer expires as an unopened one. Stored by the
            # commit thread, not on the event loop (a write of ~2-5 ms for every room
            # made); the expiry deletes through the same thread, after it.
            storage = self.manager.storage
            try:
                marked = storage.commits.executor.submit(storage.mark_opened, self.id)
            except RuntimeError:  # the server is stopping: its commit thread is gone
                storage.mark_opened(self.id)
            else:
                marked.add_done_callback(_logged)
            self.stored.opened = True
        self.connections.append(conn)
        self._arm_clock()
        self.chat.send_history(conn)
        self.broadcast()

    def detach(self, conn: Connection) -> None:
        """A connection went away."""
        conn.closed = True
        if conn in self.connections:
            self.connections.remove(conn)
        self.broadcast()
        if self.dormant():
            # Nobody is here and nothing moves: storage has the room, memory need not.
            self.manager.forget(self.id)

    def dormant(self) -> bool:
        """No connection, and nothing will move until someone comes back."""
        if self.connections:
            return False
        if self.match.outcome() is not None:
            return True
        bots_busy = self._bot_task is not None and not self._bot_task.done()
        clock_runs = self.clocks is not None and self.clocks.next_deadline() is not None
        timing_out = bool(self._timing_out)  # a clock's bot is choosing a move
        return not (bots_busy or clock_runs or timing_out or self._bots_to_move())

    def broadcast(self) -> None:
        """Every connection gets its fresh view (built when its writer runs)."""
        self._version += 1
        for conn in self.connections:
            conn.mark_stale()

    async def writer(self, conn: Connection) -> None:
        """Send one connection its queued messages and its latest view, in order."""
        while not conn.closed:
            await conn.wake.wait()
            conn.wake.clear()
            queue = conn.queue
            if queue is not None:
                while queue:
                    await conn.send(queue.popleft())
                if conn.queue is queue:
                    conn.queue = None  # drained: no deque kept meanwhile
            # No view while an action is being stored: it may not count yet. Its commit
            # marks every connection stale again.
            if conn.stale and not conn.closed and not self.storing:
                conn.stale = False
                message = self.message_for(conn)
                if conn.accepted is not None:
                    message = message.accepting(conn.accepted)
                    conn.accepted = None
                await conn.send(message)
                # Not kept while the writer waits: an idle connection would hold its last
                # view (a few KiB a connection, and the state objects it shares).
                del message

    # -- play ---------------------------------------------------------------------------
    async def submit(
        self,
        seat: Seat,
        action: Action | dict[str, Any],
        on_stored: Callable[[int], None] | None = None,
    ) -> int:
        """Check, store, then tell: raises IllegalAction and changes nothing when rejected.

        The room takes one action at a time, in arrival order. The action is stored off
        the event loop (with the actions of other rooms arriving meanwhile, in one
        commit); until it is committed no view is built and nobody hears of it. Returns
        its step. Once checked, an action runs to its end even if the caller is cancelled
        (its socket closed): stored and told, or undone, never left half-way.
        ``on_stored(step)`` runs once it is committed, before anyone is sent a view (the
        sender's view that shows its action says ``"accepted": step``).
        """
        task = asyncio.ensure_future(self._submit(seat, action, on_stored))
        task.add_done_callback(_retrieved)
        return await asyncio.shield(task)

    async def _submit(
        self,
        seat: Seat,
        action: Action | dict[str, Any],
        on_stored: Callable[[int], None] | None,
    ) -> int:
        async with self._submitting:
            if not isinstance(action, Action):
                action = parse_action(action)
            if 0 <= seat < self.match.players:
                # Keep the legal action's label (for the replay page). Equality is
                # type-strict (engine.actions): true is not 1, and the Match says which
                # field is wrong.
                for legal in self.match.legal(seat):
                    if legal == action:
                        action = legal
                        break
            self.match.submit(seat, action)
            step = len(self.match.actions) - 1
            _seat, accepted = self.match.actions[-1]
            finished = self.match.outcome() is not None
            self.storing = True
            try:
                await self.manager.storage.store_action(
                    self.id, step, seat, accepted.to_json(), finished=finished
                )
            except Exception as exc:
                # Not stored means not accepted: go back to the stored record.
                self.match.rewind(step)
                self._note_pending()  # the clocks follow the stored match again
                # The writers that held back a view meanwhile (and with it an earlier
                # action's acknowledgement) send it now (a commit's broadcast would).
                for conn in self.connections:
                    if conn.stale:
                        conn.wake.set()
                self.manager.log(f"room {self.id}: storing step {step} failed: {exc!r}")
                if self.manager.cluster is not None:
                    self.manager.cluster.store_failed(self.id)
                raise IllegalAction(
                    "your action could not be stored, so it did not count; try again"
                ) from exc
            finally:
                self.storing = False
            if on_stored is not None:
                on_stored(step)
            if finished:
                self.stored.finished = True
                if self.stored.rated:
                    await asyncio.to_thread(self._rate)
            # The seat that acted ended its own decision; a new one starts now.
            self.pending_since.pop(seat, None)
            self.pending_step.pop(seat, None)
            if self.clocks is not None:
                self.clocks.done(seat, self.manager.clock.now())
            self._note_pending()
            self.broadcast()
            self.kick_bots()
            return step

    async def act(
        self,
        conn: Connection,
        action: dict[str, Any],
        step: int | None = None,
        seat: int | None = None,
    ) -> None:
        """A person's action from a connection (already validated as JSON types)."""
        if conn.role != SEAT_ROLE or conn.seat is None:
            raise IllegalAction("a spectator cannot act")
        asked_for = conn.seat if seat is None else seat
        if asked_for != conn.seat:
            raise IllegalAction(
                f"you hold {self.match.seat_name(conn.seat)}'s seat and cannot act for "
                f"seat {asked_for!r}"
            )
        if self.stored.seats[conn.seat]["kind"] == BOT:
            raise IllegalAction("a bot plays this seat now")
        asked_at = self.pending_step.get(conn.seat)
        if step is not None and (asked_at is None or step < asked_at):
            # A choice made on an older screen than the current question.
            raise IllegalAction("the game moved on before your choice arrived; choose again")
        await self.submit(conn.seat, parse_action(action), on_stored=partial(_acknowledge, conn))

    def _note_pending(self) -> None:
        pending = self.match.pending()
        now = time.monotonic()
        step = len(self.match.actions)
        self.pending_since = {s: self.pending_since.get(s, now) for s in pending}
        self.pending_step = {s: self.pending_step.get(s, step) for s in pending}
        if self.clocks is not None:
            self._update_clocks()

    # -- ratings --------------------------------------------------------------------------
    def _rate(self) -> None:
        """A rated game ended: update its players' ratings (a failure is only logged: the
        game's end is stored already)."""
        outcome = self.match.outcome()
        if outcome is None:
            return
        labels = {b["agent"]: b["label"] for b in bot_choices(self.match.game.id)}
        names = self.names()
        players: list[tuple[str, str] | None] = []
        for seat, info in enumerate(self.stored.seats):
            if info.get("player"):
                players.append((info["player"], names.nicks[seat] or names.seat_names[seat]))
            elif info["kind"] == BOT and not info.get("token"):
                agent = str(info.get("agent"))
                players.append((bot_player(agent), labels.get(agent, f"bot, {agent}")))
            else:
                players.append(None)
        try:
            rate(self.manager.storage, self.match.game.id, players, outcome.winning_seats)
        except Exception as exc:
            self.manager.log(f"room {self.id}: updating the ratings failed: {exc!r}")

    # -- clocks ---------------------------------------------------------------------------
    def _update_clocks(self) -> None:
        """Start the clock of every person's seat newly asked, stop the others; store."""
        clocks = self.clocks
        assert clocks is not None
        wall = self.manager.clock.now()
        over = self.match.outcome() is not None
        pending = {} if over else self.match.pending()
        for seat, clock in enumerate(clocks.seats):
            asked = seat in pending and seat not in self.bots and seat not in self._timing_out
            if asked and clock.deadline is None:
                step = self.pending_step.get(seat, len(self.match.actions))
                clocks.ask(seat, step, pending[seat].covert, wall)
            elif not asked and clock.deadline is not None:
                clocks.done(seat, wall)
        self._save_clocks()
        self._arm_clock()

    def _save_clocks(self) -> None:
        """Store the clocks: off the event loop, the newest state last (one saver at a
        time); in a worker thread (a room being built), at once."""
        self._clocks_dirty = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._store_clocks_now()
            return
        if self._clock_saver is None or self._clock_saver.done():
            self._clock_saver = loop.create_task(self._clock_saving())

    async def _clock_saving(self) -> None:
        while self._clocks_dirty:
            await asyncio.to_thread(self._store_clocks_now)

    def _store_clocks_now(self) -> None:
        clocks = self.clocks
        self._clocks_dirty = False
        if clocks is None:
            return
        try:
            self.manager.storage.set_clock_state(self.id, clocks.to_json())
        except Exception as exc:  # the clock goes on in memory; the next change stores it
            self.manager.log(f"room {self.id}: storing the clocks failed: {exc!r}")

    def _arm_clock(self) -> None:
        """Wait (in the background) for the earliest deadline; no-op off the event loop."""
        if self.clocks is None:
            return
        due = None if self.match.outcome() is not None else self.clocks.next_deadline()
        running = self._clock_task is not None and not self._clock_task.done()
        if running and due == self._clock_due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # built in a worker thread: armed when the loop next touches the room
        if running and self._clock_task is not None:
            self._clock_task.cancel()
        self._clock_due = due
        self._clock_task = None if due is None else loop.create_task(self._clock_wait(*due))

    async def _clock_wait(self, deadline: float, seat: Seat) -> None:
        await self.manager.clock.sleep_until(deadline)
        # From here on this task acts: a new deadline arms a new task, never cancels this.
        self._clock_task = None
        self._clock_due = None
        try:
            await self._on_timeout(seat)
        except Exception:
            log.exception("room %s: a clock timeout failed", self.id)
            self._arm_clock()

    async def _on_timeout(self, seat: Seat) -> None:
        """A seat's clock ran out: a bot moves for it (after too many timeouts, the bot
        keeps the seat until its person takes it back).

        The move stands as long as the seat is still asked the question it timed out on,
        whatever other seats did meanwhile: seats asked one covert question together share
        one deadline, and each gets its own bot's move (another's move does not give it a
        fresh deadline, which would time seats apart).
        """
        clocks = self.clocks
        assert clocks is not None
        if self.storing:
            # An action is being stored: look at the match once it counts (or is undone).
            async with self._submitting:
                pass
        clock = clocks.seats[seat]
        if (
            self.match.outcome() is not None
            or clock.deadline is None
            or clock.deadline > self.manager.clock.now()
            or seat not in self.match.pending()
            or seat in self.bots
        ):
            # Early, or stale (the seat is no longer asked): the clocks follow the match.
            self._update_clocks()
            return
        asked_since = self.pending_step.get(seat)
        counted = clocks.timed_out(seat)
        agent_name = self.stand_in(seat)
        if counted and clock.timeouts >= self.manager.limits.clock_timeouts:
            self._give_to_bot(seat, agent_name)
            return
        self._timing_out.add(seat)
        try:
            self._update_clocks()
            if counted:
                self.broadcast()  # the seat's reserve and timeouts are everyone's to see
            else:
                # A covert timeout tells no one else anything: only the seat's own screens
                # change (its time left shows 0 while the bot chooses).
                for conn in self.connections:
                    if conn.seat == seat:
                        conn.mark_stale()
            agent = make_agent(self.match.game.id, agent_name, seat)
            for _ in range(BOT_RETRIES):
                seen = snapshot(self.match, seat, self.table.rng(seat))
                action = await asyncio.to_thread(agent.choose, seen)
                if not self._asked_since(seat, asked_since):
                    return  # the person (or a take-over) moved meanwhile
                try:
                    await self.submit(seat, action)
                    return
                except IllegalAction as exc:
                    # The choices changed while the bot thought (or storing failed): again.
                    self.manager.log(f"room {self.id}: the clock's bot move failed: {exc}")
                except DeathNoteError as exc:
                    self.manager.log(f"room {self.id}: the clock's bot move failed: {exc}")
                    return
        finally:
            self._timing_out.discard(seat)
            # Still asked (the move failed): its clock starts again rather than never.
            self._update_clocks()

    def _asked_since(self, seat: Seat, step: int | None) -> bool:
        """Whether a person's seat is still asked the question it was asked at ``step``."""
        return (
            self.match.outcome() is None
            and seat in self.match.pending()
            and seat not in self.bots
            and self.pending_step.get(seat) == step
        )

    def take_back(self, conn: Connection) -> None:
        """The person of a seat a bot plays (after timeouts, or handed over by the
        creator) takes it back with their link."""
        if conn.role != SEAT_ROLE or conn.seat is None:
            raise IllegalAction("only a seat's person can take the seat back")
        seat = conn.seat
        info = self.stored.seats[seat]
        if info["kind"] != BOT:
            raise IllegalAction("you play this seat already")
        if self.match.outcome() is not None:
            raise IllegalAction("the game is over")
        seats = [dict(s) for s in self.stored.seats]
        seats[seat] = {k: v for k, v in info.items() if k != "away"}
        seats[seat].update(kind=HUMAN, agent=None)
        self.manager.storage.update_seats(self.id, seats)
        self.stored.seats = seats
        self.bots.pop(seat, None)
        self.bot_memory.pop(seat, None)
        if self.clocks is not None:
            self.clocks.seats[seat].timeouts = 0
        # Asked from now on: the person's own choice is not stale.
        self.pending_step.pop(seat, None)
        self.pending_since.pop(seat, None)
        self._note_pending()
        self.broadcast()

    def kick_bots(self) -> None:
        """Let the bots play any seat of theirs that is asked (in the background)."""
        self._arm_clock()
        if self._bot_task is not None and not self._bot_task.done():
            return
        if not self._bots_to_move():
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    def _bots_to_move(self) -> list[Seat]:
        if self.match.outcome() is not None:
            return []
        return sorted(s for s in self.match.pending() if s in self.bots)

    async def _run_bots(self) -> None:
        table = self.table
        failures = 0
        for _ in range(MAX_BOT_STEPS):
            # The seat the play loop would play: the lowest asked seat that a bot plays.
            seat = table.next_seat()
            if seat is None:
                return
            agent = self.bots[seat]
            step = len(self.match.actions)
            name = str(self.stored.seats[seat].get("agent") or "")
            if searches(name) and self.manager.bot_pool.workers:
                # A search bot thinks in a worker process (botpool.py says why), from the
                # room's record as it is now.
                rng = table.rng(seat)
                action, kept = await self.manager.bot_pool.choose(
                    self.id, self.match, seat, name, rng, self.bot_memory.get(seat)
                )
            else:
                # A cheap bot answers in a worker thread, so it never holds up the loop. It
                # gets what it would see now, taken here: the match may move on meanwhile.
                seen = snapshot(self.match, seat, table.rng(seat))
                action = await asyncio.to_thread(agent.choose, seen)
                kept = None
            if (
                len(self.match.actions) != step
                or self.bots.get(seat) is not agent
                or seat not in self.match.pending()
            ):
                continue  # someone moved while it thought: look again
            try:
                await self.submit(seat, action)
            except DeathNoteError as exc:  # not stored (tried again), or a bot's bug
                self.manager.log(f"room {self.id}: a bot's action failed: {exc}")
                failures += 1
                if failures >= BOT_RETRIES:
                    return
                await asyncio.sleep(max(self.manager.bot_delay, 0.05))
                continue
            failures = 0
            if kept is not None:
                # What the bot made in the worker carries to its next move there (a
                # search bot's answers at each information set: it will not go round a
                # loop of its own moves, such as begin a choice and cancel it).
                self.bot_memory[seat] = kept
            await asyncio.sleep(self.manager.bot_delay)

    def stand_in(self, seat: Seat) -> str:
        """The bot that takes this person's seat over: the level the creator chose for the
        room's idle seats, else the game's heuristic; in a rated room always the weakest
        (the result counts for the person: nobody may gain by leaving their seat)."""
        if self.stored.rated:
            return weakest_bot(self.match.game.id)
        info = self.stored.seats[seat] if 0 <= seat < len(self.stored.seats) else {}
        chosen = info.get("stand_in")
        if isinstance(chosen, str) and chosen in agent_names(self.match.game.id):
            return chosen
        return default_bot(self.match.game.id)

    def hand_to_bot(self, seat: Seat, agent: str | None = None) -> None:
        """The creator gives an idle or absent person's seat to a bot (by default, the
        seat's stand-in level)."""
        if not 0 <= seat < self.match.players:
            raise IllegalAction(f"there is no seat {seat} in this room")
        if agent is None:
            agent = self.stand_in(seat)
        elif self.stored.rated and agent != self.stand_in(seat):
            raise IllegalAction(
                "in a rated room an idle seat is played by the weakest bot "
                f"({self.stand_in(seat)}): the result counts for its person"
            )
        info = self.stored.seats[seat]
        if self.match.outcome() is not None:
            raise IllegalAction("the game is over")
        if info["kind"] == BOT:
            raise IllegalAction(f"{self.match.seat_name(seat)} is already played by a bot")
        if agent not in agent_names(self.match.game.id):
            raise IllegalAction(
                f"unknown bot {agent!r}; choose from {', '.join(agent_names(self.match.game.id))}"
            )
        since = self.pending_since.get(seat)
        idle = since is not None and time.monotonic() - since >= self.manager.idle_seconds
        if self.connected(seat) and not idle:
            raise IllegalAction(
                f"{self.match.seat_name(seat)} is connected and not idle; "
                f"a seat can be handed to a bot once it is left for "
                f"{self.manager.idle_seconds:g} seconds"
            )
        self._give_to_bot(seat, agent)

    def _give_to_bot(self, seat: Seat, agent: str) -> None:
        seats = [dict(s) for s in self.stored.seats]
        seats[seat] = {**self.stored.seats[seat], "kind": BOT, "agent": agent}
        self.manager.storage.update_seats(self.id, seats)
        self.stored.seats = seats
        self.bots[seat] = make_agent(self.match.game.id, agent, seat)
        self.bot_memory.pop(seat, None)
        if self.clocks is not None:
            self._update_clocks()
        self.broadcast()
        self.kick_bots()

    async def stop(self) -> None:
        """Stop the bots and the clock (server shutdown)."""
        if self._clock_task is not None:
            self._clock_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._clock_task
        if self._clock_saver is not None:
            with contextlib.suppress(Exception):
                await self._clock_saver
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._bot_task


def _acknowledge(conn: Connection, step: int) -> None:
    """The connection's action is stored as ``step``: its next view says so (the broadcast
    after the commit wakes its writer)."""
    conn.accepted = step


def _logged(done: concurrent.futures.Future[Any]) -> None:
    """Log the error of a storage write nobody waits for."""
    if not done.cancelled() and (error := done.exception()) is not None:
        log.error("a storage write failed", exc_info=error)


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Mark a finished task's error as seen (its caller may have gone)."""
    if not task.cancelled():
        task.exception()


#: The refusal of a wrong link: the same whether or not the room exists.
NOT_A_LINK = "this link is not one of this room's links"
NO_TOKEN = "this link has no seat token; ask the room's creator for yours"


def link_role(
    seat_tokens: list[str | None], spectator: str, creator: str, token: str | None
) -> tuple[str, Seat | None]:
    """Who holds ``token`` among a room's tokens; raises WrongLink when it is missing or
    none of them (compared in constant time)."""
    if not token:
        raise WrongLink(NO_TOKEN)
    given = token.encode()
    for seat, known in enumerate(seat_tokens):
        if known and secrets.compare_digest(known.encode(), given):
            return SEAT_ROLE, seat
    if secrets.compare_digest(spectator.encode(), given):
        return SPECTATOR_ROLE, None
    if secrets.compare_digest(creator.encode(), given):
        return CREATOR_ROLE, None
    raise WrongLink(NOT_A_LINK)


def snapshot(match: Match, seat: Seat, rng: random.Random) -> Observation:
    """What a bot in ``seat`` sees now, taken at once (safe to read in another thread): a
    fork of the match, whose view is built only if the bot reads it (random bots never do),
    in the bot's thread, from the fork alone. A search bot samples its worlds from the
    fork, as that seat sees it."""
    frozen = match.fork()
    # Search bots sample the worlds this seat cannot tell apart, from the fork too.
    sampler = world_sampler(frozen, seat)
    return Observation(seat, list(match.legal(seat)), partial(frozen.view, seat), rng, sampler)


def parse_action(data: Any) -> Action:
    """An action from its JSON form; IllegalAction (never another error) when malformed."""
    try:
        return Action.from_json(data)
    except TypeError:
        # A field name that clashes with a parameter of Action.make (e.g. "cls").
        raise IllegalAction("malformed action: a field name is not allowed") from None


def weakest_bot(game_id: str) -> str:
    """The stand-in of a rated room's seats: random play, so that a person never gains
    rating by letting a bot play for them."""
    return "random" if "random" in agent_names(game_id) else default_bot(game_id)


def default_bot(game_id: str) -> str:
    """The bot a seat gets when nobody chose one: the game's heuristic (easy)."""
    return "heuristic" if "heuristic" in agent_names(game_id) else "random"


def seat_specs(game_id: str, players: int, seats: Any) -> list[dict[str, Any]]:
    """Validate the seat kinds of a new room: ``[{"kind": "human", "stand_in"?} | {"kind":
    "bot", "agent"}]``. A person's seat may name its ``stand_in``: the bot that takes the
    seat over if it is handed to a bot (the room's level for idle seats)."""
    if seats is None:
        seats = [{"kind": HUMAN}] * players
    if not isinstance(seats, list) or len(seats) != players:
        raise OptionsError(f"give exactly {players} seats, one per player")
    known = agent_names(game_id)

    def bot(index: int, name: Any) -> str:
        if name is None:
            return default_bot(game_id)
        if not isinstance(name, str) or name not in known:
            shown = name[:40] if isinstance(name, str) else name
            raise OptionsError(
                f"seat {index + 1}: unknown bot {shown!r}; choose from {', '.join(known)}"
            )
        return name

    out: list[dict[str, Any]] = []
    for index, spec in enumerate(seats):
        if not isinstance(spec, dict) or spec.get("kind") not in (HUMAN, BOT):
            raise OptionsError(f"seat {index + 1}: kind must be 'human' or 'bot'")
        if spec["kind"] == HUMAN:
            stand_in = bot(index, spec.get("stand_in"))
            out.append({"kind": HUMAN, "agent": None, "token": new_token(), "stand_in": stand_in})
            continue
        out.append({"kind": BOT, "agent": bot(index, spec.get("agent")), "token": None})
    return out


class RoomManager:
    """All rooms of this server: created, restored from storage on demand, stored."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.0,
        idle_seconds: float = 60.0,
        log: Callable[[str], None] = print,
        limits: Limits | None = None,
        bot_workers: int | None = None,
        clock: Clock | None = None,
        clock_scale: float = 1.0,
    ) -> None:
        self.storage = storage
        #: Worker processes for the search bots (started on their first move).
        self.bot_pool = BotPool(bot_workers)
        #: The clocks' time source (a FakeClock in tests) and a factor on their seconds.
        self.clock = clock or Clock()
        if clock_scale <= 0:
            raise DeathNoteError("clock-scale must be more than 0")
        self.clock_scale = clock_scale
        self.bot_delay = bot_delay
        self.idle_seconds = idle_seconds
        self.log = log
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        #: Rooms being built off the event loop (counted against the live-room cap).
        self.creating = 0
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        #: With ``--redis``: this process's part of a cluster (``server.cluster``).
        self.cluster: Cluster | None = None

    def forget(self, room_id: str) -> None:
        """A room leaves memory (storage keeps it); in a cluster its lease is given back."""
        self.rooms.pop(room_id, None)
        if self.cluster is not None:
            self.cluster.forget(room_id)

    # -- limits -------------------------------------------------------------------------
    def allow_message(self, conn: Connection) -> bool:
        """Whether this connection may send one more message this second (a fixed
        one-second window counted on the connection itself: constant cost, no shared
        storage; limits' MemoryStorage started a timer thread every 10 ms under load)."""
        now = time.monotonic()
        if now - conn.window_start >= 1.0:
            conn.window_start = now
            conn.window_count = 0
        conn.window_count += 1
        return conn.window_count <= self.limits.messages_per_second

    def full(self) -> bool:
        """Whether the live-room cap is reached (no new room now)."""
        return len(self.rooms) + self.creating >= self.limits.max_live_rooms

    # -- creation -----------------------------------------------------------------------
    def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any] | None,
        seats: Any,
        seed: int | None = None,
        rematch_of: str | None = None,
        clock: str | None = None,
        rated: bool = False,
    ) -> Room:
        """A new room; raises DeathNoteError naming a bad game, option or seat."""
        room = self.build(game_id, players, options, seats, seed, rematch_of, clock, rated)
        self.rooms[room.id] = room
        if self.cluster is not None:
            self.cluster.claim_soon(room.id)
        return room

    async def create_off_loop(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any] | None,
        seats: Any,
        seed: int | None = None,
        clock: str | None = None,
        rated: bool = False,
    ) -> Room:
        """``create`` with the match built and stored in a worker thread."""
        self.creating += 1
        try:
            room = await asyncio.to_thread(
                self.build, game_id, players, options, seats, seed, None, clock, rated
            )
        finally:
            self.creating -= 1
        if self.cluster is not None:
            await self.cluster.claim(room.id)
        self.rooms[room.id] = room
        return room

    def build(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any] | None,
        seats: Any,
        seed: int | None = None,
        rematch_of: str | None = None,
        clock: str | None = None,
        rated: bool = False,
    ) -> Room:
        """A new room, stored but not yet among the live ones (safe off the event loop).

        A rated room updates its players' ratings when the game ends; its seed is never
        chosen (it would tell its chooser the deal).

        The creator may choose the seed only where every other seat is a bot, since the
        seed reproduces the deal; otherwise it is drawn from ``secrets`` and told to no one.
        """
        game = get_game(game_id)
        count = players if players is not None else game.min_players
        if not game.min_players <= count <= game.max_players:
            # Checked before any seat is made (a huge count would make a huge seat list).
            allowed = (
                str(game.min_players)
                if game.min_players == game.max_players
                else f"{game.min_players} to {game.max_players}"
            )
            raise OptionsError(f"{game.name} is played by {allowed} players, not {count}")
        specs = seat_specs(game_id, count, seats)
        if rated:
            for spec in specs:
                if spec["kind"] == HUMAN:
                    spec["stand_in"] = weakest_bot(game_id)
        clock_name = check_clock(clock)
        if rated and seed is not None:
            raise OptionsError("a rated room cannot have a chosen seed (it tells the deal)")
        if options is not None:
            size = len(orjson.dumps(options))
            if size > self.limits.max_options_bytes:
                raise OptionsError(
                    f"the options are too long ({size} bytes; at most "
                    f"{self.limits.max_options_bytes})"
                )
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
            chosen = False
        elif not 0 <= seed < MAX_SEED:
            raise OptionsError(f"the seed must be from 0 to {MAX_SEED - 1}")
        else:
            people = sum(1 for s in specs if s["kind"] == HUMAN)
            if people > 1:
                raise OptionsError(
                    "a chosen seed tells its chooser the deal, so it is allowed only when "
                    f"every other seat is a bot (this room has {people} people)"
                )
            chosen = True
        # No content path from a client: the match plays the game's shipped content.
        match = Match.create(game_id, count, seed, options or {})
        stored = StoredRoom(
            id=secrets.token_hex(6),
            game=game_id,
            players=count,
            options=match.options,
            seed=seed,
            seats=specs,
            creator_token=new_token(),
            spectator_token=new_token(),
            created=time.time(),
            finished=False,
            rematch_of=rematch_of,
            rematch=None,
            actions=[],
            rules_version=game.rules_version,
            content_digest=match.content_digest,
            record_format=RECORD_FORMAT,
            rng_version=RNG_VERSION,
            seed_chosen=chosen,
            opened=False,
            clock=clock_name,
            rated=rated,
        )
        self.storage.create_room(stored)
        return Room(stored, match, self, chat=[])  # nothing said yet: no query

    # -- restoring ----------------------------------------------------------------------
    def get(self, room_id: str) -> Room | None:
        """A room in memory, or restored from storage by replaying its actions.

        Raises RoomUnavailable for a room recorded under other rules.
        """
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        room = self.load(room_id)
        if room is not None:
            self.rooms[room_id] = room
        return room

    async def check_link(self, room_id: str, token: str | None) -> None:
        """Raise WrongLink unless ``token`` is one of this room's links, before the room
        is loaded: against the room in memory, else one small query in a worker thread
        (the room is not built). A room that does not exist is refused exactly as a
        wrong token is (nobody learns which rooms exist)."""
        if not token:
            raise WrongLink(NO_TOKEN)
        room = self.rooms.get(room_id)
        if room is not None:
            room.role_of(token)
            return
        links = await asyncio.to_thread(self.storage.room_links, room_id)
        if links is None:
            raise WrongLink(NOT_A_LINK)
        link_role(*links, token)

    async def get_off_loop(self, room_id: str) -> Room | None:
        """``get``, replaying a stored room in a worker thread (once, however many ask)."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        pending = self._loading.get(room_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = future
        try:
            room = await asyncio.to_thread(self.load, room_id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters get it, nobody is warned
            raise
        finally:
            self._loading.pop(room_id, None)
        if room is not None:
            room = self.rooms.setdefault(room_id, room)
        future.set_result(room)
        return room

    def load(self, room_id: str) -> Room | None:
        """A stored room rebuilt from its record (not added to the live rooms), or None."""
        stored = self.storage.load_room(room_id)
        if stored is None:
            return None
        game = get_game(stored.game)
        if stored.rules_version is None:
            raise RoomUnavailable(
                f"room {room_id} was stored before rooms kept their rules version, so it "
                "cannot be restored safely"
            )
        if stored.rules_version != game.rules_version:
            raise RoomUnavailable(
                f"room {room_id} was played under {game.name} rules version "
                f"{stored.rules_version}; this server plays version {game.rules_version}, "
                "so it cannot be restored"
            )
        if stored.record_format not in RECORD_FORMATS:
            formats = ", ".join(map(str, RECORD_FORMATS))
            raise RoomUnavailable(
                f"room {room_id} was stored in record format {stored.record_format}; this "
                f"server reads formats {formats}, so it cannot be restored"
            )
        # A format-1 room names no generator: it drew with version 1.
        drawn = stored.rng_version if stored.rng_version is not None else 1
        if drawn != RNG_VERSION:
            raise RoomUnavailable(
                f"room {room_id} was dealt with random generator version {drawn}; this "
                f"server draws with version {RNG_VERSION}, so it cannot be restored"
            )
        record = {
            "format": stored.record_format,
            "game": stored.game,
            "rules_version": stored.rules_version,
            "rng_version": drawn,
            "players": stored.players,
            "options": stored.options,
            "seed": stored.seed,
            # The digest is compared below, with a message naming the room.
            "actions": [[seat, action] for seat, action in stored.actions],
        }
        try:
            match = Match.replay(record)
        except ReplayError as exc:
            raise RoomUnavailable(f"room {room_id} does not replay here: {exc}") from None
        if stored.content_digest != match.content_digest:
            raise RoomUnavailable(
                f"room {room_id} was played with other {game.name} content (digest "
                f"{stored.content_digest}, this server has {match.content_digest}), so it "
                "cannot be restored"
            )
        return Room(stored, match, self)

    def restore(self) -> int:
        """Start-up: the rooms whose bots must move go on at once; returns their count.

        Every other room waits in storage and is rebuilt when someone opens its link; a
        room that cannot be restored under these rules is logged and left in storage.
        """
        count = 0
        for room_id in self.storage.unfinished_room_ids():
            try:
                room = self.get(room_id)
            except DeathNoteError as exc:
                self.log(f"room {room_id} not restored: {exc}")
                continue
            if room is None:
                continue
            if room.dormant():
                del self.rooms[room_id]
            else:
                room.kick_bots()
                count += 1
        return count

    # -- expiry -------------------------------------------------------------------------
    async def expire_unopened(self) -> list[str]:
        """Remove the rooms nobody ever opened within ``unopened_room_seconds``."""
        cutoff = time.time() - self.limits.unopened_room_seconds
        for room in list(self.rooms.values()):
            if not room.stored.opened and room.stored.created < cutoff and not room.connections:
                self.forget(room.id)
                await room.stop()
        # In the commit thread: after every room opened so far is marked (``attach``).
        removed = await asyncio.get_running_loop().run_in_executor(
            self.storage.commits.executor, self.storage.delete_unopened, cutoff
        )
        for room_id in removed:
            gone = self.rooms.get(room_id)
            self.forget(room_id)
            if gone is not None:
                await gone.stop()
        return removed

    async def sweep_forever(self) -> None:
        """Expire unopened rooms now and then, until cancelled (the server's lifetime)."""
        interval = min(60.0, max(0.05, self.limits.unopened_room_seconds / 2))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.expire_unopened()
            except Exception:
                log.exception("expiring unopened rooms failed")

    # -- rematch ------------------------------------------------------------------------
    def rematch(self, room: Room, seating: str = SAME_SEATS) -> tuple[Room, bool]:
        """The room replaying this one with the same game, options and seat kinds.

        ``seating``: ``same`` seats, ``swap`` (everyone moves one seat on: in a two-seat game
        the sides swap) or ``shuffle`` (a random order, drawn from ``secrets``). The first
        request decides; a later one joins the rematch as it is. Returns it and whether
        every connection of ``room`` was just told its new link (False when the rematch
        existed already).
        """
        if seating not in SEATINGS:
            raise IllegalAction(f"seating must be one of {', '.join(SEATINGS)}")
        if room.match.outcome() is None:
            raise IllegalAction("a rematch can start once the game is over")
        if room.stored.rematch:
            existing = self.get(room.stored.rematch)
            if existing is not None:
                return existing, False
        if self.full():
            raise IllegalAction("the server holds as many rooms as it may; try the rematch later")
        # A game of a series goes on to the series' next game, at the same seats (its
        # options carry what the seats earned so far).
        following = room.match.next_in_series()
        if following is not None and seating != SAME_SEATS:
            raise IllegalAction("a series keeps its seats until its last game")
        count = len(room.stored.seats)
        # old_of[new seat] = the old seat whose player sits there now
        old_of = list(range(count))
        if seating == SWAP_SEATS:
            old_of = [(s - 1) % count for s in range(count)]
        elif seating == SHUFFLE_SEATS:
            secrets.SystemRandom().shuffle(old_of)
        seats = [
            {"kind": s["kind"], "agent": s.get("agent")}
            if s["kind"] == BOT
            else {"kind": HUMAN, "stand_in": s.get("stand_in")}
            for s in (room.stored.seats[old] for old in old_of)
        ]
        options = following if following is not None else room.stored.options
        new = self.create(
            room.stored.game,
            room.stored.players,
            options,
            seats,
            rematch_of=room.id,
            clock=room.stored.clock,
            rated=room.stored.rated,
        )
        # The people keep their nicknames and player keys at their new seats.
        carried = [dict(seat) for seat in new.stored.seats]
        for new_seat, old in enumerate(old_of):
            if carried[new_seat]["kind"] == HUMAN:
                for key in ("nick", "player"):
                    if room.stored.seats[old].get(key):
                        carried[new_seat][key] = room.stored.seats[old][key]
        if carried != new.stored.seats:
            self.storage.update_seats(new.id, carried)
            new.stored.seats = carried
        self.storage.set_rematch(room.id, new.id)
        room.stored.rematch = new.id
        room.rematch_seat = {old: new_seat for new_seat, old in enumerate(old_of)}
        # Each connection hears of its own new link only.
        for conn in room.connections:
            conn.push({"type": "rematch", "url": room.rematch_link(new, conn)})
        room.broadcast()
        new.kick_bots()
        return new, True

    async def close(self) -> None:
        """Stop every room's bots."""
        for room in list(self.rooms.values()):
            await room.stop()
        await asyncio.to_thread(self.bot_pool.close)
