"""Terminal board of the Death Note TCG, drawn from a view only (no rules here)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text


def _special(fc: dict[str, Any]) -> str:
    special = fc.get("special")
    if not special:
        return ""
    card = special.get("card")
    if special["face_up"]:
        return f"{card['name']} — {card['title']}" if card else "?"
    if card:
        return f"(face down) {card['name']} — {card['title']}"
    return "(face-down Special)"


def _field(side: dict[str, Any]) -> RenderableType:
    if not side["field"]:
        return Text("(no Characters)", style="dim")
    table = Table(box=None, padding=(0, 1), show_header=True, header_style="dim")
    for column in ("Character", "state", "Work", "Special"):
        table.add_column(column)
    for fc in side["field"]:
        if not fc["face_up"]:
            state = "[dim]face down[/]"
        else:
            state = "upright" if fc["upright"] else "[yellow]sideways[/]"
        table.add_row(fc["name"], state, str(fc.get("points", "")), _special(fc))
    return table


def _side(view: dict[str, Any], seat: int) -> RenderableType:
    state = view["state"]
    side = state["players"][seat]
    name = view["seats"][seat] if seat < len(view.get("seats", [])) else f"Player {seat + 1}"
    marker = " (to play)" if state["current"] == seat else ""
    order = "first" if state["first"] == seat else "second"
    header = Text.assemble(
        (f"{name}{marker}", "bold"),
        f"  {side['deck']} deck  {side['points']}/{state['win_points']} points  deck {side['deck_count']}"
        f"  hand {side['hand_count']}  discard {len(side['discard'])}"
        f"  Kira card: {side['kira_card']}  ({order})",
    )
    parts: list[RenderableType] = [header, _field(side)]
    if side.get("mark"):
        parts.append(Text(f"Your Death Note page: {side['mark']}", style="red"))
    if "hand" in side:
        hand = Table(box=None, padding=(0, 1), show_header=False)
        for card in side["hand"]:
            kind = card["kind"]
            title = f" — {card['title']}" if card.get("title") else ""
            cost = f"cost {card['cost']}" if kind != "special" else "no cost"
            hand.add_row(f"{card['name']}{title}", kind, cost, Text(card["text"], style="dim"))
        mine = view.get("viewer") == seat
        parts.append(
            Panel(hand, title="Your hand" if mine else f"{name}'s hand", border_style="dim")
        )
    style = "cyan" if view.get("viewer") == seat else "white"
    return Panel(Group(*parts), border_style=style)


def render(view: dict[str, Any]) -> RenderableType:
    """Both sides, the turn and the phase."""
    state = view["state"]
    viewer = view.get("viewer")
    order = [1 - viewer, viewer] if isinstance(viewer, int) else [0, 1]
    title = Text(f"Turn {state['turn']} — {state['phase']} phase", style="bold")
    return Group(title, *(_side(view, seat) for seat in order))
