"""The heuristic bot for Confrontation (either side); it reads only obs.view/legal/rng."""

from __future__ import annotations

from deathnote.agents.base import Agent, Observation
from deathnote.engine.actions import Action


class HeuristicAgent(Agent):
    """Placeholder heuristic: the first legal action."""

    name = "heuristic"

    def choose(self, obs: Observation) -> Action:
        """Pick an action."""
        return obs.legal[0]
