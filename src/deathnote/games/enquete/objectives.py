"""Apples: every objective is a function registered by its id, checked at the end."""

from __future__ import annotations

from collections.abc import Callable

from .flow import (
    KIRA_ROLES,
    card,
    faction,
    living,
    neighbors,
    players,
    role_info,
    role_state,
    seat_of,
)
from .state import EnqState

Check = Callable[[EnqState, int], int]
OBJECTIVES: dict[str, Check] = {}


def objective(oid: str) -> Callable[[Check], Check]:
    """Register an objective check: returns how many times it is met (0, 1 or a count)."""

    def deco(func: Check) -> Check:
        OBJECTIVES[oid] = func
        return func

    return deco


def _revealed(st: EnqState, role: str) -> bool:
    return role_state(st, role)[0]


def _dead(st: EnqState, role: str) -> bool:
    return role_state(st, role)[1]


def _ryuk_in_hand(st: EnqState, seat: int) -> bool:
    return any(card(st, n)["ryuk"] for n in st.seats[seat].hand)


@objective("self_unrevealed")
def self_unrevealed(st: EnqState, seat: int) -> int:
    return int(not st.seats[seat].revealed)


@objective("kira_player_unrevealed")
def kira_player_unrevealed(st: EnqState, seat: int) -> int:
    return int(
        any(faction(st.seats[s].role) == "kira" and not st.seats[s].revealed for s in players(st))
    )


@objective("ryuk_in_hand")
def ryuk_in_hand(st: EnqState, seat: int) -> int:
    return int(_ryuk_in_hand(st, seat))


@objective("no_ryuk_in_hand")
def no_ryuk_in_hand(st: EnqState, seat: int) -> int:
    return int(not _ryuk_in_hand(st, seat))


@objective("light_revealed")
def light_revealed(st: EnqState, seat: int) -> int:
    return int(_revealed(st, "light"))


@objective("light_unrevealed")
def light_unrevealed(st: EnqState, seat: int) -> int:
    return int(not _revealed(st, "light"))


@objective("light_alive")
def light_alive(st: EnqState, seat: int) -> int:
    return int(not _dead(st, "light"))


@objective("other_kira_revealed_alive")
def other_kira_revealed_alive(st: EnqState, seat: int) -> int:
    return int(any(role_state(st, r) == (True, False) for r in ("misa", "higuchi")))


@objective("per_living_revealed_player")
def per_living_revealed_player(st: EnqState, seat: int) -> int:
    return sum(1 for s in living(st) if st.seats[s].revealed)


@objective("no_player_dead")
def no_player_dead(st: EnqState, seat: int) -> int:
    return int(not any(st.seats[s].dead for s in players(st)))


@objective("only_light_dead")
def only_light_dead(st: EnqState, seat: int) -> int:
    dead = [s for s in players(st) if st.seats[s].dead]
    return int(len(dead) == 1 and st.seats[dead[0]].role == "light")


@objective("neighbor_of_light")
def neighbor_of_light(st: EnqState, seat: int) -> int:
    light = seat_of(st, "light")
    return int(light is not None and seat in neighbors(st, light))


@objective("killed_a_role")
def killed_a_role(st: EnqState, seat: int) -> int:
    return int(any(k["by"] == seat for k in st.kills))


@objective("matsuda_dead")
def matsuda_dead(st: EnqState, seat: int) -> int:
    return int(_dead(st, "matsuda"))


@objective("per_kira_player_revealed_not_light")
def per_kira_player_revealed_not_light(st: EnqState, seat: int) -> int:
    return sum(
        1 for s in players(st) if st.seats[s].role in ("misa", "higuchi") and st.seats[s].revealed
    )


@objective("self_revealed_alive")
def self_revealed_alive(st: EnqState, seat: int) -> int:
    return int(st.seats[seat].revealed and not st.seats[seat].dead)


@objective("self_alive")
def self_alive(st: EnqState, seat: int) -> int:
    return int(not st.seats[seat].dead)


@objective("per_kira_role_revealed")
def per_kira_role_revealed(st: EnqState, seat: int) -> int:
    return sum(1 for r in KIRA_ROLES if _revealed(st, r))


@objective("all_kira_roles_revealed")
def all_kira_roles_revealed(st: EnqState, seat: int) -> int:
    return int(all(_revealed(st, r) for r in KIRA_ROLES))


@objective("per_inactive_role_dead")
def per_inactive_role_dead(st: EnqState, seat: int) -> int:
    return sum(1 for r in st.inactive if r.dead)


@objective("misa_alive")
def misa_alive(st: EnqState, seat: int) -> int:
    return int(not _dead(st, "misa"))


def score(st: EnqState) -> tuple[list[int], list[list[str]]]:
    """Apples of every seat (the dead included) and one line per objective met."""
    lines: list[list[str]] = []
    return _score(st, lines), lines


def apples_now(st: EnqState) -> list[int]:
    """``score``'s Apples alone (no lines written: the search's estimate, ``value.py``)."""
    return _score(st, None)


def _score(st: EnqState, lines: list[list[str]] | None) -> list[int]:
    """Each seat's Apples; with ``lines``, one line per objective met appended for each."""
    apples: list[int] = []
    seats = st.seats
    for s in range(st.players):
        total = 0
        met: list[str] = []
        seat = seats[s]
        for obj in role_info(st, seat.role)["objectives"]:
            times = OBJECTIVES[obj["id"]](st, s)
            if times:
                total += obj["apples"] * times
                if lines is not None:
                    met.append(f"{obj['text']} (+{obj['apples'] * times})")
        for extra in seat.extra:
            if extra["kind"] == "love" and not seats[extra["partner"]].dead:
                total += 1
                met.append("Love: the other designated player is alive (+1)")
            if extra["kind"] == "pursuit" and extra["met"]:
                total += 2
                met.append("Pursuit: at least one of your neighbors is a Kira (+2)")
        apples.append(total)
        if lines is not None:
            lines.append(met)
    return apples
