"""Scenario helpers: create matches, arrange secret cards, drive phases."""

from __future__ import annotations

from typing import Any

from deathnote.engine import Action, Match
from deathnote.games.icg.state import IcgState


def new(players: int = 5, seed: int = 0, **options: Any) -> Match:
    """A fresh match."""
    return Match.create("icg", players, seed, options or None)


def st(m: Match) -> IcgState:
    """The match state (for set-up and asserts only)."""
    state: IcgState = m.state
    return state


def poke(m: Match) -> None:
    """Forget the match's caches after a test edits the state."""
    m._legal.clear()
    m._pending = None


def arrange(
    m: Match, missions: dict[int, str] | None = None, identities: dict[int, str] | None = None
) -> None:
    """Give seats these Missions / Identities (swapping with their holders or the box)."""
    state = st(m)
    for s, mission in (missions or {}).items():
        holder = next((x for x in state.seats if x.mission == mission), None)
        if holder is not None:
            holder.mission, state.seats[s].mission = state.seats[s].mission, mission
        else:
            state.unused_missions.remove(mission)
            state.unused_missions.append(state.seats[s].mission)
            state.seats[s].mission = mission
    for s, ident in (identities or {}).items():
        holder = next((x for x in state.seats if x.identity == ident), None)
        if holder is not None:
            holder.identity, state.seats[s].identity = state.seats[s].identity, ident
        else:
            state.seats[s].identity = ident
    poke(m)


def act(m: Match, seat: int, kind: str, **args: Any) -> None:
    """Submit one action."""
    m.submit(seat, Action.make(kind, **args))


def asked(m: Match) -> int:
    """The single seat asked now."""
    pending = m.pending()
    assert len(pending) == 1, pending
    return next(iter(pending))


def quiet_investigation_phase(m: Match) -> None:
    """Play the rest of the Investigation phase with the first legal choices."""
    while st(m).phase not in ("arrest", "over"):
        s = min(m.pending())
        m.submit(s, m.legal(s)[0])


def everyone_waits(m: Match, except_seat: int | None = None) -> None:
    """Every asked seat but one passes / keeps its eyes closed."""
    for s in sorted(m.pending()):
        if s != except_seat:
            kind = "pass" if st(m).phase == "arrest" else "wait"
            act(m, s, kind)


def to_death_note(m: Match) -> None:
    """Run on to the Death Note phase (nobody arrests)."""
    quiet_investigation_phase(m)
    everyone_waits(m)
    assert st(m).phase == "dn_identity"


def death_note(m: Match, kira: int, identity: str | None, placement: int | None) -> None:
    """The whole Death Note phase: Kira writes (or not), everyone else waits."""
    everyone_waits(m, except_seat=kira)
    if identity is None:
        act(m, kira, "wait")
    else:
        act(m, kira, "write", identity=identity)
    everyone_waits(m, except_seat=kira)
    if identity is None:
        act(m, kira, "wait")
    else:
        act(m, kira, "place", placement=placement)


def texts(m: Match, viewer: Any = "spectator") -> list[str]:
    """The log lines this viewer sees."""
    return [e["text"] for e in m.log(viewer)]
