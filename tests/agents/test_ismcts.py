"""The ISMCTS search bot: it searches only worlds its seat cannot rule out, in every game."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from deathnote.agents import (
    IsmctsAgent,
    Observation,
    agent_names,
    agent_rng,
    check_agent,
    make_agent,
    observe,
)
from deathnote.engine import OMNISCIENT, Match, games
from deathnote.engine.actions import Seat
from deathnote.engine.errors import DeathNoteError
from deathnote.sim.runner import game_seed

GAMES = {"confrontation": 2, "icg": 4, "enquete": 4, "werewolf": 4, "tcg": 2}


def heuristic_position(game_id: str, players: int, seed: int, steps: int) -> Match:
    """A match after ``steps`` heuristic actions, stopped early at a real choice."""
    match = Match.create(game_id, players, seed)
    bots = [make_agent(game_id, "heuristic", s) for s in range(players)]
    rngs = [agent_rng(seed, s) for s in range(players)]
    for _ in range(steps):
        if match.outcome() is not None:
            break
        seat = min(match.pending())
        match.submit(seat, bots[seat].choose(observe(match, seat, rngs[seat])))
    return match


def twin_positions(
    game_id: str, players: int, seeds: int, first: int, step: int
) -> Iterator[tuple[int, Seat, Match, Match]]:
    """(seed, seat, match, twin) for seeds 0..``seeds``-1: a heuristic game's position after
    ``first + step * seed`` actions where a seat has a choice, and a world drawn for that
    seat (asserted the same for it). At the end, asserts that at least two were given and
    that the hidden state differed in at least one (else the comparisons prove nothing)."""
    compared = hidden_differs = 0
    for seed in range(seeds):
        match = heuristic_position(game_id, players, seed, first + step * seed)
        if match.outcome() is not None:
            continue
        seat = min(match.pending())
        if len(match.legal(seat)) < 2:
            continue
        twin = match.sample_world(seat, random.Random(100 + seed))
        assert twin.view(seat) == match.view(seat)
        hidden_differs += twin.view(OMNISCIENT)["state"] != match.view(OMNISCIENT)["state"]
        yield seed, seat, match, twin
        compared += 1
    assert compared >= 2 and hidden_differs >= 1


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_ismcts_plays_alike_in_matches_its_seat_cannot_tell_apart(game_id: str) -> None:
    """The bot never reads the true state: on a match and on a world drawn for its seat
    (the same for that seat, different hidden cards), the same generator gives the same
    search and the same move."""
    for seed, seat, match, twin in twin_positions(game_id, GAMES[game_id], 4, 3, 2):
        moves = []
        for world in (match, twin):
            bot = IsmctsAgent(seat, game_id, sims=30, seconds=None)
            moves.append((bot.choose(observe(world, seat, random.Random(seed))), bot.last_sims))
        assert moves[0] == moves[1]


def test_the_observation_reaches_only_sampled_worlds() -> None:
    match = heuristic_position("confrontation", 2, 3, 4)
    seat = min(match.pending())
    before = match.record()
    obs = observe(match, seat, random.Random(1))
    # Nothing the agent is handed is the match itself.
    held = [getattr(obs, name) for name in Observation.__slots__ if hasattr(obs, name)]
    assert not any(isinstance(value, Match) for value in held)
    world = obs.sample_world(random.Random(2))
    assert world is not match and world.sampled and world.actions == []
    assert world.seed != match.seed  # the true seed would deal the real cards again
    assert all(e.visible_to(seat) for e in world.events)
    while world.outcome() is None:
        s = min(world.pending())
        world.submit(s, world.legal(s)[0])
    assert match.record() == before and match.outcome() is None
    with pytest.raises(DeathNoteError, match="cannot sample"):
        Observation(seat, match.legal(seat), dict, random.Random(1)).sample_world(random.Random())


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_ismcts_plays_whole_games_in_every_seat(game_id: str) -> None:
    players = GAMES[game_id]
    seed = game_seed(7, 0)
    match = Match.create(game_id, players, seed)
    bots = [make_agent(game_id, "ismcts:sims=4", s) for s in range(players)]
    rngs = [agent_rng(seed, s) for s in range(players)]
    searched = set()
    while match.outcome() is None:
        assert len(match.actions) < 5_000
        seat = min(match.pending())
        bot = bots[seat]
        match.submit(seat, bot.choose(observe(match, seat, rngs[seat])))
        if isinstance(bot, IsmctsAgent) and bot.last_sims:
            assert bot.last_sims == 4
            searched.add(seat)
    assert searched == set(range(players))
    assert Match.replay(match.record()).outcome() == match.outcome()


def test_ismcts_beats_random_in_confrontation() -> None:
    """20 seeded games, sides swapped: 100 simulations a move win clearly."""
    wins = 0
    for index in range(20):
        seed = game_seed(1, index)
        names = ["ismcts:sims=100:rollout=random", "random"]
        if index % 2:
            names.reverse()
        match = Match.create("confrontation", 2, seed)
        bots = [make_agent("confrontation", name, s) for s, name in enumerate(names)]
        rngs = [agent_rng(seed, s) for s in range(2)]
        while match.outcome() is None:
            seat = min(match.pending())
            match.submit(seat, bots[seat].choose(observe(match, seat, rngs[seat])))
        outcome = match.outcome()
        assert outcome is not None
        wins += names.index("random") not in outcome.winning_seats
    assert wins >= 14


def test_a_forced_covert_step_takes_the_whole_time_budget() -> None:
    """One legal action is answered no faster than a real choice: timing tells nothing."""
    match = Match.create("confrontation", 2, 5)
    seat = min(match.pending())
    only = match.legal(seat)[:1]
    bot = IsmctsAgent(seat, "confrontation", seconds=0.05)
    start = time.perf_counter()
    assert bot.choose(Observation(seat, only, dict, random.Random(1))) is only[0]
    assert time.perf_counter() - start >= 0.05 and bot.last_sims == 0
    # With a simulation budget (offline play, nobody watches the clock) it answers at once.
    quick = IsmctsAgent(seat, "confrontation", sims=50, seconds=None)
    start = time.perf_counter()
    quick.choose(Observation(seat, only, dict, random.Random(1)))
    assert time.perf_counter() - start < 0.05


def test_without_a_sampler_it_plays_as_the_heuristic() -> None:
    match = heuristic_position("confrontation", 2, 2, 3)
    seat = min(match.pending())
    view = match.view(seat)
    bare = Observation(seat, match.legal(seat), lambda: view, random.Random(4))
    bot = IsmctsAgent(seat, "confrontation", sims=10, seconds=None)
    plain = make_agent("confrontation", "heuristic", seat)
    again = Observation(seat, match.legal(seat), lambda: view, random.Random(4))
    assert bot.choose(bare) == plain.choose(again)


def test_levels_and_settings_by_name() -> None:
    for game_id in games():
        assert {"ismcts", "ismcts-normal", "ismcts-hard"} <= set(agent_names(game_id))
    hard = make_agent("confrontation", "ismcts-hard", 1)
    assert isinstance(hard, IsmctsAgent) and hard.seconds == 1.0 and hard.sims is None
    assert hard.prior == 20 and hard.guide == "root" and hard.rollout == "game"
    normal = make_agent("icg", "ismcts", 0)
    assert isinstance(normal, IsmctsAgent) and normal.seconds == 0.2
    tuned = make_agent("tcg", "ismcts-hard:sims=300:rollout=heuristic:c=1.5", 0)
    assert isinstance(tuned, IsmctsAgent)
    assert (tuned.sims, tuned.seconds, tuned.rollout, tuned.c) == (300, None, "heuristic", 1.5)
    both = make_agent("tcg", "ismcts:sims=300:seconds=2", 0)
    assert isinstance(both, IsmctsAgent) and (both.sims, both.seconds) == (300, 2.0)
    for bad in ("ismcts:sims=lots", "ismcts:depth=3", "ismcts:rollout=greedy", "ismcts:sims=0"):
        with pytest.raises(DeathNoteError, match="ismcts"):
            check_agent("confrontation", bad)
    with pytest.raises(DeathNoteError, match="unknown agent"):
        check_agent("confrontation", "alphazero")


def test_heuristic_rollouts_play() -> None:
    match = heuristic_position("icg", 4, 2, 2)
    seat = min(match.pending())
    bot = IsmctsAgent(seat, "icg", sims=5, seconds=None, rollout="heuristic")
    assert bot.choose(observe(match, seat, random.Random(3))) in match.legal(seat)
    assert bot.last_sims == (5 if len(match.legal(seat)) > 1 else 0)


def test_bench_counts_the_search_simulations() -> None:
    from deathnote.sim.runner import bench_search

    result = bench_search("confrontation", 2, {}, 0.3, "ismcts:sims=20")
    assert result["moves_searched"] >= 1
    assert result["simulations"] == 20 * result["moves_searched"]
    assert result["simulations_per_second"] > 0
    assert result["simulations_per_cpu_second"] > 0
    with pytest.raises(DeathNoteError, match="not a search agent"):
        bench_search("confrontation", 2, {}, 0.1, "heuristic")


def test_the_play_loop_hands_search_bots_a_sampler() -> None:
    """simulate, the terminal and the server play through engine.play: ISMCTS searches."""
    from deathnote.engine.play import Table, play

    searched: list[int] = []

    class Counting(IsmctsAgent):
        def choose(self, obs: Observation) -> Any:
            action = super().choose(obs)
            searched.append(self.last_sims)
            return action

    match = Match.create("confrontation", 2, 9)
    bots = [Counting(s, "confrontation", sims=3, seconds=None) for s in range(2)]
    assert play(match, bots) is not None
    assert 3 in searched
    table = Table(Match.create("confrontation", 2, 9), bots)
    seat = table.next_seat()
    assert seat is not None and table.observation(seat).can_sample


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_bare_search_is_the_search_through_the_match(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random play-outs run on the sampled worlds' states through the game's functions
    (``_search_bare``); they give exactly the statistics of the same search played through
    each world's Match (submit, pending, legal, outcome) with the same draws."""
    from deathnote.agents import ismcts
    from deathnote.engine.rng import below

    match = heuristic_position(game_id, GAMES[game_id], 2, 5)
    seat = min(match.pending())
    if len(match.legal(seat)) < 2 or match.outcome() is not None:
        pytest.skip("no real choice at this position")
    bare = IsmctsAgent(seat, game_id, sims=60, seconds=None)
    fast = bare.search(observe(match, seat, random.Random(9)), time.perf_counter()).stats

    def through_the_match(self: IsmctsAgent, rng: random.Random) -> Any:
        self._rng = rng

        def policy(world: Match, mover: int) -> Any:
            legal = world.legal(mover)
            return legal[below(rng, len(legal))]

        return policy

    monkeypatch.setattr(ismcts.IsmctsAgent, "_policy", through_the_match)
    slow = IsmctsAgent(seat, game_id, sims=60, seconds=None)
    stats = slow.search(observe(match, seat, random.Random(9)), time.perf_counter()).stats
    assert fast == stats and bare.last_sims == slow.last_sims == 60


