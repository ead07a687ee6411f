"""Agents (bots): they receive exactly what a human in their seat would."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from deathnote.engine.actions import Action, Seat
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.rng import below

if TYPE_CHECKING:
    from deathnote.engine.game import Game
    from deathnote.engine.match import Match


class WorldSampler(Protocol):
    """Draws one world the seat cannot tell apart from the true one (``Match.sample_world``
    bound to that seat): the only way an agent reaches beyond its view."""

    def __call__(
        self, rng: random.Random, log: bool = ..., world_rng: random.Random | None = ...
    ) -> Match: ...


class _StateSampler(WorldSampler, Protocol):
    """A world sampler that also draws the same world's game and bare state alone
    (``Match.sample_state`` bound to that seat; ``Observation.state_sampler``)."""

    state_only: Callable[[random.Random], tuple[Game, Any]]


def world_sampler(match: Match, seat: Seat) -> WorldSampler:
    """The sampler of the worlds ``seat`` cannot tell apart from ``match`` (a closure, so
    the agent gets no attribute that names the match)."""

    def sample(
        rng: random.Random, log: bool = True, world_rng: random.Random | None = None
    ) -> Match:
        return match.sample_world(seat, rng, log, world_rng)

    def state_only(rng: random.Random) -> tuple[Game, Any]:
        return match.game, match.sample_state(seat, rng)

    return with_states(sample, state_only)


def with_states(
    sample: Callable[[random.Random, bool, random.Random | None], Match],
    state_only: Callable[[random.Random], tuple[Game, Any]],
) -> WorldSampler:
    """The world sampler ``sample`` that also draws a world's game and bare state alone
    with ``state_only`` (the same state and the same draws from the generator as
    ``sample``'s world: ``Observation.state_sampler``)."""
    sampler = cast(_StateSampler, sample)
    sampler.state_only = state_only
    return sampler


class Observation:
    """What a seat has when it must decide: its view (built lazily), legal actions, rng,
    and for search bots a sampler of the worlds this seat cannot tell apart.

    Nothing here leads to the true match: the view is what a person in the seat sees, and
    the sampler hands out only sampled worlds (fresh copies with everything hidden from the
    seat redrawn, no record, no true seed), so playing on them changes nothing real.
    """

    __slots__ = ("_sampler", "_view", "_view_fn", "legal", "rng", "seat")

    def __init__(
        self,
        seat: Seat,
        legal: Sequence[Action],
        view_fn: Callable[[], dict[str, Any]],
        rng: random.Random,
        sampler: WorldSampler | None = None,
    ) -> None:
        self.seat = seat
        self.legal = legal
        self.rng = rng
        self._view_fn = view_fn
        self._view: dict[str, Any] | None = None
        self._sampler = sampler

    @property
    def can_sample(self) -> bool:
        """Whether this observation carries a world sampler."""
        return self._sampler is not None

    def sample_world(
        self, rng: random.Random, log: bool = True, world_rng: random.Random | None = None
    ) -> Match:
        """One world drawn from ``rng`` among those this seat cannot rule out (``log`` and
        ``world_rng``: see ``Match.sample_world``)."""
        if self._sampler is None:
            raise DeathNoteError("this observation cannot sample worlds")
        if world_rng is None:
            return self._sampler(rng, log)
        return self._sampler(rng, log, world_rng)

    @property
    def state_sampler(self) -> Callable[[random.Random], tuple[Game, Any]] | None:
        """Draws the game and the state of one world from ``rng`` as ``sample_world`` draws
        it (the same state, the same draws), without the Match around it: for a search that
        plays on the bare state with a generator of its own (``sample_world``'s
        ``world_rng``). None where this observation's sampler offers none."""
        return getattr(self._sampler, "state_only", None)

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view, as ``Match.view(seat)`` returns it."""
        if self._view is None:
            self._view = self._view_fn()
        return self._view


class Agent:
    """A bot for one seat. Subclasses override ``choose``."""

    name = "agent"

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def choose(self, obs: Observation) -> Action:
        """Pick one of ``obs.legal``."""
        raise NotImplementedError

    def memory(self) -> Any:
        """What this bot carries from one move to the next (picklable; None: nothing), for
        a bot made afresh for every move, as in the server's worker processes."""
        return None

    def recall(self, memory: Any) -> None:
        """Take back what ``memory()`` gave after an earlier move of the same game."""


class RandomAgent(Agent):
    """Uniformly random among the legal actions; never looks at the view."""

    name = "random"

    def choose(self, obs: Observation) -> Action:
        """A uniformly random legal action: exactly ``obs.rng.choice(obs.legal)``."""
        rng = obs.rng
        legal = obs.legal
        n = len(legal)
        if type(rng) is not random.Random or not n:
            return rng.choice(legal)
        # The engine's draw (engine.rng.below), which is what Random.choice draws.
        return legal[below(rng, n)]
