"""The observation vector of one viewer, encoded from that viewer's view alone.

Layout (documented in docs/rules/icg.md, ICG-OBS-01); N is the number of players, there are
always 8 Identities, 4 Missions and 12 Clues (the content check makes sure of it).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Viewer

from . import rules
from .content import IDENTITY_COUNT, MISSION_IDS
from .state import IcgState

PHASES = (
    "investigate",
    "cover",
    "return",
    "reveal",
    "eyes",
    "announce",
    "arrest",
    "dn_identity",
    "dn_placement",
    "over",
)
CLUES = IDENTITY_COUNT + len(MISSION_IDS)
#: Per seat: out, Mission (4), Identity (8), eyes open, covered (12), on the table (12),
#: hand size, investigations received, still to investigate, chased, last claim (8),
#: Death Note misses (8).
SEAT = 1 + 4 + IDENTITY_COUNT + 1 + CLUES + CLUES + 1 + 1 + 1 + 1 + IDENTITY_COUNT + IDENTITY_COUNT


def header(players: int) -> int:
    """Length of the part before the per-seat rows."""
    return (
        (players + 2)  # viewer: a seat, the spectator, the omniscient viewer
        + IDENTITY_COUNT
        + len(MISSION_IDS)  # the viewer's own cards
        + 1  # the viewer is asked now
        + len(PHASES)
        + 1  # turn / turn limit
        + 2  # Kira rules, Shinigami Eyes
        + 2  # the box: X-Kiras / 6, Team Members / 6
        + 3 * players  # red, investigator, investigated
        + 2  # investigation type (Kira rules)
        + CLUES  # the viewer's Clues picked so far
        + IDENTITY_COUNT  # Kira's own Death Note Identity (Placement step)
    )


@cache
def size(players: int) -> int:
    """Length of the whole vector."""
    return header(players) + players * SEAT


def encode(view: dict[str, Any], viewer: Viewer, asked: bool) -> np.ndarray:
    """The vector of ``view`` (the game part of ``viewer``'s view)."""
    seats = view["seats"]
    n = len(seats)
    out = np.zeros(size(n), dtype=np.float32)
    ident = {c["id"]: k for k, c in enumerate(view["identities"])}
    clue = {c: k for k, c in enumerate(view["clues"])}
    mission = {m: k for k, m in enumerate(MISSION_IDS)}
    at = 0

    def one(index: int | None, width: int) -> None:
        nonlocal at
        if index is not None:
            out[at + index] = 1.0
        at += width

    def value(x: float) -> None:
        nonlocal at
        out[at] = x
        at += 1

    def many(indices: list[int], width: int) -> None:
        nonlocal at
        for k in indices:
            out[at + k] = 1.0
        at += width

    me = view.get("me")
    if viewer == SPECTATOR:
        one(n, n + 2)
    elif viewer == OMNISCIENT:
        one(n + 1, n + 2)
    else:
        one(int(viewer), n + 2)
    one(ident[me["identity"]] if me else None, IDENTITY_COUNT)
    one(mission[me["mission"]] if me else None, len(MISSION_IDS))
    value(1.0 if asked else 0.0)
    one(PHASES.index(view["phase"]), len(PHASES))
    value(view["turn"] / view["turn_limit"])
    value(1.0 if view["rules"] == "kira" else 0.0)
    value(1.0 if view["shinigami_eyes"] else 0.0)
    value(view["mission_box"]["x_kira"] / 6)
    value(view["mission_box"]["team_member"] / 6)
    one(view["red"], n)
    one(view["current"], n)
    one(view["target"], n)
    one({"identity": 0, "mission": 1}.get(view["type"] or ""), 2)
    many([clue[c] for c in (me["picks"] if me else [])], CLUES)
    own_dn = me.get("death_note") if me else None
    one(ident[own_dn] if own_dn else None, IDENTITY_COUNT)
    looks = {int(k): v for k, v in me["looks"].items()} if me else {}
    received = [0] * n
    for h in view["history"]:
        received[h["seat"]] += 1
    claims: dict[int, str] = {}
    for c in view["claims"]:
        claims[c["seat"]] = c["identity"]
    misses: dict[int, list[int]] = {}
    for d in view["death_notes"]:
        if d["seat"] is not None and not d["hit"]:
            misses.setdefault(d["seat"], []).append(ident[d["identity"]])
    for s, row in enumerate(seats):
        known = row["identity"]
        if me and s == me["seat"]:
            known = me["identity"]
        known = known or looks.get(s)
        value(1.0 if row["out"] else 0.0)
        one(mission[row["mission"]] if row["mission"] else None, len(MISSION_IDS))
        one(ident[known] if known else None, IDENTITY_COUNT)
        value(1.0 if row["eyes"] else 0.0)
        many([clue[c] for c in row.get("covered", [])], CLUES)
        many([clue[c] for c in row.get("table", [])], CLUES)
        value(row.get("hand_size", 0) / CLUES)
        value(received[s] / 10)
        value(1.0 if s in view["to_investigate"] else 0.0)
        value(1.0 if s in view["chased"] else 0.0)
        one(ident[claims[s]] if s in claims else None, IDENTITY_COUNT)
        many(misses.get(s, []), IDENTITY_COUNT)
    assert at == len(out)
    return out


_PHASE = {phase: k for k, phase in enumerate(PHASES)}
#: offsets within a seat's row (its layout: ``SEAT``)
_AT_MISSION = 1
_AT_IDENTITY = _AT_MISSION + len(MISSION_IDS)
_AT_EYES = _AT_IDENTITY + IDENTITY_COUNT
_AT_COVERED = _AT_EYES + 1
_AT_TABLE = _AT_COVERED + CLUES
_AT_HAND = _AT_TABLE + CLUES
_AT_CLAIM = _AT_HAND + 4
_AT_MISSES = _AT_CLAIM + IDENTITY_COUNT
assert _AT_MISSES + IDENTITY_COUNT == SEAT
_MISSION = {m: k for k, m in enumerate(MISSION_IDS)}
_TYPE = {"identity": 0, "mission": 1}
#: per content (by id, the content kept alive): its Identity numbers
_IDENT: dict[int, tuple[Any, dict[str, int]]] = {}
#: per set of Clue ids (in their printed order): each one's number
_CLUE: dict[tuple[str, ...], dict[str, int]] = {}


def _identities(content: dict[str, Any]) -> dict[str, int]:
    hit = _IDENT.get(id(content))
    if hit is None or hit[0] is not content:
        if len(_IDENT) > 64:
            _IDENT.clear()
        numbers = {c["id"]: k for k, c in enumerate(content["identities"])}
        hit = _IDENT[id(content)] = (content, numbers)
    return hit[1]


def encode_state(st: IcgState, viewer: Viewer, asked: bool) -> np.ndarray:
    """``encode(view, viewer, asked)`` read from the state without building the view (the
    learning adapters ask for it at every step). It reads only what ``Game.view`` shows
    this viewer, by the view's own rules (a Mission once revealed, an Identity at the end
    or once killed, the viewer's own cards and looks); a test checks it equals the view's
    vector for every viewer at every step of random games."""
    n = st.players
    content = st.content
    hit = _IDENT.get(id(content))
    ident = hit[1] if hit is not None and hit[0] is content else _identities(content)
    me = st.seats[viewer] if isinstance(viewer, int) else None
    # The viewer's slot and its own cards stay the same all game: copied from a template.
    key = (n, viewer, ident[me.identity], _MISSION[me.mission]) if me is not None else (n, viewer)
    template = _TEMPLATES.get(key)
    if template is None:
        template = _TEMPLATES[key] = _template(n, viewer, key[2:])
    array = template.copy()
    # Written item by item through a memoryview (as cheap per item as a list, nothing to
    # convert at the end); flags are written only when set.
    out: Any = array.data
    clue_ids = st.clue_ids
    found = _CLUE_OF.get(id(clue_ids))
    clue = found[1] if found is not None and found[0] is clue_ids else _clue_numbers(clue_ids)
    phase = st.phase
    everything = phase == "over" or viewer == OMNISCIENT
    at = n + 2 + IDENTITY_COUNT + len(MISSION_IDS)
    if asked:
        out[at] = 1.0
    out[at + 1 + _PHASE[phase]] = 1.0
    at += 1 + len(PHASES)
    box = st.mission_box
    out[at] = st.turn / st.turn_limit
    light = st.rules == "light"
    if not light:
        out[at + 1] = 1.0
    eyes = st.eyes  # no seat has the Shinigami Eyes without them in play
    if eyes:
        out[at + 2] = 1.0
    out[at + 3] = box.count("x_kira") / 6
    out[at + 4] = box.count("team_member") / 6
    at += 5
    red, current, target = st.red, st.current, st.target
    if red is not None:
        out[at + red] = 1.0
    if current is not None:
        out[at + n + current] = 1.0
    if target is not None:
        out[at + 2 * n + target] = 1.0
    at += 3 * n
    kind = _TYPE.get(st.inv_type or "")
    if kind is not None:
        out[at + kind] = 1.0
    at += 2
    if me is not None:
        if st.picks and rules.is_asked(st, int(viewer)):
            for c in st.picks:
                out[at + clue[c]] = 1.0
        if me.mission == "kira" and phase == "dn_placement" and st.dn_identity:
            out[at + CLUES + ident[st.dn_identity]] = 1.0
    at += CLUES + IDENTITY_COUNT
    looks = me.looks if me is not None else None
    received = [0] * n
    for h in st.history:
        received[h["seat"]] += 1
    claims: dict[int, str] = {}
    for claim in st.claims:
        claims[claim["seat"]] = claim["identity"]
    dead: dict[int, str] = {}
    misses: dict[int, list[int]] = {}
    for d in st.death_notes:
        if d["hit"]:
            dead.setdefault(d["seat"], d["identity"])
        elif d["seat"] is not None:
            misses.setdefault(d["seat"], []).append(ident[d["identity"]])
    order, chased = st.order, st.chased
    mine = viewer if me is not None else -1
    # each seat's row, written at fixed offsets from its start (``_AT_*``)
    for s, x in enumerate(st.seats):
        row = at + s * SEAT
        if everything or s == mine:
            known: str | None = x.identity
        else:
            known = dead.get(s) if dead else None
        if not known and looks:
            known = looks.get(s)
        if x.out:
            out[row] = 1.0
        mission = x.mission
        if mission and (x.mission_revealed or everything):
            out[row + _AT_MISSION + _MISSION[mission]] = 1.0
            if eyes and mission == "x_kira" and x.mission_revealed and not x.out:
                out[row + _AT_EYES] = 1.0  # rules.has_eyes
        if known:
            out[row + _AT_IDENTITY + ident[known]] = 1.0
        if light:
            if x.covered:
                base = row + _AT_COVERED
                for c in x.covered:
                    out[base + clue[c]] = 1.0
        else:
            if x.table:
                base = row + _AT_TABLE
                for c in x.table:
                    out[base + clue[c]] = 1.0
            out[row + _AT_HAND] = len(x.hand) / CLUES
        if received[s]:
            out[row + _AT_HAND + 1] = received[s] / 10
        if s in order:
            out[row + _AT_HAND + 2] = 1.0
        if s in chased:
            out[row + _AT_HAND + 3] = 1.0
        if claims:
            said = claims.get(s)
            if said is not None:
                out[row + _AT_CLAIM + ident[said]] = 1.0
        if misses:
            for k in misses.get(s, ()):
                out[row + _AT_MISSES + k] = 1.0
    return array


#: the start of ``encode_state``'s array by (players, viewer[, its Identity and Mission
#: numbers]): the viewer's slot and own cards set, the rest zero (read-only, copied)
_TEMPLATES: dict[tuple[Any, ...], np.ndarray] = {}
#: per list of Clue ids (by id, the list kept alive): each Clue's number
_CLUE_OF: dict[int, tuple[list[str], dict[str, int]]] = {}


def _template(n: int, viewer: Viewer, own: tuple[int, ...]) -> np.ndarray:
    """The slots of ``encode_state`` fixed for a viewer all game (see ``_TEMPLATES``)."""
    array = np.zeros(size(n), dtype=np.float32)
    if viewer == SPECTATOR:
        array[n] = 1.0
    elif viewer == OMNISCIENT:
        array[n + 1] = 1.0
    else:
        array[int(viewer)] = 1.0
    if own:
        identity, mission = own
        array[n + 2 + identity] = 1.0
        array[n + 2 + IDENTITY_COUNT + mission] = 1.0
    array.flags.writeable = False
    return array


def _clue_numbers(clue_ids: list[str]) -> dict[str, int]:
    """Each Clue's number in ``clue_ids`` (remembered per list: a match keeps its list)."""
    key = tuple(clue_ids)
    clue = _CLUE.get(key)
    if clue is None:
        clue = _CLUE[key] = {c: k for k, c in enumerate(key)}
    if len(_CLUE_OF) >= 256:
        _CLUE_OF.clear()
    _CLUE_OF[id(clue_ids)] = (clue_ids, clue)
    return clue
