"""The view benchmark (``deathnote bench GAME --views``) gives its figures."""

from __future__ import annotations

from deathnote.sim.viewbench import bench_views


def test_view_bench_times_both_modes_and_counts_the_servers_bytes() -> None:
    result = bench_views("tcg", 2, {}, at=(3, 20), games=3)
    for mode in ("whole", "delta"):
        for step in (3, 20):
            assert result[f"step_view_us_{mode}_at_{step}"] > 0
    assert result["server_messages_per_seat"] == result["actions_in_game"] + 1
    # Deltas leave out the log already sent: fewer bytes, in the engine and on the wire.
    assert 0 < result["mib_per_seat_delta"] < result["mib_per_seat_whole"]
    assert 0 < result["server_mib_per_seat_delta"] < result["server_mib_per_seat_whole"]
