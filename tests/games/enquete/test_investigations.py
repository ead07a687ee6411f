"""Every Investigation tile's effect."""

from __future__ import annotations

from typing import Any

from deathnote.engine import Match

from .helpers import at_pick, choose, give, new, passes, poke, run_until, seat, set_roles, st, top


def at_reveal(
    number: int, roles: dict[int, str] | None = None, players: int = 6, seed: int = 30
) -> Match:
    """Round 1, just before the Detective (seat 0) reveals: tile ``number`` on top, hands empty."""
    m = new(players, seed=seed, detective_seat=0)
    run_until(m, lambda m: top(m)["k"] == "window" and top(m)["mode"] == "detective")
    s = st(m)
    if roles:
        set_roles(m, roles)
    for x in s.seats[1:]:
        x.hand = []
    if number in s.tiles:
        s.tiles.remove(number)
    s.tiles.insert(0, number)
    poke(m)
    return m


def go(m: Match, fn: str) -> None:
    run_until(m, at_pick(fn))


def values(m: Match) -> list[Any]:
    return [a.get("v") for a in m.legal(seat(m))]


def test_rebirth_investigator_exchanges() -> None:
    m = at_reveal(1, {2: "yagami", 3: "light"})
    s = st(m)
    go(m, "rebirth_target")
    choose(m, 2)
    assert seat(m) == 2 and values(m) == ["keep", "exchange"]
    choose(m, "exchange")
    assert s.seats[2].role != "yagami" and not s.seats[2].dead
    assert any(r.role == "yagami" and r.dead and r.revealed for r in s.inactive)
    assert {"role": "yagami", "by": 2} in s.kills
    m2 = at_reveal(1, {2: "misa", 3: "light"})
    go(m2, "rebirth_target")
    choose(m2, 2)
    assert values(m2) == ["keep"]


def test_confrontation_reveals_inactive() -> None:
    m = at_reveal(2)
    go(m, "give_susp")
    assert sum(r.revealed for r in st(m).inactive) == 1


def test_pact_designates_half() -> None:
    m = at_reveal(3, {1: "light"})
    s = st(m)
    go(m, "pact_add")
    for target in (1, 2):
        choose(m, target)
    assert s.seats[1].suspicions == 1 and s.seats[2].suspicions == 1


def test_pact_respects_alibi() -> None:
    m = at_reveal(3, {1: "light"})
    s = st(m)
    s.alibi = [1]
    go(m, "pact_add")
    choose(m, 1)
    choose(m, 2)
    assert s.seats[1].suspicions == 0 and s.seats[2].suspicions == 1


def test_pursuit_objective_at_end() -> None:
    m = at_reveal(4, {1: "mogi", 2: "light", 3: "misa", 4: "matsuda", 5: "yagami"})
    s = st(m)
    go(m, "give_susp")
    assert s.pursuit
    run_until(m, lambda m: False)
    assert {"kind": "pursuit", "met": True} in s.seats[2].extra
    assert any("Pursuit" in line for line in s.apple_lines[2])


def test_tactic_discard_costs_a_suspicion() -> None:
    m = at_reveal(5, {1: "watari"})
    s = st(m)
    s.seats[1].hand = [11]
    go(m, "tactic_choice")
    assert seat(m) == 1
    choose(m, 11)
    go(m, "give_susp")
    choose(m, 2)
    assert s.seats[1].suspicions == 1 and s.seats[1].hand == []


def test_rift_vote() -> None:
    m = at_reveal(6)
    s = st(m)
    go(m, "rift_first")
    choose(m, 1)
    choose(m, 2)
    ballots = []
    while top(m).get("fn") == "rift_ballot":
        ballots.append(seat(m))
        choose(m, 1)
    assert ballots == [3, 4, 5]
    assert s.seats[1].suspicions == 1 and s.seats[2].suspicions == 0


def test_rift_alibi_share_is_lost() -> None:
    m = at_reveal(6)
    s = st(m)
    s.alibi = [1]
    go(m, "rift_first")
    choose(m, 1)
    choose(m, 2)
    for vote in (1, 1, 2):
        choose(m, vote)
    assert s.seats[1].suspicions == 0 and s.seats[2].suspicions == 0


def test_rift_votes_are_secret_until_counted() -> None:
    m = at_reveal(6)
    go(m, "rift_first")
    choose(m, 1)
    choose(m, 2)
    voter = seat(m)
    choose(m, 2)
    assert any("You voted for Player 3" in e["text"] for e in m.log(voter))
    assert not any("voted for" in e["text"] for e in m.log(seat(m)))


def test_overcast_investigator_may_reveal() -> None:
    m = at_reveal(7, {1: "aizawa"})
    s = st(m)
    go(m, "overcast_player")
    choose(m, 1)
    choose(m, 0)
    assert values(m) == ["silent", "reveal"]
    choose(m, "reveal")
    assert s.seats[1].revealed and s.inactive[0].revealed


