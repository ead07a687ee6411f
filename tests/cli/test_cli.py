from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest
from rich.console import Console
from typer.testing import CliRunner

from deathnote.cli.app import app
from deathnote.cli.play import TerminalGame
from deathnote.engine import Decision, Seat, registry
from deathnote.engine.match import Match
from tests.engine.toy import ToyGame, ToyState

pytestmark = pytest.mark.usefixtures("toy_registered")
runner = CliRunner()


def test_games_lists_player_counts() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "toy" in result.output and "Toy" in result.output


def test_simulate_json_summary_is_deterministic(tmp_path: Path) -> None:
    args = ["simulate", "toy", "--games", "12", "--seed", "3", "--agents", "random", "--json"]
    first = runner.invoke(app, [*args, "--save", str(tmp_path), "--plot", str(tmp_path / "c.png")])
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    a, b = orjson.loads(first.stdout), orjson.loads(second.stdout)
    for key in ("game", "games", "seed", "agents", "wins", "errors", "mean_actions", "seconds"):
        assert key in a
    assert a["wins"] == b["wins"] and a["games"] == 12
    assert len(list(tmp_path.glob("*.json"))) == 12
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


def test_simulate_rejects_unknown_agent_and_game() -> None:
    result = runner.invoke(app, ["simulate", "toy", "--agents", "genius"])
    assert result.exit_code == 2 and "unknown agent" in result.output
    result = runner.invoke(app, ["simulate", "chess"])
    assert result.exit_code == 2 and "unknown game" in result.output


