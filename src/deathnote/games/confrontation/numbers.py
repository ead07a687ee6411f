"""Numbers for learning: the stable action table and the observation tensor.

Both follow the chapter's packaged content (its Suspect letters and criminal numbers); a
custom content file with other letters or numbers has no action numbers for them (the
space raises ``IllegalAction``). Layouts: CONF-NUM-01 and CONF-NUM-02 in the rules doc.
"""

from __future__ import annotations

import struct
from collections.abc import Hashable
from functools import cache
from itertools import combinations_with_replacement
from typing import Any, cast

import numpy as np

from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Action
from deathnote.engine.spaces import TableSpace
from deathnote.games.confrontation import content
from deathnote.games.confrontation.content import CRIME_TYPES
from deathnote.games.confrontation.rules import (
    CHASE_ACTIONS,
    DAY_ACTIONS,
    DICE_ACTIONS,
    INTEL_ROWS,
    MAX_CARD_STARS,
    REGIONAL_LIMIT,
    SWITCH_ACTIONS,
    TARGET_POINTS,
    star_action,
)
from deathnote.games.confrontation.state import KIRA, NO_CHOICE, OVER, L
from deathnote.games.confrontation.view import build_view

PHASES = ("day", "accuse", "chase", "switch", "apples", "stars", "dice", "news", "kill", "over")
REASONS = ("card", "regional", "quiet")
ROWS = 4  # tracker rows in Chapter 2 (Ryuk and Intel alike)


def _tables(chapter: int, variant: str = "standard") -> content.Tables:
    return content.tables(content.load(None, chapter, variant), chapter, variant)


@cache
def action_table(chapter: int, variant: str = "standard") -> TableSpace:
    """Every action a chapter (and variant) can make, in a fixed order (the table in
    CONF-NUM-01): Chapter 1's has no Switch, dice, Apple or Star actions, which only
    Chapter 2's abilities make."""
    t = _tables(chapter, variant)
    actions: list[Action] = [*DAY_ACTIONS, *t.name_actions, *CHASE_ACTIONS]
    if chapter == 2:
        actions += SWITCH_ACTIONS
        actions += DICE_ACTIONS
        actions += [Action.make("apple", row=i) for i in range(ROWS)]
        for count in range(MAX_CARD_STARS + 1):
            actions += [
                star_action(rows)
                for rows in combinations_with_replacement(range(INTEL_ROWS), count)
            ]
    actions += t.news_actions
    actions += t.kill_actions
    return TableSpace(actions)


@cache
def _layout(chapter: int, variant: str = "standard") -> tuple[int, int, int]:
    t = _tables(chapter, variant)
    c, s = len(t.numbers), len(t.letters)
    size = (
        4  # viewer: kira, l, spectator, omniscient
        + len(PHASES)
        + 12  # scalars
        + 10  # the Lead card
        + 8  # the Chase
        + 7  # dice and faces left
        + 2 * c  # criminals: killed, on tonight's news
        + s  # identity, when the viewer sees it
        + _kira_size(c)
        + _l_size(s)
    )
    return size, c, s


def _kira_size(c: int) -> int:
    return 1 + c + c + 6 + 3 * ROWS + 1


def _l_size(s: int) -> int:
    return 1 + s * (2 + len(REASONS)) + s + 1 + 3 * ROWS + 1


def shape(chapter: int, variant: str = "standard") -> tuple[int]:
    """The tensor's shape for a chapter (and variant)."""
    return (_layout(chapter, variant)[0],)


