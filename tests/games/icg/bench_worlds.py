"""Fork and sample times on mid-game ICG states (a benchmark that prints figures).

Run: ``.venv/bin/python tests/games/icg/bench_worlds.py``. For each rules set: 20 heuristic
6-player games with the Shinigami Eyes; the middle position of each is forked 20 times and
sampled once for each seat.
"""

from __future__ import annotations

import random
import statistics
import time

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine import Match


def main() -> None:
    """Print the medians."""
    for which in ("light", "kira"):
        forks: list[float] = []
        samples: list[float] = []
        for seed in range(20):
            m = Match.create("icg", 6, seed, {"rules": which, "shinigami_eyes": True})
            bots = [make_agent("icg", "heuristic", s) for s in range(6)]
            rngs = [agent_rng(seed, s) for s in range(6)]
            states = []
            while m.outcome() is None:
                states.append(m.fork())
                s = min(m.pending())
                m.submit(s, bots[s].choose(observe(m, s, rngs[s])))
            mid = states[len(states) // 2]
            for _ in range(20):
                start = time.perf_counter()
                mid.fork()
                forks.append(time.perf_counter() - start)
            rng = random.Random(seed)
            for v in range(6):
                start = time.perf_counter()
                mid.sample_world(v, rng)
                samples.append(time.perf_counter() - start)
        samples.sort()
        print(
            f"{which}: fork median {statistics.median(forks) * 1e6:.1f} us; sample median "
            f"{statistics.median(samples) * 1e6:.0f} us, "
            f"90th percentile {samples[int(0.9 * len(samples))] * 1e6:.0f} us"
        )


if __name__ == "__main__":
    main()
