"""State patches (``engine.delta``): a patch turns the old value into the new one, in
Python and in the browser's ``applyPatch`` (web/static/delta.js, run here with Node)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deathnote.engine import Match, delta

SCALARS = st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab", max_size=2)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text("xyz", max_size=2), inner, max_size=4)
    ),
    max_leaves=25,
)
DELTA_JS = Path(__file__).parents[2] / "src" / "deathnote" / "web" / "static" / "delta.js"


@given(JSON, JSON)
def test_a_patch_turns_the_old_value_into_the_new_one(old: Any, new: Any) -> None:
    before = json.dumps(old)
    ops = delta.diff(old, new)
    assert delta.patch(old, ops) == new
    assert json.dumps(old) == before  # neither changed
    assert (ops == []) == (old == new)
    json.dumps(ops)  # JSON-ready


@given(st.lists(JSON, max_size=8), st.integers(0, 7), JSON)
def test_small_changes_make_small_patches(items: list[Any], where: int, value: Any) -> None:
    old = {"hand": items, "score": 3}
    new = {"hand": [*items, value], "score": 3}
    assert delta.diff(old, new) == [["set", ["hand", len(items)], value]]
    if items:
        changed = list(items)
        changed[where % len(items)] = {"changed": value}
        ops = delta.diff({"hand": items}, {"hand": changed})
        assert all(op[1][:2] == ["hand", where % len(items)] for op in ops)  # only that card
        assert delta.patch({"hand": items}, ops) == {"hand": changed}


def _plain_diff(old: Any, new: Any, path: list[Any], ops: list[Any]) -> None:
    """The patch as first written, without shortcuts: the exact operations ``diff`` must
    still make (the browser's patches do not change with its speed-ups)."""
    if type(new) is not type(old) or type(new) not in (dict, list):
        ops.append(["set", path, new])
    elif type(new) is dict:
        ops.extend(["del", [*path, key]] for key in old if key not in new)
        for key, value in new.items():
            if key not in old:
                ops.append(["set", [*path, key], value])
            elif old[key] != value:
                _plain_diff(old[key], value, [*path, key], ops)
    else:
        before, common, changed = len(ops), min(len(old), len(new)), 0
        for index in range(common):
            if old[index] != new[index]:
                changed += 1
                if changed * 2 > common + 1:
                    del ops[before:]
                    ops.append(["set", path, new])
                    return
                _plain_diff(old[index], new[index], [*path, index], ops)
        ops.extend(["set", [*path, index], new[index]] for index in range(common, len(new)))
        if len(old) > len(new):
            ops.append(["cut", path, len(new)])


@given(JSON, JSON, st.data())
def test_a_patch_is_the_plain_walk_s_even_where_parts_are_shared(
    old: Any, new: Any, data: st.DataObject
) -> None:
    if type(old) is dict and type(new) is dict and old:  # a shared view reuses old's parts
        for key in data.draw(st.lists(st.sampled_from(sorted(old)), max_size=3)):
            new[key] = old[key]
    expected: list[Any] = []
    if old != new:
        _plain_diff(old, new, [], expected)
    assert delta.diff(old, new) == expected


@given(JSON, JSON)
def test_a_decoded_patch_applied_without_copies_gives_the_new_value_and_takes_its_values(
    old: Any, new: Any
) -> None:
    """What a client does with a message it just decoded (the load test): the operations'
    values become the state's own, and the state is still the new value."""
    ops = orjson.loads(orjson.dumps(delta.diff(old, new)))  # a message's own objects
    state = orjson.loads(orjson.dumps(old))
    for op in ops:
        state = delta.apply_op(state, op, copy=False)
    assert state == new
    # With copies (the default) the same operations give an equal state of fresh objects.
    again = orjson.loads(orjson.dumps(old))
    for op in ops:
        again = delta.apply_op(again, op)
    assert again == new


def test_a_value_set_without_copy_is_the_operation_s_own_object() -> None:
    item = {"b": [2]}
    state = delta.apply_op({"a": 1}, ["set", ["c"], item], copy=False)
    assert state["c"] is item
    state = delta.apply_op({"a": 1}, ["set", ["c"], item])
    assert state["c"] == item and state["c"] is not item


def test_the_new_values_in_a_patch_are_fresh_copies() -> None:
    new = {"a": [1, {"b": 2}]}
    ops = delta.diff({}, new)
    ops[0][2][1]["b"] = 99
    assert new == {"a": [1, {"b": 2}]}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node to run the browser's code")
@settings(max_examples=1, deadline=None)
@given(st.lists(st.tuples(JSON, JSON), min_size=150, max_size=150))
def test_the_browser_applies_patches_as_python_does(pairs: list[tuple[Any, Any]]) -> None:
    cases = [[old, delta.diff(old, new), new] for old, new in pairs]
    match = Match.create("tcg", 2, seed=3)  # and real states, step by step
    before = match.view(0, patch=True)["state"]
    for step in range(60):
        seat = min(match.pending())
        match.submit(seat, match.legal(seat)[0])
        got = match.view(0, since=step, patch=True)
        cases.append([before, got["patch"], match.view(0)["state"]])
        before = match.view(0)["state"]
    script = (
        f"import {{ applyPatch }} from {json.dumps(DELTA_JS.as_uri())};\n"
        "let text = ''; process.stdin.on('data', (d) => (text += d));\n"
        "process.stdin.on('end', () => { const out = JSON.parse(text).map(([o, ops]) =>"
        " applyPatch(structuredClone(o), ops)); process.stdout.write(JSON.stringify(out)); });"
    )
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps([[o, ops] for o, ops, _ in cases]),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(run.stdout) == [new for _, _, new in cases]


@pytest.mark.parametrize("game_id", ["confrontation", "icg"])  # a shared view, and none
def test_a_view_at_the_step_the_viewer_was_handed_has_an_empty_patch_and_builds_nothing(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another connection came or went: the viewer's state has not changed since the view
    # it was handed at this step, so neither the game's view nor a diff is made for it.
    from deathnote.engine.registry import get_game

    match = Match.create(game_id, get_game(game_id).min_players, seed=5)
    seat = min(match.pending())
    held = match.view(seat, patch=True)
    match.submit(seat, match.legal(seat)[0])
    moved = match.view(seat, since=0, patch=True)
    state = delta.patch(held["state"], moved["patch"])
    built: list[str] = []
    for name in ("view", "shared_view"):
        real = getattr(match.game, name)
        monkeypatch.setattr(
            match.game,
            name,
            lambda *args, _real=real, _name=name: built.append(_name) or _real(*args),
        )
    again = match.view(seat, since=1, patch=True)
    assert built == []
    assert again["patch"] == [] and again["log"] == [] and "state" not in again
    assert {k: v for k, v in again.items() if k not in ("patch", "log", "since")} == {
        k: v for k, v in moved.items() if k not in ("patch", "log", "since")
    }
    assert delta.patch(state, again["patch"]) == match.view(seat)["state"]
    # A step it was not handed is still patched from the one it had.
    assert "patch" in match.view(seat, since=0, patch=True) and built


@pytest.mark.parametrize("game_id", ["confrontation", "tcg", "icg", "werewolf"])
def test_views_not_fresh_are_the_fresh_views_and_leave_the_match_as_it_was(game_id: str) -> None:
    # fresh=False (the server's messages, encoded at once) hands out the match's own
    # remembered parts instead of copies: the same JSON as a fresh view, step after step,
    # from one and several steps behind, for every seat and the spectator, and each
    # viewer's rebuilt state is its own view (so the parts the match keeps as the bases
    # of later patches were not changed by handing them out).
    from deathnote.engine.actions import SPECTATOR
    from deathnote.engine.registry import get_game

    players = get_game(game_id).min_players
    match = Match.create(game_id, players, seed=11)
    twin = Match.create(game_id, players, seed=11)  # the same game, fresh views only
    viewers = [*range(players), SPECTATOR]
    held = {v: (0, match.view(v, patch=True, fresh=False)["state"]) for v in viewers}
    for v in viewers:
        assert orjson.dumps(held[v][1]) == orjson.dumps(twin.view(v, patch=True)["state"])
    held = {v: (0, orjson.loads(orjson.dumps(state))) for v, (_s, state) in held.items()}
    rng = random.Random(4)
    for step in range(1, 80):
        if match.outcome() is not None:
            break
        seat = min(match.pending())
        action = rng.choice(match.legal(seat))
        match.submit(seat, action)
        twin.submit(seat, action)
        for v in viewers:
            if (step + v if isinstance(v, int) else step) % 3 == 0:
                continue  # this viewer is sent nothing now: its next patch spans steps
            since, state = held[v]
            got = match.view(v, since=since, patch=True, fresh=False)
            text = orjson.dumps(got)
            want = twin.view(v, since=since, patch=True)
            assert text == orjson.dumps(want)
            state = delta.patch(state, got["patch"]) if "patch" in got else got["state"]
            assert state == twin.view(v)["state"]
            held[v] = (step, orjson.loads(orjson.dumps(state)))
