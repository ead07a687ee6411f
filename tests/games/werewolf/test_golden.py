"""Golden playthroughs: seeded random games whose every action is pinned, to catch rules drift.

If a rule changes on purpose, bump ``WerewolfGame.rules_version`` and update these digests.
"""

from __future__ import annotations

import hashlib

import orjson
import pytest

from deathnote.agents import RandomAgent
from deathnote.engine import Match
from deathnote.engine.play import play

GOLDEN = {
    4: (34, "arrest", "006f9d050a5b"),
    5: (33, "l_dead", "d688780bd5bc"),
    6: (75, "l_dead", "b48d468d6026"),
    7: (318, "arrest", "f47abb09703a"),
}


@pytest.mark.parametrize("players", sorted(GOLDEN))
def test_golden_random_playthrough(players: int) -> None:
    m = Match.create("werewolf", players, 1234)
    play(m, [RandomAgent(s) for s in range(players)])
    out = m.outcome()
    assert out is not None
    digest = hashlib.sha256(orjson.dumps(m.record()["actions"])).hexdigest()[:12]
    assert (len(m.actions), out.condition, digest) == GOLDEN[players]
