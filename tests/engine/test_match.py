from __future__ import annotations

import copy

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deathnote.agents import RandomAgent
from deathnote.engine import (
    OMNISCIENT,
    SPECTATOR,
    Action,
    IllegalAction,
    Match,
    OptionsError,
    ReplayError,
)
from deathnote.engine.play import play

pytestmark = pytest.mark.usefixtures("toy_registered")


def play_random(seed: int) -> Match:
    match = Match.create("toy", 2, seed)
    play(match, [RandomAgent(0), RandomAgent(1)])
    return match


def test_simultaneous_choices_both_pending_and_hidden() -> None:
    match = Match.create("toy", 2, seed=3)
    assert set(match.pending()) == {0, 1}
    match.submit(0, {"kind": "pick", "parity": "odd"})
    assert set(match.pending()) == {1}
    other = match.view(1)
    assert "odd" not in orjson.dumps([other["state"], other["log"]]).decode()
    assert match.view(0)["state"]["my_pick"] == "odd"


@pytest.mark.parametrize(
    "seat, action, message",
    [
        (0, {"kind": "pick", "parity": "prime"}, "not a legal move"),
        (5, {"kind": "pick", "parity": "odd"}, "no seat"),
        (0, {"parity": "odd"}, "malformed"),
        (0, ["pick"], "malformed"),
        (0, {"kind": "pick", "parity": {"x": 1}}, "malformed"),
    ],
)
def test_rejected_action_changes_nothing(seat: int, action: object, message: str) -> None:
    match = Match.create("toy", 2, seed=4)
    match.submit(1, {"kind": "pick", "parity": "even"})
    before = (copy.deepcopy(match.state), match.record(), match.rng.getstate())
    with pytest.raises(IllegalAction, match=message):
        match.submit(seat, action)  # type: ignore[arg-type]
    assert (match.state, match.record(), match.rng.getstate()) == before


def test_not_your_turn() -> None:
    match = Match.create("toy", 2, seed=4)
    match.submit(1, {"kind": "pick", "parity": "even"})
    with pytest.raises(IllegalAction, match="not Player 2's turn"):
        match.submit(1, {"kind": "pick", "parity": "odd"})


def test_game_over_rejects_actions() -> None:
    match = play_random(9)
    with pytest.raises(IllegalAction, match="over"):
        match.submit(0, {"kind": "pick", "parity": "odd"})


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_record_replays_to_identical_state(seed: int) -> None:
    match = play_random(seed)
    record = orjson.loads(orjson.dumps(match.record()))
    again = Match.replay(record)
    assert again.state == match.state
    assert again.outcome() == match.outcome()
    for viewer in (0, 1, SPECTATOR, OMNISCIENT):
        assert again.view(viewer) == match.view(viewer)


def test_replay_names_the_bad_step() -> None:
    record = play_random(2).record()
    record["actions"][1][1] = {"kind": "pick", "parity": "nope"}
    with pytest.raises(ReplayError, match="step 1"):
        Match.replay(record)


def test_private_events_reach_only_their_audience() -> None:
    match = play_random(5)
    secret = f"Your secret is {match.state.secret}."
    assert secret in [e["text"] for e in match.view(0)["log"]]
    for viewer in (1, SPECTATOR):
        assert secret not in [e["text"] for e in match.view(viewer)["log"]]
        assert "secret" not in match.view(viewer)["state"]


def test_bad_player_count_and_seed() -> None:
    with pytest.raises(OptionsError, match="played by 2 players, not 3"):
        Match.create("toy", 3, seed=1)
    with pytest.raises(OptionsError, match="no option 'x'"):
        Match.create("toy", 2, seed=1, options={"x": 1})


def test_bug_in_a_rule_does_not_lose_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    match = Match.create("toy", 2, seed=8)
    match.submit(0, {"kind": "pick", "parity": "odd"})
    good = copy.deepcopy(match.state)
    game = match.game
    original = game.apply

    def broken(state, seat, action, rng):  # type: ignore[no-untyped-def]
        if seat == 0:  # earlier actions still replay; the bug is in seat 1's move
            return original(state, seat, action, rng)
        state.points[0] = 99
        raise RuntimeError("boom")

    monkeypatch.setattr(game, "apply", broken)
    with pytest.raises(RuntimeError):
        match.submit(1, {"kind": "pick", "parity": "odd"})
    monkeypatch.undo()
    assert match.state == good
    assert len(match.actions) == 1


def test_action_json_round_trip() -> None:
    action = Action.make("news", "News 1 2 3", criminals=[1, 2, 3])
    assert Action.from_json(orjson.loads(orjson.dumps(action.to_json()))) == action
    assert action["criminals"] == (1, 2, 3)


def test_random_agent_draws_exactly_as_random_choice() -> None:
    """The inlined draw keeps every saved simulation reproducible."""
    import random as stdlib_random

    from deathnote.agents import Observation, RandomAgent

    agent = RandomAgent(0)
    for seed in range(200):
        for size in (1, 2, 3, 5, 8, 13, 33):
            legal = [object() for _ in range(size)]
            ours, theirs = stdlib_random.Random(seed), stdlib_random.Random(seed)
            for _ in range(5):
                picked = agent.choose(Observation(0, legal, dict, ours))  # type: ignore[arg-type]
                assert picked is theirs.choice(legal)
            assert ours.getstate() == theirs.getstate()


def test_table_space_finds_equal_and_identical_actions_alike() -> None:
    from deathnote.engine.actions import Action
    from deathnote.engine.errors import IllegalAction
    from deathnote.engine.spaces import TableSpace

    table = [Action.make("pick", n=i) for i in range(5)] + [Action.make("flag", on=True)]
    space = TableSpace(table)
    for index, action in enumerate(table):
        assert space.id(action) == index  # the table's own object
        twin = Action.make(action.kind, **dict(action.args))
        assert twin is not action and space.id(twin) == index == space.id(twin)
    with pytest.raises(IllegalAction):
        space.id(Action.make("flag", on=1))  # a number is not a boolean
    with pytest.raises(IllegalAction):
        space.id(Action.make("pick", n=9))


def test_an_action_hashed_here_is_found_in_a_process_with_other_string_hashes() -> None:
    """Actions keep their hash once computed (search bots look them up at every step), but
    a pickled action computes it again where it lands: string hashes differ by process."""
    import os
    import pickle
    import subprocess
    import sys

    sent = Action.make("chase", "Go to scene A", side="A")
    hash(sent)  # computed (and kept) here
    script = (
        "import pickle, sys\n"
        "from deathnote.engine.actions import Action\n"
        "got = pickle.loads(sys.stdin.buffer.read())\n"
        "table = {Action.make('chase', side='A'): 'found'}\n"
        "print(table.get(got, 'missing'), got in {got}, got == Action.make('chase', side='A'))\n"
    )
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", script],
            input=pickle.dumps(sent),
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        assert out.stdout.decode().split() == ["found", "True", "True"]
