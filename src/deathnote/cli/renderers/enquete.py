"""Terminal board for Le Jeu d'Enquête, drawn from a view only (no rules here)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text


def role_name(role: str | None) -> str:
    """A Role as the rulebook names it ("light" -> "Light"); "?" when unknown."""
    return role.replace("_", " ").title() if role else "?"


def _seat_row(view: dict[str, Any], seat: dict[str, Any]) -> list[str]:
    st = view["state"]
    name = view["seats"][seat["seat"]]
    if seat["detective"]:
        name += " (Detective)"
    role = role_name(seat["role"])
    status = (
        "dead" if seat["dead"] else "revealed" if seat["revealed"] and not seat["detective"] else ""
    )
    marks = []
    if seat["pawn"]:
        marks.append("Ryuk")
    if seat["alibi"]:
        marks.append("Alibi")
    if seat["no_draw"]:
        marks.append("no draw")
    if st["current"] == seat["seat"]:
        marks.append("turn")
    return [
        name,
        role,
        status,
        str(seat["suspicions"]),
        str(seat["hand_size"]),
        f"{seat['keeps']}/{seat['discards']}",
        f"{seat['plays']} ({seat['ryuk_plays']} Ryuk)",
        ", ".join(marks),
    ]


def render(view: dict[str, Any]) -> RenderableType:
    """The table, the revealed Investigation, and the viewer's own Role and hand."""
    st = view["state"]
    head = Text(
        f"Round {st['round']}/5 ({st['direction']}) - Investigations left this round: "
        f"{st['tiles_left_this_round']} - Actions in pile: {st['deck']} - "
        f"reveal at {st['suspicion_limit']} Suspicions"
    )
    flags = [
        text
        for on, text in (
            (st["light_silenced"], "Decision: Light cannot play Actions"),
            (st["friend"], "Friend: the next player to play loses 2 Suspicions"),
            (st["pursuit"], "Pursuit resolves at the end"),
        )
        if on
    ]
    table = Table("Seat", "Role", "", "Susp.", "Hand", "Keep/Disc.", "Played", "", box=None)
    for seat in st["seats"]:
        table.add_row(*_seat_row(view, seat))
    inactive = ", ".join(
        f"{i['index'] + 1}: {role_name(i['role'])}{' (dead)' if i['dead'] else ''}"
        for i in st["inactive"]
    )
    tokens = ", ".join(
        f"{role_name(t['role'])} {t['status']}"
        for t in st["role_tokens"]
        if t["status"] != "hidden"
    )
    parts: list[RenderableType] = [head, table, Text(f"Inactive Roles: {inactive or 'none'}")]
    if tokens:
        parts.append(Text(f"Role tokens: {tokens}"))
    parts += [Text(f) for f in flags]
    tile = st.get("revealed_tile")
    if tile:
        parts.append(
            Panel(Text(tile["text"]), title=f"Investigation {tile['number']}: {tile['name']}")
        )
    me = st.get("me")
    if me:
        lines = [f"You are {me['role_name']} ({me['faction']})."]
        lines += [f"  - {o}" for o in me["objectives"]]
        if me.get("looking"):
            t = me["looking"]
            lines.append(
                f"You look at Investigation {t['number']}: {t['name']} "
                f"({t['suspicions']} Suspicions{', Ryuk' if t['ryuk'] else ''}): {t['text']}"
            )
        for c in me["hand"]:
            lines.append(
                f"  #{c['number']} {c['name']}{' [Ryuk]' if c['ryuk'] else ''} ({c['timing']}): {c['text']}"
            )
        if me["known_roles"]:
            lines.append(
                "You know: " + ", ".join(f"{k} = {v}" for k, v in me["known_roles"].items())
            )
        parts.append(Panel(Text("\n".join(lines)), title="You"))
    if st.get("apples"):
        scores = ", ".join(
            f"{view['seats'][i]}: {a} (series {t})"
            for i, (a, t) in enumerate(zip(st["apples"], st["series_apples"], strict=True))
        )
        parts.append(Panel(Text(scores), title="Apples"))
    return Panel(Group(*parts), title="Death Note: Le Jeu d'Enquête")


def out_of_game(view: dict[str, Any]) -> bool:
    """Whether the viewer's character is dead."""
    seat = view.get("viewer")
    seats = view["state"].get("seats", [])
    return isinstance(seat, int) and 0 <= seat < len(seats) and bool(seats[seat].get("dead"))


def outcome_text(view: dict[str, Any]) -> str:
    """The end of a game: the Apples each player earned, by name and Role."""
    out = view["outcome"]
    scores = out.get("scores") or {}
    rows = []
    for seat in view["state"].get("seats", []):
        role = role_name(seat["role"])
        apples = scores.get(role)
        name = view["seats"][seat["seat"]]
        label = f"{name} ({role})" if seat["role"] else name
        rows.append((-(apples or 0), label, apples))
    rows.sort()
    apples_line = ", ".join(
        f"{label} {int(apples) if apples is not None else 0}" for _, label, apples in rows
    )
    return f"{out['reason']}\nApples this game: {apples_line}"