def tensor(
    view: dict[str, Any], viewer: Any, chapter: int, variant: str = "standard"
) -> np.ndarray:
    """The observation of one viewer, built from that viewer's own view only."""
    size, c, s = _layout(chapter, variant)
    out = np.zeros(size, dtype=np.float32)
    t = _tables(chapter, variant)
    at = 0
    who = {0: 0, 1: 1, "spectator": 2, "omniscient": 3}[viewer]
    out[at + who] = 1.0
    at += 4
    out[at + PHASES.index(view["phase"])] = 1.0
    at += len(PHASES)
    target = float(view["target_points"])
    by_type = view["kira_points_by_type"]
    scalars = (
        float(view["chapter"] == 2),
        view["day"] / 30.0,
        view["kira_points"] / target,
        by_type["knife"] / target,
        by_type["gun"] / target,
        by_type["bomb"] / target,
        view["quiet_nights"] / 3.0,
        view["quiet_allowed"] / 3.0,
        view["regional_limit"] / 3.0,
        view["leads_left"] / 12.0,
        view["suspect_cards_drawn"] / s,
        view["suspect_cards_left"] / s,
    )
    out[at : at + 12] = scalars
    at += 12
    lead = view["lead"]
    if lead is not None:
        for side in ("A", "B"):
            scene = lead[side]
            out[at + CRIME_TYPES.index(scene["type"])] = 1.0
            out[at + 3] = scene["points"] / 3.0
            out[at + 4] = scene["apples"] / 3.0
            at += 5
    else:
        at += 10
    chase = view["chase"]
    out[at] = float(chase["chosen"]["kira"])
    out[at + 1] = float(chase["chosen"]["l"])
    if chase["revealed"] is not None:
        out[at + 2 + (chase["revealed"]["kira"] == "B")] = 1.0
        out[at + 4 + (chase["revealed"]["l"] == "B")] = 1.0
    mine = (view["notebook"] or {}).get("my_choice")
    if mine is not None:
        out[at + 6 + (mine == "B")] = 1.0
    at += 8
    for face in view["dice"]:
        out[at + CRIME_TYPES.index(face)] += 1.0 / 3.0
    for face in view["news_faces_left"]:
        out[at + 3 + ((*CRIME_TYPES, "any").index(face))] += 1.0 / 3.0
    at += 7
    index = t.index_of_number
    for k in view["map"]["criminals"]:
        if k["killed"]:
            out[at + index[k["number"]]] = 1.0
    for number in view["news"]:
        out[at + c + index[number]] = 1.0
    at += 2 * c
    letters = t.letters
    books = view.get("notebooks") or {}
    nb = view["notebook"]
    kira = books.get("kira") or (nb if nb and nb["role"] == "kira" else None)
    l_book = books.get("l") or (nb if nb and nb["role"] == "l" else None)
    identity = view["identity"] or (kira["identity"] if kira else None)
    if identity is not None:
        out[at + letters.index(identity)] = 1.0
    at += s
    _kira_block(out, at, kira, index, c)
    at += _kira_size(c)
    _l_block(out, at, l_book, letters, s)
    return out


_VIEWER_SLOT = {0: 0, 1: 1, "spectator": 2, "omniscient": 3}
_PHASE_SLOT = {phase: i for i, phase in enumerate(PHASES)}
_TYPE_SLOT = {kind: i for i, kind in enumerate(CRIME_TYPES)}
_FACE_SLOT = {kind: i for i, kind in enumerate((*CRIME_TYPES, "any"))}
_REASON_SLOT = {reason: i for i, reason in enumerate(REASONS)}