def test_the_prior_seeds_the_heuristic_choice_at_the_root() -> None:
    """With ``prior`` virtual wins the heuristic bot's move leads until the search has
    seen enough against it; it reads only the seat's view, so twins still play alike."""
    match = heuristic_position("confrontation", 2, 1, 5)
    seat = min(match.pending())
    assert len(match.legal(seat)) > 2
    plain = make_agent("confrontation", "heuristic", seat)
    hint = plain.choose(observe(match, seat, random.Random(6)))
    bot = make_agent("confrontation", "ismcts:sims=2:prior=50", seat)
    assert isinstance(bot, IsmctsAgent) and bot.prior == 50
    assert bot.choose(observe(match, seat, random.Random(6))) == hint
    twin = match.sample_world(seat, random.Random(7))
    moves = [
        IsmctsAgent(seat, "confrontation", sims=40, seconds=None, prior=5).choose(
            observe(world, seat, random.Random(8))
        )
        for world in (match, twin)
    ]
    assert moves[0] == moves[1]
    with pytest.raises(DeathNoteError, match="ismcts"):
        check_agent("confrontation", "ismcts:prior=many")


@pytest.mark.parametrize("game_id", ["confrontation", "werewolf"])
def test_guide_tree_seeds_the_heuristic_choice_at_every_new_node(game_id: str) -> None:
    """``guide=tree``: each node the search adds where the mover has a real choice starts
    with ``prior`` virtual wins (500: more than the search visits) on that mover's heuristic choice (shown the mover's view of
    the sampled world); twins still play alike."""
    match = heuristic_position(game_id, GAMES[game_id], 3, 6)
    seat = min(match.pending())
    assert match.outcome() is None and len(match.legal(seat)) > 1
    # paired=0: the tree search (Werewolf's levels play the paired search, WW-BOT-07).
    bot = make_agent(game_id, "ismcts:sims=60:prior=500:guide=tree:paired=0", seat)
    assert isinstance(bot, IsmctsAgent) and bot.guide == "tree"
    bot.choose(observe(match, seat, random.Random(5)))
    seeded = [
        node
        for node in bot.last_table.values()
        if any(entry[0] >= 500 and entry[1] >= 500 for entry in node.stats.values())
    ]
    assert seeded
    # Only one action per node is seeded, and a node never seeded holds only real visits.
    for node in bot.last_table.values():
        assert sum(1 for entry in node.stats.values() if entry[1] >= 500 and entry[0] >= 500) <= 1
    plain = make_agent(game_id, "ismcts:sims=60:prior=500", seat)
    plain.choose(observe(match, seat, random.Random(5)))
    assert isinstance(plain, IsmctsAgent)
    assert not any(
        entry[0] >= 500 for node in plain.last_table.values() for entry in node.stats.values()
    )
    twin = match.sample_world(seat, random.Random(11))
    moves = [
        IsmctsAgent(seat, game_id, sims=40, seconds=None, prior=3, guide="tree").choose(
            observe(world, seat, random.Random(8))
        )
        for world in (match, twin)
    ]
    assert moves[0] == moves[1]
    with pytest.raises(DeathNoteError, match="ismcts"):
        check_agent(game_id, "ismcts:guide=everywhere")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_game_rollouts_play_in_every_game(game_id: str) -> None:
    """``rollout=game``: the game's play-out policy and estimate where it has them (random
    play-outs to the end where not) give legal moves with the whole budget searched."""
    for seed in range(3):
        match = heuristic_position(game_id, GAMES[game_id], seed, 2 + 3 * seed)
        if match.outcome() is not None:
            continue
        seat = min(match.pending())
        bot = make_agent(game_id, "ismcts:sims=20:rollout=game", seat)
        assert isinstance(bot, IsmctsAgent) and bot.rollout == "game"
        assert bot.choose(observe(match, seat, random.Random(seed))) in match.legal(seat)
        assert bot.last_sims == (20 if len(match.legal(seat)) > 1 else 0)


