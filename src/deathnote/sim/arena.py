"""The arena: agents against each other in every seat assignment, with confidence intervals.

Seat assignments: with one agent name per seat, every distinct way to seat them; with two
names for more seats, the first agent in each seat in turn and the second in all the
others (how much one seat gains by the first agent). Each deal (one seed) is played once
with every assignment, so sides are swapped on the same cards. Results stream into running
totals (memory stays flat in the number of games); the same seed gives the same figures
(all but the timings), whatever the number of worker processes.

Figures, per agent and per agent and side (the seat's name): the win rate with its 95%
Wilson interval (Le Jeu d'Enquête: the mean Apples with a normal 95% interval); in
two-player games the Elo difference of the first agent over the second from its score (a
win 1, a loss 0, anything else 1/2) with the interval mapped from the score's Wilson
interval; the mean seconds per move. Per team too, where a game deals teams (``seat_teams``:
the ICG's Missions, Werewolf's Roles, Enquête's factions): each agent's rate in the games
it was dealt into each team.

With ``baseline``, every game is played a second time on the same deal with the same
seating, the baseline agent in the first agent's seats, and the first agent's gain per team
is its result minus the baseline's in that seat (a win 1, a loss 0; Apples in Enquête),
averaged over the paired games with a normal 95% interval: "does replacing a heuristic seat
by this agent raise that seat's results", per team it was dealt into. Next to it, per team,
the two rates it compares: the agent's (``agent``) and the baseline's in the same seats of
the same deals (``baseline``), each with its 95% interval as above.

With ``team``, only the games in which the first agent is dealt into that team are played
(each deal with every assignment that seats the first agent in one of its seats; teams as
``seat_teams`` names them once the cards are dealt, or the seat names): the per-team figures
of one team at the cost of its games only, where every deal otherwise spends most of its
games on the other teams.
"""

from __future__ import annotations

import random
import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice, permutations
from pathlib import Path
from typing import Any

from deathnote.agents import agent_rng, check_agent, make_agent, observe
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.match import Match
from deathnote.engine.registry import get_game
from deathnote.sim.runner import MAX_ACTIONS, game_seed, pool_context
from deathnote.sim.stats import elo, mean_interval, wilson

#: games handed to the worker processes at a time (bounds the queued tasks)
WINDOW = 256


@dataclass(frozen=True)
class ArenaSpec:
    """What the arena plays."""

    game: str
    players: int
    agents: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    content: str | None = None
    #: replayed in the first agent's seats on every deal, for its gain per team
    baseline: str | None = None


def labels(agents: Sequence[str]) -> list[str]:
    """A distinct label per listed agent (a name listed twice gets #1, #2)."""
    return [
        f"{a}#{agents[:i].count(a) + 1}" if agents.count(a) > 1 else a for i, a in enumerate(agents)
    ]


def assignments(agents: Sequence[str], players: int) -> list[tuple[int, ...]]:
    """For each seat assignment, the index of the listed agent in each seat."""
    if len(agents) == players:
        seen: dict[tuple[int, ...], None] = {}
        for order in permutations(range(players)):
            seen.setdefault(order)
        return list(seen)
    if len(agents) == 2 and players > 2:
        return [tuple(0 if s == i else 1 for s in range(players)) for i in range(players)]
    raise DeathNoteError(
        f"--agents needs {players} names (one per seat) or two (the first in each seat in "
        f"turn, the second in the others), got {len(agents)}"
    )


def play_game(spec: ArenaSpec, seats: tuple[int, ...], seed: int) -> dict[str, Any]:
    """One arena game: who sat where, who won, the seat scores, each seat's team and the
    time per seat; with a baseline, the same deal replayed with the baseline agent in the
    first agent's seats (``base_won``, ``base_scores``)."""
    try:
        result = _one_game(spec, seats, seed, list(spec.agents))
        if spec.baseline is not None:
            names = [spec.baseline, *spec.agents[1:]]
            base = _one_game(spec, seats, seed, names)
            result["base_won"], result["base_scores"] = base["won"], base["scores"]
        return result
    except Exception as exc:  # an arena reports broken games instead of stopping
        return {
            "error": f"{type(exc).__name__}: {exc}",
            "seed": seed,
            "trace": traceback.format_exc(limit=4),
        }


