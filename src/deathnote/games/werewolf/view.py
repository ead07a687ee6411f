"""Views of Death Note Werewolf: built by listing what each viewer may see."""

from __future__ import annotations

from typing import Any

from deathnote.engine.actions import OMNISCIENT, Viewer

from . import rules as R
from .state import WwState


def _card(st: WwState, cid: str) -> dict[str, Any]:
    c = st.tables.cards[cid]
    return {"id": cid, "number": c["number"], "name": c["name"], "text": c["text"]}


# Our own short summary of the rules, for a screen's rules panel (player-facing words).
RULES_SUMMARY = (
    "Two teams: Kira's team (Kira, the Worshipper) against L's team (L, the Police, "
    "Watari). Your Role is secret.",
    "On your turn draw a card, then play one card or pass by discarding one. Played and "
    "discarded cards are face up.",
    "When everyone has had a turn (two turns before the first Judgment at 4 or 5 "
    "players), the Judgment: everyone closes their eyes; Kira and the Worshipper open "
    "theirs and see each other.",
    "At the Judgment, Kira holding the DEATH NOTE must write a player's name: that player"
    " dies and their Role is revealed (an Alias saves them).",
    "L's team wins when L arrests Kira with an Arrest card (an Alibi denies it).",
    "Kira's team wins when every L is dead, when L's team is down to one player, or when "
    "every Arrest card is out of the game.",
    "Card numbers matter: Handgun, Exchange and Interrogation take the lowest-numbered card.",
)

# Player-facing words the view carries for screens (display only: no rule reads them).
TEAM_NAMES = {"kira": "Kira's team", "l": "L's team"}
PHASE_NAMES = {"investigation": "Investigation", "judgment": "Judgment"}


def _role(st: WwState, rid: str) -> dict[str, Any]:
    info = st.tables.roles[rid]
    team = str(info["team"])
    return {
        "id": rid,
        "name": info["name"],
        "team": team,
        "team_name": TEAM_NAMES[team],
        "text": info["text"],
    }


def public_step(st: WwState) -> dict[str, Any] | None:
    """What the table sees of the decision under way (nothing of the eyes-closed ones)."""
    step = st.step
    if step is None:
        return None
    k = step["k"]
    if k == "judgment":
        return {"kind": "judgment"}
    if k == "shinigami":
        return {"kind": "shinigami", "player": step["seat"]}
    out: dict[str, Any] = {"kind": k}
    if k in ("turn", "target", "direction", "give_back", "vote", "interrogate"):
        out["player"] = step["seat"]
    if k == "target":
        out["card"] = step["card"]
    if k == "interrogate":
        out["dir"] = step["dir"]
    if k == "give_lowest":
        out["player"] = step["to"]
        out["named"] = step["seat"]
    if k == "give_back":
        out["named"] = step["to"]
    return out


def build_view(st: WwState, viewer: Viewer) -> dict[str, Any]:
    """The state as this viewer may see it."""
    over = st.winner is not None
    everything = viewer == OMNISCIENT or over
    seats = []
    for s, x in enumerate(st.seats):
        shown = everything or not x.alive or viewer == s
        seats.append(
            {
                "seat": s,
                "alive": x.alive,
                "role": x.role if shown else None,
                "role_name": st.tables.role_name[x.role] if shown else None,
                "hand_size": len(x.hand),
                "first": s == st.first,
                "current": s == st.current,
            }
        )
    table = R.setup(st)
    out: dict[str, Any] = {
        "players": st.players,
        "phase": st.phase,
        "judgments": st.judgments,
        "first": st.first,
        "current": st.current,
        "turns_left": len(st.order),
        "deck": len(st.deck),
        "discard": list(st.discard),
        "removed": list(st.removed),
        "roles_in_game": sorted(table["roles"]),
        "cards_in_game": dict(sorted(table["cards"].items())),
        "card_list": [_card(st, c) for c in st.tables.cards],
        "role_list": [_role(st, r) for r in st.tables.roles],
        "team_names": dict(TEAM_NAMES),
        "phase_name": PHASE_NAMES[st.phase],
        "eyes_closed": st.phase == "judgment"
        or (st.step is not None and st.step["k"] == "shinigami"),
        "handgun_reveal": st.options["handgun_reveal"],
        "step": public_step(st),
        "seats": seats,
        "winner": st.winner,
    }
    if isinstance(viewer, int):
        me = st.seats[viewer]
        info = R.role_info(st, me.role)
        mine: dict[str, Any] = {
            "seat": viewer,
            "role": me.role,
            "role_name": info["name"],
            "team": info["team"],
            "text": info["text"],
            "changes": list(info["changes"]),
            "hand": [_card(st, c) for c in R.sort_cards(st, me.hand)],
            "known_roles": {str(k): v for k, v in sorted(me.known_roles.items())},
            "seen_hands": {str(k): list(v) for k, v in sorted(me.seen_hands.items())},
        }
        step = st.step
        if step is not None and step["k"] == "give_back" and step["seat"] == viewer:
            mine["took"] = step["took"]
        if (
            step is not None
            and step["k"] == "judgment"
            and viewer == R.seat_of(st, "kira")
            and step["suggested"] is not None
        ):
            mine["suggested"] = step["suggested"]
        out["me"] = mine
    if everything:
        out["hands"] = [R.sort_cards(st, x.hand) for x in st.seats]
    if viewer == OMNISCIENT:
        out["deck_order"] = list(st.deck)
    return out