def test_hotseat_play_clears_and_hands_over_then_replays(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # Enter to take the device, then always choose 1 ("odd"); plenty of lines to finish.
    script = "\n".join(["", "1"] * 200) + "\n"
    result = runner.invoke(
        app, ["play", "toy", "--hotseat", "--seed", "5", "--save", str(save)], input=script
    )
    assert result.exit_code == 0, result.output
    assert "Pass the device to Player 2" in result.output
    assert "Game over" in result.output
    replayed = runner.invoke(app, ["replay", str(save), "--as", "2"])
    assert replayed.exit_code == 0, replayed.output
    assert "record is valid" in replayed.output
    assert "Your secret is" not in replayed.output  # Player 1's private log line
    assert "Your secret is" in runner.invoke(app, ["replay", str(save), "--as", "1"]).output
    record = orjson.loads(save.read_bytes())
    assert record["game"] == "toy" and record["actions"]


def test_play_rejects_bad_input_and_keeps_going(tmp_path: Path) -> None:
    script = "\n".join(["9", "abc", *(["1"] * 100)]) + "\n"
    result = runner.invoke(
        app,
        [
            "play",
            "toy",
            "--as",
            "1",
            "--bot",
            "random",
            "--seed",
            "2",
            "--save",
            str(tmp_path / "g.json"),
        ],
        input=script,
    )
    assert result.exit_code == 0, result.output
    assert "Please type 1-2" in result.output


def test_replay_of_a_broken_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "not a saved game" in result.output


def test_bench_prints_rates() -> None:
    result = runner.invoke(app, ["bench", "toy", "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    figures = orjson.loads(result.stdout)
    assert figures["actions_per_second"] > 0 and figures["games"] > 0
    assert figures["actions_per_cpu_second"] > 0 and figures["cpu_seconds"] > 0


def test_play_deck_goes_to_the_players_seat(tmp_path: Path) -> None:
    import deathnote

    deck = Path(deathnote.__file__).parent / "games" / "tcg" / "content" / "example-deck.json"
    save = tmp_path / "tcg.json"
    result = runner.invoke(
        app,
        ["play", "tcg", "--as", "2", "--deck", str(deck), "--seed", "1", "--save", str(save)],
        input="q\n",
    )
    assert result.exit_code == 0, result.output
    record = orjson.loads(save.read_bytes())
    entries = orjson.loads(deck.read_bytes())["cards"]
    cards = [e["number"] for e in entries for _ in range(e["count"])]
    assert sorted(record["options"]["decks"][1]["cards"]) == sorted(cards)
    assert record["options"]["decks"][0] != record["options"]["decks"][1]


class _CovertToy(ToyGame):
    """The toy, but Player 1 picks first and secretly (being asked is itself a secret)."""

    id = "covert-toy"

    def pending(self, state: ToyState) -> dict[Seat, Decision]:
        if self.outcome(state):
            return {}
        first = [0] if 0 not in state.picks else [1]
        return {s: Decision("pick", "Odd or even?", covert=(s == 0)) for s in first}


def test_hotseat_covert_decision_passes_the_device_to_every_seat_alike() -> None:
    registry.games()["covert-toy"] = _CovertToy()
    try:
        match = Match.create("covert-toy", 2, 5)
        prompts: list[str] = []

        def read(prompt: str) -> str:
            prompts.append(prompt)
            return "1" if "choose" in prompt else ""

        TerminalGame(match, {0, 1}, "random", True, Console(file=io.StringIO()), read).run()
    finally:
        registry.games().pop("covert-toy", None)
    assert match.outcome() is not None
    # Player 1's covert pick: the device went to both players, each with a pause of the same kind.
    first_round = prompts[:4]
    assert first_round[0].startswith("Pass the device to Player 1")
    assert first_round[1].startswith("Player 1, choose")
    assert first_round[2].startswith("Pass the device to Player 2")
    assert first_round[3].startswith("Player 2, nothing to decide")


def test_hotseat_private_screens_leave_no_scrollback(tmp_path: Path) -> None:
    """Every private screen is erased (screen and scrollback, on the alternate screen)
    before the next "Pass the device" prompt is written (issue 11 §6)."""
    from deathnote.cli import play as play_module

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    match = Match.create("toy", 2, 5)
    answers = iter(["", "1"] * 400)

    def read(prompt: str) -> str:
        out.write(f"<<{prompt}>>")
        return next(answers)

    TerminalGame(match, {0, 1}, "random", True, console, read=read).run()
    written = out.getvalue()
    assert written.startswith(play_module.ALT_SCREEN_ON)
    private = f"Your secret is {match.state.secret}"
    start = 0
    prompts = 0
    while (prompt := written.find("<<Pass the device", start)) != -1:
        before = written[:prompt]
        last_private = before.rfind(private)
        if last_private != -1:
            # the last private line was followed by an erase of screen and scrollback
            assert play_module.ERASE_ALL in before[last_private:]
        prompts += 1
        start = prompt + 1
    assert prompts > 2
    # the alternate screen is left before the end screen (which shows the whole game)
    assert play_module.ALT_SCREEN_OFF in written


def test_saves_are_atomic_and_bad_saves_are_one_line_errors(tmp_path: Path) -> None:
    from deathnote.cli.play import write_atomically

    target = tmp_path / "save.json"
    target.write_bytes(b'{"old": true}')

    class Boom(Exception):
        pass

    real_replace = __import__("os").replace

    def crash(*args: object) -> None:
        raise Boom

    import os

    os.replace = crash  # type: ignore[assignment]
    try:
        with pytest.raises(Boom):
            write_atomically(target, b'{"new": true}')
    finally:
        os.replace = real_replace
    assert target.read_bytes() == b'{"old": true}'  # the old save survives a crash
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]  # no temporary left
    write_atomically(target, b'{"new": true}')
    assert target.read_bytes() == b'{"new": true}'
    for content in (b"", b"   \n", b"[1, 2", b"[1, 2]"):
        target.write_bytes(content)
        result = runner.invoke(app, ["play", "toy", "--load", str(target)])
        assert result.exit_code == 2
        assert "Traceback" not in result.output
        assert "not a saved game" in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_bad_arguments_are_refused_with_the_choices() -> None:
    result = runner.invoke(app, ["play", "toy", "--bot", "genius"])
    assert result.exit_code == 2 and "unknown agent 'genius'" in result.output
    assert "random" in result.output
    for args in (["--games", "-3"], ["--games", "0"], ["--jobs", "0"]):
        result = runner.invoke(app, ["simulate", "toy", *args])
        assert result.exit_code == 2, args
        assert "Invalid value" in result.output


def test_play_enquete_goes_on_through_its_series(tmp_path: Path) -> None:
    """ENQ-OPT-03 in the terminal: after each game the next one of the series, Apples
    carried; after the last one the series' winner."""
    save = tmp_path / "enq.json"
    script = "\n".join(["1", "2", "3", "4"] * 10000) + "\n"  # one of them is offered
    result = runner.invoke(
        app,
        [
            *("play", "enquete", "--as", "1", "--seed", "4", "-o", "series_games=2"),
            *("--bot", "random", "--save", str(save)),
        ],
        input=script,
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game 1 of 2 of the series is over" in result.output
    assert "Play the next game of the series?" in result.output
    assert "The series of 2 games is over: " in result.output
    second = orjson.loads((tmp_path / "enquete-5.json").read_bytes())
    assert second["options"]["series_game"] == 2
    assert len(second["options"]["series_apples"]) == 4