def test_game_rollouts_stop_at_the_games_estimate() -> None:
    """In Confrontation a play-out ends at the next day's start with the game's estimate
    (``Game.evaluate``), so the root's rewards are fractions, not only wins and losses."""
    match = heuristic_position("confrontation", 2, 3, 1)
    seat = min(match.pending())
    bot = IsmctsAgent(seat, "confrontation", sims=200, seconds=None, rollout="game")
    root = bot.search(observe(match, seat, random.Random(5)), time.perf_counter())
    rewards = [total for _visits, total, _avail in root.stats.values()]
    assert sum(visits for visits, _t, _a in root.stats.values()) == 200
    assert any(abs(total - round(total)) > 1e-6 for total in rewards)


def test_the_prior_comes_from_the_games_search_prior() -> None:
    """The root's hint is the choice of the game's prior bot (``Game.search_prior``): in
    Confrontation an L who expects Kira to dodge the scene he is seen covering."""
    for seed in range(40):
        match = Match.create("confrontation", 2, seed)
        match.submit(1, next(a for a in match.legal(1) if a.kind == "follow"))
        match.submit(0, match.legal(0)[0])
        lead = match.view(1)["state"]["lead"]
        if lead["A"]["points"] != lead["B"]["points"]:
            break
    prior = games()["confrontation"].search_prior(1)
    assert prior is not None
    hint = prior.choose(observe(match, 1, random.Random(6)))
    plain = make_agent("confrontation", "heuristic", 1).choose(observe(match, 1, random.Random(6)))
    assert hint != plain  # the prior bot differs from the heuristic bot here
    bot = IsmctsAgent(1, "confrontation", sims=2, seconds=None, prior=50)
    assert bot.choose(observe(match, 1, random.Random(6))) == hint


