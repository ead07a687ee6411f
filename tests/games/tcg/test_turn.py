"""Set-up, the turn order, victory, costs, Characters, Specials and Events."""

from __future__ import annotations

import pytest

from deathnote.engine import Match
from deathnote.games.tcg import GAME
from deathnote.games.tcg.state import ACTION, CHARACTER, MULLIGAN
from tests.games.tcg.helpers import (
    AIZAWA,
    HALLE,
    HIGUCHI,
    IDE,
    L_CHAR,
    LIGHT,
    LIGHT_KIRA,
    MATSUDA,
    MIKAMI,
    MISA,
    MOGI,
    NEAR,
    PROFITS,
    RYUK,
    SOICHIRO,
    WATARI,
    act,
    fresh,
    legal_of,
    pass_turns,
    put,
    started,
    texts,
    to_action_phase,
)


def test_start_zero_points_six_cards() -> None:
    state, _ = fresh()
    for player in state.players:
        assert player.points == 0
        assert len(player.hand) == 6 and len(player.deck) == 34
    assert state.phase == MULLIGAN


def test_character_file_lists_every_character() -> None:
    state, _ = fresh()
    names = {c.name for c in state.cards.values() if c.kind == "character"}
    assert set(state.file_names) == names
    view = GAME.view(state, 1)
    assert view["character_file"] == sorted(names)
    # ... and shows each as the card it is: its printed face, name, cost, points and text.
    file = view["character_file_cards"]
    assert {c["name"] for c in file} == names
    for face in file:
        card = state.cards[face["id"]]
        assert card.kind == "character" and face["text"] == card.text
        assert (face["cost"], face["points"]) == (card.cost, card.points)
    assert len({c["number"] for c in file}) == len(file)  # one face per printed card


def test_first_player_option_and_random() -> None:
    for first in (0, 1):
        state, _ = fresh(first=first)
        assert state.first == first and state.current == first
    seen = {Match.create("tcg", 2, seed=s).state.first for s in range(12)}
    assert seen == {0, 1}  # "random" (the default) uses the match's generator


def test_mulligan_once_each_first_player_first() -> None:
    state, rng = fresh(first=1)
    assert GAME.pending(state).keys() == {1}
    before = sorted(state.players[1].hand + state.players[1].deck)
    act(state, rng, 1, "mulligan")
    assert state.players[1].mulligan == "redrawn" and len(state.players[1].hand) == 6
    assert sorted(state.players[1].hand + state.players[1].deck) == before
    assert GAME.pending(state).keys() == {0}
    act(state, rng, 0, "keep")
    assert state.phase == CHARACTER and state.current == 1 and state.turn == 1
    assert not legal_of(state, 1, "mulligan") and not legal_of(state, 0, "mulligan")


def test_first_player_draws_nothing_in_turn_one() -> None:
    state, rng = started(first=0)
    assert len(state.players[0].hand) == 6  # turn 1: no draw
    pass_turns(state, rng, 1)
    assert state.current == 1 and len(state.players[1].hand) == 7  # the second player draws
    pass_turns(state, rng, 1)
    assert len(state.players[0].hand) == 7  # the first player's second turn draws


def test_no_recovery_or_action_in_first_turn() -> None:
    state, rng = started(first=0)
    assert [a.label for a in legal_of(state, 0, "next")] == ["End the turn"]
    act(state, rng, 0, "next")
    assert state.current == 1 and state.phase == CHARACTER  # no Action phase for seat 0
    act(state, rng, 1, "next")
    assert state.current == 0 and state.phase == CHARACTER  # none for seat 1 either
    act(state, rng, 0, "next")
    assert state.phase == ACTION  # the second turn has one


def test_no_recovery_in_first_turn_code_path() -> None:
    # A Character put sideways before a player's first turn stays sideways in that turn.
    state, rng = fresh(first=0)
    fc = put(state, 1, MISA, upright=False)
    act(state, rng, 0, "keep")
    act(state, rng, 1, "keep")
    pass_turns(state, rng, 1)
    assert state.current == 1 and not fc.upright
    pass_turns(state, rng, 2)
    assert fc.upright  # seat 1's second turn recovers


def test_no_hand_limit() -> None:
    state, rng = started(first=0)
    state.players[1].hand += [PROFITS] * 10
    pass_turns(state, rng, 2)
    assert len(state.players[1].hand) == 17  # nothing discarded at the end of the turn


