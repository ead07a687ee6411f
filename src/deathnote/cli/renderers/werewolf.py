"""Terminal table of Death Note Werewolf, drawn from a view only (no rules here)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

ROLE_NAMES = {
    "kira": "Kira",
    "worshipper": "Worshipper",
    "l": "L",
    "police": "Police",
    "watari": "Watari",
}


def _names(st: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: f"{c['number']} {c['name']}" for c in st["card_list"]}


def render(view: dict[str, Any]) -> RenderableType:
    """The table, the piles, and the viewer's own Role, hand and private knowledge."""
    st = view["state"]
    names = _names(st)
    phase = "Judgment (eyes closed)" if st["phase"] == "judgment" else "Investigation"
    head = Text(
        f"{phase} - Judgments so far: {st['judgments']} - turns left this phase: "
        f"{st['turns_left']} - deck: {st['deck']} card{'' if st['deck'] == 1 else 's'}"
    )
    me = st.get("me")
    known = {int(k): v for k, v in (me or {}).get("known_roles", {}).items()}
    table = Table("Seat", "Role", "", "Hand", "", box=None)
    for x in st["seats"]:
        name = view["seats"][x["seat"]]
        role = x["role"] or known.get(x["seat"])
        label = ROLE_NAMES.get(role, "?") if role else "?"
        if x["role"] is None and role:
            label += " (you know)"
        marks = []
        if x["first"]:
            marks.append("first player")
        if x["current"]:
            marks.append("turn")
        if me and x["seat"] == me["seat"]:
            marks.append("you")
        table.add_row(
            name,
            label,
            "" if x["alive"] else "[red]dead[/]",
            str(x["hand_size"]),
            ", ".join(marks),
        )
    discard = ", ".join(names[c] for c in st["discard"][-8:]) or "empty"
    parts: list[RenderableType] = [
        head,
        table,
        Text(f"Discard pile (newest last): {discard}"),
    ]
    if st["removed"]:
        parts.append(Text(f"Out of the game: {', '.join(names[c] for c in st['removed'])}"))
    if me:
        lines = [f"You are {me['role_name']} ({'Kira' if me['team'] == 'kira' else 'L'} team)."]
        lines.append(f"  {me['text']}")
        lines.append("Your hand: " + ", ".join(f"{c['number']} {c['name']}" for c in me["hand"]))
        for c in me["hand"]:
            lines.append(f"  {c['number']} {c['name']}: {c['text']}")
        for seat, hand in me["seen_hands"].items():
            seen = ", ".join(names[c] for c in hand)
            lines.append(f"You saw {view['seats'][int(seat)]}'s hand: {seen}")
        if "took" in me:
            lines.append(f"You took {names[me['took']]}.")
        if "suggested" in me:
            s = me["suggested"]
            who = "no one" if s < 0 else view["seats"][s]
            lines.append(f"The Worshipper points at {who}.")
        parts.append(Panel(Text("\n".join(lines)), title="You"))
    if st.get("hands") and st["winner"]:
        lines = [
            f"{view['seats'][i]}: " + ", ".join(names[c] for c in hand)
            for i, hand in enumerate(st["hands"])
        ]
        parts.append(Panel(Text("\n".join(lines)), title="Hands"))
    return Panel(Group(*parts), title="Death Note Werewolf")


def out_of_game(view: dict[str, Any]) -> bool:
    """Whether the viewer's seat is dead."""
    seat = view.get("viewer")
    seats = view["state"].get("seats", [])
    return isinstance(seat, int) and 0 <= seat < len(seats) and not seats[seat].get("alive", True)


TEAMS = {"kira": "Kira's team", "l": "L's team"}


def outcome_text(view: dict[str, Any]) -> str:
    """The end: the winning team, and its players by name and Role."""
    out = view["outcome"]
    roles = {x["seat"]: x["role"] for x in view["state"].get("seats", [])}
    won = [
        f"{view['seats'][s]} ({ROLE_NAMES.get(roles.get(s) or '', '?')})"
        for s in out.get("winning_seats", [])
    ]
    team = " and ".join(TEAMS.get(w, w) for w in out["winners"]) or "Nobody"
    return f"{out['reason']}\n{team} wins: {', '.join(won) or 'nobody'}"
