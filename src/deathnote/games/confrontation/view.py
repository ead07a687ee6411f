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

from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Viewer
from deathnote.games.confrontation.content import LOCAL_RADIUS, Tables
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


#: Per content (``Tables``, by id, held so the id stays its own): the view's parts made
#: from the content alone. Kept apart from the tables, which the state reaches: a shared
#: view shares nothing with the match.
_PARTS: dict[int, tuple[Tables, dict[str, Any]]] = {}


def _content_parts(t: Tables) -> dict[str, Any]:
    """The parts of every view made from the content alone, made once per content and
    shared by every shared view (``shared_view``): never handed out or changed. Each
    criminal's Map entry is made twice, alive and killed; each Lead card, Suspect's Home
    and Local Area once; the lines of L's notebook and the Chase's states (a few hundred
    at most) as they are first needed, and the Map and L's list of Suspects as they are
    first seen (a bounded memo: equal ones are then the same object, which a patch skips
    without comparing them)."""
    found = _PARTS.get(id(t))
    if found is None or found[0] is not t:
        if len(_PARTS) >= 64:
            _PARTS.clear()
        parts = {
            "elimination_names": dict(ELIMINATION_NAMES),
            "crime_types": _crime_types(t),
            "suspects": _suspects(t),
            "criminals": tuple(
                (_criminal(t, c, False), _criminal(t, c, True)) for c in range(len(t.numbers))
            ),
            "homes": tuple(_home(t, s) for s in range(len(t.letters))),
            "leads": tuple(_lead(t, n) for n in range(len(t.leads))),
            "chases": {},
            "suspect_lines": {},
            "maps": {},
            "suspect_lists": {},
        }
        found = _PARTS[id(t)] = (t, parts)
    return found[1]


def _criminal(t: Tables, c: int, killed: bool) -> dict[str, Any]:
    return {
        "number": t.numbers[c],
        "type": t.crime_type[c],
        "x": t.crime_cell[c][0],
        "y": t.crime_cell[c][1],
        "killed": killed,
    }


def _lead(t: Tables, n: int) -> dict[str, Any]:
    (ta, aa), (tb, ab) = t.leads[n]
    return {
        "number": t.lead_numbers[n],
        "A": {"type": ta, "points": t.points[ta], "apples": aa},
        "B": {"type": tb, "points": t.points[tb], "apples": ab},
    }


def _suspects(t: Tables) -> list[dict[str, Any]]:
    return [
        {"letter": t.letters[s], "x": t.homes[s][0], "y": t.homes[s][1]}
        for s in range(len(t.letters))
    ]


def _crime_types(t: Tables) -> dict[str, Any]:
    return {
        k: {
            "name": t.type_names[k],
            "points": t.points[k],
            "glyph": CRIME_GLYPHS.get(k, t.type_names[k][:1]),
        }
        for k in t.points
    }


def shared_view(
    state: ConfState, viewer: Viewer, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``build_view``'s view (equal, the same JSON) whose Map, crime types and
    elimination names are the per-content parts, shared with every other shared view and
    never with the state: for the match to keep and diff (the base of state patches),
    never to hand out or change. A patch against an earlier one compares those parts by
    identity, and no JSON is encoded or decoded to keep it.

    ``public``: this state's ``public_view`` (built once for every viewer): a seat's view
    is then that table with the seat's own notebook, the spectator's the table itself."""
    if public is None or viewer == OMNISCIENT:
        return build_view(state, viewer, shared=True)
    if viewer == KIRA:
        notebook = kira_notebook(state, _content_parts(state.tables))
    elif viewer == L:
        notebook = l_notebook(state, _content_parts(state.tables))
    else:
        return public
    out = dict(public)  # the same fields in the same order: the notebook keeps its place
    out["notebook"] = notebook
    return out


def public_view(state: ConfState) -> dict[str, Any]:
    """What every seat and the spectator see alike: the spectator's shared view (no
    notebook; once the game is over, the identity and both notebooks, as every viewer)."""
    return build_view(state, SPECTATOR, shared=True)


def build_view(state: ConfState, viewer: Viewer, shared: bool = False) -> dict[str, Any]:
    """The view of ``viewer`` (a seat, "spectator" or "omniscient"): fresh lists and
    dicts throughout (``shared``: see ``shared_view``)."""
    t = state.tables
    over = state.phase == OVER
    parts = _content_parts(t) if shared else None
    lead = None
    if state.lead >= 0:
        lead = parts["leads"][state.lead] if parts else _lead(t, state.lead)
    kira, l_side = state.chase[KIRA], state.chase[L]
    chase = parts["chases"].get((kira, l_side)) if parts else None
    if chase is None:
        both = kira != NO_CHOICE and l_side != NO_CHOICE
        chase = {
            "chosen": {"kira": kira != NO_CHOICE, "l": l_side != NO_CHOICE},
            "revealed": {"kira": SIDES[kira], "l": SIDES[l_side]} if both else None,
        }
        if parts:
            parts["chases"][kira, l_side] = chase
    out: dict[str, Any] = {
        "chapter": t.chapter,
        "day": state.day,
        "phase": state.phase,
        "phase_name": PHASE_NAMES.get(state.phase, state.phase),
        "elimination_names": parts["elimination_names"] if parts else dict(ELIMINATION_NAMES),
        "target_points": TARGET_POINTS[t.chapter],
        "regional_limit": REGIONAL_LIMIT[t.chapter],
        "quiet_nights": state.quiet_nights,
        "quiet_allowed": state.quiet_allowed,
        "kira_points": state.points,
        "kira_points_by_type": dict(state.points_by_type),
        "map": _shared_map(parts, t, state.alive)
        if parts
        else {
            "width": t.width,
            "height": t.height,
            "criminals": [_criminal(t, c, not state.alive[c]) for c in range(len(t.numbers))],
            "suspects": _suspects(t),
        },
        "crime_types": parts["crime_types"] if parts else _crime_types(t),
        "lead": lead,
        "leads_left": len(state.lead_deck),
        "chase": chase,
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
        out["notebook"] = kira_notebook(state, parts)
    elif viewer == L:
        out["notebook"] = l_notebook(state, parts)
    if viewer == OMNISCIENT or over:
        out["identity"] = t.letters[state.identity]
        out["notebooks"] = {"kira": kira_notebook(state, parts), "l": l_notebook(state, parts)}
    return out


#: How many Maps and lists of Suspects a content's memo holds before it starts afresh.
MEMO_SIZE = 1024


def _memo(parts: dict[str, Any], name: str) -> dict[Any, Any]:
    """One of the content's bounded memos, emptied when full."""
    memo: dict[Any, Any] = parts[name]
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    return memo


