"""The play loop: agents seated at a match play it, one action at a time.

Every front end drives a match through a :class:`Table`: the simulator and the tests play
whole games with bots, the terminal seats its people as agents that read the keyboard, and
the server lets its bots move between the people's actions. The rules of the loop are
written here once:

- The seat that acts is the lowest asked seat that has an agent; when every asked seat is
  somebody else's (a person on the server), the loop stops and waits.
- Each agent draws from its own generator, ``agent_rng(seed, seat)``, made the first time
  that seat decides (seeding costs as much as a few actions; many short games never ask
  some seats).
- An agent gets an :class:`~deathnote.agents.base.Observation` whose view is built only if
  the agent reads it (random agents never do).
- An agent's exception is not caught: a broken bot fails the run instead of looking weak.

>>> from deathnote.agents import RandomAgent   # doctest: +SKIP
>>> match = Match.create("confrontation", 2, seed=1)  # doctest: +SKIP
>>> Table(match, [RandomAgent(0), RandomAgent(1)]).play()  # doctest: +SKIP
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from deathnote.agents.base import Observation, RandomAgent, world_sampler
from deathnote.engine.actions import Action, Event, Outcome, Seat
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.game import Game
from deathnote.engine.rng import agent_rng, below

if TYPE_CHECKING:
    from deathnote.agents.base import Agent
    from deathnote.engine.match import Match

#: A bound on one run of the loop: every game ends long before.
MAX_ACTIONS = 100_000

Submit = Callable[[Seat, Action], Any]


class Step(NamedTuple):
    """One action the loop played: who, what, and the events it made."""

    seat: Seat
    action: Action
    events: list[Event]


class Table:
    """Agents seated at one match, each with its own generator.

    ``agents``: one agent per seat (a sequence), or the seats that have one (a mapping;
    the other seats are played from outside, e.g. by people on the server). ``seed``: the
    seed the agents' generators derive from (default: the match seed).
    """

    def __init__(
        self,
        match: Match,
        agents: Sequence[Agent] | Mapping[Seat, Agent],
        seed: int | None = None,
    ) -> None:
        self.match = match
        self.agents: dict[Seat, Agent] = (
            dict(enumerate(agents))
            if type(agents) is list or not isinstance(agents, Mapping)
            else dict(agents)
        )
        self.seed = match.seed if seed is None else seed
        self.rngs: dict[Seat, random.Random] = {}

    def rng(self, seat: Seat) -> random.Random:
        """The generator of the agent in ``seat`` (made on first use)."""
        rng = self.rngs.get(seat)
        if rng is None:
            rng = self.rngs[seat] = agent_rng(self.seed, seat)
        return rng

    def next_seat(self) -> Seat | None:
        """The seat whose agent acts now: the lowest asked seat that has an agent; None
        when the game is over or every asked seat is played from outside."""
        match = self.match
        if match.outcome() is not None:
            return None
        agents = self.agents
        seats = [s for s in match.pending() if s in agents]
        return min(seats) if seats else None

    def observation(self, seat: Seat) -> Observation:
        """What the agent in ``seat`` gets: legal actions, a lazy view, its generator."""
        match = self.match
        return Observation(
            seat,
            match.legal(seat),
            partial(match.view, seat),
            self.rng(seat),
            world_sampler(match, seat),
        )

    def choose(self, seat: Seat) -> Action:
        """The action the agent in ``seat`` picks now (not submitted)."""
        return self.agents[seat].choose(self.observation(seat))

    def steps(self, submit: Submit | None = None, max_actions: int = MAX_ACTIONS) -> Iterator[Step]:
        """Play the agents' turns one at a time, yielding after each accepted action.

        Stops when the game is over or no asked seat has an agent. ``submit``: how an
        action is carried out (default ``match.submit``; the server stores it too); it
        returns the events, or anything else (then the step's events are empty).
        Raises DeathNoteError after ``max_actions`` actions in one run.
        """
        match = self.match
        do = submit or match.submit
        agents = self.agents
        count = 0
        while True:
            seat = self.next_seat()
            if seat is None:
                return
            if count >= max_actions:
                raise DeathNoteError(f"no end after {max_actions} actions")
            action = agents[seat].choose(self.observation(seat))
            events = do(seat, action)
            count += 1
            yield Step(seat, action, events if isinstance(events, list) else [])

    def play(
        self,
        on_step: Callable[[Step], None] | None = None,
        submit: Submit | None = None,
        max_actions: int = MAX_ACTIONS,
    ) -> Outcome | None:
        """Play until the game is over (or waits for a seat without an agent); returns the
        outcome (None when it stopped to wait). ``on_step`` runs after every action."""
        if on_step is None and submit is None:
            self._run(max_actions)
        else:
            for step in self.steps(submit, max_actions):
                if on_step is not None:
                    on_step(step)
        return self.match.outcome()

    def _run(self, max_actions: int) -> None:
        # The loop of ``steps`` for the simulator's hot path: the same seats and the same
        # draws, with the match's caches read in place and a random agent's draw inline
        # (exactly ``RandomAgent.choose``: no observation is made, as none is read).
        match = self.match
        agents = self.agents
        rngs = self.rngs
        randoms = {s for s, agent in agents.items() if type(agent) is RandomAgent}
        if len(randoms) == len(agents) and (
            not rngs or all(type(r) is random.Random for r in rngs.values())
        ):
            self._run_random(max_actions)
            return
        commit, view = match._commit, match.view
        count = 0
        game = match.game
        while match._outcome is None:
            asked = match._pending
            if asked is None:
                asked = match._pending = game.pending(match.state)
            if len(asked) == 1:
                (seat,) = asked
                if seat not in agents:
                    return
            else:
                seats = [s for s in asked if s in agents]
                if not seats:
                    return
                seat = min(seats)
            if count >= max_actions:
                raise DeathNoteError(f"no end after {max_actions} actions")
            rng = rngs.get(seat)
            if rng is None:
                rng = rngs[seat] = agent_rng(self.seed, seat)
            legal = match._legal.get(seat)
            if legal is None:
                legal = match._legal[seat] = game.legal(match.state, seat)
            n = len(legal)
            if seat in randoms and n and type(rng) is random.Random:
                commit(seat, legal[below(rng, n)])
            else:
                obs = Observation(seat, legal, partial(view, seat), rng, world_sampler(match, seat))
                action = agents[seat].choose(obs)
                for candidate in legal:
                    if candidate is action:  # one of the legal objects: checked already
                        commit(seat, action)
                        break
                else:
                    match.submit(seat, action)
            count += 1

    def _run_random(self, max_actions: int) -> None:
        # ``_run`` when every agent is a RandomAgent (simulations, benchmarks).
        play_random(self.match, self.agents, self.seed, max_actions, self.rngs)


def play_random(
    match: Match,
    seats: Container[Seat],
    seed: int,
    max_actions: int = MAX_ACTIONS,
    rngs: dict[Seat, random.Random] | None = None,
    make_rng: Callable[[int, Seat], random.Random] = agent_rng,
) -> None:
    """Play the match with a :class:`RandomAgent` in each of ``seats`` until it is over or
    waits for another seat: the seats, draws and match afterwards of a :class:`Table` of
    random agents with that ``seed`` (the simulator's games, without making the agents
    and the table). ``rngs``: the generators the agents have drawn from so far (those
    still missing are made on first use by ``make_rng(seed, seat)``, and put there).

    The loop of ``Table.steps`` with the Match's bookkeeping of ``_commit`` done here in
    place (its caches of legal actions and pending seats are not kept between actions,
    as nothing reads them until the loop returns) and ``RandomAgent.choose`` inline."""
    if rngs is None:
        rngs = {}
    game = match.game
    state = match.state
    pending, legal_of, apply, outcome_of = game.pending, game.legal, game.apply, game.outcome
    # who moves (and how): the game's own ``moves`` or ``mover`` where it has one
    kind = type(game)
    moves = game.moves if kind.moves is not Game.moves else None
    mover = game.mover if kind.mover is not Game.mover else None
    # per seat, its generator's getrandbits once it has one
    draws: list[Callable[[int], int] | None] = [None] * match.players
    for s, made_rng in rngs.items():
        draws[s] = made_rng.getrandbits
    actions, events, steps = match.actions, match.events, match._steps
    act, stepped = actions.append, steps.append
    match_rng = match.rng
    outcome = match._outcome
    snap_next = match._snap_next
    step = start = len(actions)
    limit = start + max_actions
    due = min(limit, snap_next)  # the next step that stops the run or takes a snapshot
    try:
        while outcome is None:
            seat: Seat | None
            legal: Sequence[Action] | None
            if moves is not None:
                seat, legal = moves(state)
            else:
                legal = None
                if mover is not None:
                    seat = mover(state)
                else:
                    asked = pending(state)
                    if len(asked) == 1:
                        (seat,) = asked
                    else:  # several asked at once: the lowest that has an agent
                        asking = [s for s in asked if s in seats]
                        if not asking:
                            return
                        seat = min(asking)
            if seat is None or seat not in seats:  # the lowest asked seat has no agent
                asking = [s for s in pending(state) if s in seats]
                if not asking:
                    return
                seat = min(asking)
                legal = None
            if step >= due:
                if step >= limit:
                    raise DeathNoteError(f"no end after {max_actions} actions")
                # (before the agent's draw: a snapshot holds the match, not the agents)
                match._take_snapshot(step)
                snap_next = match._snap_next
                due = min(limit, snap_next)
            bits = draws[seat]
            if bits is None:
                rng = rngs.get(seat)
                if rng is None:
                    rng = rngs[seat] = make_rng(seed, seat)
                bits = draws[seat] = rng.getrandbits
            if legal is None:
                legal = legal_of(state, seat)
            n = len(legal)
            if not n:
                rngs[seat].choice(legal)  # what RandomAgent.choose raises
            # engine.rng.below, inline
            k = n.bit_length()
            r = bits(k)
            while r >= n:
                r = bits(k)
            action = legal[r]
            try:
                made = apply(state, seat, action, match_rng)
            except Exception:
                # A bug in a rule must not lose the game (as ``Match._commit``).
                start = step  # the rewound match is in order: nothing to settle below
                match.rewind(step)
                raise
            act((seat, action))
            events += made
            stepped(len(events))
            outcome = outcome_of(state)
            step += 1
    finally:
        if step != start:
            match._legal.clear()
            match._pending = None
            match._public = None
            match._outcome = outcome


def play(
    match: Match,
    agents: Sequence[Agent] | Mapping[Seat, Agent],
    seed: int | None = None,
    on_step: Callable[[Step], None] | None = None,
    max_actions: int = MAX_ACTIONS,
) -> Outcome | None:
    """Play ``match`` with ``agents`` to its end (see :class:`Table`); returns the outcome."""
    return Table(match, agents, seed).play(on_step, max_actions=max_actions)
