"""The benchmark command runs and prints one line per env (figures are not asserted)."""

from __future__ import annotations

import pytest

from deathnote.engine import games
from deathnote.interop.bench import main, pettingzoo_reference


def test_bench_prints_every_game_next_to_the_pettingzoo_reference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--seconds", "0.01", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    if pettingzoo_reference() is None:  # the rl-bench extra is not installed
        assert lines.pop(0).startswith("no PettingZoo classic env installed")
    assert lines.pop(0).split() == ["env", "steps/s", "games", "x", "ref"]
    if pettingzoo_reference() is not None:
        reference = lines.pop(0)
        assert "(PettingZoo" in reference and reference.split()[-1] == "1.00"
    assert [line.split()[0] for line in lines] == sorted(games())


def test_bench_times_by_the_cpu_clock_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    from deathnote.interop.bench import steps_per_second
    from deathnote.interop.pettingzoo import env

    ticks = iter(range(0, 10**6, 1))

    def clock() -> float:  # one "second" per reading: the loop stops after its first game
        return float(next(ticks))

    rate, finished = steps_per_second(lambda: env("confrontation"), 0.5, clock=clock)
    assert finished == 1 and rate > 0
    assert main(["--seconds", "0.01", "--rounds", "1", "--cpu"]) == 0
    assert "confrontation" in capsys.readouterr().out
