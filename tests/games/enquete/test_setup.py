"""Set-up: Roles, Investigations, Actions."""

from __future__ import annotations

import pytest

from deathnote.engine import OptionsError
from deathnote.games.enquete.flow import card, tile

from .helpers import choose, new, run_until, st, top


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_setup_roles_dealt(players: int) -> None:
    m = new(players, seed=players)
    s = st(m)
    dealt = [x.role for x in s.seats]
    assert "detective" in dealt and "light" in dealt and len(set(dealt)) == players
    assert len(s.inactive) == 9 - players
    assert {r.role for r in s.inactive}.isdisjoint(dealt)
    view = m.view(1 if s.detective != 1 else 0)
    shown = [x["role"] for x in view["state"]["seats"]]
    assert shown[s.detective] == "detective"
    assert view["state"]["seats"][s.detective]["revealed"]
    assert all(r is None for i, r in enumerate(shown) if i not in (s.detective, view["viewer"]))
    assert all(r["role"] is None for r in view["state"]["inactive"])


def test_detective_seat_option() -> None:
    for seat in range(5):
        assert st(new(5, seed=3, detective_seat=seat)).detective == seat
    with pytest.raises(OptionsError):
        new(5, detective_seat=7)
    with pytest.raises(OptionsError):
        new(5, first_games="yes")
    with pytest.raises(OptionsError):
        new(5, nonsense=1)
    with pytest.raises(OptionsError):
        new(5, series_apples=[1, 2])


def test_investigation_piles_in_order() -> None:
    s = st(new(6, seed=2))
    piles = [tile(s, t)["pile"] for t in s.tiles]
    assert piles == sorted(piles) and len(piles) == 25
    assert [piles.count(p) for p in range(1, 6)] == [5] * 5


@pytest.mark.parametrize(
    ("players", "first", "size"), [(5, False, 37), (6, False, 46), (5, True, 28), (8, True, 37)]
)
def test_deck_composition(players: int, first: bool, size: int) -> None:
    m = new(players, seed=1, first_games=first)
    s = st(m)
    everything = s.deck + s.discard + [n for x in s.seats for n in x.hand]
    everything += [n for step in s.stack if step.get("fn") == "setup_keep" for n in step["drawn"]]
    assert len(everything) == size == len(set(everything))
    if players < 6:
        assert not any(card(s, n)["six_plus"] for n in everything)
    if first:
        assert not any(28 <= n <= 36 for n in everything)


def test_setup_hands() -> None:
    m = new(6, seed=4, detective_seat=0)
    s = st(m)
    assert len(s.seats[0].hand) == 5
    keeps = 0
    while top(m)["k"] == "pick" and top(m)["fn"] == "setup_keep":
        asked = top(m)["seat"]
        drawn = list(top(m)["drawn"])
        assert len(drawn) == 2 and set(m.pending()) == {asked}
        # The other seats see only that a choice is pending, not the cards.
        other = 1 if asked != 1 else 2
        assert "drawn" not in str(m.view(other)["state"])
        choose(m, drawn[1])
        assert s.seats[asked].hand == [drawn[1]] and drawn[0] in s.discard
        keeps += 1
    assert keeps == 5
    run_until(m, lambda m: True)


@pytest.mark.parametrize("players", [4, 8])
def test_setup_events_are_logged_before_the_first_action(players: int) -> None:
    m = new(players, seed=3)
    s = st(m)
    first = min(m.pending())
    assert not m.actions
    log = [e["text"] for e in m.log(first)]
    role = s.seats[first].role
    assert any(t.startswith("Your Role is") and role.title() in t for t in log)
    assert any(t.startswith("You draw") for t in log)
    assert f"Player {s.detective + 1} is the Detective." in log
    # Nothing is parked in the state to be logged with the first action.
    assert not hasattr(s, "setup_events")
    m.submit(first, m.legal(first)[0])
    assert sum(t.startswith("Your Role is") for t in (e["text"] for e in m.log(first))) == 1


def test_options_model_is_strict_and_described() -> None:
    from deathnote.engine import Match
    from deathnote.engine.options import coerce, schema
    from deathnote.engine.registry import get_game

    game = get_game("enquete")
    assert Match.create("enquete", 4, 1).options == {
        "first_games": False,
        "series_apples": None,
        "series_games": None,
        "series_game": 1,
        "detective_seat": None,
    }
    for bad in (
        {"detective_seat": True},
        {"detective_seat": "1"},
        {"detective_seat": -1},
        {"series_apples": [1, True, 0, 0]},
        {"series_apples": [1, -1, 0, 0]},
        {"first_games": 1},
        {"series_games": 0},
        {"series_game": True},
        {"colour": "red"},
    ):
        with pytest.raises(OptionsError, match=next(iter(bad))):
            Match.create("enquete", 4, 1, bad)
    assert coerce(game, {"detective_seat": "2", "first_games": "true"}) == {
        "first_games": True,
        "series_apples": None,
        "series_games": None,
        "series_game": 1,
        "detective_seat": 2,
    }
    props = schema(game)["properties"]
    assert set(props) == {
        "first_games",
        "series_apples",
        "series_games",
        "series_game",
        "detective_seat",
    }
    assert all(p["description"] for p in props.values())


def test_randomness_only_through_the_engine_generator() -> None:
    import re
    from pathlib import Path

    import deathnote.games.enquete as pkg

    for path in Path(pkg.__file__).parent.glob("*.py"):
        text = path.read_text()
        assert not re.search(r"rng\.(shuffle|choice|randint|randrange|sample)\(", text), path
        assert "_randbelow" not in text, path
