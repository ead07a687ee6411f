"""A turn-based multi-agent environment over any game, in the style of PettingZoo's AEC API.

The environment asks one seat at a time (simultaneous secret choices are asked one after
the other; the second seat's observation never shows the first one's choice, because the
Match view does not). Observations are the seat's own view, exactly what a human sees, and
the legal actions; an action is an index into that list.

>>> env = MatchEnv("confrontation")  # doctest: +SKIP
>>> obs = env.reset(seed=1)           # doctest: +SKIP
>>> while not env.done: obs = env.step(env.rng.randrange(len(obs["legal"])))  # doctest: +SKIP
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from deathnote.engine.actions import Seat
from deathnote.engine.errors import IllegalAction
from deathnote.engine.match import Match
from deathnote.engine.registry import get_game


class MatchEnv:
    """One game as an agent-environment-cycle: reset, observe, step(index), rewards."""

    def __init__(
        self, game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None
    ) -> None:
        game = get_game(game_id)
        self.game_id = game_id
        self.players = players or game.min_players
        self.options = dict(options or {})
        self.rng = random.Random(0)
        self.match: Match | None = None

    @property
    def agents(self) -> list[Seat]:
        """The seats of the game."""
        return list(range(self.players))

    def _match(self) -> Match:
        if self.match is None:
            raise IllegalAction("call reset() before using the environment")
        return self.match

    def reset(self, seed: int = 0) -> dict[str, Any]:
        """Start a new game and return the first acting seat's observation."""
        self.rng = random.Random(seed)
        self.match = Match.create(self.game_id, self.players, seed, self.options)
        return self.observe(self.agent_selection)

    @property
    def agent_selection(self) -> Seat:
        """The seat that acts next (the lowest pending seat); -1 when the game is over."""
        pending = self._match().pending()
        return min(pending) if pending else -1

    @property
    def done(self) -> bool:
        """Whether the game is over."""
        return self._match().outcome() is not None

    def observe(self, seat: Seat) -> dict[str, Any]:
        """The seat's view (with its legal actions when it is asked)."""
        return self._match().view(seat)

    def step(self, index: int) -> dict[str, Any]:
        """Play legal action number ``index`` for the acting seat; returns the next
        acting seat's observation (or the final omniscient view when the game is over)."""
        match = self._match()
        seat = self.agent_selection
        if seat < 0:
            raise IllegalAction("the game is over")
        legal = match.legal(seat)
        if not isinstance(index, int) or not 0 <= index < len(legal):
            raise IllegalAction(f"action index must be 0..{len(legal) - 1}, not {index!r}")
        match.submit(seat, legal[index])
        return match.view("omniscient") if self.done else self.observe(self.agent_selection)

    def rewards(self) -> dict[Seat, float]:
        """+1 for each winning seat, -1 for the others, 0 for all while the game runs."""
        outcome = self._match().outcome()
        if outcome is None:
            return dict.fromkeys(self.agents, 0.0)
        won = set(outcome.winning_seats)
        return {s: (1.0 if s in won else -1.0) for s in self.agents}
