"""The view's player-facing words: screens read these instead of mapping ids to words."""

from __future__ import annotations

import random

from deathnote.engine import SPECTATOR, Match


def test_phase_and_card_kind_names_are_words_for_every_state() -> None:
    m = Match.create("tcg", 2, 6)
    rng = random.Random(6)
    while True:
        for viewer in (0, 1, SPECTATOR):
            state = m.view(viewer)["state"]
            assert state["phase_name"] and "_" not in state["phase_name"]
            for side in state["players"]:
                for c in [*side.get("hand", []), *side["field"]]:
                    assert c["kind_name"] in ("Character", "Special", "Event")
        if m.outcome() is not None:
            break
        s = min(m.pending())
        m.submit(s, rng.choice(list(m.legal(s))))
    assert m.view(0)["state"]["phase_name"] == "Game over"
