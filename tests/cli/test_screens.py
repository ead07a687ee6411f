"""What the terminal shows, checked on captured output (issue 19)."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import orjson
from rich.console import Console
from typer.testing import CliRunner

from deathnote.cli.app import app
from deathnote.cli.play import TerminalGame
from deathnote.cli.render import render_view
from deathnote.engine import Match
from tests.terminal_input import first_key

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def finished(game: str, players: int, seed: int) -> Match:
    match = Match.create(game, players, seed)
    rng = random.Random(seed)
    while match.outcome() is None:
        seat = min(match.pending())
        match.submit(seat, rng.choice(match.legal(seat)))
    return match


def screen(renderable: object, width: int = 100, height: int = 40, color: bool = False) -> str:
    console = Console(
        file=io.StringIO(), width=width, height=height, no_color=not color, color_system=None
    )
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def play_against_bots(game: str, players: int, seed: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=100, height=40, color_system=None)
    match = Match.create(game, players, seed)
    TerminalGame(match, {0}, "heuristic", False, console, read=first_key).run()
    return out.getvalue()


def test_game_over_is_drawn_once_with_names() -> None:
    for game, players in (("confrontation", 2), ("icg", 5), ("werewolf", 5), ("enquete", 5)):
        text = play_against_bots(game, players, 3)
        assert text.count("─ Game over ─") == 1, game
        assert "(nothing yet)" not in text and "(nothing new)" not in text, game
    text = play_against_bots("confrontation", 2, 3)
    assert "Winner: l" not in text and "Winner: kira" not in text


def test_names_not_ids_at_the_end() -> None:
    icg = finished("icg", 5, 3)
    text = screen(render_view(icg.view("omniscient")))
    assert "team l)" not in text and "team kira" not in text
    assert "team wins:" in text
    werewolf = finished("werewolf", 5, 3)
    text = screen(render_view(werewolf.view("omniscient")))
    assert "team wins: " in text
    assert re.search(r"Player \d \((Kira|L|Police|Worshipper|Watari)\)", text)
    enquete = finished("enquete", 5, 3)
    text = screen(render_view(enquete.view("omniscient")))
    assert "Apples this game:" in text
    assert "Winner: Detective" not in text
    for role in ("light", "misa", "higuchi"):
        assert f" {role} " not in text and f": {role}" not in text


def test_events_since_the_last_decision_are_all_shown() -> None:
    """A player killed early reads it: nothing since their last move is cut."""
    out = io.StringIO()
    console = Console(file=out, width=120, height=200, color_system=None)
    match = Match.create("werewolf", 7, 11)
    game = TerminalGame(match, {0}, "heuristic", False, console, read=first_key)
    game.run()
    text = out.getvalue()
    seen = [e["text"] for e in match.view(0)["log"]]
    # every log line the seat may see was printed at some point
    missing = [line for line in seen if line[:60] not in text.replace("\n", " ")]
    assert len(missing) <= len(seen) // 20, missing[:5]


def test_forced_steps_are_answered_against_bots_only() -> None:
    text = play_against_bots("werewolf", 5, 2)
    assert "the only choice, done for you" in text


def test_the_confrontation_map_reads_without_colour() -> None:
    match = Match.create("confrontation", 2, 3)
    rng = random.Random(1)
    while match.outcome() is None and len(match.actions) < 8:
        seat = min(match.pending())
        match.submit(seat, rng.choice(match.legal(seat)))
    view = match.view(0)
    text = screen(render_view(view), width=100)
    assert "k = Stabber" in text and "g = Shooter" in text and "b = Bomber" in text
    assert "░ = your Local Area" in text  # the area is marked without colour
    assert "░" in text.split("k = Stabber")[0]
    # every killed criminal shows its whole number ("X17", not "X1")
    for criminal in view["state"]["map"]["criminals"]:
        if criminal["killed"]:
            assert f"X{criminal['number']}" in text
    assert "6g29g" not in text.replace(" ", "") or "6g  29g" in text


def test_short_terminal_keeps_board_and_decision_on_one_screen() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, color_system=None)
    match = Match.create("confrontation", 2, 3)
    answers = iter(["1", "A"])
    game = TerminalGame(match, {1}, "heuristic", False, console, read=lambda _: next(answers))
    game.show(1)
    lines = out.getvalue().rstrip("\n").split("\n")
    start = next(i for i, line in enumerate(lines) if "Map, day" in line)
    assert len(lines) - start <= 23  # the board and the decision, with the prompt: 24 lines
    assert "Follow the next lead" in out.getvalue()


def test_replay_step_names_whose_private_line_each_is(tmp_path: Path) -> None:
    match = finished("werewolf", 5, 4)
    path = tmp_path / "r.json"
    path.write_bytes(orjson.dumps(match.record()))
    steps = "\n" * (len(match.actions) + 2)
    result = runner.invoke(app, ["replay", str(path), "--step"], input=steps)
    assert result.exit_code == 0, result.output
    assert "[to Player " in result.output
    assert "1. Player" in result.output
    as_seat = runner.invoke(app, ["replay", str(path), "--step", "--as", "2"], input=steps)
    assert "[to Player" not in as_seat.output
    assert "Outcome:" in as_seat.output
    plain = runner.invoke(app, ["replay", str(path)])
    assert "[to Player " in plain.output


def test_help_and_wording() -> None:
    top = runner.invoke(app, ["--help"])
    assert "``deathnote``" not in top.output and "Death Note" in top.output
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.output.startswith("deathnote ")
    play = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "werewolf" in play.output and "heuristic" in play.output
    tasks = subprocess.run(
        [sys.executable, str(ROOT / "tasks.py"), "--help"], capture_output=True, text=True
    )
    assert tasks.returncode == 0 and "usage" in tasks.stdout
    assert "installing" not in tasks.stderr
    bad = runner.invoke(app, ["play", "confrontation", "--players", "3"])
    assert "2 to 2" not in bad.output and "played by 2 players" in bad.output


def test_one_point_is_singular_and_tcg_seats_are_players_beside_their_decks() -> None:
    text = play_against_bots("confrontation", 2, 3)
    assert "1 points" not in text and "+1 point (" in text
    assert "1 point)" in text  # the kill choice "Kill criminal N (Stabber, 1 point)"
    tcg = play_against_bots("tcg", 2, 3)
    assert "Player 1  Kira deck" in tcg and "Player 2" in tcg and "L deck" in tcg
    assert "Winner: Player " in tcg and "Kira's hand" not in tcg