def test_sampled_worlds_can_share_one_generator_of_the_search() -> None:
    """``world_rng``: the world draws its chance from the search's generator (none seeded
    per world), and the sampler draws nothing more from ``rng`` than the sample itself."""
    match = heuristic_position("confrontation", 2, 3, 4)
    seat = min(match.pending())
    shared = random.Random(8)
    obs = observe(match, seat, random.Random(1))
    rng_a, rng_b = random.Random(2), random.Random(2)
    world = obs.sample_world(rng_a, False, shared)
    assert world.rng is shared and world.seed == -1 and world.sampled
    same = match.sample_world(seat, rng_b, False, random.Random(8))
    assert world.state == same.state and rng_a.getstate() == rng_b.getstate()
    while world.outcome() is None:
        s = min(world.pending())
        world.submit(s, world.legal(s)[0])
    assert shared.getstate() != random.Random(8).getstate()  # the world drew from it


def test_a_bot_back_at_an_information_set_answers_otherwise() -> None:
    """Nothing it sees changed since it answered here (e.g. it began a two-step choice and
    cancelled it): it takes another answer rather than go round the same loop again."""
    match = heuristic_position("tcg", 2, 1, 6)
    seat = min(match.pending())
    legal = match.legal(seat)
    assert len(legal) > 2
    bot = IsmctsAgent(seat, "tcg", sims=30, seconds=None, rollout="game")
    answers = [bot.choose(observe(match, seat, random.Random(k))) for k in range(len(legal))]
    assert len(set(answers)) == len(legal)  # every answer once before any again
    again = bot.choose(observe(match, seat, random.Random(99)))
    assert again in legal
    # Another seat's bot, or this one in a new game, starts with no such memory.
    fresh = IsmctsAgent(seat, "tcg", sims=30, seconds=None, rollout="game")
    assert fresh.choose(observe(match, seat, random.Random(0))) == answers[0]


def test_a_walk_back_where_its_own_moves_began_wins_nothing() -> None:
    """A walk that comes back to an information set by its seat's own moves alone (begin a
    two-step choice, cancel it) counts those choices as visits that won nothing; with
    another seat's move in between it is played out as usual."""
    from deathnote.agents.ismcts import Node, _close_loop
    from deathnote.engine.actions import Action

    a, b, c = Action.make("attach"), Action.make("cancel"), Action.make("next")
    first, second, third = Node(), Node(), Node()
    for node, action in ((first, c), (second, a), (third, b)):
        node.stats[action] = [1.0, 1.0, 1.0]
    path = [(first, c, 1), (second, a, 0), (third, b, 0)]
    # Seat 0 entered ``second`` after 3 actions (path length 1); only seat 0 moved since.
    _close_loop(path, (1, 3), 0, run_seat=0, run_from=2)
    assert path == [(first, c, 1)]
    assert second.stats[a] == [2.0, 1.0, 1.0] and third.stats[b] == [2.0, 1.0, 1.0]
    # Seat 1 moved in between: nothing changes.
    path = [(first, c, 1), (second, a, 0), (third, b, 0)]
    _close_loop(path, (0, 0), 0, run_seat=0, run_from=2)
    _close_loop(path, (1, 3), 0, run_seat=1, run_from=3)
    assert len(path) == 3 and first.stats[c] == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("game_id", ["icg", "werewolf", "enquete"])
