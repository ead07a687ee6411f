"""Search bots think in worker processes, so neither the server's event loop nor its GIL
waits for them.

A bot in a worker thread still holds the interpreter lock while it computes: measured with
``deathnote loadtest --rooms 20 --bot-rooms 4`` on 2 cores, four rooms of ``ismcts-hard``
bots in threads took the people's p50 latency from 9.5 ms to 135 ms. Cheap bots (the
heuristics, random) still answer in a thread: they take well under a millisecond and some
keep memory between their moves. A search bot keeps none (each move searches afresh), so
any worker process can make any of its moves.

A worker gets the room's record head and its actions, replays them on the match it keeps
for that room (only the new actions when it has seen the room before), and asks a fresh
agent of the named level with the seat's own observation and generator state; it answers
the action and the generator's new state, which the room keeps for the seat's next move.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import random
import signal
import sys
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from deathnote.agents import observe
from deathnote.engine.actions import Action, Seat
from deathnote.engine.match import Match

#: agents that search (their names start so): these think in a worker process
SEARCH_PREFIX = "ismcts"
#: matches a worker keeps (one per room it played for recently)
KEPT = 32
#: prctl's option: the signal a process gets when its parent ends (linux/prctl.h)
PR_SET_PDEATHSIG = 1
#: how much nicer than the server a worker runs: when the cores are busy the scheduler
#: gives the event loop (people's actions) the CPU first, and a bot with a time budget
#: thinks less rather than making anyone wait (Linux: weight 1024 against 110 at 10)
WORKER_NICENESS = 10

_kept: OrderedDict[str, Match] = OrderedDict()


def searches(agent: str) -> bool:
    """Whether this bot level searches (and so thinks in a worker process)."""
    return agent.startswith(SEARCH_PREFIX)


def default_workers() -> int:
    """One worker process per core but one (the server's own), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def _match_for(room: str, head: Mapping[str, Any], actions: list[list[Any]]) -> Match:
    """The room's match at the end of ``actions``: the kept one moved on, or a new replay."""
    match = _kept.pop(room, None)
    if match is not None:
        seen = len(match.actions)
        same = seen <= len(actions) and all(
            [s, a.to_json()] == actions[i] for i, (s, a) in enumerate(match.actions)
        )
        if not same:
            match = None
    if match is None:
        match = Match.create(head["game"], head["players"], head["seed"], head["options"])
    for seat, action in actions[len(match.actions) :]:
        match.submit(int(seat), Action.from_json(action))
    _kept[room] = match
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return match


def _start_worker() -> None:
    """In a new worker: yield the CPU to the server (``WORKER_NICENESS``), and follow the
    server out."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(WORKER_NICENESS)
    _follow_parent()


def _follow_parent() -> None:
    """In a worker, on Linux: end when the server ends, even killed with SIGKILL (no
    worker is left thinking for a dead server)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the server died before the line above ran
        os._exit(0)


def think(
    room: str,
    head: Mapping[str, Any],
    actions: list[list[Any]],
    seat: Seat,
    agent: str,
    rng_state: Any,
    memory: Any = None,
) -> tuple[dict[str, Any], Any, Any]:
    """In a worker: the action the bot ``agent`` in ``seat`` chooses, its rng's state, and
    what the bot carries to its next move (``memory``: what the last one carried)."""
    from deathnote.agents import make_agent

    match = _match_for(room, head, actions)
    rng = random.Random()
    rng.setstate(rng_state)
    bot = make_agent(head["game"], agent, seat)
    if memory is not None:
        bot.recall(memory)
    chosen = bot.choose(observe(match, seat, rng))
    return chosen.to_json(), rng.getstate(), bot.memory()


class BotPool:
    """The worker processes of one server (started on the first search bot's move)."""

    def __init__(self, workers: int | None = None) -> None:
        #: 0: no worker process (search bots think in threads, holding the lock)
        self.workers = default_workers() if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Not forked from a server with threads running: a fresh interpreter per worker,
            # the server's own child (so it can follow its parent out, below).
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker
            )
        return self._pool

    async def choose(
        self,
        room: str,
        match: Match,
        seat: Seat,
        agent: str,
        rng: random.Random,
        memory: Any = None,
    ) -> tuple[Action, Any]:
        """The bot's action, computed in a worker (``rng`` moves on as if it ran here), and
        the bot's memory to hand its next move (``Agent.memory``)."""
        head = {
            "game": match.game.id,
            "players": match.players,
            "seed": match.seed,
            "options": match.options,
        }
        actions = [[s, a.to_json()] for s, a in match.actions]
        loop = asyncio.get_running_loop()
        action, state, kept = await loop.run_in_executor(
            self._executor(), think, room, head, actions, seat, agent, rng.getstate(), memory
        )
        rng.setstate(state)
        return Action.from_json(action), kept

    def close(self) -> None:
        """Stop the workers (server shutdown): queued moves are dropped, a move being
        thought is waited for (at most one bot's budget), so the workers end cleanly and
        leave no semaphore behind."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