class _Fast:
    """What ``state_tensor`` reads for one packaged content's tables, made once: sizes,
    offsets, constants and memos of the blocks that take few values."""

    def __init__(self, t: content.Tables) -> None:
        self.tables = t
        chapter = t.chapter
        _, c, s = _layout(chapter, t.variant)
        self.c, self.s = c, s
        self.chapter2 = chapter == 2
        self.chapter_flag = float(chapter == 2)
        self.target = float(TARGET_POINTS[chapter])
        self.limit = REGIONAL_LIMIT[chapter]
        self.limit_third = REGIONAL_LIMIT[chapter] / 3.0
        #: ``_template`` by (viewer, Kira's identity if seen else -1, sees L's)
        self.templates: dict[tuple[Any, int, bool], np.ndarray] = {}
        # offsets: the phase one-hot, the scalars, the Lead and Chase (one block), the
        # dice, the criminals, Kira's block and L's block
        self.phase_at = 4
        self.scalars_at = 4 * (4 + len(PHASES))  # in bytes (``_SCALARS`` packs)
        self.lead_at = 4 + len(PHASES) + 12
        self.dice_at = self.lead_at + 10 + 8
        self.killed_at = self.dice_at + 7
        self.news_at = self.killed_at + c
        self.kira_at = self.killed_at + 2 * c + s
        self.l_at = self.kira_at + _kira_size(c)
        #: the Lead and Chase slots by (lead, Kira's side, L's side, the viewer's side)
        self.lead_chase: dict[tuple[int, int, int, int], memoryview] = {}
        #: each Lead card's class for ``search_key``: the first card with the same
        #: contents (two such cards give the same slots)
        firsts: dict[Any, int] = {}
        self.lead_class = tuple(firsts.setdefault(lead, i) for i, lead in enumerate(t.leads))
        #: the tracker rows ``_state_rows`` writes (Chapter 2): Ryuk's and the Intel's
        self.ryuk_n = len(t.ryuk_rows[:ROWS])
        self.intel_n = len(t.intel_rows[:ROWS])
        #: L's rows (``_l_rows``) last written: the lists they were read from, copied
        self.l_last: tuple[list[int], list[int], dict[int, str], memoryview] | None = None

    def lead_chase_block(self, lead: int, kira_side: int, l_side: int, mine: int) -> memoryview:
        """The 10 Lead slots and the 8 Chase slots (as the item writes of the view's
        tensor: float32)."""
        t = self.tables
        block = np.zeros(18, dtype=np.float32)
        if lead >= 0:
            at = 0
            for kind, apples in t.leads[lead]:
                block[at + _TYPE_SLOT[kind]] = 1.0
                block[at + 3] = t.points[kind] / 3.0
                block[at + 4] = apples / 3.0
                at += 5
        at = 10
        if kira_side != NO_CHOICE:
            block[at] = 1.0
        if l_side != NO_CHOICE:
            block[at + 1] = 1.0
            if kira_side != NO_CHOICE:
                block[at + 2 + (kira_side == 1)] = 1.0
                block[at + 4 + (l_side == 1)] = 1.0
        if mine != NO_CHOICE:
            block[at + 6 + (mine == 1)] = 1.0
        return memoryview(block.data)


#: Who sees which notebook while the game runs: (Kira's, L's) by viewer (both once over).
_SEES: dict[Any, tuple[bool, bool]] = {
    KIRA: (True, False),
    L: (False, True),
    SPECTATOR: (False, False),
    OMNISCIENT: (True, True),
}
#: ... and once the game is over: everyone sees both
_SEES_ALL = (True, True)


def state_tensor(state: Any, viewer: Any) -> np.ndarray | None:
    """``tensor(build_view(state, viewer), viewer, ...)`` computed from the state without
    building the view (the learning adapters ask for it at every step). It reads exactly
    the fields that view shows this viewer, and a test checks it equals the view's tensor
    for every viewer at every step of random games. None when the state plays custom
    content (its numbers are not the packaged ones): then use the view."""
    t = state.tables
    if t is not _packaged(t.chapter, t.variant):
        return None
    return observation(state, viewer)