def test_others_policy_keeps_nodes_for_the_searching_seat_only(game_id: str) -> None:
    """``others=policy``: the other seats' moves are played by the play-out policy, so
    every node of the tree is one of the searching seat's own information sets; the
    game's default (``tree`` in every game) searches the others too. Twins (the true
    match and a world drawn for the seat) still play alike."""
    match = heuristic_position(game_id, GAMES[game_id], 3, 8)
    seat = min(match.pending())
    assert match.outcome() is None and len(match.legal(seat)) > 1
    bot = make_agent(game_id, "ismcts:sims=200:rollout=game:others=policy:paired=0", seat)
    assert isinstance(bot, IsmctsAgent) and bot.others == "policy"
    bot.choose(observe(match, seat, random.Random(5)))
    assert bot.last_table and {key[0] for key in bot.last_table} == {seat}
    tree = make_agent(game_id, "ismcts:sims=200:rollout=game:paired=0", seat)
    tree.choose(observe(match, seat, random.Random(5)))
    assert isinstance(tree, IsmctsAgent) and tree.others == "tree"
    assert {key[0] for key in tree.last_table} - {seat}
    twin = match.sample_world(seat, random.Random(11))
    moves = [
        make_agent(game_id, "ismcts:sims=60:rollout=game:others=policy:paired=0", seat).choose(
            observe(world, seat, random.Random(8))
        )
        for world in (match, twin)
    ]
    assert moves[0] == moves[1]
    # A bad value is refused.
    with pytest.raises(DeathNoteError, match="others"):
        check_agent(game_id, "ismcts:others=nobody")


@pytest.mark.parametrize("through_the_match", [False, True])
def test_a_game_scoring_its_seats_rewards_the_search_with_its_scores(
    through_the_match: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a game gives each seat's reward at the end (``Game.search_rewards``: Enquête's
    Apples), every simulation backs that reward up instead of 1 for a win, 0 for a loss,
    in the bare search and through each world's Match alike."""
    from deathnote.agents import ismcts
    from deathnote.engine.rng import below

    kind = type(games()["enquete"])
    monkeypatch.setattr(kind, "search_rewards", lambda self, state: [0.25] * len(state.seats))
    if through_the_match:

        def policy_of(self: IsmctsAgent, rng: random.Random) -> Any:
            self._rng = rng
            return lambda world, mover: world.legal(mover)[below(rng, len(world.legal(mover)))]

        monkeypatch.setattr(ismcts.IsmctsAgent, "_policy", policy_of)
    match = heuristic_position("enquete", 4, 2, 30)
    seat = min(match.pending())
    assert match.outcome() is None and len(match.legal(seat)) > 1
    bot = IsmctsAgent(seat, "enquete", sims=40, seconds=None)  # random play-outs to the end
    root = bot.search(observe(match, seat, random.Random(3)), time.perf_counter())
    assert sum(entry[0] for entry in root.stats.values()) == 40
    for visits, total, _available in root.stats.values():
        assert total == pytest.approx(0.25 * visits)


def _played(game_id: str, players: int, seed: int, names: list[str]) -> list[Any]:
    """The actions of one game with ``names[s]`` in seat s (the arena's generators)."""
    match = Match.create(game_id, players, seed)
    bots = [make_agent(game_id, name, s) for s, name in enumerate(names)]
    rngs = [agent_rng(seed, s) for s in range(players)]
    while match.outcome() is None:
        seat = min(match.pending())
        match.submit(seat, bots[seat].choose(observe(match, seat, rngs[seat])))
    return list(match.actions)


@pytest.mark.parametrize(
    ("game_id", "agent", "seeds"),
    [
        ("icg", "ismcts:sims=20:anchor=1.5", 3),
        ("werewolf", "ismcts:sims=20:anchor=1.5", 3),
        ("enquete", "ismcts:sims=2:anchor=1.5:paired=1:cut=1", 2),
        ("werewolf", "ismcts:sims=2:anchor=1.5:paired=1:cut=1", 2),
    ],
)
def test_an_anchored_search_that_never_overrules_plays_the_heuristic_game(
    game_id: str, agent: str, seeds: int
) -> None:
    """``anchor`` above any gain a search can see (values are 0..1), tree or ``paired``:
    the bot plays exactly the heuristic bot's game in its seat (the prior bot of these
    games), draws included (its own copy of the generator), however much the search or
    the paired play-outs draw from the seat's generator, and before any answer of the
    game's own (the ICG's Death Note)."""
    players = GAMES[game_id]
    for seed in range(seeds):
        plain = _played(game_id, players, seed, ["heuristic"] * players)
        anchored = ["heuristic"] * players
        anchored[seed % players] = agent
        assert _played(game_id, players, seed, anchored) == plain


@pytest.mark.parametrize("game_id", ["enquete", "werewolf"])
def test_a_paired_search_plays_alike_in_matches_its_seat_cannot_tell_apart(game_id: str) -> None:
    """The paired search reads no more than its seat may: on a match and on a world drawn
    for its seat, the same generator gives the same play-out results and the same move."""
    for seed, seat, match, twin in twin_positions(game_id, 5, 6, 4, 3):
        results = []
        for world in (match, twin):
            bot = IsmctsAgent(seat, game_id, sims=2, seconds=None, anchor=0.0, paired=True, cut=1)
            obs = observe(world, seat, random.Random(seed))
            results.append((bot.choose(obs), bot._paired(obs, 0.0)))
        assert results[0] == results[1]


