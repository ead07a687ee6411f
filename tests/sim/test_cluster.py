"""``simulate --cluster``: the same batch on a Dask cluster gives the local summary."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from deathnote.cli.app import app
from deathnote.engine.errors import DeathNoteError
from deathnote.sim import runner
from deathnote.sim.runner import Batch, simulate
from tests.sim.test_jobs import one_after_another

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A real cluster on 127.0.0.1: a scheduler and two single-threaded worker processes."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",  # the HTTP endpoint on a free local port
        silence_logs=40,
    ) as cluster:
        yield cluster.scheduler_address


@pytest.mark.parametrize(
    "batch",
    [
        Batch("confrontation", 2, ("heuristic", "random")),
        Batch("icg", 4, ("random",) * 4, {"rules": "kira"}),
    ],
)
def test_a_cluster_gives_the_summary_of_the_local_run(scheduler: str, batch: Batch) -> None:
    games = 70
    expected = one_after_another(batch, games, seed=5)
    counted: list[int] = []
    result = simulate(batch, games, seed=5, progress=counted.append, cluster=scheduler)
    assert {**result, "seconds": 0.0} == expected
    assert sum(counted) == games


def test_the_command_line_reaches_the_cluster(scheduler: str) -> None:
    local = CliRunner().invoke(app, ["simulate", "werewolf", "--games", "40", "--json"])
    remote = CliRunner().invoke(
        app, ["simulate", "werewolf", "--games", "40", "--json", "--cluster", scheduler]
    )
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    drop = lambda text: [line for line in text.splitlines() if '"seconds"' not in line]  # noqa: E731
    assert drop(remote.output) == drop(local.output)


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "CLUSTER_CONNECT_SECONDS", 1.0)
    batch = Batch("confrontation", 2, ("random", "random"))
    with pytest.raises(
        DeathNoteError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"
    ):
        simulate(batch, 10, seed=1, cluster="tcp://127.0.0.1:9")
