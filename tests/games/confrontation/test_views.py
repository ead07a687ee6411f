"""Views: the digital notebooks, and no leak of Kira's identity (secret-swap property)."""

from __future__ import annotations

import copy
import random

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from deathnote.engine import OMNISCIENT, Action, Event, Match
from deathnote.games.confrontation import GAME, rules
from deathnote.games.confrontation.state import KIRA, ConfState, L

from .helpers import chase, make_state, night, tables

WATCHERS = (L, "spectator")


def test_l_and_spectator_views_never_name_kira_until_the_end() -> None:
    match = Match.create("confrontation", 2, seed=8)
    letter = match.state.tables.letters[match.state.identity]
    while match.outcome() is None:
        for viewer in WATCHERS:
            view = match.view(viewer)
            assert view["state"]["identity"] is None
            assert "notebooks" not in view["state"]
            assert f"Suspect {letter}" not in orjson.dumps(view).decode() or any(
                e["text"].startswith(f"You draw Suspect {letter}") for e in view["log"]
            )
        seat = min(match.pending())
        legal = match.legal(seat)
        match.submit(seat, next((a for a in legal if a.kind != "accuse"), legal[0]))
    for viewer in (*WATCHERS, KIRA):
        assert match.view(viewer)["state"]["identity"] == letter  # the cards are turned over


def test_kira_notebook() -> None:
    state = make_state(identity="G", leads_top=[1])
    chase(state, "A", "B")
    night(state, 5, 7, 19, victim=5)
    nb = GAME.view(state, KIRA)["notebook"]
    assert nb["role"] == "kira" and nb["identity"] == "G"
    assert nb["regional_kills"] == [5] and nb["regional_used"] == 1 and nb["regional_left"] == 1
    assert nb["points_by_type"] == {"knife": 0, "gun": 2, "bomb": 3}
    assert nb["chase_points"] == 3 and nb["ryuk"] is None
    assert "remaining" not in nb and "cards" not in nb


def test_spectator_and_omniscient_views() -> None:
    state = make_state(identity="G", suspects_top="E", leads_top=[1])
    chase(state, "A", "A")
    spectator = GAME.view(state, "spectator")
    assert spectator["notebook"] is None and spectator["suspect_cards_drawn"] == 1
    omni = GAME.view(state, OMNISCIENT)
    assert omni["identity"] == "G"
    assert omni["notebooks"]["l"]["cards"] == ["E"]
    assert omni["notebooks"]["kira"]["identity"] == "G"


def test_the_view_words_every_elimination_reason_and_crime_type() -> None:
    """Screens read the notebook's reasons and the Map's letters from the view (issue 16 §2:
    no raw id reaches a person; front ends know no words of the game)."""
    for chapter in (1, 2):
        match = Match.create("confrontation", 2, seed=3, options={"chapter": chapter})
        reasons: set[str] = set()
        while match.outcome() is None:
            seat = min(match.pending())
            legal = match.legal(seat)
            match.submit(seat, next((a for a in legal if a.kind != "accuse"), legal[0]))
            view = match.view(L)["state"]
            reasons |= {s["reason"] for s in view["notebook"]["suspects"] if s["reason"]}
        names = view["elimination_names"]
        assert reasons and reasons <= set(names), reasons
        assert all(n[0].isupper() and "_" not in n for n in names.values())
        glyphs = [crime["glyph"] for crime in view["crime_types"].values()]
        assert all(len(g) == 1 and g.isupper() for g in glyphs) and len(set(glyphs)) == 3


def _random_game(
    chapter: int, seed: int
) -> tuple[ConfState, random.Random, list[tuple[int, Action]], list[str]]:
    """A random game; returns the initial state, the generator after set-up, the actions
    and L's remaining Suspects at the end."""
    t = tables(chapter)
    setup = random.Random(seed)
    state = rules.new_state(t, setup)
    start, after = copy.deepcopy(state), random.Random()
    after.setstate(setup.getstate())
    pick = random.Random(seed + 1)
    actions: list[tuple[int, Action]] = []
    while state.result is None:
        seat = min(rules.pending(state))
        legal = list(rules.legal(state, seat))
        choice = pick.choice(legal)
        if choice.kind == "accuse" and pick.random() < 0.9:
            choice = legal[0]
        actions.append((seat, choice))
        rules.apply(state, seat, choice, setup)
    return start, after, actions, GAME.view(state, L)["notebook"]["remaining"]


def _seen(events: list[Event], viewer: object) -> list[str]:
    return [e.text for e in events if e.visible_to(viewer)]  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), chapter=st.sampled_from([1, 2]), which=st.integers(0, 50))
def test_secret_swap_gives_identical_l_and_spectator_views(
    seed: int, chapter: int, which: int
) -> None:
    """Replaying the same actions with another identity consistent with them gives L and a
    spectator exactly the same views and logs at every step before the end."""
    start, after, actions, final = _random_game(chapter, seed)
    t = start.tables
    me = t.letters[start.identity]
    others = [x for x in final if x != me]
    if not others:
        return
    other = t.letters.index(others[which % len(others)])
    deck = [start.identity if s == other else s for s in start.suspect_deck]
    states = [
        copy.deepcopy(start),
        rules.build_state(t, other, deck, list(start.lead_deck)),
    ]
    rngs = [after, random.Random()]
    rngs[1].setstate(after.getstate())
    for step, (seat, action) in enumerate(actions):
        logs: list[list[list[str]]] = []
        for state, rng in zip(states, rngs, strict=True):
            assert action in rules.legal(state, seat), f"step {step}"
            events = rules.apply(state, seat, action, rng)
            logs.append([_seen(events, v) for v in WATCHERS])
        if states[0].result is not None:
            break  # the end turns the cards over
        assert logs[0] == logs[1], f"step {step}"
        for viewer in WATCHERS:
            assert GAME.view(states[0], viewer) == GAME.view(states[1], viewer), f"step {step}"
        assert rules.pending(states[0]) == rules.pending(states[1])


def test_views_share_no_object_with_the_state() -> None:
    """Emptying every list and dict of the game's view changes nothing in the game (the
    log's event data is the engine's ``Event.to_json``)."""
    import copy

    from .test_sample import mid_games

    def wreck(value: object) -> None:
        if isinstance(value, dict):
            for v in value.values():
                wreck(v)
            value.clear()
        elif isinstance(value, list):
            for v in value:
                wreck(v)
            value.clear()

    for chapter in (1, 2):
        for match in mid_games(chapter, 15, seed=40 + chapter):
            for viewer in (KIRA, L, "spectator", OMNISCIENT):
                before = copy.deepcopy(match.view(viewer)["state"])
                wreck(GAME.view(match.state, viewer))
                assert match.view(viewer)["state"] == before
