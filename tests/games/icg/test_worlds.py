"""Forks, sampled hidden worlds, action numbers and observation vectors (ICG-SAMPLE-01,
ICG-NUM-01, ICG-OBS-01)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import pytest

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Action, IllegalAction, Match
from deathnote.games.icg.content import MISSION_IDS

from .helpers import st

OPTIONS = [
    {"rules": "light", "shinigami_eyes": False},
    {"rules": "light", "shinigami_eyes": True},
    {"rules": "kira", "shinigami_eyes": False},
    {"rules": "kira", "shinigami_eyes": True},
]


def positions(
    games: int, every: int = 3, players: tuple[int, ...] = (4, 5, 6, 7, 8)
) -> Iterator[Match]:
    """Forks of positions of games between bots (random and heuristic, all option sets)."""
    for n in range(games):
        count = players[n % len(players)]
        bots = "heuristic" if n % 2 else "random"
        m = Match.create("icg", count, 300 + n, OPTIONS[(n // 2) % 4])
        agents = [make_agent("icg", bots, s) for s in range(count)]
        rngs = [agent_rng(n, s) for s in range(count)]
        step = 0
        while m.outcome() is None:
            if step % every == n % every:
                yield m.fork()
            s = min(m.pending())
            m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
            step += 1
        yield m.fork()


def viewers(m: Match) -> list[Any]:
    return [*range(m.players), SPECTATOR, OMNISCIENT]


# -- fork ---------------------------------------------------------------------------------------
def test_fork_is_independent_and_shares_content() -> None:
    for m in positions(4, every=7):
        twin = m.fork()
        assert st(twin).content is st(m).content and st(twin).tables is st(m).tables
        before = {v: m.view(v) for v in viewers(m)}
        while twin.outcome() is None:
            s = min(twin.pending())
            twin.submit(s, twin.legal(s)[-1])
        assert {v: m.view(v) for v in viewers(m)} == before


def test_fork_shares_only_the_records_the_rules_never_change() -> None:
    """A fork shares the earlier investigation records, the Death Notes and the claims
    with its original (``worlds.fork``): at every position of whole games, the next action
    on either side leaves the other's every view as it was."""
    for n, options in enumerate(OPTIONS):
        m = Match.create("icg", 5 + n, 40 + n, options)
        bots = [make_agent("icg", "heuristic", s) for s in range(m.players)]
        rngs = [agent_rng(n, s) for s in range(m.players)]
        while m.outcome() is None:
            twin = m.fork()
            s = min(m.pending())
            action = bots[s].choose(observe(m, s, rngs[s]))
            before = {v: twin.view(v) for v in viewers(twin)}
            m.submit(s, action)
            assert {v: twin.view(v) for v in viewers(twin)} == before
            other = m.fork()
            if other.outcome() is None:
                after = {v: m.view(v) for v in viewers(m)}
                t = min(other.pending())
                other.submit(t, other.legal(t)[0])
                assert {v: m.view(v) for v in viewers(m)} == after


def test_views_share_no_objects_with_the_state() -> None:
    for m in positions(4, every=5):
        for v in viewers(m):
            view = m.view(v)["state"]
            for row in view["seats"]:
                for key in ("covered", "table", "hand"):
                    if key in row:
                        row[key].append("x")
            for h in view["history"]:
                for key in ("covered", "returned", "revealed"):
                    if key in h:
                        h[key].append("x")
            view["identities"].append({})
            if "me" in view:
                view["me"]["looks"]["9"] = "x"
                view["me"]["picks"].append("x")
            assert m.view(v)["state"] != view


# -- sampled worlds ---------------------------------------------------------------------------
def test_sampled_worlds_agree_with_the_viewer() -> None:
    rng = random.Random(5)
    checked = 0
    for m in positions(12, every=5):
        truth = m.view(OMNISCIENT)
        for v in viewers(m):
            w = m.sample_world(v, rng)
            assert w.view(v) == m.view(v)
            assert m.view(OMNISCIENT) == truth  # the original is untouched
            if isinstance(v, int):
                assert list(w.legal(v)) == list(m.legal(v))
            for s in w.pending():  # every legal action of every asked seat plays
                for action in w.legal(s):
                    w.fork().submit(s, action)
            checked += 1
    assert checked > 400


