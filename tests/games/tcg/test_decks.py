"""Deck construction, the deck file format, the sample pool and options."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import orjson
import pytest

from deathnote.engine import ContentError, Match, OptionsError
from deathnote.games.tcg import GAME
from deathnote.games.tcg.cards import default_content, parse_pool
from deathnote.games.tcg.effects import EFFECTS

KIRA_LIST = sorted(
    n for e in default_content()["decks"]["kira"]["cards"] for n in [e["number"]] * e["count"]
)


def write_deck(tmp_path: Path, cards: object, name: str = "Test deck") -> str:
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"format": "deathnote-tcg-deck", "name": name, "cards": cards}))
    return str(path)


def test_deck_size_is_exactly_40(tmp_path: Path) -> None:
    for cards in (KIRA_LIST[:-1], [*KIRA_LIST, "DN-S46"]):
        with pytest.raises(OptionsError, match="exactly 40 cards"):
            GAME.parse_options(2, {"deck": write_deck(tmp_path, cards)})
    with pytest.raises(OptionsError, match="exactly 40 cards"):
        GAME.parse_options(2, {"decks": [KIRA_LIST[:39], "l"]})


def test_deck_copies_at_most_four(tmp_path: Path) -> None:
    cards = [*KIRA_LIST[:-5], *["DN-S46"] * 5]
    assert len(cards) == 40
    with pytest.raises(OptionsError, match=r"at most 4 copies .* DN-S46 has 5"):
        GAME.parse_options(2, {"deck": write_deck(tmp_path, cards)})


def test_kira_card_not_in_deck(tmp_path: Path) -> None:
    cards = [*KIRA_LIST[:-1], "DN-KIRA"]
    with pytest.raises(OptionsError, match=r"Kira card .* kept apart"):
        GAME.parse_options(2, {"deck": write_deck(tmp_path, cards)})
    # Every player has one Kira card of their own, outside the deck.
    match = Match.create("tcg", 2, seed=3)
    for side in match.view("spectator")["state"]["players"]:
        assert side["kira_card"] == "kept apart"
        assert side["deck_count"] + side["hand_count"] == 40


def test_unknown_card_is_a_content_error(tmp_path: Path) -> None:
    cards = [*KIRA_LIST[:-1], "DN-X99"]
    opts = GAME.parse_options(2, {"deck": write_deck(tmp_path, cards)})
    with pytest.raises(ContentError, match="DN-X99 is not in the card pool"):
        GAME.load_content(None, opts)


def test_sample_pool_and_decks() -> None:
    content = default_content()
    pool = parse_pool(content["pool"])
    assert len(pool) >= 40
    kinds = Counter(c.kind for c in pool.values())
    assert kinds["character"] and kinds["special"] and kinds["event"]
    assert any(c.shinigami for c in pool.values())
    for raw in content["pool"]["cards"]:
        assert raw["status"] == "sample (not the printed card)"
        assert raw["text"] and raw["number"] and raw["name"]
    for deck_id in ("kira", "l"):
        deck = content["decks"][deck_id]
        numbers = Counter({e["number"]: e["count"] for e in deck["cards"]})
        assert sum(numbers.values()) == 40 and max(numbers.values()) <= 4
        assert set(numbers) <= set(pool)
        assert deck["status"] == "sample (not the printed card)"


def test_every_event_and_special_has_a_registered_effect() -> None:
    pool = parse_pool(default_content()["pool"])
    for card in pool.values():
        if card.kind in ("event", "special"):
            assert card.number in EFFECTS, card.number
    assert set(EFFECTS) <= set(pool)


def test_deck_file_option_is_stored_in_the_record(tmp_path: Path) -> None:
    entries = [{"number": n, "count": c} for n, c in sorted(Counter(KIRA_LIST).items())]
    path = write_deck(tmp_path, entries, name="My Kira")
    match = Match.create("tcg", 2, seed=5, options={"deck": path, "deck_seat": 1})
    assert match.options["decks"][1] == {"name": "My Kira", "cards": KIRA_LIST}
    assert match.options["decks"][0] == {"id": "kira"}
    assert match.seat_names() == ["Kira", "My Kira"]
    record = orjson.loads(orjson.dumps(match.record()))
    Path(path).unlink()
    again = Match.replay(record)
    assert again.options == match.options
    assert again.view("omniscient") == match.view("omniscient")


def test_seat_names_follow_the_decks() -> None:
    assert Match.create("tcg", 2, seed=1).seat_names() == ["Kira", "L"]
    both = Match.create("tcg", 2, seed=1, options={"decks": ["l", "l"]})
    assert both.seat_names() == ["Player 1", "Player 2"]


def test_bad_options_name_the_option() -> None:
    with pytest.raises(OptionsError, match="unknown tcg option"):
        GAME.parse_options(2, {"colour": "red"})
    with pytest.raises(OptionsError, match="option first"):
        GAME.parse_options(2, {"first": 2})
    with pytest.raises(OptionsError, match="option decks"):
        GAME.parse_options(2, {"decks": ["kira"]})
    with pytest.raises(OptionsError, match="no deck 'near'"):
        GAME.load_content(None, GAME.parse_options(2, {"decks": ["near", "l"]}))
    with pytest.raises(OptionsError, match="cannot read"):
        GAME.parse_options(2, {"deck": "/no/such/deck.json"})


def test_options_parse_is_stable() -> None:
    once = GAME.parse_options(2, {"decks": ["l", KIRA_LIST], "first": 1})
    assert GAME.parse_options(2, once) == once
    assert once["decks"][1]["cards"] == KIRA_LIST


def test_two_players_only() -> None:
    with pytest.raises(OptionsError, match="played by 2 players"):
        Match.create("tcg", 3, seed=1)


def test_example_deck_file_is_legal() -> None:
    from importlib import resources

    path = resources.files("deathnote.games.tcg").joinpath("content", "example-deck.json")
    match = Match.create("tcg", 2, seed=2, options={"deck": str(path)})
    assert match.options["decks"][0]["name"] == "Example Kira deck"
    assert len(match.options["decks"][0]["cards"]) == 40
