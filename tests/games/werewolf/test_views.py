"""Views: nobody sees more than at the table (the secret-swap property), replays, the end."""

from __future__ import annotations

import orjson
from hypothesis import given, settings
from hypothesis import strategies as hs

from deathnote.agents import RandomAgent, agent_rng, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Action, Event, Match
from deathnote.engine.play import play
from deathnote.games.werewolf.rules import sort_cards

from .helpers import new, poke, st

SEAT_KEYS = ("seat", "target", "to", "kira", "worshipper")


def play_random(players: int, seed: int, **options: object) -> list[tuple[int, Action]]:
    """The actions of a random game."""
    m = Match.create("werewolf", players, seed, options or None)
    play(m, [RandomAgent(s) for s in range(players)])
    return list(m.actions)


def learns_about(event: Event, viewer: int, k: int) -> bool:
    """Whether a private event shows ``viewer`` something about seat ``k``."""
    if event.audience is None or viewer not in event.audience:
        return False
    data = event.data
    return any(data.get(key) == k for key in SEAT_KEYS) or k in data.get("ls", [])


@settings(max_examples=30, deadline=None)
@given(
    seed=hs.integers(0, 100_000),
    players=hs.sampled_from([4, 5, 6, 7]),
    pick=hs.integers(0, 6),
    change=hs.sampled_from(["hand", "role", "trade"]),
    reveal=hs.sampled_from(["table", "shooter"]),
)
def test_secret_swap_changes_only_that_seat(
    seed: int, players: int, pick: int, change: str, reveal: str
) -> None:
    actions = play_random(players, seed, handgun_reveal=reveal)
    a = Match.create("werewolf", players, seed, {"handgun_reveal": reveal})
    b = Match.create("werewolf", players, seed, {"handgun_reveal": reveal})
    sa, sb = st(a), st(b)
    k = pick % players
    changed = {k}
    draws_left = 10**9
    lteam = ("l", "police", "watari")
    if change == "hand":
        # One of k's cards trades places with the bottom card of the face-down deck.
        hand = sb.seats[k].hand
        i = pick % len(hand)
        if hand[i] == sb.deck[-1]:
            return
        hand[i], sb.deck[-1] = sb.deck[-1], hand[i]
        draws_left = len(sb.deck) - 1
    elif change == "role" and sb.seats[k].role in lteam:
        # k alone gets another L-team Role: only k may see a difference.
        sb.seats[k].role = [r for r in lteam if r != sb.seats[k].role][pick % 2]
    else:
        # k trades Roles with another seat j holding a different Role (the table's Role set
        # stays the same): only k and j may see a difference.
        others = [j for j in range(players) if sb.seats[j].role != sb.seats[k].role]
        j = others[(seed + pick) % len(others)]
        sb.seats[k].role, sb.seats[j].role = sb.seats[j].role, sb.seats[k].role
        changed.add(j)
    poke(b)
    start_turns = sb.turns
    excluded = set(changed)
    for seat, action in actions:
        if seat not in b.pending() or action not in b.legal(seat):
            break
        before = (len(a.events), len(b.events))
        a.submit(seat, action)
        b.submit(seat, action)
        if sa.reshuffles or sb.reshuffles or sb.turns - start_turns >= draws_left:
            break
        if any(e.data.get("type") == "stuck" for e in b.events[before[1] :]):
            break
        for e in [*a.events[before[0] :], *b.events[before[1] :]]:
            excluded |= {v for v in range(players) for c in changed if learns_about(e, v, c)}
        if a.view(SPECTATOR) != b.view(SPECTATOR):
            break  # a public consequence of the secret (a Judgment, an Arrest): stop here
        for viewer in range(players):
            if viewer not in excluded:
                assert a.view(viewer) == b.view(viewer), f"seat {viewer} learns about {changed}"


def test_secret_swap_catches_a_leak() -> None:
    # The checker itself: a public event naming a hand card would be caught.
    a, b = new(4, 1), new(4, 1)
    st(b).seats[2].hand[0] = "alibi" if st(b).seats[2].hand[0] != "alibi" else "vote"
    leak_a = Event.public("x", card=st(a).seats[2].hand[0])
    leak_b = Event.public("x", card=st(b).seats[2].hand[0])
    a.events.append(leak_a)
    b.events.append(leak_b)
    assert a.view(0) != b.view(0)


