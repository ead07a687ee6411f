"""Views: the Detective's seat, private looks, and the secret-swap property."""

from __future__ import annotations

import random

from hypothesis import event, given, settings
from hypothesis import strategies as hs

from deathnote.agents import RandomAgent, agent_rng, observe
from deathnote.engine import SPECTATOR, Match
from deathnote.engine.play import play

from .helpers import new, run_until, st


def test_detective_seat_view() -> None:
    m = new(6, seed=40, detective_seat=2)
    run_until(m, lambda m: st(m).round == 1)
    view = m.view(2)
    s = view["state"]
    assert s["me"]["role"] == "detective" and len(s["me"]["hand"]) == 5
    assert [x["role"] for x in s["seats"]] == [None, None, "detective", None, None, None]
    assert all(r["role"] is None for r in s["inactive"])
    assert "hands" not in s and "tiles" not in s
    other = m.view(3)["state"]
    assert other["seats"][2]["role"] == "detective" and other["seats"][2]["hand_size"] == 5
    assert "hand" not in other["seats"][2] and "me" in other and other["me"]["seat"] == 3


def test_spectator_sees_no_hidden_role() -> None:
    m = new(7, seed=41)
    run_until(m, lambda m: st(m).round == 2)
    s = st(m)
    view = m.view(SPECTATOR)["state"]
    for i, x in enumerate(view["seats"]):
        assert x["role"] is None or s.seats[i].revealed or i == s.detective
    assert "me" not in view
    log = " ".join(e["text"] for e in m.log(SPECTATOR))
    assert "You look" not in log and "You draw" not in log


def test_game_end_reveals_everything() -> None:
    m = new(5, seed=42)
    run_until(m, lambda m: False)
    view = m.view(SPECTATOR)["state"]
    assert all(x["role"] for x in view["seats"]) and all(r["role"] for r in view["inactive"])
    assert len(view["apples"]) == 5


def play_random(players: int, seed: int) -> list[tuple[int, object]]:
    """The actions of a random game."""
    m = Match.create("enquete", players, seed)
    play(m, [RandomAgent(s) for s in range(players)])
    return list(m.actions)


def mentions(m: Match, viewer: int, words: list[str]) -> bool:
    """Whether a private event this viewer saw names one of ``words``."""
    return any(
        e.audience is not None and viewer in e.audience and any(w in e.text for w in words)
        for e in m.events
    )


@settings(max_examples=20, deadline=None)
@given(
    seed=hs.integers(0, 100_000),
    players=hs.sampled_from([4, 5, 6, 8]),
    pick=hs.integers(0, 7),
    swap_hand=hs.booleans(),
)
def test_secret_swap_changes_only_that_seat(
    seed: int, players: int, pick: int, swap_hand: bool
) -> None:
    actions = play_random(players, seed)
    a = Match.create("enquete", players, seed)
    b = Match.create("enquete", players, seed)
    sa, sb = st(a), st(b)
    seats = [s for s in range(players) if s != sa.detective]
    k = seats[pick % len(seats)]
    words = [f"Player {k + 1}"]
    start = 0
    swapped: tuple[int, int] | None = None
    if swap_hand:
        # Play the set-up, then swap one of k's Actions with a face-down discarded one.
        while sa.round == 0:
            seat, action = actions[start]
            a.submit(seat, action)
            b.submit(seat, action)
            start += 1
        if not sb.seats[k].hand or not sb.discard:
            return
        i = random.Random(seed).randrange(len(sb.discard))
        sb.seats[k].hand[0], sb.discard[i] = sb.discard[i], sb.seats[k].hand[0]
        swapped = (sa.seats[k].hand[0], sb.seats[k].hand[0])
    else:
        j = pick % len(sb.inactive)
        sb.seats[k].role, sb.inactive[j].role = sb.inactive[j].role, sb.seats[k].role
        words.append(f"inactive Role {j + 1}")
    inactive_b = [r.role for r in sb.inactive]
    b._legal.clear()
    b._pending = None
    compared = 0
    for seat, action in actions[start:]:
        if action not in b.legal(seat) or sa.reshuffles or sb.reshuffles:
            break
        a.submit(seat, action)
        b.submit(seat, action)
        if swapped and (swapped[0] not in sa.seats[k].hand or swapped[1] not in sb.seats[k].hand):
            break  # the swapped card left k's hand (played, stolen, given): others may learn it
        if [r.role for r in sb.inactive] != inactive_b:
            break  # a seat took an inactive Role (Rebirth): it may be the swapped one
        if a.view(SPECTATOR) != b.view(SPECTATOR):
            break  # a public consequence of the secret (e.g. Rem spares a Kira): stop here
        for viewer in range(players):
            if viewer == k or mentions(a, viewer, words) or mentions(b, viewer, words):
                continue
            assert a.view(viewer) == b.view(viewer), f"seat {viewer} learns about seat {k}"
        compared += 1
    event(f"compared {min(compared, 10) // 5 * 5}+ steps")


def containers(obj: object, seen: dict[int, object]) -> None:
    """Every dict and list reachable from ``obj`` (dataclasses included), by id."""
    import dataclasses

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            containers(getattr(obj, f.name), seen)
    elif isinstance(obj, dict | list):
        if id(obj) in seen:
            return
        seen[id(obj)] = obj
        for item in obj.values() if isinstance(obj, dict) else obj:
            containers(item, seen)


def test_views_share_no_objects_with_the_state() -> None:
    for seed in range(4):
        m = new(6, seed=seed)
        agents = [RandomAgent(s) for s in range(6)]
        rngs = [agent_rng(seed, s) for s in range(6)]
        while m.outcome() is None:
            s = min(m.pending())
            if len(m.actions) % 7 == 0:
                owned: dict[int, object] = {}
                containers(st(m), owned)
                containers(m.content, owned)
                for viewer in [*range(6), SPECTATOR, "omniscient"]:
                    found: dict[int, object] = {}
                    containers(m.game.view(m.state, viewer), found)
                    shared = set(found) & set(owned)
                    assert not shared, f"view of {viewer} shares {[found[i] for i in shared]}"
            m.submit(s, agents[s].choose(observe(m, s, rngs[s])))


def test_display_names_cover_every_role_card_and_flag() -> None:
    """Screens read names from the view (role_list, action_names, ...), never from ids."""
    m = Match.create("enquete", 6, 4)
    rng = random.Random(4)
    while m.outcome() is None:
        for viewer in (0, SPECTATOR):
            state = m.view(viewer)["state"]
            roles = {r["id"] for r in state["role_list"]}
            assert {x["role"] for x in state["seats"] if x["role"]} <= roles
            assert {t["status"] for t in state["role_tokens"]} <= set(state["token_status_names"])
            assert state["direction_name"] in ("clockwise", "counter-clockwise")
            for c in state.get("me", {}).get("hand", []):
                assert state["action_names"][str(c["number"])] == c["name"] and c["timing_name"]
        s = min(m.pending())
        m.submit(s, rng.choice(list(m.legal(s))))