def test_turn_order() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 2)
    # Turn 3 (seat 0): Start, Recovery, Draw happened; now the Character phase.
    assert state.turn == 3 and state.phase == CHARACTER
    fc = put(state, 0, MISA, upright=False)
    state.players[0].hand.append(MISA)
    pass_turns(state, rng, 2)
    assert fc.upright  # Recovery at the start of seat 0's next turn
    assert legal_of(state, 0, "place") and not legal_of(state, 0, "work")
    to_action_phase(state, rng)
    assert legal_of(state, 0, "work") and not legal_of(state, 0, "place")


def test_thirteen_points_win() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 2)
    put(state, 0, HALLE)
    state.players[0].points = 10
    to_action_phase(state, rng)
    events = act(state, rng, 0, "work", character="Halle Lidner")
    assert state.players[0].points == 13 and state.winner == 0
    assert "wins" in texts(events)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("first",) and outcome.condition == "points"
    assert GAME.pending(state) == {} and GAME.legal(state, 0) == []


def test_drawing_from_empty_deck_loses() -> None:
    state, rng = started(first=0)
    state.players[1].deck.clear()
    pass_turns(state, rng, 1)
    assert state.winner == 0 and state.condition == "deck_out"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("first",)


def test_outcome_names_turn_order_and_deck() -> None:
    state, rng = started(first=1)
    state.players[0].deck.clear()
    pass_turns(state, rng, 1)  # seat 0 (second player, Kira deck) cannot draw
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == ("first",)
    assert dict(outcome.scores) == {"deck:l": 1.0, "deck:kira": 0.0}


def test_costs_paid_from_points() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 2)
    me = state.players[0]
    me.hand += [MIKAMI, L_CHAR]
    me.points = 1
    assert not legal_of(state, 0, "place", card=MIKAMI)  # cost 2 > 1 point
    act(state, rng, 0, "place", card=L_CHAR)
    assert me.points == 0


def test_character_upright_sideways_recovery() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 2)
    state.players[0].hand.append(MISA)
    act(state, rng, 0, "place", card=MISA)
    fc = state.players[0].character("Misa Amane")
    assert fc is not None and fc.face_up and fc.upright
    to_action_phase(state, rng)
    act(state, rng, 0, "work", character="Misa Amane")
    assert not fc.upright and not legal_of(state, 0, "work", character="Misa Amane")
    pass_turns(state, rng, 2)
    assert fc.upright


def test_new_character_may_act_at_once() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 2)
    state.players[0].hand.append(MISA)
    act(state, rng, 0, "place", card=MISA)
    to_action_phase(state, rng)
    assert legal_of(state, 0, "work", character="Misa Amane")


def test_face_down_no_actions_and_immune() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 2)
    put(state, 0, MISA)
    act(state, rng, 0, "hide", character="Misa Amane")
    assert not legal_of(state, 0, "show", character="Misa Amane")  # once per turn
    to_action_phase(state, rng)
    assert not legal_of(state, 0, "work", character="Misa Amane")
    pass_turns(state, rng, 2)
    act(state, rng, 0, "show", character="Misa Amane")
    to_action_phase(state, rng)
    assert legal_of(state, 0, "work", character="Misa Amane")


def test_one_character_per_turn() -> None:
    state, rng = started(first=0)
    state.players[0].hand += [MISA, LIGHT]
    act(state, rng, 0, "place", card=MISA)
    assert not legal_of(state, 0, "place")


def test_two_characters_when_opponent_has_more() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 1)
    put(state, 0, MISA)
    state.players[1].hand += [MATSUDA, AIZAWA, MOGI]
    pass_turns(state, rng, 1)  # seat 1 ends; seat 0 has 1 Character, seat 1 none
    pass_turns(state, rng, 1)
    assert state.current == 1 and state.players[1].allowance == 2
    act(state, rng, 1, "place", card=MATSUDA)
    act(state, rng, 1, "place", card=AIZAWA)
    assert not legal_of(state, 1, "place")


def test_at_most_six_characters() -> None:
    state, _ = started(first=0)
    for number in (LIGHT, MISA, MIKAMI, HIGUCHI, SOICHIRO, L_CHAR):
        put(state, 0, number)
    state.players[0].hand.append(NEAR)
    state.players[0].points = 1
    assert not legal_of(state, 0, "place", card=NEAR)
    state.players[0].field.pop()
    assert legal_of(state, 0, "place", card=NEAR)


def test_one_character_of_each_name() -> None:
    state, rng = started(first=0)
    put(state, 0, MISA)
    state.players[0].hand.append(MISA)
    assert not legal_of(state, 0, "place", card=MISA)
    state.players[1].hand.append(MISA)
    pass_turns(state, rng, 1)
    assert legal_of(state, 1, "place", card=MISA)  # the opponent may have her too


