"""Headless games in parallel, streamed into one summary (memory stays flat)."""

from __future__ import annotations

import _random
import multiprocessing
import random
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from hashlib import sha512
from pathlib import Path
from typing import Any

import orjson

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.match import Match
from deathnote.engine.play import MAX_ACTIONS, Table, play_random
from deathnote.engine.registry import get_game
from deathnote.engine.rng import RNG_VERSION, agent_seed, reseed


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a batch started with ``seed``: the first 62 bits of
    ``random.Random(f"deathnote:{seed}:{index}")``."""
    # ``Random.seed`` of a text, written out (CPython's version 2 seeding: the text's
    # bytes followed by their SHA-512, read as one big-endian integer) so that the C
    # generator is seeded directly, without a new generator or the Python-level checks.
    text = f"deathnote:{seed}:{index}".encode()
    _seed_c(_SEEDER, int.from_bytes(text + sha512(text).digest()))
    return _SEEDER.getrandbits(62)


_SEEDER = random.Random()
_seed_c = _random.Random.seed


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


_TEMPLATES: dict[tuple[str, int, bytes, str | None], Match] = {}


#: The latest batch and its template (the common case: one batch, game after game).
_LAST: list[tuple[Batch, Match]] = []


def new_match(batch: Batch, seed: int, rng: random.Random | None = None) -> Match:
    """A fresh match of the batch: options and content are checked and loaded once per
    process (``Match.with_seed``), not once per game. ``rng``: a spare generator for it
    (see ``Match.with_seed``)."""
    if _LAST and _LAST[0][0] is batch:
        return _LAST[0][1].with_seed(seed, rng)
    key = (
        batch.game,
        batch.players,
        orjson.dumps(batch.options, option=orjson.OPT_SORT_KEYS),
        batch.content,
    )
    template = _TEMPLATES.get(key)
    if template is None:
        template = Match.create(batch.game, batch.players, seed, batch.options, batch.content)
        if len(_TEMPLATES) > 16:
            _TEMPLATES.clear()
        _TEMPLATES[key] = template
    _LAST[:] = [(batch, template)]
    return template.with_seed(seed, rng)


#: The generators of the last game of random agents played here, seeded anew for the next
#: game (``engine.rng.reseed``: the same draws as new ones): the match's, and each seat's.
_SPARE: list[random.Random] = []
_SPARE_SEATS: dict[int, random.Random] = {}


def _seat_rng(seed: int, seat: int) -> random.Random:
    """``agent_rng(seed, seat)``, made of the seat's spare generator."""
    rng = _SPARE_SEATS.get(seat)
    if rng is None:
        rng = _SPARE_SEATS[seat] = random.Random(0)
    return reseed(rng, agent_seed(seed, seat))


def play_one(batch: Batch, seed: int, index: int = 0) -> dict[str, Any]:
    """Play one game headless; returns a small result (never the whole game)."""
    try:
        if batch.agents.count("random") == len(batch.agents):
            # A table of random agents, played without making them (the same game), with
            # the generators of the game before (nothing keeps them once it is over).
            match = new_match(batch, seed, _SPARE.pop() if _SPARE else None)
            play_random(match, range(batch.players), seed, MAX_ACTIONS, make_rng=_seat_rng)
            outcome = match.outcome()
            spare = match.rng
        else:
            match = new_match(batch, seed)
            spare = None
            agents = [make_agent(batch.game, name, s) for s, name in enumerate(batch.agents)]
            outcome = Table(match, agents, seed).play(max_actions=MAX_ACTIONS)
        if outcome is None:  # pragma: no cover - every seat has an agent
            raise DeathNoteError("the game stopped with no seat to ask")
        if batch.save_dir:
            path = Path(batch.save_dir) / f"{batch.game}-{index:06d}.json"
            path.write_bytes(orjson.dumps(match.record(), option=orjson.OPT_INDENT_2))
        result = {
            "winners": list(outcome.winners),
            "condition": outcome.condition,
            "scores": dict(outcome.scores),
            "actions": len(match.actions),
            "turns": match.game.turn_count(match.state),
        }
        if spare is not None and not _SPARE:
            _SPARE.append(spare)
        return result
    except Exception as exc:  # a simulation reports broken games instead of stopping
        return {
            "error": f"{type(exc).__name__}: {exc}",
            "seed": seed,
            "trace": traceback.format_exc(limit=4),
        }


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

    def merge(self, other: Summary) -> None:
        """Fold in the summary of the games that follow this one's."""
        self.done += other.done
        self.errors += other.errors
        room = 5 - len(self.error_samples)
        self.error_samples.extend(other.error_samples[: max(0, room)])
        self.actions += other.actions
        self.turns += other.turns
        self.outcomes.update(other.outcomes)
        self.wins.update(other.wins)
        for key, value in other.score_sum.items():
            self.score_sum[key] += value
        self.score_n.update(other.score_n)

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


#: A batch is cut into this many chunks of consecutive games (fewer when it is small):
#: enough for the workers to share the load, few enough that messages cost nothing.
CHUNKS = 64


