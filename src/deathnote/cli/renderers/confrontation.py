"""Terminal board of Confrontation, drawn from the view only (no rules here)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

TYPE_STYLE = {"knife": "cyan", "gun": "yellow", "bomb": "red"}
TYPE_MARK = {"knife": "k", "gun": "g", "bomb": "b"}


def render(view: dict[str, Any]) -> RenderableType:
    """The Map as a grid plus the status lines and the viewer's notebook."""
    state = view["state"]
    board = state["map"]
    notebook = state.get("notebook") or {}
    cells: dict[tuple[int, int], Text] = {}
    news = set(state.get("news", []))
    for k in board["criminals"]:
        label = f"{k['number']:>2}{TYPE_MARK[k['type']]}"
        if k["killed"]:
            cells[(k["x"], k["y"])] = Text(
                f" X{k['number']:<2}"[:3].rjust(3), style="bold white on red"
            )
        else:
            style = TYPE_STYLE[k["type"]] + (" reverse" if k["number"] in news else "")
            cells[(k["x"], k["y"])] = Text(label, style=style)
    status: dict[str, str] = {}
    for s in notebook.get("suspects", []):
        status[s["letter"]] = s["status"]
    for s in board["suspects"]:
        eliminated = status.get(s["letter"]) == "eliminated"
        mine = notebook.get("identity") == s["letter"]
        style = "dim strike" if eliminated else ("bold black on green" if mine else "bold magenta")
        cells[(s["x"], s["y"])] = Text(f"[{s['letter']}]", style=style)
    area: dict[str, int] = notebook.get("local_area") or {"x0": -1, "y0": -1, "x1": -2, "y1": -2}
    grid = Text()
    grid.append("    " + "".join(f"{x:>3}" for x in range(board["width"])) + "\n", style="dim")
    for y in range(board["height"]):
        grid.append(f"{y:>3} ", style="dim")
        for x in range(board["width"]):
            inside = area["x0"] <= x <= area["x1"] and area["y0"] <= y <= area["y1"]
            cell = cells.get((x, y))
            if cell is None:
                grid.append(" · ", style="on grey15" if inside else "dim")
            else:
                if inside:
                    cell = cell.copy()
                    cell.stylize("on grey15")
                grid.append_text(cell)
        grid.append("\n")
    parts: list[RenderableType] = [
        Panel(grid, title=f"Chapter {state['chapter']} Map, day {state['day']}")
    ]
    parts.append(_status(state))
    if notebook:
        parts.append(_notebook(notebook))
    return Group(*parts)


def _status(state: dict[str, Any]) -> RenderableType:
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_row("Kira's points", f"{state['kira_points']} / {state['target_points']}")
    table.add_row(
        "Quiet Nights", f"{state['quiet_nights']} (L can afford {state['quiet_allowed']})"
    )
    lead = state.get("lead")
    if lead:
        table.add_row(
            f"Lead {lead['number']}",
            "  ".join(
                f"{side}: {lead[side]['type']} {lead[side]['points']} pts"
                + (f", {lead[side]['apples']} apples" if lead[side]["apples"] else "")
                for side in ("A", "B")
            ),
        )
    revealed = state["chase"]["revealed"]
    if revealed:
        table.add_row("Chase", f"Kira {revealed['kira']}, L {revealed['l']}")
    if state["dice"]:
        table.add_row("Dice", ", ".join(state["dice"]))
    if state["news"] or state["news_faces_left"]:
        table.add_row(
            "News",
            ", ".join(map(str, state["news"]))
            + f"  (to fill: {', '.join(state['news_faces_left'])})",
        )
    table.add_row(
        "Suspect cards", f"{state['suspect_cards_drawn']} drawn, {state['suspect_cards_left']} left"
    )
    if state.get("identity"):
        table.add_row("Kira was", f"Suspect {state['identity']}")
    return Panel(table, title="Table", border_style="blue")


def _notebook(nb: dict[str, Any]) -> RenderableType:
    table = Table(show_header=False, box=None, padding=(0, 1))
    if nb["role"] == "kira":
        table.add_row(
            "You are", f"Suspect {nb['identity']} (Home {nb['home']['x']},{nb['home']['y']})"
        )
        table.add_row("Local criminals", ", ".join(map(str, nb["local_criminals"])) or "none")
        table.add_row(
            "Regional kills",
            f"{nb['regional_used']} used ({', '.join(map(str, nb['regional_kills'])) or '-'}), {nb['regional_left']} left",
        )
        table.add_row(
            "Points by type", ", ".join(f"{k} {v}" for k, v in nb["points_by_type"].items())
        )
        tracker = nb.get("ryuk")
    else:
        table.add_row("Remaining", " ".join(nb["remaining"]))
        gone = [
            f"{s['letter']}({s['reason']})" for s in nb["suspects"] if s["status"] == "eliminated"
        ]
        table.add_row("Eliminated", " ".join(gone) or "none")
        tracker = nb.get("intel")
    if tracker:
        for i, row in enumerate(tracker["rows"]):
            mark = "used" if row["used"] else ("READY" if row["complete"] else "")
            table.add_row(f"Row {i + 1}", f"{row['label']}: {row['filled']}/{row['cost']} {mark}")
    return Panel(
        table, title=f"{'Kira' if nb['role'] == 'kira' else 'L'}'s notebook", border_style="green"
    )
