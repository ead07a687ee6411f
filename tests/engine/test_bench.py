"""The fork and sample benchmark runs and measures a state from the middle of a game."""

from __future__ import annotations

from deathnote.engine import bench
from deathnote.engine.conformance import Setup


def test_bench_measures_a_mid_game_state(capsys) -> None:  # type: ignore[no-untyped-def]
    setup = Setup("confrontation", 2)
    whole = bench.mid_game(setup, 1)
    assert whole.outcome() is None and len(whole.actions) > 0
    figures = bench.measure(setup, seeds=[1], repeat=3)
    assert figures.label == "confrontation-2p" and figures.actions == len(whole.actions)
    assert min(figures.fork, figures.fork_state, figures.sample_seat) > 0
    assert bench.main(["confrontation", "--repeat", "2", "--seeds", "1"]) == 0
    out = capsys.readouterr().out
    assert "confrontation-chapter=2-2p" in out and "median us" in out
