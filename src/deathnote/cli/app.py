"""Play, study and simulate the five Death Note tabletop games."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from deathnote.agents import agent_names
from deathnote.agents import check_agent as valid_agent
from deathnote.cli.options import build_options
from deathnote.cli.play import TerminalGame, parse_seat
from deathnote.cli.render import render_view
from deathnote.cli.serve import loadtest as loadtest_cmd
from deathnote.cli.serve import serve as serve_cmd
from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Action, Event, Viewer
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.match import Match
from deathnote.engine.registry import games, get_game
from deathnote.sim.runner import Batch, bench, bench_search, seat_agents, simulate

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"deathnote {version('deathnote')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Play, study and simulate the five Death Note tabletop games (Confrontation, the
    Investigation Card Game, Le Jeu d'Enquête, Werewolf and the trading card game)."""


def games_help() -> str:
    """The games and their bots, for --help texts."""
    lines = []
    for game in games().values():
        count = (
            str(game.min_players)
            if game.min_players == game.max_players
            else f"{game.min_players}-{game.max_players}"
        )
        bots = ", ".join(agent_names(game.id))
        lines.append(f"{game.id}: {game.name} ({count} players; bots: {bots})")
    return "\n\n".join(lines)


console = Console()
err_console = Console(stderr=True)

Chapter = Annotated[int | None, typer.Option(help="Confrontation chapter (1 or 2).")]
Rules = Annotated[str | None, typer.Option(help="Investigation Card Game rules: light or kira.")]
Eyes = Annotated[bool, typer.Option("--shinigami-eyes", help="ICG: Shinigami Eyes option.")]
Deck = Annotated[str | None, typer.Option(help="TCG: a deck file for your seat.")]
Extra = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Any game option as key=value.")
]
Players = Annotated[int | None, typer.Option(help="Number of players.")]
Content = Annotated[str | None, typer.Option(help="Path to replacement content data.")]


def read_record(path: Path) -> Any:
    """A saved record as JSON, or a one-line DeathNoteError (empty, unreadable, not JSON)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DeathNoteError(f"cannot read {path}: {exc.strerror or 'unreadable'}") from None
    if not data.strip():
        raise DeathNoteError(f"{path} is empty: not a saved game")
    try:
        record = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise DeathNoteError(f"{path} is not a saved game (not JSON)") from None
    if not isinstance(record, dict):
        raise DeathNoteError(f"{path} is not a saved game (not a record)")
    return record


def check_agent(game_id: str, name: str, flag: str) -> None:
    """Refuse an agent name the game does not have, listing the valid ones."""
    try:
        valid_agent(game_id, name)
    except DeathNoteError as exc:
        raise DeathNoteError(f"{exc} ({flag})") from None


def fail(exc: Exception) -> None:
    """Print an error for a person and exit with status 2."""
    err_console.print(f"[red]error:[/] {escape(str(exc))}", soft_wrap=True, highlight=False)
    raise typer.Exit(2)


@app.command("games")
def list_games() -> None:
    """List the games with their player counts."""
    table = Table("id", "game", "players")
    for game in games().values():
        count = (
            str(game.min_players)
            if game.min_players == game.max_players
            else f"{game.min_players}-{game.max_players}"
        )
        table.add_row(game.id, game.name, count)
    console.print(table)


@app.command()
def play(
    game: str,
    as_: Annotated[str | None, typer.Option("--as", help="Your seat (name or number).")] = None,
    players: Players = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: time).")] = None,
    hotseat: Annotated[bool, typer.Option(help="Every seat is a person at this screen.")] = False,
    bot: Annotated[str, typer.Option(help="Agent for the other seats.")] = "heuristic",
    load: Annotated[Path | None, typer.Option(help="Resume a saved record.")] = None,
    save: Annotated[Path | None, typer.Option(help="Where to keep the record.")] = None,
    chapter: Chapter = None,
    rules: Rules = None,
    shinigami_eyes: Eyes = False,
    deck: Deck = None,
    option: Extra = None,
    content: Content = None,
) -> None:
    """Play a game in the terminal against bots, or hot-seat.

    GAME is one of (with the bots --bot accepts):
    """
    try:
        if load is not None:
            match = Match.replay(read_record(load))
        else:
            spec = get_game(game)
            opts = build_options(chapter, rules, shinigami_eyes, deck, option)
            count = players or spec.min_players
            if deck is not None and "deck_seat" not in opts:
                # --deck is the deck of the seat the person plays.
                plain = spec.parse_options(count, {k: v for k, v in opts.items() if k != "deck"})
                opts["deck_seat"] = parse_seat(as_ or "1", spec.seat_names(count, plain))
            match = Match.create(
                game,
                count,
                seed if seed is not None else time.time_ns() % 1_000_000_007,
                opts,
                content,
            )
        names = match.seat_names()
        humans = set(range(match.players)) if hotseat else {parse_seat(as_ or "1", names)}
        if len(humans) < match.players:
            check_agent(match.game.id, bot, "--bot")
        save_path = (
            save
            or load
            or Path.home() / ".deathnote" / "saves" / f"{match.game.id}-{match.seed}.json"
        )
        TerminalGame(match, humans, bot, hotseat, console, save_path=save_path).run()
        # A game of a series (Le Jeu d'Enquête's Apples) goes on to the series' next game,
        # at the same seats, when the player wants it.
        following = match.next_in_series()
        while following is not None and wants_next_game():
            match = Match.create(match.game.id, match.players, match.seed + 1, following, content)
            save_path = save_path.with_name(f"{match.game.id}-{match.seed}.json")
            TerminalGame(match, humans, bot, hotseat, console, save_path=save_path).run()
            following = match.next_in_series()
    except DeathNoteError as exc:
        fail(exc)


def wants_next_game() -> bool:
    """Ask whether to play the series' next game (Enter or y: yes; n or end of input: no)."""
    try:
        answer = input("Play the next game of the series? [Y/n] ")
    except EOFError:
        return False
    return answer.strip().lower() not in ("n", "no", "q", "quit")


