"""The search's fast paths (issue 14) against the plain computations they replace."""

from __future__ import annotations

import random

import pytest

from deathnote.engine import rng as draw
from deathnote.engine.actions import QUIET, SPECTATOR
from deathnote.games.confrontation import agents
from deathnote.games.confrontation.rules import REGIONAL_LIMIT
from deathnote.games.confrontation.state import KIRA, ConfState, L

from .test_covert import Filler
from .test_sample import mid_games


def plain_suspicion(state: ConfState) -> float:
    """``agents.suspicion`` as first written: the whole history read at every call."""
    t = state.tables
    limit = REGIONAL_LIMIT[t.chapter]
    masks = t.local_mask
    index = t.index_of_number
    nights = []
    for night in state.history:
        killed = night["killed"]
        if killed is None:
            continue
        news = [masks[index[n]] for n in night["news"]]  # type: ignore[attr-defined]
        nights.append((news, len(news), masks[index[killed]]))  # type: ignore[index]
    total = mine = 0.0
    for s in range(len(t.letters)):
        if s in state.eliminated:
            continue
        weight = 1.0
        outside = 0
        for news, count, dead in nights:
            if outside >= limit:
                local = 0
                for m in news:
                    local += m >> s & 1
                weight /= max(1, local)
            else:
                weight /= count
            if not dead >> s & 1:
                outside += 1
        total += weight
        if s == state.identity:
            mine = weight
    return mine / total if total else 0.0


@pytest.mark.parametrize("chapter", [1, 2])
def test_suspicion_from_kept_history_starts_equals_the_plain_reading(chapter: int) -> None:
    """``suspicion`` reads the weights of a history's start from its memo and divides in
    the nights after: equal (to the bit) to the whole history read afresh, at positions of
    random games and in worlds sampled from them and played on for a few nights (their new
    notes on the shared start), for every viewer's worlds, asked in turn."""
    filler = Filler()
    rng = random.Random(3)
    checked = 0
    for match in mid_games(chapter, 25, seed=11):
        for viewer in (KIRA, L, SPECTATOR):
            for _ in range(3):
                world = match.sample_world(viewer, rng, False)
                state = world.state
                for _step in range(draw.below(rng, 40)):
                    assert agents.suspicion(state) == plain_suspicion(state)
                    checked += 1
                    if world.outcome() is not None:
                        break
                    seat = min(world.pending())
                    world.submit(seat, filler.choose(world, seat, rng))
    assert checked > 500


@pytest.mark.parametrize("chapter", [1, 2])
def test_quiet_apply_changes_the_state_as_apply_does(chapter: int) -> None:
    """``apply_quiet`` (the search's steps, no events made): along random games, each step
    applied both ways to copies with copies of one generator leaves equal states and
    generators, and the quiet events list keeps nothing."""
    from deathnote.engine.match import Match
    from deathnote.games.confrontation import GAME

    filler = Filler()
    steps = 0
    for seed in range(12):
        match = Match.create("confrontation", 2, seed=seed, options={"chapter": chapter})
        rng = random.Random(seed)
        while match.outcome() is None:
            seat = min(match.pending())
            action = filler.choose(match, seat, rng)
            loud, quiet = match.state.fork(), match.state.fork()
            loud_rng, quiet_rng = random.Random(seed + steps), random.Random(seed + steps)
            GAME.apply(loud, seat, action, loud_rng)
            GAME.apply_quiet(quiet, seat, action, quiet_rng)
            assert quiet == loud
            assert quiet_rng.getstate() == loud_rng.getstate()
            match.submit(seat, action)
            steps += 1
    assert not QUIET
    assert steps > 300


@pytest.mark.parametrize("chapter", [1, 2])
def test_kept_l_plan_follows_the_state(chapter: int) -> None:
    """L's samples draw Kira among ``_candidates`` less his notebook and deal the cards he
    has not drawn; the last answer is kept (``sample._l_plan``): asked in turn about many
    positions, each twice, and about copies changed by hand (one more Suspect in the
    notebook, one more outside kill, one more card drawn, tonight's news changed), it
    answers as worked out afresh."""
    from deathnote.games.confrontation import sample

    def plain(state: ConfState) -> tuple[list[int], list[int]]:
        candidates = [s for s in sample._candidates(state) if s not in state.eliminated]
        undrawn = [s for s in range(len(state.tables.letters)) if s not in state.cards_drawn]
        return candidates, undrawn

    differs = 0
    for match in mid_games(chapter, 30, seed=5):
        state = match.state
        for _ in range(2):
            assert sample._l_plan(state) == plain(state)
        changed = []
        for change in ("eliminated", "outside", "cards_drawn", "news"):
            twin = state.fork()
            left = [s for s in range(len(twin.tables.letters)) if s not in twin.eliminated]
            if change == "eliminated" and left:
                twin.eliminated[left[-1]] = "card"
            elif change == "outside":
                twin.outside[left[0] if left else 0] += 1
            elif change == "cards_drawn" and twin.suspect_deck:
                twin.cards_drawn.append(twin.suspect_deck[-1])
            elif change == "news" and twin.news:
                twin.news.pop()
            changed.append(twin)
        for twin in changed:
            fresh = plain(twin)
            differs += fresh != plain(state)
            assert sample._l_plan(state) == plain(state)
            assert sample._l_plan(twin) == fresh
    assert differs


