"""Median fork and sample times on mid-game states (a benchmark, not a test).

.venv/bin/python -m tests.games.enquete.bench_sampling
"""

from __future__ import annotations

import random
import statistics
import time

from deathnote.agents import RandomAgent, agent_rng, observe
from deathnote.engine import Match


def mid_game(players: int, seed: int) -> Match:
    """A random game played to the start of round 3."""
    m = Match.create("enquete", players, seed)
    agents = [RandomAgent(s) for s in range(players)]
    rngs = [agent_rng(seed, s) for s in range(players)]
    while m.outcome() is None and m.state.round < 3:
        s = min(m.pending())
        m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
    return m


def main() -> None:
    """Print the medians per player count."""
    for players in (4, 6, 8):
        forks: list[float] = []
        samples: list[float] = []
        rng = random.Random(1)
        for seed in range(20):
            m = mid_game(players, seed)
            if m.outcome() is not None:
                continue
            for _ in range(50):
                t = time.perf_counter()
                m.game.fork_state(m.state)
                forks.append(time.perf_counter() - t)
                viewer = rng.randrange(players)
                t = time.perf_counter()
                m.sample_world(viewer, rng)
                samples.append(time.perf_counter() - t)
        print(
            f"{players} players: fork_state median {statistics.median(forks) * 1e6:.0f} us, "
            f"sample_world median {statistics.median(samples) * 1e6:.0f} us "
            f"({len(forks)} samples)"
        )


if __name__ == "__main__":
    main()
