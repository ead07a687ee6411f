"""Terminal play: humans at one keyboard (hot-seat) or against bots."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson
from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.text import Text

from deathnote.agents import Agent, Observation, make_agent
from deathnote.cli.menu import describe, menu_keys, pick
from deathnote.cli.render import out_of_game, render_log, render_view
from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Action, Seat
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.match import Match
from deathnote.engine.play import Step, Table

# Terminal controls for hot-seat privacy: the alternate screen keeps private screens out
# of the scrollback, and at every hand-over the screen and the scrollback are erased.
ALT_SCREEN_ON = "\x1b[?1049h"
ALT_SCREEN_OFF = "\x1b[?1049l"
ERASE_ALL = "\x1b[H\x1b[2J\x1b[3J"


def write_atomically(path: Path, data: bytes) -> None:
    """Write a file so that a crash leaves either the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def parse_seat(text: str, names: list[str]) -> Seat:
    """A seat from its name (any case) or its 1-based number."""
    lowered = [n.lower() for n in names]
    if text.lower() in lowered:
        return lowered.index(text.lower())
    if text.isdigit() and 1 <= int(text) <= len(names):
        return int(text) - 1
    raise DeathNoteError(f"no seat {text!r}; seats are {', '.join(names)} (or 1-{len(names)})")


