"""Plots of a simulation summary (matplotlib, no screen needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_summary(summary: dict[str, Any], path: Path) -> Path:
    """Bar charts of the wins (or mean scores) and the end conditions, saved as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    wins = summary["wins"]
    left.bar(list(wins), list(wins.values()), color="#444")
    left.set_title("wins" if summary.get("win_rates") else "mean score")
    outcomes = summary["outcomes"]
    right.bar(list(outcomes), list(outcomes.values()), color="#a22")
    right.set_title("end conditions")
    right.tick_params(axis="x", labelrotation=30)
    fig.suptitle(
        f"{summary['game']}: {summary['games']} games, seed {summary['seed']}, "
        f"agents {','.join(summary['agents'])}"
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
