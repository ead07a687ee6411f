"""Terminal rendering of views. Generic for every game; a game may add
``deathnote.cli.renderers.<id>`` with ``render(view) -> RenderableType`` for a real board.
Renderers only read the view: they know no rules."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

Renderer = Callable[[dict[str, Any]], RenderableType]


def game_renderer(game_id: str) -> Renderer:
    """The game's own renderer if it has one, else the generic one."""
    try:
        module = importlib.import_module(f"deathnote.cli.renderers.{game_id}")
    except ModuleNotFoundError:
        return render_state
    render: Renderer = module.render
    return render


def render_state(view: dict[str, Any]) -> RenderableType:
    """Generic rendering of the game-specific part of a view."""
    return Pretty(view.get("state", {}), expand_all=False)


def render_log(view: dict[str, Any], last: int = 12) -> RenderableType:
    """The newest log lines this viewer may see."""
    lines = [entry["text"] for entry in view.get("log", [])][-last:]
    return Panel(Text("\n".join(lines) or "(nothing yet)"), title="Log", border_style="dim")


def render_choices(view: dict[str, Any]) -> RenderableType:
    """The viewer's decision and numbered legal actions."""
    decision = view.get("decision")
    table = Table(show_header=False, box=None, padding=(0, 1))
    for i, action in enumerate(view.get("legal", []), start=1):
        table.add_row(f"[bold]{i}[/]", action.get("label") or action["kind"])
    title = decision["prompt"] if decision else "Nothing to decide"
    return Panel(table, title=title, border_style="cyan")


def render_view(view: dict[str, Any]) -> RenderableType:
    """State, log and choices of one viewer."""
    parts: list[RenderableType] = [game_renderer(view["game"])(view), render_log(view)]
    if view.get("outcome"):
        out = view["outcome"]
        winners = ", ".join(out["winners"]) or "nobody"
        names = view.get("seats") or []
        won = [names[s] for s in out.get("winning_seats", []) if 0 <= s < len(names)]
        if won:
            winners += f" ({', '.join(won)})"
        parts.append(Panel(f"{out['reason']}\nWinner: {winners}", title="Game over"))
    elif view.get("legal"):
        parts.append(render_choices(view))
    return Group(*parts)
