"""Terminal board of Confrontation, drawn from the view only (no rules here)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

TYPE_STYLE = {"knife": "cyan", "gun": "yellow", "bomb": "red"}
TYPE_MARK = {"knife": "k", "gun": "g", "bomb": "b"}
TYPE_NAME = {"knife": "Stabber", "gun": "Shooter", "bomb": "Bomber"}
AREA = "░"  # marks the Local Area without colour (NO_COLOR) as well as with it
CELL = 5  # characters per Map cell: "17k*" and "X17" fit with a space between cells


def render(view: dict[str, Any]) -> RenderableType:
    """The Map as a grid with a legend, plus the status lines and the viewer's notebook."""
    state = view["state"]
    board = state["map"]
    notebook = state.get("notebook") or {}
    news = set(state.get("news", []))
    area: dict[str, int] = notebook.get("local_area") or {"x0": -1, "y0": -1, "x1": -2, "y1": -2}
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    for k in board["criminals"]:
        if k["killed"]:
            cells[(k["x"], k["y"])] = (f"X{k['number']}", "bold white on red")
        else:
            mark = "*" if k["number"] in news else ""
            style = TYPE_STYLE[k["type"]] + (" reverse" if mark else "")
            cells[(k["x"], k["y"])] = (f"{k['number']}{TYPE_MARK[k['type']]}{mark}", style)
    status: dict[str, str] = {}
    for s in notebook.get("suspects", []):
        status[s["letter"]] = s["status"]
    for s in board["suspects"]:
        eliminated = status.get(s["letter"]) == "eliminated"
        mine = notebook.get("identity") == s["letter"]
        style = "dim strike" if eliminated else ("bold black on green" if mine else "bold magenta")
        label = f"({s['letter']})" if eliminated else f"[{s['letter']}]"
        cells[(s["x"], s["y"])] = (label, style)
    grid = Text()
    grid.append("   " + "".join(str(x).center(CELL) for x in range(board["width"])) + "\n", "dim")
    for y in range(board["height"]):
        grid.append(f"{y:>3}", style="dim")
        for x in range(board["width"]):
            inside = area["x0"] <= x <= area["x1"] and area["y0"] <= y <= area["y1"]
            text, style = cells.get((x, y), ("·", "dim"))
            pad = AREA if inside else " "
            body = text.ljust(CELL - 1) if text.endswith("*") else text.rjust(CELL - 2) + " "
            body = body[: CELL - 1].ljust(CELL - 1)
            grid.append(pad, style="grey50" if inside else "")
            grid.append(body, style=style + (" on grey15" if inside else ""))
        grid.append("\n")
    screen = view.get("screen") or {}
    compact = screen.get("height", 100) < 34
    grid.append_text(_legend(bool(notebook.get("local_area")), bool(news), compact))
    title = f"Chapter {state['chapter']} Map, day {state['day']}"
    if compact:
        # A short terminal (80x24): the Map without a frame and a two-line summary, so the
        # whole board and the decision stay on one screen.
        return Group(Text(title, style="bold"), grid, _summary(state, notebook))
    board_panel = Panel(grid, title=title)
    side: list[RenderableType] = [_status(state)]
    if notebook:
        side.append(_notebook(notebook))
    if screen.get("width", 0) >= 130:
        layout = Table.grid(padding=(0, 1))
        layout.add_row(board_panel, Group(*side))
        return layout
    return Group(board_panel, *side)


def _summary(state: dict[str, Any], nb: dict[str, Any]) -> Text:
    """The Table and the notebook in two lines, for short terminals."""
    line = [
        f"Kira {state['kira_points']}/{state['target_points']} points",
        f"Quiet Nights {state['quiet_nights']}/{state['quiet_allowed']}",
    ]
    lead = state.get("lead")
    if lead:
        line.append(
            f"Lead {lead['number']}: "
            + ", ".join(
                f"{side} {_type(lead[side]['type'])} {lead[side]['points']}" for side in ("A", "B")
            )
        )
    if state["dice"]:
        line.append("Dice " + ", ".join(_type(face) for face in state["dice"]))
    if state["news"]:
        line.append("News " + ", ".join(map(str, state["news"])))
    second = []
    if nb.get("role") == "kira":
        second.append(f"You are Suspect {nb['identity']}")
        second.append(f"Regional kills left {nb['regional_left']}")
    elif nb:
        second.append("Remaining " + " ".join(nb["remaining"]))
    return Text("  |  ".join(line) + ("\n" + "  |  ".join(second) if second else ""))


def _type(face: str) -> str:
    """A crime type or die face as the rulebook names it."""
    return TYPE_NAME.get(face, "any type" if face == "any" else face)


def plural(count: int, noun: str) -> str:
    """ "1 point", "2 points"."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _legend(area: bool, news: bool, short: bool = False) -> Text:
    """What the marks on the Map mean (in words, so it reads without colour too)."""
    parts = [f"{TYPE_MARK[t]} {TYPE_NAME[t]}" for t in ("knife", "gun", "bomb")]
    if short:
        parts += ["X killed", "[J] Suspect", "(J) out"]
        parts += ["* News"] if news else []
        parts += [f"{AREA} your area"] if area else []
    else:
        parts = [f"{TYPE_MARK[t]} = {TYPE_NAME[t]}" for t in ("knife", "gun", "bomb")]
        parts += ["X17 = criminal 17 killed", "[J] = Suspect J", "(J) = eliminated"]
        parts += ["* = on tonight's News"] if news else []
        parts += [f"{AREA} = your Local Area"] if area else []
    return Text("  ".join(parts), style="dim")


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
                f"{side}: {_type(lead[side]['type'])}, {plural(lead[side]['points'], 'point')}"
                + (f", {plural(lead[side]['apples'], 'Apple')}" if lead[side]["apples"] else "")
                for side in ("A", "B")
            ),
        )
    revealed = state["chase"]["revealed"]
    if revealed:
        table.add_row("Chase", f"Kira {revealed['kira']}, L {revealed['l']}")
    if state["dice"]:
        table.add_row("Dice", ", ".join(_type(face) for face in state["dice"]))
    if state["news"] or state["news_faces_left"]:
        table.add_row(
            "News",
            ", ".join(map(str, state["news"]))
            + f"  (to fill: {', '.join(_type(f) for f in state['news_faces_left'])})",
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
            "Points by type",
            ", ".join(f"{_type(k)} {v}" for k, v in nb["points_by_type"].items()),
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