def observation(state: Any, viewer: Any) -> np.ndarray:
    """The viewer's observation: ``state_tensor`` for the packaged content, else the
    tensor of the viewer's view (``Game.observation_tensor``)."""
    t = state.tables
    fast = _fast(t)
    if fast is None:
        return tensor(build_view(state, viewer), viewer, t.chapter, t.variant)
    phase = state.phase
    sees_kira, sees_l = _SEES_ALL if phase == OVER else _SEES[viewer]
    me = state.identity
    # What stays the same all game for this viewer comes copied from a template; the rest
    # is written item by item through a memoryview (only the slots that are not zero), or
    # as blocks remembered by what they are read from.
    key = (viewer, me if sees_kira else -1, sees_l)
    template = fast.templates.get(key)
    if template is None:
        template = fast.templates[key] = _template(t, viewer, me if sees_kira else -1, sees_l)
    array = template.copy()
    out: Any = array.data
    out[4 + _PHASE_SLOT[phase]] = 1.0
    target = fast.target
    by_type = state.points_by_type
    drawn = state.cards_drawn
    s = fast.s
    # the 12 scalars at once (as float32, like the item writes)
    _SCALARS(
        out,
        fast.scalars_at,
        fast.chapter_flag,
        state.day / 30.0,
        state.points / target,
        by_type["knife"] / target,
        by_type["gun"] / target,
        by_type["bomb"] / target,
        state.quiet_nights / 3.0,
        state.quiet_allowed / 3.0,
        fast.limit_third,
        len(state.lead_deck) / 12.0,
        len(drawn) / s,
        len(state.suspect_deck) / s,
    )
    kira_side, l_side = state.chase
    mine = kira_side if viewer == KIRA else l_side if viewer == L else NO_CHOICE
    lead = state.lead
    if lead >= 0 or kira_side != NO_CHOICE or l_side != NO_CHOICE or mine != NO_CHOICE:
        spot = (lead, kira_side, l_side, mine)
        block = fast.lead_chase.get(spot)
        if block is None:
            block = fast.lead_chase[spot] = fast.lead_chase_block(*spot)
        at = fast.lead_at
        out[at : at + 18] = block
    if state.dice or state.faces_left:
        faces = (*state.dice, "|", *state.faces_left)
        block = _DICE_BLOCKS.get(faces)
        if block is None:
            block = _dice_block(state.dice, state.faces_left)
            if len(_DICE_BLOCKS) < 4096:
                _DICE_BLOCKS[faces] = block
        at = fast.dice_at
        out[at : at + 7] = block
    alive = state.alive
    if not all(alive):
        # each dead criminal's slot (found in C, without the exception past the last)
        at = fast.killed_at
        k = -1
        for _ in range(alive.count(False)):
            k = alive.index(False, k + 1)
            out[at + k] = 1.0
    if state.news:
        at = fast.news_at
        for k in state.news:
            out[at + k] = 1.0
    # the identity slot (the next s) is in the template
    if sees_kira:
        # the flag, the local criminals and the home are in the template
        at = fast.kira_at
        c = fast.c
        if state.kills:
            bit = 1 << me
            mask = t.local_mask
            for k in state.kills:
                if not mask[k] & bit:
                    out[at + 1 + c + k] = 1.0
        base = at + 1 + 2 * c
        used = state.regional_used
        out[base] = used / 3.0
        out[base + 1] = (fast.limit - used) / 3.0
        out[base + 2] = state.chase_points / 20.0
        out[base + 3] = state.ryuk_points / 20.0
        if fast.chapter2:
            _state_rows(out, base + 6, t.ryuk_rows, state.apples, state.ryuk_used)
            out[base + 6 + 3 * ROWS] = state.apples_to_place / 9.0
    if sees_l:
        # The flag is in the template; L's Suspect rows and drawn cards (they change a few
        # times a game) come from a memo of those blocks, written in at once: the last one
        # written (compared list by list), else a table by what they are read from.
        width = 2 + len(REASONS)
        base = fast.l_at + 1
        last = fast.l_last
        if (
            last is not None
            and state.outside == last[0]
            and drawn == last[1]
            and state.eliminated == last[2]
        ):
            block = last[3]
        else:
            key2 = (s, *state.outside, "|", *drawn, "|", *state.eliminated.items())
            block = _L_BLOCKS.get(key2)
            if block is None:
                block = _l_rows(s, state.outside, drawn, state.eliminated)
                if len(_L_BLOCKS) >= 4096:
                    _L_BLOCKS.clear()
                _L_BLOCKS[key2] = block
            fast.l_last = (list(state.outside), list(drawn), dict(state.eliminated), block)
        out[base : base + s * width + s + 1] = block
        if fast.chapter2:
            base += s * width
            _state_rows(out, base + s + 1, t.intel_rows, state.stars, state.intel_used)
            out[base + s + 1 + 3 * ROWS] = state.stars_to_place / 9.0
    return array


