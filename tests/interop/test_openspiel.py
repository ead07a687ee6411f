"""The OpenSpiel games pass OpenSpiel's random simulation test; its ISMCTS bot plays them."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from deathnote.engine import games
from deathnote.interop.openspiel import register_games, spiel_name

# Smallest and largest player counts: OpenSpiel's test resamples every state of a game
# for every seat, a few seconds for a long seven-player game on one core.
CONFIGS = [
    (game_id, players)
    for game_id, game in sorted(games().items())
    for players in sorted({game.min_players, game.max_players})
]


def test_every_game_is_registered() -> None:
    names = register_games()
    assert names == [spiel_name(g) for g in sorted(games())]
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_openspiel_random_sim_test(game_id: str, players: int) -> None:
    game = pyspiel.load_game(spiel_name(game_id), {"players": players, "seed": 1})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_information_state_is_the_seats_own_and_survives_resampling() -> None:
    game = pyspiel.load_game("deathnote_icg", {"players": 5, "seed": 4})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    infostate = state.information_state_string(seat)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(seat) == infostate
        assert world.legal_actions() == state.legal_actions()
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
    # Other seats' hidden facts (e.g. their Missions) are drawn anew in some world.
    others = [s for s in range(5) if s != seat]
    assert any(
        w.information_state_string(o) != state.information_state_string(o)
        for w in worlds
        for o in others
    )


def test_clone_is_independent() -> None:
    game = pyspiel.load_game("deathnote_confrontation", {"seed": 2})
    state = game.new_initial_state()
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert len(twin.history()) == 1 and state.history() == []
    assert str(state) != str(twin)


@pytest.mark.parametrize("game_id", sorted(games()))
def test_openspiel_ismcts_bot_plays(game_id: str) -> None:
    game = pyspiel.load_game(spiel_name(game_id), {"seed": 5})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(1)
    )
    state = game.new_initial_state()
    searched = 0
    chance = np.random.default_rng(2)
    # Every seat searches; Confrontation to the end, the longer games for three decisions.
    while not state.is_terminal() and (game_id == "confrontation" or searched < 3):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        searched += 1
        state.apply_action(action)
    assert searched >= 2
    if game_id == "confrontation":
        assert sorted(state.returns()) == [-1.0, 1.0]


def test_python_exits_cleanly_after_using_the_games() -> None:
    code = (
        "import gc, pyspiel, deathnote.interop.openspiel as dos\n"
        "for name in dos.register_games():\n"
        "    game = pyspiel.load_game(name, {'seed': 1})\n"
        "    state = game.new_initial_state().clone()\n"
        "    state.observation_tensor(0), state.information_state_string(0)\n"
        "    del game, state\n"
        "gc.collect()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Fatal" not in out.stderr


def test_draws_are_explicit_chance_nodes() -> None:
    game = pyspiel.load_game("deathnote_confrontation", {"seed": 3})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    sizes = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        sizes.append(len(outcomes))
        state.apply_action(outcomes[-1][0])
    # the deal: a Fisher-Yates shuffle of 20 Suspect cards, then of 12 Lead cards
    assert sizes == [*range(20, 1, -1), *range(12, 1, -1)]
    twin = game.new_initial_state()
    for size in sizes:
        twin.apply_action(0 if size == 20 else size - 1)
    assert state.match.state.identity != twin.match.state.identity
    # L follows, both choose a side: the night's three dice are three draws of 6 faces
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert len(state.chance_outcomes()) == 6


def test_information_state_tensor_is_the_observation_and_own_actions() -> None:
    game = pyspiel.load_game("deathnote_confrontation", {"seed": 3})
    state = game.new_initial_state()
    assert state.information_state_tensor(1) == [0.0] * game.information_state_tensor_size()
    while state.is_chance_node():
        state.apply_action(0)
    follow = state.legal_actions()[0]
    state.apply_action(follow)
    size = len(state.observation_tensor(1))
    assert game.information_state_tensor_size() == size + game.num_distinct_actions()
    tensor = state.information_state_tensor(1)
    assert tensor[:size] == state.observation_tensor(1)
    assert tensor[size + follow] == 1.0 and sum(tensor[size:]) == 1.0
    assert sum(state.information_state_tensor(0)[size:]) == 0.0