def translate(m: Match, w: Match, fresh: Match | None = None) -> Match | None:
    """The real actions replayed in a fresh match dealt as ``w``: the non-covert actions as
    they were, each covert answer by the seat holding the same part in ``w`` (Kira's by
    Kira, L's by L). None when an answer is under way (its first picks are redrawn in ``w``)
    or in the Death Note phase.
    Raises IllegalAction when the history is impossible with ``w``'s cards."""
    if st(m).picks or st(m).phase in ("dn_identity", "dn_placement"):
        return None  # (Kira's unresolved choice would be imposed on another Kira)
    replica = (fresh or Match.create("icg", m.players, m.seed, m.options)).fork()
    r, ws = st(replica), st(w)
    for x, y in zip(r.seats, ws.seats, strict=True):
        x.identity, x.mission = y.identity, y.mission
    r.unused_missions = list(ws.unused_missions)
    replica._legal.clear()
    replica._pending = None
    real = [x.mission for x in st(m).seats]
    sample = [x.mission for x in ws.seats]
    moved = {real.index(k): sample.index(k) for k in ("kira", "l")}
    rest_real = [t for t in range(m.players) if t not in moved]
    rest_sample = [t for t in range(m.players) if t not in moved.values()]
    same = set(rest_real) & set(rest_sample)
    perm = dict(moved)
    perm.update({t: t for t in same})
    perm.update(
        zip(
            [t for t in rest_real if t not in same],
            [t for t in rest_sample if t not in same],
            strict=True,
        )
    )
    for seat, action in m.actions:
        if r.phase in ("arrest", "dn_identity", "dn_placement"):
            seat = perm[seat]
        replica.submit(seat, action)
    return replica


def test_sampled_worlds_replay_the_public_history() -> None:
    """Independent check of every sampled deal: dealt those cards, the same public play
    (and the same Death Note choices by whoever is Kira there) is legal all along and ends in
    the same view for the viewer."""
    rng = random.Random(8)
    checked = 0
    for m in positions(12, every=4):
        if m.outcome() is not None:
            continue
        for v in [*range(m.players), SPECTATOR]:
            w = m.sample_world(v, rng)
            replica = translate(m, w)
            if replica is None:
                continue
            assert replica.view(v) == m.view(v)
            checked += 1
    assert checked > 200


def brute_force(m: Match, viewer: int) -> tuple[set[tuple[int, str]], set[tuple[int, str]]]:
    """Every (seat, Identity) and (seat, Mission) of some deal agreeing with the viewer's
    view, found by replaying the public history in every deal (small games only)."""
    s = st(m)
    me = s.seats[viewer]
    others = [t for t in range(m.players) if t != viewer]
    ids = [i for i in s.clue_ids[:8] if i != me.identity]
    box = list(s.mission_box)
    ident_seen: set[tuple[int, str]] = set()
    mission_seen: set[tuple[int, str]] = set()
    target = m.view(viewer)
    missions_left = ["kira", "l", *box]
    missions_left.remove(me.mission)
    deals = set(itertools.permutations(missions_left, len(others)))
    fresh = Match.create("icg", m.players, m.seed, m.options)
    for idents in itertools.permutations(ids, len(others)):
        for missions in deals:
            if "kira" not in (*missions, me.mission) or "l" not in (*missions, me.mission):
                continue
            w = m.fork()
            for t, i, mi in zip(others, idents, missions, strict=True):
                st(w).seats[t].identity, st(w).seats[t].mission = i, mi
            left = list(box)
            for x in st(w).seats:
                if x.mission in left:
                    left.remove(x.mission)
            st(w).unused_missions = left
            try:
                replica = translate(m, w, fresh)
            except IllegalAction:
                continue
            assert replica is not None
            if replica.view(viewer) == target:
                ident_seen.update(zip(others, idents, strict=True))
                mission_seen.update(zip(others, missions, strict=True))
    return ident_seen, mission_seen


