"""Benchmark: PettingZoo AEC steps per second on every game, next to PettingZoo's own
``leduc_holdem_v4`` measured the same way in the same run.

    python -m deathnote.interop.bench [--seconds S] [--rounds R] [--max-players] [--cpu]

Every env runs the loop a learner runs: ``agent_iter``, ``last()`` (the observation and
mask), a uniformly random legal action drawn from the mask, ``step``; a finished game is
reset with the next seed. A step is one ``step`` call (the final ``step(None)`` of each
agent included, as in any AEC loop). ``leduc_holdem_v4`` needs the ``rl-bench`` extra
(rlcard, pygame-ce); with pygame alone PettingZoo's ``tictactoe_v3`` is measured instead,
and the line says so; with neither, there is no reference line. ``--cpu`` times by this
process's CPU time (``time.process_time``) instead of the wall clock: on a machine other
work shares, the figures then no longer depend on how busy it is.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from deathnote.engine.registry import games


def steps_per_second(
    make: Callable[[], Any],
    seconds: float,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, int]:
    """Random masked AEC play for about ``seconds`` of ``clock``: (steps per second, games
    finished)."""
    env = make()
    # Python's generator draws the action: a uniformly random index into the mask's
    # non-zero numbers (numpy's Generator.choice costs about 10 us a call, more than a
    # step of most envs here, which would hide the envs' own speed).
    rng = random.Random(seed)
    steps = finished = 0
    env.reset(seed=seed)
    start = clock()
    deadline = start + seconds
    while True:
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            done = term or trunc
            env.step(None if done else rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
        finished += 1
        if clock() >= deadline:
            break
        env.reset(seed=seed + finished)
    return steps / (clock() - start), finished


def pettingzoo_reference() -> tuple[str, Callable[[], Any]] | None:
    """PettingZoo's leduc_holdem_v4 (needs rlcard and pygame), else its tictactoe_v3
    (needs pygame), else None: its classic envs are the ``rl-bench`` extra."""
    try:
        from pettingzoo.classic import leduc_holdem_v4

        return "leduc_holdem_v4 (PettingZoo)", leduc_holdem_v4.env
    except ImportError:
        pass
    try:
        from pettingzoo.classic import tictactoe_v3

        return "tictactoe_v3 (PettingZoo; leduc_holdem_v4 needs rlcard)", tictactoe_v3.env
    except ImportError:
        return None


def main(argv: list[str] | None = None) -> int:
    """Print steps/s of every game's AEC env and of PettingZoo's reference env."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per env and round")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="rounds: steps/s is the best, x ref the median of the rounds' ratios",
    )
    parser.add_argument(
        "--max-players", action="store_true", help="also each game's largest player count"
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time by this process's CPU time, not the wall clock (for a shared machine)",
    )
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter

    from deathnote.interop.pettingzoo import env

    found = pettingzoo_reference()
    envs: list[tuple[str, Callable[[], Any]]] = [found] if found else []
    if found is None:
        print("no PettingZoo classic env installed (pip install -e .[rl-bench]): no reference")
    for game_id, game in games().items():
        top = {game.max_players} if args.max_players else set()
        for players in sorted({game.min_players} | top):

            def make(game_id: str = game_id, players: int = players) -> Any:
                return env(game_id, players)

            envs.append((f"{game_id} ({players} players)", make))
    # Rounds go through every env in turn, so a busy machine slows all of them alike. Each
    # env's best round gives its steps/s; its ratio to the reference is the median over the
    # rounds of the two measured in the same round (the reference's own rate swings from
    # round to round on a shared machine, and a ratio of two best rounds carries that).
    rates: dict[str, list[tuple[float, int]]] = {label: [] for label, _ in envs}
    for round_index in range(args.rounds):
        for label, make_env in envs:
            rates[label].append(
                steps_per_second(make_env, args.seconds, seed=round_index, clock=clock)
            )
    print(f"{'env':<58} {'steps/s':>9} {'games':>6} {'x ref':>6}")
    for label, _ in envs:
        rate, done = max(rates[label])
        if found:
            ratios = [
                mine / ref
                for (mine, _), (ref, _) in zip(rates[label], rates[found[0]], strict=True)
            ]
            ratio = f"{statistics.median(ratios):>6.2f}"
        else:
            ratio = f"{'-':>6}"
        print(f"{label:<58} {rate:>9.0f} {done:>6} {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
