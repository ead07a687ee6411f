"""Fork and sample timings per game (a benchmark that prints figures, not a timed test).

::

    python -m deathnote.engine.bench                     # every game, every set-up
    python -m deathnote.engine.bench tcg --repeat 500    # one game, more repetitions

For each set-up of ``conformance.setups`` (fewest and most players, main options), a game
of the game's ``heuristic`` agents (``--agents random`` for random play) is played from each
seed and replayed to half its length (a mid-game state); on it, ``repeat``
times each, this measures ``Match.fork()`` (the engine's copy: the game's ``fork_state``
plus the record and the generator), the game's own ``fork_state``, and
``Match.sample_world`` for a seat (each in turn) and for the spectator. Each figure is the
median over every seed and repetition, in microseconds; ``actions`` is the mean number of
actions before the measured state. Issue 12's target: ``Match.fork()`` well under 1 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from deathnote.engine.actions import SPECTATOR
from deathnote.engine.conformance import Setup, play, setups
from deathnote.engine.match import Match
from deathnote.engine.registry import games


@dataclass(frozen=True)
class Figures:
    """Medians in microseconds for one set-up (``actions``: mean position of the state)."""

    label: str
    actions: float
    fork: float
    fork_state: float
    sample_seat: float
    sample_spectator: float


def _timings(call: Callable[[], Any], repeat: int) -> list[float]:
    out: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(repeat):
        start = clock()
        call()
        out.append((clock() - start) / 1000)
    return out


def mid_game(setup: Setup, seed: int, agent: str = "heuristic") -> Match:
    """A game of ``agent`` bots of ``setup`` from ``seed``, replayed to half its length."""
    match = setup.create(seed)
    whole = play(setup, seed, [agent] * match.players)
    half = len(whole.actions) // 2
    record = whole.record()
    record["actions"] = record["actions"][:half]
    return Match.replay(record)


def time_state(match: Match, seed: int, repeat: int) -> list[list[float]]:
    """Timings (us) on one state: ``Match.fork``, ``fork_state``, ``sample_world`` for each
    seat in turn, and for the spectator."""
    rng = random.Random(seed)
    seat = iter(range(10**9))

    def fork_state() -> Any:
        return match.game.fork_state(match.state)

    def sample_seat() -> Match:
        return match.sample_world(next(seat) % match.players, rng)

    def sample_spectator() -> Match:
        return match.sample_world(SPECTATOR, rng)

    return [
        _timings(call, repeat) for call in (match.fork, fork_state, sample_seat, sample_spectator)
    ]


def measure(
    setup: Setup, seeds: Sequence[int] = range(5), repeat: int = 200, agent: str = "heuristic"
) -> Figures:
    """The figures of one set-up."""
    timings: list[list[float]] = [[], [], [], []]
    positions: list[int] = []
    for seed in seeds:
        match = mid_game(setup, seed, agent)
        positions.append(len(match.actions))
        for into, got in zip(timings, time_state(match, seed, repeat), strict=True):
            into += got
    fork, state, seat, spectator = (statistics.median(t) for t in timings)
    return Figures(setup.label, statistics.fmean(positions), fork, state, seat, spectator)


def main(argv: Sequence[str] | None = None) -> int:
    """Print one line of figures per set-up."""
    parser = argparse.ArgumentParser(prog="python -m deathnote.engine.bench", description=__doc__)
    parser.add_argument("game", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--repeat", type=int, default=200, help="timings per state and figure")
    parser.add_argument("--seeds", type=int, default=5, help="mid-game states per set-up")
    parser.add_argument("--agents", default="heuristic", help="the bots that play the games")
    args = parser.parse_args(argv)
    ids = args.game or sorted(games())
    print(
        f"{'set-up':34} {'actions':>7} {'fork':>8} {'fork_state':>10} "
        f"{'sample seat':>11} {'sample spect':>12}   (median us)"
    )
    for game_id in ids:
        for setup in setups(game_id):
            f = measure(setup, range(args.seeds), args.repeat, args.agents)
            print(
                f"{f.label:34} {f.actions:7.0f} {f.fork:8.1f} {f.fork_state:10.1f} "
                f"{f.sample_seat:11.1f} {f.sample_spectator:12.1f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