class TerminalGame:
    """Runs one match in the terminal with human seats and bot seats."""

    def __init__(
        self,
        match: Match,
        humans: set[Seat],
        bot: str,
        hotseat: bool,
        console: Console,
        read: Callable[[str], str] = input,
        save_path: Path | None = None,
        bot_delay: float = 0.0,
    ) -> None:
        self.match = match
        self.humans = humans
        self.hotseat = hotseat
        self.console = console
        self.read = read
        self.save_path = save_path
        self.bot_delay = bot_delay
        self.bots: dict[Seat, Agent] = {
            s: make_agent(match.game.id, bot, s) for s in range(match.players) if s not in humans
        }
        people: dict[Seat, Agent] = {s: Person(self, s) for s in humans}
        self.table = Table(match, {**self.bots, **people})
        self.current_holder: Seat | None = None
        #: Hot-seat: choices read in a round of secrets, submitted as the loop asks.
        self.collected: dict[Seat, Action] = {}
        #: per human seat, how many of its log entries it has been shown
        self.shown: dict[Seat, int] = {}
        self.out: set[Seat] = set()

    def save(self) -> Path | None:
        """Write the match record so the game can be resumed or replayed."""
        if self.save_path is None:
            return None
        write_atomically(
            self.save_path, orjson.dumps(self.match.record(), option=orjson.OPT_INDENT_2)
        )
        return self.save_path

    def erase(self) -> None:
        """Hot-seat: erase the screen and the scrollback, so no private screen stays."""
        self.console.file.write(ERASE_ALL)
        self.console.file.flush()

    def hand_over(self, seat: Seat, always: bool = False) -> None:
        """Hot-seat: clear the screen and wait for the next player before a private view."""
        if not self.hotseat or (self.current_holder == seat and not always):
            return
        self.erase()
        self.read(f"Pass the device to {self.match.seat_name(seat)} and press Enter... ")
        self.erase()
        self.current_holder = seat

    def round_of_secrets(self) -> None:
        """Hot-seat with a covert decision: the device goes to every human seat alike.

        Naming only the seat being asked would tell the table who holds the secret, so each
        human seat takes the device in turn; those with nothing to decide see the same pause.
        The choices read are submitted as the play loop asks each seat.
        """
        pending = self.match.pending()
        for seat in sorted(self.humans):
            self.hand_over(seat, always=True)
            if seat in pending:
                self.collected[seat] = self.pick(seat)
            else:
                self.show(seat)
                self.read(f"{self.match.seat_name(seat)}, nothing to decide; press Enter... ")

    def show(self, seat: Seat) -> dict[str, Any]:
        """Draw a seat's screen: its board, all that happened since it last looked, and its
        choices; returns the view drawn."""
        view = self.match.view(seat)
        size = self.console.size
        screen = {"width": size.width, "height": size.height}
        self.console.print(render_view({**view, "screen": screen}, since=self.shown.get(seat, 0)))
        self.shown[seat] = len(view["log"])
        return view

    def pick(self, seat: Seat) -> Action:
        """Show a human seat its view and read one legal choice (submitted by the loop)."""
        legal = self.match.legal(seat)
        if len(legal) == 1 and not self.hotseat:
            # Against bots a forced step is answered for the player, with a short note;
            # in hot-seat every player is asked alike, so it stays a question.
            self.console.print(Text(f"({legal[0].label}: the only choice, done for you)", "dim"))
            return legal[0]
        self.hand_over(seat)
        view = self.show(seat)
        labels = [action.label or action.kind for action in legal]
        keys = menu_keys(labels)
        while True:
            answer = self.read(
                f"{self.match.seat_name(seat)}, choose {describe(keys)} (q to save and quit): "
            ).strip()
            if answer.lower() in ("q", "quit"):
                raise KeyboardInterrupt
            index = pick(answer, labels, keys)
            if index is not None:
                return legal[index]
            self.console.print(f"[red]Please type {describe(keys)}.[/]")
            if answer == "?":
                self.console.print(render_view(view, since=len(view["log"])))

    def choose_for(self, seat: Seat, legal: Sequence[Action]) -> Action:
        """A person's choice when the play loop asks their seat."""
        if seat not in self.collected and self.hotseat:
            pending = self.match.pending()
            if any(pending[s].covert for s in pending if s in self.humans):
                self.round_of_secrets()
        action = self.collected.pop(seat, None)
        if action is not None and action in legal:
            return action
        return self.pick(seat)

    def after(self, step: Step) -> None:
        """After each action: a person's is saved at once; after a bot's, a player who is
        out is told, and the screen may pause."""
        if step.seat in self.humans:
            self.save()
            return
        self.watch_for_out()
        if self.bot_delay:
            time.sleep(self.bot_delay)

    def watch_for_out(self) -> None:
        """Against bots: tell a player at once when their seat is out of the game."""
        if self.hotseat or len(self.humans) != 1:
            return
        (seat,) = self.humans
        if seat in self.out:
            return
        view = self.match.view(seat)
        if out_of_game(view):
            self.out.add(seat)
            self.console.print(render_log(view, since=self.shown.get(seat, 0)))
            self.shown[seat] = len(view["log"])
            self.console.print(
                Panel(
                    "You are out of the game. The others play on; you will see the end.",
                    border_style="red",
                )
            )

    def run(self) -> None:
        """Play until the game ends, then draw the end once."""
        if self.hotseat:
            # Private screens live on the alternate screen, which keeps no scrollback.
            self.console.file.write(ALT_SCREEN_ON)
        try:
            self._play()
        except (KeyboardInterrupt, EOFError):
            self._leave_private_screen()
            path = self.save()
            if path:
                self.console.print(
                    f"\nSaved. Resume with: deathnote play {self.match.game.id} --load {path}"
                )
            raise SystemExit(0) from None
        self._leave_private_screen()
        self.save()
        self.console.print(self.end_screen())

    def end_screen(self) -> RenderableType:
        """The end, drawn once: the whole table revealed, what the player had not yet seen
        of the log, and who won by name."""
        final = self.match.view(OMNISCIENT)
        if len(self.humans) == 1 and not self.hotseat:
            (seat,) = self.humans
            log = self.match.view(seat)["log"]
            since = self.shown.get(seat, 0)
        else:
            log = self.match.view(SPECTATOR)["log"]
            since = 0
        return render_view({**final, "log": log}, since=since)

    def _leave_private_screen(self) -> None:
        if self.hotseat:
            self.erase()
            self.console.file.write(ALT_SCREEN_OFF)
            self.console.file.flush()

    def _play(self) -> None:
        self.table.play(on_step=self.after)


class Person(Agent):
    """A person at the keyboard, seated at the play loop like any agent."""

    name = "person"

    def __init__(self, game: TerminalGame, seat: Seat) -> None:
        super().__init__(seat)
        self.game = game

    def choose(self, obs: Observation) -> Action:
        """Read the person's choice (the round of secrets in hot-seat play)."""
        return self.game.choose_for(self.seat, obs.legal)
