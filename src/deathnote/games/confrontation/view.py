"""What each viewer may see of a game of Confrontation.

The view dict (``Match.view(viewer)["state"]``) is stable; the browser board renders it.
Every viewer gets the public part; a seat adds its own notebook. It is built by listing
what the viewer may see, never by deleting secrets from the state.

Public part (every viewer)::

    chapter            1 | 2
    day                the current day (round), from 1
    phase              "day" | "accuse" | "chase" | "switch" | "apples" | "stars" | "dice"
                       | "news" | "kill" | "over"
    phase_name         the phase as players call it ("Day: the Chase", "Game over", ...)
    target_points      15 (Chapter 1) or 20 (Chapter 2)
    regional_limit     2 or 3
    quiet_nights       Quiet Nights so far
    quiet_allowed      Quiet Nights L can afford (the next one beyond this is the cold case)
    kira_points        Kira's points (every point is announced at the table)
    kira_points_by_type {"knife": n, "gun": n, "bomb": n} points per crime type
    map                {"width", "height",
                        "criminals": [{"number", "type", "x", "y", "killed"}],
                        "suspects": [{"letter", "x", "y"}]}
    crime_types        {"knife": {"name": "Stabber", "points": 1, "glyph": "K"}, ...}
    elimination_names  {"card": "Suspect card", ...}: the notebook's reasons in words
    lead               None or {"number", "A": {"type", "points", "apples"}, "B": {...}}
    leads_left         cards left in the Lead deck
    chase              {"chosen": {"kira": bool, "l": bool},      # has each side chosen
                        "revealed": None | {"kira": "A"|"B", "l": "A"|"B"}}
    dice               [face, face, face] tonight (empty by day)
    news               [criminal numbers picked so far tonight]
    news_faces_left    faces still to fill ("knife" | "gun" | "bomb" | "any")
    kills              [criminal numbers killed on the Map, in order]
    last_day           None, or the tiny variant's horizon: after this day L must accuse
    history            [{"day", "news": [numbers], "killed": number | None}] (None: Quiet Night)
    suspect_cards_drawn  how many Suspect cards L has drawn
    suspect_cards_left   how many are left in the Suspect deck
    identity           None while the game runs; Kira's Suspect letter once it is over
    notebook           the viewer's own notebook (below), or None for a spectator

L's notebook (seat 1)::

    {"role": "l",
     "suspects": [{"letter", "status": "remaining" | "eliminated",
                   "reason": None | "card" | "regional" | "quiet",
                   "outside_kills": n}],        # X's outside that Suspect's Search Grid
     "remaining": [letters], "cards": [letters drawn, in order],
     "my_choice": None | "A" | "B",
     "intel": {"rows": [{"ability", "label", "text", "cost", "filled", "complete", "used"}],
               "to_place": n}}                  # Chapter 2 only (else None)

Kira's notebook (seat 0)::

    {"role": "kira", "identity": letter, "home": {"x", "y"},
     "local_area": {"x0", "y0", "x1", "y1"},   # inclusive squares of the 5x5 grid
     "local_criminals": [numbers], "regional_kills": [numbers],
     "regional_used": n, "regional_left": n,
     "points_by_type": {...}, "chase_points": n, "ryuk_points": n,
     "my_choice": None | "A" | "B",
     "ryuk": {"rows": [...as intel...], "to_place": n}}  # Chapter 2 only (else None)

The omniscient viewer gets both notebooks as ``notebooks: {"kira": ..., "l": ...}``; after
the game ends every viewer gets ``identity`` and the omniscient notebooks (the table turns
its cards over).
"""

from __future__ import annotations

from typing import Any

from deathnote.engine.actions import OMNISCIENT, Viewer
from deathnote.games.confrontation.content import LOCAL_RADIUS
from deathnote.games.confrontation.rules import (
    ABILITY_LABELS,
    ABILITY_TEXTS,
    QUIET_NIGHTS_ALLOWED,
    REGIONAL_LIMIT,
    TARGET_POINTS,
    remaining,
)
from deathnote.games.confrontation.state import KIRA, NO_CHOICE, OVER, SIDES, ConfState, L

