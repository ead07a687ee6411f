"""What a bot in a room gets: a snapshot it may read in another thread, with a sampler."""

from __future__ import annotations

import random

from deathnote.engine import Match
from deathnote.server.rooms import snapshot


def test_a_room_bot_samples_worlds_from_its_own_seat_only() -> None:
    match = Match.create("icg", 5, seed=4)
    for _ in range(6):
        seat = min(match.pending())
        match.submit(seat, match.legal(seat)[0])
    seat = min(match.pending())
    observation = snapshot(match, seat, random.Random(1))
    assert observation.can_sample
    world = observation.sample_world(random.Random(2))
    assert world is not match
    assert world.view(seat)["state"] == match.view(seat)["state"]
    assert world.legal(seat) == match.legal(seat)
    before = match.view("omniscient")
    world.submit(seat, world.legal(seat)[0])  # playing on a world changes nothing real
    assert match.view("omniscient") == before