def _one_game(
    spec: ArenaSpec, seats: tuple[int, ...], seed: int, names: Sequence[str]
) -> dict[str, Any]:
    match = Match.create(spec.game, spec.players, seed, spec.options, spec.content)
    bots = [make_agent(spec.game, names[i], s) for s, i in enumerate(seats)]
    rngs: list[random.Random | None] = [None] * spec.players
    spent = [0.0] * spec.players
    moves = [0] * spec.players
    clock = time.perf_counter
    while match.outcome() is None:
        if len(match.actions) >= MAX_ACTIONS:
            raise DeathNoteError(f"no end after {MAX_ACTIONS} actions")
        seat = min(match.pending())
        rng = rngs[seat]
        if rng is None:
            rng = rngs[seat] = agent_rng(seed, seat)
        start = clock()
        action = bots[seat].choose(observe(match, seat, rng))
        spent[seat] += clock() - start
        moves[seat] += 1
        match.submit(seat, action)
    outcome = match.outcome()
    assert outcome is not None
    return {
        "seats": list(seats),
        "won": [s in outcome.winning_seats for s in range(spec.players)],
        "scores": match.game.seat_scores(match.state),
        "teams": match.game.seat_teams(match.state),
        "seconds": spent,
        "moves": moves,
    }


def _work(task: tuple[ArenaSpec, tuple[int, ...], int]) -> dict[str, Any]:
    return play_game(*task)


class Tally:
    """Running totals of a row (an agent, or an agent in one seat)."""

    __slots__ = ("n", "squares", "total", "wins")

    def __init__(self) -> None:
        self.n = 0
        self.wins = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, won: bool, score: float | None) -> None:
        """Fold one seat-game in."""
        self.n += 1
        self.wins += won
        if score is not None:
            self.total += score
            self.squares += score * score

    def to_json(self, mean_mode: bool) -> dict[str, Any]:
        """The row: games, win rate and Wilson interval (or the mean score and interval)."""
        low, high = wilson(self.wins, self.n)
        out: dict[str, Any] = {
            "games": self.n,
            "wins": self.wins,
            "win_rate": round(self.wins / self.n, 4) if self.n else None,
            "win_low": round(low, 4),
            "win_high": round(high, 4),
        }
        if mean_mode:
            mlow, mhigh = mean_interval(self.total, self.squares, self.n)
            out["mean_score"] = round(self.total / self.n, 4) if self.n else None
            out["score_low"] = round(mlow, 4)
            out["score_high"] = round(mhigh, 4)
        return out


class Gain:
    """Running mean of paired differences (the first agent's result minus the baseline's)."""

    __slots__ = ("n", "squares", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, difference: float) -> None:
        """Fold one paired game in."""
        self.n += 1
        self.total += difference
        self.squares += difference * difference

    def to_json(self) -> dict[str, Any]:
        """The mean gain and its 95% interval; ``clear`` when the interval excludes 0."""
        low, high = mean_interval(self.total, self.squares, self.n)
        return {
            "games": self.n,
            "gain": round(self.total / self.n, 4) if self.n else None,
            "gain_low": round(low, 4),
            "gain_high": round(high, 4),
            "clear": self.n > 1 and (low > 0 or high < 0),
        }


