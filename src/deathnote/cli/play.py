"""Terminal play: humans at one keyboard (hot-seat) or against bots."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import orjson
from rich.console import Console

from deathnote.agents import Agent, Observation, make_agent
from deathnote.cli.render import render_view
from deathnote.engine.actions import Action, Seat
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
                self.console.print(render_view(self.match.view(seat)))
                self.read(f"{self.match.seat_name(seat)}, nothing to decide; press Enter... ")

    def pick(self, seat: Seat) -> Action:
        """Show a human seat its view and read one legal choice."""
        self.hand_over(seat)
        while True:
            view = self.match.view(seat)
            self.console.print(render_view(view))
            legal = self.match.legal(seat)
            answer = self.read(
                f"{self.match.seat_name(seat)}, choose 1-{len(legal)} (q to save and quit): "
            ).strip()
            if answer.lower() in ("q", "quit"):
                raise KeyboardInterrupt
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self.console.print(f"[red]Please type a number from 1 to {len(legal)}.[/]")

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
        """After each action: a person's is saved at once; a bot's may pause the screen."""
        if step.seat in self.humans:
            self.save()
        elif self.bot_delay:
            time.sleep(self.bot_delay)

    def run(self) -> None:
        """Play until the game ends, then show it from the last human seat's side."""
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
        viewer = min(self.humans) if len(self.humans) == 1 else "omniscient"
        self.console.print(render_view(self.match.view(viewer)))
        self.console.print(render_view({**self.match.view("omniscient"), "log": []}))

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
