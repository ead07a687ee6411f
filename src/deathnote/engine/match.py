"""Match: one running game, the API every front end, bot and simulator drives."""

from __future__ import annotations

import hashlib
import math
import random
import time
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from deathnote.engine.actions import (
    OMNISCIENT,
    SPECTATOR,
    Action,
    Decision,
    Event,
    Outcome,
    Seat,
    Viewer,
    type_mismatch,
)
from deathnote.engine.delta import diff
from deathnote.engine.errors import IllegalAction, OptionsError, ReplayError
from deathnote.engine.game import Belief, Game, not_legal
from deathnote.engine.registry import get_game
from deathnote.engine.rng import RNG_VERSION
from deathnote.engine.rng import copy as rng_copy
from deathnote.engine.rng import new as rng_new
from deathnote.engine.rng import reseed as rng_reseed

if TYPE_CHECKING:
    import numpy as np

    from deathnote.engine.spaces import ActionSpace

#: The record layout. Format 2 adds ``rng_version`` and requires ``rules_version``.
#: Format 1 (records written before it, and records with no ``format`` field) may lack
#: both: a missing ``rules_version`` is read as the current one (those records predate
#: version checks) and a missing ``rng_version`` as 1 (the draws of CPython's
#: ``random.Random``, which ``engine.rng`` version 1 reproduces).
RECORD_FORMAT = 2
RECORD_FORMATS = (1, 2)

#: Actions between the snapshots a match keeps to roll back a failed action (a fork of
#: the match every this many actions; nothing before the first, which is rebuilt from the
#: seed): a rollback replays fewer than this many actions, never the whole record.
SNAPSHOT_EVERY = 64
#: The share of play time snapshots may take. Where a game's fork is slow (a deep copy)
#: snapshots are spaced further apart, so simulations do not pay for a rare rollback.
SNAPSHOT_SHARE = 0.02
#: The latest measured fork time per game, to space a match's first snapshot.
_FORK_SECONDS: dict[str, float] = {}


