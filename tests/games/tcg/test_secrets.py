"""No view and no log entry shows a seat the other's hand, deck, hidden Specials or the
secret Death Note target: the same actions replayed with other hidden cards look the same."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deathnote.agents import RandomAgent, agent_rng, make_agent, observe
from deathnote.engine import SPECTATOR, Action, IllegalAction, Match


def play(match: Match, steps: int, agent: str) -> list[tuple[int, Action]]:
    """Let two bots play up to ``steps`` actions; return the actions taken."""
    agents = [RandomAgent(s) if agent == "random" else make_agent("tcg", agent, s) for s in (0, 1)]
    rngs = [agent_rng(match.seed, s) for s in (0, 1)]
    while match.outcome() is None and len(match.actions) < steps:
        seat = min(match.pending())
        match.submit(seat, agents[seat].choose(observe(match, seat, rngs[seat])))
    return list(match.actions)


def views(match: Match, observer: int) -> tuple[dict[str, Any], dict[str, Any]]:
    return match.view(observer), match.view(SPECTATOR)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    observer=st.sampled_from([0, 1]),
    steps=st.integers(5, 250),
    data=st.data(),
)
def test_secret_swap_hand_and_deck(seed: int, observer: int, steps: int, data: Any) -> None:
    hidden = 1 - observer
    first = Match.create("tcg", 2, seed)
    actions = play(first, steps, "random")
    # The same game, but one card of the hidden seat's opening hand or deck is another card.
    changed = Match.create("tcg", 2, seed)
    same = Match.create("tcg", 2, seed)
    player = changed.state.players[hidden]
    pile = data.draw(st.sampled_from(["hand", "deck"]))
    cards = player.hand if pile == "hand" else player.deck
    index = data.draw(st.integers(0, len(cards) - 1))
    others = sorted(set(changed.state.cards) - {cards[index]})
    cards[index] = data.draw(st.sampled_from(others))
    assert views(changed, observer) == views(same, observer)
    for seat, action in actions:
        try:
            changed.submit(seat, action)
        except IllegalAction:
            assume(False)  # the changed card was one the hidden seat played: not a secret
        same.submit(seat, action)
        if changed.state.players[hidden].shown != same.state.players[hidden].shown:
            break  # an effect showed the hidden hand to the observer: the rest may differ
        assert views(changed, observer) == views(same, observer)
    # The hidden seat itself does see the difference (the change was real).
    hands = [Counter(m.state.players[hidden].hand) for m in (changed, same)]
    if hands[0] != hands[1]:
        assert changed.view(hidden) != same.view(hidden)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), data=st.data())
def test_secret_deathnote_target(seed: int, data: Any) -> None:
    match = Match.create("tcg", 2, seed)
    agents = [make_agent("tcg", "heuristic", s) for s in (0, 1)]
    rngs = [agent_rng(seed, s) for s in (0, 1)]
    while match.outcome() is None and len(match.actions) < 400:
        seat = min(match.pending())
        choice = match.state.choice
        if choice and choice.get("ability") == "deathnote":
            break
        match.submit(seat, agents[seat].choose(observe(match, seat, rngs[seat])))
    assume(match.outcome() is None)
    writer = min(match.pending())
    observer = 1 - writer
    names = [a["target"] for a in match.legal(writer) if a.kind == "target"]
    one = data.draw(st.sampled_from(names))
    two = data.draw(st.sampled_from([n for n in names if n != one]))
    record = match.record()
    a = Match.replay(record)
    b = Match.replay(record)
    a.submit(writer, Action.make("target", target=one))
    b.submit(writer, Action.make("target", target=two))
    assert views(a, observer) == views(b, observer)
    assert a.view(writer) != b.view(writer)
    # Until the writer's next turn begins (the reveal), both tables look the same to the others.
    turn = a.state.turn
    while a.outcome() is None:
        seat = min(a.pending())
        action = agents[seat].choose(observe(a, seat, rngs[seat]))
        if seat == observer and a.state.turn == turn + 1 and action.kind == "end":
            break
        a.submit(seat, action)
        b.submit(seat, action)
        assert views(a, observer) == views(b, observer)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), data=st.data())
def test_secret_face_down_special(seed: int, data: Any) -> None:
    match = Match.create("tcg", 2, seed)
    agents = [make_agent("tcg", "heuristic", s) for s in (0, 1)]
    rngs = [agent_rng(seed, s) for s in (0, 1)]
    owner = -1
    while match.outcome() is None and len(match.actions) < 400:
        seat = min(match.pending())
        choice = match.state.choice
        action = agents[seat].choose(observe(match, seat, rngs[seat]))
        match.submit(seat, action)
        if choice and choice.get("step") == "attach":
            owner, name = seat, action["target"]
            break
    assume(owner >= 0 and match.outcome() is None)
    observer = 1 - owner
    record = match.record()
    a, b = Match.replay(record), Match.replay(record)
    # In b the face-down Special is another Special of the owner's hand or deck.
    player = b.state.players[owner]
    fc = player.character(name)
    assert fc is not None and fc.special is not None and not fc.special_face_up
    swaps = [
        (pile, i)
        for pile in (player.hand, player.deck)
        for i, n in enumerate(pile)
        if b.state.cards[n].kind == "special" and n != fc.special
    ]
    assume(swaps)
    pile, index = data.draw(st.sampled_from(swaps))
    pile[index], fc.special = fc.special, pile[index]
    b._legal.clear()  # the state was edited behind the match's back: drop its caches
    b._pending = None
    assert views(a, observer) == views(b, observer)
    while a.outcome() is None:
        seat = min(a.pending())
        action = agents[seat].choose(observe(a, seat, rngs[seat]))
        if action not in b.legal(seat):
            break  # the owner plays the card that differs: the swap no longer fits the actions
        a.submit(seat, action)
        b.submit(seat, action)
        mine = a.state.players[owner].character(name)
        if mine is None or mine.special_face_up or a.state.players[owner].shown:
            break  # revealed, destroyed or shown by an effect: no longer a secret
        assert views(a, observer) == views(b, observer)