def search_key(state: Any, viewer: Any) -> Hashable:
    """A search tree's key of the viewer's information set: equal for two states of one
    content exactly when their ``observation`` arrays are (a test checks both ways on
    random games and sampled worlds). It reads the same fields as ``observation`` in the
    form its slots hold them (counts, sets, flags), without building the array (the
    array and its bytes cost more than twice as much); custom content: the array's bytes."""
    t = state.tables
    fast = _fast(t)
    if fast is None:
        return observation(state, viewer).tobytes()
    phase = state.phase
    sees_kira, sees_l = _SEES_ALL if phase == OVER else _SEES[viewer]
    by_type = state.points_by_type
    drawn = state.cards_drawn
    kira_side, l_side = state.chase
    mine = kira_side if viewer == KIRA else l_side if viewer == L else NO_CHOICE
    lead = state.lead
    # the Lead and Chase slots (``_Fast.lead_chase_block``): what they are set from
    kira_in, l_in = kira_side != NO_CHOICE, l_side != NO_CHOICE
    chase = (
        fast.lead_class[lead] if lead >= 0 else -1,
        kira_in,
        l_in,
        (kira_side == 1, l_side == 1) if kira_in and l_in else None,
        mine == 1 if mine != NO_CHOICE else None,
    )
    dice = state.dice
    faces_left = state.faces_left
    key: tuple[Any, ...] = (
        phase,
        state.day,
        state.points,
        by_type["knife"],
        by_type["gun"],
        by_type["bomb"],
        state.quiet_nights,
        state.quiet_allowed,
        len(state.lead_deck),
        len(drawn),
        len(state.suspect_deck),
        chase,
        # the dice slots count each crime type rolled and each face left
        tuple(sorted(dice)) if dice else (),
        tuple(sorted(faces_left)) if faces_left else (),
        tuple(state.alive),
        frozenset(state.news) if state.news else None,
    )
    if sees_kira:
        me = state.identity
        bit = 1 << me
        mask = t.local_mask
        kira: tuple[Any, ...] = (
            me,
            frozenset(k for k in state.kills if not mask[k] & bit) if state.kills else None,
            state.regional_used,
            state.chase_points,
            state.ryuk_points,
        )
        if fast.chapter2:
            kira += (
                tuple(state.apples[: fast.ryuk_n]),
                tuple(state.ryuk_used[: fast.ryuk_n]),
                state.apples_to_place,
            )
        key += kira
    if sees_l:
        eliminated = state.eliminated
        l_part: tuple[Any, ...] = (
            tuple(state.outside),
            frozenset(drawn),
            frozenset(eliminated.items()) if eliminated else None,
        )
        if fast.chapter2:
            l_part += (
                tuple(state.stars[: fast.intel_n]),
                tuple(state.intel_used[: fast.intel_n]),
                state.stars_to_place,
            )
        key += l_part
    return key


def _fast(t: content.Tables) -> _Fast | None:
    """What ``observation`` and ``search_key`` read for these tables, made once; None for
    custom content (its numbers are not the packaged ones)."""
    fast = _FAST.get(id(t))
    if fast is None or fast.tables is not t:
        if t is not _packaged(t.chapter, t.variant):
            return None
        fast = _FAST[id(t)] = _Fast(t)
    return fast


#: per packaged content's tables (by id, kept alive): what ``state_tensor`` reads
_FAST: dict[int, _Fast] = {}
_SCALARS = struct.Struct("12f").pack_into
#: the dice slots by the dice and the faces left (a few dozen in all)
_DICE_BLOCKS: dict[tuple[str, ...], memoryview] = {}
#: L's Suspect rows, drawn cards and their count, by what they are read from
_L_BLOCKS: dict[tuple[Any, ...], memoryview] = {}


def _dice_block(dice: list[str], faces_left: list[str]) -> memoryview:
    """The 7 dice slots: a third per face (added in float32, as the view's tensor does)."""
    block = np.zeros(7, dtype=np.float32)
    for face in dice:
        block[_TYPE_SLOT[face]] += np.float32(1.0 / 3.0)
    for face in faces_left:
        block[3 + _FACE_SLOT[face]] += np.float32(1.0 / 3.0)
    return memoryview(block.data)


def _l_rows(
    s: int, outside: list[int], cards_drawn: list[int], eliminated: dict[int, str]
) -> memoryview:
    """L's rows of ``s`` Suspects (remaining, outside kills / 4, reason), then the drawn
    Suspect cards and their count / s (written item by item through a memoryview: float32,
    as numpy's item writes)."""
    width = 2 + len(REASONS)
    block: Any = np.zeros(s * width + s + 1, dtype=np.float32).data
    for k in range(s):
        if k not in eliminated:
            block[k * width] = 1.0
    for k, reason in eliminated.items():
        block[k * width + 2 + _REASON_SLOT[reason]] = 1.0
    for k, kills in enumerate(outside):
        if kills:
            block[k * width + 1] = kills / 4.0
    for k in cards_drawn:
        block[s * width + k] = 1.0
    block[s * width + s] = len(cards_drawn) / s
    return cast(memoryview, block)


