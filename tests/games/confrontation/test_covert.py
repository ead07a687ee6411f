"""Chapter 2: holding an ability changes nothing another viewer sees (CONF-CH2-18), and an
ability is used from the round after it was earned (CONF-CH2-19)."""

from __future__ import annotations

import random

from deathnote.engine import rng as draw
from deathnote.engine.actions import SPECTATOR, Action
from deathnote.engine.match import Match
from deathnote.games.confrontation import GAME, rules
from deathnote.games.confrontation.state import APPLES, DICE, KIRA, NEWS, STARS, SWITCH, L

from .helpers import act, make_state


def test_an_ability_is_used_from_the_next_round_on() -> None:
    """ "He may use the ability in any future round": the dice change Kira completes on
    Day 1 is not his on Night 1, and is on Night 2."""
    state = make_state(chapter=2, identity="G", leads_top=[2, 1])
    act(state, L, "follow")
    act(state, KIRA, "chase", side="A")
    act(state, L, "chase", side="B")  # Kira wins Lead 2's scene A: 3 Apples
    act(state, L, "switch", use=False)
    assert state.phase == APPLES and state.apples_to_place == 3
    for _ in range(3):
        act(state, KIRA, "apple", row=0)  # Row 1: change up to 3 dice, complete today
    assert rules.holds(state, KIRA, "change_dice")
    assert state.phase == DICE and state.dicer == L
    act(state, L, "dice", faces=[])
    assert state.phase == DICE and state.dicer == KIRA  # asked, but only "keep" tonight
    assert GAME.legal(state, KIRA) == (rules.DICE_KEEP,)
    act(state, KIRA, "dice", faces=[])
    assert state.phase == NEWS and not state.ryuk_used[0]
    while state.phase == NEWS:
        act(state, L, "news", criminal=GAME.legal(state, L)[0]["criminal"])
    if state.phase == "kill":
        act(state, KIRA, "kill", criminal=GAME.legal(state, KIRA)[0]["criminal"])
    act(state, L, "follow")
    act(state, KIRA, "chase", side="A")
    act(state, L, "chase", side="B")
    act(state, L, "switch", use=False)
    while state.phase == APPLES:
        act(state, KIRA, "apple", row=GAME.legal(state, KIRA)[0]["row"])
    act(state, L, "dice", faces=[])
    assert state.day == 2 and state.phase == DICE and state.dicer == KIRA
    assert len(GAME.legal(state, KIRA)) == len(rules.DICE_ACTIONS)  # a future round: usable


def test_l_ability_earned_today_waits_for_the_next_round() -> None:
    state = make_state(chapter=2, identity="G", suspects_top="L", leads_top=[1])
    state.stars[0] = 1  # Row 1 (change up to 3 dice, 4 Stars) needs 3 more
    act(state, L, "follow")
    act(state, KIRA, "chase", side="A")
    act(state, L, "chase", side="A")
    act(state, KIRA, "switch", use=False)
    act(state, L, "star", rows=[0, 0, 0])  # Suspect L's 3 Stars complete Row 1 on Day 1
    assert state.phase == DICE and state.dicer == L
    assert GAME.legal(state, L) == (rules.DICE_KEEP,)


# -- the same match in which the seat has nothing to decide ----------------------------------
ABILITIES = ("change_dice", "switch")


def strip(match: Match, seat: int) -> Match:
    """A fork in which ``seat`` holds no usable Switch or dice change and has no Star to
    place from now on (every secret row of his marked used and, for L, full)."""
    twin = match.fork()
    s = twin.state
    t = s.tables
    if seat == KIRA:
        s.ryuk_used = [True] * len(t.ryuk_rows)
    else:
        s.intel_used = [True] * len(t.intel_rows)
        s.stars = [cost for _a, cost in t.intel_rows]
    return twin


def holds_any(match: Match, seat: int) -> bool:
    return any(rules.holds(match.state, seat, a) for a in ABILITIES)


def public_rows_completed(match: Match, rows: tuple[int, ...]) -> bool:
    """Whether placing Stars in these rows completes a row whose ability is announced."""
    s = match.state
    for i, (ability, cost) in enumerate(s.tables.intel_rows):
        public = ability in ("extra_suspect", "extra_quiet_night")
        if public and s.stars[i] < cost <= s.stars[i] + rows.count(i):
            return True
    return False


