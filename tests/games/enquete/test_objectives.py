"""Apples: every Role's objectives, checked at the end."""

from __future__ import annotations

from deathnote.games.enquete.objectives import score

from .helpers import new, set_roles, st

ROLES = {
    0: "detective",
    1: "light",
    2: "misa",
    3: "higuchi",
    4: "matsuda",
    5: "yagami",
    6: "watari",
}


def table():  # type: ignore[no-untyped-def]
    """Seven players: Detective at 0; inactive Aizawa and Mogi."""
    m = new(7, seed=50, detective_seat=0)
    set_roles(m, ROLES)
    s = st(m)
    for x in s.seats:
        x.hand = []
    return s


def apples(s) -> dict[str, int]:  # type: ignore[no-untyped-def]
    got, _ = score(s)
    return {s.seats[i].role: got[i] for i in range(s.players)}


def test_light_objectives() -> None:
    s = table()
    assert apples(s)["light"] == 3  # unrevealed (+2), a Kira player unrevealed (+1)
    s.seats[1].hand = [1]  # Death Note: a Ryuk Action
    assert apples(s)["light"] == 4
    s.seats[1].revealed = True
    s.seats[2].revealed = s.seats[3].revealed = True
    assert apples(s)["light"] == 1


def test_detective_objectives() -> None:
    s = table()
    assert apples(s)["detective"] == 0
    s.seats[1].revealed = True
    assert apples(s)["detective"] == 3
    s.seats[2].revealed = True
    assert apples(s)["detective"] == 4
    s.seats[2].dead = True
    assert apples(s)["detective"] == 3


def test_matsuda_objectives() -> None:
    s = table()
    assert apples(s)["matsuda"] == 1  # nobody dead
    s.seats[5].revealed = s.seats[6].revealed = True
    assert apples(s)["matsuda"] == 3
    s.seats[1].dead = s.seats[1].revealed = True
    assert apples(s)["matsuda"] == 4  # 2 living revealed + Light the only dead
    s.seats[6].dead = True
    assert apples(s)["matsuda"] == 1


def test_misa_objectives() -> None:
    s = table()
    assert apples(s)["misa"] == 3  # Light unrevealed (+2) and she sits next to him (+1)
    s.kills.append({"role": "watari", "by": 2})
    assert apples(s)["misa"] == 4
    s.seats[1].revealed = True
    s.seats[3].dead = True  # still Light's neighbor? seat 3 dead does not matter
    assert apples(s)["misa"] == 2


def test_higuchi_objectives() -> None:
    s = table()
    assert apples(s)["higuchi"] == 2
    s.seats[4].dead = True
    assert apples(s)["higuchi"] == 4
    s.seats[3].revealed = True
    assert apples(s)["higuchi"] == 2


def test_yagami_objectives() -> None:
    s = table()
    assert apples(s)["yagami"] == 1  # Light alive
    s.seats[2].revealed = s.seats[3].revealed = True
    s.seats[5].revealed = True
    assert apples(s)["yagami"] == 4
    s.seats[1].dead = True
    assert apples(s)["yagami"] == 3


def test_watari_objectives() -> None:
    s = table()
    assert apples(s)["watari"] == 2  # alive, no Ryuk Action
    s.seats[1].revealed = True
    assert apples(s)["watari"] == 4
    s.seats[6].hand = [1]
    assert apples(s)["watari"] == 3


def test_aizawa_and_mogi_objectives() -> None:
    m = new(7, seed=51, detective_seat=0)
    set_roles(
        m,
        {0: "detective", 1: "light", 2: "aizawa", 3: "mogi", 4: "misa", 5: "matsuda", 6: "watari"},
    )
    s = st(m)
    for x in s.seats:
        x.hand = []
    assert {r.role for r in s.inactive} == {"higuchi", "yagami"}
    got = apples(s)
    assert got["aizawa"] == 0 and got["mogi"] == 2  # Misa alive
    for r in s.inactive:
        r.revealed = True
        r.dead = True
    s.seats[1].revealed = s.seats[4].revealed = True
    got = apples(s)
    assert got["aizawa"] == 4  # 3 Kira Roles revealed + all three
    assert got["mogi"] == 4  # 2 dead inactive Roles + Misa alive


def test_love_extra_objective_for_the_dead() -> None:
    s = table()
    s.seats[5].extra.append({"kind": "love", "partner": 6})
    s.seats[5].dead = True
    assert apples(s)["yagami"] == 2  # Light alive + Love (Watari alive), even dead
