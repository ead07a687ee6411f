"""Agents (bots): they receive exactly what a human in their seat would."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from deathnote.engine.actions import Action, Seat
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.rng import below, weighted_pick

if TYPE_CHECKING:
    from deathnote.engine.game import Belief, Game
    from deathnote.engine.match import Match


class WorldSampler(Protocol):
    """Draws one world the seat cannot tell apart from the true one (``Match.sample_world``
    bound to that seat): the only way an agent reaches beyond its view."""

    def __call__(
        self, rng: random.Random, log: bool = ..., world_rng: random.Random | None = ...
    ) -> Match: ...


class _StateSampler(WorldSampler, Protocol):
    """A world sampler that also draws the same world's game and bare state alone
    (``Match.sample_state`` bound to that seat; ``Observation.state_sampler``), and gives
    the sampler of the same seat's belief-weighted worlds (``believing``)."""

    state_only: Callable[[random.Random], tuple[Game, Any]]
    believing: Callable[[int, Callable[[Any], float]], WorldSampler]


def world_sampler(match: Match, seat: Seat, belief: Belief | None = None) -> WorldSampler:
    """The sampler of the worlds ``seat`` cannot tell apart from ``match`` (a closure, so
    the agent gets no attribute that names the match); with ``belief`` (K and a
    log-weight), each world is one of K drawn, picked by the weight
    (``Game.sample_weighted_state``)."""

    def sample(
        rng: random.Random, log: bool = True, world_rng: random.Random | None = None
    ) -> Match:
        return match.sample_world(seat, rng, log, world_rng, belief)

    def state_only(rng: random.Random) -> tuple[Game, Any]:
        return match.game, match.sample_state(seat, rng, belief)

    def believing(count: int, weigh: Callable[[Any], float]) -> WorldSampler:
        return world_sampler(match, seat, (count, weigh))

    sampler = cast(_StateSampler, sample)
    sampler.state_only = state_only
    sampler.believing = believing
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

    def believing(self, count: int, weigh: Callable[[Any], float]) -> Observation:
        """The same observation whose sampled worlds are each one of ``count`` drawn from
        this seat's view, picked with odds proportional to ``exp(weigh(state))`` (a
        search's belief-weighted worlds, ``Game.sample_weighted_state``)."""
        if self._sampler is None:
            raise DeathNoteError("this observation cannot sample worlds")
        believing = getattr(self._sampler, "believing", None)
        if believing is not None:
            sampler = believing(count, weigh)
        else:
            # A sampler of whole worlds only: draw them and pick (as the game's default).
            draw = self._sampler

            def sampler(
                rng: random.Random, log: bool = True, world_rng: random.Random | None = None
            ) -> Match:
                worlds = [draw(rng, log, world_rng) for _ in range(count)]
                return weighted_pick(rng, worlds, [weigh(world.state) for world in worlds])

        return Observation(self.seat, self.legal, lambda: self.view, self.rng, sampler)

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
