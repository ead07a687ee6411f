"""Benchmark of views as a game grows: one action plus one view early and late in a game,
and the bytes a server sends each seat over a whole game (``deathnote bench GAME --views``).

Only the public Match API is used (``fork``, ``submit``, ``view``), so the same code
measures an older checkout too (without ``since`` it measures whole views only).
"""

from __future__ import annotations

import inspect
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from deathnote.agents import RandomAgent
from deathnote.engine.match import Match
from deathnote.engine.rng import agent_rng

MIB = 1024 * 1024


def _random_game(
    game: str, players: int, options: Mapping[str, Any], min_actions: int
) -> tuple[int, list[tuple[int, Any]]]:
    """The first seed whose random game lasts more than ``min_actions`` actions, and the
    game's actions (the loop of ``deathnote.engine.play``, written out so that older
    checkouts run it)."""
    for seed in range(1, 10_000):
        match = Match.create(game, players, seed, dict(options))
        agents = [RandomAgent(s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        while match.outcome() is None:
            seat = min(match.pending())
            agent, legal, rng = agents[seat], match.legal(seat), rngs[seat]
            match.submit(seat, agent.choose(_Obs(seat, legal, rng)))  # type: ignore[arg-type]
        if len(match.actions) > min_actions:
            return seed, list(match.actions)
    raise RuntimeError(f"no random {game} game of more than {min_actions} actions")


class _Obs:
    """A random agent's observation: it never reads the view."""

    def __init__(self, seat: int, legal: Sequence[Any], rng: Any) -> None:
        self.seat, self.legal, self.rng = seat, legal, rng

    @property
    def view(self) -> dict[str, Any]:  # pragma: no cover - random agents never ask
        raise AssertionError("a random agent read its view")


def _at(game: str, players: int, options: Mapping[str, Any], seed: int, actions: Any) -> Match:
    match = Match.create(game, players, seed, dict(options))
    for seat, action in actions:
        match.submit(seat, action)
    for seat in range(players):
        match.view(seat)  # as in play: every seat has had its view (the log is indexed)
    return match


def bench_views(
    game: str,
    players: int,
    options: Mapping[str, Any],
    at: Sequence[int] = (10, 200),
    repeat: int = 300,
) -> dict[str, Any]:
    """Median microseconds of one action plus the next asked seat's view, at each step of
    ``at`` (whole views, and deltas ``since`` the step before where supported); and the
    mean bytes of views sent to one seat over the whole game (one view per seat after
    every action, as the server sends)."""
    incremental = "since" in inspect.signature(Match.view).parameters
    seed, actions = _random_game(game, players, options, max(at) + 1)
    out: dict[str, Any] = {"game": game, "players": players, "seed": seed}
    out["actions_in_game"] = len(actions)
    modes = ["whole", "delta"] if incremental else ["whole"]
    for step in at:
        base = _at(game, players, options, seed, actions[:step])
        seat, action = actions[step]
        for mode in modes:
            samples = []
            for _ in range(repeat):
                match = base.fork()
                start = time.perf_counter()
                match.submit(seat, action)
                viewer = min(match.pending()) if match.pending() else seat
                if mode == "whole":
                    match.view(viewer)
                else:
                    match.view(viewer, since=step)
                samples.append(time.perf_counter() - start)
            out[f"step_view_us_{mode}_at_{step}"] = round(statistics.median(samples) * 1e6, 1)
    sent = {mode: [0] * players for mode in modes}
    match = Match.create(game, players, seed, dict(options))
    for seat in range(players):
        sent["whole"][seat] += len(orjson.dumps(match.view(seat)))
        if incremental:
            sent["delta"][seat] += len(orjson.dumps(match.view(seat)))
    for step, (seat, action) in enumerate(actions):
        match.submit(seat, action)
        for viewer in range(players):
            sent["whole"][viewer] += len(orjson.dumps(match.view(viewer)))
            if incremental:
                delta = match.view(viewer, since=step)
                sent["delta"][viewer] += len(orjson.dumps(delta))
    for mode in modes:
        out[f"mib_per_seat_{mode}"] = round(statistics.mean(sent[mode]) / MIB, 3)
    return out


if __name__ == "__main__":  # run against any checkout: python viewbench.py tcg 2
    import sys

    print(orjson.dumps(bench_views(sys.argv[1], int(sys.argv[2]), {})).decode())