@pytest.mark.parametrize("rules", ["light", "kira"])
def test_every_hidden_value_the_viewer_cannot_rule_out_is_sampled(rules: str) -> None:
    rng = random.Random(3)
    found = 0
    for n, m in enumerate(positions(12, every=9, players=(4,))):
        if m.outcome() is not None or st(m).picks or m.options["rules"] != rules:
            continue
        if st(m).phase in ("dn_identity", "dn_placement"):
            continue
        if len(m.actions) < 8 or n % 2:
            continue
        viewer = next(iter(m.pending()))
        idents, missions = brute_force(m, viewer)
        got_i: set[tuple[int, str]] = set()
        got_m: set[tuple[int, str]] = set()
        for _ in range(400):
            w = st(m.sample_world(viewer, rng))
            for t, x in enumerate(w.seats):
                if t != viewer:
                    got_i.add((t, x.identity))
                    got_m.add((t, x.mission))
        assert got_i == idents and got_m == missions
        assert len(idents) > 3 * 2  # something was hidden
        found += 1
        break
    assert found >= 1


def test_sampling_redraws_secret_choices_and_partial_answers() -> None:
    """The Death Note choice, who has answered in the eyes-closed phases and the first Clue
    of an answer under way are hidden from other seats: each is drawn anew."""
    rng = random.Random(4)
    asked: set[tuple[int, ...]] = set()
    notes: set[Any] = set()
    picks: set[tuple[str, ...]] = set()
    for m in positions(12, every=1):
        s = st(m)
        if s.phase in ("arrest", "dn_identity", "dn_placement"):
            for _ in range(5):
                w = st(m.sample_world(SPECTATOR, rng))
                asked.add(tuple(w.asked))
                notes.add(w.dn_identity)
        if s.phase in ("cover", "reveal") and s.target is not None:
            other = next(v for v in range(m.players) if v != s.target)
            for _ in range(5):
                picks.add(tuple(st(m.sample_world(other, rng)).picks))
    assert len(asked) > 10 and None in notes and len(notes) > 4
    assert () in picks and any(picks)


def test_omniscient_and_finished_samples_are_copies() -> None:
    rng = random.Random(1)
    for m in positions(3, every=10):
        w = m.sample_world(OMNISCIENT, rng)
        assert w.view(OMNISCIENT)["state"] == m.view(OMNISCIENT)["state"]


# -- action numbers and observations ------------------------------------------------------------
def test_every_legal_action_has_a_stable_number() -> None:
    for m in positions(16, every=1):
        space = m.action_space
        assert space.size == len({a.to_json().__repr__() for a in space.actions})  # type: ignore[attr-defined]
        for s in m.pending():
            mask = m.legal_mask(s)
            assert mask.sum() == len(m.legal(s))
            for action in m.legal(s):
                index = m.action_id(action)
                assert m.action_at(index) == action
                assert m.action_at(index, s).label == action.label
                assert m.action_id(Action.from_json(action.to_json())) == index


def test_action_numbers_do_not_depend_on_the_state() -> None:
    a = Match.create("icg", 6, 1, {"rules": "kira", "shinigami_eyes": True})
    b = Match.create("icg", 6, 2, {"rules": "kira", "shinigami_eyes": True})
    assert [x.to_json() for x in a.action_space.actions] == [  # type: ignore[attr-defined]
        x.to_json()
        for x in b.action_space.actions  # type: ignore[attr-defined]
    ]
    sizes = {
        (r, e): Match.create("icg", 5, 1, {"rules": r, "shinigami_eyes": e}).action_space.size
        for r in ("light", "kira")
        for e in (False, True)
    }
    # Light: 5 + 12 + 1 + 5 + 1 + 8 + 5; Kira: 10 + 24 + ...; the Eyes add 5 + 1 + 1 + 8 + 1.
    assert sizes == {
        ("light", False): 37,
        ("light", True): 53,
        ("kira", False): 54,
        ("kira", True): 70,
    }


def test_observation_has_a_fixed_shape_and_only_what_the_viewer_sees() -> None:
    rng = random.Random(6)
    for m in positions(8, every=3):
        shape = m.observation_shape()
        for v in [*range(m.players), SPECTATOR]:
            obs = m.observation_tensor(v)
            assert obs.shape == shape and obs.dtype == np.float32
            w = m.sample_world(v, rng)
            assert np.array_equal(w.observation_tensor(v), obs)
    m = Match.create("icg", 5, 1)
    assert not np.array_equal(m.observation_tensor(0), m.observation_tensor(1))


def test_mission_ids_cover_the_table() -> None:
    assert MISSION_IDS == ("kira", "l", "x_kira", "team_member")


