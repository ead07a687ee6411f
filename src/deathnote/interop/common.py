"""What the research adapters share: observations, rewards, render modes and text."""

from __future__ import annotations

import io

import numpy as np

from deathnote.engine.actions import Outcome, Seat, Viewer
from deathnote.engine.match import Match

#: One seat's observation: its ``observation`` tensor and its ``action_mask``.
Observation = dict[str, np.ndarray]

RENDER_MODES = ["human", "ansi"]


def match_rewards(match: Match) -> dict[Seat, float]:
    """+1 for each winning seat and -1 for the others; 0 for all while the game runs or
    when nobody wins."""
    return outcome_rewards(match.outcome(), match.players)


def outcome_rewards(outcome: Outcome | None, players: int) -> dict[Seat, float]:
    """``match_rewards`` of a match with this outcome and number of players."""
    if outcome is None or not outcome.winning_seats:
        return dict.fromkeys(range(players), 0.0)
    won = set(outcome.winning_seats)
    return {s: (1.0 if s in won else -1.0) for s in range(players)}


def render_text(match: Match, viewer: Viewer, last_log: int = 8) -> str:
    """The terminal rendering of one viewer's view as plain text (no colours)."""
    from rich.console import Console

    from deathnote.cli.render import render_view

    view = match.view(viewer)
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(render_view(view, since=max(0, len(view["log"]) - last_log)))
    return console.export_text()


def render_in_mode(mode: str | None, match: Match, viewer: Viewer) -> str | None:
    """``render()`` of the adapters: the viewer's text returned ("ansi") or printed
    ("human"); without a mode, Gymnasium's warning and nothing drawn."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() was called without a render_mode; nothing drawn")
        return None
    text = render_text(match, viewer)
    if mode == "human":
        print(text)
        return None
    return text
