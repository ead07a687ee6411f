"""placeholder"""

from deathnote.agents.base import RandomAgent as HeuristicAgent

__all__ = ["HeuristicAgent"]
