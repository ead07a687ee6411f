"""The shared view (the base the match keeps for state patches): the view's JSON, built
from the per-pool card faces, and never changed by later play."""

from __future__ import annotations

import orjson

from deathnote.engine import Match
from deathnote.engine.actions import OMNISCIENT, SPECTATOR
from deathnote.engine.delta import patch
from deathnote.engine.rng import agent_rng, below
from deathnote.games.tcg.view import build_view, shared_view

VIEWERS = (0, 1, SPECTATOR, OMNISCIENT)


def _random_match(seed: int, actions: int) -> tuple[Match, list[tuple[int, object]]]:
    match = Match.create("tcg", 2, seed)
    rngs = [agent_rng(seed, s) for s in range(2)]
    played = []
    while match.outcome() is None and len(played) < actions:
        seat = min(match.pending())
        legal = match.legal(seat)
        action = legal[below(rngs[seat], len(legal))]
        match.submit(seat, action)
        played.append((seat, action))
    return match, played


def test_shared_views_are_the_views_and_stay_as_they_were() -> None:
    match, _ = _random_match(3, 0)
    kept = []
    for seat, action in _random_match(3, 400)[1]:
        match.submit(seat, action)
        for viewer in VIEWERS:
            shared = shared_view(match.state, viewer)
            text = orjson.dumps(shared)
            assert text == orjson.dumps(build_view(match.state, viewer))
            kept.append((shared, text))
    assert len(kept) > 100
    # Play went on after each was made: none of them changed.
    assert all(orjson.dumps(shared) == text for shared, text in kept)


def test_shared_views_share_the_card_faces_and_views_do_not() -> None:
    match, _ = _random_match(5, 120)
    one, two = shared_view(match.state, 0), shared_view(match.state, 1)
    assert one["character_file_cards"] is two["character_file_cards"]
    fresh = build_view(match.state, 0)
    assert fresh["character_file_cards"] == one["character_file_cards"]
    assert fresh["character_file_cards"] is not one["character_file_cards"]
    assert all(
        a is not b
        for a, b in zip(fresh["character_file_cards"], one["character_file_cards"], strict=True)
    )
    # Changing a handed-out view changes no later view (nor any shared one).
    before = orjson.dumps(one)
    fresh["character_file_cards"][0]["abilities"].append("scribbled")
    for side in fresh["players"]:
        for card in side["discard"] + side["field"] + side.get("hand", []):
            card["name"] = "scribbled"
        side["discard"].append("scribbled")
    assert orjson.dumps(build_view(match.state, 0)) == before
    assert orjson.dumps(one) == before
    assert fresh["players"][0]["discard"] and fresh["players"][1]["field"]


def test_patches_from_kept_shared_views_rebuild_the_state() -> None:
    match, _ = _random_match(7, 0)
    held = {viewer: match.view(viewer, patch=True) for viewer in VIEWERS}
    states = {viewer: view["state"] for viewer, view in held.items()}
    patched = 0
    for step, (seat, action) in enumerate(_random_match(7, 300)[1]):
        match.submit(seat, action)
        for viewer in VIEWERS:
            got = match.view(viewer, since=step, patch=True)
            assert "state" not in got
            states[viewer] = patch(states[viewer], got["patch"])
            assert states[viewer] == match.view(viewer)["state"]
            patched += 1
    assert patched > 100
