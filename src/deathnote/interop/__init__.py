"""Adapters for research libraries (the ``rl`` extra: ``pip install deathnote[rl]``).

- ``deathnote.interop.pettingzoo``: ``env(game_id, players)`` (AEC) and ``parallel_env``.
- ``deathnote.interop.gymnasium``: one seat against bots, ``deathnote/<Game>-v0``.
- ``deathnote.interop.openspiel``: OpenSpiel Python games ``deathnote_<id>``.

``MatchEnv`` is the PettingZoo AEC environment under its old name (no second API). The
adapters are imported on first use, so ``import deathnote.interop`` works without the
extra.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MatchEnv"]


def __getattr__(name: str) -> Any:
    if name == "MatchEnv":
        from deathnote.interop.pettingzoo import DeathNoteAECEnv

        return DeathNoteAECEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
