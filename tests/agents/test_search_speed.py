"""The generic search's fast paths (issue 14) against the plain computations they replace."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from deathnote.agents.ismcts import EXPLORATION, Node
from deathnote.engine.actions import Action


def plain_select(
    stats: dict[Action, list[float]], legal: Sequence[Action], rng: random.Random, c: float
) -> tuple[Action, bool]:
    """``Node.select`` as first written: every action looked up in ``stats`` each time."""
    untried: list[Action] = []
    best: Action | None = None
    best_value = -math.inf
    for action in legal:
        entry = stats.get(action)
        if entry is None:
            untried.append(action)
            continue
        entry[2] += 1
        if not untried:
            value = entry[1] / entry[0] + c * math.sqrt(math.log(entry[2]) / entry[0])
            if value > best_value:
                best, best_value = action, value
    if untried:
        action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        stats[action] = [0.0, 0.0, 1.0]
        return action, True
    assert best is not None
    return best, False


def test_select_chooses_and_draws_as_plain_ucb() -> None:
    """``Node.select`` (its draw among the untried actions written out, as
    ``Random.randrange`` draws): over the first visits of hundreds of nodes, given random
    availability sets (the same few tuples again and again, and lists and tuples made
    afresh, some of equal actions that are other objects), it chooses, counts and draws
    exactly as plain UCB1 does, and its statistics stay equal."""
    rng = random.Random(5)
    shared = [Action.make("pick", criminal=i) for i in range(12)]
    again = [tuple(a for a in shared if a["criminal"] % 3 != r) for r in range(3)] + [tuple(shared)]
    fast_rng, plain_rng = random.Random(9), random.Random(9)
    for _node in range(300):
        fast, plain_stats = Node(), {}
        for _ in range(40):
            roll = rng.random()
            legal: Sequence[Action]
            if roll < 0.6:
                legal = again[rng.randrange(len(again))]
            else:
                count = 1 + rng.randrange(len(shared))
                picked = sorted(rng.sample(range(len(shared)), count))
                made = [
                    Action.make("pick", criminal=i) if rng.random() < 0.5 else shared[i]
                    for i in picked
                ]
                legal = tuple(made) if roll < 0.7 else made
            got = fast.select(legal, fast_rng, EXPLORATION)
            want = plain_select(plain_stats, legal, plain_rng, EXPLORATION)
            assert got == want
            reward = rng.random()
            for stats in (fast.stats, plain_stats):
                stats[got[0]][0] += 1
                stats[got[0]][1] += reward
            assert fast.stats == plain_stats