def test_gaze_discards_from_suspect() -> None:
    m = at_reveal(8)
    s = st(m)
    s.seats[2].suspicions = 1
    s.seats[2].hand = [44, 45]
    s.seats[3].hand = [43]
    go(m, "gaze_target")
    assert values(m) == [2]
    choose(m, 2)
    choose(m, 44)
    assert s.seats[2].hand == [45] and s.seats[0].known_hands[2] == [44, 45]


def test_contact_blocks_next_draws() -> None:
    m = at_reveal(9)
    s = st(m)
    go(m, "give_susp")
    choose(m, 1)
    choose(m, 2)
    assert s.no_draw == [1, 2] and s.round == 2
    run_until(m, lambda m: top(m).get("fn") == "investigate" and top(m)["seat"] == 1)
    hand = len(s.seats[1].hand)
    choose(m, "keep")
    assert len(s.seats[1].hand) == hand


def test_doubt_discards_per_single_suspicion() -> None:
    m = at_reveal(10)
    s = st(m)
    s.seats[3].suspicions = 1
    s.seats[4].suspicions = 1
    s.seats[2].hand = [43, 44, 45]
    go(m, "doubt_target")
    choose(m, 2)
    choose(m, 43)
    choose(m, 44)
    assert s.seats[2].hand == [45]


def test_assault_reveals_when_unable_to_discard() -> None:
    m = at_reveal(11, {1: "light", 2: "mogi"})
    s = st(m)
    go(m, "assault_target")
    choose(m, 2)
    assert s.seats[2].revealed and s.revealed_by["mogi"] == "detective"
    m2 = at_reveal(11, {1: "light", 2: "mogi"})
    s2 = st(m2)
    s2.seats[2].hand = [45]
    go(m2, "assault_target")
    choose(m2, 2)
    assert len(s2.seats[2].hand) == 3 and top(m2)["fn"] == "discard_one"


def test_love_additional_objective() -> None:
    m = at_reveal(12)
    s = st(m)
    go(m, "love_first")
    choose(m, 1)
    choose(m, 3)
    assert {"kind": "love", "partner": 3} in s.seats[1].extra
    assert m.view(5)["state"]["seats"][1]["loves"] == [3]


def test_confession_choice_and_dead_player() -> None:
    m = at_reveal(13)
    s = st(m)
    go(m, "confession_target")
    choose(m, 2)
    choose(m, "suspicions")
    assert s.extra_susp == 2
    m2 = at_reveal(13)
    s2 = st(m2)
    s2.seats[4].dead = True
    poke(m2)
    go(m2, "confession_target")
    choose(m2, 4)
    assert s2.extra_susp == 2 and top(m2)["fn"] == "give_susp"


def test_friend_next_player_loses_two() -> None:
    m = at_reveal(14)
    s = st(m)
    go(m, "give_susp")
    for target in (2, 2, 2):
        choose(m, target)
    assert s.friend
    run_until(
        m,
        lambda m: top(m)["k"] == "window" and top(m)["mode"] == "turn" and top(m)["seats"][0] == 2,
    )
    s.seats[2].hand = []
    n = give(m, 2, "apples")
    s.seats[2].suspicions = 3
    from .helpers import play

    play(m, 2, n)
    assert s.seats[2].suspicions == 1 and not s.friend


def test_wager_receiver_looks_at_neighbor() -> None:
    m = at_reveal(15)
    s = st(m)
    go(m, "give_susp")
    choose(m, 3)
    assert seat(m) == 3 and set(values(m)) == {2, 4}
    choose(m, 4)
    assert s.seats[3].known_roles["p4"] == s.seats[4].role


def test_decision_silences_light() -> None:
    m = at_reveal(16, {1: "light"})
    s = st(m)
    go(m, "give_susp")
    assert s.light_silenced
    give(m, 1, "apples")
    run_until(
        m,
        lambda m: top(m)["k"] == "window" and top(m)["mode"] == "turn" and top(m)["seats"][0] == 1,
    )
    assert [a.kind for a in m.legal(1)] == ["pass"]


def test_execution_kills() -> None:
    m = at_reveal(17, {1: "light", 2: "watari"})
    s = st(m)
    go(m, "execution_target")
    choose(m, 2)
    assert (
        s.seats[2].dead and s.seats[2].revealed and {"role": "watari", "by": "detective"} in s.kills
    )


def test_ally_reveals_named_investigators() -> None:
    m = at_reveal(18, {1: "light", 2: "mogi", 4: "aizawa", 3: "misa", 5: "matsuda"})
    s = st(m)
    go(m, "ally_first")
    choose(m, "mogi")
    choose(m, "aizawa")
    assert s.seats[2].revealed and s.seats[4].revealed
    m2 = at_reveal(18, {1: "light", 2: "mogi", 4: "aizawa", 3: "misa", 5: "matsuda"})
    s2 = st(m2)
    s2.seats[4].revealed = True  # counter-clockwise from seat 0: seat 5, then 4, then ... 2
    go(m2, "ally_first")
    choose(m2, "mogi")
    choose(m2, "aizawa")
    assert not s2.seats[2].revealed


