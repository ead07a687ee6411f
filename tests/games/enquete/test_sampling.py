"""fork_state and sample_state: independent copies, and worlds a viewer cannot tell apart."""

from __future__ import annotations

import random
from typing import Any

import pytest

from deathnote.agents import RandomAgent, agent_rng, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Match
from deathnote.games.enquete.flow import DISCARD, ref_role
from deathnote.games.enquete.sampling import _holds_fact, fork_state, sample_state
from deathnote.games.enquete.state import EnqState

from .helpers import st


def random_states(players: int, seed: int, every: int) -> Any:
    """A random game, yielding the match every ``every`` actions."""
    m = Match.create("enquete", players, seed)
    agents = [RandomAgent(s) for s in range(players)]
    rngs = [agent_rng(seed, s) for s in range(players)]
    while m.outcome() is None:
        if len(m.actions) % every == 0:
            yield m
        s = min(m.pending())
        m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
    yield m


def holders(s: EnqState) -> dict[int, int]:
    """Where every card is: a seat (hand or set-up pair), DISCARD, or -2 (the draw pile)."""
    where = {n: -2 for n in s.deck}
    where.update({n: DISCARD for n in s.discard})
    for i, x in enumerate(s.seats):
        where.update(dict.fromkeys(x.hand, i))
    for step in s.stack:
        if step.get("fn") == "setup_keep":
            where.update(dict.fromkeys(step["drawn"], step["seat"]))
    return where


def check_knowledge(s: EnqState) -> None:
    """Everything a viewer is recorded to know for certain is true (and nobody holds fewer
    than 0 Suspicions, ENQ-CARD-18)."""
    assert all(x.suspicions >= 0 for x in s.seats)
    where = holders(s)
    for k, pins in enumerate(s.pins):
        for n, h in pins.items():
            assert where[n] == h, f"viewer {k} is sure card {n} is at {h}, it is at {where[n]}"
    for k, top in enumerate(s.tile_top):
        assert top is None or (s.tiles and s.tiles[0] == top), f"viewer {k} top"
        assert set(s.tile_known[k]) <= set(s.tile_discard)
    for f in s.facts:
        assert _holds_fact(lambda ref: ref_role(s, ref), f), f
    for k, x in enumerate(s.seats):
        for ref, role in x.known_roles.items():
            assert ref_role(s, ref) == role, f"seat {k} knows {ref} wrong"


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_what_viewers_know_for_certain_stays_true(players: int) -> None:
    for seed in range(8):
        for m in random_states(players, seed, 1):
            check_knowledge(st(m))


def test_fork_is_independent_and_shares_the_content() -> None:
    for m in random_states(6, 3, 40):
        if m.outcome() is not None:
            break
        before = m.view(OMNISCIENT)
        twin = m.fork()
        assert twin.state.content is m.state.content
        agents = [RandomAgent(s) for s in range(6)]
        for k in range(30):
            if twin.outcome() is not None:
                break
            s = min(twin.pending())
            twin.submit(s, agents[s].choose(observe(twin, s, random.Random(k))))
        assert m.view(OMNISCIENT) == before


