"""The one play loop (``deathnote.engine.play``): who acts, which generator, lazy views."""

from __future__ import annotations

import random

import pytest

from deathnote.agents import Agent, Observation, RandomAgent, agent_rng, make_agent
from deathnote.engine import Action, DeathNoteError, Match
from deathnote.engine.play import Step, Table, play, play_random
from deathnote.engine.registry import get_game

pytestmark = pytest.mark.usefixtures("toy_registered")


def by_hand(game: str, players: int, seed: int, agent: str) -> Match:
    """The loop as every front end wrote it before: lowest asked seat, agent_rng per seat."""
    match = Match.create(game, players, seed)
    agents = [make_agent(game, agent, s) for s in range(players)]
    rngs = [agent_rng(seed, s) for s in range(players)]
    while match.outcome() is None:
        seat = min(match.pending())
        obs = Observation(seat, match.legal(seat), lambda s=seat: match.view(s), rngs[seat])
        match.submit(seat, agents[seat].choose(obs))
    return match


@pytest.mark.parametrize(
    "game, players, agent",
    [("toy", 2, "random"), ("confrontation", 2, "heuristic"), ("tcg", 2, "random")],
)
def test_play_makes_the_same_game_as_the_loop_written_by_hand(
    game: str, players: int, agent: str
) -> None:
    for seed in range(3):
        match = Match.create(game, players, seed)
        outcome = play(match, [make_agent(game, agent, s) for s in range(players)])
        assert outcome is not None and outcome == match.outcome()
        assert match.record() == by_hand(game, players, seed, agent).record()


@pytest.mark.parametrize("game", ["toy", "confrontation", "tcg", "werewolf", "enquete", "icg"])
def test_play_random_makes_the_same_game_as_random_agents_by_hand(game: str) -> None:
    players = get_game(game).min_players
    for seed in range(3):
        match = Match.create(game, players, seed)
        rngs: dict[int, random.Random] = {}
        play_random(match, range(players), seed, rngs=rngs)
        expected = by_hand(game, players, seed, "random")
        assert match.outcome() is not None and match.outcome() == expected.outcome()
        assert match.record() == expected.record()
        assert match.view(0) == expected.view(0)
        assert sorted(rngs) == sorted({seat for seat, _ in match.actions})


def test_play_random_stops_for_a_seat_it_does_not_play() -> None:
    match, other = Match.create("toy", 2, seed=3), Match.create("toy", 2, seed=3)
    play_random(match, {1}, 3)
    Table(other, {1: RandomAgent(1)}).play()
    assert match.actions == other.actions and [seat for seat, _ in match.actions] == [1]
    assert set(match.pending()) == {0}


def test_steps_yield_every_action_with_its_events_and_on_step_sees_them() -> None:
    match = Match.create("toy", 2, seed=5)
    seen: list[Step] = []
    play(match, [RandomAgent(0), RandomAgent(1)], on_step=seen.append)
    assert [(s.seat, s.action) for s in seen] == match.actions
    made = [e for s in seen for e in s.events]
    assert made and made == match.events[len(match.events) - len(made) :]  # after the set-up


def test_the_loop_waits_for_a_seat_played_from_outside() -> None:
    match = Match.create("toy", 2, seed=3)
    table = Table(match, {1: RandomAgent(1)})
    assert table.next_seat() == 1  # seat 0 is asked too, but nobody here plays it
    assert table.play() is None
    assert [seat for seat, _ in match.actions] == [1]
    assert set(match.pending()) == {0} and table.next_seat() is None
    match.submit(0, match.legal(0)[0])
    assert list(table.steps())  # the bot moves again once its seat is asked


def test_random_agents_never_build_a_view(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_view(self: Match, *args: object, **kwargs: object) -> None:
        raise AssertionError("a view nobody reads was built")

    monkeypatch.setattr(Match, "view", no_view)
    match = Match.create("tcg", 2, seed=1)
    assert play(match, [RandomAgent(0), RandomAgent(1)]) is not None
    match = Match.create("toy", 2, seed=1)
    assert list(Table(match, [RandomAgent(0), RandomAgent(1)]).steps())


class Broken(Agent):
    def choose(self, obs: Observation) -> Action:
        raise KeyError("a bug in a bot")


def test_a_broken_agent_fails_the_run() -> None:
    match = Match.create("toy", 2, seed=1)
    with pytest.raises(KeyError, match="a bug in a bot"):
        play(match, [Broken(0), Broken(1)])
    with pytest.raises(KeyError):
        list(Table(match, [Broken(0), Broken(1)]).steps())


def test_a_game_that_does_not_end_is_stopped() -> None:
    match = Match.create("tcg", 2, seed=1)
    with pytest.raises(DeathNoteError, match="no end after 5 actions"):
        play(match, [RandomAgent(0), RandomAgent(1)], max_actions=5)
    assert len(match.actions) == 5
    with pytest.raises(DeathNoteError, match="no end after 3 actions"):
        list(Table(match, [RandomAgent(0), RandomAgent(1)]).steps(max_actions=3))


def test_agent_generators_derive_from_the_seed_given() -> None:
    first, second = Match.create("toy", 2, seed=1), Match.create("toy", 2, seed=1)
    play(first, [RandomAgent(0), RandomAgent(1)], seed=99)
    by_table = Table(second, [RandomAgent(0), RandomAgent(1)], seed=99)
    by_table.play(on_step=lambda step: None)
    assert first.record() == second.record()
    assert by_table.rng(0).getstate() != agent_rng(99, 0).getstate()  # it was drawn from


def test_a_bug_in_a_rule_during_random_play_rolls_the_match_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The all-random loop does the Match's bookkeeping itself: a rule that fails leaves
    the match as it was before that action, and the loop can go on afterwards."""
    reference = Match.create("confrontation", 2, seed=9)
    play(reference, [RandomAgent(0), RandomAgent(1)])
    match = Match.create("confrontation", 2, seed=9)
    game = match.game
    original = game.apply
    calls = 0

    def broken(state, seat, action, rng):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls == 4:
            state.points = 99
            raise RuntimeError("boom")
        return original(state, seat, action, rng)

    monkeypatch.setattr(game, "apply", broken)
    table = Table(match, [RandomAgent(0), RandomAgent(1)])
    with pytest.raises(RuntimeError, match="boom"):
        table.play()
    monkeypatch.undo()
    assert len(match.actions) == 3 and match.state.points != 99
    assert match.record()["actions"] == reference.record()["actions"][:3]
    assert match.pending() == reference.timeline().at(3).pending()
    table.play()  # the agents' generators have moved on: a game, not the same one
    assert match.outcome() is not None