def test_a_paired_search_overrules_by_margin_and_standard_errors() -> None:
    """The paired comparison replaces the anchored choice only with an action whose mean
    difference on the same worlds reaches the margin and ``PAIRED_Z`` standard errors of
    those differences; of several, the one with the largest mean difference."""
    from deathnote.engine.actions import Action

    bot = make_agent("werewolf", "ismcts:sims=4:anchor=0.1:paired=1", 0)
    assert isinstance(bot, IsmctsAgent) and bot.paired
    h, a, b = (Action.make("play", card=c) for c in ("vote", "arrest", "witness"))
    # Always better by 0.25 (no spread): overrules; by 0.05: under the margin.
    assert bot._paired_choice({h: [0.5] * 4, a: [0.75] * 4}, h) == a
    assert bot._paired_choice({h: [0.5] * 4, a: [0.55] * 4}, h) == h
    # The same mean gain (0.25) from one world of four winning: too noisy.
    assert bot._paired_choice({h: [0.0] * 4, a: [1.0, 0.0, 0.0, 0.0]}, h) == h
    # Of two clear gains the larger one.
    assert bot._paired_choice({h: [0.0] * 4, a: [0.2] * 4, b: [0.3] * 4}, h) == b
    assert bot.overruled == 2
    for bad in ("ismcts:paired=1", "ismcts:anchor=0.1:paired=1:cut=-1"):
        with pytest.raises(DeathNoteError, match="ismcts"):
            check_agent("werewolf", bad)


def test_paired_play_outs_end_on_the_games_estimate_where_cut() -> None:
    """``cut=1``: the paired play-outs stop at the game's first estimate (Werewolf: the next
    turn's start, a chance between 0 and 1); ``cut=0`` plays them to the end (won or lost)."""
    match = heuristic_position("werewolf", 5, 2, 6)
    seat = min(match.pending())
    assert len(match.legal(seat)) > 1
    seen = {}
    for cut in (0, 1):
        bot = IsmctsAgent(seat, "werewolf", sims=3, seconds=None, anchor=0.1, paired=True, cut=cut)
        values = bot._paired(observe(match, seat, random.Random(4)), time.perf_counter())
        assert set(values) == set(match.legal(seat)) and bot.last_sims == 3
        seen[cut] = {v for vs in values.values() for v in vs}
    assert seen[0] <= {0.0, 1.0}
    assert any(0.0 < v < 1.0 for v in seen[1])


def test_a_paired_search_out_of_time_keeps_the_anchored_choice() -> None:
    """A time budget ends the paired play-outs between two of them, the first world's too:
    an unfinished world is dropped, and with none finished the heuristic bot's choice stands
    (so a seat with many choices answers no later than one play-out past its budget)."""
    match = heuristic_position("werewolf", 5, 2, 6)
    seat = min(match.pending())
    heuristic = make_agent("werewolf", "heuristic", seat)
    expected = heuristic.choose(observe(match, seat, random.Random(3)))
    bot = IsmctsAgent(seat, "werewolf", seconds=1e-9, anchor=0.0, paired=True)
    assert bot.choose(observe(match, seat, random.Random(3))) == expected
    assert bot.last_sims == 0 and bot.overruled == 0


def test_an_anchored_search_overrules_only_by_its_margin() -> None:
    """The search's most visited action replaces the anchored choice only where its mean
    beats the anchored one's by the margin and both were tried ``ANCHOR_VISITS`` times."""
    from deathnote.agents.ismcts import ANCHOR_VISITS
    from deathnote.engine.actions import Action

    bot = make_agent("werewolf", "ismcts:sims=5:anchor=0.1", 0)
    assert isinstance(bot, IsmctsAgent) and bot.anchor == 0.1
    h, best = Action.make("play", card="vote"), Action.make("play", card="arrest")
    n = float(ANCHOR_VISITS)
    assert bot._overrule(h, best, {h: [n, 0.3 * n, n], best: [n, 0.45 * n, n]}) == best
    assert bot._overrule(h, best, {h: [n, 0.3 * n, n], best: [n, 0.35 * n, n]}) == h
    assert bot._overrule(h, best, {h: [n - 1, 0.0, n], best: [n, n, n]}) == h
    assert bot._overrule(h, h, {h: [n, n, n]}) == h
    assert bot.overruled == 1
    for bad in ("ismcts:anchor=-1", "ismcts:anchor=some"):
        with pytest.raises(DeathNoteError, match="ismcts"):
            check_agent("werewolf", bad)