# Our own short summary of the rules, for a screen's rules panel (player-facing words).
RULES_SUMMARY = (
    "Two players: Kira, hidden among the lettered Suspects on the Map, and L, who hunts him.",
    "Day: L reveals a Lead card with two crime scenes, A and B. Kira and L each choose A "
    "or B in secret, then both are shown.",
    "Different scenes: Kira wins the Chase and scores the criminal at his scene (and its "
    "Apples in Chapter 2). Same scene: L wins the Chase and draws a Suspect card, "
    "clearing that Suspect.",
    "Night: three dice are rolled; L names three criminals of those types for the Nightly"
    " News, and Kira must kill one of them.",
    "Kills inside the 5x5 Local Area around Kira's Home are unlimited; only two (three in"
    " Chapter 2) may be outside it. With none left and all three outside, it is a Quiet "
    "Night.",
    "Kira wins at 15 points (20 in Chapter 2), or when there are more Quiet Nights than L"
    " can afford.",
    "L wins by naming Kira once every other Suspect is cleared; a wrong name loses. The "
    "notebook clears Suspects for L from the kills and Quiet Nights.",
)

#: Why a Suspect was eliminated, as players call it (the notebook's reasons).
ELIMINATION_NAMES = {"card": "Suspect card", "regional": "Regional kill", "quiet": "Quiet Night"}
#: The letter a crime type is drawn with on the Map (its legend names the type).
CRIME_GLYPHS = {"knife": "K", "gun": "G", "bomb": "B"}

#: The phases as players call them (the browser's board shows these words).
PHASE_NAMES = {
    "day": "Day: a Lead card",
    "accuse": "Day: L's accusation",
    "chase": "Day: the Chase",
    "switch": "Day: Last Minute A/B Switch",
    "apples": "Day: Ryuk's Apples",
    "stars": "Day: L's Stars",
    "dice": "Night: the dice",
    "news": "Night: the Nightly News",
    "kill": "Night: Kira's kill",
    "over": "Game over",
}


def build_view(state: ConfState, viewer: Viewer) -> dict[str, Any]:
    """The view of ``viewer`` (a seat, "spectator" or "omniscient")."""
    t = state.tables
    over = state.phase == OVER
    lead = None
    if state.lead >= 0:
        (ta, aa), (tb, ab) = t.leads[state.lead]
        lead = {
            "number": t.lead_numbers[state.lead],
            "A": {"type": ta, "points": t.points[ta], "apples": aa},
            "B": {"type": tb, "points": t.points[tb], "apples": ab},
        }
    both = state.chase[KIRA] != NO_CHOICE and state.chase[L] != NO_CHOICE
    out: dict[str, Any] = {
        "chapter": t.chapter,
        "day": state.day,
        "phase": state.phase,
        "phase_name": PHASE_NAMES.get(state.phase, state.phase),
        "elimination_names": dict(ELIMINATION_NAMES),
        "target_points": TARGET_POINTS[t.chapter],
        "regional_limit": REGIONAL_LIMIT[t.chapter],
        "quiet_nights": state.quiet_nights,
        "quiet_allowed": state.quiet_allowed,
        "kira_points": state.points,
        "kira_points_by_type": dict(state.points_by_type),
        "map": {
            "width": t.width,
            "height": t.height,
            "criminals": [
                {
                    "number": t.numbers[c],
                    "type": t.crime_type[c],
                    "x": t.crime_cell[c][0],
                    "y": t.crime_cell[c][1],
                    "killed": not state.alive[c],
                }
                for c in range(len(t.numbers))
            ],
            "suspects": [
                {"letter": t.letters[s], "x": t.homes[s][0], "y": t.homes[s][1]}
                for s in range(len(t.letters))
            ],
        },
        "crime_types": {
            k: {
                "name": t.type_names[k],
                "points": t.points[k],
                "glyph": CRIME_GLYPHS.get(k, t.type_names[k][:1]),
            }
            for k in t.points
        },
        "lead": lead,
        "leads_left": len(state.lead_deck),
        "chase": {
            "chosen": {"kira": state.chase[KIRA] != NO_CHOICE, "l": state.chase[L] != NO_CHOICE},
            "revealed": (
                {"kira": SIDES[state.chase[KIRA]], "l": SIDES[state.chase[L]]} if both else None
            ),
        },
        "dice": list(state.dice),
        "news": [t.numbers[c] for c in state.news],
        "news_faces_left": list(state.faces_left),
        "kills": [t.numbers[c] for c in state.kills],
        "last_day": t.days or None,
        "history": [
            {"day": h["day"], "news": list(h["news"]), "killed": h["killed"]}  # type: ignore[call-overload]
            for h in state.history
        ],
        "suspect_cards_drawn": len(state.cards_drawn),
        "suspect_cards_left": len(state.suspect_deck),
        "identity": t.letters[state.identity] if over else None,
        "notebook": None,
    }
    if viewer == KIRA:
        out["notebook"] = kira_notebook(state)
    elif viewer == L:
        out["notebook"] = l_notebook(state)
    if viewer == OMNISCIENT or over:
        out["identity"] = t.letters[state.identity]
        out["notebooks"] = {"kira": kira_notebook(state), "l": l_notebook(state)}
    return out