def content_digest(content: Any) -> str:
    """A stable digest of content data (canonical JSON, sorted keys)."""
    blob = orjson.dumps(content, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return hashlib.sha256(blob).hexdigest()[:16]


#: Types of event data values that a shallow copy of the data leaves unshared.
_PLAIN = frozenset({int, str, float, bool, type(None)})


def check_versions(record: Mapping[str, Any], game: Game) -> None:
    """Refuse a record made under another record format, rules version or random generator
    version (see ``RECORD_FORMAT`` for what a format-1 record may leave out)."""
    fmt = record.get("format", 1)
    if isinstance(fmt, bool) or fmt not in RECORD_FORMATS:
        raise ReplayError(
            f"record format {fmt!r} is unknown (this version reads formats "
            f"{', '.join(map(str, RECORD_FORMATS))})"
        )
    legacy = fmt == 1
    rules = record.get("rules_version")
    if rules is None and not legacy:
        raise ReplayError(f"record format {fmt} must give the rules_version")
    if rules is not None and rules != game.rules_version:
        raise ReplayError(
            f"record is for {game.name} rules version {rules}, this is rules version "
            f"{game.rules_version}: it cannot replay here"
        )
    drawn = record.get("rng_version")
    if drawn is None and not legacy:
        raise ReplayError(f"record format {fmt} must give the rng_version")
    if drawn is not None and drawn != RNG_VERSION:
        raise ReplayError(
            f"record was drawn with random generator version {drawn}, this is version "
            f"{RNG_VERSION}: it cannot replay here"
        )


_new_match = object.__new__


class Match:
    """One running game: the full truth, the seeded generator and the accepted actions.

    >>> m = Match.create("confrontation", 2, seed=1)  # doctest: +SKIP
    """

    def __init__(
        self,
        game: Game,
        players: int,
        seed: int,
        options: dict[str, Any],
        content: Any,
        content_path: str | None,
        rng: random.Random | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.content = content
        self.content_path = content_path
        # ``rng``: another generator for the same seed's match (research adapters pass a
        # ``engine.rng.Scripted`` one to make the draws explicit chance outcomes).
        self.rng = rng_new(seed) if rng is None else rng
        self.state, setup_events = game.setup(players, options, content, self.rng)
        self._outcome = game.outcome(self.state)
        self.actions: list[tuple[Seat, Action]] = []
        self.events: list[Event] = list(setup_events)
        #: ``_steps[k]``: how many events there were after ``k`` actions.
        self._steps: list[int] = [len(self.events)]
        # Who may see each event, settled once per event (when a view first needs it):
        # the JSON of events whose data is not plain and, per viewer, the numbers of the
        # events it may see.
        self._indexed = 0
        #: per event: its JSON when its data holds more than plain values, else None
        self._blobs: list[bytes | None] = []
        self._seen: dict[Viewer, list[int]] = {}
        self._index_shared = False
        # The latest snapshot (a fork taken before action ``_snap_step``), for rollbacks.
        self._snapshot: Match | None = None
        self._snap_step = 0
        self._snap_next = SNAPSHOT_EVERY
        self._snap_clock = time.perf_counter()
        #: True for a world drawn by ``sample_world``: it has no record to replay.
        self.sampled = False
        self._space: ActionSpace | None = None
        self._legal: dict[Seat, Sequence[Action]] = {}
        self._pending: dict[Seat, Decision] | None = None
        self._digest: str | None = None
        #: per viewer, the state views last handed out with ``patch=True`` by step (the
        #: bases of later patches: their JSON bytes, or the game's shared views)
        self._sent: dict[Viewer, dict[int, Any]] = {}
        #: the game's public view of the state now (``Game.public_view``; None: not built
        #: since the state last changed, dropped wherever ``_pending`` is)
        self._public: Any = None
        self._has_public = type(game).public_view is not Game.public_view
        # Games that keep Game.check test membership in the (cached) legal list here.
        self._default_check = type(game).check is Game.check

    # -- creation -------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        game_id: str,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        content: str | None = None,
    ) -> Match:
        """A new match; ``content`` is an optional path to replacement content data."""
        game = get_game(game_id)
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            count = (
                str(game.min_players)
                if game.min_players == game.max_players
                else f"{game.min_players} to {game.max_players}"
            )
            raise OptionsError(f"{game.name} is played by {count} players, not {players}")
        if not isinstance(seed, int):
            raise OptionsError(f"the seed must be an integer, not {seed!r}")
        opts = game.parse_options(players, dict(options or {}))
        data = game.load_content(content, opts)
        return cls(game, players, seed, opts, data, content)

    def with_seed(self, seed: int, rng: random.Random | None = None) -> Match:
        """A new match of the same game, players, options and content with another seed:
        the content is shared (it is never changed), not loaded and checked again.
        ``rng``: a ``random.Random`` nobody draws from any more (the generator of a
        finished match), seeded anew to be this match's (``engine.rng.reseed``)."""
        if not isinstance(seed, int):
            raise OptionsError(f"the seed must be an integer, not {seed!r}")
        # ``Match(...)`` written out for the simulator (a match per game): the fields that
        # start the same in every match are copied from one prepared dict.
        twin = _new_match(Match)
        fields = twin.__dict__
        fields.update(self._fresh_fields())
        fields["seed"] = seed
        fields["_space"] = self._space  # the same game, players and options: the same numbers
        if rng is None or type(rng) is not random.Random:
            rng = rng_new(seed)
        else:
            rng = rng_reseed(rng, seed)
        fields["rng"] = rng
        game = self.game
        fields["state"], setup_events = game.setup(self.players, self.options, self.content, rng)
        fields["_outcome"] = game.outcome(twin.state)
        events = fields["events"] = list(setup_events)
        fields["_steps"] = [len(events)]
        fields["actions"] = []
        fields["_blobs"] = []
        fields["_seen"] = {}
        fields["_legal"] = {}
        fields["_sent"] = {}
        fields["_snap_clock"] = time.perf_counter()
        return twin

    def _fresh_fields(self) -> dict[str, Any]:
        """The fields of a new match of this one's game, players, options and content
        that are the same whatever the seed (mutable ones are replaced by ``with_seed``)."""
        fresh = self.__dict__.get("_fresh")
        if fresh is None:
            fresh = {
                "game": self.game,
                "players": self.players,
                "options": self.options,
                "content": self.content,
                "content_path": self.content_path,
                "_indexed": 0,
                "_index_shared": False,
                "_snapshot": None,
                "_snap_step": 0,
                "_snap_next": SNAPSHOT_EVERY,
                "sampled": False,
                "_pending": None,
                "_public": None,
                "_has_public": self._has_public,
                "_digest": None,
                "_default_check": self._default_check,
            }
            self.__dict__["_fresh"] = fresh
        return fresh

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Match:
        """Rebuild a match from its record: identical state, or ReplayError naming the step."""
        try:
            game = get_game(str(record["game"]))
            players = int(record["players"])
            seed = int(record["seed"])
            options = dict(record.get("options") or {})
            steps = list(record["actions"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"malformed record: {exc}") from None
        check_versions(record, game)
        opts = game.parse_options(players, options)
        if "content" in record and record["content"] is not None:
            data = record["content"]
        else:
            data = game.load_content(record.get("content_path"), opts)
        match = cls(game, players, seed, opts, data, record.get("content_path"))
        expected = record.get("content_digest")
        if expected and expected != match.content_digest:
            raise ReplayError(
                f"content digest {match.content_digest} differs from the record's {expected}"
            )
        for index, step in enumerate(steps):
            try:
                seat, action_json = step
                match.submit(int(seat), Action.from_json(action_json))
            except (IllegalAction, TypeError, ValueError) as exc:
                raise ReplayError(f"step {index}: {exc}") from None
        return match

    # -- the API --------------------------------------------------------------------
    @property
    def content_digest(self) -> str:
        """Digest of the content this match plays with."""
        if self._digest is None:
            self._digest = content_digest(self.content)
        return self._digest

    def pending(self) -> dict[Seat, Decision]:
        """Seats that must decide now (several at once = simultaneous secret choices)."""
        if self._pending is None:
            self._pending = self.game.pending(self.state)
        return self._pending

    def legal(self, seat: Seat) -> Sequence[Action]:
        """Legal actions of a seat now (empty when it is not asked)."""
        cached = self._legal.get(seat)
        if cached is None:
            pending = self._pending
            if pending is None:
                pending = self.pending()
            cached = self.game.legal(self.state, seat) if seat in pending else ()
            self._legal[seat] = cached
        return cached

    def submit(self, seat: Seat, action: Action | Mapping[str, Any]) -> list[Event]:
        """Carry out one action; raises IllegalAction and changes nothing when rejected."""
        if type(action) is not Action and not isinstance(action, Action):
            action = Action.from_json(action)
        if type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise IllegalAction(f"there is no seat {seat!r} in this game")
        if not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat!r} in this game")
        if self._outcome is not None:
            raise IllegalAction("the game is over")
        pending = self._pending
        if pending is None:
            pending = self.pending()
        if seat not in pending:
            raise IllegalAction(f"it is not {self.seat_name(seat)}'s turn to decide")
        if self._default_check:
            legal = self._legal.get(seat)
            if legal is None:
                legal = self.legal(seat)
            # Bots hand back one of the legal objects: look for it by identity first
            # (the same answer as ``in``, without an __eq__ call per earlier action).
            for candidate in legal:
                if candidate is action:
                    break
            else:
                if action not in legal:
                    raise not_legal(action, type_mismatch(action, legal))
        else:
            self.game.check(self.state, seat, action)
        return self._commit(seat, action)

    def _commit(self, seat: Seat, action: Action) -> list[Event]:
        """Carry out an action already checked (the play loop hands over one of the
        match's own legal actions of an asked seat, so it comes here directly)."""
        step = len(self.actions)
        if step >= self._snap_next:
            self._take_snapshot(step)
        try:
            events = self.game.apply(self.state, seat, action, self.rng)
        except Exception:
            # A bug in a rule must not lose the game: back to the match before this action.
            self.rewind(step)
            raise
        self.actions.append((seat, action))
        self.events.extend(events)
        self._steps.append(len(self.events))
        self._legal.clear()
        self._pending = None
        self._public = None
        self._outcome = self.game.outcome(self.state)
        return events

    # -- copies and hidden worlds ------------------------------------------------------
    def fork(self) -> Match:
        """An independent copy: play on it never changes this match. Content is shared."""
        twin = object.__new__(Match)
        twin.__dict__.update(self.__dict__)
        twin.state = self.game.fork_state(self.state)
        twin.rng = rng_copy(self.rng)
        twin.actions = list(self.actions)
        twin.events = list(self.events)
        twin._steps = list(self._steps)
        # The event index is shared until either side adds to it (then it copies).
        self._index_shared = twin._index_shared = True
        twin._legal = {}
        twin._pending = None
        twin._public = None
        twin._sent = {}
        return twin

    def sample_state(self, viewer: Viewer, rng: random.Random, belief: Belief | None = None) -> Any:
        """The state of ``sample_world(viewer, rng, ..., belief=belief)`` alone (the same
        draws from ``rng``), for a search that plays on the bare state with its own
        generator."""
        if belief is None:
            return self.game.sample_state(self.state, viewer, rng)
        count, weigh = belief
        return self.game.sample_weighted_state(self.state, viewer, rng, count, weigh)

    def sample_world(
        self,
        viewer: Viewer,
        rng: random.Random,
        log: bool = True,
        world_rng: random.Random | None = None,
        belief: Belief | None = None,
    ) -> Match:
        """A fork in which all that ``viewer`` cannot see is drawn anew from ``rng``.

        The sample agrees with everything the viewer has seen (same view, legal actions
        and pending seats for that viewer). It keeps only the events the viewer may see,
        no actions (the record would name other seats' secret choices) and a fresh
        generator drawn from ``rng``, so its future draws tell nothing about the true ones;
        its ``seed`` is that generator's seed, not the match's (the true seed would let a
        bot deal the real cards again).

        ``log=False``: without the events so far (its views' logs start at the sample), for
        a search that reads none: the state and the draws are the same.

        ``world_rng``: the world draws its chance from this generator instead of a fresh
        one (nothing more is drawn from ``rng``; its ``seed`` is -1): a search that plays
        many worlds one after the other draws them all from one stream of its own, instead
        of seeding a generator per world (a sizeable share of a short simulation).

        ``belief`` (a count K and a log-weight): the state is one of K drawn, picked by
        the weight (``Game.sample_weighted_state``: a search's belief-weighted worlds).
        """
        twin = object.__new__(Match)
        twin.__dict__.update(self.__dict__)
        twin.state = self.sample_state(viewer, rng, belief)
        if world_rng is None:
            fresh = rng.getrandbits(64)
            twin.rng = rng_new(fresh)
            twin.seed = fresh
        else:
            twin.rng = world_rng
            twin.seed = -1
        twin.actions = []
        twin.events = [e for e in self.events if e.visible_to(viewer)] if log else []
        twin._steps = [len(twin.events)]
        twin._indexed, twin._blobs, twin._seen, twin._index_shared = 0, [], {}, False
        twin._snapshot, twin._snap_step, twin._snap_next = None, 0, SNAPSHOT_EVERY
        twin.sampled = True
        twin._sent = {}
        twin._public = None
        twin._legal = {}
        twin._pending = None
        twin._outcome = self.game.outcome(twin.state)
        return twin

    # -- numbers for learning -----------------------------------------------------------
    @property
    def action_space(self) -> ActionSpace:
        """The game's stable action numbering for this match's players and options."""
        if self._space is None:
            self._space = self.game.action_space(self.players, self.options)
        return self._space

    def action_id(self, action: Action | Mapping[str, Any]) -> int:
        """The stable number of an action."""
        if not isinstance(action, Action):
            action = Action.from_json(action)
        return self.action_space.id(action)

    def action_at(self, index: int, seat: Seat | None = None) -> Action:
        """The action with this number; with ``seat``, the labelled legal one if it is legal."""
        action = self.action_space.at(index)
        if seat is not None:
            for candidate in self.legal(seat):
                if candidate == action:
                    return candidate
        return action

    def legal_mask(self, seat: Seat) -> np.ndarray:
        """A 0/1 int8 vector over the action numbers: 1 where the action is legal now."""
        import numpy as np

        space = self.action_space
        mask = np.zeros(space.size, dtype=np.int8)
        for action in self.legal(seat):
            mask[space.id(action)] = 1
        return mask

    def observation_tensor(self, viewer: Viewer) -> np.ndarray:
        """The viewer's fixed-shape float32 observation (see the game's rules doc)."""
        return self.game.observation_tensor(self.state, viewer)

    def observation_shape(self) -> tuple[int, ...]:
        """The shape of ``observation_tensor`` for this match."""
        return self.game.observation_shape(self.players, self.options)

    # -- going back ------------------------------------------------------------------------
    def _take_snapshot(self, step: int) -> None:
        """Fork the match as it is before action ``step``, unless that would cost more
        than SNAPSHOT_SHARE of the time played since the last snapshot; the next one is
        due SNAPSHOT_EVERY actions later, or later still where forks are slow."""
        now = time.perf_counter()
        per_action = (now - self._snap_clock) / max(1, step - self._snap_step)
        budget = SNAPSHOT_SHARE * per_action * SNAPSHOT_EVERY
        known = _FORK_SECONDS.get(self.game.id)
        if known is None or known <= budget:
            snap = self.fork()
            snap._snapshot = None  # snapshots never chain
            self._snapshot, self._snap_step = snap, step
            end = time.perf_counter()
            known = _FORK_SECONDS[self.game.id] = end - now
            self._snap_clock = end
        spacing = known / (SNAPSHOT_SHARE * per_action) if per_action > 0 else 0.0
        self._snap_next = step + max(SNAPSHOT_EVERY, math.ceil(spacing))

    def rewind(self, steps: int) -> None:
        """Go back to the match as it was after its first ``steps`` actions (a rule that
        failed, an action that could not be stored): from the latest snapshot at or before
        that step (or from the seed): fewer than ``SNAPSHOT_EVERY`` actions replayed
        where the game's fork is fast (see SNAPSHOT_SHARE)."""
        if not 0 <= steps <= len(self.actions):
            raise ValueError(f"cannot rewind to step {steps} of {len(self.actions)}")
        if self.sampled:
            raise ReplayError("a sampled world has no record to rewind")
        snap = self._snapshot
        if snap is not None and len(snap.actions) <= steps:
            base = snap.fork()
        else:
            snap = None
            base = Match(
                self.game, self.players, self.seed, self.options, self.content, self.content_path
            )
        for seat, action in self.actions[len(base.actions) : steps]:
            base.submit(seat, action)
        space, digest = self._space, self._digest
        self.__dict__.update(base.__dict__)
        self._space, self._digest = space, digest
        self._snapshot = snap
        self._snap_step = len(snap.actions) if snap is not None else 0
        self._snap_next = self._snap_step + SNAPSHOT_EVERY
        self._index_shared = True  # the index may be the snapshot's own

    def timeline(self, every: int = 16) -> Timeline:
        """This match at any step, from a fork every ``every`` steps (replay pages)."""
        return Timeline(self, every)

    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else None (cached: it changes only on submit)."""
        return self._outcome

    def next_in_series(self) -> dict[str, Any] | None:
        """The options of the next game of this match's series (None: no next game)."""
        if self.outcome() is None:
            return None
        return self.game.next_in_series(self.state, self.options)

    def seat_names(self) -> list[str]:
        """Public seat names in order."""
        return self.game.seat_names(self.players, self.options)

    def seat_name(self, seat: Seat) -> str:
        """Public name of one seat."""
        names = self.seat_names()
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    # -- views ------------------------------------------------------------------------------
    def _index_events(self) -> None:
        """Settle who may see the events not yet indexed; an event whose data holds
        anything but plain values (a list, a dict) has its JSON built once, so every log
        gets fresh copies of it."""
        events = self.events
        if self._indexed == len(events):
            return
        if self._index_shared:
            self._blobs = list(self._blobs)
            self._seen = {v: list(seen) for v, seen in self._seen.items()}
            self._index_shared = False
        seen = self._seen
        if not seen:
            seen.update({v: [] for v in (*range(self.players), SPECTATOR, OMNISCIENT)})
        everyone = list(seen.values())
        omniscient = seen[OMNISCIENT]
        blobs = self._blobs
        dumps = orjson.dumps
        plain = _PLAIN
        for number in range(self._indexed, len(events)):
            event = events[number]
            data = event.data
            if all(type(value) in plain for value in data.values()):
                blobs.append(None)  # its to_json() is a fresh copy already
            else:
                blobs.append(dumps(event.to_json()))
            if event.audience is None:
                for numbers in everyone:
                    numbers.append(number)
            else:
                omniscient.append(number)
                for seat in event.audience:
                    if seat in seen and seat != OMNISCIENT:
                        seen[seat].append(number)
        self._indexed = len(events)

    def log(
        self, viewer: Viewer, since: int | None = None, fresh: bool = True
    ) -> list[dict[str, Any]]:
        """The events this viewer may see, in order; with ``since``, only those of the
        actions after the first ``since`` (fresh objects on every call; ``fresh=False``:
        an entry may hold its event's own data dict, for a caller that encodes the log at
        once and never changes it)."""
        self._index_events()
        numbers = self._seen.get(viewer)
        if numbers is None:
            numbers = [i for i, e in enumerate(self.events) if e.visible_to(viewer)]
        start = 0
        if since is not None:
            if type(since) is not int or not 0 <= since <= len(self.actions):
                raise IllegalAction(
                    f"'since' must be a step from 0 to {len(self.actions)}, not {since!r}"
                )
            start = bisect_left(numbers, self._steps[since])
        if start == len(numbers):
            return []
        blobs, events, loads = self._blobs, self.events, orjson.loads
        if not fresh:
            entries = []
            for i in numbers[start:]:
                blob = blobs[i]
                if blob is not None:
                    entries.append(loads(blob))
                    continue
                event = events[i]
                data = event.data  # plain values only (no blob): shared as it is
                entries.append(
                    {"text": event.text, "data": data} if type(data) is dict else event.to_json()
                )
            return entries
        return [
            events[i].to_json() if (blob := blobs[i]) is None else loads(blob)
            for i in numbers[start:]
        ]

    def view(
        self, viewer: Viewer, since: int | None = None, patch: bool = False, fresh: bool = True
    ) -> dict[str, Any]:
        """Everything the viewer may see, JSON-ready: state, log, own decision and choices.

        ``since``: a step (a number of accepted actions, 0 to ``len(actions)``). The view
        then holds the current state but only the log entries made after that step, and
        says ``"since": since``; a client that had the view at that step appends them to
        its log. ``since=0`` leaves out only the set-up events. None: the whole log.

        ``patch``: for a client that keeps the state it was sent (the server's
        connections). The match remembers the state view it hands out (the last few steps
        per viewer), and a later view with ``since`` set to one of those steps holds
        ``"patch"`` instead of ``"state"``: the operations of ``engine.delta`` that turn
        the state view of that step into the current one. Where it does not remember the
        step, the view holds the whole ``"state"`` as usual.

        ``fresh``: False lets the log entries hold the events' own data and (with
        ``patch``) the state or the patch's values be the match's own remembered parts
        (the game's shared view) instead of fresh copies: for a caller that encodes the
        view at once and never changes it (the server's messages), so nothing is copied or
        built twice only to be encoded.
        """
        if not (
            viewer in (SPECTATOR, OMNISCIENT)
            or (type(viewer) is int and 0 <= viewer < self.players)
        ):
            raise IllegalAction(f"unknown viewer {viewer!r}")
        pending = self.pending()
        outcome = self.outcome()
        waiting = sorted(s for s, d in pending.items() if not d.covert or viewer in (s, OMNISCIENT))
        game = self.game
        # The state this viewer was handed at this very step (another connection came or
        # went, a seat changed hands): the patch is empty, and nothing is built or diffed.
        remembered = patch and since is not None and since in self._sent.get(viewer, ())
        same = remembered and since == len(self.actions)
        shared = self._shared_view(viewer) if patch and not same else None
        # A patch from the remembered view replaces the state view: then it is not built.
        patched = same or (shared is not None and remembered)
        if patched:
            state = None
        elif shared is not None and not fresh:
            state = shared  # handed out as it is: the caller never changes it
        else:
            state = game.view(self.state, viewer)
        out: dict[str, Any] = {
            "game": self.game.id,
            "viewer": viewer,
            "seats": self.seat_names(),
            "waiting": waiting,
            "state": state,
            "log": self.log(viewer, since, fresh),
            "outcome": outcome.to_json() if outcome else None,
        }
        if isinstance(viewer, int):
            decision = pending.get(viewer)
            out["decision"] = decision.to_json() if decision else None
            out["legal"] = [a.labelled_json() for a in self.legal(viewer)]
        if since is not None:
            out["since"] = since
        if same:
            del out["state"]
            out["patch"] = []
        elif patch:
            self._patch_state(out, viewer, since, shared, fresh)
        return out

    def _shared_view(self, viewer: Viewer) -> dict[str, Any] | None:
        """The game's shared view for this viewer; where the game has a public view, made
        from the one public view of this step (built once for every seat and the
        spectator; the omniscient viewer's is built whole)."""
        game = self.game
        if self._has_public and viewer != OMNISCIENT:
            public = self._public
            if public is None:
                public = self._public = game.public_view(self.state)
            return game.shared_view(self.state, viewer, public)
        return game.shared_view(self.state, viewer)

    #: How many steps of state views a match remembers per viewer for patches.
    PATCH_STEPS = 4

    def _patch_state(
        self, out: dict[str, Any], viewer: Viewer, since: int | None, shared: Any, fresh: bool
    ) -> None:
        """Remember the viewer's state view now (``shared``, the game's shared view, or
        else ``out["state"]``) and, when the state view of step ``since`` is remembered,
        put the patch from it in ``out`` instead of the state."""
        sent = self._sent.get(viewer)
        if sent is None:
            sent = self._sent[viewer] = {}
        step = len(self.actions)
        base = sent.get(since) if since is not None else None
        if shared is not None:
            # Kept as it is: nobody changes a shared view, and the views of successive
            # steps share what did not change (a patch compares those parts by identity).
            new = sent[step] = shared
            if base is not None and type(base) is bytes:
                base = orjson.loads(base)
        else:
            # A view built for this call alone: the patch may hold its parts as they are.
            fresh = False
            new = out["state"]
            # Kept as JSON bytes: about a fifth of the memory of the dicts (a server holds
            # a few per seat of every live room), and a private copy by construction.
            # (Copied once more: orjson's own bytes keep its whole growing buffer, 8 KiB
            # for 3 KiB.)
            sent[step] = bytes(memoryview(orjson.dumps(new)))
            if base is not None:
                base = orjson.loads(base)
        if base is not None:
            del out["state"]
            out["patch"] = diff(base, new, fresh)
        if len(sent) > self.PATCH_STEPS:
            for old in sorted(sent)[: len(sent) - self.PATCH_STEPS]:
                del sent[old]

    def record(self) -> dict[str, Any]:
        """The match record: enough to replay to the identical state."""
        if self.sampled:
            raise ReplayError("a sampled world has no record")
        # Custom content travels inside the record so it replays without the file.
        embedded = self.content if self.content_path is not None else None
        return {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "rules_version": self.game.rules_version,
            "rng_version": RNG_VERSION,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "content_path": self.content_path,
            "content": embedded,
            "content_digest": self.content_digest,
            "actions": [[seat, action.to_json()] for seat, action in self.actions],
        }


class Timeline:
    """A match at any step without replaying from the start: a fork every ``every`` steps,
    taken in one replay; a step is then its nearest earlier fork plus fewer than ``every``
    actions (the server's replay pages)."""

    def __init__(self, match: Match, every: int = 16) -> None:
        if every < 1:
            raise ValueError("every must be at least 1")
        self.every = every
        self.actions = list(match.actions)
        base = Match(
            match.game, match.players, match.seed, match.options, match.content, match.content_path
        )
        self.snapshots = [base.fork()]
        for step, (seat, action) in enumerate(self.actions, start=1):
            base.submit(seat, action)
            if step % every == 0:
                self.snapshots.append(base.fork())

    @property
    def steps(self) -> int:
        """The number of actions of the match."""
        return len(self.actions)

    def at(self, step: int) -> Match:
        """An independent match as it was after ``step`` actions."""
        if not 0 <= step <= len(self.actions):
            raise ValueError(f"no step {step}: the match has {len(self.actions)} actions")
        match = self.snapshots[step // self.every].fork()
        for seat, action in self.actions[len(match.actions) : step]:
            match.submit(seat, action)
        return match
