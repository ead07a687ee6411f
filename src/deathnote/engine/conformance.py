"""The public conformance suite: what every game must do, checked through the Match API.

A game is written against ``deathnote.engine.game.Game``; this module says whether it
keeps the contract. Every registered game passes it in the test suite
(``tests/test_all_games.py`` runs each check for each game and set-up), and a new game can
be checked alone::

    python -m deathnote.engine.conformance GAME                 # every check, one line each
    python -m deathnote.engine.conformance GAME --fingerprint   # the digest check_hash_seeds compares

Each ``check_*`` function takes a :class:`Setup` (game, players, options) and raises
:class:`ConformanceError` (an ``AssertionError``) naming the game, the seed and the step,
or :class:`MissingHook` when the game does not implement an optional hook that check
needs (``sample_state``, ``action_space``, ``observation_tensor``: the hook raised
``NotImplementedError``). Nothing here catches an exception a game or a bot raises: a
crash fails the check.

The checks
----------
The games they play are random, and on odd seeds patient (``play``): a random action that
does not end the game within two steps when another can, so the late game is reached.

- ``check_random_games``: random games end (within ``MAX_ACTIONS``), some seat is asked
  until the end and every asked seat has a legal action; the winning seats are seats and
  agree with the winners; the record survives JSON and replays to identical views and
  outcome.
- ``check_rejections``: at several moments of a random game, malformed input (not an
  object, no kind, a float, a nested object, an unknown field), unknown seats, a seat that
  is not asked, ill-typed variants of every legal action (a boolean where the legal action
  has a number, a number where it has a boolean) and any action after the end raise
  ``IllegalAction`` and change nothing: the record, the generator, every viewer's view,
  the pending decisions and the legal actions are as before.
- ``check_views``: every view (each seat, spectator, omniscient) is JSON-ready (only
  objects with text keys, lists, text, finite numbers, booleans and null), shares no list
  or dict with the state, the content, the log or the decisions (checked by identity, and
  by mutating every container of a returned view and seeing the match unchanged); a
  game's shared view (``Game.shared_view``, where it has one) is the view's state to the
  byte and shares nothing with the match either.
- ``check_view_deltas``: for every viewer, the view since step k is the whole view but for
  its log, which is exactly the whole log's entries after those seen at step k.
- ``check_state_patches``: a client applying the state patches of
  ``view(viewer, since=k, patch=True)`` to the state it holds always has exactly the whole
  view's state (clients one, two and eight steps behind; the last gets whole states).
- ``check_fork``: a fork taken mid-game is independent (playing it to the end changes
  nothing in the original) and, given the original's remaining actions, ends exactly as
  the original did (same record, views and outcome).
- ``check_apply_quiet``: ``new_state`` (with a generator of the same seed) makes the state
  ``setup`` makes, and ``apply_quiet`` then changes it as ``apply`` changes the match's:
  the same draws, decisions, legal actions, outcome, state views and observations, from
  the start and after every action of a random game.
- ``check_sample_world``: for every viewer but the omniscient one, at several moments, each
  sampled world shows that viewer the same view (which includes its legal actions, its own
  decision and the seats it sees waiting), every legal action of every asked seat plays on
  it (up to 12 per seat, drawn at random), it plays on to an end, and sampling leaves the original unchanged. Coverage: right
  after set-up, a viewer who does not see everything must get worlds that differ (their
  states are not all equal); a game may supply the sharper probe ``Game.hidden_values``
  (every value the viewer cannot rule out must appear, and none it can).
- ``check_covert``: a covert decision changes nothing another viewer sees (below).
- ``check_action_numbers``: every legal action in random games has a number below the
  space's size, ``action_at(action_id(a)) == a``, two legal actions never share a number,
  and ``legal_mask`` is 1 exactly at the legal actions' numbers (0 for a seat not asked).
- ``check_observations``: ``observation_tensor`` is a float32 array of
  ``observation_shape``, finite, for every seat at every step of a random game;
  ``check_observations_in_samples``: it is equal in the original and in every world the
  seat cannot tell from it (its samples).
- ``check_bots``: each of the game's agents plays games on every seat; an agent that raises
  fails the check (there is no fall-back to a random move), and it must return one of the
  legal actions.
- ``check_hash_seeds``: the same seeds give the same records, views and samples in two
  processes with different ``PYTHONHASHSEED`` values (no set order of strings may choose
  anything).

Covert decisions: "the same match where that seat has nothing to decide"
------------------------------------------------------------------------
A covert decision must not show: another viewer must see exactly what it would see in the
same match if that seat had nothing to decide (issue 11 §5). The match where the seat has
nothing to decide is built from the other viewer's own sampled worlds, one step back:

1. In random games (half of them "patient": a random action that does not end the game
   within two steps when another can, so the late game with its abilities is reached),
   take each step after which some seat ``s`` has a covert decision with a real choice
   (two or more legal actions), and each other viewer ``v`` (every other seat and the
   spectator).
2. Before that step, draw worlds ``v`` cannot tell from the match (``sample_world``). Give
   each the match's own generator state and play the same action in it. These are the
   matches "the same as far as ``v`` knew", one step on; in some of them ``s`` has nothing
   to decide (``s`` is not asked, or has a single legal action) -- unless ``v`` knew
   already that ``s`` would be asked, and then there is nothing to check.
   Only successors in which ``s`` was asked the same before the step as in the match
   (a world where ``s`` has already answered a question everyone is asked at once is
   another match), and in which the step told ``v`` the same (the same new log entries ``v``
   may see) count: a step that shows ``v`` a card it may see (a Handgun reveal) may also
   tell it, rightly, whether ``s`` is asked.
3. Leak: ``v``'s views of those successors split exactly along whether ``s`` is asked:
   every successor where ``s`` has a choice (the real match and at least one sampled
   world) shows ``v`` one view, every successor where ``s`` has nothing to decide shows
   ``v`` another (at least two such successors, all alike). Without a sampled world in
   which ``s`` has a choice, a difference may come from something else the sampler
   redrew (who has already answered a question put to everyone), so it is no finding. A step that shows ``v`` something else it could not
   know gives views that differ within each group, and is not a finding. A leak through
   the step's own log entries is left to each game's secret-swap tests.

On today's Confrontation Chapter 2 (before the fix of issue 11 §5), with a sampler that
spreads Kira's Apples again, this check fails at seed 3 step 55: in the match where Kira
holds "change up to 3 dice" L is not asked yet; in the same match without it, L is asked
for the Nightly News at once. ``tests/engine/test_conformance.py`` keeps the same leak in
a small game as a regression test.

This needs no game hook, only ``sample_state`` (without it the check reports
``MissingHook``), and it sees every way of telling: the phase, the prompts, the log, the
seats waiting, and whether ``v`` itself is asked now or later. It relies on the sampler
redrawing what decides whether ``s`` is asked (a sampler that keeps Kira's true tracker
hides a leak from this check, and fails the coverage probe instead).
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Action, Seat, Viewer
from deathnote.engine.errors import IllegalAction
from deathnote.engine.match import Match
from deathnote.engine.registry import get_game

#: A game that has not ended after this many actions fails ``check_random_games``.
MAX_ACTIONS = 100_000


class ConformanceError(AssertionError):
    """A game broke the contract; the message names the game, seed and step."""


class MissingHook(Exception):
    """The game does not implement an optional hook a check needs (``hook`` names it)."""

    def __init__(self, game: str, hook: str) -> None:
        super().__init__(f"{game}: {hook} not implemented yet")
        self.game = game
        self.hook = hook


@dataclass(frozen=True)
class Setup:
    """One way to start the game: id, players and options (JSON)."""

    game: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """A short name, e.g. ``confrontation-chapter=2-2p``."""
        opts = "".join(f"-{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.game}{opts}-{self.players}p"

    def create(self, seed: int) -> Match:
        """A new match of this set-up."""
        return Match.create(self.game, self.players, seed, dict(self.options))


#: The main options of each game, checked beside the defaults (and played by the golden
#: transcripts), where its options model does not list them as choices.
MAIN_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "confrontation": [{"chapter": 2}],
    "icg": [{"rules": "kira"}, {"shinigami_eyes": True}],
    "enquete": [{"first_games": True}],
    "werewolf": [{"handgun_reveal": "shooter"}],
}


def setups(game_id: str, extra: Sequence[Mapping[str, Any]] | None = None) -> list[Setup]:
    """The set-ups a game is checked with: its fewest and most players with the default
    options, and at its fewest players each non-default value of every yes/no or
    one-of-a-list option of its ``options_model`` (one at a time), plus ``extra`` options
    (by default its ``MAIN_OPTIONS``)."""
    game = get_game(game_id)
    if extra is None:
        extra = MAIN_OPTIONS.get(game_id, [])
    out = [Setup(game_id, p) for p in sorted({game.min_players, game.max_players})]
    model = game.options_model
    variants: list[dict[str, Any]] = []
    if model is not None:
        props = model.model_json_schema().get("properties", {})
        for name, spec in sorted(props.items()):
            default = spec.get("default")
            values: list[Any] = []
            if spec.get("type") == "boolean":
                values = [True, False]
            elif "enum" in spec:
                values = list(spec["enum"])
            elif "const" in spec:
                values = [spec["const"]]
            variants += [{name: v} for v in values if v != default or type(v) is not type(default)]
    for opts in [*variants, *map(dict, extra)]:
        candidate = Setup(game_id, game.min_players, opts)
        if candidate not in out:
            out.append(candidate)
    return out


# -- driving a match ------------------------------------------------------------------------
def _fail(setup: Setup, seed: int | None, step: int | None, text: str) -> ConformanceError:
    where = setup.label + (f" seed {seed}" if seed is not None else "")
    where += f" step {step}" if step is not None else ""
    return ConformanceError(f"{where}: {text}")


def _hook(game_id: str, name: str, call: Callable[[], Any]) -> Any:
    try:
        return call()
    except NotImplementedError:
        raise MissingHook(game_id, name) from None


def play(
    setup: Setup,
    seed: int,
    agents: Sequence[str] | None = None,
    on_step: Callable[[Match, int], None] | None = None,
    max_actions: int = MAX_ACTIONS,
    patient: bool | None = None,
) -> Match:
    """Play one game to its end: the lowest asked seat acts; agents by name (random by
    default), each with ``agent_rng(seed, seat)``. ``on_step(match, step)`` runs before
    every action and once at the end. An agent's exception is not caught, and an agent
    must return one of the legal actions.

    Without ``agents``, odd seeds are played patiently (``patient_choice`` with each seat's
    generator; ``patient`` says otherwise): plain random play ends most Confrontation
    games within a few steps (L accuses at once), so every check that plays seeds 0 and 1
    also sees the nights, Chases and abilities."""
    if patient is None:
        patient = agents is None and seed % 2 == 1
    from deathnote.agents import make_agent, observe
    from deathnote.engine.rng import agent_rng

    match = setup.create(seed)
    names = list(agents or ["random"] * match.players)
    bots = [make_agent(setup.game, name, s) for s, name in enumerate(names)]
    rngs = [agent_rng(seed, s) for s in range(match.players)]
    step = 0
    while match.outcome() is None:
        if step >= max_actions:
            raise _fail(setup, seed, step, f"no end after {max_actions} actions")
        pending = match.pending()
        if not pending:
            raise _fail(setup, seed, step, "no seat is asked but the game is not over")
        if on_step:
            on_step(match, step)
        seat = min(pending)
        legal = match.legal(seat)
        if not legal:
            raise _fail(setup, seed, step, f"seat {seat} is asked but has no legal action")
        if patient:
            action = patient_choice(match, seat, rngs[seat])
        else:
            action = bots[seat].choose(observe(match, seat, rngs[seat]))
        if action not in legal:
            raise _fail(
                setup, seed, step, f"agent {names[seat]!r} returned {action!r}, not a legal action"
            )
        match.submit(seat, action)
        step += 1
    if on_step:
        on_step(match, step)
    return match


def viewers(match: Match) -> list[Viewer]:
    """Every seat, the spectator and the omniscient viewer."""
    return [*range(match.players), SPECTATOR, OMNISCIENT]


def _dump(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def fingerprint(match: Match) -> bytes:
    """Everything observable about a match: record, generator, views, pending, legal."""
    parts: list[Any] = [
        match.record() if not match.sampled else None,
        repr(match.rng.getstate()),
        [match.view(v) for v in viewers(match)],
        sorted((s, d.to_json(), d.covert) for s, d in match.pending().items()),
        [[dict(a.to_json(), label=a.label) for a in match.legal(s)] for s in range(match.players)],
    ]
    return _dump(parts)


def _checkpoints(length: int, count: int) -> list[int]:
    if length <= 0:
        return [0]
    return sorted({min(length - 1, (length * i) // count) for i in range(count)})


def _replayed(match: Match, steps: int) -> Match:
    record = match.record()
    record["actions"] = record["actions"][:steps]
    return Match.replay(record)


# -- random games, replay -----------------------------------------------------------------
def check_random_games(setup: Setup, seeds: Sequence[int] = range(4)) -> None:
    """Random games end, the outcome is consistent, the record replays identically, and
    the game's ``mover`` is the lowest pending seat at every step (and ``moves`` that
    seat with its legal actions)."""
    for seed in seeds:

        def same_mover(match: Match, step: int, seed: int = seed) -> None:
            pending = match.pending()
            expected = min(pending) if pending else None
            got = match.game.mover(match.state)
            if got != expected:
                raise _fail(
                    setup,
                    seed,
                    step,
                    f"mover() is {got!r}, the lowest pending seat is {expected!r}",
                )
            seat, legal = match.game.moves(match.state)
            want = list(match.legal(expected)) if expected is not None else []
            if seat != expected or list(legal) != want:
                raise _fail(
                    setup,
                    seed,
                    step,
                    f"moves() is seat {seat!r} with {len(legal)} actions, not the lowest "
                    f"pending seat {expected!r} with its {len(want)} legal actions in order",
                )

        match = play(setup, seed, on_step=same_mover)
        outcome = match.outcome()
        assert outcome is not None
        seats = set(range(match.players))
        if not set(outcome.winning_seats) <= seats:
            raise _fail(setup, seed, None, f"winning seats {outcome.winning_seats} are not seats")
        if bool(outcome.winning_seats) != bool(outcome.winners):
            raise _fail(setup, seed, None, "winners and winning seats disagree")
        record = orjson.loads(orjson.dumps(match.record()))
        again = Match.replay(record)
        if again.outcome() != outcome:
            raise _fail(setup, seed, None, "the replay ends with another outcome")
        for viewer in viewers(match):
            if _dump(again.view(viewer)) != _dump(match.view(viewer)):
                raise _fail(setup, seed, None, f"the replay shows {viewer!r} another view")


# -- rejected actions -----------------------------------------------------------------------
def _confused(action: Action) -> Iterator[dict[str, Any]]:
    """Ill-typed twins of a legal action: booleans for numbers and numbers for booleans."""
    data = action.to_json()
    for key, value in data.items():
        if key == "kind":
            continue
        if isinstance(value, bool):
            yield {**data, key: int(value)}
        elif isinstance(value, int):
            yield {**data, key: value == 1 if value in (0, 1) else True}
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, bool):
                    yield {**data, key: [*value[:i], int(item), *value[i + 1 :]]}
                elif isinstance(item, int):
                    twin = item == 1 if item in (0, 1) else True
                    yield {**data, key: [*value[:i], twin, *value[i + 1 :]]}


def _bad_inputs(match: Match) -> list[tuple[Any, Any]]:
    pending = match.pending()
    seat = min(pending) if pending else 0
    legal = list(match.legal(seat))[:10]
    sample = legal[0].to_json() if legal else {"kind": "pass"}
    kind = sample["kind"]
    bad: list[tuple[Any, Any]] = [
        (seat, "junk"),
        (seat, 3),
        (seat, None),
        (seat, []),
        (seat, {"nokind": 1}),
        (seat, {"kind": ""}),
        (seat, {"kind": 5}),
        (seat, {"kind": "no-such-move"}),
        (seat, {**sample, "zz_unknown_field": 1}),
        (seat, {"kind": kind, "x": {"nested": 1}}),
        (seat, {"kind": kind, "x": 1.5}),
        (seat, {"kind": kind, "x": [[1]]}),
        (-1, sample),
        (match.players, sample),
        (True, sample),
        ("0", sample),
        (None, sample),
    ]
    bad += [(s, sample) for s in range(match.players) if s not in pending]
    for action in legal:
        for twin in _confused(action):
            if Action.from_json(twin) not in legal:
                bad.append((seat, twin))
    return bad


def check_rejections(setup: Setup, seeds: Sequence[int] = range(2), moments: int = 4) -> None:
    """Malformed, ill-typed, out-of-turn and after-the-end actions raise IllegalAction and
    change nothing."""
    for seed in seeds:
        length = len(play(setup, seed).actions)
        marks = set(_checkpoints(length, moments))

        def probe(match: Match, step: int, seed: int = seed, marks: set[int] = marks) -> None:
            if step not in marks and match.outcome() is None:
                return
            before = fingerprint(match)
            for seat, action in _bad_inputs(match):
                try:
                    match.submit(seat, action)
                except IllegalAction:
                    pass
                else:
                    raise _fail(setup, seed, step, f"seat {seat!r} {action!r} was accepted")
                if fingerprint(match) != before:
                    raise _fail(
                        setup, seed, step, f"rejecting {seat!r} {action!r} changed the match"
                    )

        play(setup, seed, on_step=probe)


# -- views ----------------------------------------------------------------------------------
def _json_problem(value: Any, path: str) -> str | None:
    if value is None or isinstance(value, str | bool | int):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path} is {value}"
    if isinstance(value, list):
        for i, item in enumerate(value):
            problem = _json_problem(item, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has the key {key!r}, not a text"
            problem = _json_problem(item, f"{path}.{key}")
            if problem:
                return problem
        return None
    return f"{path} is a {type(value).__name__}, not JSON"


_ATOMS = (str, int, float, bool, bytes, type(None))


def _containers(root: Any, limit: int = 500_000) -> dict[int, str]:
    """The id of every mutable container reachable from ``root`` (dataclasses, objects,
    dicts, lists, sets), with a path to it."""
    seen: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(root, "match")]
    visited: set[int] = set()
    while stack and len(visited) < limit:
        obj, path = stack.pop()
        if isinstance(obj, _ATOMS) or id(obj) in visited:
            continue
        visited.add(id(obj))
        if isinstance(obj, dict):
            seen[id(obj)] = path
            stack.extend((v, f"{path}[{k!r}]") for k, v in obj.items())
            stack.extend((k, f"{path} key") for k in obj if not isinstance(k, _ATOMS))
        elif isinstance(obj, list | set | bytearray):
            seen[id(obj)] = path
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(obj))
        elif isinstance(obj, tuple | frozenset):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(obj))
        elif isinstance(obj, Mapping):
            stack.extend((v, f"{path}[{k!r}]") for k, v in obj.items())
        elif callable(obj) or isinstance(obj, type):
            continue
        else:
            fields: dict[str, Any] = {}
            if hasattr(obj, "__dict__"):
                fields.update(vars(obj))
            for cls in type(obj).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(obj, name):
                        fields[name] = getattr(obj, name)
            stack.extend((v, f"{path}.{k}") for k, v in fields.items())
    return seen


def _shared(view: Any, owned: Mapping[int, str], path: str) -> str | None:
    if isinstance(view, dict | list):
        if id(view) in owned:
            return f"{path} is the match's own {owned[id(view)]}"
        items = view.values() if isinstance(view, dict) else view
        keys = view.keys() if isinstance(view, dict) else range(len(view))
        for key, item in zip(keys, items, strict=True):
            found = _shared(item, owned, f"{path}[{key!r}]")
            if found:
                return found
    return None


def _scribble(value: Any) -> None:
    """Change every container of a view in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["zz_scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("zz_scribbled")


def check_views(setup: Setup, seeds: Sequence[int] = range(2), moments: int = 6) -> None:
    """Views are JSON-ready fresh objects: nothing in them is the match's own."""
    for seed in seeds:
        length = len(play(setup, seed).actions)
        marks = set(_checkpoints(length, moments))

        def probe(match: Match, step: int, seed: int = seed, marks: set[int] = marks) -> None:
            if step not in marks and match.outcome() is None:
                return
            # Kept alive while the ids are compared (a freed id can be reused).
            roots = {
                "state": match.state,
                "content": match.content,
                "log": [e.data for e in match.events],
                "decisions": [d.data for d in match.pending().values()],
            }
            owned = _containers(roots)
            before = fingerprint(match)
            for viewer in viewers(match):
                view = match.view(viewer)
                problem = _json_problem(view, "view")
                if problem:
                    raise _fail(setup, seed, step, f"{viewer!r}: {problem}")
                shared = _shared(view, owned, "view")
                if shared:
                    raise _fail(setup, seed, step, f"{viewer!r}: {shared}")
                shared_view = match.game.shared_view(match.state, viewer)
                if shared_view is not None:
                    if orjson.dumps(shared_view) != orjson.dumps(view["state"]):
                        raise _fail(setup, seed, step, f"{viewer!r}: the shared view differs")
                    shared = _shared(shared_view, owned, "shared view")
                    if shared:
                        raise _fail(setup, seed, step, f"{viewer!r}: {shared}")
                _scribble(view)
                if fingerprint(match) != before:
                    raise _fail(setup, seed, step, f"changing {viewer!r}'s view changed the match")
            del roots

        play(setup, seed, on_step=probe)


def check_view_deltas(setup: Setup, seeds: Sequence[int] = range(2), moments: int = 6) -> None:
    """A view since step k (``Match.view(viewer, since=k)``) is the whole view with only
    the log entries made after the first k actions: what a client that had the view at
    step k appends to its log reads the whole view's log."""
    for seed in seeds:
        length = len(play(setup, seed).actions)
        marks = {*_checkpoints(length, moments), 0, length}
        lengths: dict[int, dict[Viewer, int]] = {}

        def probe(match: Match, step: int, marks: set[int] = marks, seen: dict = lengths) -> None:
            if step in marks:
                seen[step] = {v: len(match.view(v)["log"]) for v in viewers(match)}

        match = play(setup, seed, on_step=probe)
        for viewer in viewers(match):
            whole = match.view(viewer)
            for step in sorted(lengths):
                delta = match.view(viewer, since=step)
                if delta.get("since") != step:
                    raise _fail(setup, seed, step, f"{viewer!r}: the delta does not say its step")
                rest = {k: v for k, v in delta.items() if k not in ("log", "since")}
                if rest != {k: v for k, v in whole.items() if k != "log"}:
                    raise _fail(
                        setup, seed, step, f"{viewer!r}: the delta's state is not the whole view's"
                    )
                if delta["log"] != whole["log"][lengths[step][viewer] :]:
                    raise _fail(
                        setup,
                        seed,
                        step,
                        f"{viewer!r}: the log since step {step} is not the whole log's tail",
                    )


def check_state_patches(setup: Setup, seeds: Sequence[int] = range(2)) -> None:
    """A client that applies the state patches of ``Match.view(viewer, since=k,
    patch=True)`` (``engine.delta``) to the state it holds always has exactly the whole
    view's state: for every viewer after every action, for a client one step behind, one
    two steps behind (still remembered) and one far behind (sent the whole state)."""
    from deathnote.engine import delta

    for seed in seeds:
        clients: dict[tuple[Viewer, int], tuple[int, Any]] = {}
        patched = {"patches": 0, "wholes": 0}

        def probe(
            match: Match, step: int, clients: dict = clients, used: dict = patched, seed: int = seed
        ) -> None:
            for viewer in viewers(match):
                whole = match.view(viewer)
                for lag in (1, 2, 8):
                    key = (viewer, lag)
                    held = clients.get(key)
                    if held is not None and step - held[0] < lag:
                        continue  # this client is not due yet
                    since = held[0] if held is not None else None
                    got = match.view(viewer, since=since, patch=True)
                    if "patch" in got:
                        if held is None:
                            raise _fail(setup, seed, step, f"{viewer!r}: a first view patched")
                        state = delta.patch(held[1], got.pop("patch"))
                        used["patches"] += 1
                    else:
                        state = got.pop("state")
                        used["wholes"] += 1
                    if state != whole["state"]:
                        raise _fail(
                            setup,
                            seed,
                            step,
                            f"{viewer!r}: patching the state of step {since} does not give "
                            "the whole view's state",
                        )
                    rest = {k: v for k, v in got.items() if k not in ("log", "since")}
                    if rest != {k: v for k, v in whole.items() if k not in ("log", "state")}:
                        raise _fail(setup, seed, step, f"{viewer!r}: a patched view differs")
                    clients[key] = (step, state)

        play(setup, seed, on_step=probe)
        if not patched["patches"]:
            raise _fail(setup, seed, 0, "no view was ever sent as a patch")


# -- forks ------------------------------------------------------------------------------------
def check_fork(setup: Setup, seeds: Sequence[int] = range(2), moments: int = 4) -> None:
    """A mid-game fork is independent of its original and ends as it does."""
    for seed in seeds:
        original = play(setup, seed)
        actions = list(original.actions)
        ends = {v: _dump(original.view(v)) for v in viewers(original)}
        for at in _checkpoints(len(actions), moments):
            match = _replayed(original, at)
            before = fingerprint(match)
            wild = match.fork()
            if wild.content is not match.content:
                raise _fail(setup, seed, at, "the fork copied the content")
            _play_on(wild, seed + 1000 + at)
            if fingerprint(match) != before:
                raise _fail(setup, seed, at, "playing a fork changed the original")
            twin = match.fork()
            for seat, action in actions[at:]:
                twin.submit(seat, action)
            if twin.record() != original.record() or twin.outcome() != original.outcome():
                raise _fail(setup, seed, at, "the fork, given the same actions, ended otherwise")
            for v, view in ends.items():
                if _dump(twin.view(v)) != view:
                    raise _fail(setup, seed, at, f"the fork ends with another view for {v!r}")


def check_apply_quiet(setup: Setup, seeds: Sequence[int] = range(2)) -> None:
    """``new_state`` makes the state ``setup`` makes and ``apply_quiet`` changes it as
    ``apply`` does: a match, and a state from ``new_state`` with a generator of the same
    seed played on with ``apply_quiet``, give the same decisions, legal actions, outcome,
    state views and observations, and the same draws, from the start and at every step."""
    import numpy as np

    from deathnote.engine.rng import new as rng_new

    for seed in seeds:
        original = play(setup, seed)
        match = setup.create(seed)
        game = match.game
        rng = rng_new(seed)
        quiet = game.new_state(match.players, match.options, match.content, rng)
        for step, (seat, action) in enumerate([(None, None), *original.actions], start=-1):
            done = "new_state" if step < 0 else "apply_quiet"
            if seat is not None and action is not None:
                match.submit(seat, action)
                game.apply_quiet(quiet, seat, action, rng)
            if repr(rng.getstate()) != repr(match.rng.getstate()):
                raise _fail(setup, seed, step, f"{done} drew otherwise than apply")
            asked = {s: d.to_json() for s, d in match.pending().items()}
            if {s: d.to_json() for s, d in game.pending(quiet).items()} != asked:
                raise _fail(setup, seed, step, f"after {done} other seats are asked")
            for s in asked:
                if list(game.legal(quiet, s)) != list(match.legal(s)):
                    raise _fail(setup, seed, step, f"after {done} seat {s} may do otherwise")
            if game.outcome(quiet) != match.outcome():
                raise _fail(setup, seed, step, f"after {done} the outcome differs")
            for v in viewers(match):
                if _dump(game.view(quiet, v)) != _dump(game.view(match.state, v)):
                    raise _fail(setup, seed, step, f"after {done} {v!r} sees another state")
                try:
                    tensor = game.observation_tensor(match.state, v)
                except NotImplementedError:
                    continue
                if not np.array_equal(game.observation_tensor(quiet, v), tensor):
                    raise _fail(setup, seed, step, f"after {done} {v!r} observes otherwise")


def _play_on(match: Match, seed: int, max_actions: int = MAX_ACTIONS) -> None:
    """Random play from where the match stands to its end."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        if match.outcome() is not None:
            return
        pending = match.pending()
        if not pending:
            raise ConformanceError(f"{match.game.id}: no seat is asked but the game is not over")
        seat = min(pending)
        legal = match.legal(seat)
        if not legal:
            raise ConformanceError(f"{match.game.id}: seat {seat} is asked with no legal action")
        match.submit(seat, rng.choice(legal))
    raise ConformanceError(f"{match.game.id}: no end after {max_actions} actions")


# -- sampled worlds -------------------------------------------------------------------------
def _seen(match: Match, viewer: Viewer) -> bytes:
    """What a viewer sees: its view, which holds its legal actions, its own decision and
    the seats it is shown waiting."""
    return _dump(match.view(viewer))


def _canonical(obj: Any, memo: dict[int, str] | None = None, depth: int = 0) -> str:
    """A comparable form of any state (dataclasses, objects, containers, atoms): an atom's
    repr, else a digest of the node's kind and its children's forms (sets and mappings
    sorted). Each object is put in form once (``memo``, by identity), so a shared or deeply
    nested part costs once, not once per enclosing set."""
    memo = {} if memo is None else memo
    if isinstance(obj, _ATOMS):
        return repr(obj)
    if depth > 60:
        return "..."
    key = id(obj)
    if key in memo:
        return memo[key]
    memo[key] = "<cycle>"
    node: Any
    if type(obj) is dict or isinstance(obj, Mapping):
        node = ("map", sorted((repr(k), _form(v, memo, depth)) for k, v in obj.items()))
    elif isinstance(obj, list | tuple):
        node = ("seq", [_form(v, memo, depth) for v in obj])
    elif isinstance(obj, set | frozenset):
        node = ("set", sorted(_form(v, memo, depth) for v in obj))
    elif callable(obj):
        node = ("fn", getattr(obj, "__qualname__", "?"))
    else:
        fields: dict[str, Any] = {}
        if hasattr(obj, "__dict__"):
            fields.update(vars(obj))
        for cls in type(obj).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(obj, name):
                    fields[name] = getattr(obj, name)
        node = (
            type(obj).__name__,
            sorted((k, _form(v, memo, depth)) for k, v in fields.items()),
        )
    out = "#" + hashlib.blake2b(repr(node).encode(), digest_size=16).hexdigest()
    memo[key] = out
    return out


def _form(obj: Any, memo: dict[int, str], depth: int) -> str:
    """A child's form: an atom's at once (most of a state), else ``_canonical`` one level
    deeper."""
    return repr(obj) if isinstance(obj, _ATOMS) else _canonical(obj, memo, depth + 1)


def _state_digest(match: Match) -> str:
    return _canonical(match.state)


def _sample(match: Match, viewer: Viewer, rng: random.Random) -> Match:
    return _hook(match.game.id, "sample_state", lambda: match.sample_world(viewer, rng))


def _capped(actions: Sequence[Action], cap: int, rng: random.Random) -> list[Action]:
    items = list(actions)
    return items if len(items) <= cap else rng.sample(items, cap)


def check_sample_world(
    setup: Setup, seeds: Sequence[int] = range(2), moments: int = 5, samples: int = 6
) -> None:
    """Sampled worlds agree with all the viewer saw, play on, and vary where it is blind."""
    game = get_game(setup.game)
    for seed in seeds:
        original = play(setup, seed)
        length = len(original.actions)
        for at in _checkpoints(length, moments):
            match = _replayed(original, at)
            before = fingerprint(match)
            for viewer in [*range(match.players), SPECTATOR]:
                rng = random.Random(f"{setup.label}:{seed}:{at}:{viewer}")
                seen = _seen(match, viewer)
                digests: set[str] = set()
                for i in range(samples):
                    world = _sample(match, viewer, rng)
                    if _seen(world, viewer) != seen:
                        raise _fail(
                            setup, seed, at, f"a world sampled for {viewer!r} shows it another view"
                        )
                    if world.outcome() != match.outcome():
                        raise _fail(setup, seed, at, f"a world sampled for {viewer!r} has ended")
                    digests.add(_state_digest(world))
                    for seat in world.pending():
                        legal = world.legal(seat)
                        if not legal:
                            raise _fail(setup, seed, at, f"sampled seat {seat} has no legal action")
                        for action in _capped(legal, 12, rng):
                            world.fork().submit(seat, action)
                    if i == 0:
                        _play_on(world.fork(), seed + at)
                if at == 0 and samples > 1:
                    _check_coverage(setup, seed, match, viewer, digests)
            if fingerprint(match) != before:
                raise _fail(setup, seed, at, "sampling changed the match")
        if game.hidden_values(original.state, OMNISCIENT) is not None:
            check_hidden_values(setup, seed)


def _check_coverage(
    setup: Setup, seed: int, match: Match, viewer: Viewer, digests: set[str]
) -> None:
    blind = _dump(match.game.view(match.state, viewer)) != _dump(
        match.game.view(match.state, OMNISCIENT)
    )
    if blind and len(digests) < 2:
        raise _fail(
            setup,
            seed,
            0,
            f"{viewer!r} does not see everything, yet every world sampled for it is the same",
        )


def check_hidden_values(
    setup: Setup, seed: int, steps: Sequence[int] = (0, 5, 20), samples: int = 300
) -> None:
    """With the game's ``hidden_values`` probe: over many samples, every value a viewer
    cannot rule out appears, and none it can."""
    game = get_game(setup.game)
    original = play(setup, seed)
    for at in steps:
        if at >= len(original.actions):
            continue
        match = _replayed(original, at)
        for viewer in [*range(match.players), SPECTATOR]:
            possible = game.hidden_values(match.state, viewer) or {}
            found: dict[str, set[Any]] = {k: set() for k in possible}
            rng = random.Random(f"hidden:{seed}:{at}:{viewer}")
            # Enough draws that a uniform sampler misses none of n values (n e^-20 odds).
            widest = max((len(v) for v in possible.values()), default=1)
            for _ in range(max(samples, 20 * widest)):
                world = _sample(match, viewer, rng)
                truth = game.hidden_values(world.state, OMNISCIENT) or {}
                for key in possible:
                    values = set(truth.get(key, ()))
                    if not values <= set(possible[key]):
                        raise _fail(
                            setup,
                            seed,
                            at,
                            f"a world sampled for {viewer!r} has {key} = {sorted(values - set(possible[key]), key=repr)}, "
                            "which that viewer can rule out",
                        )
                    found[key] |= values
            for key, options in possible.items():
                missing = set(options) - found[key]
                if missing:
                    raise _fail(
                        setup,
                        seed,
                        at,
                        f"the worlds sampled for {viewer!r} never have {key} = "
                        f"{sorted(missing, key=repr)}",
                    )


# -- covert decisions ---------------------------------------------------------------------------
def _has_choice(match: Match, seat: Seat) -> bool:
    return seat in match.pending() and len(match.legal(seat)) > 1


def _ends_soon(match: Match, seat: Seat, action: Action) -> bool:
    """Whether the action ends the game, or leaves the next seat only actions that do."""
    twin = match.fork()
    twin.submit(seat, action)
    if twin.outcome() is not None:
        return True
    nxt = min(twin.pending())
    for reply in list(twin.legal(nxt))[:8]:
        again = twin.fork()
        again.submit(nxt, reply)
        if again.outcome() is None:
            return False
    return True


def patient_choice(match: Match, seat: Seat, rng: random.Random, tries: int = 3) -> Action:
    """A random legal action that, if another can, does not end the game within two
    steps: random play that reaches the late game (abilities, last rounds) more often."""
    legal = match.legal(seat)
    action = rng.choice(legal)
    for _ in range(tries):
        if len(legal) < 2 or not _ends_soon(match, seat, action):
            break
        action = rng.choice(legal)
    return action


def check_covert(
    setup: Setup, seeds: Sequence[int] = range(4), samples: int = 8, per_kind: int = 4
) -> None:
    """A covert decision changes nothing that another viewer sees (see the module text).

    Half the games are plain random play, half patient (``patient_choice``), so that late
    decisions are reached; each covert decision kind of each seat is checked at up to
    ``per_kind`` steps of each game."""
    for seed in seeds:
        match = setup.create(seed)
        rng = random.Random(seed)
        patient = seed % 2 == 1
        checked: dict[tuple[Seat, str], int] = {}
        step = 0
        while match.outcome() is None:
            if step >= MAX_ACTIONS:
                raise _fail(setup, seed, step, f"no end after {MAX_ACTIONS} actions")
            seat = min(match.pending())
            legal = match.legal(seat)
            action = patient_choice(match, seat, rng) if patient else rng.choice(legal)
            before = match.fork()
            match.submit(seat, action)
            step += 1
            covert = [
                (s, d.kind)
                for s, d in match.pending().items()
                if d.covert and _has_choice(match, s) and checked.get((s, d.kind), 0) < per_kind
            ]
            if not covert:
                continue
            for key in covert:
                checked[key] = checked.get(key, 0) + 1
            for viewer in [*range(match.players), SPECTATOR]:
                targets = [s for s, _kind in covert if s != viewer]
                if targets:
                    _covert_step(
                        setup, seed, step, before, seat, action, match, viewer, targets, samples
                    )


def _covert_step(
    setup: Setup,
    seed: int,
    step: int,
    before: Match,
    seat: Seat,
    action: Action,
    after: Match,
    viewer: Viewer,
    targets: list[Seat],
    samples: int,
) -> None:
    real = _seen(after, viewer)
    told = _dump([e.to_json() for e in after.events[len(before.events) :] if e.visible_to(viewer)])
    rng = random.Random(f"covert:{setup.label}:{seed}:{step}:{viewer}")
    was = _asked(before)
    worlds: list[tuple[Match, dict[Seat, str]]] = []
    for _ in range(samples):
        world = _sample(before, viewer, rng)
        if seat not in world.pending() or action not in world.legal(seat):
            continue  # the acting seat's choice is one this world does not allow
        asked_then = _asked(world)
        world.rng.setstate(before.rng.getstate())
        news = world.submit(seat, action)
        if _dump([e.to_json() for e in news if e.visible_to(viewer)]) != told:
            continue  # the step told the viewer something else (a card it sees drawn)
        worlds.append((world, asked_then))
    for s in targets:
        # The same match: ``s`` was asked the same before the step (not a world where it
        # has already answered a simultaneous question the real ``s`` has not).
        same = [w for w, then in worlds if then.get(s) == was.get(s)]
        asked = [real] + [_seen(w, viewer) for w in same if _has_choice(w, s)]
        idle = [_seen(w, viewer) for w in same if not _has_choice(w, s)]
        if len(idle) < 2 or len(set(idle)) != 1 or len(asked) < 2 or len(set(asked)) != 1:
            continue
        if idle[0] != real:
            raise _fail(
                setup,
                seed,
                step,
                f"{viewer!r} can tell whether seat {s} has a covert decision: its view when "
                f"seat {s} is asked differs from its view in the same match where seat {s} "
                f"has nothing to decide ({_diff(real, idle[0])})",
            )


def _asked(match: Match) -> dict[Seat, str]:
    return {s: d.kind for s, d in match.pending().items()}


def _diff(a: bytes, b: bytes) -> str:
    """The first place two seen-views differ, for the message."""
    left, right = orjson.loads(a), orjson.loads(b)

    def walk(x: Any, y: Any, path: str) -> str | None:
        if type(x) is not type(y):
            return f"{path}: {x!r} vs {y!r}"
        if isinstance(x, dict):
            for k in sorted(set(x) | set(y)):
                if k not in x or k not in y:
                    return f"{path}.{k}: only in one"
                found = walk(x[k], y[k], f"{path}.{k}")
                if found:
                    return found
            return None
        if isinstance(x, list):
            if len(x) != len(y):
                return f"{path}: {len(x)} vs {len(y)} items"
            for i, (p, q) in enumerate(zip(x, y, strict=True)):
                found = walk(p, q, f"{path}[{i}]")
                if found:
                    return found
            return None
        return None if x == y else f"{path}: {x!r} vs {y!r}"

    return walk(left, right, "") or "?"


# -- action numbers and observations -----------------------------------------------------------
def check_action_numbers(setup: Setup, seeds: Sequence[int] = range(2)) -> None:
    """Every legal action has a stable number that maps back to it; the mask agrees."""
    import numpy as np

    for seed in seeds:

        def probe(match: Match, step: int, seed: int = seed) -> None:
            space = _hook(setup.game, "action_space", lambda: match.action_space)
            if step == 0:
                fresh = match.game.action_space(match.players, match.options)
                if fresh.size != space.size:
                    raise _fail(setup, seed, step, "action_space gives another size each call")
            pending = match.pending()
            for seat in range(match.players):
                mask = match.legal_mask(seat)
                if mask.shape != (space.size,):
                    raise _fail(setup, seed, step, f"legal_mask has shape {mask.shape}")
                ids: list[int] = []
                for action in match.legal(seat):
                    number = match.action_id(action)
                    if isinstance(number, bool) or not 0 <= number < space.size:
                        raise _fail(setup, seed, step, f"{action!r} has number {number!r}")
                    if match.action_at(number) != action:
                        raise _fail(setup, seed, step, f"action_at({number}) is not {action!r}")
                    if match.action_at(number, seat) != action:
                        raise _fail(setup, seed, step, f"action_at({number}, seat) is wrong")
                    ids.append(number)
                if len(set(ids)) != len(ids):
                    raise _fail(
                        setup, seed, step, f"two legal actions of seat {seat} share a number"
                    )
                expected = np.zeros(space.size, dtype=mask.dtype)
                expected[ids] = 1
                if not np.array_equal(mask, expected) or (seat not in pending and ids):
                    raise _fail(
                        setup, seed, step, f"legal_mask({seat}) disagrees with legal({seat})"
                    )

        play(setup, seed, on_step=probe)


def _tensor(match: Match, seat: Seat) -> Any:
    return _hook(match.game.id, "observation_tensor", lambda: match.observation_tensor(seat))


def check_observations(setup: Setup, seeds: Sequence[int] = range(2)) -> None:
    """Observation tensors: float32, of the declared fixed shape, finite, for every seat."""
    import numpy as np

    for seed in seeds:

        def probe(match: Match, step: int, seed: int = seed) -> None:
            shape = _hook(setup.game, "observation_tensor", match.observation_shape)
            for seat in range(match.players):
                tensor = _tensor(match, seat)
                if not isinstance(tensor, np.ndarray) or tensor.dtype != np.float32:
                    raise _fail(setup, seed, step, f"observation of seat {seat} is not float32")
                if tensor.shape != tuple(shape):
                    raise _fail(
                        setup, seed, step, f"observation shape {tensor.shape}, declared {shape}"
                    )
                if not np.isfinite(tensor).all():
                    raise _fail(setup, seed, step, f"observation of seat {seat} is not finite")

        play(setup, seed, on_step=probe)


def check_observations_in_samples(
    setup: Setup, seeds: Sequence[int] = range(2), moments: int = 5, samples: int = 4
) -> None:
    """A seat's observation is the same in every world it cannot tell apart."""
    import numpy as np

    for seed in seeds:
        original = play(setup, seed)
        for at in _checkpoints(len(original.actions), moments):
            match = _replayed(original, at)
            for seat in range(match.players):
                mine = _tensor(match, seat)
                rng = random.Random(f"obs:{seed}:{at}:{seat}")
                for _ in range(samples):
                    world = _sample(match, seat, rng)
                    if not np.array_equal(world.observation_tensor(seat), mine):
                        raise _fail(
                            setup,
                            seed,
                            at,
                            f"seat {seat}'s observation differs in a world it cannot tell apart",
                        )


# -- bots and determinism ------------------------------------------------------------------------
def check_bots(setup: Setup, seeds: Sequence[int] = range(2)) -> None:
    """Each agent of the game plays every seat; an exception fails (no random fall-back)."""
    names = list(get_game(setup.game).agents())
    for name in names:
        for seed in seeds:
            play(setup, seed, agents=[name] * setup.players)
            others = [name if s % 2 == seed % 2 else "random" for s in range(setup.players)]
            play(setup, seed, agents=others)


def game_fingerprint(game_id: str, seeds: Sequence[int] = range(3)) -> str:
    """A digest of the records, final views and sampled worlds of seeded games of every
    set-up and agent: equal in every process for a deterministic game."""
    digest = hashlib.sha256()
    game = get_game(game_id)
    for setup in setups(game_id):
        for name in ["random", *game.agents()]:
            for seed in seeds:
                match = play(setup, seed, agents=[name] * setup.players)
                digest.update(_dump(match.record()))
                for viewer in viewers(match):
                    digest.update(_dump(match.view(viewer)))
                middle = _replayed(match, len(match.actions) // 2)
                try:
                    world = middle.sample_world(0, random.Random(seed))
                except NotImplementedError:
                    continue
                digest.update(_dump(world.view(OMNISCIENT)))
    return digest.hexdigest()


def check_hash_seeds(game_id: str, hash_seeds: Sequence[str] = ("1", "2")) -> None:
    """The same seeds give the same games under different ``PYTHONHASHSEED`` values."""
    prints = set()
    for hash_seed in hash_seeds:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-m", "deathnote.engine.conformance", game_id, "--fingerprint"],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if out.returncode:
            raise ConformanceError(f"{game_id}: fingerprint failed: {out.stderr[-2000:]}")
        prints.add(out.stdout.strip())
    if len(prints) != 1:
        raise ConformanceError(
            f"{game_id}: the same seeds give other games under PYTHONHASHSEED "
            f"{', '.join(hash_seeds)} (something iterates a set or dict of strings)"
        )


#: Every check that takes a set-up, in the order the command line runs them.
SETUP_CHECKS: dict[str, Callable[[Setup], None]] = {
    "random_games": check_random_games,
    "rejections": check_rejections,
    "views": check_views,
    "view_deltas": check_view_deltas,
    "state_patches": check_state_patches,
    "fork": check_fork,
    "apply_quiet": check_apply_quiet,
    "sample_world": check_sample_world,
    "covert": check_covert,
    "action_numbers": check_action_numbers,
    "observations": check_observations,
    "observations_in_samples": check_observations_in_samples,
    "bots": check_bots,
}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m deathnote.engine.conformance GAME [--fingerprint]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0].startswith("-"):
        print(__doc__)
        return 2
    game_id = args[0]
    if "--fingerprint" in args:
        print(game_fingerprint(game_id))
        return 0
    failed = 0
    for setup in setups(game_id):
        for name, check in SETUP_CHECKS.items():
            try:
                check(setup)
            except MissingHook as exc:
                print(f"skip {setup.label} {name}: {exc}")
            except ConformanceError as exc:
                failed += 1
                print(f"FAIL {setup.label} {name}: {exc}")
            else:
                print(f"ok   {setup.label} {name}")
    try:
        check_hash_seeds(game_id)
    except ConformanceError as exc:
        failed += 1
        print(f"FAIL {game_id} hash_seeds: {exc}")
    else:
        print(f"ok   {game_id} hash_seeds")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