def viewers(m: Match) -> list[Any]:
    return [*range(m.players), SPECTATOR, OMNISCIENT]


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_sampled_worlds_look_the_same_to_their_viewer_and_play_on(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(4):
        for m in random_states(players, seed, 9):
            for viewer in viewers(m):
                world = m.sample_world(viewer, rng)
                check_knowledge(world.state)
                assert world.view(viewer) == m.view(viewer)
                if isinstance(viewer, int):
                    assert list(world.legal(viewer)) == list(m.legal(viewer))
                    for action in world.legal(viewer):
                        world.fork().submit(viewer, action)
                checked += 1
            # The sampled world plays on to its end, every seat included.
            world = m.sample_world(rng.choice(viewers(m)), rng)
            agents = [RandomAgent(s) for s in range(players)]
            while world.outcome() is None:
                s = min(world.pending())
                world.submit(s, agents[s].choose(observe(world, s, rng)))
    assert checked > 100


def unknown_refs(m: Match, viewer: int) -> list[str]:
    s = st(m)
    known = {f"p{viewer}", *s.seats[viewer].known_roles}
    refs = [f"p{x}" for x in range(m.players) if x != s.detective and not s.seats[x].revealed]
    refs += [f"i{i}" for i, r in enumerate(s.inactive) if not r.revealed]
    return [r for r in refs if r not in known]


@pytest.mark.parametrize("players", [4, 6, 8])
def test_every_hidden_role_and_card_appears_in_samples(players: int) -> None:
    """ENQ-SAMPLE-03: each unknown Role, card and top Investigation turns up in every place
    the viewer cannot rule out, and Light never among the hidden inactive Roles."""
    for seed in range(12, 40):  # a game in round 2 with no public fact about Roles yet
        m = Match.create("enquete", players, seed)
        agents = [RandomAgent(s) for s in range(players)]
        while st(m).round < 2 and m.outcome() is None:
            s = min(m.pending())
            m.submit(s, agents[s].choose(observe(m, s, random.Random(len(m.actions)))))
        if m.outcome() is None and not st(m).facts:
            break
    s = st(m)
    assert not s.facts and m.outcome() is None
    rng = random.Random(5)
    for viewer in range(players):
        refs = unknown_refs(m, viewer)
        roles = {ref_role(s, r) for r in refs}
        seen: dict[str, set[str]] = {r: set() for r in refs}
        hidden = {n for n, h in holders(s).items() if n not in s.pins[viewer]}
        places: dict[int, set[int]] = {n: set() for n in hidden}
        pile = [t for t in s.tiles + s.tile_discard if (t - 1) // 5 + 1 == s.round]
        tops: set[int] = set()
        for _ in range(400):
            world = m.sample_world(viewer, rng)
            tops.add(st(world).tiles[0])
            for r in refs:
                seen[r].add(ref_role(world.state, r))
            where = holders(world.state)
            for n in hidden:
                places[n].add(where[n])
        # Every hidden Role turns up at every unknown place, except Light in the centre:
        # Light is dealt in every game, so no hidden inactive Role is Light.
        for r in refs:
            assert seen[r] == (roles - {"light"} if r[0] == "i" else roles), (viewer, r)
        # The Investigation on top is any of the round's tiles the viewer has not seen.
        if s.tile_top[viewer] is None:
            assert tops == set(pile) - set(s.tile_known[viewer]), viewer
        else:
            assert tops == {s.tiles[0]}
        # Each hidden card turns up in every place that hides cards from this viewer.
        spots = {h for n in hidden for h in [holders(s)[n]]}
        assert all(places[n] == spots for n in hidden), viewer


@pytest.mark.parametrize("players", [4, 6, 8])
def test_a_remembered_sample_plan_samples_as_a_fresh_one(players: int) -> None:
    """``plan_of`` remembers what a position hides from a viewer (ENQ-SAMPLE-03): worlds
    drawn with the plan remembered, again and again along a game (window passes, choices,
    step functions), are the worlds drawn from a copy that works the plan out anew; and a
    world played on leaves the original as it was (a sample shares with the original what
    it makes anew, ``_fork``)."""
    checked = 0
    for seed in range(3):
        for viewer in [*range(players), SPECTATOR]:
            m = Match.create("enquete", players, seed)
            agents = [RandomAgent(s) for s in range(players)]
            k = 0
            while m.outcome() is None:
                s = st(m)
                memo = [sample_state(s, viewer, random.Random(k)) for _ in range(2)]
                plain = fork_state(s)
                plain.sample_plan = None
                fresh = sample_state(plain, viewer, random.Random(k))
                assert memo[0] == fresh and memo[1] == fresh, (seed, viewer, k)
                assert s.sample_plan.key[2] == viewer
                if k % 5 == 0:
                    # A world shares nothing it changes with the original: played on, the
                    # original is as it was.
                    game = m.game
                    world = memo[0]
                    for j in range(20):
                        mover, legal = game.moves(world)
                        if mover is None:
                            break
                        game.apply_quiet(world, mover, legal[j % len(legal)], random.Random(j))
                    assert s == plain, (seed, viewer, k)
                checked += 1
                seat = min(m.pending())
                m.submit(seat, agents[seat].choose(observe(m, seat, random.Random(k))))
                k += 1
    assert checked > 1000


def test_a_redrawn_designation_leaves_the_original_as_it_was() -> None:
    """A Death Note or Blackmail designation not yet announced is drawn again in a sample
    (``_redraw_choices``), which changes the designating seat's look and certainties in the
    sample only: the original's stay as they were."""
    found = 0
    for seed in range(200):
        m = Match.create("enquete", 6, seed)
        agents = [RandomAgent(s) for s in range(6)]
        while m.outcome() is None and found < 10:
            s = st(m)
            top = s.stack[-1]
            if top["k"] == "pick" and top["fn"] in ("dn_play", "bm_force"):
                found += 1
                plain = fork_state(s)
                for viewer in range(6):
                    if viewer != top["seat"]:
                        for k in range(8):
                            sample_state(s, viewer, random.Random(k))
                assert s == plain, seed
            seat = min(m.pending())
            m.submit(seat, agents[seat].choose(observe(m, seat, random.Random(len(m.actions)))))
        if found >= 10:
            break
    assert found >= 10
