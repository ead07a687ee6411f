"""Adapters for reinforcement-learning research (no extra dependency needed)."""

from deathnote.interop.env import MatchEnv

__all__ = ["MatchEnv"]
