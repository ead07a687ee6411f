"""The shared view (the base the match keeps for state patches): the view's JSON, its
Map, crime types and elimination names made once per content, never changed by play."""

from __future__ import annotations

import orjson
import pytest

from deathnote.engine import Match
from deathnote.engine.actions import OMNISCIENT, SPECTATOR
from deathnote.engine.delta import patch
from deathnote.engine.rng import agent_rng, below
from deathnote.games.confrontation import view
from deathnote.games.confrontation.view import build_view, shared_view

VIEWERS = (0, 1, SPECTATOR, OMNISCIENT)


def _random_games(seed: int, games: int, chapter: int = 1) -> list[list[tuple[int, object]]]:
    played = []
    for game in range(games):
        match = Match.create("confrontation", 2, seed + game, options={"chapter": chapter})
        rngs = [agent_rng(seed + game, s) for s in range(2)]
        actions = []
        while match.outcome() is None:
            seat = min(match.pending())
            legal = match.legal(seat)
            action = legal[below(rngs[seat], len(legal))]
            match.submit(seat, action)
            actions.append((seat, action))
        played.append(actions)
    return played


def test_shared_views_are_the_views_and_stay_as_they_were() -> None:
    kept = []
    for chapter in (1, 2):
        for game, actions in enumerate(_random_games(11, 4, chapter)):
            match = Match.create("confrontation", 2, 11 + game, options={"chapter": chapter})
            for seat, action in actions:
                match.submit(seat, action)
                for viewer in VIEWERS:
                    shared = shared_view(match.state, viewer)
                    text = orjson.dumps(shared)
                    assert text == orjson.dumps(build_view(match.state, viewer))
                    kept.append((shared, text))
    assert len(kept) > 100
    # Play went on after each was made (and other games used the same parts): none changed.
    assert all(orjson.dumps(shared) == text for shared, text in kept)


def test_shared_views_share_the_content_parts_and_views_do_not() -> None:
    [actions] = _random_games(5, 1)
    match = Match.create("confrontation", 2, 5)
    for seat, action in actions[: len(actions) // 2]:
        match.submit(seat, action)
    other = Match.create("confrontation", 2, 6)
    one, two = shared_view(match.state, 0), shared_view(other.state, 1)
    for key in ("crime_types", "elimination_names"):
        assert one[key] is two[key]
    assert one["map"]["suspects"] is two["map"]["suspects"]
    # A criminal's entry is shared where it is alive in both games.
    alive = [
        c
        for c, (a, b) in enumerate(zip(match.state.alive, other.state.alive, strict=True))
        if a and b
    ]
    assert alive and all(one["map"]["criminals"][c] is two["map"]["criminals"][c] for c in alive)
    # L's notebook lines are shared where they are alike (the same Suspect, status, count).
    l_one, l_two = shared_view(match.state, 1), shared_view(other.state, 1)
    lines = list(zip(l_one["notebook"]["suspects"], l_two["notebook"]["suspects"], strict=True))
    assert any(a == b for a, b in lines)
    assert all((a is b) == (a == b) for a, b in lines)
    fresh = build_view(match.state, 0)
    assert fresh == one and fresh["map"]["suspects"] is not one["map"]["suspects"]
    # Changing a handed-out view changes no later view (nor any shared one).
    before = orjson.dumps(one)
    fresh["map"]["criminals"][0]["killed"] = "scribbled"
    fresh["map"]["suspects"][0]["letter"] = "scribbled"
    fresh["crime_types"].clear()
    fresh["elimination_names"]["card"] = "scribbled"
    assert orjson.dumps(build_view(match.state, 0)) == before
    assert orjson.dumps(shared_view(match.state, 0)) == before
    assert orjson.dumps(one) == before


def test_patches_from_kept_shared_views_rebuild_the_state() -> None:
    patched = 0
    for chapter in (1, 2):
        for game, actions in enumerate(_random_games(21, 3, chapter)):
            match = Match.create("confrontation", 2, 21 + game, options={"chapter": chapter})
            held = {viewer: match.view(viewer, patch=True) for viewer in VIEWERS}
            states = {viewer: view["state"] for viewer, view in held.items()}
            for step, (seat, action) in enumerate(actions):
                match.submit(seat, action)
                for viewer in VIEWERS:
                    got = match.view(viewer, since=step, patch=True)
                    assert "state" not in got
                    states[viewer] = patch(states[viewer], got["patch"])
                    assert states[viewer] == match.view(viewer)["state"]
                    patched += 1
    assert patched > 100


def test_equal_maps_and_suspect_lists_are_one_object_and_the_memo_is_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(view, "MEMO_SIZE", 10**6)  # not emptied meanwhile
    [actions] = _random_games(7, 1)
    match = Match.create("confrontation", 2, 7)
    before = shared_view(match.state, 1)
    for seat, action in actions:
        match.submit(seat, action)
        now = shared_view(match.state, 1)
        # What did not change is the same object (a patch skips it without comparing).
        for part in (("map",), ("notebook", "suspects")):
            old, new = before, now
            for key in part:
                old, new = old[key], new[key]
            assert (old is new) == (old == new)
        assert now["map"] is shared_view(match.state, 0)["map"]
        before = now
    monkeypatch.setattr(view, "MEMO_SIZE", 3)
    parts = view._content_parts(match.state.tables)
    sizes = set()
    for game, actions in enumerate(_random_games(30, 2)):
        match = Match.create("confrontation", 2, 30 + game)
        for seat, action in actions:
            match.submit(seat, action)
            got = shared_view(match.state, 1)
            assert orjson.dumps(got) == orjson.dumps(build_view(match.state, 1))
            sizes.add((len(parts["maps"]), len(parts["suspect_lists"])))
    # Each memo fills to its bound and never passes it (each part on its own: the largest
    # pair of sizes in tuple order need not hold both largest sizes).
    assert max(maps for maps, _ in sizes) == 3
    assert max(lists for _, lists in sizes) == 3
