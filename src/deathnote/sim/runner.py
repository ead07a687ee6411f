"""Headless games in parallel, streamed into one summary (memory stays flat)."""

from __future__ import annotations

import multiprocessing
import random
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.match import Match
from deathnote.engine.registry import get_game
from deathnote.engine.rng import RNG_VERSION

MAX_ACTIONS = 100_000


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a batch started with ``seed``."""
    _SEEDER.seed(f"deathnote:{seed}:{index}")  # as random.Random(text), without a new one
    return _SEEDER.getrandbits(62)


_SEEDER = random.Random()


def seat_agents(spec: Sequence[str], players: int) -> list[str]:
    """One agent name per seat from one name for all or one per seat."""
    if len(spec) == 1:
        return list(spec) * players
    if len(spec) != players:
        raise DeathNoteError(
            f"--agents needs one name for every seat or exactly {players} names, got {len(spec)}"
        )
    return list(spec)


@dataclass(frozen=True)
class Batch:
    """What to simulate."""

    game: str
    players: int
    agents: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    content: str | None = None
    save_dir: str | None = None


def play_one(batch: Batch, seed: int, index: int = 0) -> dict[str, Any]:
    """Play one game headless; returns a small result (never the whole game)."""
    try:
        match = Match.create(batch.game, batch.players, seed, batch.options, batch.content)
        agents = [make_agent(batch.game, name, s) for s, name in enumerate(batch.agents)]
        # Each agent's generator is made when it first decides (seeding costs as much as
        # a few actions, and many short games never ask some seats); same draws as before.
        rngs: list[random.Random | None] = [None] * batch.players
        pending, submit = match.pending, match.submit
        outcome = match.outcome()
        steps = 0
        while outcome is None:
            if steps >= MAX_ACTIONS:
                raise DeathNoteError(f"no end after {MAX_ACTIONS} actions")
            seat = min(pending())
            rng = rngs[seat]
            if rng is None:
                rng = rngs[seat] = agent_rng(seed, seat)
            submit(seat, agents[seat].choose(observe(match, seat, rng)))
            steps += 1
            outcome = match.outcome()
        if batch.save_dir:
            path = Path(batch.save_dir) / f"{batch.game}-{index:06d}.json"
            path.write_bytes(orjson.dumps(match.record(), option=orjson.OPT_INDENT_2))
        return {
            "winners": list(outcome.winners),
            "condition": outcome.condition,
            "scores": dict(outcome.scores),
            "actions": len(match.actions),
            "turns": match.game.turn_count(match.state),
        }
    except Exception as exc:  # a simulation reports broken games instead of stopping
        return {
            "error": f"{type(exc).__name__}: {exc}",
            "seed": seed,
            "trace": traceback.format_exc(limit=4),
        }


def _work(args: tuple[Batch, int, int]) -> dict[str, Any]:
    batch, seed, index = args
    return play_one(batch, seed, index)


class Summary:
    """Streaming aggregate of game results."""

    def __init__(self, game: str, games: int, seed: int, agents: Sequence[str]) -> None:
        self.game, self.games, self.seed, self.agents = game, games, seed, list(agents)
        self.mode = get_game(game).wins_mode
        self.wins: Counter[str] = Counter()
        self.score_sum: dict[str, float] = defaultdict(float)
        self.score_n: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.errors = 0
        self.error_samples: list[dict[str, Any]] = []
        self.done = 0
        self.actions = 0
        self.turns = 0

    def add(self, result: Mapping[str, Any]) -> None:
        """Fold one game's result in."""
        self.done += 1
        if "error" in result:
            self.errors += 1
            if len(self.error_samples) < 5:
                self.error_samples.append({"seed": result["seed"], "error": result["error"]})
            return
        self.actions += result["actions"]
        self.turns += result["turns"]
        self.outcomes[result["condition"]] += 1
        for w in result["winners"]:
            self.wins[w] += 1
        for key, value in result["scores"].items():
            self.score_sum[key] += value
            self.score_n[key] += 1

    def to_json(self, seconds: float) -> dict[str, Any]:
        """The JSON summary printed by ``deathnote simulate --json``."""
        ok = max(1, self.done - self.errors)
        means = {k: round(self.score_sum[k] / self.score_n[k], 4) for k in sorted(self.score_sum)}
        wins: dict[str, float] = means if self.mode == "mean" else dict(sorted(self.wins.items()))
        return {
            "game": self.game,
            # Figures are comparable only under the same rules and the same draws.
            "rules_version": get_game(self.game).rules_version,
            "rng_version": RNG_VERSION,
            "games": self.done,
            "seed": self.seed,
            "agents": self.agents,
            "wins": wins,
            "win_rates": {k: round(v / ok, 4) for k, v in sorted(self.wins.items())},
            "outcomes": dict(sorted(self.outcomes.items())),
            "mean_scores": means,
            "errors": self.errors,
            "error_samples": self.error_samples,
            "mean_actions": round(self.actions / ok, 2),
            "mean_turns": round(self.turns / ok, 2),
            "seconds": round(seconds, 3),
        }


