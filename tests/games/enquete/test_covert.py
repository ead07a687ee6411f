"""Issue 11 §5: a decision only a secret makes real changes nothing that another viewer sees.

Le Jeu d'Enquête asks one seat at a time, in the open (no decision is covert: everyone sees
who is thinking, as at a table). So what must not leak is whether the asked seat has a real
choice. Windows ask every living player holding Actions alike, whatever the cards; Rebirth,
Overcast and Matsuda ask the designated (or every) player alike, whatever the Role. For
every such decision in random games, a twin match in which that seat has nothing to decide
(only the passive answer is legal: its hand holds nothing playable now, or its Role cannot
take the active option) must look the same to every other viewer, before the answer and
after the passive answer: phase, prompts, who is asked, log and order of steps.
"""

from __future__ import annotations

from typing import Any

import pytest

from deathnote.agents import RandomAgent, agent_rng, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Action, Match
from deathnote.games.enquete.cards import playable
from deathnote.games.enquete.flow import faction

from .helpers import st

PASSIVE = {"rebirth_choice": "keep", "overcast_choice": "silent", "matsuda_choice": "no"}


def idle_hand(m: Match, seat: int, window: dict[str, Any]) -> list[int] | None:
    """The seat's hand with every card swapped for one from the draw pile it cannot play
    now (the pile is hidden from everyone, so only the truth changes); None if impossible."""
    s = st(m)
    hand = s.seats[seat].hand
    spare = [n for n in s.deck if not playable(s, seat, n, window)]
    if len(spare) < len(hand):
        return None
    return spare[: len(hand)]


def idle_role(m: Match, seat: int, step: str) -> int | None:
    """An unrevealed inactive Role with which this seat could only give the passive answer."""
    s = st(m)
    for i, r in enumerate(s.inactive):
        if r.revealed or r.dead:
            continue
        if step == "matsuda_choice" and r.role != "matsuda":
            return i
        if step != "matsuda_choice" and faction(r.role) == "kira" and seat not in s.lying:
            return i
    return None


def twin_without_choice(m: Match, prev: Match, seat: int) -> Match | None:
    """A fork of ``prev`` (the match one action before ``m``) in which ``seat``, asked now
    in ``m`` with a real choice, will have nothing to decide; None if it cannot be built."""
    s = st(m)
    top = s.stack[-1]
    twin = prev.fork()
    t = st(twin)
    if top["k"] == "window":
        hand = idle_hand(m, seat, top)
        if hand is None or sorted(t.seats[seat].hand) != sorted(s.seats[seat].hand):
            return None
        if not set(hand) <= set(t.deck):
            return None
        for old, new in zip(list(t.seats[seat].hand), hand, strict=True):
            t.seats[seat].hand.remove(old)
            t.deck[t.deck.index(new)] = old
            t.seats[seat].hand.append(new)
    elif top["fn"] in PASSIVE:
        i = idle_role(m, seat, top["fn"])
        if i is None:
            return None
        t.seats[seat].role, t.inactive[i].role = t.inactive[i].role, t.seats[seat].role
    else:
        return None
    twin._legal.clear()
    twin._pending = None
    return twin


def others(m: Match, seat: int) -> list[Any]:
    return [v for v in range(m.players) if v != seat] + [SPECTATOR]


@pytest.mark.parametrize("players", [4, 6, 8])
def test_a_real_choice_looks_like_no_choice_to_everyone_else(players: int) -> None:
    compared = 0
    for seed in range(6):
        m = Match.create("enquete", players, seed)
        agents = [RandomAgent(s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        prev: tuple[Match, int, Action] | None = None
        while m.outcome() is None:
            pending = m.pending()
            assert not any(d.covert for d in pending.values())
            seat = min(pending)
            legal = m.legal(seat)
            twin = None
            if len(legal) > 1 and prev is not None and prev[1] != seat:
                twin = twin_without_choice(m, prev[0], seat)
            if twin is not None:
                assert prev is not None
                twin.submit(prev[1], Action.from_json(prev[2].to_json()))
                # Asked alike, with the same prompt, phase and log: only the answers differ.
                for viewer in others(m, seat):
                    assert twin.view(viewer) == m.view(viewer), f"seat {viewer} sees a choice"
                (passive,) = twin.legal(seat)
                probe = m.fork()
                probe.submit(seat, Action.from_json(passive.to_json()))
                twin.submit(seat, passive)
                for viewer in others(m, seat):
                    assert twin.view(viewer) == probe.view(viewer), f"seat {viewer} sees it after"
                compared += 1
            action = agents[seat].choose(observe(m, seat, rngs[seat]))
            prev = (m.fork(), seat, action)
            m.submit(seat, action)
        assert m.view(OMNISCIENT)["outcome"] is not None
    assert compared >= 20