def chunks(games: int) -> list[range]:
    """The chunks of consecutive game numbers a batch is played in. They depend only on
    the number of games, never on ``jobs``, so every ``jobs`` gives the same summary."""
    size = max(1, -(-games // CHUNKS))
    return [range(start, min(games, start + size)) for start in range(0, games, size)]


def play_chunk(
    batch: Batch, seed: int, games: range, progress: Callable[[int], None] | None = None
) -> Summary:
    """Play the games numbered ``games`` of a batch and fold them into one summary."""
    summary = Summary(batch.game, len(games), seed, batch.agents)
    for index in games:
        summary.add(play_one(batch, game_seed(seed, index), index))
        if progress:
            progress(1)
    return summary


def _chunk_work(args: tuple[Batch, int, range]) -> Summary:
    batch, seed, games = args
    return play_chunk(batch, seed, games)


def simulate(
    batch: Batch,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    cluster: str | None = None,
) -> dict[str, Any]:
    """Run ``games`` games (in ``jobs`` processes, or on the Dask cluster whose scheduler
    is at ``cluster``) and return the JSON summary.

    Games are played in chunks of consecutive numbers (``chunks``), each folded into a
    summary where it is played; the chunks' summaries are merged in order. The result is
    the same for every ``jobs`` and on a cluster.
    """
    if batch.save_dir:
        Path(batch.save_dir).mkdir(parents=True, exist_ok=True)
    summary = Summary(batch.game, games, seed, batch.agents)
    start = time.perf_counter()
    parts = chunks(games)
    tasks = [(batch, seed, part) for part in parts]
    if cluster is not None:
        for part, done in zip(parts, on_cluster(cluster, tasks), strict=True):
            summary.merge(done)
            if progress:
                progress(len(part))
    elif jobs <= 1 or len(parts) <= 1:
        for part in parts:
            summary.merge(play_chunk(batch, seed, part, progress))
    else:
        ctx = pool_context()
        with ctx.Pool(min(jobs, len(parts))) as pool:
            for part, done in zip(parts, pool.imap(_chunk_work, tasks), strict=True):
                summary.merge(done)
                if progress:
                    progress(len(part))
    return summary.to_json(time.perf_counter() - start)


def pool_context() -> Any:
    """The way worker processes start: forked where the platform can (Linux), so they begin
    with the parent's imports instead of importing everything again, which was most of the
    gap between --jobs 2 and twice --jobs 1 (the workers touch no thread's lock of the
    parent's: they play games and return summaries); spawned elsewhere."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


#: Seconds to wait for a Dask scheduler to answer before giving up with a clear error.
CLUSTER_CONNECT_SECONDS = 10.0


def on_cluster(address: str, tasks: Sequence[tuple[Batch, int, range]]) -> Iterator[Summary]:
    """Play the chunks on an existing Dask cluster; yields their summaries in order.

    Every worker needs deathnote installed (the same version). A ``content`` path and a
    ``save_dir`` are read and written on the workers' own file systems.
    """
    try:
        from distributed import Client
    except ImportError:
        raise DeathNoteError(
            "--cluster needs Dask distributed: pip install 'deathnote[cluster]'"
        ) from None
    try:
        client = Client(address, timeout=CLUSTER_CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise DeathNoteError(
            f"cannot reach the Dask scheduler at {address} ({type(exc).__name__})"
        ) from None
    with client:
        # pure=False: two equal chunks of two batches are still two tasks.
        futures = client.map(_chunk_work, tasks, pure=False)
        for future in futures:
            yield future.result()
            future.release()


def bench(game: str, players: int, options: Mapping[str, Any], seconds: float) -> dict[str, Any]:
    """Random self-play on one core for about ``seconds``: actions/s and games/s (of the
    clock), and actions per second of this process's CPU time (steady on a busy machine).

    One game is played before the clock starts: loading the game's modules and content
    (once per process, about a second with every game's imports) is not self-play, and
    in a short run it weighed more than the games."""
    batch = Batch(game, players, tuple(["random"] * players), options)
    warm = play_one(batch, game_seed(0, 0), 0)
    if "error" in warm:
        raise DeathNoteError(warm["error"])
    start = time.perf_counter()
    cpu_start = time.process_time()
    games = actions = 0
    while time.perf_counter() - start < seconds:
        result = play_one(batch, game_seed(0, games), games)
        if "error" in result:
            raise DeathNoteError(result["error"])
        games += 1
        actions += result["actions"]
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "game": game,
        "players": players,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_second": round(actions / elapsed),
        "games_per_second": round(games / elapsed, 2),
        # of this process's CPU time: the figure of one core, whatever else runs
        "cpu_seconds": round(cpu, 3),
        "actions_per_cpu_second": round(actions / cpu) if cpu > 0 else None,
    }


def bench_search(
    game: str, players: int, options: Mapping[str, Any], seconds: float, agent: str
) -> dict[str, Any]:
    """Search speed on one core: a search agent (e.g. ``ismcts``) thinks at every real
    choice of heuristic games for about ``seconds``; simulations per second (of the
    clock, and of this process's CPU time)."""
    from deathnote.agents import IsmctsAgent

    probe = make_agent(game, agent, 0)
    if not isinstance(probe, IsmctsAgent):
        raise DeathNoteError(f"--agent {agent!r} is not a search agent (try ismcts)")
    start = time.perf_counter()
    sims = moves = games = 0
    searching = cpu = 0.0
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
                cpu_start = time.process_time()
                searcher.choose(observe(match, seat, agent_rng(seed + moves, seat)))
                cpu += time.process_time() - cpu_start
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
        # The same per second of this process's CPU time: steadier on a shared machine.
        "simulations_per_cpu_second": round(sims / cpu) if cpu else 0,
        "simulations_per_move": round(sims / moves, 1) if moves else 0,
    }