def step_pair(real: Match, twin: Match, seat: int, rng: random.Random) -> bool:
    """One step of both matches with the same public course; False when the worlds may
    rightly part (a Star completes a public row, or the game ended)."""
    pending = real.pending()
    assert set(pending) == set(twin.pending())
    p = min(pending)
    if p != seat:
        legal = real.legal(p)
        assert list(legal) == list(twin.legal(p))
        action = draw.choice(rng, legal)
        real.submit(p, action)
        twin.submit(p, action)
        return real.outcome() is None
    kind = pending[p].kind
    if kind in ("switch", "dice"):  # the holder keeps: the other world could not do more
        keep = rules.SWITCH_NO if kind == "switch" else rules.DICE_KEEP
        real.submit(p, keep)
        twin.submit(p, keep)
    elif kind == "stars":
        options = [a for a in real.legal(p) if not public_rows_completed(real, a["rows"])]
        if not options:
            return False
        real.submit(p, draw.choice(rng, options))
        twin.submit(p, twin.legal(p)[0])  # nothing to place: "the Stars are lost"
    else:
        legal = real.legal(p)
        action = draw.choice(rng, legal)
        if action not in twin.legal(p):
            return False
        real.submit(p, action)
        twin.submit(p, action)
    return real.outcome() is None


class Filler:
    """A test player: random, except that L never accuses and both fill ability rows."""

    def choose(self, match: Match, seat: int, rng: random.Random) -> Action:
        legal = match.legal(seat)
        kind = match.pending()[seat].kind
        if kind == "day":
            return rules.FOLLOW
        if kind == "apples":
            for a in legal:
                if match.state.tables.ryuk_rows[a["row"]][0] in ABILITIES:
                    return a
        if kind == "stars":
            rows = match.state.tables.intel_rows
            best = max(legal, key=lambda a: sum(rows[i][0] in ABILITIES for i in a["rows"]))
            return best
        return draw.choice(rng, legal)


def test_holding_an_ability_changes_nothing_another_viewer_sees() -> None:
    """For random Chapter 2 games: at every day, for each seat that holds a Switch or a
    dice change (or may draw Stars), the same match in which that seat has nothing to
    decide (a fork whose secret rows hold nothing) is played on in lockstep, the seat
    keeping its token and dice and placing Stars where they announce nothing. Every other
    viewer (the other seat and a spectator) sees the same view, log, pending seats and
    legal actions at every step, and the steps come in the same order."""
    filler = Filler()
    compared = held = 0
    for seed in range(60):
        rng = random.Random(seed)
        match = Match.create("confrontation", 2, seed=seed, options={"chapter": 2})
        while match.outcome() is None and match.state.day <= 14:
            if match.state.phase == "day":
                for seat in (KIRA, L):
                    if seat == KIRA and not holds_any(match, KIRA):
                        continue
                    real, twin = match.fork(), strip(match, seat)
                    held += holds_any(match, seat)
                    others = [1 - seat, SPECTATOR]
                    walk = random.Random(rng.getrandbits(32))
                    for _ in range(40):
                        for v in others:
                            assert real.view(v) == twin.view(v), (seed, seat, real.state.phase)
                        compared += 1
                        if not step_pair(real, twin, seat, walk):
                            break
            seat = min(match.pending())
            match.submit(seat, filler.choose(match, seat, rng))
    assert held >= 30 and compared >= 3000, (held, compared)


def test_chapter_2_asks_every_chase_loser_and_both_seats_every_night() -> None:
    """The steps exist in every Chapter 2 game whatever is held: after each reveal the
    seat losing the Chase is asked about a Switch; each night L, then Kira, about the dice;
    after each Suspect card L is asked where its Stars go."""
    for seed in range(30):
        match = Match.create("confrontation", 2, seed=seed, options={"chapter": 2})
        rng = random.Random(seed)
        while match.outcome() is None:
            pending = match.pending()
            seat = min(pending)
            before = match.state.phase
            events = match.submit(seat, Filler().choose(match, seat, rng))
            state = match.state
            if any(e.data.get("kira") for e in events) and match.outcome() is None:
                assert before == "chase" and state.phase == SWITCH  # every reveal
            if any("rolls" in e.text for e in events) and match.outcome() is None:
                assert state.phase == DICE and state.dicer == L
            if before == DICE and seat == L:
                assert state.phase == DICE and state.dicer == KIRA
            if events and events[-1].text.startswith("You draw Suspect"):
                assert state.phase == STARS  # the card's last word: where its Stars go