def test_belief_picks_the_worlds_the_game_weighs_likelier(monkeypatch: pytest.MonkeyPatch) -> None:
    """``belief=K``: each world drawn is one of K drawn from the seat's view, picked with
    odds proportional to the game's weight (``Game.search_belief``); a world the game
    weighs far down still comes up where no other is drawn, and ``belief=0`` leaves the
    observation alone."""
    from deathnote.engine.registry import get_game

    match = heuristic_position("werewolf", 5, 3, 7)
    seat = min(match.pending())
    assert len(match.legal(seat)) > 1
    favoured = next(s for s in range(5) if s != seat and match.state.seats[s].role != "kira")
    asked: list[int] = []

    def belief(view: dict[str, Any], viewer: int) -> Any:
        asked.append(viewer)
        assert view == match.view(viewer)  # the seat's own view, nothing more
        return lambda state: 0.0 if state.seats[favoured].role == "kira" else -50.0

    monkeypatch.setattr(get_game("werewolf"), "search_belief", belief)

    def share(obs: Observation) -> float:
        rng = random.Random(5)
        worlds = [obs.sample_world(rng, False).state for _ in range(200)]
        return sum(w.seats[favoured].role == "kira" for w in worlds) / len(worlds)

    plain = observe(match, seat, random.Random(1))
    bot = make_agent("werewolf", "ismcts:sims=5:belief=8", seat)
    assert isinstance(bot, IsmctsAgent) and bot.belief == 8
    weighed = bot._believing(plain)
    assert asked == [seat]
    assert weighed.legal == plain.legal and weighed.view == plain.view
    # A world with the favoured Kira is picked whenever one of the 8 drawn has it.
    drawn, picked = share(plain), share(weighed)
    assert 0.05 < drawn < 0.5 and picked < 1.0
    assert abs(picked - (1 - (1 - drawn) ** 8)) < 0.1
    one = IsmctsAgent(seat, "werewolf", sims=5, seconds=None, belief=1)
    one.choose(observe(match, seat, random.Random(1)))
    assert asked == [seat]  # belief=1 (or 0): the worlds as drawn, no weight asked
    for bad in ("ismcts:belief=-1", "ismcts:belief=some"):
        with pytest.raises(DeathNoteError, match="ismcts"):
            check_agent("werewolf", bad)


def test_a_sampler_of_whole_worlds_only_believes_as_the_game_draws() -> None:
    """``Observation.believing`` on a sampler that offers nothing but whole worlds (not
    made by ``world_sampler``): it draws the K worlds and picks as the game's default
    ``Game.sample_weighted_state`` does (the same states from the same draws)."""
    match = heuristic_position("werewolf", 5, 3, 7)
    seat = min(match.pending())

    def whole_only(
        rng: random.Random, log: bool = True, world_rng: random.Random | None = None
    ) -> Match:
        return match.sample_world(seat, rng, log, world_rng)

    def weigh(state: Any) -> float:
        return -3.0 * sum(x.role == "kira" for x in state.seats[:2])

    bare = Observation(seat, match.legal(seat), lambda: match.view(seat), random.Random(1))
    plain = Observation(seat, bare.legal, lambda: match.view(seat), bare.rng, whole_only)
    believing = plain.believing(4, weigh)
    assert believing.state_sampler is None
    rng_a, rng_b = random.Random(2), random.Random(2)
    for _ in range(20):
        got = believing.sample_world(rng_a, False, random.Random(3)).state
        assert got == match.sample_world(seat, rng_b, False, random.Random(3), (4, weigh)).state
        assert rng_a.getstate() == rng_b.getstate()
    with pytest.raises(DeathNoteError, match="cannot sample"):
        bare.believing(4, weigh)


def test_belief_defaults_to_the_games_setting() -> None:
    """Without ``belief=K`` the bot takes the game's ``search_belief_worlds``: 8 in the ICG
    (ICG-BOT-05), none in Werewolf (WW-BOT-05); ``belief=0`` turns it off."""
    icg = make_agent("icg", "ismcts:sims=5", 0)
    werewolf = make_agent("werewolf", "ismcts:sims=5", 0)
    off = make_agent("icg", "ismcts:sims=5:belief=0", 0)
    assert isinstance(icg, IsmctsAgent) and icg.belief == 8
    assert isinstance(werewolf, IsmctsAgent) and werewolf.belief == 0
    assert isinstance(off, IsmctsAgent) and off.belief == 0


def level_and_named(
    game_id: str, steps: Callable[[int], int], named: Callable[[Match, Seat], str]
) -> Iterator[tuple[Match, Seat, list[Any]]]:
    """At real choices of heuristic games at 5 players (seed ``s`` stopped after
    ``steps(s)`` actions): the position, the seat, and the level ``ismcts:sims=3``'s choice
    and (paired, anchor, simulations) followed by those of the agent ``named`` there."""
    for seed in range(8):
        match = heuristic_position(game_id, 5, seed, steps(seed))
        if match.outcome() is not None:
            continue
        seat = min(match.pending())
        if len(match.legal(seat)) < 2:
            continue
        moves: list[Any] = []
        for name in ("ismcts:sims=3", named(match, seat)):
            bot = make_agent(game_id, name, seat)
            assert isinstance(bot, IsmctsAgent)
            moves.append(bot.choose(observe(match, seat, random.Random(seed))))
            moves.append((bot.paired, bot.anchor, bot.last_sims))
        yield match, seat, moves


