"""The heuristic bot and the simulation summary."""

from __future__ import annotations

import copy
import random

import pytest

from deathnote.agents import Observation, agent_rng, make_agent, observe
from deathnote.engine import Action, Match
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


def heuristic_game(players: int, seed: int, scramble: bool) -> list[tuple[int, object]]:
    """A heuristic game; with ``scramble`` every prompt and label the bots see is garbled."""
    m = Match.create("enquete", players, seed)
    bots = [make_agent("enquete", "heuristic", s) for s in range(players)]
    rngs = [agent_rng(seed, s) for s in range(players)]
    while m.outcome() is None:
        s = min(m.pending())
        view = m.view(s)
        legal = list(m.legal(s))
        if scramble:
            view["decision"]["prompt"] = "?"
            legal = [Action(a.kind, a.args, "?") for a in legal]
        action = bots[s].choose(Observation(s, legal, lambda v=view: v, rngs[s]))
        m.submit(s, action)
    return list(m.actions)


@pytest.mark.parametrize("players", [4, 7])
def test_heuristic_dispatches_on_decision_data_not_prompts(players: int) -> None:
    for seed in range(3):
        assert heuristic_game(players, seed, True) == heuristic_game(players, seed, False)


def test_every_decision_says_what_is_chosen() -> None:
    kinds = {"seat", "card", "option", "role_ref", "role", "inactive", "pair", "play"}
    seen: set[str] = set()
    for seed in range(8):
        m = Match.create("enquete", 4 + seed % 5, seed)
        while m.outcome() is None:
            (s, decision), *_ = m.pending().items()
            data = decision.data
            assert data["choose"] in kinds and isinstance(data["step"], str)
            seen.add(data["choose"])
            legal = m.legal(s)
            values = [a.get("v") for a in legal if a.kind == "pick"]
            if data["choose"] == "seat":
                assert all(isinstance(v, int) and 0 <= v < m.players for v in values)
            if data["choose"] == "card":
                assert set(data["cards"]) == {str(v) for v in values if v}
            if data["choose"] == "play":
                assert data["window"] in ("turn", "detective", "lie", "death")
            m.submit(s, random.Random(len(m.actions)).choice(list(legal)))
    assert {"seat", "card", "option", "play"} <= seen


def test_a_broken_bot_fails_instead_of_playing_at_random(monkeypatch: pytest.MonkeyPatch) -> None:
    from deathnote.games.enquete.agents import HeuristicAgent

    def broken(*args: object) -> float:
        raise KeyError("broken")

    monkeypatch.setattr(HeuristicAgent, "suspicion", broken)
    with pytest.raises(KeyError, match="broken"):
        heuristic_game(6, 1, False)


def test_the_heuristic_bot_reads_no_log() -> None:
    """``bot_reads_log = False`` (the paired search's play-outs show the bots no log): at
    every decision of whole heuristic games, each asked seat's bot chooses and draws alike
    from its whole view and from its view without log entries (``since`` the current
    step)."""
    from deathnote.engine.registry import get_game

    assert get_game("enquete").bot_reads_log is False
    for seed in range(3):
        m = Match.create("enquete", 4 + seed, seed)
        bots = [make_agent("enquete", "heuristic", s) for s in range(m.players)]
        rngs = [agent_rng(seed, s) for s in range(m.players)]
        asked = 0
        while m.outcome() is None:
            for s in m.pending():
                legal = m.legal(s)
                whole, lean = random.Random(seed + asked), random.Random(seed + asked)
                view = m.view(s)
                assert view["log"]
                bare = m.view(s, len(m.actions))
                assert not bare["log"]
                bot = make_agent("enquete", "heuristic", s)
                other = make_agent("enquete", "heuristic", s)
                a = bot.choose(Observation(s, legal, lambda v=view: v, whole))
                b = other.choose(Observation(s, legal, lambda v=bare: v, lean))
                assert a == b and whole.getstate() == lean.getstate()
                asked += 1
            s = min(m.pending())
            m.submit(s, bots[s].choose(observe(m, s, rngs[s])))
        assert asked > 50
