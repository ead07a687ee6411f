"""Forks and sampled worlds (TCG-SEC-02): a sample never contradicts what its viewer saw,
and every hidden value the viewer cannot rule out turns up."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from deathnote.agents import RandomAgent, agent_rng, make_agent, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Match
from deathnote.engine.actions import Viewer
from deathnote.games.tcg import GAME
from deathnote.games.tcg.state import Mark

VIEWERS: list[Viewer] = [0, 1, SPECTATOR, OMNISCIENT]


def played(seed: int, steps: int, agent: str = "random") -> Match:
    """A match after up to ``steps`` actions of two bots."""
    match = Match.create("tcg", 2, seed)
    agents = [RandomAgent(s) if agent == "random" else make_agent("tcg", agent, s) for s in (0, 1)]
    rngs = [agent_rng(seed, s) for s in (0, 1)]
    while match.outcome() is None and len(match.actions) < steps:
        seat = min(match.pending())
        match.submit(seat, agents[seat].choose(observe(match, seat, rngs[seat])))
    return match


def seen(match: Match, viewer: Viewer) -> tuple[object, ...]:
    view = match.view(viewer)
    legal = sorted(str(a.to_json()) for a in match.legal(viewer)) if isinstance(viewer, int) else []
    return view, legal, view["waiting"]


@pytest.mark.parametrize("seed", range(12))
def test_sample_agrees_with_the_viewer(seed: int) -> None:
    rng = random.Random(seed)
    for steps in (3, 40, 120):
        match = played(seed, steps, "heuristic" if seed % 2 else "random")
        truth = GAME.view(match.state, OMNISCIENT)
        for viewer in VIEWERS:
            for _ in range(3):
                world = match.sample_world(viewer, rng)
                assert seen(world, viewer) == seen(match, viewer)
                for seat in world.pending():
                    for action in world.legal(seat) if viewer in (seat, OMNISCIENT) else ():
                        world.fork().submit(seat, action)  # every legal action plays
        assert GAME.view(match.state, OMNISCIENT) == truth  # sampling changed nothing


def test_sample_draws_every_hidden_card_and_page() -> None:
    match = played(7, 60, "heuristic")
    state = match.state
    # Give seat 1 a pending Death Note mark and a face-down Shinigami to hide.
    state.players[1].mark = Mark("Touta Matsuda", state.turn, "DN-S23", "Light Yagami")
    rng = random.Random(1)
    opponent = state.players[1]
    unseen = set(opponent.hand) | set(opponent.deck)
    hands: set[str] = set()
    pages: Counter[str] = Counter()
    for _ in range(400):
        world = match.sample_world(0, rng)
        hands.update(world.state.players[1].hand)
        mark = world.state.players[1].mark
        assert mark is not None
        pages[mark.target] += 1
        # The viewer's own hand stays; the composition of every pile is kept.
        assert world.state.players[0].hand == state.players[0].hand
        assert Counter(world.state.players[0].deck) == Counter(state.players[0].deck)
        assert Counter(world.state.players[1].hand + world.state.players[1].deck) == Counter(
            opponent.hand + opponent.deck
        )
    assert hands == unseen
    assert set(pages) == set(state.file_names)
    # The owner's own mark is never redrawn.
    for _ in range(20):
        mark = match.sample_world(1, rng).state.players[1].mark
        assert mark is not None and mark.target == "Touta Matsuda"


def test_sampled_pages_favour_the_characters_the_writer_saw_face_up() -> None:
    """A Death Note mark keeps the marked side's face-up Characters of that moment, most
    valuable first (public: both players saw the field); a sampled page is the most valuable
    about half the time, one of them more often than not, and any page of the File may
    still turn up (TCG-DN-02)."""
    from tests.games.tcg.helpers import (
        IDE,
        LIGHT,
        MATSUDA,
        MISA,
        REM,
        RYUK,
        act,
        pass_turns,
        put,
        started,
    )

    state, rng = started(first=0, seed=2)
    put(state, 1, MATSUDA)
    put(state, 1, MISA, special=REM)  # a face-down Special: worth more
    put(state, 1, IDE, face_up=False)  # face down: not seen
    pass_turns(state, rng, 2)
    put(state, 0, LIGHT, special=RYUK, special_up=True)
    act(state, rng, 0, "next")
    act(state, rng, 0, "act", ability="deathnote", character="Light Yagami")
    act(state, rng, 0, "target", target="Touta Matsuda")
    mark = state.players[0].mark
    assert mark is not None and mark.exposed == ("Misa Amane", "Touta Matsuda")
    match = Match.create("tcg", 2, 0)
    match.state = state
    pages: Counter[str] = Counter()
    draw = random.Random(4)
    for _ in range(800):
        world = match.sample_world(1, draw)
        drawn = world.state.players[0].mark
        assert drawn is not None and drawn.exposed == mark.exposed
        pages[drawn.target] += 1
    assert 0.5 < pages["Misa Amane"] / 800 < 0.75
    assert 0.1 < pages["Touta Matsuda"] / 800 < 0.3
    assert len(pages) > len(state.file_names) // 2
    # The writer's own view of its mark is never redrawn.
    assert match.sample_world(0, draw).state.players[0].mark.target == "Touta Matsuda"


def test_sample_redraws_face_down_specials_by_the_rules() -> None:
    from tests.games.tcg.helpers import LIGHT, MISA, REM, RYUK, started

    state, _ = started()
    me, other = state.players[0], state.players[1]
    # Seat 1 holds Light with a face-down Special; Ryuk, Rem and Misa's Special are unseen.
    other.deck += [RYUK, REM, "DN-S28", "DN-S27"]
    from deathnote.games.tcg.state import FieldCharacter

    other.field.append(FieldCharacter(number=LIGHT, name="Light Yagami", special=RYUK))
    other.field.append(FieldCharacter(number=MISA, name="Misa Amane", face_up=True))
    rng = random.Random(3)
    seen_specials = set()
    for _ in range(300):
        twin = GAME.sample_state(state, 0, rng)
        special = twin.players[1].character("Light Yagami").special  # type: ignore[union-attr]
        card = twin.cards[special]
        assert card.kind == "special" and (card.shinigami or card.name == "Light Yagami")
        seen_specials.add(special)
    assert {RYUK, REM, "DN-S27"} <= seen_specials
    assert "DN-S28" not in seen_specials  # Misa's Special cannot go on Light
    assert me.hand == GAME.sample_state(state, 0, rng).players[0].hand


def test_fork_is_independent_and_shares_the_pool() -> None:
    match = played(3, 80)
    twin = match.fork()
    assert twin.state.cards is match.state.cards
    assert twin.state.file_names is match.state.file_names
    before = GAME.view(match.state, OMNISCIENT)
    while twin.outcome() is None:
        seat = min(twin.pending())
        twin.submit(seat, twin.legal(seat)[-1])
    assert GAME.view(match.state, OMNISCIENT) == before


def test_fork_and_sample_are_fast() -> None:
    match = played(5, 100, "heuristic")
    rng = random.Random(0)
    times = []
    for _ in range(200):
        start = time.perf_counter()
        GAME.fork_state(match.state)
        times.append(time.perf_counter() - start)
    assert sorted(times)[100] < 1e-3
    times = []
    for _ in range(200):
        start = time.perf_counter()
        GAME.sample_state(match.state, 0, rng)
        times.append(time.perf_counter() - start)
    assert sorted(times)[100] < 2e-3


def test_setup_events_come_before_the_first_action() -> None:
    match = Match.create("tcg", 2, seed=4)
    first = min(match.pending())
    log = match.view(first)["log"]
    texts = [entry["text"] for entry in log]
    assert any("goes first" in t for t in texts)
    own = [t for t in texts if t.startswith("Your opening hand: ")]
    assert len(own) == 1
    hand = sorted(match.state.cards[n].label for n in match.state.players[first].hand)
    assert sorted(own[0][len("Your opening hand: ") : -1].split(", ")) == hand
    other = [e["text"] for e in match.view(1 - first)["log"]]
    assert own[0] not in other
    assert not any("opening hand" in e["text"] for e in match.view(SPECTATOR)["log"])


def _wreck(value: object) -> None:
    """Empty every list and dict inside a view, depth first."""
    if isinstance(value, dict):
        for item in value.values():
            _wreck(item)
        value.clear()
    elif isinstance(value, list):
        for item in value:
            _wreck(item)
        value.clear()


def test_views_share_no_objects_with_the_state() -> None:
    for seed in range(4):
        match = played(seed, 60, "heuristic")
        for viewer in VIEWERS:
            before = GAME.view(match.state, viewer)
            _wreck(GAME.view(match.state, viewer))
            assert GAME.view(match.state, viewer) == before


def test_sample_keeps_a_choice_in_progress_playable() -> None:
    """The card of the opponent's two-step choice stays in the hand of every sample, so
    every action the sampled opponent may take plays (search bots play both sides)."""
    found = 0
    rng = random.Random(5)
    for seed in range(60):
        match = played(seed, 10_000, "heuristic")  # to the end, remembering choices below
        record = match.record()
        replay = Match.replay({**record, "actions": []})
        for seat, action in [(s, a) for s, a in match.actions]:
            replay.submit(seat, action)
            choice = replay.state.choice
            if choice is None or replay.outcome() is not None:
                continue
            found += 1
            for _ in range(5):
                world = replay.sample_world(1 - replay.state.current, rng)
                mover = world.state.current
                if "card" in choice:
                    assert choice["card"] in world.state.players[mover].hand
                for legal in world.legal(mover):
                    world.fork().submit(mover, legal)
        if found >= 30:
            break
    assert found >= 30


def test_sample_keeps_cards_an_effect_showed() -> None:
    """Cards Surveillance Cameras showed the viewer stay in the hand (TCG-SEC-02); a
    spectator, who was not shown them, gets them redrawn."""
    match = played(2, 30, "heuristic")
    other = match.state.players[1]
    other.shown = set(other.hand)
    rng = random.Random(0)
    for _ in range(20):
        assert sorted(GAME.sample_state(match.state, 0, rng).players[1].hand) == sorted(other.hand)
    hands = {
        tuple(sorted(GAME.sample_state(match.state, SPECTATOR, rng).players[1].hand))
        for _ in range(20)
    }
    assert len(hands) > 1


def test_the_search_for_face_down_specials_reads_no_hidden_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no quick tries left, the complete search still places the face-down Specials
    by the rules, and two tables that seat 0 cannot tell apart (Light's face-down Special is
    Ryuk in one, Rem in the other) give the same worlds: the truth is never handed back."""
    from deathnote.games.tcg import worlds
    from deathnote.games.tcg.state import FieldCharacter
    from tests.games.tcg.helpers import LIGHT, MISA, REM, RYUK, started

    monkeypatch.setattr(worlds, "SPECIAL_TRIES", 0)
    tables = []
    for under_light in (RYUK, REM):
        state, _ = started()
        other = state.players[1]
        other.deck += [RYUK, REM, "DN-S28", "DN-S27"]
        other.deck.remove(under_light)
        other.field.append(FieldCharacter(number=LIGHT, name="Light Yagami", special=under_light))
        other.field.append(FieldCharacter(number=MISA, name="Misa Amane", face_up=True))
        tables.append(state)
    assert GAME.view(tables[0], 0) == GAME.view(tables[1], 0)
    seen_specials = set()
    for seed in range(60):
        one, two = (GAME.sample_state(s, 0, random.Random(seed)) for s in tables)
        assert GAME.view(one, OMNISCIENT) == GAME.view(two, OMNISCIENT)
        special = one.players[1].character("Light Yagami").special  # type: ignore[union-attr]
        card = one.cards[special]
        assert card.kind == "special" and (card.shinigami or card.name == "Light Yagami")
        seen_specials.add(special)
    assert {RYUK, REM} <= seen_specials
