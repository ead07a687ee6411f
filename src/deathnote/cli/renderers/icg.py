"""Terminal table for the Investigation Card Game, drawn from a view only (no rules here)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

PHASES = {
    "investigate": "A) Investigation",
    "cover": "A) Investigation",
    "return": "A) Investigation",
    "reveal": "A) Investigation",
    "eyes": "A) Investigation",
    "announce": "A) Investigation",
    "arrest": "B) Arrest",
    "dn_identity": "C) Death Note",
    "dn_placement": "C) Death Note",
    "over": "Game over",
}


TEAM_NAMES = {"kira": "Kira's team", "l": "L's team"}


def _names(st: dict[str, Any]) -> dict[str, str]:
    names = {c["id"]: c["name"] for c in st["identities"]}
    names.update({c["id"]: c["name"] for c in st["missions"]})
    return names


def _short(names: dict[str, str]) -> dict[str, str]:
    out = {k: v.split()[0] for k, v in names.items()}
    out["team_member"] = "Team"
    return out


def _clues(st: dict[str, Any], row: dict[str, Any], names: dict[str, str]) -> str:
    short = _short(names)
    if st["rules"] == "light":
        ids = [short[c] for c in st["clues"][:8] if c not in row["covered"]]
        missions = [short[c] for c in st["clues"][8:] if c not in row["covered"]]
        return " ".join(ids) + " | " + " ".join(missions)
    shown = " ".join(short[c] for c in row["table"]) or "-"
    return f"{shown}  (hand {row['hand_size']})"


def render(view: dict[str, Any]) -> RenderableType:
    """Seats with their Clues, the Death Note board history, and the viewer's own cards."""
    st = view["state"]
    names = _names(st)
    rules = "Kira rules" if st["rules"] == "kira" else "Light rules"
    eyes = " + Shinigami Eyes" if st["shinigami_eyes"] else ""
    head = Text(f"Turn {st['turn']} - {PHASES.get(st['phase'], st['phase'])} - {rules}{eyes}")
    clue_title = "Face-up Clues" if st["rules"] == "light" else "Revealed Clues"
    table = Table("Seat", "", "Mission", "Identity", clue_title, box=None)
    for row in st["seats"]:
        marks = []
        if row["red"]:
            marks.append("[red]RED[/]")
        if row["out"]:
            marks.append("out")
        if row["eyes"]:
            marks.append("eyes")
        if st["current"] == row["seat"]:
            marks.append("investigating")
        if st["target"] == row["seat"]:
            marks.append("investigated")
        table.add_row(
            f"{view['seats'][row['seat']]} (#{row['placement']})",
            " ".join(marks),
            names.get(row["mission"] or "", "?"),
            names.get(row["identity"] or "", "?"),
            _clues(st, row, names),
        )
    parts: list[RenderableType] = [head, table]
    board = [
        f"Turn {d['turn']}: "
        + (
            "empty"
            if d["identity"] is None
            else f"{names[d['identity']]} at #{d['seat'] + 1} - {'HIT' if d['hit'] else 'miss'}"
        )
        for d in st["death_notes"][-4:]
    ]
    board += [
        f"X-Kira {view['seats'][c['by']]} says {view['seats'][c['seat']]} is {names[c['identity']]}"
        for c in st["claims"][-4:]
    ]
    if board:
        parts.append(Panel(Text("\n".join(board)), title="Death Note board", border_style="red"))
    me = st.get("me")
    if me:
        lines = [
            f"Identity: {names[me['identity']]}",
            f"Mission: {names[me['mission']]} ({TEAM_NAMES.get(me['team'], me['team'])})",
        ]
        if "hand" in me:
            lines.append("Hand: " + ", ".join(names[c] for c in me["hand"]))
        if me["picks"]:
            lines.append("Chosen so far: " + ", ".join(names[c] for c in me["picks"]))
        for seat, ident in me["looks"].items():
            lines.append(f"Your eyes saw: {view['seats'][int(seat)]} is {names[ident]}")
        if me.get("death_note"):
            lines.append(f"Your Death Note token: {names[me['death_note']]}")
        parts.append(Panel(Text("\n".join(lines)), title="Your cards", border_style="cyan"))
    return Group(*parts)


def out_of_game(view: dict[str, Any]) -> bool:
    """Whether the viewer's seat is out (its Placement was eliminated)."""
    seat = view.get("viewer")
    seats = view["state"].get("seats", [])
    return isinstance(seat, int) and 0 <= seat < len(seats) and bool(seats[seat].get("out"))


def outcome_text(view: dict[str, Any]) -> str:
    """The end: the winning team, and its players by name and Mission."""
    out = view["outcome"]
    st = view["state"]
    names = _names(st)
    missions = {x["seat"]: x.get("mission") for x in st.get("seats", [])}
    won = []
    for seat in out.get("winning_seats", []):
        mission = missions.get(seat)
        role = f" ({names.get(mission, '?')})" if mission else ""
        won.append(f"{view['seats'][seat]}{role}")
    team = " and ".join(TEAM_NAMES.get(w, w) for w in out["winners"]) or "Nobody"
    return f"{out['reason']}\n{team} wins: {', '.join(won) or 'nobody'}"
