"""The heuristic bot and the simulation summary."""

from __future__ import annotations

import copy
import random

import pytest

from deathnote.agents import Observation, agent_rng, make_agent, observe
from deathnote.engine import Match
from deathnote.sim.runner import Batch, simulate


@pytest.mark.parametrize("players", [4, 6, 8])
def test_heuristic_plays_every_role(players: int) -> None:
    seen: set[str] = set()
    for seed in range(6):
        m = Match.create("enquete", players, seed)
        bots = [make_agent("enquete", "heuristic", s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        while m.outcome() is None:
            s = min(m.pending())
            action = bots[s].choose(observe(m, s, rngs[s]))
            assert action in m.legal(s)
            m.submit(s, action)
        seen |= {x.role for x in m.state.seats}
    assert "detective" in seen and "light" in seen and len(seen) >= players


def test_heuristic_reads_only_its_view() -> None:
    m = Match.create("enquete", 6, 3)
    bot = make_agent("enquete", "heuristic", 0)
    steps = 0
    while m.outcome() is None and steps < 300:
        s = min(m.pending())
        view = copy.deepcopy(m.view(s))
        legal = list(m.legal(s))
        bot.seat = s
        action = bot.choose(Observation(s, legal, lambda v=view: v, random.Random(steps)))
        assert action in legal
        m.submit(s, action)
        steps += 1


def test_simulate_summary_means_apples_per_role() -> None:
    result = simulate(Batch("enquete", 6, ("heuristic",) * 6), games=12, seed=1)
    assert result["errors"] == 0 and result["games"] == 12
    assert set(result["outcomes"]) <= {"light_revealed", "three_dead", "round5"}
    assert sum(result["outcomes"].values()) == 12
    assert "Light" in result["wins"] and "Detective" in result["wins"]
    assert all(0 <= v <= 10 for v in result["wins"].values())
