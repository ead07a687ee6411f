"""Death Note actions and the sample cards' effects."""

from __future__ import annotations

from deathnote.engine import Match
from deathnote.games.tcg import GAME
from tests.games.tcg.helpers import (
    AIZAWA,
    ARREST,
    HOSTAGE,
    L_CHAR,
    L_SPECIAL,
    LIGHT,
    LIGHT_KIRA,
    MATSUDA,
    MATSUDA_SPECIAL,
    MIKAMI,
    MISA,
    MOGI,
    NAOMI,
    NEAR,
    NEAR_SPECIAL,
    RAID,
    REM,
    RYUK,
    THIRTEEN_DAY,
    act,
    legal_of,
    pass_turns,
    put,
    started,
    texts,
    to_action_phase,
)


def kira_ready(target_seat_chars: tuple[str, ...] = (MATSUDA,), special: str = RYUK) -> tuple:  # type: ignore[type-arg]
    """Seat 0 in its Action phase (turn 3) with Light bearing a face-up Shinigami."""
    state, rng = started(first=0)
    for number in target_seat_chars:
        put(state, 1, number)
    pass_turns(state, rng, 2)
    put(state, 0, LIGHT, special=special, special_up=True)
    to_action_phase(state, rng)
    return state, rng


def test_deathnote_action_comes_from_specials() -> None:
    state, _ = kira_ready()
    put(state, 0, MISA, special=REM, special_up=False)
    put(state, 0, MIKAMI)
    acts = legal_of(state, 0, "act", ability="deathnote")
    assert [(a["character"], a["source"]) for a in acts] == [("Light Yagami", RYUK)]


def test_deathnote_target_may_be_off_field_and_is_secret() -> None:
    state, rng = kira_ready()
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    targets = {a["target"] for a in legal_of(state, 0, "target")}
    assert targets == set(state.file_names)  # the whole Character File, on the field or not
    assert "Hideki Ide" in targets
    events = act(state, rng, 0, "target", target="Hideki Ide")
    assert state.players[0].mark is not None and state.players[0].mark.target == "Hideki Ide"
    for event in events:
        if event.audience is None:
            assert "Hideki Ide" not in event.text and "Hideki Ide" not in str(event.data)
    assert GAME.view(state, 1)["players"][0]["kira_card"] == "in the Character File"
    assert "mark" not in GAME.view(state, 1)["players"][0]
    assert "mark" not in GAME.view(state, "spectator")["players"][0]
    assert GAME.view(state, 0)["players"][0]["mark"] == "Hideki Ide"
    # The opponent places the marked Character in the meantime: it dies at the reveal.
    pass_turns(state, rng, 1)
    # In the opponent's turn the pending mark is still its owner's alone.
    assert state.current == 1 and GAME.view(state, 0)["players"][0]["mark"] == "Hideki Ide"
    for viewer in (1, "spectator"):
        assert "Hideki Ide" not in str(GAME.view(state, viewer)["players"][0])
        assert "mark" not in GAME.view(state, viewer)["players"][0]
    state.players[1].hand.append("DN-S16")
    act(state, rng, 1, "place", card="DN-S16")
    pass_turns(state, rng, 1)
    assert state.players[1].character("Hideki Ide") is None


def test_deathnote_reveal_destroys_face_up_target() -> None:
    state, rng = kira_ready((MATSUDA, AIZAWA), special=REM)
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Touta Matsuda")
    assert state.players[1].character("Touta Matsuda") is not None  # not before the reveal
    pass_turns(state, rng, 1)
    assert state.players[1].character("Touta Matsuda") is not None
    points, hand = state.players[0].points, len(state.players[0].hand)
    events = []
    seat1_end = legal_of(state, 1, "next")
    events += GAME.apply(state, 1, seat1_end[0], rng)
    events += GAME.apply(state, 1, legal_of(state, 1, "end")[0], rng)
    assert "marks Touta Matsuda" in texts(events)
    assert state.players[1].character("Touta Matsuda") is None
    assert state.players[0].points == points + 1  # Rem: 1 point and a card for a kill
    assert len(state.players[0].hand) == hand + 2  # the Draw phase's card and Rem's
    assert state.players[0].mark is None


def test_deathnote_spares_face_down_and_absent_targets() -> None:
    state, rng = kira_ready((MATSUDA, AIZAWA))
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Touta Matsuda")
    pass_turns(state, rng, 1)
    act(state, rng, 1, "hide", character="Touta Matsuda")
    pass_turns(state, rng, 1)
    assert state.players[1].character("Touta Matsuda") is not None
    # Marking a Character that never comes has no effect either.
    act(state, rng, 0, "next")
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Near")
    pass_turns(state, rng, 2)
    assert len(state.players[1].field) == 2


def test_deathnote_once_per_turn() -> None:
    state, rng = kira_ready()
    put(state, 0, MISA, special=REM, special_up=True)
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Touta Matsuda")
    assert not legal_of(state, 0, "act", ability="deathnote")
    assert legal_of(state, 0, "work", character="Misa Amane")