def _tasks(batch: Batch, games: int, seed: int) -> Iterator[tuple[Batch, int, int]]:
    for i in range(games):
        yield batch, game_seed(seed, i), i


def simulate(
    batch: Batch,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Run ``games`` games (in ``jobs`` processes) and return the JSON summary."""
    if batch.save_dir:
        Path(batch.save_dir).mkdir(parents=True, exist_ok=True)
    summary = Summary(batch.game, games, seed, batch.agents)
    start = time.perf_counter()
    if jobs <= 1:
        results: Iterator[dict[str, Any]] = (_work(t) for t in _tasks(batch, games, seed))
        for result in results:
            summary.add(result)
            if progress:
                progress(1)
    else:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(jobs) as pool:
            for result in pool.imap_unordered(_work, _tasks(batch, games, seed), chunksize=8):
                summary.add(result)
                if progress:
                    progress(1)
    return summary.to_json(time.perf_counter() - start)


def bench(game: str, players: int, options: Mapping[str, Any], seconds: float) -> dict[str, Any]:
    """Random self-play on one core for about ``seconds``: actions/s and games/s."""
    batch = Batch(game, players, tuple(["random"] * players), options)
    start = time.perf_counter()
    games = actions = 0
    while time.perf_counter() - start < seconds:
        result = play_one(batch, game_seed(0, games), games)
        if "error" in result:
            raise DeathNoteError(result["error"])
        games += 1
        actions += result["actions"]
    elapsed = time.perf_counter() - start
    return {
        "game": game,
        "players": players,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_second": round(actions / elapsed),
        "games_per_second": round(games / elapsed, 2),
    }


def bench_search(
    game: str, players: int, options: Mapping[str, Any], seconds: float, agent: str
) -> dict[str, Any]:
    """Search speed on one core: a search agent (e.g. ``ismcts``) thinks at every real
    choice of heuristic games for about ``seconds``; simulations per second."""
    from deathnote.agents import IsmctsAgent

    probe = make_agent(game, agent, 0)
    if not isinstance(probe, IsmctsAgent):
        raise DeathNoteError(f"--agent {agent!r} is not a search agent (try ismcts)")
    start = time.perf_counter()
    sims = moves = games = 0
    searching = 0.0
    while time.perf_counter() - start < seconds:
        seed = game_seed(1, games)
        match = Match.create(game, players, seed, options)
        bots = [make_agent(game, "heuristic", s) for s in range(players)]
        searchers = [make_agent(game, agent, s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        while match.outcome() is None and time.perf_counter() - start < seconds:
            seat = min(match.pending())
            obs = observe(match, seat, rngs[seat])
            if len(obs.legal) > 1:
                searcher = searchers[seat]
                assert isinstance(searcher, IsmctsAgent)
                searcher.choose(observe(match, seat, agent_rng(seed + moves, seat)))
                sims += searcher.last_sims
                searching += searcher.last_seconds
                moves += 1
            match.submit(seat, bots[seat].choose(obs))
        games += 1
    return {
        "game": game,
        "players": players,
        "agent": agent,
        "moves_searched": moves,
        "simulations": sims,
        "seconds_searching": round(searching, 3),
        "simulations_per_second": round(sims / searching) if searching else 0,
        "simulations_per_move": round(sims / moves, 1) if moves else 0,
    }
