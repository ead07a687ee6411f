"""The bit-set beliefs (``deduce.beliefs``) against the set-based reference they replaced:
the same Identities per seat and Mission and the same Mission odds (bit for bit), in every
viewer's view of heuristic games of every set-up and in the play-outs' views of sampled
worlds (``search.bot_view``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine import Match
from deathnote.games.icg.content import MISSION_IDS
from deathnote.games.icg.deduce import _propagate as propagate_bits
from deathnote.games.icg.deduce import beliefs
from deathnote.games.icg.search import bot_view

UNIQUE = ("kira", "l")
Reference = tuple[dict[int, dict[str, set[str]]], dict[int, dict[str, float]]]


def _same(view: dict[str, Any]) -> None:
    options, odds = _reference(view)
    got = beliefs(view)
    assert got.options == options
    assert got.mission == odds  # the same floats, not merely close
    for s, row in options.items():
        anyone: set[str] = set().union(*row.values())
        assert got.identities(s) == anyone
        for m in MISSION_IDS:
            assert got.identities(s, m) == row.get(m, set())


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {}),
        (5, {"rules": "kira"}),
        (6, {"shinigami_eyes": True}),
        (7, {"rules": "kira", "shinigami_eyes": True}),
        (8, {"x_kira": 0}),
        (5, {"x_kira": 6}),
    ],
)
def test_bit_set_beliefs_equal_the_set_reference(players: int, options: dict[str, Any]) -> None:
    for seed in range(2):
        m = Match.create("icg", players, seed, options)
        bots = [make_agent("icg", "heuristic", s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        draw = random.Random(seed)
        while m.outcome() is None:
            for viewer in range(players):
                _same(m.view(viewer)["state"])
                # a sampled world's play-out view (the search bot's heuristic reads it)
                world = m.sample_world(viewer, draw, False)
                if world.outcome() is None:
                    _same(bot_view(world.state, viewer)["state"])
            s = min(m.pending())
            m.submit(s, bots[s].choose(observe(m, s, rngs[s])))


# -- the reference: deduce.beliefs as it was with sets of names -------------------------------
def _reference(state: dict[str, Any]) -> Reference:
    """The beliefs as sets of names (the implementation before the bit sets)."""
    me = state["me"]
    mine = me["seat"]
    all_ids = [c["id"] for c in state["identities"]]
    seats = state["seats"]
    others: list[int] = []
    known_id: dict[int, str] = {}
    known_mission: dict[int, str] = {}
    for x in seats:
        seat = x["seat"]
        if seat != mine:
            others.append(seat)
        if x["identity"] is not None:
            known_id[seat] = x["identity"]
        if x["mission"] is not None:
            known_mission[seat] = x["mission"]
    for k, v in me["looks"].items():
        known_id[int(k)] = v
    # An X-Kira's announcement may be a bluff: it narrows a player's Identity only where the
    # table still allows it (the latest claim about each player counts).
    claimed = {c["seat"]: c["identity"] for c in state["claims"]}
    taken_missions = {m for s, m in known_mission.items() if s != mine and m in UNIQUE}
    if me["mission"] in UNIQUE:
        taken_missions.add(me["mission"])
    misses: dict[int, set[str]] = {}
    for d in state["death_notes"]:
        if d["seat"] != mine and not d["hit"] and d["identity"]:
            misses.setdefault(d["seat"], set()).add(d["identity"])

    options: dict[int, dict[str, set[str]]] = {}
    pool = set(all_ids) - {me["identity"]}
    open_missions = [m for m in MISSION_IDS if m not in taken_missions]
    if state["mission_box"]["x_kira"] == 0:
        open_missions = [m for m in open_missions if m != "x_kira"]
    if state["mission_box"]["team_member"] == 0:
        open_missions = [m for m in open_missions if m != "team_member"]
    light = state["rules"] == "light"
    for s in others:
        base = pool - misses[s] if s in misses else set(pool)
        if s in known_id:
            base = {known_id[s]}
        else:
            base -= {v for k, v in known_id.items() if k != s}
        missions = [known_mission[s]] if s in known_mission else open_missions
        x = seats[s]
        if light:
            covered = set(x["covered"])
            row = {m: base - covered for m in missions if m not in covered}
        else:
            row = {m: set(base) for m in missions}
            for h in state["history"]:
                if h["seat"] != s or not h.get("revealed"):
                    continue
                shown = set(h["revealed"])
                for m in row:
                    if m not in shown:
                        row[m] &= shown
        options[s] = {m: ids for m, ids in row.items() if ids}
        if not options[s]:  # the table contradicts itself only if we misread; stay safe
            options[s] = {m: set(base) for m in missions}
        if s not in known_id and s in claimed:
            narrowed = {m: ids & {claimed[s]} for m, ids in options[s].items()}
            narrowed = {m: ids for m, ids in narrowed.items() if ids}
            if narrowed:
                options[s] = narrowed
    _propagate(options)
    return options, _mission_odds(state, options, mine)


def _propagate(options: dict[int, dict[str, set[str]]]) -> None:
    """An Identity certainly held by one seat is held by no other."""
    changed = True
    while changed:
        changed = False
        for s, row in options.items():
            if not row or len(next(iter(row.values()))) > 1:
                continue  # no row, or two Identities or more: nothing certain
            ids = set().union(*row.values())
            if len(ids) != 1:
                continue
            (only,) = ids
            for t, other in options.items():
                if t == s:
                    continue
                for m in list(other):
                    if only in other[m] and len(set().union(*other.values())) > 1:
                        other[m].discard(only)
                        changed = True
                        if not other[m]:
                            del other[m]


def _mission_odds(
    state: dict[str, Any], options: dict[int, dict[str, set[str]]], mine: int
) -> dict[int, dict[str, float]]:
    players = len(state["seats"])
    box = state["mission_box"]
    revealed = [x["mission"] for x in state["seats"] if x["mission"] and x["seat"] != mine]
    dealt_others = players - 2
    prior = {
        "kira": 1.0,
        "l": 1.0,
        "x_kira": max(0.0, dealt_others * box["x_kira"] / 6 - revealed.count("x_kira")),
        "team_member": max(
            0.0, dealt_others * box["team_member"] / 6 - revealed.count("team_member")
        ),
    }
    if state["me"]["mission"] in ("x_kira", "team_member"):
        prior[state["me"]["mission"]] = max(0.0, prior[state["me"]["mission"]] - 1)
    n_ids = len(state["identities"])
    floor = {m: max(p, 0.05) for m, p in prior.items()}
    out: dict[int, dict[str, float]] = {}
    for s, row in options.items():
        weights = {m: floor[m] * len(ids) / n_ids for m, ids in row.items()}
        total = sum(weights.values())
        out[s] = {m: w / total for m, w in weights.items()} if total else {}
    return out


def _propagate_plain(options: dict[int, dict[str, int]]) -> None:
    """``deduce._propagate`` as it was: every pair of seats read again on every pass, until
    a pass changes nothing."""
    changed = True
    while changed:
        changed = False
        for s, row in options.items():
            if not row:
                continue
            ids = 0
            for v in row.values():
                ids |= v
            if not ids or ids & (ids - 1):
                continue
            for t, other in options.items():
                if t == s:
                    continue
                for m in list(other):
                    if not other[m] & ids:
                        continue
                    held = 0
                    for v in other.values():
                        held |= v
                    if held & (held - 1):
                        left = other[m] & ~ids
                        changed = True
                        if left:
                            other[m] = left
                        else:
                            del other[m]


def test_propagation_equals_the_plain_fixpoint() -> None:
    # Rows of few Identities (many seats certain, chains of certainties made by earlier
    # removals, two seats certain of one Identity) besides the views' own rows above.
    draw = random.Random(14)
    for _ in range(20000):
        n_ids = draw.choice((2, 3, 4, 6, 8))
        options = {
            s: {
                m: draw.randrange(1, 1 << n_ids) & draw.randrange(1, 1 << n_ids)
                or 1 << draw.randrange(n_ids)
                for m in draw.sample(MISSION_IDS, draw.randint(0, 3))
            }
            for s in range(draw.randint(1, 8))
        }
        plain = {s: dict(row) for s, row in options.items()}
        _propagate_plain(plain)
        propagate_bits(options)
        assert options == plain
        assert list(map(list, options.values())) == list(map(list, plain.values()))