@contextlib.contextmanager
def games_bar(label: str, games: int) -> Iterator[Callable[[int], None]]:
    """A progress bar of played games on stderr, gone when done; yields its advance."""
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=games)
        yield lambda n: progress.advance(task, n)


@app.command("simulate")
def simulate_cmd(
    game: str,
    games_: Annotated[int, typer.Option("--games", min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the batch.")] = 0,
    agents: Annotated[
        str, typer.Option(help="One agent for every seat, or one per seat: kira,l")
    ] = "random",
    players: Players = None,
    jobs: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    cluster: Annotated[
        str | None,
        typer.Option(
            help="Play on an existing Dask cluster instead: its scheduler's address, "
            "e.g. tcp://10.0.0.5:8786 (needs deathnote[cluster] here and on the workers)."
        ),
    ] = None,
    save: Annotated[Path | None, typer.Option(help="Write one record per game here.")] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Save a PNG chart of the summary.")] = None,
    chapter: Chapter = None,
    rules: Rules = None,
    shinigami_eyes: Eyes = False,
    deck: Deck = None,
    option: Extra = None,
    content: Content = None,
) -> None:
    """Run many games headless and summarise them.

    GAME is one of (with the agents --agents accepts):
    """
    try:
        spec = get_game(game)
        count = players or spec.min_players
        opts = build_options(chapter, rules, shinigami_eyes, deck, option)
        Match.create(game, count, seed, opts, content)  # validate before starting workers
        names = seat_agents([a.strip() for a in agents.split(",") if a.strip()], count)
        for name in sorted(set(names)):
            check_agent(game, name, "--agents")
        batch = Batch(game, count, tuple(names), opts, content, str(save) if save else None)
        with games_bar(game, games_) as advance:
            result = simulate(batch, games_, seed, jobs, advance, cluster)
    except DeathNoteError as exc:
        fail(exc)
        return
    if plot is not None:
        from deathnote.sim.plots import plot_summary

        err_console.print(f"chart saved to {plot_summary(result, plot)}")
    if json_:
        sys.stdout.write(orjson.dumps(result).decode() + "\n")
        return
    table = Table("", "value", title=f"{game}: {result['games']} games")
    for key in ("wins", "win_rates", "outcomes", "errors", "mean_actions", "mean_turns", "seconds"):
        table.add_row(key, str(result[key]))
    console.print(table)


@app.command("arena")
def arena_cmd(
    game: str,
    agents: Annotated[
        str,
        typer.Option(
            help="Agents to compare, e.g. ismcts-hard,heuristic: one per seat (every seating "
            "is played), or two for more seats (the first in each seat in turn)."
        ),
    ],
    games_: Annotated[
        int, typer.Option("--games", min=1, help="Games (rounded up to whole deals).")
    ] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the run.")] = 0,
    players: Players = None,
    jobs: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    json_: Annotated[bool, typer.Option("--json", help="Print the JSON summary.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Save a PNG chart of the table.")] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            help="Replay every deal with this agent in the first agent's seats and report "
            "the first agent's gain per team, e.g. --agents ismcts,heuristic "
            "--baseline heuristic."
        ),
    ] = None,
    team: Annotated[
        str | None,
        typer.Option(
            help="Play only the games that deal the first agent into this team (as the "
            "summary names it, e.g. \"Kira's team\"): that team's figures at the cost of "
            "its games alone."
        ),
    ] = None,
    chapter: Chapter = None,
    rules: Rules = None,
    shinigami_eyes: Eyes = False,
    option: Extra = None,
    content: Content = None,
) -> None:
    """Agents against each other, sides swapped on the same deals: win rates (mean Apples
    in Le Jeu d'Enquête) with 95% Wilson intervals, the Elo difference, seconds per move.

    ISMCTS agents take settings after the name: ismcts:sims=500:rollout=heuristic (a fixed
    number of simulations gives the same results for the same seed on any machine).
    """
    from deathnote.sim.arena import ArenaSpec, arena

    try:
        spec_game = get_game(game)
        count = players or spec_game.min_players
        opts = build_options(chapter, rules, shinigami_eyes, None, option)
        Match.create(game, count, seed, opts, content)  # validate before starting workers
        names = [a.strip() for a in agents.split(",") if a.strip()]
        for name in sorted(set(names)):
            check_agent(game, name, "--agents")
        if baseline is not None:
            check_agent(game, baseline, "--baseline")
        spec = ArenaSpec(game, count, tuple(names), opts, content, baseline)
        with games_bar(f"{game} arena", games_) as advance:
            result = arena(spec, games_, seed, jobs, advance, team)
    except DeathNoteError as exc:
        fail(exc)
        return
    if plot is not None:
        from deathnote.sim.arena import plot_arena

        err_console.print(f"chart saved to {plot_arena(result, plot)}")
    if json_:
        sys.stdout.write(orjson.dumps(result).decode() + "\n")
        return
    console.print(arena_table(result))


