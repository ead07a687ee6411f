"""Deck construction, the deck file format, the sample pool and options."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import orjson
import pytest

from deathnote.engine import ContentError, Match, OptionsError
from deathnote.games.tcg import GAME
from deathnote.games.tcg import cards as cards_module
from deathnote.games.tcg.cards import default_content, parse_pool
from deathnote.games.tcg.effects import EFFECTS

KIRA_LIST = sorted(
    n for e in default_content()["decks"]["kira"]["cards"] for n in [e["number"]] * e["count"]
)


def deck(cards: object, name: str = "Test deck") -> dict[str, object]:
    """A deck as data, the way a deck file's object travels as the ``deck`` option."""
    return {"format": "deathnote-tcg-deck", "name": name, "cards": cards}


def test_deck_size_is_exactly_40() -> None:
    for cards in (KIRA_LIST[:-1], [*KIRA_LIST, "DN-S46"]):
        with pytest.raises(OptionsError, match="exactly 40 cards"):
            GAME.parse_options(2, {"deck": deck(cards)})
    with pytest.raises(OptionsError, match="exactly 40 cards"):
        GAME.parse_options(2, {"decks": [KIRA_LIST[:39], "l"]})


def test_deck_copies_at_most_four() -> None:
    cards = [*KIRA_LIST[:-5], *["DN-S46"] * 5]
    assert len(cards) == 40
    with pytest.raises(OptionsError, match=r"at most 4 copies .* DN-S46 has 5"):
        GAME.parse_options(2, {"deck": deck(cards)})


def test_kira_card_not_in_deck() -> None:
    cards = [*KIRA_LIST[:-1], "DN-KIRA"]
    with pytest.raises(OptionsError, match=r"Kira card .* kept apart"):
        GAME.parse_options(2, {"deck": deck(cards)})
    # Every player has one Kira card of their own, outside the deck.
    match = Match.create("tcg", 2, seed=3)
    for side in match.view("spectator")["state"]["players"]:
        assert side["kira_card"] == "kept apart"
        assert side["deck_count"] + side["hand_count"] == 40


def test_unknown_card_is_a_content_error() -> None:
    cards = [*KIRA_LIST[:-1], "DN-X99"]
    opts = GAME.parse_options(2, {"deck": deck(cards)})
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
        card = pool[raw.get("id", raw["number"])]
        assert card.text and card.printed == raw["number"] and card.name
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
            assert card.printed in EFFECTS, card.number
    assert set(EFFECTS) <= set(pool)


def test_deck_option_is_stored_in_the_record() -> None:
    entries = [{"number": n, "count": c} for n, c in sorted(Counter(KIRA_LIST).items())]
    match = Match.create(
        "tcg", 2, seed=5, options={"deck": deck(entries, name="My Kira"), "deck_seat": 1}
    )
    assert match.options["decks"][1] == {"name": "My Kira", "cards": KIRA_LIST}
    assert match.options["decks"][0] == {"id": "kira"}
    assert match.seat_names() == ["Player 1", "Player 2"]
    assert match.view(1)["state"]["players"][1]["deck"] == "My Kira"
    record = orjson.loads(orjson.dumps(match.record()))
    again = Match.replay(record)
    assert again.options == match.options
    assert again.view("omniscient") == match.view("omniscient")


def test_seats_are_players_and_decks_are_shown_beside_them() -> None:
    match = Match.create("tcg", 2, seed=1)
    assert match.seat_names() == ["Player 1", "Player 2"]
    assert [p["deck"] for p in match.view("spectator")["state"]["players"]] == ["Kira", "L"]
    both = Match.create("tcg", 2, seed=1, options={"decks": ["l", "l"]})
    assert both.seat_names() == ["Player 1", "Player 2"]


def test_bad_options_name_the_option() -> None:
    with pytest.raises(OptionsError, match="tcg has no option 'colour'"):
        GAME.parse_options(2, {"colour": "red"})
    with pytest.raises(OptionsError, match="option 'first'"):
        GAME.parse_options(2, {"first": 2})
    with pytest.raises(OptionsError, match="option 'decks'"):
        GAME.parse_options(2, {"decks": ["kira"]})
    with pytest.raises(OptionsError, match="no packaged deck 'near'"):
        GAME.load_content(None, GAME.parse_options(2, {"decks": ["near", "l"]}))
    with pytest.raises(OptionsError, match="never a file path"):
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
    data = json.loads(path.read_text())
    match = Match.create("tcg", 2, seed=2, options={"deck": data})
    assert match.options["decks"][0]["name"] == "Example Kira deck"
    assert len(match.options["decks"][0]["cards"]) == 40


def test_packaged_decks_are_chosen_by_name() -> None:
    match = Match.create("tcg", 2, seed=2, options={"deck": "kira-example", "deck_seat": 1})
    assert match.options["decks"] == [{"id": "kira"}, {"id": "kira-example"}]
    assert match.view(1)["state"]["players"][1]["deck"] == "Example Kira deck"
    side = match.view("omniscient")["state"]["players"][1]
    assert side["deck_count"] + side["hand_count"] == 40
    with pytest.raises(OptionsError, match="no packaged deck 'near'"):
        Match.create("tcg", 2, seed=2, options={"deck": "near"})


