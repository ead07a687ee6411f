"""Incremental views (``Match.view(viewer, since=k)``), snapshots, rewinds and timelines."""

from __future__ import annotations

import random

import pytest

from deathnote.agents import RandomAgent
from deathnote.engine import OMNISCIENT, SPECTATOR, Event, IllegalAction, Match
from deathnote.engine import match as match_module
from deathnote.engine.play import Table, play

pytestmark = pytest.mark.usefixtures("toy_registered")


def advance(match: Match, actions: int) -> Table:
    """Random play for ``actions`` actions (the game goes on)."""
    table = Table(match, [RandomAgent(s) for s in range(match.players)])
    for _ in zip(range(actions), table.steps(), strict=False):
        pass
    assert len(match.actions) == actions and match.outcome() is None
    return table


def viewers(match: Match) -> list[object]:
    return [*range(match.players), SPECTATOR, OMNISCIENT]


def slow_log(match: Match, viewer: object) -> list[dict[str, object]]:
    """The log as views built it before: filter every event, serialise it again."""
    import orjson

    return [
        orjson.loads(orjson.dumps(e.to_json()))
        for e in match.events
        if e.visible_to(viewer)  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("game, players", [("toy", 2), ("tcg", 2), ("werewolf", 4), ("icg", 4)])
def test_deltas_rebuild_the_whole_view_at_every_step(game: str, players: int) -> None:
    match = Match.create(game, players, seed=3)
    logs: dict[object, list[dict[str, object]]] = {v: match.view(v)["log"] for v in viewers(match)}
    last = 0
    table = Table(match, [RandomAgent(s) for s in range(players)])
    for _step in table.steps():
        for viewer in viewers(match):
            delta = match.view(viewer, since=last)
            full = match.view(viewer)
            assert delta.pop("since") == last
            logs[viewer] += delta.pop("log")
            assert logs[viewer] == full.pop("log") == slow_log(match, viewer)
            assert delta == full
        last = len(match.actions)
    assert match.outcome() is not None


def test_since_counts_actions_and_zero_leaves_out_only_the_set_up() -> None:
    match = Match.create("tcg", 2, seed=1)
    setup = len(match.view(0)["log"])
    assert match.view(0, since=0)["log"] == []
    play(match, [RandomAgent(0), RandomAgent(1)])
    whole = match.view(0)["log"]
    assert match.view(0, since=0)["log"] == whole[setup:]
    assert match.view(0, since=len(match.actions))["log"] == []
    for bad in (-1, len(match.actions) + 1, "3", 1.0, True):
        with pytest.raises(IllegalAction, match="'since' must be a step"):
            match.view(0, since=bad)  # type: ignore[arg-type]


def test_private_events_stay_private_in_deltas() -> None:
    match = Match.create("toy", 2, seed=4)
    secret = Event.private({0}, "a secret for seat 0")
    public = Event.public("news for all")
    match.submit(0, {"kind": "pick", "parity": "odd"})
    match.events += [secret, public]  # as the next action would add them
    match._steps[-1] = len(match.events)
    assert [e["text"] for e in match.view(1, since=0)["log"]][-1] == "news for all"
    assert "a secret for seat 0" not in str(match.view(1, since=0))
    assert "a secret for seat 0" not in str(match.view(SPECTATOR, since=0))
    assert "a secret for seat 0" in str(match.view(0, since=0))
    assert "a secret for seat 0" in str(match.view(OMNISCIENT, since=0))


def test_log_entries_are_fresh_objects_every_call() -> None:
    match = Match.create("tcg", 2, seed=2)
    advance(match, 30)
    expected = slow_log(match, 0)
    setup = len(expected) - len(match.view(0, since=0)["log"])
    first = match.view(0)
    first["log"][0]["text"] = "scribbled"
    first["log"][0]["data"]["zz"] = 1
    # An entry whose data holds a list (an opening hand): that list is the view's own.
    nested = next(e for e in first["log"] if isinstance(e["data"].get("hand"), list))
    nested["data"]["hand"].append("scribbled")
    first["log"].append("zz")
    assert match.view(0)["log"] == expected
    assert match.view(0, since=0)["log"] == expected[setup:]
    assert slow_log(match, 0) == expected  # the events themselves are untouched


def test_forks_keep_their_own_index() -> None:
    match = Match.create("tcg", 2, seed=5)
    advance(match, 40)
    before = {v: match.view(v) for v in viewers(match)}
    twin = match.fork()
    play(twin, [RandomAgent(0), RandomAgent(1)], seed=9)
    assert {v: twin.view(v)["log"] for v in viewers(twin)} == {
        v: slow_log(twin, v) for v in viewers(twin)
    }
    assert {v: match.view(v) for v in viewers(match)} == before
    toy = Match.create("toy", 2, seed=5)
    advance(toy, 3)
    seen = toy.view(1)["log"]
    world = toy.sample_world(1, random.Random(1))
    assert world.view(1)["log"] == seen
    play(world, [RandomAgent(0), RandomAgent(1)])
    assert toy.view(1)["log"] == seen


def test_a_failed_rule_rolls_back_from_a_snapshot_not_the_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(match_module, "SNAPSHOT_SHARE", 1e9)  # a snapshot every 64 actions
    match = Match.create("tcg", 2, seed=6)
    target = match_module.SNAPSHOT_EVERY * 2 + 5
    table = advance(match, target)
    good = match.fork()
    seat = min(match.pending())
    action = table.choose(seat)

    def no_replay(record: object) -> Match:
        raise AssertionError("the whole record was replayed")

    replayed: list[object] = []
    original = match.game.apply

    def broken(state, seat_, action_, rng):  # type: ignore[no-untyped-def]
        if len(replayed) == 0 and action_ is action:
            replayed.append("failed")
            raise RuntimeError("a bug in a rule")
        replayed.append(action_)
        return original(state, seat_, action_, rng)

    monkeypatch.setattr(Match, "replay", no_replay)
    monkeypatch.setattr(match.game, "apply", broken)
    with pytest.raises(RuntimeError, match="a bug in a rule"):
        match.submit(seat, action)
    monkeypatch.undo()
    assert 0 < len(replayed) - 1 < match_module.SNAPSHOT_EVERY
    assert len(match.actions) == target
    for viewer in viewers(match):
        assert match.view(viewer) == good.view(viewer)
    assert match.rng.getstate() == good.rng.getstate()
    # It plays on exactly as the untouched copy does.
    play(match, [RandomAgent(0), RandomAgent(1)], seed=4)
    play(good, [RandomAgent(0), RandomAgent(1)], seed=4)
    assert match.record() == good.record()


def test_rewind_goes_back_to_any_step() -> None:
    match = Match.create("tcg", 2, seed=7)
    play(match, [RandomAgent(0), RandomAgent(1)])
    record = match.record()
    for steps in (len(match.actions) - 1, match_module.SNAPSHOT_EVERY, 3, 0):
        match.rewind(steps)
        expected = dict(record, actions=record["actions"][:steps])
        again = Match.replay(expected)
        assert match.record() == again.record()
        assert [match.view(v) for v in viewers(match)] == [again.view(v) for v in viewers(again)]
    with pytest.raises(ValueError):
        match.rewind(1)


def test_timeline_gives_every_step_without_replaying_from_the_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match = Match.create("tcg", 2, seed=8)
    play(match, [RandomAgent(0), RandomAgent(1)])
    timeline = match.timeline(every=10)
    assert timeline.steps == len(match.actions)
    record = match.record()
    submits = 0
    original = Match.submit

    def counting(self: Match, seat: int, action: object) -> object:
        nonlocal submits
        submits += 1
        return original(self, seat, action)  # type: ignore[arg-type]

    for step in (0, 1, 9, 10, 11, len(match.actions) // 2, len(match.actions)):
        expected = Match.replay(dict(record, actions=record["actions"][:step]))
        monkeypatch.setattr(Match, "submit", counting)
        submits = 0
        at = timeline.at(step)
        monkeypatch.undo()
        assert submits < 10
        assert [at.view(v) for v in viewers(at)] == [expected.view(v) for v in viewers(at)]
        assert at.record() == expected.record()
    with pytest.raises(ValueError):
        timeline.at(len(match.actions) + 1)


def test_snapshots_are_spaced_out_where_forks_are_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    every = match_module.SNAPSHOT_EVERY
    monkeypatch.setattr(match_module, "SNAPSHOT_SHARE", 1e9)  # any fork is cheap enough
    fast = Match.create("tcg", 2, seed=6)
    advance(fast, every * 2 + 1)
    assert fast._snapshot is not None and len(fast._snapshot.actions) == every * 2
    monkeypatch.undo()
    monkeypatch.setitem(match_module._FORK_SECONDS, "tcg", 10.0)  # far above 2% of play
    slow = Match.create("tcg", 2, seed=6)
    advance(slow, every * 2 + 1)
    assert slow._snapshot is None
    slow.rewind(every)  # still correct, from the seed
    assert slow.record()["actions"] == fast.record()["actions"][:every]