def arena_table(result: dict[str, Any]) -> Table:
    """The arena summary as a table for people."""
    mean = result["measure"] == "apples"
    team = result.get("team")
    table = Table(
        "agent",
        "side",
        "games",
        "mean Apples [95%]" if mean else "win rate [95%]",
        "s/move",
        title=f"{result['game']}: {result['games']} games, seed {result['seed']}"
        + (f", only those dealing {result['agents_listed'][0]} into {team}" if team else ""),
    )
    for name, row in result["agents"].items():
        cells = [("all", row), *row["by_side"].items(), *row.get("by_team", {}).items()]
        for side, cell in cells:
            if mean:
                figure = (
                    f"{cell['mean_score']:.3f} [{cell['score_low']:.3f}, {cell['score_high']:.3f}]"
                )
            else:
                figure = f"{cell['win_rate']:.3f} [{cell['win_low']:.3f}, {cell['win_high']:.3f}]"
            per_move = row["mean_seconds_per_move"] if side == "all" else None
            table.add_row(
                name if side == "all" else "",
                side,
                str(cell["games"]),
                figure,
                f"{per_move:.4f}" if per_move is not None else "",
            )
    if result["elo"]:
        e = result["elo"]
        table.caption = (
            f"Elo {e['agent']} - {e['versus']}: {e['elo']:+.1f} "
            f"[{e['elo_low']:+.1f}, {e['elo_high']:+.1f}] (score {e['score']:.3f}); "
            f"errors: {result['errors']}"
        )
    else:
        table.caption = f"errors: {result['errors']}"
    base = result.get("baseline")
    if base:
        unit = "Apples" if base["measure"] == "apples" else "win rate"
        key = "mean_score" if mean else "win_rate"
        low, high = ("score_low", "score_high") if mean else ("win_low", "win_high")

        def rate(cell: dict[str, Any]) -> str:
            return f"{cell[key]:.3f} [{cell[low]:.3f}, {cell[high]:.3f}]"

        gains = "".join(
            f"\n  {team} ({g['games']} games): {rate(g['agent'])} against "
            f"{rate(g['baseline'])}, gain {g['gain']:+.3f} "
            f"[{g['gain_low']:+.3f}, {g['gain_high']:+.3f}]" + (" clear" if g["clear"] else "")
            for team, g in base["by_team"].items()
        )
        table.caption += (
            f"\n{base['agent']} instead of {base['instead_of']}, {unit} per team:{gains}"
        )
    return table


def parse_viewer(text: str, names: list[str]) -> Viewer:
    """A viewer: a seat name or number, 'spectator' or 'omniscient'."""
    if text.lower() in (SPECTATOR, OMNISCIENT):
        return text.lower()
    return parse_seat(text, names)