@pytest.mark.parametrize("chapter", [1, 2])
def test_deal_rest_from_the_undrawn_cards_deals_as_the_plain_filter(chapter: int) -> None:
    """L's worlds deal the Suspect deck from the undrawn cards less Kira's, taken out with
    ``list.remove``: at positions of random games, for every Suspect as Kira, the same deck
    as the plain filter shuffled with a copy of the same generator."""
    from deathnote.games.confrontation import sample

    checked = 0
    for match in mid_games(chapter, 20, seed=7):
        state = match.state
        undrawn = [s for s in range(len(state.tables.letters)) if s not in state.cards_drawn]
        for me in undrawn:
            world = state.fork()
            world.identity = me
            fast_rng, plain_rng = random.Random(me), random.Random(me)
            sample._deal_rest(world, fast_rng, undrawn)
            plain = [s for s in undrawn if s != me]
            draw.shuffle(plain_rng, plain)
            assert world.suspect_deck == plain
            assert undrawn == [
                s for s in range(len(state.tables.letters)) if s not in state.cards_drawn
            ]
            checked += 1
    assert checked > 100


def plain_sample(state: ConfState, viewer: int, rng: random.Random) -> ConfState:
    """``sample.sample`` as first written: the Suspect deck and the Suspects L's cards are
    drawn among made by filtering list comprehensions."""
    from deathnote.games.confrontation import sample

    def deal_rest(world: ConfState, undrawn: list[int] | None = None) -> None:
        me = world.identity
        if undrawn is None:
            drawn = set(world.cards_drawn)
            deck = [s for s in range(len(world.tables.letters)) if s != me and s not in drawn]
        else:
            deck = [s for s in undrawn if s != me]
        draw.shuffle(rng, deck)
        world.suspect_deck = deck

    def redraw_cards(world: ConfState, identities: list[int]) -> None:
        n = len(world.tables.letters)
        k = len(world.cards_drawn)
        for _ in range(sample.TRIES):
            me = identities[draw.below(rng, len(identities))]
            cards = draw.sample(rng, [s for s in range(n) if s != me], k)
            if sample._stars_agree(world, cards):
                break
        else:
            me, cards = sample._search_cards(world, identities, rng)
        world.identity = me
        world.cards_drawn = cards
        deal_rest(world)
        sample._rebuild_notebook(world)
        sample._redraw_stars(world, rng)

    world = state.fork()
    world.lead_deck.sort()
    draw.shuffle(rng, world.lead_deck)
    if viewer != KIRA:
        sample._redraw_token(world, KIRA, rng)
        sample._redraw_apples(world, rng)
    if viewer != L:
        sample._redraw_token(world, L, rng)
    if viewer == L:
        candidates = [s for s in sample._candidates(state) if s not in state.eliminated]
        world.identity = candidates[draw.below(rng, len(candidates))]
        deal_rest(
            world, [s for s in range(len(state.tables.letters)) if s not in state.cards_drawn]
        )
    elif viewer == KIRA:
        redraw_cards(world, [state.identity])
    else:
        redraw_cards(world, sample._candidates(state))
    world.regional_used = world.outside[world.identity]
    return world


@pytest.mark.parametrize("chapter", [1, 2])
def test_sample_draws_as_the_plain_code(chapter: int) -> None:
    """A sampled world (the Suspects but Kira's, among which L's cards are drawn, and the
    Suspect deck made without filtering list comprehensions) equals the plain code's from a copy of the
    same generator, for every viewer at positions of random games, and leaves the
    generators alike."""
    from deathnote.games.confrontation import sample
    from deathnote.games.confrontation.state import OVER

    checked = 0
    for match in mid_games(chapter, 40, seed=13):
        state = match.state
        if state.phase == OVER:
            continue
        for viewer in (KIRA, L, SPECTATOR):
            for k in range(3):
                fast_rng, plain_rng = random.Random(k), random.Random(k)
                assert sample.sample(state, viewer, fast_rng) == plain_sample(
                    state, viewer, plain_rng
                )
                assert fast_rng.getstate() == plain_rng.getstate()
                checked += 1
    assert checked > 150
