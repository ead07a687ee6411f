"""Type-strict actions (a boolean is not a number) and record versions (rules, generator)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import orjson
import pytest

from deathnote.engine import (
    Action,
    Decision,
    Event,
    Game,
    IllegalAction,
    Match,
    Outcome,
    ReplayError,
    Seat,
    Viewer,
    registry,
)
from deathnote.engine.game import not_legal
from deathnote.engine.rng import RNG_VERSION
from deathnote.engine.spaces import TableSpace
from deathnote.sim.runner import Batch, simulate

NUMBERS = tuple(Action.make("take", f"Take {n}", n=n) for n in (0, 1, 2))
FLAGS = tuple(Action.make("flag", f"Flag {b}", up=b) for b in (True, False))
LISTS = (Action.make("group", "Group", members=[0, 1]),)
ALL = NUMBERS + FLAGS + LISTS


class NumGame(Game):
    """One seat takes numbers, raises flags and names a group until it has taken 3."""

    id = "numbers"
    name = "Numbers"
    min_players = max_players = 1
    rules_version = "7"

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> list[Any]:
        return []

    def pending(self, state: list[Any]) -> dict[Seat, Decision]:
        return {} if len(state) >= 3 else {0: Decision("take", "Take a number")}

    def legal(self, state: list[Any], seat: Seat) -> Sequence[Action]:
        return ALL

    def apply(
        self, state: list[Any], seat: Seat, action: Action, rng: random.Random
    ) -> list[Event]:
        state.append(action.to_json())
        return [Event.public(f"took {action.to_json()}")]

    def view(self, state: list[Any], viewer: Viewer) -> dict[str, Any]:
        return {"taken": [dict(a) for a in state]}

    def outcome(self, state: list[Any]) -> Outcome | None:
        return Outcome(("done",), "taken", "three taken", {}, (0,)) if len(state) >= 3 else None


class CheckedNumGame(NumGame):
    """The same game with its own ``check`` that looks actions up in a table."""

    id = "numbers-checked"
    _space = TableSpace(ALL)

    def check(self, state: list[Any], seat: Seat, action: Action) -> None:
        try:
            self._space.id(action)
        except IllegalAction:
            raise not_legal(action) from None


@pytest.fixture(autouse=True)
def numbers_registered() -> Iterator[None]:
    table = registry.games()
    table["numbers"] = NumGame()
    table["numbers-checked"] = CheckedNumGame()
    yield
    table.pop("numbers", None)
    table.pop("numbers-checked", None)


def test_action_equality_is_type_strict() -> None:
    assert Action.make("take", n=1) != Action.make("take", n=True)
    assert Action.make("take", n=0) != Action.make("take", n=False)
    assert Action.make("flag", up=True) != Action.make("flag", up=1)
    assert Action.make("g", members=[0, 1]) != Action.make("g", members=[False, True])
    assert Action.make("take", n=1) == Action.from_json({"kind": "take", "n": 1})
    assert len({Action.make("take", n=1), Action.make("take", n=True)}) == 2
    assert Action.make("take", n=True) not in NUMBERS


@pytest.mark.parametrize("game_id", ["numbers", "numbers-checked"])
@pytest.mark.parametrize(
    "bad, expected",
    [
        ({"kind": "take", "n": True}, "'n' must be a number, not True"),
        ({"kind": "take", "n": False}, "'n' must be a number, not False"),
        ({"kind": "flag", "up": 1}, "'up' must be a boolean"),
        ({"kind": "group", "members": [False, 1]}, "'members' must be a number"),
    ],
)
def test_a_boolean_is_not_a_number_in_submit(
    game_id: str, bad: dict[str, Any], expected: str
) -> None:
    match = Match.create(game_id, 1, seed=1)
    before = match.record()
    with pytest.raises(IllegalAction) as info:
        match.submit(0, bad)
    assert match.record() == before and match.state == []
    if game_id == "numbers":  # the engine's own check says what was expected
        assert expected in str(info.value)


def test_a_boolean_is_not_a_number_in_replays() -> None:
    match = Match.create("numbers", 1, seed=1)
    match.submit(0, {"kind": "take", "n": 1})
    record = match.record()
    assert record["actions"][0][1] == {"kind": "take", "n": 1}
    record["actions"][0][1] = {"kind": "take", "n": True}
    with pytest.raises(ReplayError, match=r"step 0: .*'n' must be a number"):
        Match.replay(record)


def test_records_carry_rules_and_generator_versions() -> None:
    match = Match.create("numbers", 1, seed=1)
    match.submit(0, {"kind": "take", "n": 2})
    record = orjson.loads(orjson.dumps(match.record()))
    assert record["format"] == 2
    assert record["rules_version"] == "7" and record["rng_version"] == RNG_VERSION
    assert Match.replay(record).state == match.state


@pytest.mark.parametrize(
    "change, message",
    [
        ({"rng_version": RNG_VERSION + 1}, "random generator version 2, this is version 1"),
        ({"rules_version": "6"}, "rules version 6, this is rules version 7"),
        ({"format": 3}, "record format 3 is unknown"),
        ({"format": True}, "record format True is unknown"),
        ({"rules_version": None}, "must give the rules_version"),
        ({"rng_version": None}, "must give the rng_version"),
    ],
)
def test_replay_refuses_other_versions(change: dict[str, Any], message: str) -> None:
    record = Match.create("numbers", 1, seed=1).record()
    for key, value in change.items():
        if value is None:
            del record[key]
        else:
            record[key] = value
    with pytest.raises(ReplayError, match=message):
        Match.replay(record)


def test_format_one_records_may_lack_the_versions() -> None:
    """Records written before format 2 (and the server's stored rooms, which give no
    format) replay: a missing rules version reads as the current one, a missing
    generator version as 1. A format-1 record that names another version is refused."""
    match = Match.create("numbers", 1, seed=1)
    match.submit(0, {"kind": "take", "n": 2})
    old = {k: v for k, v in match.record().items() if k not in ("rules_version", "rng_version")}
    old["format"] = 1
    assert Match.replay(old).state == match.state
    del old["format"]
    assert Match.replay(old).state == match.state
    with pytest.raises(ReplayError, match="rules version 6"):
        Match.replay({**old, "format": 1, "rules_version": "6"})


def test_simulator_summary_records_the_versions() -> None:
    summary = simulate(Batch("numbers", 1, ("random",)), 3, seed=1)
    assert summary["rules_version"] == "7" and summary["rng_version"] == RNG_VERSION