def test_a_level_searches_as_its_game_says_for_the_seats_side() -> None:
    """A level (a name setting neither ``paired`` nor ``anchor``) takes the game's mode per
    decision (``Game.search_mode``): in Enquete, on Kira's side the paired search with its
    margin (ENQ-BOT-05), elsewhere the tree; a name that sets the mode keeps its own."""

    def kira(match: Match, seat: Seat) -> bool:
        return bool(match.view(seat)["state"]["me"]["faction"] == "kira")

    def same(match: Match, seat: Seat) -> str:
        paired = kira(match, seat)
        return "ismcts:sims=3:anchor=0.05:paired=1" if paired else "ismcts:sims=3:paired=0"

    sides = set()
    for match, seat, moves in level_and_named("enquete", lambda seed: 6 + 5 * seed, same):
        sides.add(kira(match, seat))
        assert moves[:2] == moves[2:]
        assert moves[1][0] is kira(match, seat)
    assert sides == {True, False}
    fixed = make_agent("enquete", "ismcts:sims=3:paired=0", 0)
    assert isinstance(fixed, IsmctsAgent) and fixed._mode is None


def test_a_werewolf_level_searches_by_the_paired_search_in_every_seat() -> None:
    """Werewolf's levels take the paired search with a 0.05 margin in every seat and team
    (WW-BOT-07): the level's choices and settings are the explicit paired agent's."""
    teams = set()
    paired = "ismcts:sims=3:anchor=0.05:paired=1"
    for match, seat, moves in level_and_named(
        "werewolf", lambda seed: 3 + 4 * seed, lambda match, seat: paired
    ):
        teams.add(match.view(seat)["state"]["me"]["team"])
        assert moves[:2] == moves[2:]
        assert moves[1][:2] == (True, 0.05)
    assert len(teams) == 2


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_bare_search_samples_states_as_the_matchs_worlds(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Observation.state_sampler``: the state alone, drawn as ``sample_world`` draws its
    world's (equal states, the same draws from ``rng``); the bare search that samples so
    gives exactly the statistics of the one that samples whole worlds (the sampler hidden)."""
    match = heuristic_position(game_id, GAMES[game_id], 2, 5)
    seat = min(match.pending())
    if len(match.legal(seat)) < 2 or match.outcome() is not None:
        pytest.skip("no real choice at this position")
    obs = observe(match, seat, random.Random(1))
    sampler = obs.state_sampler
    assert sampler is not None
    rng_a, rng_b = random.Random(2), random.Random(2)
    for _ in range(5):
        game, state = sampler(rng_a)
        world = obs.sample_world(rng_b, False, random.Random(3))
        assert game is world.game and state == world.state
        assert rng_a.getstate() == rng_b.getstate()
    bare = IsmctsAgent(seat, game_id, sims=60, seconds=None, rollout="game")
    fast = bare.search(observe(match, seat, random.Random(9)), time.perf_counter()).stats
    monkeypatch.setattr(Observation, "state_sampler", property(lambda self: None))
    assert observe(match, seat, random.Random(9)).state_sampler is None
    whole = IsmctsAgent(seat, game_id, sims=60, seconds=None, rollout="game")
    stats = whole.search(observe(match, seat, random.Random(9)), time.perf_counter()).stats
    assert fast == stats and bare.last_sims == whole.last_sims == 60


@pytest.mark.parametrize("game_id", ["icg", "werewolf"])
def test_a_belief_search_samples_bare_states_as_its_weighed_worlds(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``belief=K`` on the bare search: the K states drawn and the one picked are the
    states of the K worlds ``_believing``'s world sampler draws and picks (the same draws
    from ``rng``), so the search's statistics are the same as on whole worlds."""
    match = heuristic_position(game_id, GAMES[game_id], 2, 5)
    seat = min(match.pending())
    if len(match.legal(seat)) < 2 or match.outcome() is not None:
        pytest.skip("no real choice at this position")
    bot = IsmctsAgent(seat, game_id, sims=40, seconds=None, rollout="game", belief=8)
    weighed = bot._believing(observe(match, seat, random.Random(1)))
    sampler = weighed.state_sampler
    assert sampler is not None
    rng_a, rng_b = random.Random(2), random.Random(2)
    picked = set()
    for _ in range(8):
        game, state = sampler(rng_a)
        world = weighed.sample_world(rng_b, False, random.Random(3))
        assert game is world.game and state == world.state
        assert rng_a.getstate() == rng_b.getstate()
        picked.add(repr(state))
    assert len(picked) > 1
    fast = bot.search(weighed, time.perf_counter()).stats
    monkeypatch.setattr(Observation, "state_sampler", property(lambda self: None))
    whole = IsmctsAgent(seat, game_id, sims=40, seconds=None, rollout="game", belief=8)
    slow = whole._believing(observe(match, seat, random.Random(1)))
    assert slow.state_sampler is None
    assert fast == whole.search(slow, time.perf_counter()).stats
    assert bot.last_sims == whole.last_sims == 40