class ArenaSummary:
    """Streaming aggregate of arena games."""

    def __init__(self, spec: ArenaSpec, seed: int, seats: list[tuple[int, ...]]) -> None:
        self.spec, self.seed, self.seats = spec, seed, seats
        self.names = labels(spec.agents)
        game = get_game(spec.game)
        self.sides = game.seat_names(
            spec.players, game.parse_options(spec.players, dict(spec.options))
        )
        self.mean_mode = game.wins_mode == "mean"
        self.agent = [Tally() for _ in spec.agents]
        self.side: dict[tuple[int, int], Tally] = defaultdict(Tally)
        self.team: dict[tuple[int, str], Tally] = defaultdict(Tally)
        self.gain: dict[str, Gain] = defaultdict(Gain)
        #: per team, the first agent's and the baseline's results in the paired games
        self.paired: dict[str, tuple[Tally, Tally]] = defaultdict(lambda: (Tally(), Tally()))
        self.seconds = [0.0] * len(spec.agents)
        self.moves = [0] * len(spec.agents)
        self.pair = [0.0, 0]  # the first agent's score, games (two-player games)
        self.done = self.errors = 0
        self.error_samples: list[dict[str, Any]] = []

    def add(self, result: Mapping[str, Any]) -> None:
        """Fold one game in."""
        self.done += 1
        if "error" in result:
            self.errors += 1
            if len(self.error_samples) < 5:
                self.error_samples.append({"seed": result["seed"], "error": result["error"]})
            return
        scores = result["scores"]
        for seat, index in enumerate(result["seats"]):
            won = result["won"][seat]
            score = scores[seat] if scores is not None else None
            self.agent[index].add(won, score)
            self.side[index, seat].add(won, score)
            teams = result.get("teams")
            if teams is not None:
                self.team[index, teams[seat]].add(won, score)
            if index == 0 and "base_won" in result:
                team = teams[seat] if teams is not None else self.sides[seat]
                base_won = result["base_won"][seat]
                base_score = result["base_scores"][seat] if scores is not None else None
                mine, theirs = self.paired[team]
                mine.add(won, score)
                theirs.add(base_won, base_score)
                if scores is not None and self.mean_mode:
                    self.gain[team].add(scores[seat] - result["base_scores"][seat])
                else:
                    self.gain[team].add(float(won) - float(base_won))
            self.seconds[index] += result["seconds"][seat]
            self.moves[index] += result["moves"][seat]
        if self.spec.players == 2 and len(self.spec.agents) == 2:
            first = result["seats"].index(0)
            a, b = result["won"][first], result["won"][1 - first]
            self.pair[0] += 1.0 if a and not b else 0.0 if b and not a else 0.5
            self.pair[1] += 1

    def to_json(self, seconds: float) -> dict[str, Any]:
        """The JSON summary printed by ``deathnote arena --json``."""
        agents: dict[str, Any] = {}
        for i, name in enumerate(self.names):
            row = self.agent[i].to_json(self.mean_mode)
            row["mean_seconds_per_move"] = (
                round(self.seconds[i] / self.moves[i], 5) if self.moves[i] else None
            )
            row["by_side"] = {
                self.sides[s]: self.side[i, s].to_json(self.mean_mode)
                for s in range(self.spec.players)
                if (i, s) in self.side
            }
            row["by_team"] = {
                team: tally.to_json(self.mean_mode)
                for (index, team), tally in sorted(self.team.items())
                if index == i
            }
            agents[name] = row
        rating = None
        score, n = self.pair
        if n:
            low, high = wilson(score, n)
            rating = {
                "agent": self.names[0],
                "versus": self.names[1],
                "score": round(score / n, 4),
                "elo": round(elo(score / n), 1),
                "elo_low": round(elo(low), 1),
                "elo_high": round(elo(high), 1),
            }
        return {
            "game": self.spec.game,
            "players": self.spec.players,
            "seed": self.seed,
            "games": self.done,
            "agents_listed": list(self.spec.agents),
            "assignments": [[self.names[i] for i in seats] for seats in self.seats],
            "measure": "apples" if self.mean_mode else "wins",
            "agents": agents,
            "elo": rating,
            "baseline": None
            if self.spec.baseline is None
            else {
                "agent": self.names[0],
                "instead_of": self.spec.baseline,
                "measure": "apples" if self.mean_mode else "wins",
                "by_team": {
                    team: {
                        **g.to_json(),
                        "agent": self.paired[team][0].to_json(self.mean_mode),
                        "baseline": self.paired[team][1].to_json(self.mean_mode),
                    }
                    for team, g in sorted(self.gain.items())
                },
            },
            "errors": self.errors,
            "error_samples": self.error_samples,
            "seconds": round(seconds, 3),
        }


