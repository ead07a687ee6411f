"""The in-memory moving-window limiter (``server.ratelimit``) answers as ``limits`` does."""

from __future__ import annotations

import asyncio

from limits import parse
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

from deathnote.server import ratelimit
from deathnote.server.ratelimit import LocalMovingWindow


class Clock:
    """A wall clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_key_gets_its_amount_per_window_and_more_as_the_window_moves() -> None:
    clock = Clock()
    limiter = LocalMovingWindow(clock)
    rate = parse("3/minute")

    async def play() -> list[bool]:
        told = []
        for at in (0, 10, 20, 30, 59.9, 60.0, 60.5, 70.0, 70.1):
            clock.now = 1000.0 + at
            told.append(await limiter.hit(rate, "connects", "1.2.3.4"))
        return told

    # The first hit leaves the window at 60 s (a hit exactly 60 s old no longer counts),
    # the second at 70 s.
    assert asyncio.run(play()) == [True, True, True, False, False, True, False, True, False]


def test_the_reset_time_is_when_the_oldest_hit_leaves_the_window() -> None:
    clock = Clock()
    limiter = LocalMovingWindow(clock)
    rate = parse("2/minute")

    async def play() -> tuple[ratelimit.WindowStats, ratelimit.WindowStats]:
        empty = await limiter.get_window_stats(rate, "rooms", "a")
        await limiter.hit(rate, "rooms", "a")
        clock.now += 5
        await limiter.hit(rate, "rooms", "a")
        return empty, await limiter.get_window_stats(rate, "rooms", "a")

    empty, full = asyncio.run(play())
    assert empty == (1060.0, 2)
    assert full == (1060.0, 0)


def test_addresses_and_kinds_are_counted_apart() -> None:
    limiter = LocalMovingWindow(Clock())
    rate = parse("1/minute")

    async def play() -> list[bool]:
        return [
            await limiter.hit(rate, "rooms", "a"),
            await limiter.hit(rate, "rooms", "b"),
            await limiter.hit(rate, "connects", "a"),
            await limiter.hit(rate, "rooms", "a"),
        ]

    assert asyncio.run(play()) == [True, True, True, False]


def test_keys_whose_window_emptied_are_swept() -> None:
    clock = Clock()
    limiter = LocalMovingWindow(clock)
    rate = parse("5/second")

    async def play() -> int:
        for n in range(ratelimit.SWEEP_EVERY - 1):
            await limiter.hit(rate, "connects", f"10.0.{n // 256}.{n % 256}")
        held = limiter.keys()
        clock.now += 2  # every window is empty now
        await limiter.hit(rate, "connects", "the next")  # the sweep's turn
        return held

    assert asyncio.run(play()) == ratelimit.SWEEP_EVERY - 1
    assert limiter.keys() == 1  # only the key just hit


def test_the_same_answers_as_the_limits_library_in_memory() -> None:
    clock = Clock()
    ours = LocalMovingWindow(clock)
    theirs = MovingWindowRateLimiter(MemoryStorage())
    rate = parse("4/second")

    async def play() -> tuple[list[bool], list[bool]]:
        a, b = [], []
        for _ in range(10):
            a.append(await ours.hit(rate, "rooms", "x"))
            b.append(await theirs.hit(rate, "rooms", "x"))
        return a, b

    a, b = asyncio.run(play())
    assert a == b == [True] * 4 + [False] * 6