def test_matsuda_chooses_or_detective_gives_two() -> None:
    m = at_reveal(19, {1: "light", 3: "matsuda"})
    s = st(m)
    go(m, "matsuda_choice")
    asked = []
    while top(m).get("fn") == "matsuda_choice":
        asked.append(seat(m))
        if seat(m) == 3:
            assert values(m) == ["no", "reveal"]
        else:
            assert values(m) == ["no"]
        choose(m, "no")
    assert asked == [1, 2, 3, 4, 5] and s.extra_susp == 2
    m2 = at_reveal(19, {1: "light", 3: "matsuda"})
    go(m2, "matsuda_choice")
    while seat(m2) != 3:
        choose(m2, "no")
    choose(m2, "reveal")
    assert st(m2).seats[3].revealed and st(m2).extra_susp == 0


def test_expedient_draws_add_suspicions() -> None:
    m = at_reveal(20)
    s = st(m)
    go(m, "expedient_choice")
    choose(m, "draw")
    choose(m, "draw")
    while top(m).get("fn") == "expedient_choice":
        choose(m, "no")
    assert s.extra_susp == 2 and len(s.seats[1].hand) == 1


def test_performance_swaps_neighbors() -> None:
    m = at_reveal(21)
    s = st(m)
    s.seats[1].suspicions = 4
    go(m, "performance_pair")
    assert "1-2" in values(m) and "1-5" in values(m)
    choose(m, "1-2")
    assert s.seats[1].suspicions == 0 and s.seats[2].suspicions == 4


def test_conduct_hits_ryuk_holders() -> None:
    m = at_reveal(22)
    s = st(m)
    s.pawn = None
    s.seats[1].hand = [46]  # Ryuk's Apples (Ryuk)
    s.seats[2].hand = [45]  # Alibi
    go(m, "give_susp")
    assert s.seats[1].suspicions == 1 and s.seats[2].suspicions == 0


def test_frenzy_single_target() -> None:
    m = at_reveal(23)
    s = st(m)
    s.pawn = None
    s.extra_susp = 1  # an Alibi was played this round
    s.alibi = [5]
    go(m, "give_susp")
    choose(m, 2)
    assert s.seats[2].suspicions == 4


def test_resurrection_by_faction() -> None:
    m = at_reveal(24, {1: "light", 2: "misa", 3: "mogi", 4: "matsuda", 5: "yagami"}, seed=31)
    s = st(m)
    s.pawn = None
    go(m, "resurrection_pick")
    assert len(s.seats[0].known_roles) == 1
    faction = top(m)["faction"]
    for target in (1, 2, 3, 4, 5):
        choose(m, target)
    hit = {x for x in (1, 2, 3, 4, 5) if s.seats[x].suspicions == 1}
    assert hit == ({1, 2} if faction == "kira" else {3, 4, 5})


def test_silence_designated_player_kills() -> None:
    m = at_reveal(25, {1: "light", 2: "higuchi", 3: "matsuda"})
    s = st(m)
    s.pawn = None
    go(m, "silence_player")
    choose(m, 2)
    assert seat(m) == 2
    choose(m, "p3")
    while not s.seats[3].dead:
        passes(m)
    assert {"role": "matsuda", "by": 2} in s.kills


def test_pursuit_dead_first_kira_has_no_neighbor() -> None:
    m = at_reveal(4, {1: "light", 2: "misa", 3: "mogi", 4: "matsuda", 5: "yagami"})
    s = st(m)
    go(m, "give_susp")
    s.seats[1].dead = True  # died under Top Secret: dead, not revealed
    poke(m)
    run_until(m, lambda m: False)
    assert {"kind": "pursuit", "met": False} in s.seats[1].extra


def test_rebirth_moves_what_others_knew_with_the_cards() -> None:
    m = at_reveal(1, {2: "yagami", 3: "light"})
    s = st(m)
    s.seats[3].known_roles = {f"i{i}": r.role for i, r in enumerate(s.inactive)}
    s.seats[3].known_roles["p2"] = "yagami"
    go(m, "rebirth_target")
    choose(m, 2)
    choose(m, "exchange")
    i = next(i for i, r in enumerate(s.inactive) if r.role == "yagami")
    assert s.seats[3].known_roles["p2"] == s.seats[2].role
    assert s.seats[3].known_roles[f"i{i}"] == "yagami"
    assert all(s.seats[3].known_roles[f"i{j}"] == r.role for j, r in enumerate(s.inactive))
