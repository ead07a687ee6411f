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
    # Every seat searches; Confrontation to the end, the longer games for three decisions.
    while not state.is_terminal() and (game_id == "confrontation" or searched < 3):
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
