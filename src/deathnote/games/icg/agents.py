"""Bots for the Investigation Card Game (placeholder until the heuristic lands)."""

from __future__ import annotations

from deathnote.agents.base import RandomAgent


class HeuristicAgent(RandomAgent):
    """Temporary: plays at random."""

    name = "heuristic"
