"""Heuristic bot for Death Note Werewolf (placeholder: random until written)."""

from __future__ import annotations

from deathnote.agents.base import Agent, Observation
from deathnote.engine.actions import Action


class HeuristicAgent(Agent):
    """Deduces from its own view only."""

    name = "heuristic"

    def choose(self, obs: Observation) -> Action:
        """A legal action."""
        return obs.rng.choice(obs.legal)
