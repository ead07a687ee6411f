"""CFR+ on the tiny Confrontation variant, and our bots as policies on it."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from open_spiel.python.algorithms import exploitability

from deathnote.interop import solve


@pytest.fixture(scope="module")
def tiny() -> tuple[solve.Tree, object]:
    tree = solve.build_tree()
    return tree, solve.load(tree)


def test_the_tree_is_the_adapters_game(tiny: tuple[solve.Tree, object]) -> None:
    tree, efg = tiny
    # a shuffle of 3 Suspect cards (3 then 2 outcomes) and of 2 Lead cards per deal
    assert tree.chance_nodes == 1 + 3 + 6
    assert 1000 < len(tree.infosets) < tree.nodes < 20_000
    assert efg.num_players() == 2 and efg.max_utility() - efg.min_utility() == 2.0
    assert {info.seat for info in tree.infosets} == {0, 1}


def test_cfr_plus_exploitability_decreases(tiny: tuple[solve.Tree, object]) -> None:
    _tree, efg = tiny
    curve, _solver = solve.cfr_plus_curve(efg, iterations=20, every=10)
    values = [v for _, v in curve]
    assert [i for i, _ in curve] == [1, 10, 20]
    assert values[0] > values[1] > values[2] and values[2] < 0.25 * values[0]


def test_bots_become_policies_over_information_sets(tiny: tuple[solve.Tree, object]) -> None:
    tree, efg = tiny
    table = solve.agent_policy(tree, efg, "random", samples=4)
    rows = table.action_probability_array
    assert np.allclose(rows.sum(axis=1), 1.0)
    # every probability on a legal action of its set
    assert np.all(rows[table.legal_actions_mask == 0] == 0.0)
    heuristic = solve.agent_policy(tree, efg, "heuristic", samples=2)
    value = exploitability.exploitability(efg, heuristic)
    assert 0.0 < value <= 2.0


def test_a_bot_answers_alike_in_every_match_of_an_information_set(
    tiny: tuple[solve.Tree, object],
) -> None:
    tree, _efg = tiny
    from deathnote.agents import make_agent, observe

    shared = [i for i in tree.infosets if i.other is not None and len(i.actions) > 1]
    assert len(shared) > 100
    for info in shared[:: max(1, len(shared) // 60)]:
        assert info.other is not None
        for seed in range(3):
            answers = []
            for match in (info.match, info.other):
                bot = make_agent("confrontation", "heuristic", info.seat)
                answers.append(bot.choose(observe(match, info.seat, random.Random(seed))))
            assert answers[0] == answers[1]


def test_the_command_prints_the_curve_and_draws_it(tmp_path: Path, capsys) -> None:
    picture = tmp_path / "curve.png"
    assert (
        solve.main(
            ["--iterations", "3", "--every", "2", "--agents", "random", "--plot", str(picture)]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "4858 nodes" in out and "1706 information sets" in out
    assert "      2  " in out and "random" in out
    assert picture.read_bytes()[:4] == b"\x89PNG"


def test_agent_policy_plays_on_the_adapter_game() -> None:
    import pyspiel

    game = pyspiel.load_game("deathnote_confrontation", {"options": '{"variant": "tiny"}'})
    bot = solve.AgentPolicy(game, "heuristic", samples=8)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)
            continue
        probs = bot.action_probabilities(state)
        assert set(probs) <= set(state.legal_actions()) and sum(probs.values()) == 1.0
        assert bot.action_probabilities(state) == probs  # one answer per information set
        state.apply_action(max(probs, key=probs.get))
    assert sorted(state.returns()) == [-1.0, 1.0]
