"""WW-BOT-02: the search bot's play-out policy and estimate."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from deathnote.engine import Match
from deathnote.games.werewolf import GAME
from deathnote.games.werewolf.search import KIRA_TEAM

from .helpers import new, poke, set_hand, set_roles, st


def test_playout_policy_picks_legal_actions_and_spares_known_friends() -> None:
    """Games played by the play-out policy alone: every choice is legal, every game ends,
    and a seat never names, points at or writes a living player it knows is on its side."""
    policy = GAME.playout_policy()
    assert policy is not None
    for players in (4, 6):
        for seed in range(10):
            state = Match.create("werewolf", players, seed).state
            rng = random.Random(seed)
            for _ in range(3_000):
                if GAME.outcome(state) is not None:
                    break
                seat = min(GAME.pending(state))
                legal = GAME.legal(state, seat)
                action = policy(state, seat, legal, rng)
                assert action in legal
                if action.kind in ("target", "vote", "write", "suggest") and action["seat"] >= 0:
                    me = state.seats[seat]
                    known = me.known_roles.get(action["seat"])
                    if known is not None and action["seat"] != seat:
                        assert (known in KIRA_TEAM) != (me.role in KIRA_TEAM)
                GAME.apply(state, seat, action, rng)
            assert GAME.outcome(state) is not None


def test_playout_policy_arrests_a_known_kira_at_once() -> None:
    """L holding Arrest who knows Kira plays it on him, whatever the generator."""
    policy = GAME.playout_policy()
    assert policy is not None
    m = new(4, 1)
    set_roles(m, {0: "l", 1: "kira", 2: "police", 3: "worshipper"})
    set_hand(m, 0, ["arrest", "vote", "witness"])
    st(m).seats[0].known_roles[1] = "kira"
    poke(m)
    for i in range(10):
        action = policy(st(m), 0, m.legal(0), random.Random(i))
        assert action.kind == "play" and action["card"] == "arrest"
    GAME.apply(st(m), 0, action, random.Random(0))
    target = policy(st(m), 0, GAME.legal(st(m), 0), random.Random(0))
    assert target["seat"] == 1


def test_evaluate_estimates_at_a_turn_start_and_counts_arrests() -> None:
    """An estimate at the start of a turn only (None while a card's target is asked); the
    L team's seats share one chance and the Kira team's the rest; the L team's chance rises
    with an Arrest in L's hand; a finished game gives its result."""
    m = new(4, 1)
    set_roles(m, {0: "l", 1: "kira", 2: "police", 3: "worshipper"})
    set_hand(m, 0, ["vote", "witness", "surveillance"])
    values = GAME.evaluate(st(m))
    assert values is not None
    assert values[0] == values[2] and abs(values[0] + values[1] - 1.0) < 1e-9
    assert values[1] == values[3]
    set_hand(m, 0, ["arrest", "witness", "surveillance"])
    armed = GAME.evaluate(st(m))
    assert armed is not None and armed[0] > values[0]
    m.submit(0, next(a for a in m.legal(0) if a.kind == "play" and a["card"] == "witness"))
    assert GAME.evaluate(st(m)) is None  # Witness asks for its target
    st(m).winner = "kira"
    assert GAME.evaluate(st(m)) == (0.0, 1.0, 0.0, 1.0)


def test_anchored_search_overrules_alike_on_worlds_its_seat_cannot_tell_apart() -> None:
    """WW-BOT-04: the anchored search bot (``ismcts:anchor=M``) at real choices of heuristic
    games at 5 players: on the match and on a world drawn for its seat (the same view,
    other hidden Roles and cards) the same generator gives the same move, so it reads no
    more than its seat may; with no margin it overrules the heuristic bot somewhere, and
    with a margin above any gain nowhere."""
    from deathnote.agents import IsmctsAgent, agent_rng, make_agent, observe

    overruled = {0.0: 0, 1.5: 0}
    compared = 0
    for seed in range(6):
        match = Match.create("werewolf", 5, seed)
        bots = [make_agent("werewolf", "heuristic", s) for s in range(5)]
        rngs = [agent_rng(seed, s) for s in range(5)]
        for step in range(60):
            if match.outcome() is not None:
                break
            seat = min(match.pending())
            if step % 7 == 3 and len(match.legal(seat)) > 1:
                twin = match.sample_world(seat, random.Random(seed))
                assert twin.view(seat) == match.view(seat)
                for margin in overruled:
                    moves = []
                    for world in (match, twin):
                        bot = IsmctsAgent(
                            seat, "werewolf", sims=60, seconds=None, rollout="game", anchor=margin
                        )
                        moves.append(bot.choose(observe(world, seat, random.Random(step))))
                        overruled[margin] += bot.overruled
                    assert moves[0] == moves[1]
                compared += 1
            match.submit(seat, bots[seat].choose(observe(match, seat, rngs[seat])))
    assert compared >= 20
    assert overruled[0.0] > 0 and overruled[1.5] == 0


def twin_choices(seeds: int, steps: int, at: int) -> Iterator[tuple[int, int, Match, Match]]:
    """(step, seat, match, twin) at the real choices of heuristic games at 5 players (every
    ninth step from ``at``, where the seat to move has a choice): the match, and a world
    drawn for that seat (asserted the same for it); the heuristic bots then play on."""
    from deathnote.agents import agent_rng, make_agent, observe

    for seed in range(seeds):
        match = Match.create("werewolf", 5, seed)
        bots = [make_agent("werewolf", "heuristic", s) for s in range(5)]
        rngs = [agent_rng(seed, s) for s in range(5)]
        for step in range(steps):
            if match.outcome() is not None:
                break
            seat = min(match.pending())
            if step % 9 == at and len(match.legal(seat)) > 1:
                twin = match.sample_world(seat, random.Random(seed))
                assert twin.view(seat) == match.view(seat)
                yield step, seat, match, twin
            match.submit(seat, bots[seat].choose(observe(match, seat, rngs[seat])))


def test_a_paired_search_plays_alike_on_worlds_its_seat_cannot_tell_apart() -> None:
    """WW-BOT-06: the paired search (``ismcts:paired=1``) at real choices of heuristic games
    at 5 players: on the match and on a world drawn for its seat (the same view, other
    hidden Roles and cards) the same generator gives the same move and the same values."""
    from deathnote.agents import IsmctsAgent, observe

    compared = 0
    for step, seat, match, twin in twin_choices(seeds=3, steps=40, at=4):
        moves = []
        for world in (match, twin):
            bot = IsmctsAgent(
                seat, "werewolf", sims=3, seconds=None, anchor=0.0, paired=True, cut=2
            )
            obs = observe(world, seat, random.Random(step))
            moves.append((bot.choose(obs), bot._paired(obs, 0.0)))
        assert moves[0] == moves[1]
        compared += 1
    assert compared >= 6


def test_belief_weighs_a_world_by_the_others_plays_under_its_roles() -> None:
    """WW-BOT-05: a world's weight is the log-likelihood of the other seats' public plays
    and discards under the Roles it deals (``BEHAVIOUR``, counted in heuristic games): a
    seat that played Interrogations is likelier Kira than Police, one that discarded the
    Alibi likelier Police than Kira; the viewer's own plays count for nothing, and no
    Role makes a choice impossible."""
    from deathnote.games.werewolf.belief import BEHAVIOUR, world_weight

    def log(*plays: tuple[str, int, str]) -> dict[str, Any]:
        return {"log": [{"data": {"type": t, "seat": s, "card": c}} for t, s, c in plays]}

    m = new(5, seed=3)
    set_roles(m, {0: "l", 1: "kira", 2: "police", 3: "worshipper", 4: "police"})
    swapped = new(5, seed=3)
    set_roles(swapped, {0: "l", 1: "police", 2: "kira", 3: "worshipper", 4: "police"})
    pulled = log(("play", 1, "interrogation"), ("play", 1, "interrogation"))
    weigh = world_weight(pulled, 0)
    assert weigh(st(m)) > weigh(st(swapped))
    alibi = world_weight(log(("discard", 1, "alibi")), 0)
    assert alibi(st(m)) < alibi(st(swapped))
    own = world_weight(log(("play", 0, "interrogation"), ("discard", 0, "alibi")), 0)
    assert own(st(m)) == own(st(swapped)) == 0.0
    assert GAME.search_belief(pulled, 0) is not None
    for odds in BEHAVIOUR.values():
        assert all(-20.0 < x < 0.0 for x in odds.values())


def test_a_belief_search_plays_alike_on_worlds_its_seat_cannot_tell_apart() -> None:
    """WW-BOT-05: the search with belief-weighted worlds (``ismcts:belief=K``) reads its
    weights from its seat's view only: on the match and on a world drawn for its seat (the
    same view, other hidden Roles and cards) the same generator gives the same move."""
    from deathnote.agents import IsmctsAgent, observe

    compared = 0
    for step, seat, match, twin in twin_choices(seeds=4, steps=50, at=5):
        moves = []
        for world in (match, twin):
            bot = IsmctsAgent(seat, "werewolf", sims=40, seconds=None, belief=6)
            moves.append(bot.choose(observe(world, seat, random.Random(step))))
        assert moves[0] == moves[1]
        compared += 1
    assert compared >= 10
