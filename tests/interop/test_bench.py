"""The benchmark command runs and prints one line per env (measured figures are not asserted)."""

from __future__ import annotations

from typing import Any

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


def test_the_ratio_is_the_median_of_each_rounds_own_ratio(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each env's ratio to the reference is taken within a round (the two measured one
    after the other) and the median of the rounds' ratios is printed: the reference's own
    swing between rounds does not move it, as it would a ratio of two best rounds (here
    30000 / 2000 = 15)."""
    from deathnote.interop import bench

    monkeypatch.setattr(bench, "pettingzoo_reference", lambda: ("ref (PettingZoo)", lambda: "ref"))

    def fake(make: Any, seconds: float, seed: int = 0, clock: Any = None) -> tuple[float, int]:
        if make() == "ref":
            return ([1000.0, 2000.0, 1000.0][seed], 1)
        return ([10000.0, 10000.0, 30000.0][seed], 1)

    monkeypatch.setattr(bench, "steps_per_second", fake)
    assert bench.main(["--rounds", "3"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()}
    assert rows["ref"][-3:] == ["2000", "1", "1.00"]
    assert rows["confrontation"][-3:] == ["30000", "1", "10.00"]  # median of 10, 5, 30