PATHS = [
    "/etc/shadow",
    "/etc/passwd",
    "../../secret.json",
    "deck.json",
    "C:\\deck.json",
    "/dev/stdin",
    ".",
]


@pytest.mark.parametrize("path", PATHS)
def test_a_path_as_the_deck_is_never_opened(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """issue 11 §1: a deck travels as data; a path in an option is refused, never opened."""
    import builtins
    import io
    import os

    opened: list[str] = []

    def trap(target: object, name: str) -> None:
        original = getattr(target, name)

        def spy(*args: object, **kwargs: object) -> object:
            opened.append(str(args[0]) if args else name)
            return original(*args, **kwargs)

        monkeypatch.setattr(target, name, spy)

    # Content is loaded before the traps are set (the shipped pool is read from the package).
    content = GAME.load_content(None, {})
    for target, name in [
        (builtins, "open"),
        (io, "open"),
        (os, "open"),
        (os, "stat"),
        (Path, "open"),
        (Path, "read_text"),
        (Path, "read_bytes"),
    ]:
        trap(target, name)
    for options in ({"deck": path}, {"decks": [path, "l"]}, {"decks": ["kira", {"id": path}]}):
        with pytest.raises(OptionsError) as err:
            GAME.parse_options(2, options)
        message = str(err.value)
        assert "never a file path" in message
        assert "Errno" not in message and "directory" not in message and "Expecting" not in message
    # A name-shaped string is looked up in the content's table of decks, never opened either.
    opts = GAME.parse_options(2, {"deck": "shadow"})
    with pytest.raises(OptionsError, match="no packaged deck 'shadow'"):
        GAME.load_content(None, opts)
    monkeypatch.undo()
    shipped = str(Path(cards_module.__file__).parent / "content")
    assert [p for p in opened if not p.startswith(shipped + "/")] == []
    assert content["decks"].keys() >= {"kira", "l", "kira-example"}


def test_deck_option_size_is_bounded() -> None:
    with pytest.raises(OptionsError, match="at most 100 entries"):
        GAME.parse_options(2, {"deck": ["DN-S01"] * 10_000})
    with pytest.raises(OptionsError, match=r"count must be a whole number 0\.\.40"):
        GAME.parse_options(2, {"deck": [{"number": "DN-S01", "count": 10**9}]})
    with pytest.raises(OptionsError, match="at most 32 characters"):
        GAME.parse_options(2, {"deck": ["X" * 1_000_000]})
    with pytest.raises(OptionsError, match="at most 60 characters"):
        GAME.parse_options(2, {"deck": deck(KIRA_LIST, name="N" * 1_000_000)})
    with pytest.raises(OptionsError) as err:
        GAME.parse_options(2, {"deck": "k" * 1_000_000})
    assert len(str(err.value)) < 300
    with pytest.raises(OptionsError, match="takes only"):
        GAME.parse_options(2, {"deck": {**deck(KIRA_LIST), "path": "/etc/shadow"}})
    with pytest.raises(OptionsError, match="printable"):
        GAME.parse_options(2, {"deck": deck(KIRA_LIST, name="a\x1b[2Jb")})


RYUK, RYUK_PARALLEL = "DN-S23", "DN-S23-P"


def test_parallel_printing_counts_as_the_same_number() -> None:
    """TCG-DECK-07: a parallel printing has an id of its own and its base card's number; the
    4-copy rule counts both together."""
    pool = parse_pool(default_content()["pool"])
    base, parallel = pool[RYUK], pool[RYUK_PARALLEL]
    assert parallel.printed == base.printed == RYUK and parallel.print == "parallel"
    assert (parallel.name, parallel.kind, parallel.text, parallel.shinigami) == (
        base.name,
        base.kind,
        base.text,
        base.shinigami,
    )
    rest = [n for n in KIRA_LIST if n != RYUK]
    legal = sorted([*rest[: 40 - 4], RYUK, RYUK, RYUK_PARALLEL, RYUK_PARALLEL])
    opts = GAME.parse_options(2, {"deck": deck(legal)})
    GAME.load_content(None, opts)  # 2 + 2 of number DN-S23: legal
    five = sorted([*rest[: 40 - 5], RYUK, RYUK, RYUK, RYUK_PARALLEL, RYUK_PARALLEL])
    opts = GAME.parse_options(2, {"deck": deck(five)})  # each id alone is within 4
    with pytest.raises(OptionsError, match=r"at most 4 copies .*parallel.* DN-S23 has 5"):
        GAME.load_content(None, opts)


def test_parallel_printing_plays_as_its_number() -> None:
    """A parallel Ryuk attached and turned face up gives the Death Note action."""
    from tests.games.tcg.helpers import act, legal_of, pass_turns, put, started

    state, rng = started()
    put(state, 0, "DN-S01", special=RYUK_PARALLEL, special_up=True)
    pass_turns(state, rng, 2)
    act(state, rng, 0, "next")
    assert legal_of(state, 0, "act", ability="deathnote", source=RYUK_PARALLEL)
    view = GAME.view(state, 0)
    special = view["players"][0]["field"][0]["special"]["card"]
    assert special["id"] == RYUK_PARALLEL and special["number"] == RYUK


def test_pool_rejects_a_bad_parallel_printing() -> None:
    pool = default_content()["pool"]
    ryuk = next(c for c in pool["cards"] if c["number"] == RYUK)
    cases = [
        ({"number": RYUK, "name": "Ryuk", "kind": "special"}, "appears twice"),
        ({"id": "DN-P", "number": "DN-NONE"}, "not one"),
        ({"id": "DN-P", "number": RYUK, "cost": 1}, r"cards\[\d+\]\.cost: a parallel printing"),
        ({"id": RYUK_PARALLEL, "number": RYUK}, "appears twice"),
        ({"id": "DN-P2", "number": RYUK_PARALLEL}, "not one"),
    ]
    for extra, message in cases:
        with pytest.raises(ContentError, match=message):
            parse_pool({**pool, "cards": [*pool["cards"], extra]})
    assert ryuk["name"] == "Ryuk"


def test_options_model_is_strict_and_described() -> None:
    """TCG-OPT-01: a pydantic model; a boolean is not a seat; text options are coerced."""
    from deathnote.engine.options import coerce, schema

    for bad in ({"first": True}, {"deck_seat": True}, {"first": "1"}, {"deck_seat": 2}):
        with pytest.raises(OptionsError, match=r"option '(first|deck_seat)"):
            GAME.parse_options(2, bad)
    with pytest.raises(OptionsError, match="option 'decks'"):
        GAME.parse_options(2, {"decks": ["kira", "l", "l"]})
    assert coerce(GAME, {"first": "1", "deck_seat": "1"})["first"] == 1
    assert GAME.parse_options(2, {}) == {"decks": [{"id": "kira"}, {"id": "l"}], "first": "random"}
    properties = schema(GAME)["properties"]
    assert set(properties) == {"decks", "deck", "deck_seat", "first"}
    assert all(p.get("description") for p in properties.values())


def test_the_terminal_reads_a_deck_file_and_passes_its_cards(tmp_path: Path) -> None:
    """TCG-OPT-02: only the CLI opens a deck file; the match gets the cards as data."""
    from typer.testing import CliRunner

    from deathnote.cli.app import app

    runner = CliRunner()
    path = tmp_path / "my-kira.json"
    path.write_text(json.dumps({"cards": KIRA_LIST}))  # no name: named after the file
    save = tmp_path / "games"
    args = ["simulate", "tcg", "--games", "2", "--deck", str(path), "--save", str(save)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    record = json.loads(next(save.iterdir()).read_text())
    assert record["options"]["decks"][0] == {"name": "my-kira", "cards": KIRA_LIST}
    for bad, message in ((tmp_path / "none.json", "no such file"), (tmp_path, "cannot be read")):
        result = runner.invoke(app, ["simulate", "tcg", "--games", "1", "--deck", str(bad)])
        assert result.exit_code == 2 and message in result.output
        assert "Errno" not in result.output
    path.write_text("{not json")
    result = runner.invoke(app, ["simulate", "tcg", "--games", "1", "--deck", str(path)])
    assert result.exit_code == 2 and "not a JSON deck" in result.output


def test_content_errors_name_the_file_and_the_field(tmp_path: Path) -> None:
    """Content files are validated by pydantic models (``PoolFile``, ``CardEntry``)."""
    content = default_content()
    path = tmp_path / "pool.json"
    cases = [
        ({"cost": True}, r"cards\[0\]\.cost: Input should be a valid integer"),
        ({"kind": "spell"}, r"cards\[0\]\.kind: Input should be 'character', 'special' or"),
        ({"colour": "red"}, r"cards\[0\]\.colour: Extra inputs are not permitted"),
        ({"points": -1}, r"cards\[0\]\.points: Input should be greater than or equal to 0"),
    ]
    for change, message in cases:
        cards = [{**content["pool"]["cards"][0], **change}, *content["pool"]["cards"][1:]]
        path.write_text(json.dumps({**content, "pool": {**content["pool"], "cards": cards}}))
        with pytest.raises(ContentError, match=f"{re.escape(str(path))}: pool: {message}"):
            GAME.load_content(str(path), GAME.parse_options(2, {}))
    path.write_text(json.dumps({**content, "pool": {**content["pool"], "format": "x"}}))
    with pytest.raises(ContentError, match=r"pool: format: Input should be"):
        GAME.load_content(str(path), GAME.parse_options(2, {}))
    path.write_text("{broken")
    with pytest.raises(ContentError, match="is not JSON") as err:
        GAME.load_content(str(path), GAME.parse_options(2, {}))
    assert "Expecting" not in str(err.value)
