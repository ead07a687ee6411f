"""The one random generator of the engine: how matches, games and agents draw.

A match owns one ``random.Random`` seeded with the match seed (Mersenne Twister, CPython's
own). Games draw from the generator the engine hands them, and only through these
functions (or ``rng.random()``), so the draws are defined here and not by CPython's private
helpers: :data:`RNG_VERSION` names this algorithm and is written into every record. A
change to any function here that changes a draw must bump it.

- ``below(rng, n)``: a uniform integer in ``0..n-1``: draw ``n.bit_length()`` random bits,
  retry while the number is ``>= n`` (rejection sampling, no modulo bias).
- ``choice(rng, seq)``: ``seq[below(rng, len(seq))]``; ``choice_each(rng, seqs)``: a
  ``choice`` from each sequence in turn.
- ``shuffle(rng, items)``: Fisher-Yates from the last position down, position ``i``
  swapped with ``below(rng, i + 1)``.
- ``weighted_pick(rng, items, logs)``: one item, with odds proportional to ``exp`` of its
  log-weight: ``rng.choices`` (one ``random()``) over the weights taken from the largest.
- ``agent_rng(seed, seat)``: each agent's own generator, derived from the match seed and
  its seat only, so an agent's draws never depend on the match's.
- ``Scripted``: a generator whose draws through ``below``/``choice``/``shuffle`` (and so
  ``randint``/``sample``) are given from outside, one outcome per draw: research adapters
  use it to turn the game's draws into explicit chance outcomes (OpenSpiel's chance
  nodes). Its other draws (``random()``, ``getrandbits``) come from its own state.

These give the same results as ``random.Random.randrange``/``choice``/``shuffle`` of
CPython 3.11-3.13 for the same generator state (tested), so records made before this
module replay unchanged.

>>> import random
>>> rng = random.Random(7)
>>> cards = list(range(5))
>>> shuffle(rng, cards)
>>> cards == (lambda r, c: (r.shuffle(c), c)[1])(random.Random(7), list(range(5)))
True
"""

from __future__ import annotations

import _random
import math
import random
from collections.abc import MutableSequence, Sequence
from functools import cache
from typing import TypeVar

T = TypeVar("T")

#: The version of the drawing algorithm above; records carry it as ``rng_version``.
RNG_VERSION = 1


_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def new(seed: int) -> random.Random:
    """The match generator for a seed: exactly ``random.Random(seed)`` (for an int seed
    that seeds the C generator directly; done here without the Python-level checks of
    ``Random.seed``, a tenth of the cost of a short simulated game's generators)."""
    if type(seed) is not int:
        return random.Random(seed)
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


def reseed(rng: random.Random, seed: int) -> random.Random:
    """``rng`` (a ``random.Random``) put in the state of ``new(seed)`` for an int seed, and
    returned: the simulator seeds its finished game's generators anew for the next game,
    instead of allocating and clearing a new one (2.5 KB) per game and agent."""
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


def copy(rng: random.Random) -> random.Random:
    """An independent generator in the same state (``Match.fork``): it draws what ``rng``
    would. Made without seeding (``random.Random()`` reads the system's entropy first,
    which is most of the cost of a fork)."""
    twin = random.Random.__new__(random.Random)
    twin.setstate(rng.getstate())
    return twin


class Scripted(random.Random):
    """A generator whose draws of this module take their outcomes from ``outcomes``.

    A draw of ``n`` outcomes (``n`` > 1; a draw of one outcome takes it without asking)
    takes the next scripted outcome; once the script is used up it takes 0 and notes the
    first such draw's ``n`` in ``wanted`` (0 while every draw was scripted). Re-running
    the same transition with one more outcome explores each draw in turn.
    """

    def __init__(self, outcomes: list[int], state: object | None = None) -> None:
        super().__init__(0)
        if state is not None:
            self.setstate(state)  # type: ignore[arg-type]
        self.outcomes = outcomes
        self.used = 0
        self.wanted = 0

    def pick(self, n: int) -> int:
        """The outcome of a draw among ``n``."""
        if n <= 1:
            return 0
        if self.used < len(self.outcomes):
            value = self.outcomes[self.used]
            self.used += 1
            if not 0 <= value < n:
                raise ValueError(f"scripted outcome {value} is not below {n}")
            return value
        if not self.wanted:
            self.wanted = n
        return 0


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``0..n-1`` (``n`` >= 1)."""
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    if type(rng) is Scripted:
        return rng.pick(n)
    k = n.bit_length()
    bits = rng.getrandbits
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """A uniformly chosen item of a non-empty sequence."""
    n = len(seq)
    if not n:
        raise IndexError("cannot choose from an empty sequence")
    if type(rng) is Scripted:
        return seq[rng.pick(n)]
    k = n.bit_length()
    bits = rng.getrandbits
    r = bits(k)
    while r >= n:
        r = bits(k)
    return seq[r]


def choice_each(rng: random.Random, seqs: Sequence[Sequence[T]]) -> list[T]:
    """One item of each sequence, in order: ``[choice(rng, seq) for seq in seqs]`` (the
    same draws; a roll of several dice)."""
    if type(rng) is not random.Random:
        return [choice(rng, seq) for seq in seqs]
    bits = rng.getrandbits
    out = []
    for seq in seqs:
        n = len(seq)
        if not n:
            raise IndexError("cannot choose from an empty sequence")
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        out.append(seq[r])
    return out


def randint(rng: random.Random, low: int, high: int) -> int:
    """A uniform integer in ``low..high`` inclusive."""
    return low + below(rng, high - low + 1)


def shuffle(rng: random.Random, items: MutableSequence[T]) -> None:
    """Shuffle in place (Fisher-Yates from the end)."""
    if type(rng) is Scripted:
        for i, n, _k in swaps(len(items)):
            j = rng.pick(n)
            items[i], items[j] = items[j], items[i]
        return
    bits = rng.getrandbits
    for i, n, k in swaps(len(items)):
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]


def sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    """``k`` distinct items in random order (a shuffled copy, cut)."""
    pool = list(items)
    if not 0 <= k <= len(pool):
        raise ValueError("sample larger than the population")
    shuffle(rng, pool)
    return pool[len(pool) - k :][::-1]


def weighted_pick(rng: random.Random, items: Sequence[T], logs: Sequence[float]) -> T:
    """One of ``items`` drawn with odds proportional to ``exp`` of its log-weight in
    ``logs`` (a search's belief-weighted worlds: ``Game.sample_weighted_state``)."""
    top = max(logs)
    return rng.choices(items, [math.exp(x - top) for x in logs])[0]


@cache
def swaps(size: int) -> tuple[tuple[int, int, int], ...]:
    """For each position a shuffle swaps, from the end: (position, choices, random bits);
    a hot loop that shuffles by hand draws ``below(choices)`` with ``random bits`` for each,
    as ``shuffle`` does."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def agent_rng(seed: int, seat: int) -> random.Random:
    """Each agent's own generator, derived from the match seed and its seat:
    ``random.Random(seed * 1_000_003 + 7919 * (seat + 1))``."""
    return new(agent_seed(seed, seat))


def agent_seed(seed: int, seat: int) -> int:
    """The seed of ``agent_rng(seed, seat)``."""
    return seed * 1_000_003 + 7919 * (seat + 1)
