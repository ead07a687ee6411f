"""Forks and sampled worlds (CONF-SAMPLE-01): a sample agrees with all its viewer saw."""

from __future__ import annotations

import random
import time
from dataclasses import fields

import pytest

from deathnote.engine import rng as draw
from deathnote.engine.actions import OMNISCIENT, SPECTATOR
from deathnote.engine.match import Match
from deathnote.games.confrontation import rules, sample
from deathnote.games.confrontation.state import (
    _DICTS,
    _LISTS,
    _SCALARS,
    KIRA,
    ConfState,
    L,
    dealt,
)

from .test_covert import Filler

VIEWERS = (KIRA, L, SPECTATOR, OMNISCIENT)


def mid_games(chapter: int, count: int, seed: int = 0) -> list[Match]:
    """Matches stopped at random steps of random games (L never accusing early)."""
    out = []
    filler = Filler()
    for i in range(count):
        rng = random.Random(seed * 10_000 + i)
        match = Match.create(
            "confrontation", 2, seed=seed * 10_000 + i, options={"chapter": chapter}
        )
        stop = draw.below(rng, 60)
        for _ in range(stop):
            if match.outcome() is not None:
                break
            seat = min(match.pending())
            match.submit(seat, filler.choose(match, seat, rng))
        if match.outcome() is None:
            out.append(match)
    return out


def test_fork_copies_every_field_and_shares_the_content() -> None:
    names = {f.name for f in fields(ConfState)}
    assert names == set(_SCALARS + _LISTS + _DICTS)
    match = mid_games(2, 1, seed=3)[0]
    twin = match.fork()
    assert twin.state == match.state and twin.state.tables is match.state.tables
    for name in _LISTS + _DICTS:
        assert getattr(twin.state, name) is not getattr(match.state, name)
    assert twin.view(OMNISCIENT) == match.view(OMNISCIENT)
    while twin.outcome() is None:
        seat = min(twin.pending())
        twin.submit(seat, twin.legal(seat)[0])
    assert match.outcome() is None and len(match.actions) < len(twin.actions)


@pytest.mark.parametrize("chapter", [1, 2])
def test_a_dealt_state_is_the_blank_state_forked_with_the_deal(chapter: int) -> None:
    state = Match.create("confrontation", 2, seed=5, options={"chapter": chapter}).state
    blank = rules._BLANK[id(state.tables)]
    deck, leads = [3, 1, 2], [0, 1]
    got = dealt(blank, 4, deck, leads)
    want = blank.fork()
    want.identity, want.suspect_deck, want.lead_deck = 4, deck, leads
    assert got == want and got.tables is blank.tables
    assert got.suspect_deck is deck and got.lead_deck is leads
    for name in _LISTS + _DICTS:
        assert getattr(got, name) is not getattr(blank, name)


def test_sampled_worlds_agree_with_their_viewer() -> None:
    """Same view (state, log, waiting, decision, legal) for the viewer; every legal action
    of every pending seat plays on the sample; the sample plays on to an end."""
    rng = random.Random(1)
    checked = 0
    for chapter in (1, 2):
        for match in mid_games(chapter, 50, seed=chapter):
            for viewer in VIEWERS:
                world = match.sample_world(viewer, rng)
                assert world.view(viewer) == match.view(viewer), (chapter, viewer)
                if viewer == OMNISCIENT:
                    assert world.view(OMNISCIENT) == match.view(OMNISCIENT)
                for seat in world.pending():
                    for action in world.legal(seat):
                        world.fork().submit(seat, action)
                s = world.state
                assert sorted([s.identity, *s.cards_drawn, *s.suspect_deck]) == list(
                    range(len(s.tables.letters))
                )
                assert sorted(s.lead_deck) == sorted(match.state.lead_deck)
                assert s.regional_used == match.state.outside[s.identity] or viewer in (
                    KIRA,
                    OMNISCIENT,
                )
                assert s.identity not in s.eliminated
                checked += 1
                walk = random.Random(checked)
                while world.outcome() is None:
                    seat = min(world.pending())
                    world.submit(seat, draw.choice(walk, world.legal(seat)))
    assert checked >= 300


def test_every_suspect_l_cannot_rule_out_is_sampled_as_kira() -> None:
    """For L: every Suspect his notebook still lists (and that could kill tonight, while
    Kira is asked to) appears as Kira; nothing else does. The deck order varies too."""
    rng = random.Random(2)
    for match in mid_games(2, 12, seed=5) + mid_games(1, 12, seed=6):
        state = match.state
        allowed = set(sample._candidates(state)) - set(state.eliminated)
        assert state.identity in allowed
        seen = set()
        tops = set()
        for _ in range(60 * len(allowed)):
            world = match.sample_world(L, rng).state
            seen.add(world.identity)
            if world.suspect_deck:
                tops.add(world.suspect_deck[-1])
        assert seen == allowed
        assert len(state.suspect_deck) < 2 or len(tops) > 1