@app.command()
def replay(
    file: Path,
    as_: Annotated[str, typer.Option("--as", help="Seat, spectator or omniscient.")] = OMNISCIENT,
    step: Annotated[
        bool, typer.Option(help="Step through the record action by action (Enter: next, q: stop).")
    ] = False,
) -> None:
    """Replay a record, check it, and show the outcome and log as one viewer saw it."""
    try:
        record = read_record(file)
        match = Match.replay(record)
        viewer = parse_viewer(as_, match.seat_names())
    except DeathNoteError as exc:
        fail(exc)
        return
    console.print(f"Replayed {len(match.actions)} actions of {match.game.name}: record is valid.")
    if step:
        step_through(record, viewer)
        return
    view = match.view(viewer)
    console.print(render_view({**view, "legal": [], "log": []}))
    for line in log_lines(match, viewer, match.events):
        console.print(line, markup=False, highlight=False)
    outcome = match.outcome()
    console.print(f"Outcome: {outcome.reason if outcome else 'not finished'}")


def log_lines(match: Match, viewer: Viewer, events: Sequence[Event]) -> list[str]:
    """The log lines a viewer sees; for the omniscient viewer each private line names the
    seats it was shown to."""
    names = match.seat_names()
    lines = []
    for event in events:
        if not event.visible_to(viewer):
            continue
        if viewer == OMNISCIENT and event.audience is not None:
            to = ", ".join(names[s] for s in sorted(event.audience)) or "nobody"
            lines.append(f"[to {to}] {event.text}")
        else:
            lines.append(event.text)
    return lines


def step_through(record: dict[str, Any], viewer: Viewer, read: Any = input) -> None:
    """Play a record again one action at a time, showing what the viewer saw at each."""
    match = Match.replay({**record, "actions": []})
    names = match.seat_names()
    steps = record["actions"]
    for line in log_lines(match, viewer, match.events):
        console.print(line, markup=False, highlight=False)
    shown = len(match.events)
    for index, (seat, action_json) in enumerate(steps, start=1):
        try:
            answer = read(f"step {index}/{len(steps)}: Enter for the next, q to stop: ")
        except EOFError:
            answer = "q"
        if answer.strip().lower() in ("q", "quit"):
            return
        action = Action.from_json(action_json)
        label = next((a.label for a in match.legal(seat) if a == action), action.kind)
        decision = match.pending().get(seat)
        covert = decision is not None and decision.covert
        match.submit(seat, action)
        who = escape(names[seat])
        if viewer in (OMNISCIENT, seat):
            console.print(f"[bold]{index}. {who}:[/] {escape(label)}")
        elif covert:
            # Who was asked a covert question is itself a secret: say nothing of the step.
            console.print(f"[bold]{index}.[/] ...")
        else:
            console.print(f"[bold]{index}.[/] {who} has decided.")
        for line in log_lines(match, viewer, match.events[shown:]):
            console.print("   " + line, markup=False, highlight=False)
        shown = len(match.events)
    outcome = match.outcome()
    console.print(f"Outcome: {outcome.reason if outcome else 'not finished'}")


@app.command("bench")
def bench_cmd(
    game: str,
    seconds: Annotated[float, typer.Option(help="How long to run.")] = 5.0,
    players: Players = None,
    chapter: Chapter = None,
    option: Extra = None,
    agent: Annotated[
        str | None,
        typer.Option(help="A search agent (e.g. ismcts): its simulations per second instead."),
    ] = None,
    views: Annotated[
        bool,
        typer.Option(
            "--views",
            help="Instead: one action plus one view at action 10 and 200 of a random game "
            "(whole views and deltas), and the bytes of views sent to each seat over it.",
        ),
    ] = False,
) -> None:
    """Random self-play on one core: actions per second and games per second; with
    --agent ismcts, the search's simulations per second at the real choices of heuristic
    games."""
    try:
        spec = get_game(game)
        opts = build_options(chapter, extra=option)
        count = players or spec.min_players
        if agent is not None:
            check_agent(game, agent, "--agent")
            result = bench_search(game, count, opts, seconds, agent)
        elif views:
            from deathnote.sim.viewbench import bench_views

            result = bench_views(game, count, opts)
        else:
            result = bench(game, count, opts, seconds)
    except DeathNoteError as exc:
        fail(exc)
        return
    sys.stdout.write(orjson.dumps(result).decode() + "\n")


def _with_games(command: Any) -> None:
    """Append the games and their bots to a command's help (read when --help is shown)."""
    command.__doc__ = (command.__doc__ or "") + "\n\n" + games_help()


_with_games(play)
_with_games(simulate_cmd)
app.command("serve")(serve_cmd)
app.command("loadtest")(loadtest_cmd)


def main() -> None:
    """Entry point of the console script."""
    app()
