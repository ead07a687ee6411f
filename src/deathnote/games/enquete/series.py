"""A series of games scored by Apples (ENQ-OPT-02, ENQ-OPT-03): the length, the totals, the
series' winner and the options of the next game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .flow import name
from .state import EnqState

#: The longest series the options allow.
MAX_SERIES = 16


def series_length(options: Mapping[str, Any], players: int) -> int:
    """The games of the series: the option, or one per player (each the Detective once)."""
    games = options.get("series_games")
    return int(games) if games is not None else players


def carried(st: EnqState) -> list[int]:
    """The Apples each seat brought from the earlier games of the series."""
    return list(st.options.get("series_apples") or [0] * st.players)


def series_totals(st: EnqState) -> list[int]:
    """Each seat's Apples over the series, this game included (once it is over)."""
    return [a + b for a, b in zip(carried(st), st.apples, strict=True)]


def series_winners(st: EnqState) -> list[int]:
    """The seats with the most Apples after the series' last game (a tie shares it)."""
    totals = series_totals(st)
    best = max(totals)
    return [s for s, t in enumerate(totals) if t == best]


def is_last(st: EnqState) -> bool:
    """Whether this game ends the series."""
    return int(st.options.get("series_game", 1)) >= series_length(st.options, st.players)


def series_facts(st: EnqState) -> dict[str, Any] | None:
    """The series as every seat sees it: which game of how many, the Apples carried, and
    once the last game is over its winners; None for a single game."""
    games = series_length(st.options, st.players)
    if games <= 1:
        return None
    out: dict[str, Any] = {
        "game": int(st.options.get("series_game", 1)),
        "games": games,
        "carried": carried(st),
        "over": bool(st.over and is_last(st)),
    }
    if out["over"]:
        out["winners"] = series_winners(st)
    return out


def series_lines(st: EnqState) -> list[str]:
    """What the table is told about the series at the end of a game."""
    facts = series_facts(st)
    if facts is None:
        return []
    if facts["over"]:
        winners = facts["winners"]
        best = series_totals(st)[winners[0]]
        who = " and ".join(name(s) for s in winners)
        verb = "wins" if len(winners) == 1 else "share"
        return [
            f"The series of {facts['games']} games is over: {who} {verb} it with {best} Apple"
            f"{'s' * (best != 1)}."
        ]
    return [
        f"Game {facts['game']} of {facts['games']} of the series is over; the next one follows."
    ]


def next_options(st: EnqState) -> dict[str, Any] | None:
    """The options of the series' next game: the Apples carried on, the Detective passed on
    clockwise from this game's; None after the last game or a single one."""
    if not st.over or is_last(st):
        return None
    detective = next(i for i, s in enumerate(st.seats) if s.role == "detective")
    return {
        **st.options,
        "series_games": series_length(st.options, st.players),
        "series_game": int(st.options.get("series_game", 1)) + 1,
        "series_apples": series_totals(st),
        "detective_seat": (detective + 1) % st.players,
    }
