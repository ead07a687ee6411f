"""Golden playthroughs: one readable transcript per game and main set-up, to catch drift.

Each case (a game, its players, options and a seed) is played by random agents (the
lowest asked seat acts, each agent with ``agent_rng(seed, seat)``), and every step is
written down: who is asked (and which decisions are covert), how many legal actions the
acting seat has, the action, and the events (public ones, and private ones with their
audience). The files are ``tests/golden/<game>[-<option>-<value>]-<players>p-seed<N>.txt``;
their first lines give the rules and generator versions they were made under.

``tests/test_golden.py`` fails when a transcript changes while the game's
``rules_version`` did not (a behaviour change without a version bump), and when the
version changed, asking for the files to be made again::

    python -m deathnote.engine.golden --write            # every game
    python -m deathnote.engine.golden --write icg        # one game
    python -m deathnote.engine.golden                    # only report which differ
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import orjson

from deathnote.engine.actions import Event
from deathnote.engine.conformance import Setup, setups
from deathnote.engine.match import Match
from deathnote.engine.registry import games, get_game
from deathnote.engine.rng import RNG_VERSION, agent_rng

#: Where the transcripts live, from the project root.
GOLDEN_DIR = Path("tests/golden")
SEED = 1
#: Seeds picked (by set-up label) so that random play makes a game of some length; the
#: rest use ``SEED``.
SEEDS: dict[str, int] = {
    "confrontation-2p": 11,
    "confrontation-chapter=2-2p": 5,
    "icg-4p": 2,
    "icg-8p": 4,
    "icg-rules=kira-4p": 2,
    "icg-shinigami_eyes=True-4p": 11,
    "enquete-4p": 3,
    "werewolf-7p": 3,
}
REGENERATE = "python -m deathnote.engine.golden --write"


@dataclass(frozen=True)
class Case:
    """One golden playthrough."""

    setup: Setup
    seed: int = SEED

    @property
    def filename(self) -> str:
        """``<game>[-<option>-<value>]-<players>p-seed<N>.txt``."""
        opts = "".join(f"-{k}-{str(v).lower()}" for k, v in sorted(self.setup.options.items()))
        return f"{self.setup.game}{opts}-{self.setup.players}p-seed{self.seed}.txt"


def cases(game_ids: Sequence[str] | None = None) -> list[Case]:
    """The golden cases: every conformance set-up of every game (or of the named ones)."""
    ids = list(game_ids) if game_ids else sorted(games())
    return [Case(s, SEEDS.get(s.label, SEED)) for g in ids for s in setups(g)]


def _events(events: Sequence[Event], names: Sequence[str]) -> Iterator[str]:
    for event in events:
        if event.audience is None:
            yield f"    | {event.text}"
        else:
            who = ", ".join(names[s] for s in sorted(event.audience))
            yield f"    | (to {who}) {event.text}"


def header(case: Case) -> list[str]:
    """The first lines: what was played, under which versions, how to make it again."""
    game = get_game(case.setup.game)
    options = orjson.dumps(dict(case.setup.options), option=orjson.OPT_SORT_KEYS).decode()
    return [
        f"# {game.name}: {case.setup.players} players, seed {case.seed}, options {options}",
        f"# rules_version {game.rules_version}",
        f"# rng_version {RNG_VERSION}",
        f"# made by: {REGENERATE} {case.setup.game}",
    ]


def transcript(case: Case) -> str:
    """The readable playthrough of one case."""
    from deathnote.agents import RandomAgent, observe

    match = Match.create(case.setup.game, case.setup.players, case.seed, dict(case.setup.options))
    names = match.seat_names()
    agents = [RandomAgent(s) for s in range(match.players)]
    rngs = [agent_rng(case.seed, s) for s in range(match.players)]
    lines = header(case)
    lines.append(f"seats: {', '.join(names)}")
    lines.append("set-up")
    lines += _events(match.events, names)
    step = 0
    while match.outcome() is None:
        pending = match.pending()
        seat = min(pending)
        asked = ", ".join(
            f"{names[s]} {d.kind}{' (covert)' if d.covert else ''}"
            for s, d in sorted(pending.items())
        )
        legal = match.legal(seat)
        action = agents[seat].choose(observe(match, seat, rngs[seat]))
        data = orjson.dumps(action.to_json(), option=orjson.OPT_SORT_KEYS).decode()
        lines.append(f"step {step}: asked {asked}")
        lines.append(f"  {names[seat]} ({len(legal)} legal): {action.label} {data}")
        lines += _events(match.submit(seat, action), names)
        step += 1
    outcome = match.outcome()
    assert outcome is not None
    lines.append(
        f"end after {step} actions: {outcome.condition}, winners {list(outcome.winners)}, "
        f"seats {list(outcome.winning_seats)}: {outcome.reason}"
    )
    return "\n".join(lines) + "\n"


def recorded_version(text: str) -> str | None:
    """The rules version a stored transcript was made under."""
    for line in text.splitlines()[:5]:
        if line.startswith("# rules_version "):
            return line.removeprefix("# rules_version ").strip()
    return None


def compare(case: Case, directory: Path = GOLDEN_DIR) -> str | None:
    """None when the stored transcript is current, else why not (for a person)."""
    path = directory / case.filename
    game = get_game(case.setup.game)
    if not path.exists():
        return f"{path} is missing: run {REGENERATE} {case.setup.game}"
    stored = path.read_text(encoding="utf-8")
    fresh = transcript(case)
    if stored == fresh:
        return None
    was = recorded_version(stored)
    if was != game.rules_version:
        return (
            f"{path}: {game.id} rules_version changed ({was} -> {game.rules_version}): "
            f"run {REGENERATE} {case.setup.game}"
        )
    first = next(
        (
            i
            for i, (a, b) in enumerate(zip(stored.splitlines(), fresh.splitlines(), strict=False))
            if a != b
        ),
        min(len(stored.splitlines()), len(fresh.splitlines())),
    )
    return (
        f"{path}: the playthrough changed at line {first + 1} while {game.id}'s rules_version "
        f"is still {game.rules_version}: bump rules_version if the change is meant, then run "
        f"{REGENERATE} {case.setup.game}"
    )


def stale(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Stored transcripts that belong to no case."""
    known = {c.filename for c in cases()}
    return sorted(p for p in directory.glob("*.txt") if p.name not in known)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m deathnote.engine.golden [--write] [--dir DIR] [GAME ...]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    write = "--write" in args
    directory = GOLDEN_DIR
    if "--dir" in args:
        directory = Path(args[args.index("--dir") + 1])
        del args[args.index("--dir") : args.index("--dir") + 2]
    ids = [a for a in args if not a.startswith("-")]
    for game_id in ids:
        get_game(game_id)  # a clear error for an unknown id
    differ = 0
    for case in cases(ids or None):
        if write:
            directory.mkdir(parents=True, exist_ok=True)
            (directory / case.filename).write_text(transcript(case), encoding="utf-8")
            print(f"wrote {directory / case.filename}")
            continue
        problem = compare(case, directory)
        if problem:
            differ += 1
            print(problem)
    if write and not ids:
        for path in stale(directory):
            path.unlink()
            print(f"removed {path} (no such case)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