def _template(t: content.Tables, viewer: Any, me: int, sees_l: bool) -> np.ndarray:
    """The slots of ``state_tensor`` that stay the same all game for a viewer who sees
    Kira's notebook (identity ``me``, or -1 when not seen) and L's (``sees_l``): the
    viewer, the chapter, the regional limit, Kira's identity, flag, local criminals and
    home, L's flag and every Suspect "remaining" (cleared for those eliminated)."""
    chapter = t.chapter
    size, c, s = _layout(chapter, t.variant)
    out = np.zeros(size, dtype=np.float32)
    out[_VIEWER_SLOT[viewer]] = 1.0
    at = 4 + len(PHASES)
    out[at] = float(chapter == 2)
    out[at + 8] = REGIONAL_LIMIT[chapter] / 3.0
    at += 12 + 10 + 8 + 7 + 2 * c
    if me >= 0:
        out[at + me] = 1.0
    at += s
    if me >= 0:
        out[at] = 1.0
        for k in t.local_criminals[me]:
            out[at + 1 + k] = 1.0
        base = at + 1 + 2 * c
        hx, hy = t.homes[me]
        out[base + 4] = hx / 16.0
        out[base + 5] = hy / 16.0
    at += _kira_size(c)
    if sees_l:
        out[at] = 1.0
        width = 2 + len(REASONS)
        out[at + 1 : at + 1 + s * width : width] = 1.0
    out.flags.writeable = False
    return out


def _state_rows(
    out: Any,
    at: int,
    rows: tuple[tuple[str, int], ...],
    filled: list[int],
    used: list[bool],
) -> None:
    for i, (_ability, cost) in enumerate(rows[:ROWS]):
        out[at + 3 * i] = filled[i] / cost
        out[at + 3 * i + 1] = float(filled[i] >= cost)
        out[at + 3 * i + 2] = float(used[i])


@cache
def _packaged(chapter: int, variant: str) -> content.Tables:
    """The packaged content's tables (they never change while the process runs)."""
    return _tables(chapter, variant)


def _rows(out: np.ndarray, at: int, tracker: dict[str, Any] | None) -> None:
    if tracker is None:
        return
    for i, row in enumerate(tracker["rows"][:ROWS]):
        out[at + 3 * i] = row["filled"] / row["cost"]
        out[at + 3 * i + 1] = float(row["complete"])
        out[at + 3 * i + 2] = float(row["used"])
    out[at + 3 * ROWS] = tracker["to_place"] / 9.0


def _kira_block(
    out: np.ndarray, at: int, nb: dict[str, Any] | None, index: dict[int, int], c: int
) -> None:
    if nb is None:
        return
    out[at] = 1.0
    for number in nb["local_criminals"]:
        out[at + 1 + index[number]] = 1.0
    for number in nb["regional_kills"]:
        out[at + 1 + c + index[number]] = 1.0
    base = at + 1 + 2 * c
    out[base] = nb["regional_used"] / 3.0
    out[base + 1] = nb["regional_left"] / 3.0
    out[base + 2] = nb["chase_points"] / 20.0
    out[base + 3] = nb["ryuk_points"] / 20.0
    out[base + 4] = nb["home"]["x"] / 16.0
    out[base + 5] = nb["home"]["y"] / 16.0
    _rows(out, base + 6, nb["ryuk"])


def _l_block(
    out: np.ndarray, at: int, nb: dict[str, Any] | None, letters: tuple[str, ...], s: int
) -> None:
    if nb is None:
        return
    out[at] = 1.0
    width = 2 + len(REASONS)
    for i, row in enumerate(nb["suspects"]):
        base = at + 1 + i * width
        out[base] = float(row["status"] == "remaining")
        out[base + 1] = row["outside_kills"] / 4.0
        if row["reason"] is not None:
            out[base + 2 + REASONS.index(row["reason"])] = 1.0
    base = at + 1 + s * width
    for letter in nb["cards"]:
        out[base + letters.index(letter)] = 1.0
    out[base + s] = len(nb["cards"]) / s
    _rows(out, base + s + 1, nb["intel"])