def _rows(
    rows: tuple[tuple[str, int], ...], filled: list[int], used: list[bool]
) -> list[dict[str, Any]]:
    return [
        {
            "ability": ability,
            "label": ABILITY_LABELS[ability],
            "text": ABILITY_TEXTS[ability],
            "cost": cost,
            "filled": filled[i],
            "complete": filled[i] >= cost,
            "used": used[i],
        }
        for i, (ability, cost) in enumerate(rows)
    ]


def kira_notebook(state: ConfState) -> dict[str, Any]:
    """Kira's private notebook: his identity, Home, Local Area, kills and Ryuk tracker."""
    t = state.tables
    me = state.identity
    hx, hy = t.homes[me]
    bit = 1 << me
    return {
        "role": "kira",
        "identity": t.letters[me],
        "home": {"x": hx, "y": hy},
        "local_area": {
            "x0": max(0, hx - LOCAL_RADIUS),
            "y0": max(0, hy - LOCAL_RADIUS),
            "x1": min(t.width - 1, hx + LOCAL_RADIUS),
            "y1": min(t.height - 1, hy + LOCAL_RADIUS),
        },
        "local_criminals": [t.numbers[c] for c in t.local_criminals[me]],
        "regional_kills": [t.numbers[c] for c in state.kills if not t.local_mask[c] & bit],
        "regional_used": state.regional_used,
        "regional_left": REGIONAL_LIMIT[t.chapter] - state.regional_used,
        "points_by_type": dict(state.points_by_type),
        "chase_points": state.chase_points,
        "ryuk_points": state.ryuk_points,
        "my_choice": SIDES[state.chase[KIRA]] if state.chase[KIRA] != NO_CHOICE else None,
        "ryuk": (
            {
                "rows": _rows(t.ryuk_rows, state.apples, state.ryuk_used),
                "to_place": state.apples_to_place,
            }
            if t.chapter == 2
            else None
        ),
    }


def l_notebook(state: ConfState) -> dict[str, Any]:
    """L's private notebook: every Suspect's status and reason, his cards and Intel tracker."""
    t = state.tables
    return {
        "role": "l",
        "suspects": [
            {
                "letter": t.letters[s],
                "status": "eliminated" if s in state.eliminated else "remaining",
                "reason": state.eliminated.get(s),
                "outside_kills": state.outside[s],
            }
            for s in range(len(t.letters))
        ],
        "remaining": [t.letters[s] for s in remaining(state)],
        "cards": [t.letters[s] for s in state.cards_drawn],
        "my_choice": SIDES[state.chase[L]] if state.chase[L] != NO_CHOICE else None,
        "intel": (
            {
                "rows": _rows(t.intel_rows, state.stars, state.intel_used),
                "to_place": state.stars_to_place,
            }
            if t.chapter == 2
            else None
        ),
    }


__all__ = ["QUIET_NIGHTS_ALLOWED", "build_view", "kira_notebook", "l_notebook"]
