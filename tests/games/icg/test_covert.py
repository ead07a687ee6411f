"""A covert decision changes nothing another viewer sees (issue 11 §5, ICG-VIEW-03).

For every covert pending decision in random games (the Arrest phase and both Death Note
steps, where every living seat is asked): the views of every other viewer (phase, prompts,
log, the waiting list, the order of steps) are the same as in the same match in which that
seat has nothing to decide, and the same whatever it answers, until the rules themselves
reveal the result (an arrest, the Death Note board once eyes open).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine import SPECTATOR, Match

from .helpers import poke, st

OPTIONS = [
    {"rules": "light", "shinigami_eyes": False},
    {"rules": "light", "shinigami_eyes": True},
    {"rules": "kira", "shinigami_eyes": False},
    {"rules": "kira", "shinigami_eyes": True},
]


def covert_positions(games: int) -> Iterator[Match]:
    """Forks of random-game positions where some seat has a covert decision."""
    for n in range(games):
        players = 4 + n % 5
        bots = "random" if n % 2 else "heuristic"
        m = Match.create("icg", players, 100 + n, OPTIONS[n % 4])
        agents = [make_agent("icg", bots, s) for s in range(players)]
        rngs = [agent_rng(n, s) for s in range(players)]
        while m.outcome() is None:
            pending = m.pending()
            if any(d.covert for d in pending.values()):
                yield m.fork()
            s = min(pending)
            m.submit(s, agents[s].choose(observe(m, s, rngs[s])))


def trivial(m: Match, seat: int, avoid: tuple[int, ...] = ()) -> Any:
    """The answer of a seat with nothing to decide ("No arrest", "Keep your eyes closed");
    Kira, who wrote an Identity, must place the other token: the first Placement not in
    ``avoid`` then."""
    legal = m.legal(seat)
    quiet = [a for a in legal if a.kind in ("pass", "wait")]
    return (quiet or [a for a in legal if a["placement"] not in avoid] or legal)[0]


def others(m: Match, *seats: int) -> list[int | str]:
    return [v for v in [*range(m.players), SPECTATOR] if v not in seats]


def test_every_covert_seat_gets_the_same_question() -> None:
    checked = 0
    for m in covert_positions(16):
        decisions = [d for d in m.pending().values() if d.covert]
        assert decisions and len(decisions) == len(m.pending())
        assert {(d.kind, d.prompt, tuple(sorted(d.data.items()))) for d in decisions} == {
            (decisions[0].kind, decisions[0].prompt, tuple(sorted(decisions[0].data.items())))
        }
        assert set(m.pending()) <= set(st(m).asked)
        for v in others(m):
            view = m.view(v)
            assert view["waiting"] == ([v] if v in m.pending() else [])
        checked += 1
    assert checked > 100


def test_covert_answers_change_nothing_others_see() -> None:
    checked = 0
    for m in covert_positions(8):
        for s in sorted(m.pending()):
            base = m.fork()
            base.submit(s, trivial(m, s))
            before = {v: m.view(v) for v in others(m, s)}
            resolves = len(m.pending()) == 1
            for action in m.legal(s):
                f = m.fork()
                f.submit(s, action)
                if f.outcome() is not None and action.kind == "arrest":
                    continue  # L revealed himself and arrested: the rules make it public
                if resolves and st(m).phase == "dn_placement":
                    continue  # eyes open on the Death Note board: public by the rules
                for v in others(m, s):
                    assert f.view(v) == base.view(v), (action, v)
                    if not resolves:
                        assert f.view(v) == before[v], (action, v)
                checked += 1
    assert checked > 300


def swap_to_nothing(m: Match, s: int) -> tuple[Match, int] | None:
    """A fork in which seat ``s`` holds the hidden Mission of another seat still to answer,
    so that it has nothing to decide; with the seat it swapped with."""
    mission = st(m).seats[s].mission
    for t in sorted(m.pending()):  # a seat that has not answered yet, as ``s``
        y = st(m).seats[t]
        if t == s or y.mission_revealed or y.mission in ("kira", "l"):
            continue
        c = m.fork()
        st(c).seats[s].mission, st(c).seats[t].mission = y.mission, mission
        poke(c)
        if len(c.legal(s)) == 1:
            return c, t
    return None


def test_holding_the_power_to_act_changes_nothing_others_see() -> None:
    """L in the Arrest phase, Kira in the Death Note phase, against the same match in which
    that seat holds a Team Member's or X-Kira's Mission: every other viewer sees the same,
    step by step, while everyone answers as a seat with nothing to decide would."""
    checked = 0
    for m in covert_positions(16):
        for s in sorted(m.pending()):
            if len(m.legal(s)) == 1:
                continue
            swapped = swap_to_nothing(m, s)
            if swapped is None:
                continue
            c, t = swapped
            assert c.pending()[s] == m.pending()[s]
            a = m.fork()
            phase = st(a).phase
            while True:
                if a.outcome() is not None:
                    break  # the end of the game turns every card over
                assert sorted(a.pending()) == sorted(c.pending())
                for v in others(a, s, t):
                    assert a.view(v) == c.view(v), (phase, v)
                if st(a).phase != phase or not a.pending():
                    break
                seat = min(a.pending())
                a.submit(seat, trivial(a, seat, (s, t)))
                c.submit(seat, trivial(c, seat, (s, t)))
                checked += 1
    assert checked > 100
