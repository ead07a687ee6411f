"""ICG-BOT-02: the search bot's play-out policy."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine import Match
from deathnote.games.icg import GAME


@pytest.mark.parametrize("rules", ["light", "kira"])
def test_playout_policy_picks_legal_actions_and_l_does_not_arrest_blind(rules: str) -> None:
    """Games played by the play-out policy alone on the bare state: every choice is legal,
    every game ends, and L seldom arrests the wrong player (a random L does so in about two
    games of three)."""
    policy = GAME.playout_policy()
    assert policy is not None
    endings: Counter[str] = Counter()
    for seed in range(16):
        match = Match.create("icg", 5, seed, {"rules": rules})
        state = match.state
        rng = random.Random(seed)
        for _ in range(2_000):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.pending(state))
            legal = GAME.legal(state, seat)
            action = policy(state, seat, legal, rng)
            assert action in legal
            GAME.apply(state, seat, action, rng)
        outcome = GAME.outcome(state)
        assert outcome is not None
        endings[outcome.condition] += 1
    assert endings["arrest_wrong"] <= 3, endings


def test_playout_policy_plays_as_the_heuristic_bot_on_the_seat_view() -> None:
    """On a real match the policy picks what the heuristic bot picks from the seat's view
    (same generator): it reads that view only."""
    policy = GAME.playout_policy()
    assert policy is not None
    for seed in range(6):
        match = Match.create("icg", 6, seed)
        for _ in range(6):
            if match.outcome() is not None:
                break
            seat = min(match.pending())
            legal = match.legal(seat)
            bot = make_agent("icg", "heuristic", seat)
            expected = bot.choose(observe(match, seat, agent_rng(seed, seat)))
            assert policy(match.state, seat, legal, agent_rng(seed, seat)) == expected
            match.submit(seat, expected)


#: The parts of the view the play-out's view builds when first read, and every part it has.
LATER = {"seats", "mission_box"}
READ = LATER | {"rules", "turn", "target", "chased", "identities", "history", "me"}
READ |= {"death_notes", "claims"}


@pytest.mark.parametrize(
    "options",
    [{}, {"shinigami_eyes": True}, {"rules": "kira"}, {"rules": "kira", "shinigami_eyes": True}],
)
def test_playout_view_is_the_parts_of_the_seat_view_the_bot_reads(options: dict[str, Any]) -> None:
    """The play-out's view (``search.bot_view``) holds what the seat's view holds under the
    same keys, and every asked seat's play-out choice at every position of whole games is
    the heuristic bot's on the full view (same generator, same draws), leaving the state
    as it was."""
    from deathnote.engine import OMNISCIENT
    from deathnote.games.icg.search import bot_view, playout

    kinds: Counter[str] = Counter()
    for seed in range(3):
        match = Match.create("icg", 5 + seed, seed, options)
        rngs = [agent_rng(seed, s) for s in range(match.players)]
        while match.outcome() is None:
            for seat in match.pending():
                full = match.view(seat)
                lean = bot_view(match.state, seat)
                assert lean["decision"]["kind"] == full["decision"]["kind"]
                parts = [k for k in full["state"] if k in lean["state"] or k in LATER]
                assert {k: lean["state"][k] for k in parts} == {k: full["state"][k] for k in parts}
                assert set(parts) >= READ
                legal = match.legal(seat)
                bot = make_agent("icg", "heuristic", seat)
                before = GAME.view(match.state, OMNISCIENT)
                mine, theirs = random.Random(seed), random.Random(seed)
                assert playout(match.state, seat, legal, mine) == bot.choose(
                    observe(match, seat, theirs)
                )
                assert mine.getstate() == theirs.getstate()
                assert GAME.view(match.state, OMNISCIENT) == before
                kinds[full["decision"]["kind"]] += 1
            seat = min(match.pending())
            match.submit(
                seat, make_agent("icg", "heuristic", seat).choose(observe(match, seat, rngs[seat]))
            )
    assert {"investigate", "arrest", "death_note"} <= set(kinds)
    assert {"cover"} <= set(kinds) or {"return", "reveal"} <= set(kinds)


def kira_death_notes(seeds: range, players: int = 5) -> list[tuple[Match, int]]:
    """Each position of heuristic games where Kira is asked to write the Death Note."""
    out = []
    for seed in seeds:
        match = Match.create("icg", players, seed)
        bots = [make_agent("icg", "heuristic", s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        while match.outcome() is None:
            seat = min(match.pending())
            state = match.state
            if state.phase == "dn_identity" and state.seats[seat].mission == "kira":
                out.append((match.fork(), seat))
            match.submit(seat, bots[seat].choose(observe(match, seat, rngs[seat])))
    return out


def finish_death_note(match: Match, kira: int, choose: Any) -> tuple[str, int]:
    """Kira writes and places with ``choose`` (the other seats wait): the pair written."""
    write = choose(match, kira)
    match.submit(kira, write)
    while True:
        seat = min(match.pending())
        if seat == kira and match.state.phase == "dn_placement":
            place = choose(match, kira)
            return write["identity"], place["placement"]
        match.submit(seat, match.legal(seat)[0])


def test_death_note_writes_the_pair_l_holds_in_most_worlds_kira_samples() -> None:
    """ICG-BOT-04: Kira's Death Note for the search bot is the Identity and Placement that
    L holds in most worlds sampled from Kira's view (a Team Member's counting a tenth),
    read from his observation only: on the Death Notes of heuristic games it finds L's
    true pair at least as often as the heuristic bot, and it answers nothing else."""
    rule = GAME.search_answer(0)
    assert rule is not None
    found = {"rule": 0, "heuristic": 0}
    positions = kira_death_notes(range(1000, 1020))
    assert len(positions) >= 20
    for k, (position, kira) in enumerate(positions):
        state = position.state
        l_seat = next(s for s, x in enumerate(state.seats) if x.mission == "l")
        truth = (state.seats[l_seat].identity, l_seat)
        for name in found:
            bot = make_agent("icg", "heuristic", kira)

            def choose(
                match: Match, seat: int, name: str = name, bot: Any = bot, k: int = k
            ) -> Any:
                obs = observe(match, seat, random.Random(k))
                answer = rule(obs) if name == "rule" else bot.choose(obs)
                assert answer in obs.legal
                return answer

            found[name] += finish_death_note(position.fork(), kira, choose) == truth
    assert found["rule"] >= found["heuristic"] > 0, found
    # Any other decision is left to the search.
    match = Match.create("icg", 5, 3)
    seat = min(match.pending())
    assert rule(observe(match, seat, random.Random(1))) is None


def test_the_search_bot_takes_the_death_note_rule_and_plays_alike_on_twin_matches() -> None:
    """``ismcts`` answers Kira's Death Note by the game's rule (``Game.search_answer``:
    no simulation) and searches elsewhere; on a match and a world sampled for Kira's seat
    (the same for him, other hidden cards) it writes and places the same."""
    positions = kira_death_notes(range(1000, 1006))
    assert positions
    for k, (position, kira) in enumerate(positions):
        twin = position.sample_world(kira, random.Random(50 + k))
        assert twin.view(kira) == position.view(kira)
        pairs = []
        for match in (position.fork(), twin):
            bot = make_agent("icg", "ismcts:sims=20", kira)

            def choose(match: Match, seat: int, bot: Any = bot, k: int = k) -> Any:
                action = bot.choose(observe(match, seat, random.Random(k)))
                assert bot.last_sims == 0
                return action

            pairs.append(finish_death_note(match, kira, choose))
        assert pairs[0] == pairs[1]
    match = Match.create("icg", 5, 3)
    seat = min(match.pending())
    bot = make_agent("icg", "ismcts:sims=20", seat)
    bot.choose(observe(match, seat, random.Random(1)))
    assert bot.last_sims == 20


def test_belief_weighs_missions_by_the_order_their_clues_were_covered() -> None:
    """ICG-BOT-05: a world's weight is how likely each other player's Mission-Clue covers
    are, in their order, from the heuristic bot with the Mission that world deals him
    (every Mission covers the three others in its own order; a cover it would not make
    counts ``COVER_MISS``); the viewer's own covers count for nothing; none under the Kira
    rules, nor before another player has covered a Mission-Clue."""
    import math
    from types import SimpleNamespace

    from deathnote.games.icg.search import COVER_MISS, world_weight

    ids = ["ryuzaki", "soichiro", "light", "misa", "matsuda", "aizawa"]
    covered = {0: [*ids, "l"], 1: [*ids, "l", "x_kira"], 2: [*ids, "kira"], 3: [], 4: ids}
    view = {
        "state": {
            "rules": "light",
            "seats": [{"seat": s, "covered": c} for s, c in covered.items()],
        }
    }

    def world(**missions: str) -> Any:
        seats = [SimpleNamespace(mission=missions.get(f"s{s}", "team_member")) for s in range(5)]
        return SimpleNamespace(seats=seats)

    weigh = world_weight(view, 0)
    assert weigh is not None
    miss = math.log(COVER_MISS)
    # Seat 1 covered L, then X-Kira: Kira's order; X-Kira covers L then a Team Member.
    assert weigh(world(s1="kira", s2="l")) == 0.0
    assert weigh(world(s1="x_kira", s2="l")) == miss
    assert weigh(world(s1="team_member", s2="l")) == 2 * miss
    # Seat 2 covered Kira first: L or a Team Member, not Kira's team.
    assert weigh(world(s1="kira", s2="x_kira")) == miss
    # The viewer's own covers and a seat with none count for nothing.
    assert weigh(world(s0="kira", s1="kira", s2="l", s3="x_kira")) == 0.0
    assert world_weight({"state": dict(view["state"], rules="kira")}, 0) is None
    # No other player has covered a Mission-Clue: every world would weigh the same, so
    # none is weighed (one world drawn has the odds of one of K picked alike).
    alike = [{"seat": 0, "covered": [*ids, "l"]}, {"seat": 1, "covered": ids}]
    assert world_weight({"state": {"rules": "light", "seats": alike}}, 0) is None


def test_a_belief_search_plays_alike_on_twin_matches() -> None:
    """ICG-BOT-05: with belief-weighted worlds (``ismcts:belief=K``) the search reads its
    weights from its seat's view only: on a match and a world sampled for that seat (the
    same for it, other hidden cards) it plays the same; in some of these positions the
    covers seen weigh the worlds unequally; Kira's Death Note is still the rule's
    (ICG-BOT-04: no simulation)."""
    compared = unequal = 0
    for seed in range(1000, 1008):
        match = Match.create("icg", 5, seed)
        bots = [make_agent("icg", "heuristic", s) for s in range(5)]
        rngs = [agent_rng(seed, s) for s in range(5)]
        for step in range(400):
            if match.outcome() is None and step % 3 == 1:
                seat = min(match.pending())
                if len(match.legal(seat)) > 1 and match.state.phase in ("investigate", "arrest"):
                    weigh = GAME.search_belief(match.view(seat), seat)
                    weights: set[float] = set()
                    if weigh is not None:  # None: no Mission-Clue covered, all alike
                        rng = random.Random(step)
                        draws = [match.sample_world(seat, rng, False).state for _ in range(20)]
                        weights = {weigh(state) for state in draws}
                    unequal += len(weights) > 1
                    if len(weights) > 1 or compared < 10:
                        twin = match.sample_world(seat, random.Random(step))
                        assert twin.view(seat) == match.view(seat)
                        moves = []
                        for world in (match, twin):
                            bot = make_agent("icg", "ismcts:sims=20:belief=4", seat)
                            moves.append(bot.choose(observe(world, seat, random.Random(step))))
                        assert moves[0] == moves[1]
                        compared += 1
            if match.outcome() is not None:
                break
            seat = min(match.pending())
            match.submit(seat, bots[seat].choose(observe(match, seat, rngs[seat])))
    assert compared >= 10 and unequal >= 1
    position, kira = kira_death_notes(range(1000, 1002))[0]
    bot = make_agent("icg", "ismcts:sims=20:belief=4", kira)
    bot.choose(observe(position, kira, random.Random(0)))
    assert bot.last_sims == 0
