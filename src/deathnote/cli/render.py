"""Terminal rendering of views. Generic for every game; a game may add
``deathnote.cli.renderers.<id>`` with ``render(view) -> RenderableType`` for a real board
(and optionally ``out_of_game(view) -> bool``: whether the viewer's seat is out).
Renderers only read the view: they know no rules."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from deathnote.cli.menu import BOARD_WORDS, board_token, menu_keys

Renderer = Callable[[dict[str, Any]], RenderableType]
BOARD_PREFIX = re.compile(rf"^.*?\b(?:{BOARD_WORDS})\s+(?:\d+|[A-Z])\b", re.IGNORECASE)


def _module(game_id: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"deathnote.cli.renderers.{game_id}")
    except ModuleNotFoundError:
        return None


def game_renderer(game_id: str) -> Renderer:
    """The game's own renderer if it has one, else the generic one."""
    module = _module(game_id)
    if module is None:
        return render_state
    render: Renderer = module.render
    return render


def out_of_game(view: dict[str, Any]) -> bool:
    """Whether the viewer's seat is out of the game (dead, eliminated), as its board shows."""
    module = _module(view["game"])
    check = getattr(module, "out_of_game", None) if module else None
    return bool(check(view)) if check else False


def render_state(view: dict[str, Any]) -> RenderableType:
    """Generic rendering of the game-specific part of a view."""
    return Pretty(view.get("state", {}), expand_all=False)


def render_log(view: dict[str, Any], since: int | None = None) -> RenderableType:
    """The log entries after the first ``since`` (all of them: nothing is cut)."""
    entries = view.get("log", [])
    start = 0 if since is None else max(0, min(since, len(entries)))
    lines = [entry["text"] for entry in entries[start:]]
    if since is None:
        title = "Log"
        empty = "(nothing yet)"
    else:
        title = "Since your last move" if since else "What happened"
        empty = "(nothing new)"
    return Panel(Text("\n".join(lines) or empty), title=title, border_style="dim")


def render_choices(view: dict[str, Any], keys: Sequence[str] | None = None) -> RenderableType:
    """The viewer's decision and its legal actions, each with the key that picks it."""
    decision = view.get("decision")
    legal = view.get("legal", [])
    labels = [action.get("label") or action["kind"] for action in legal]
    keys = list(keys) if keys is not None else menu_keys(labels)
    title = decision["prompt"] if decision else "Nothing to decide"
    if len(labels) > 8:
        # Long lists go in columns; where the key is the board's own number the label
        # drops the words that repeat it ("[34] Criminal 34 (Shooter)" -> "[34] (Shooter)").
        items = [
            Text.assemble((f"[{key}] ", "bold"), _short_label(label, key))
            for key, label in zip(keys, labels, strict=True)
        ]
        return Panel(Columns(items, padding=(0, 2)), title=title, border_style="cyan")
    table = Table(show_header=False, box=None, padding=(0, 1))
    for key, label in zip(keys, labels, strict=True):
        table.add_row(f"[bold]\\[{key}][/]", label)
    return Panel(table, title=title, border_style="cyan")


def _short_label(label: str, key: str) -> str:
    token = board_token(label)
    if token is None or token != key.upper():
        return label
    short = BOARD_PREFIX.sub("", label, count=1).strip()
    return short or label


def winners_text(view: dict[str, Any]) -> str:
    """Who won, by seat name (never an internal team id); a game's renderer may say it
    its own way with ``outcome_text(view)``."""
    module = _module(view["game"])
    own = getattr(module, "outcome_text", None) if module else None
    if own is not None:
        text: str = own(view)
        return text
    out = view["outcome"]
    names = view.get("seats") or []
    won = [names[s] for s in out.get("winning_seats", []) if 0 <= s < len(names)]
    lines = [out["reason"]]
    if won:
        lines.append(("Winner: " if len(won) == 1 else "Winners: ") + ", ".join(won))
    elif not out.get("scores"):
        lines.append("Nobody wins.")
    scores = out.get("scores") or {}
    if scores and not won:
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        lines.append("Scores: " + ", ".join(f"{k} {v:g}" for k, v in ranked))
    return "\n".join(lines)


def render_view(view: dict[str, Any], since: int | None = None) -> RenderableType:
    """State, log (after ``since`` entries, or all) and choices, or the end, of one viewer."""
    # The log comes first, so the board and the decision stay together at the bottom;
    # with nothing new since the player's last move it is left out.
    parts: list[RenderableType] = []
    if since is None or since < len(view.get("log", [])):
        parts.append(render_log(view, since))
    parts.append(game_renderer(view["game"])(view))
    if view.get("outcome"):
        parts.append(Panel(winners_text(view), title="Game over", border_style="yellow"))
    elif view.get("legal"):
        parts.append(render_choices(view))
    return Group(*parts)