def test_kira_and_spectator_samples_vary_l_cards_and_tokens() -> None:
    """For Kira: the cards L drew are any of the other Suspects (Chapter 1: no Stars to
    agree with); a spectator also sees Kira drawn among the public candidates; a token laid
    first is drawn on either side."""
    rng = random.Random(3)
    for match in mid_games(1, 30, seed=7):
        state = match.state
        if not state.cards_drawn:
            continue
        firsts = {match.sample_world(KIRA, rng).state.cards_drawn[0] for _ in range(400)}
        assert firsts == set(range(len(state.tables.letters))) - {state.identity}
        spect = {match.sample_world(SPECTATOR, rng).state.identity for _ in range(400)}
        assert spect == set(sample._candidates(state))
        break
    else:
        raise AssertionError("no game with a card drawn")
    match = Match.create("confrontation", 2, seed=4)
    match.submit(L, {"kind": "follow"})
    match.submit(KIRA, {"kind": "chase", "side": "A"})
    sides = {match.sample_world(L, rng).state.chase[KIRA] for _ in range(50)}
    assert sides == {0, 1}
    assert {match.sample_world(KIRA, rng).state.chase[KIRA] for _ in range(20)} == {0}


def test_chapter_2_samples_keep_the_announced_rows() -> None:
    """Kira's Apples and L's Stars are spread again, keeping their totals (Apples) and
    every announced row; an unannounced points or public Intel row is never full."""
    rng = random.Random(4)
    varied = 0
    for match in mid_games(2, 60, seed=9):
        state = match.state
        t = state.tables
        for _ in range(5):
            world = match.sample_world(L, rng).state
            assert sum(world.apples) == sum(state.apples)
            for i, (ability, cost) in enumerate(t.ryuk_rows):
                if state.ryuk_used[i]:
                    assert world.apples[i] == cost and world.ryuk_used[i]
                elif ability.startswith("points"):
                    assert world.apples[i] < cost
            varied += world.apples != state.apples
            other = match.sample_world(KIRA, rng).state
            for i, (ability, cost) in enumerate(t.intel_rows):
                if state.intel_used[i]:
                    assert other.stars[i] == cost
                elif ability in sample.PUBLIC_INTEL:
                    assert other.stars[i] < cost
    assert varied > 20


def test_fork_and_sample_times() -> None:
    """Fork and sample cost well under a millisecond mid-game (medians, printed)."""
    matches = mid_games(2, 40, seed=11)
    rng = random.Random(5)
    fork_t, sample_t = [], []
    for match in matches:
        start = time.perf_counter()
        match.fork()
        fork_t.append(time.perf_counter() - start)
        start = time.perf_counter()
        match.sample_world(SPECTATOR, rng)
        sample_t.append(time.perf_counter() - start)
    fork_t.sort()
    sample_t.sort()
    fork_ms, sample_ms = fork_t[len(fork_t) // 2] * 1e3, sample_t[len(sample_t) // 2] * 1e3
    print(f"confrontation fork median {fork_ms:.3f} ms, sample median {sample_ms:.3f} ms")
    assert fork_ms < 1.0 and sample_ms < 5.0


def test_the_search_for_l_cards_agrees_and_reads_no_hidden_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no quick draws left (Chapter 2, where the cards' Stars must explain L's public
    Intel rows), the complete search still gives worlds that agree with the viewer, and a
    world the viewer cannot tell from the true one gives the same samples: the true
    identity and cards are never handed back for want of another draw."""
    checked = differ = 0
    for match in mid_games(2, 40, seed=13):
        if not match.state.cards_drawn:
            continue
        for viewer in (KIRA, SPECTATOR):
            twin = match.sample_world(viewer, random.Random(1))  # by the quick draws
            differ += twin.state.cards_drawn != match.state.cards_drawn
            monkeypatch.setattr(sample, "TRIES", 0)
            searched = match.sample_world(viewer, random.Random(2))
            assert searched.view(viewer)["state"] == match.view(viewer)["state"]
            assert searched.legal(viewer) == match.legal(viewer)
            for seed in range(3):
                one = sample.sample(match.state, viewer, random.Random(seed))
                two = sample.sample(twin.state, viewer, random.Random(seed))
                assert one.identity == two.identity and one.cards_drawn == two.cards_drawn
                assert one.stars == two.stars and one.suspect_deck == two.suspect_deck
            monkeypatch.undo()
            checked += 1
    assert checked >= 10 and differ >= 5


@pytest.mark.parametrize("chapter", [1, 2])
def test_kept_public_eliminations_follow_the_history(chapter: int) -> None:
    """``public_eliminations`` keeps its answer per history (the same day notes): asked in
    turn about positions of many games and about a copy whose last note differs (the same
    length, another object and another kill), it answers as worked out afresh."""
    matches = mid_games(chapter, 30, seed=7)
    differs = 0
    for _ in range(2):
        for match in matches:
            state = match.state
            assert sample.public_eliminations(state) == sample._public_eliminations(state)
            if not state.history:
                continue
            twin = state.fork()
            last = twin.history[-1]
            other = None if last["killed"] is not None else last["news"][0]
            twin.history[-1] = dict(last, killed=other)
            fresh = sample._public_eliminations(twin)
            differs += fresh != sample._public_eliminations(state)
            assert sample.public_eliminations(twin) == fresh
            assert sample.public_eliminations(state) == sample._public_eliminations(state)
    assert differs