def _shared_map(parts: dict[str, Any], t: Tables, alive: list[bool]) -> dict[str, Any]:
    """The Map of a shared view: one object per content and set of living criminals."""
    key = tuple(alive)
    memo = _memo(parts, "maps")
    found = memo.get(key)
    if found is None:
        found = memo[key] = {
            "width": t.width,
            "height": t.height,
            "criminals": [
                entry[not living] for entry, living in zip(parts["criminals"], key, strict=True)
            ],
            "suspects": parts["suspects"],
        }
    return found


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


def _home(t: Tables, me: int) -> dict[str, Any]:
    """A Suspect's Home, Local Area and the criminals in it (the content's alone)."""
    hx, hy = t.homes[me]
    return {
        "home": {"x": hx, "y": hy},
        "local_area": {
            "x0": max(0, hx - LOCAL_RADIUS),
            "y0": max(0, hy - LOCAL_RADIUS),
            "x1": min(t.width - 1, hx + LOCAL_RADIUS),
            "y1": min(t.height - 1, hy + LOCAL_RADIUS),
        },
        "local_criminals": [t.numbers[c] for c in t.local_criminals[me]],
    }


def kira_notebook(state: ConfState, parts: dict[str, Any] | None = None) -> dict[str, Any]:
    """Kira's private notebook: his identity, Home, Local Area, kills and Ryuk tracker
    (``parts``: a shared view's, ``_content_parts``)."""
    t = state.tables
    me = state.identity
    bit = 1 << me
    return {
        "role": "kira",
        "identity": t.letters[me],
        **(parts["homes"][me] if parts else _home(t, me)),
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


def _suspect(t: Tables, s: int, reason: str | None, outside: int) -> dict[str, Any]:
    return {
        "letter": t.letters[s],
        "status": "eliminated" if reason is not None else "remaining",
        "reason": reason,
        "outside_kills": outside,
    }


def _shared_suspect(
    parts: dict[str, Any], t: Tables, s: int, reason: str | None, outside: int
) -> Any:
    """A Suspect's line of L's notebook, made once per content and line (a few hundred at
    most: Suspects, reasons and counts of kills outside its Search Grid)."""
    key = (s, reason, outside)
    entries = parts["suspect_lines"]
    entry = entries.get(key)
    if entry is None:
        entry = entries[key] = _suspect(t, s, reason, outside)
    return entry


def _shared_suspects(
    parts: dict[str, Any], t: Tables, eliminated: dict[int, str], outside: list[int]
) -> Any:
    """L's list of Suspects in a shared view: one object per content, eliminations and
    counts of outside kills."""
    key = (tuple(sorted(eliminated.items())), tuple(outside))
    memo = _memo(parts, "suspect_lists")
    found = memo.get(key)
    if found is None:
        found = memo[key] = [
            _shared_suspect(parts, t, s, eliminated.get(s), outside[s])
            for s in range(len(t.letters))
        ]
    return found


def l_notebook(state: ConfState, parts: dict[str, Any] | None = None) -> dict[str, Any]:
    """L's private notebook: every Suspect's status and reason, his cards and Intel tracker
    (``parts``: a shared view's, ``_content_parts``)."""
    t = state.tables
    eliminated, outside = state.eliminated, state.outside
    return {
        "role": "l",
        "suspects": _shared_suspects(parts, t, eliminated, outside)
        if parts
        else [_suspect(t, s, eliminated.get(s), outside[s]) for s in range(len(t.letters))],
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
