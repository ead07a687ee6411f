"""Benchmark of views as a game grows: one action plus one view early and late in a game,
and the bytes a server sends each seat over a whole game (``deathnote bench GAME --views``).

Only the public Match API (``submit``, ``view``) and the server's Room are used, so the same code
measures an older checkout too (without ``since`` it measures whole views only).
"""

from __future__ import annotations

import inspect
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from deathnote.agents import RandomAgent
from deathnote.engine.match import Match
from deathnote.engine.rng import agent_rng

MIB = 1024 * 1024


def _random_game(
    game: str, players: int, options: Mapping[str, Any], min_actions: int, seed: int = 1
) -> tuple[int, list[tuple[int, Any]]]:
    """The first seed from ``seed`` on whose random game lasts more than ``min_actions``
    actions, and the game's actions (the loop of ``deathnote.engine.play``, written out so
    that older checkouts run it)."""
    for seed in range(seed, seed + 10_000):  # noqa: B020 (the first seed to try)
        match = Match.create(game, players, seed, dict(options))
        agents = [RandomAgent(s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        while match.outcome() is None:
            seat = min(match.pending())
            agent, legal, rng = agents[seat], match.legal(seat), rngs[seat]
            match.submit(seat, agent.choose(_Obs(seat, legal, rng)))  # type: ignore[arg-type]
        if len(match.actions) > min_actions:
            return seed, list(match.actions)
    raise RuntimeError(f"no random {game} game of more than {min_actions} actions")


class _Obs:
    """A random agent's observation: it never reads the view."""

    def __init__(self, seat: int, legal: Sequence[Any], rng: Any) -> None:
        self.seat, self.legal, self.rng = seat, legal, rng

    @property
    def view(self) -> dict[str, Any]:  # pragma: no cover - random agents never ask
        raise AssertionError("a random agent read its view")


def bench_views(
    game: str,
    players: int,
    options: Mapping[str, Any],
    at: Sequence[int] = (10, 200),
    games: int = 200,
) -> dict[str, Any]:
    """Median microseconds of one action plus the next asked seat's view at each step of
    ``at``, over ``games`` random games that last longer (whole views, deltas ``since``
    the step before, and deltas with a patch of the state, where supported); and the mean
    MiB of views sent to one seat over one such game (one view per seat after every
    action, as the server sends).

    Each game is played as the server plays it, a view for the asked seat after every
    action (no fork, so no copy is timed); at a step of ``at``, the action is timed, then
    the delta view and the whole view of the same moment, in alternating order.
    """
    params = inspect.signature(Match.view).parameters
    incremental = "since" in params
    patches = "patch" in params
    last = max(at)
    modes = ["whole", "delta"] if incremental else ["whole"]
    if patches:
        modes.append("patch")
    samples: dict[tuple[str, int], list[float]] = {(m, k): [] for m in modes for k in at}
    clock = time.perf_counter
    seed = 0
    for number in range(games):
        seed, actions = _random_game(game, players, options, last + 1, seed + 1)
        if number == 0:
            first_seed, first_actions = seed, actions
        match = Match.create(game, players, seed, dict(options))
        for step, (seat, action) in enumerate(actions[: last + 1]):
            start = clock()
            match.submit(seat, action)
            acted = clock() - start
            pending = match.pending()
            viewer = min(pending) if pending else seat
            if step not in at:
                if patches:  # as the server does: every seat's view after every action
                    for other in range(players):
                        match.view(other, since=step, patch=True)
                elif incremental:
                    match.view(viewer, since=step)
                else:
                    match.view(viewer)
                continue
            for mode in modes if number % 2 else reversed(modes):
                start = clock()
                if mode == "whole":
                    match.view(viewer)
                elif mode == "delta":
                    match.view(viewer, since=step)
                else:
                    match.view(viewer, since=step, patch=True)
                samples[mode, step].append(acted + clock() - start)
            if patches:
                for other in range(players):
                    if other != viewer:
                        match.view(other, since=step, patch=True)
    out: dict[str, Any] = {"game": game, "players": players, "games": games}
    for (mode, step), times in samples.items():
        out[f"step_view_us_{mode}_at_{step}"] = round(statistics.median(times) * 1e6, 1)
    out["bytes_seed"], out["actions_in_game"] = first_seed, len(first_actions)
    sent = {mode: [0] * players for mode in modes}
    match = Match.create(game, players, first_seed, dict(options))
    for seat in range(players):
        for mode in modes:
            patch = {"patch": True} if mode == "patch" else {}
            sent[mode][seat] += len(orjson.dumps(match.view(seat, **patch)))
    for step, (seat, action) in enumerate(first_actions):
        match.submit(seat, action)
        for viewer in range(players):
            sent["whole"][viewer] += len(orjson.dumps(match.view(viewer)))
            if incremental:
                delta = match.view(viewer, since=step)
                sent["delta"][viewer] += len(orjson.dumps(delta))
            if patches:
                patched = match.view(viewer, since=step, patch=True)
                sent["patch"][viewer] += len(orjson.dumps(patched))
    for mode in modes:
        out[f"mib_per_seat_{mode}"] = round(statistics.mean(sent[mode]) / MIB, 3)
    out.update(server_bytes(game, players, options, first_seed, first_actions, incremental))
    return out


def server_bytes(
    game: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    actions: Sequence[tuple[int, Any]],
    incremental: bool = True,
) -> dict[str, Any]:
    """Mean MiB of the view messages the server sends one seat's connection over the game,
    as the text it writes: a room of people on a temporary SQLite file, every action
    submitted through the room (checked and stored as from a browser), and after each one
    every seat's message built by the room (``Room.message_for``; the server's writer sends
    one per change, or fewer when changes come faster than it writes). ``whole``: each
    message with the whole view; ``delta``: the server's own messages (the log after the
    step of the message before, and a patch of the state where the server makes them)."""
    import asyncio
    import tempfile
    from pathlib import Path

    try:
        from deathnote.server.rooms import Connection, RoomManager
        from deathnote.server.storage import Storage
    except ImportError:  # pragma: no cover - the server's dependencies are not installed
        return {}

    async def nothing(_message: dict[str, Any]) -> None:  # pragma: no cover - never sent
        return None

    async def run() -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as tmp:
            storage = Storage(str(Path(tmp) / "rooms.db"))
            manager = RoomManager(storage, log=lambda _text: None)
            # A chosen seed needs bots in the other seats; the bots are then sent away,
            # so the game's own actions are submitted as a person's would be.
            bots = [{"kind": "bot", "agent": "random"}] * players
            room = manager.create(game, players, dict(options), bots, seed=seed)
            room.bots.clear()
            modes = ["whole", "delta"] if incremental else ["whole"]
            conns = {m: [Connection("seat", s, nothing) for s in range(players)] for m in modes}
            for mode in modes:
                for conn in conns[mode]:
                    room.attach(conn)
            sent = {mode: [0] * players for mode in modes}
            messages = 0

            def send_all() -> None:
                for mode in modes:
                    for seat, conn in enumerate(conns[mode]):
                        if mode == "whole":
                            conn.sent_step = None  # (ignored by servers without deltas)
                        sent[mode][seat] += len(orjson.dumps(room.message_for(conn)))

            send_all()
            messages += 1
            for seat, action in actions:
                stored = room.submit(seat, action)
                if inspect.isawaitable(stored):  # (a coroutine since storage went off the loop)
                    await stored
                send_all()
                messages += 1
            storage.close()
        out: dict[str, Any] = {"server_messages_per_seat": messages}
        for mode in modes:
            out[f"server_mib_per_seat_{mode}"] = round(statistics.mean(sent[mode]) / MIB, 3)
        return out

    return asyncio.run(run())


if __name__ == "__main__":  # run against any checkout: python viewbench.py tcg 2
    import sys

    games = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    print(orjson.dumps(bench_views(sys.argv[1], int(sys.argv[2]), {}, games=games)).decode())
