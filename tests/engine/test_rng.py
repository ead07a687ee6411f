"""The engine's generator draws exactly as documented (and as CPython's Random does)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from deathnote.engine import rng as drng


@given(st.integers(0, 2**32), st.integers(1, 60))
def test_shuffle_choice_below_match_cpython(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    items = list(range(size))
    expected = list(items)
    drng.shuffle(ours, items)
    theirs.shuffle(expected)
    assert items == expected
    assert drng.choice(ours, "abcdefg") == theirs.choice("abcdefg")
    assert drng.below(ours, size) == theirs.randrange(size)
    assert drng.randint(ours, 3, 3 + size) == theirs.randint(3, 3 + size)


@given(st.integers(0, 2**32), st.lists(st.integers(1, 40), max_size=6))
def test_choice_each_is_a_choice_from_each_in_turn(seed: int, sizes: list[int]) -> None:
    seqs = [list(range(size)) for size in sizes]
    ours, theirs = random.Random(seed), random.Random(seed)
    assert drng.choice_each(ours, seqs) == [theirs.choice(seq) for seq in seqs]
    assert ours.getstate() == theirs.getstate()
    scripted = drng.Scripted([1, 0, 2])
    assert drng.choice_each(scripted, ["ab", "cd", "efg"]) == ["b", "c", "g"]


@given(st.integers(0, 2**70), st.integers(0, 2**40))
def test_reseed_gives_the_generator_new_gives(seed: int, before: int) -> None:
    used = drng.new(before)
    used.random(), used.gauss(0, 1)  # a drawn generator, with a gauss value kept
    again = drng.reseed(used, seed)
    assert again is used and again.getstate() == drng.new(seed).getstate()
    assert drng.reseed(used, drng.agent_seed(seed, 1)).getstate() == (
        drng.agent_rng(seed, 1).getstate()
    )


def test_sample_is_distinct_and_seeded() -> None:
    a = drng.sample(random.Random(1), range(10), 4)
    assert a == drng.sample(random.Random(1), range(10), 4)
    assert len(set(a)) == 4


def test_agent_rng_depends_on_seed_and_seat_only() -> None:
    assert drng.agent_rng(5, 1).random() == drng.agent_rng(5, 1).random()
    assert drng.agent_rng(5, 1).random() != drng.agent_rng(5, 0).random()


def test_copy_draws_the_same_and_is_independent() -> None:
    original = drng.new(7)
    original.random()
    twin = drng.copy(original)
    assert [twin.random() for _ in range(5)] == [original.random() for _ in range(5)]
    twin.random()  # the copy moves on alone
    assert twin.getstate() != original.getstate()
    assert drng.copy(twin).getstate() == twin.getstate()


@given(st.integers(-(2**80), 2**80))
def test_new_and_agent_rng_are_exactly_cpythons_random(seed: int) -> None:
    """``new`` seeds the C generator directly: the same state as ``random.Random(seed)``,
    including the Gaussian cache, so records and agents draw as before."""
    assert drng.new(seed).getstate() == random.Random(seed).getstate()
    for seat in (0, 1, 7):
        expected = random.Random(seed * 1_000_003 + 7919 * (seat + 1))
        assert drng.agent_rng(seed, seat).getstate() == expected.getstate()
    ours, theirs = drng.new(seed), random.Random(seed)
    assert [ours.gauss(0, 1) for _ in range(3)] == [theirs.gauss(0, 1) for _ in range(3)]