@settings(max_examples=8, deadline=None)
@given(seed=hs.integers(0, 100_000), players=hs.sampled_from([4, 5, 6, 7]))
def test_random_games_replay_identically(seed: int, players: int) -> None:
    actions = play_random(players, seed)
    m = Match.create("werewolf", players, seed)
    for seat, action in actions:
        m.submit(seat, action)
    record = orjson.loads(orjson.dumps(m.record()))
    again = Match.replay(record)
    for viewer in [*range(players), SPECTATOR, OMNISCIENT]:
        assert again.view(viewer) == m.view(viewer)


def test_spectator_sees_no_secret() -> None:
    m = new(7, 3)
    actions = play_random(7, 3, first_player=0)
    for seat, action in actions[: len(actions) // 2]:
        m.submit(seat, action)
    view = m.view(SPECTATOR)["state"]
    s = st(m)
    for i, x in enumerate(view["seats"]):
        assert x["role"] is None or not s.seats[i].alive or s.winner
    if not s.winner:
        assert "me" not in view and "hands" not in view and "deck_order" not in view
    assert all(e["data"].get("type") not in ("drew", "deal", "pass") for e in m.log(SPECTATOR))


def test_omniscient_sees_everything() -> None:
    m = new(5, 4)
    view = m.view(OMNISCIENT)["state"]
    assert [x["role"] for x in view["seats"]] == [x.role for x in st(m).seats]
    assert view["hands"] == [sort_cards(st(m), x.hand) for x in st(m).seats]
    assert len(view["deck_order"]) == len(st(m).deck)


def _containers(value: object, out: list[object]) -> list[object]:
    if isinstance(value, dict):
        out.append(value)
        for v in value.values():
            _containers(v, out)
    elif isinstance(value, list):
        out.append(value)
        for v in value:
            _containers(v, out)
    return out


def test_views_share_no_objects_with_the_state() -> None:
    # Rules version 2 handed a Surveillance's hand list to both the seat's state and the
    # event, so the looker's view log held the very list of the state.
    m = new(7, 6)
    for seat, action in play_random(7, 6, first_player=0)[:60]:
        m.submit(seat, action)
    s = st(m)
    inside: list[object] = [s.content, s.options, s.step, s.deck, s.discard, s.removed]
    for x in s.seats:
        inside += [x.hand, x.known_roles, x.seen_hands, *x.seen_hands.values()]
    _containers(s.content, inside)
    _containers(s.step, inside)
    for e in s.history:  # the events the state keeps for sampling
        _containers(e.data, inside)
    ids = {id(o) for o in inside}
    for viewer in [*range(7), SPECTATOR, OMNISCIENT]:
        view = m.view(viewer)
        assert not any(id(o) in ids for o in _containers(view, []))
        before = m.view(viewer)
        for o in _containers(view["state"], []):  # scribbling on a view changes nothing
            o.clear()  # type: ignore[attr-defined]
        assert m.view(viewer) == before


def test_decisions_carry_their_data() -> None:
    # Bots and screens read the decision's kind and data, never its prompt.
    seen: dict[str, set[str]] = {}
    for seed in range(6):
        m = Match.create("werewolf", 6, seed)
        agents = [RandomAgent(s) for s in range(6)]
        rngs = [agent_rng(seed, s) for s in range(6)]
        while m.outcome() is None:
            for seat, d in m.pending().items():
                data = d.data
                assert data["step"], d
                seen.setdefault(d.kind, set()).add(data["step"])
                if d.kind == "target":
                    assert data["card"] == st(m).step["card"]  # type: ignore[index]
                if d.kind in ("give_lowest", "give_back"):
                    assert data["to"] in range(6) and data["to"] != seat
                if d.kind == "give_back":
                    assert m.view(seat)["state"]["me"]["took"] == data["took"]
                assert m.view(seat)["decision"]["data"] == dict(data)
            s = min(m.pending())
            m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
    assert seen["give_lowest"] == {"exchange", "interrogation"}
    assert {"turn", "target", "judgment", "vote", "give_back", "direction"} <= set(seen)


def test_display_names_follow_what_the_viewer_may_see() -> None:
    """Role names ride along with the Roles a viewer sees, and nothing more (screens)."""
    for seed in range(5):
        actions = play_random(5, seed)
        m = Match.create("werewolf", 5, seed)
        for k, (seat, action) in enumerate(actions):
            if k % 7 == 0:
                for viewer in (0, 3, SPECTATOR):
                    state = m.view(viewer)["state"]
                    names = {r["id"]: r["name"] for r in state["role_list"]}
                    for x in state["seats"]:
                        assert x["role_name"] == (names[x["role"]] if x["role"] else None)
                    assert state["phase_name"] in ("Investigation", "Judgment")
                    assert set(state["team_names"]) == {"kira", "l"}
            m.submit(seat, action)
