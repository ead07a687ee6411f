"""Set-up, options, seats and content loading."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from deathnote.engine import ContentError, Match, OptionsError
from deathnote.games.confrontation import GAME, content
from deathnote.games.confrontation.state import KIRA, L

CONTENT = Path(content.__file__).parent / "content"


def test_seats_and_options() -> None:
    assert GAME.seat_names(2, {}) == ["Kira", "L"]
    assert GAME.parse_options(2, {}) == {"chapter": 1}
    assert GAME.parse_options(2, {"chapter": 2}) == {"chapter": 2}
    with pytest.raises(OptionsError, match="chapter"):
        GAME.parse_options(2, {"chapter": 3})
    with pytest.raises(OptionsError, match="colour"):
        GAME.parse_options(2, {"colour": "red"})


def test_setup_draws_identity_and_shuffles_decks() -> None:
    match = Match.create("confrontation", 2, seed=5)
    state = match.state
    assert len(state.suspect_deck) == 19 and state.identity not in state.suspect_deck
    assert sorted(state.lead_deck) == list(range(12))
    assert match.pending() == {L: match.pending()[L]}  # L reveals the first lead
    identities = {Match.create("confrontation", 2, seed=s).state.identity for s in range(40)}
    assert len(identities) > 8  # the identity is random, from the match's generator


def test_chapter_content_files() -> None:
    one = content.tables(content.load(None, 1), 1)
    two = content.tables(content.load(None, 2), 2)
    assert len(one.letters) == len(two.letters) == 20
    assert one.letters[0] == "A" and one.letters[-1] == "T"
    assert max(one.numbers) >= 27 and len(two.numbers) > len(one.numbers)
    assert len(one.leads) == len(two.leads) == 12
    assert sum(a for pair in two.leads for _t, a in pair) > 0 and sum(two.stars) > 0
    assert sum(a for pair in one.leads for _t, a in pair) == 0 and sum(one.stars) == 0
    # the rulebook's example criminals: 7 a Bomber, 27 a Shooter, 19 a Stabber
    for number, kind in ((7, "bomb"), (27, "gun"), (19, "knife")):
        assert one.crime_type[one.index_of_number[number]] == kind


def test_content_errors_name_file_and_field(tmp_path: Path) -> None:
    data = json.loads((CONTENT / "chapter1.json").read_text())
    data["map"]["criminals"][3]["type"] = "poison"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"bad\.json.*map\.criminals\[3\]\.type"):
        Match.create("confrontation", 2, seed=1, content=str(bad))
    data = json.loads((CONTENT / "chapter1.json").read_text())
    del data["suspects"][0]
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"bad\.json.*suspects.*no Suspect card for A"):
        Match.create("confrontation", 2, seed=1, content=str(bad))
    bad.write_text("{not json")
    with pytest.raises(ContentError, match="not valid JSON"):
        Match.create("confrontation", 2, seed=1, content=str(bad))
    with pytest.raises(ContentError, match="cannot read"):
        Match.create("confrontation", 2, seed=1, content=str(tmp_path / "missing.json"))
    data = json.loads((CONTENT / "chapter2.json").read_text())
    data["intel_rows"][0]["ability"] = "fly"
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match=r"intel_rows\[0\]\.ability"):
        Match.create("confrontation", 2, seed=1, options={"chapter": 2}, content=str(bad))


def test_other_content_plays_and_replays(tmp_path: Path) -> None:
    data = json.loads((CONTENT / "chapter1.json").read_text())
    data["leads"] = data["leads"][:2]  # a tiny Lead deck: it runs out and is reshuffled
    custom = tmp_path / "mine.json"
    custom.write_text(json.dumps(data))
    match = Match.create("confrontation", 2, seed=3, content=str(custom))
    assert len(match.state.lead_deck) == 2
    while match.outcome() is None:
        seat = min(match.pending())
        legal = match.legal(seat)
        pick = next((a for a in legal if a.kind != "accuse"), legal[0])
        match.submit(seat, pick)
    again = Match.replay(match.record())
    assert again.outcome() == match.outcome()
    assert again.view("omniscient") == match.view("omniscient")
    assert KIRA == 0


def test_deal_and_roll_draw_as_random_does() -> None:
    """Records replay: the deal and the dice come from ``deathnote.engine.rng``, which
    draws exactly as ``random.Random.shuffle``/``choice`` (seeds keep their games)."""
    from deathnote.games.confrontation import rules

    t = content.tables(content.load(None, 2), 2)
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        state = rules.new_state(t, ours)
        cards = list(range(len(t.letters)))
        theirs.shuffle(cards)
        leads = list(range(len(t.leads)))
        theirs.shuffle(leads)
        assert state.identity == cards.pop() and state.suspect_deck == cards
        assert state.lead_deck == leads
        assert rules.roll(ours, t.dice) == [theirs.choice(d) for d in t.dice]
        assert ours.getstate() == theirs.getstate()


def test_no_private_random_helpers() -> None:
    """The game and its bot draw only through ``deathnote.engine.rng``."""
    from pathlib import Path

    import deathnote.games.confrontation as pkg

    for path in Path(pkg.__file__).parent.glob("*.py"):
        text = path.read_text()
        for banned in ("getrandbits", "_randbelow", "rng.shuffle", "rng.choice", "rng.randint"):
            assert banned not in text, (path.name, banned)


def test_setup_events_tell_kira_his_identity_before_the_first_action() -> None:
    match = Match.create("confrontation", 2, seed=5, options={"chapter": 2})
    letter = match.state.tables.letters[match.state.identity]
    kira_log = [e["text"] for e in match.view(KIRA)["log"]]
    l_log = [e["text"] for e in match.view(L)["log"]]
    spectator_log = [e["text"] for e in match.view("spectator")["log"]]
    assert not match.actions
    assert any(f"your secret identity is Suspect {letter}" in x for x in kira_log)
    assert not any("identity" in x for x in l_log + spectator_log)
    assert any(x.startswith("You are L") for x in l_log)
    assert spectator_log == [kira_log[0]] and "20 points" in spectator_log[0]


def test_options_model_is_strict_and_coerces_text() -> None:
    from deathnote.engine.options import coerce, schema

    assert GAME.parse_options(2, {}) == {"chapter": 1}
    for bad in (True, "2", 0, 3, 1.5):
        with pytest.raises(OptionsError, match="chapter"):
            GAME.parse_options(2, {"chapter": bad})
    # coerce fills every field's default; parse_options leaves the default variant out
    assert coerce(GAME, {"chapter": "2"}) == {"chapter": 2, "variant": "standard"}
    assert GAME.parse_options(2, coerce(GAME, {"chapter": "2"})) == {"chapter": 2}
    assert coerce(GAME, {"variant": "tiny"}) == {"chapter": 1, "variant": "tiny"}
    props = schema(GAME)["properties"]
    assert props["chapter"]["default"] == 1 and props["chapter"]["description"]


def test_content_schema_is_strict_and_checks_the_map(tmp_path: Path) -> None:
    """The pydantic schema refuses a boolean for a number and names the field; the
    cross-field checks (squares on the map, one card per Home) keep naming theirs; OS error
    text is never quoted."""
    bad = tmp_path / "bad.json"
    cases = [
        (
            lambda d: d["crime_types"]["gun"].__setitem__("points", True),
            r"crime_types\.gun\.points",
        ),
        (lambda d: d["leads"][2]["A"].__setitem__("apples", -1), r"leads\[2\]\.A\.apples"),
        (
            lambda d: d["map"]["suspects"][1].__setitem__("x", 99),
            r"map\.suspects\[1\].*off the map",
        ),
        (lambda d: d.pop("map"), r"field map: Field required$"),
        (lambda d: d["intel_rows"].pop(), r"intel_rows: must have exactly 4 rows"),
    ]
    for change, pattern in cases:
        data = json.loads((CONTENT / "chapter2.json").read_text())
        change(data)
        bad.write_text(json.dumps(data))
        with pytest.raises(ContentError, match=pattern):
            Match.create("confrontation", 2, seed=1, options={"chapter": 2}, content=str(bad))
    with pytest.raises(ContentError) as info:
        Match.create("confrontation", 2, seed=1, content=str(tmp_path))
    assert str(info.value).endswith("cannot read the file") and "Errno" not in str(info.value)