def test_enumerated_deals_are_weighted_by_the_physical_cards() -> None:
    """The exact fallback draws as a uniform deal of the cards would: with two X-Kira cards
    and one Team Member card left, an open seat is X-Kira two times in three."""
    from collections import Counter

    from deathnote.games.icg import worlds

    domains = {
        0: frozenset({("a", "kira")}),
        1: frozenset({("b", "l")}),
        2: frozenset({("c", "x_kira"), ("c", "team_member")}),
    }
    avail = Counter({"kira": 1, "l": 1, "x_kira": 2, "team_member": 1})
    rng = random.Random(2)
    deals = worlds._consistent_deals(set(), avail, [0, 1, 2], domains)
    draws = [worlds._draw_deal([0, 1, 2], domains, deals, rng) for _ in range(3000)]
    share = sum(1 for d in draws if d and d[2] == ("c", "x_kira")) / len(draws)
    assert 0.62 < share < 0.71
    assert all(d and d[0] == ("a", "kira") and d[1] == ("b", "l") for d in draws)


def test_deal_plans_follow_the_state_and_draw_as_the_plain_deal() -> None:
    """ICG-SAMPLE-01: the deal's plan, cached by the facts it reads, is never stale: on one
    match played on in place, every seat's world drawn with the plans kept from an earlier
    position is the world drawn with none kept; and a plan's uniform deal draws the same
    bits and deal as the plain ``_uniform``."""
    from deathnote.engine.rng import copy as rng_copy
    from deathnote.games.icg import worlds

    checked = 0
    for n, options in enumerate(OPTIONS):
        count = 4 + n
        m = Match.create("icg", count, 40 + n, options)
        agents = [make_agent("icg", "heuristic", s) for s in range(count)]
        rngs = [agent_rng(n, s) for s in range(count)]
        rng = random.Random(n)
        step = 0
        while m.outcome() is None:
            if step % 2:
                # The plans kept are the last checked position's.
                before = rng_copy(rng)
                kept = [m.sample_world(v, rng, False).view(OMNISCIENT) for v in range(count)]
                worlds._PLANS.clear()
                again = [m.sample_world(v, before, False).view(OMNISCIENT) for v in range(count)]
                assert again == kept
                assert before.getstate() == rng.getstate()
                for v in range(count):
                    plan = worlds._plan(st(m), v)
                    plain = rng_copy(rng)
                    assert worlds._uniform_plan(plan, rng) == worlds._uniform(
                        plan.identities, plan.used, plan.avail, plan.free, plan.domains, plain
                    )
                    assert plain.getstate() == rng.getstate()
                    checked += 1
            s = min(m.pending())
            m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
            step += 1
    assert checked > 100


# -- belief-weighted worlds ------------------------------------------------------------------
def weighed_positions(seeds: range) -> Iterator[tuple[Match, int, Any]]:
    """Real choices of heuristic 5-player games (Light rules) where the deciding seat's
    belief weighs the worlds (another player has covered a Mission-Clue), with its weight."""
    from deathnote.games.icg import GAME

    for seed in seeds:
        m = Match.create("icg", 5, seed)
        bots = [make_agent("icg", "heuristic", s) for s in range(5)]
        rngs = [agent_rng(seed, s) for s in range(5)]
        while m.outcome() is None:
            seat = min(m.pending())
            if len(m.legal(seat)) > 1:
                weigh = GAME.search_belief(m.view(seat), seat)
                if weigh is not None:
                    yield m.fork(), seat, weigh
            m.submit(seat, bots[seat].choose(observe(m, seat, rngs[seat])))


