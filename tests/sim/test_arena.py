"""The arena: seat assignments, intervals, determinism, the command."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from deathnote.cli.app import app
from deathnote.engine.errors import DeathNoteError
from deathnote.sim.arena import ArenaSpec, arena, assignments, labels
from deathnote.sim.stats import Z95, elo, mean_interval, wilson


def test_wilson_interval_matches_the_formula_and_known_values() -> None:
    assert abs(Z95 - 1.959964) < 1e-6
    # Known values (Wilson 1927; e.g. statsmodels proportion_confint(method="wilson")).
    assert wilson(60, 100) == pytest.approx((0.502003, 0.690599), abs=1e-6)
    assert wilson(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    assert wilson(0, 0) == (0.0, 1.0)
    # Narrower with more games, always around the rate.
    for wins, n in ((3, 7), (520, 1000), (1, 2)):
        low, high = wilson(wins, n)
        assert low < wins / n < high
        low2, high2 = wilson(wins * 10, n * 10)
        assert high2 - low2 < high - low


def test_elo_and_mean_intervals() -> None:
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert elo(0.25) == pytest.approx(-elo(0.75))
    assert elo(0.0) == -1000.0 and elo(1.0) == 1000.0
    values = [1.0, 2.0, 3.0, 4.0]
    low, high = mean_interval(sum(values), sum(v * v for v in values), len(values))
    half = Z95 * math.sqrt((5 / 3) / 4)  # sample variance 5/3
    assert (low, high) == pytest.approx((2.5 - half, 2.5 + half))


def test_every_seat_assignment_is_played() -> None:
    assert assignments(["a", "b"], 2) == [(0, 1), (1, 0)]
    assert assignments(["a", "b"], 4) == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    assert len(assignments(["a", "b", "c"], 3)) == 6
    assert labels(["heuristic", "heuristic"]) == ["heuristic#1", "heuristic#2"]
    with pytest.raises(DeathNoteError, match="--agents"):
        assignments(["a", "b", "c"], 4)


def _figures(result: dict[str, Any]) -> dict[str, Any]:
    """The summary without its timings."""
    out = dict(result, seconds=None)
    out["agents"] = {
        name: dict(row, mean_seconds_per_move=None) for name, row in result["agents"].items()
    }
    return out


def test_arena_counts_and_determinism() -> None:
    spec = ArenaSpec("confrontation", 2, ("heuristic", "random"))
    result = arena(spec, 9, seed=4)
    assert result["games"] == 10  # rounded up to whole deals of two seatings
    assert result["errors"] == 0
    heuristic, rnd = result["agents"]["heuristic"], result["agents"]["random"]
    assert heuristic["games"] == rnd["games"] == 10
    assert set(heuristic["by_side"]) == {"Kira", "L"}
    assert all(cell["games"] == 5 for cell in heuristic["by_side"].values())
    # Each game has exactly one winner in Confrontation.
    assert heuristic["wins"] + rnd["wins"] == 10
    assert heuristic["win_low"] <= heuristic["win_rate"] <= heuristic["win_high"]
    rating = result["elo"]
    assert rating["score"] == heuristic["win_rate"]
    assert rating["elo_low"] <= rating["elo"] <= rating["elo_high"]
    assert heuristic["mean_seconds_per_move"] > 0
    # Same seed, same figures, in one process or two; another seed, other games.
    assert _figures(arena(spec, 10, seed=4, jobs=2)) == _figures(result)
    assert _figures(arena(spec, 10, seed=5)) != _figures(result)


def test_arena_in_enquete_reports_mean_apples() -> None:
    result = arena(ArenaSpec("enquete", 4, ("random", "heuristic")), 4, seed=1)
    assert result["measure"] == "apples" and result["elo"] is None
    row = result["agents"]["random"]
    assert row["games"] == 4 and len(row["by_side"]) == 4
    assert row["score_low"] <= row["mean_score"] <= row["score_high"]
    assert result["agents"]["heuristic"]["games"] == 12


def test_arena_command_json_and_plot(tmp_path: Path) -> None:
    chart = tmp_path / "arena.png"
    args = ["arena", "confrontation", "--agents", "ismcts:sims=8,random", "--games", "2"]
    result = CliRunner().invoke(app, [*args, "--seed", "3", "--json", "--plot", str(chart)])
    assert result.exit_code == 0, result.output
    summary = orjson.loads(result.stdout.strip().splitlines()[-1])
    assert summary["games"] == 2 and set(summary["agents"]) == {"ismcts:sims=8", "random"}
    assert chart.read_bytes().startswith(b"\x89PNG")
    table = CliRunner().invoke(app, [*args, "--seed", "3"])
    assert table.exit_code == 0 and "win rate" in table.output and "Elo" in table.output
    bad = CliRunner().invoke(app, ["arena", "confrontation", "--agents", "ismcts:sims=x,random"])
    assert bad.exit_code == 2 and "bad ismcts setting" in bad.output


def test_arena_reports_each_agents_rate_per_team_dealt() -> None:
    result = arena(ArenaSpec("werewolf", 5, ("random", "heuristic")), 10, seed=2)
    for name, row in result["agents"].items():
        teams = row["by_team"]
        assert set(teams) <= {"Kira's team", "L's team"}, name
        # Every seat-game is counted in exactly one team, as in exactly one side.
        assert sum(cell["games"] for cell in teams.values()) == row["games"]
        assert sum(cell["wins"] for cell in teams.values()) == row["wins"]
    # Confrontation deals no teams: a seat's side is its seat name, shown by side only.
    duel = arena(ArenaSpec("confrontation", 2, ("heuristic", "random")), 2, seed=1)
    assert duel["agents"]["heuristic"]["by_team"] == {}


def test_a_baseline_replays_each_deal_and_gives_the_gain_per_team() -> None:
    # The same agent as its own baseline plays the very same games: no gain, nothing clear.
    same = arena(ArenaSpec("icg", 5, ("heuristic", "heuristic"), baseline="heuristic"), 10, 3)
    gains = same["baseline"]["by_team"]
    assert set(gains) == {"Kira's team", "L's team"}
    assert sum(g["games"] for g in gains.values()) == 10
    assert all(g["gain"] == g["gain_low"] == g["gain_high"] == 0 for g in gains.values())
    assert not any(g["clear"] for g in gains.values())
    # Random play instead of the heuristic in Kira's seats loses clearly on this many deals.
    worse = arena(ArenaSpec("icg", 5, ("random", "heuristic"), baseline="heuristic"), 100, 1)
    kira = worse["baseline"]["by_team"]["Kira's team"]
    assert kira["clear"] and kira["gain_high"] < 0
    # Enquête measures the gain in Apples, per faction.
    apples = arena(ArenaSpec("enquete", 4, ("random", "heuristic"), baseline="heuristic"), 8, 1)
    assert apples["baseline"]["measure"] == "apples"
    assert set(apples["baseline"]["by_team"]) <= {"The Detective", "Kira", "Investigators"}


def test_a_baseline_reports_both_rates_per_team_beside_the_gain() -> None:
    worse = arena(ArenaSpec("icg", 5, ("random", "heuristic"), baseline="heuristic"), 40, 1)
    for team, g in worse["baseline"]["by_team"].items():
        mine, base = g["agent"], g["baseline"]
        # Both rates come from the same paired games, and the gain is their difference.
        assert mine["games"] == base["games"] == g["games"], team
        assert g["gain"] == pytest.approx((mine["wins"] - base["wins"]) / g["games"], abs=1e-4)
        assert mine["win_low"] <= mine["win_rate"] <= mine["win_high"]
        assert base["win_low"] <= base["win_rate"] <= base["win_high"]
    # The agent's paired rate per team is its rate per team (one seat a game).
    for team, cell in worse["agents"]["random"]["by_team"].items():
        assert worse["baseline"]["by_team"][team]["agent"]["wins"] == cell["wins"]
    apples = arena(ArenaSpec("enquete", 4, ("random", "heuristic"), baseline="heuristic"), 8, 1)
    for g in apples["baseline"]["by_team"].values():
        diff = g["agent"]["mean_score"] - g["baseline"]["mean_score"]
        assert g["gain"] == pytest.approx(diff, abs=1e-3)
    args = ["arena", "icg", "--players", "5", "--agents", "random,heuristic", "--games", "10"]
    table = CliRunner().invoke(app, [*args, "--baseline", "heuristic"])
    assert table.exit_code == 0 and "against" in table.output and "gain" in table.output


def test_a_team_run_plays_only_the_games_that_deal_the_first_agent_into_it() -> None:
    spec = ArenaSpec("icg", 5, ("random", "heuristic"), baseline="heuristic")
    first = arena(spec, 30, seed=4)  # six deals, each with the first agent in every seat
    dealt = first["agents"]["random"]["by_team"]["Kira's team"]["games"]
    kira = arena(spec, dealt, seed=4, team="Kira's team")
    assert kira["team"] == "Kira's team" and kira["games"] == dealt
    # Every game played dealt the first agent into Kira's team, and nothing else was played.
    assert set(kira["agents"]["random"]["by_team"]) == {"Kira's team"}
    assert set(kira["baseline"]["by_team"]) == {"Kira's team"}
    # They are the Kira's-team games of the full run on the same deals, with the same seats.
    rows = kira["agents"]["random"]["by_team"], first["agents"]["random"]["by_team"]
    assert rows[0]["Kira's team"] == rows[1]["Kira's team"]
    for key in ("agent", "baseline"):
        mine = kira["baseline"]["by_team"]["Kira's team"][key]
        assert mine == first["baseline"]["by_team"]["Kira's team"][key]
    # A team no seat is ever dealt into is refused with the teams there are.
    with pytest.raises(DeathNoteError, match="L's team"):
        arena(ArenaSpec("icg", 5, ("random", "heuristic")), 5, seed=1, team="Near's team")
    args = ["arena", "werewolf", "--players", "5", "--agents", "random,heuristic"]
    table = CliRunner().invoke(app, [*args, "--games", "4", "--team", "L's team", "--json"])
    assert table.exit_code == 0, table.output
    assert set(orjson.loads(table.output)["agents"]["random"]["by_team"]) == {"L's team"}
    shown = CliRunner().invoke(app, [*args, "--games", "4", "--team", "L's team"])
    assert shown.exit_code == 0 and "only those dealing random into L's team" in shown.output