def test_deathnote_resolves_after_actor_destroyed() -> None:
    state, rng = kira_ready()
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Touta Matsuda")
    pass_turns(state, rng, 1)
    # Seat 1 destroys Light (and Ryuk with him) before the reveal.
    state.players[1].hand.append(ARREST)
    state.players[1].points = 3
    act(state, rng, 1, "next")
    act(state, rng, 1, "event", card=ARREST)
    act(state, rng, 1, "target", target="Light Yagami")
    assert state.players[0].character("Light Yagami") is None
    act(state, rng, 1, "end")
    assert state.players[1].character("Touta Matsuda") is None


def test_thirteen_day_rule_protects() -> None:
    state, rng = kira_ready()
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Touta Matsuda")
    pass_turns(state, rng, 1)
    state.players[1].hand.append(THIRTEEN_DAY)
    state.players[1].points = 1
    act(state, rng, 1, "next")
    act(state, rng, 1, "event", card=THIRTEEN_DAY)
    events = act(state, rng, 1, "end")
    assert state.players[1].character("Touta Matsuda") is not None
    assert "protects Touta Matsuda" in texts(events)
    assert state.current == 0 and state.players[1].protected
    pass_turns(state, rng, 1)
    assert state.current == 1 and not state.players[1].protected  # until your next turn


def test_near_erases_the_mark_without_reading_it() -> None:
    state, rng = kira_ready()
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Touta Matsuda")
    pass_turns(state, rng, 1)
    put(state, 1, NEAR, special=NEAR_SPECIAL, special_up=True)
    act(state, rng, 1, "next")
    events = act(state, rng, 1, "act", ability="switch", character="Near")
    assert "Touta Matsuda" not in texts(events)
    assert state.players[0].mark is None
    act(state, rng, 1, "end")
    assert state.players[1].character("Touta Matsuda") is not None


def test_mikami_adds_a_point_to_kills() -> None:
    state, rng = kira_ready()
    put(state, 0, MIKAMI)
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Touta Matsuda")
    before = state.players[0].points
    pass_turns(state, rng, 2)
    assert state.players[0].points == before + 1  # Ryuk alone gives no point


def test_l_and_matsuda_destroy_kira_bearers() -> None:
    state, rng = started(first=0)
    put(state, 0, LIGHT, special=LIGHT_KIRA, special_up=True)
    put(state, 0, MISA, special=RYUK, special_up=True)
    pass_turns(state, rng, 3)
    put(state, 1, L_CHAR, special=L_SPECIAL, special_up=True)
    put(state, 1, MATSUDA, special=MATSUDA_SPECIAL, special_up=True)
    act(state, rng, 1, "next")
    act(state, rng, 1, "act", ability="deduce", character="L")
    assert {a["target"] for a in legal_of(state, 1, "target")} == {"Misa Amane"}  # Shinigami
    act(state, rng, 1, "target", target="Misa Amane")
    act(state, rng, 1, "act", ability="shoot", character="Touta Matsuda")
    assert {a["target"] for a in legal_of(state, 1, "target")} == {"Light Yagami"}
    act(state, rng, 1, "target", target="Light Yagami")
    assert state.players[0].field == []


def test_raid_naomi_and_hostage() -> None:
    state, rng = started(first=0)
    put(state, 0, LIGHT, face_up=False, special=RYUK)
    put(state, 0, MISA, special=REM)
    state.players[0].points = 5
    pass_turns(state, rng, 3)
    put(state, 1, NAOMI)
    put(state, 1, MOGI)
    state.players[1].hand += [RAID, HOSTAGE]
    state.players[1].points = 4
    act(state, rng, 1, "next")
    act(state, rng, 1, "act", ability="track", character="Naomi Misora")
    act(state, rng, 1, "target", target="Light Yagami")
    assert state.players[0].character("Light Yagami").face_up  # type: ignore[union-attr]
    assert not legal_of(state, 1, "event", card=RAID)  # no face-down Character left
    act(state, rng, 1, "event", card=HOSTAGE)
    assert state.players[0].points == 2 and state.players[1].points == 2
    assert not legal_of(state, 1, "event", card=RAID)


def test_heuristic_games_end_and_replay() -> None:
    from deathnote.agents import make_agent
    from deathnote.engine.play import play

    for seed in range(3):
        match = Match.create("tcg", 2, seed=seed)
        play(match, [make_agent("tcg", "heuristic", s) for s in (0, 1)], max_actions=2000)
        outcome = match.outcome()
        assert outcome is not None and outcome.winners[0] in ("first", "second")
        assert sorted(outcome.scores) == ["deck:kira", "deck:l"]
        assert sum(outcome.scores.values()) == 1.0
        again = Match.replay(match.record())
        assert again.view("omniscient") == match.view("omniscient")