def test_a_split_deal_counts_every_outcome_of_a_uniform_try() -> None:
    """ICG-BOT-05 ("Speed, fifth pass"): the odds the Missions-first draw uses are the
    uniform try's, counted over every outcome of one try (every ordered draw of the
    Identities from the pool, every ordered draw of the other Mission cards, every order
    of the Missions over the seats): the share of outcomes that agree with the table, and
    for each Mission sequence by seat how many agreeing outcomes deal it."""
    from deathnote.games.icg import worlds

    checked = 0
    for m, seat, _weigh in weighed_positions(range(10, 14)):
        plan = worlds._plan(st(m), seat)
        split = worlds._split(plan)
        assert split is not None
        n = len(plan.free)
        ids_agree = sum(
            all(i in {p[0] for p in pairs} for i, pairs in zip(ids, plan.checks, strict=True))
            for ids in itertools.permutations(plan.pool_ids, n)
        )
        id_outcomes = len(list(itertools.permutations(plan.pool_ids, n)))
        dealt: dict[tuple[str, ...], int] = {}
        mission_outcomes = 0
        cards = list(enumerate(plan.others))
        for sample in itertools.permutations(cards, plan.extra):
            for order in itertools.permutations([*plan.uniques, *(m for _k, m in sample)]):
                mission_outcomes += 1
                if all(
                    mission in {p[1] for p in pairs}
                    for mission, pairs in zip(order, plan.checks, strict=True)
                ):
                    dealt[order] = dealt.get(order, 0) + 1
        assert Fraction(split.agree, split.tries) == Fraction(
            ids_agree * sum(dealt.values()), id_outcomes * mission_outcomes
        )
        # Each sequence's weight: its agreeing outcomes, up to the draw's own order.
        scale = len(list(itertools.permutations(range(plan.extra))))
        assert dict(split.sequences) == {seq: ways // scale for seq, ways in dealt.items()}
        assert all(ways % scale == 0 for ways in dealt.values())
        checked += 1
        if checked >= 6:
            break
    assert checked == 6


def test_belief_weighted_worlds_keep_the_odds_of_whole_worlds_picked() -> None:
    """ICG-BOT-05 ("Speed, fifth pass"): the ICG's belief-weighted world (only the
    candidates' Missions drawn, the picked one completed) has the odds of K whole worlds
    drawn and picked by the weight (the engine's ``Game.sample_weighted_state``): over
    3,000 draws of each, every seat's Mission, every seat's Identity and the Missions by
    seat are as frequent within 4.5 standard deviations of the difference, on three
    positions (one where the uniform tries often all fail, so the fallback's deals are
    picked among too); the same test tells the weighted worlds from plain ones where the
    covers tell the Missions apart."""
    from deathnote.engine.game import Game
    from deathnote.games.icg import GAME, worlds

    draws = 3000

    def frequencies(draw: Any) -> dict[tuple[Any, ...], int]:
        counts: dict[tuple[Any, ...], int] = {}
        for _ in range(draws):
            state = draw()
            keys = [("missions", *(x.mission for x in state.seats))]
            for s, x in enumerate(state.seats):
                keys += [("mission", s, x.mission), ("identity", s, x.identity)]
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
        return counts

    def largest_z(a: dict[tuple[Any, ...], int], b: dict[tuple[Any, ...], int]) -> float:
        largest = 0.0
        for key in set(a) | set(b):
            p = (a.get(key, 0) + b.get(key, 0)) / (2 * draws)
            if 0 < p < 1:
                spread = (p * (1 - p) * 2 / draws) ** 0.5
                largest = max(largest, abs(a.get(key, 0) - b.get(key, 0)) / draws / spread)
        return largest

    chosen: list[tuple[Match, int, Any]] = []
    fallback = False
    seen = set()
    for m, seat, weigh in weighed_positions(range(10, 20)):
        deal = worlds._plan_key(st(m), seat)
        if deal in seen:
            continue  # the same deal to draw as a position chosen already
        seen.add(deal)
        split = worlds._split(worlds._plan(st(m), seat))
        assert split is not None
        fails = ((split.tries - split.agree) / split.tries) ** worlds.TRIES
        if fails > 0.05 and not fallback:
            chosen.append((m, seat, weigh))
            fallback = True
        elif len(weigh.rows) >= 2 and len(chosen) < 2 + fallback:
            chosen.append((m, seat, weigh))
        if fallback and len(chosen) == 3:
            break
    assert fallback and len(chosen) == 3
    apart = 0.0
    for m, seat, weigh in chosen:
        state = st(m)
        rng_a, rng_b, rng_c = random.Random(1), random.Random(2), random.Random(3)
        whole = frequencies(partial(Game.sample_weighted_state, GAME, state, seat, rng_a, 8, weigh))
        fast = frequencies(partial(GAME.sample_weighted_state, state, seat, rng_b, 8, weigh))
        plain = frequencies(partial(GAME.sample_state, state, seat, rng_c))
        assert largest_z(whole, fast) < 4.5
        apart = max(apart, largest_z(whole, plain))
    assert apart > 10  # where the covers tell the Missions apart, plain worlds differ
