"""Set-up: Roles, card sets, the guaranteed deal, Watari, the first player, options."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from deathnote.engine import SPECTATOR, ContentError, Match, OptionsError
from deathnote.engine.options import coerce, schema
from deathnote.engine.registry import get_game
from deathnote.games.werewolf.content import default_content

from .helpers import new, st

ROLES = {
    4: ["kira", "l", "police", "police"],
    5: ["kira", "worshipper", "l", "police", "police"],
    6: ["kira", "worshipper", "l", "l", "police", "police"],
    7: ["kira", "worshipper", "l", "l", "police", "police", "watari"],
}
CARDS = {
    4: dict(
        death_note=1, arrest=1, handgun=1, alias=1, alibi=1, surveillance=1, vote=2,
        exchange=4, interrogation=4,
    ),
    5: dict(
        death_note=1, handgun=1, alias=1, alibi=1, arrest=2, surveillance=2, vote=3,
        exchange=4, interrogation=5,
    ),
    6: dict(
        death_note=1, handgun=1, alias=1, alibi=1, witness=1, shinigami=1, arrest=2,
        surveillance=2, vote=3, exchange=5, interrogation=6,
    ),
    7: dict(
        death_note=1, alibi=1, witness=1, shinigami=1, arrest=2, handgun=2, alias=2,
        surveillance=2, vote=4, exchange=5, interrogation=7,
    ),
}  # fmt: skip
TOTALS = {4: 16, 5: 20, 6: 24, 7: 28}


def all_cards(m: Match) -> Counter[str]:
    s = st(m)
    return Counter(s.deck + s.discard + s.removed + [c for x in s.seats for c in x.hand])


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_role_sets(players: int) -> None:
    for seed in range(3):
        m = new(players, seed)
        assert sorted(x.role for x in st(m).seats) == sorted(ROLES[players])


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_card_sets(players: int) -> None:
    m = new(players, 1)
    assert all_cards(m) == Counter(CARDS[players])
    assert sum(CARDS[players].values()) == TOTALS[players]
    assert m.view(SPECTATOR)["state"]["cards_in_game"] == dict(sorted(CARDS[players].items()))


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_deal_guarantees_death_note_and_arrest(players: int) -> None:
    for seed in range(30):
        m = new(players, seed, first=None)
        s = st(m)
        # The first player has drawn their card: every other hand holds the two dealt cards.
        hands = [x.hand for x in s.seats]
        assert sorted(len(h) for h in hands) == [2] * (players - 1) + [3]
        first_hand = list(hands[s.first])
        first_hand.remove(s.drawn)  # type: ignore[arg-type]
        dealt = [c for i, h in enumerate(hands) if i != s.first for c in h] + first_hand
        assert "death_note" in dealt and "arrest" in dealt
        assert len(s.deck) == TOTALS[players] - 2 * players - 1


def test_five_player_deal_example() -> None:
    # Rulebook: five players, (5 x 2) - 2 = 8 cards drawn, DEATH NOTE and Arrest added: 10.
    m = new(5, 3)
    assert len(st(m).deck) + 1 == 20 - 10
    assert sum(len(x.hand) for x in st(m).seats) == 10 + 1


def test_roles_are_secret() -> None:
    m = new(6, 2)
    for viewer in range(6):
        seats = m.view(viewer)["state"]["seats"]
        assert [x["role"] is not None for x in seats] == [i == viewer for i in range(6)]
        assert m.view(viewer)["state"]["me"]["role"] == st(m).seats[viewer].role
    assert all(x["role"] is None for x in m.view(SPECTATOR)["state"]["seats"])
    assert "hands" not in m.view(SPECTATOR)["state"]


def test_watari_sees_l() -> None:
    for seed in range(5):
        m = new(7, seed)
        s = st(m)
        w = next(i for i, x in enumerate(s.seats) if x.role == "watari")
        ls = [i for i, x in enumerate(s.seats) if x.role == "l"]
        me = m.view(w)["state"]["me"]
        assert me["known_roles"] == {str(i): "l" for i in ls}
        for other in range(7):
            if other != w:
                assert m.view(other)["state"]["me"]["known_roles"] == {}
        # The set-up events are in the log before the first action, Watari's only to Watari.
        assert any(e["data"].get("type") == "watari" for e in m.log(w))
        for other in range(7):
            if other != w:
                assert not any(e["data"].get("type") == "watari" for e in m.log(other))


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_setup_events_logged_before_the_first_action(players: int) -> None:
    m = new(players, 3, first=None)
    assert m.actions == []
    first = st(m).first
    for seat in range(players):
        log = m.log(seat)
        role = st(m).tables.role_name[st(m).seats[seat].role]
        assert log[0]["text"].startswith(f"Your Role is {role} ")
        hand = list(st(m).seats[seat].hand)
        if seat == first:
            hand.remove(st(m).drawn)  # type: ignore[arg-type]
        assert sorted(log[0]["data"]["hand"]) == sorted(hand)
        assert sum(e["data"].get("type") == "deal" for e in log) == 1
    spectator = [e["data"].get("type") for e in m.log(SPECTATOR)]
    assert spectator == ["first", "phase", "draw"]
    # Nothing is logged twice once play starts (rules version 2 parked them in the state).
    m.submit(min(m.pending()), m.legal(min(m.pending()))[0])
    assert sum(e.data.get("type") == "deal" for e in m.events) == players


def test_no_watari_below_seven() -> None:
    for players in (4, 5, 6):
        m = new(players, 0)
        assert all(not x.known_roles for x in st(m).seats)


def test_first_player_option_and_random() -> None:
    assert st(new(5, 0, first=3)).first == 3
    assert st(new(5, 0, first=3)).current == 3
    firsts = {st(new(5, seed, first=None)).first for seed in range(40)}
    assert firsts == set(range(5))
    m = new(5, 0, first=None)
    m.submit(min(m.pending()), m.legal(min(m.pending()))[0])
    assert m.log(SPECTATOR)[0]["data"] == {"type": "first", "seat": st(m).first}


def test_options_validated() -> None:
    with pytest.raises(OptionsError, match="first_player"):
        Match.create("werewolf", 4, 0, {"first_player": 4})
    with pytest.raises(OptionsError, match="handgun_reveal"):
        Match.create("werewolf", 4, 0, {"handgun_reveal": "nobody"})
    with pytest.raises(OptionsError, match="no option 'colour'"):
        Match.create("werewolf", 4, 0, {"colour": 1})
    with pytest.raises(OptionsError, match="first_player"):
        Match.create("werewolf", 4, 0, {"first_player": True})  # a boolean is not a seat
    with pytest.raises(OptionsError, match="first_player"):
        Match.create("werewolf", 4, 0, {"first_player": "1"})
    assert Match.create("werewolf", 4, 0, {"first_player": 2}).options == {
        "first_player": 2,
        "handgun_reveal": "table",
    }
    assert coerce(get_game("werewolf"), {"first_player": "2"})["first_player"] == 2
    props = schema(get_game("werewolf"))["properties"]
    assert set(props) == {"first_player", "handgun_reveal"}
    assert all(p.get("description") for p in props.values())
    with pytest.raises(OptionsError):
        Match.create("werewolf", 8, 0)


def test_content_errors(tmp_path: Path) -> None:
    data = default_content()
    data["setups"]["4"]["cards"]["death_note"] = 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match="death_note"):
        Match.create("werewolf", 4, 0, content=str(bad))
    data = default_content()
    data["cards"][3]["number"] = -1
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match="number"):
        Match.create("werewolf", 4, 0, content=str(bad))
    data = default_content()
    data["cards"][3]["number"] = True  # a boolean is not a number
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"bad\.json: field 'cards\.3\.number'"):
        Match.create("werewolf", 4, 0, content=str(bad))
    data = default_content()
    del data["setups"]["5"]
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"setups\.5 is missing"):
        Match.create("werewolf", 4, 0, content=str(bad))
    data = default_content()
    data["roles"][0]["team"] = "near"
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"roles\.0\.team"):
        Match.create("werewolf", 4, 0, content=str(bad))
    (tmp_path / "junk.json").write_text("{")
    with pytest.raises(ContentError, match=r"junk\.json"):
        Match.create("werewolf", 4, 0, content=str(tmp_path / "junk.json"))


def test_replacement_content_renames_cards(tmp_path: Path) -> None:
    data = default_content()
    data["cards"][7]["name"] = "Poll"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    m = Match.create("werewolf", 4, 0, {"first_player": 0}, content=str(path))
    assert any(c["name"] == "Poll" for c in m.view(0)["state"]["card_list"])
    again = Match.replay(m.record())
    assert again.view(0) == m.view(0)


def test_content_needs_enough_cards(tmp_path: Path) -> None:
    data = default_content()
    data["setups"]["4"]["cards"] = {"death_note": 1, "arrest": 1, "vote": 8}
    bad = tmp_path / "few.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match="at least 11 cards"):
        Match.create("werewolf", 4, 0, content=str(bad))
    data["setups"]["4"]["cards"]["vote"] = 9
    bad.write_text(json.dumps(data))
    assert Match.create("werewolf", 4, 0, content=str(bad)).outcome() is None