def test_special_attach_same_name_or_shinigami() -> None:
    state, rng = started(first=0)
    put(state, 0, MISA)
    put(state, 0, LIGHT)
    state.players[0].hand += [LIGHT_KIRA, RYUK]
    act(state, rng, 0, "attach", card=LIGHT_KIRA)
    assert [a["target"] for a in legal_of(state, 0, "target")] == ["Light Yagami"]
    act(state, rng, 0, "cancel")
    act(state, rng, 0, "attach", card=RYUK)
    assert {a["target"] for a in legal_of(state, 0, "target")} == {"Misa Amane", "Light Yagami"}
    points = state.players[0].points
    act(state, rng, 0, "target", target="Misa Amane")
    fc = state.players[0].character("Misa Amane")
    assert fc is not None and fc.special == RYUK and not fc.special_face_up
    assert state.players[0].points == points  # Specials cost nothing


def test_special_face_up_only_in_a_later_turn() -> None:
    state, rng = started(first=0)
    put(state, 0, LIGHT)
    state.players[0].hand.append(LIGHT_KIRA)
    act(state, rng, 0, "attach", card=LIGHT_KIRA)
    act(state, rng, 0, "target", target="Light Yagami")
    assert not legal_of(state, 0, "reveal")
    # The opponent sees that a Special is there, not which.
    theirs = GAME.view(state, 1)["players"][0]["field"][0]["special"]
    assert theirs == {"face_up": False, "attached_turn": 1}
    assert GAME.view(state, 0)["players"][0]["field"][0]["special"]["card"]
    pass_turns(state, rng, 2)
    events = act(state, rng, 0, "reveal", character="Light Yagami")
    assert "Kira" in texts(events)
    theirs = GAME.view(state, 1)["players"][0]["field"][0]["special"]
    assert theirs["face_up"] and theirs["card"]["number"] == LIGHT_KIRA


def test_one_special_per_character() -> None:
    state, _ = started(first=0)
    put(state, 0, MISA, special=RYUK)
    state.players[0].hand.append("DN-S24")  # Rem
    assert not legal_of(state, 0, "attach")


def test_one_special_of_each_name() -> None:
    state, _ = started(first=0)
    put(state, 0, MISA, special=RYUK)
    put(state, 0, LIGHT)
    state.players[0].hand.append(RYUK)
    assert not legal_of(state, 0, "attach", card=RYUK)


def test_special_leaves_with_its_character() -> None:
    state, rng = started(first=0)
    put(state, 1, L_CHAR, special="DN-S32", special_up=True)
    pass_turns(state, rng, 2)
    state.players[0].points = 3
    state.players[0].hand.append("DN-S42")  # Arrest Warrant
    to_action_phase(state, rng)
    act(state, rng, 0, "event", card="DN-S42")
    act(state, rng, 0, "target", target="L")
    assert state.players[1].field == []
    assert state.players[1].discard == [L_CHAR, "DN-S32"]


def test_event_is_paid_and_discarded() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 2)
    me = state.players[0]
    me.hand.append("DN-S39")  # Press Conference, cost 1
    me.points = 0
    to_action_phase(state, rng)
    assert not legal_of(state, 0, "event", card="DN-S39")
    me.points = 2
    hand = len(me.hand)
    act(state, rng, 0, "event", card="DN-S39")
    assert me.points == 1 and "DN-S39" in me.discard and len(me.hand) == hand - 1 + 2


def test_work_earns_points() -> None:
    state, rng = started(first=0)
    pass_turns(state, rng, 2)
    put(state, 0, MISA)
    put(state, 0, LIGHT, special=LIGHT_KIRA, special_up=True)
    put(state, 0, SOICHIRO, special="DN-S35", special_up=True)
    to_action_phase(state, rng)
    act(state, rng, 0, "work", character="Misa Amane")
    act(state, rng, 0, "work", character="Light Yagami")
    act(state, rng, 0, "work", character="Soichiro Yagami")
    assert state.players[0].points == 1 + 2 + 2


@pytest.mark.parametrize("number", [WATARI, IDE])
def test_cancel_changes_nothing(number: str) -> None:
    state, rng = started(first=0)
    put(state, 0, number)
    state.players[0].hand.append(RYUK)
    act(state, rng, 0, "attach", card=RYUK)
    assert GAME.pending(state)[0].kind == "target"
    act(state, rng, 0, "cancel")
    assert state.choice is None and RYUK in state.players[0].hand