def dealt_teams(spec: ArenaSpec, seed: int) -> list[str]:
    """Each seat's team once the deal of ``seed`` is dealt (``seat_teams``, else the seat
    names)."""
    match = Match.create(spec.game, spec.players, seed, spec.options, spec.content)
    teams = match.game.seat_teams(match.state)
    return teams if teams is not None else match.seat_names()


#: deals looked at for a team before it is called one no seat is ever dealt into
TEAM_PROBE = 200


def arena_tasks(
    spec: ArenaSpec, games: int, seed: int, seats: list[tuple[int, ...]], team: str | None
) -> Iterator[tuple[ArenaSpec, tuple[int, ...], int]]:
    """The games to play: ``games`` rounded up to whole deals, each deal with every seat
    assignment, or with ``team`` the assignments seating the first agent in that team."""
    if team is None:
        deals = -(-games // len(seats))
        for i in range(deals * len(seats)):
            yield spec, seats[i % len(seats)], game_seed(seed, i // len(seats))
        return
    played = deal = 0
    seen: set[str] = set()
    while played < games:
        deal_seed = game_seed(seed, deal)
        teams = dealt_teams(spec, deal_seed)
        seen.update(teams)
        deal += 1
        chosen = [a for a in seats if any(teams[s] == team for s, i in enumerate(a) if i == 0)]
        if not chosen and deal >= TEAM_PROBE and played == 0:
            raise DeathNoteError(
                f"no seat was dealt into the team {team!r} in {deal} deals; the teams dealt "
                f"are {', '.join(sorted(seen))}"
            )
        for assignment in chosen:
            yield spec, assignment, deal_seed
        played += len(chosen)


def arena(
    spec: ArenaSpec,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    team: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (rounded up to a whole number of deals, each played with every
    seat assignment; with ``team``, only the assignments that deal the first agent into
    that team) and return the JSON summary."""
    for name in sorted(set(spec.agents)):
        check_agent(spec.game, name)
    seats = assignments(spec.agents, spec.players)
    tasks = arena_tasks(spec, games, seed, seats, team)
    summary = ArenaSummary(spec, seed, seats)
    start = time.perf_counter()
    if jobs <= 1:
        for task in tasks:
            summary.add(_work(task))
            if progress:
                progress(1)
    else:
        ctx = pool_context()
        with ctx.Pool(jobs) as pool:
            while batch := list(islice(tasks, WINDOW)):
                for result in pool.imap_unordered(_work, batch):
                    summary.add(result)
                    if progress:
                        progress(1)
    result = summary.to_json(time.perf_counter() - start)
    result["team"] = team
    return result


def plot_arena(summary: Mapping[str, Any], path: Path) -> Path:
    """The arena table as a picture: each agent's rate per side with its interval (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mean = summary["measure"] == "apples"
    key, low_key, high_key = (
        ("mean_score", "score_low", "score_high") if mean else ("win_rate", "win_low", "win_high")
    )
    rows: list[tuple[str, float, float, float]] = []
    for name, row in summary["agents"].items():
        rows.append((f"{name}\n(all)", row[key], row[low_key], row[high_key]))
        for side, cell in row["by_side"].items():
            rows.append((f"{name}\n{side}", cell[key], cell[low_key], cell[high_key]))
    fig, ax = plt.subplots(figsize=(max(5, 1.3 * len(rows)), 4))
    xs = range(len(rows))
    values = [r[1] or 0.0 for r in rows]
    errors = [
        [v - r[2] for v, r in zip(values, rows, strict=True)],
        [r[3] - v for v, r in zip(values, rows, strict=True)],
    ]
    ax.bar(xs, values, yerr=errors, capsize=4, color="#446")
    ax.set_xticks(list(xs), [r[0] for r in rows], fontsize=8)
    ax.set_ylabel("mean Apples" if mean else "win rate")
    if not mean:
        ax.set_ylim(0, 1)
        ax.axhline(0.5, color="#a22", linewidth=0.8)
    title = f"{summary['game']}: {summary['games']} games, seed {summary['seed']} (95% intervals)"
    if summary.get("elo"):
        e = summary["elo"]
        title += f"\nElo {e['agent']} - {e['versus']}: {e['elo']} [{e['elo_low']}, {e['elo_high']}]"
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
