"""The optional Shinigami Eyes rule for X-Kira, and chasing X-Kira."""

from __future__ import annotations

from deathnote.engine import Match

from .helpers import act, arrange, new, poke, st, texts


def eyes_match(players: int = 5, rules: str = "light") -> Match:
    m = new(players, seed=8, rules=rules, shinigami_eyes=True)
    arrange(m, missions={0: "x_kira", 1: "kira", 2: "l", 3: "team_member"})
    return m


def finish_answer(m: Match) -> None:
    while st(m).phase in ("cover", "return", "reveal"):
        s = min(m.pending())
        m.submit(s, m.legal(s)[0])


def open_eyes(m: Match, seat: int, target: int, **kind: str) -> None:
    """Investigate, let the target answer, then reveal X-Kira and open the eyes."""
    act(m, seat, "investigate", target=target, **kind)
    finish_answer(m)
    act(m, seat, "open_eyes")


def test_eyes_offered_only_to_x_kira_with_the_option() -> None:
    m = eyes_match()
    act(m, 0, "investigate", target=2)
    finish_answer(m)
    assert [a.kind for a in m.legal(0)] == ["done", "open_eyes"]
    plain = new(5, seed=8)
    arrange(plain, missions={0: "x_kira"})
    act(plain, 0, "investigate", target=2)
    finish_answer(plain)
    assert st(plain).current == 1  # no Shinigami Eyes question without the option
    other = new(5, seed=8, shinigami_eyes=True)
    arrange(other, missions={0: "team_member"})
    act(other, 0, "investigate", target=2)
    finish_answer(other)
    assert [a.kind for a in other.legal(0)] == ["done"]


def test_eyes_decided_after_the_answer_and_asked_of_every_investigator() -> None:
    m = eyes_match()
    # The choice is not made with the investigation: it comes at its end.
    assert not any(a.get("eyes") for a in m.legal(0))
    act(m, 0, "investigate", target=2)
    finish_answer(m)
    assert st(m).history[-1]["covered"]  # the answer is known when X-Kira decides
    assert m.pending()[0].kind == "eyes"
    act(m, 0, "done")
    assert not st(m).seats[0].mission_revealed
    # The Team Member (seat 3) and Kira (seat 1) get the same question, with one answer.
    for seat in (1, 2, 3):
        assert st(m).current == seat
        act(m, seat, "investigate", target=0)
        finish_answer(m)
        assert m.pending()[seat].kind == "eyes"
        assert [a.kind for a in m.legal(seat)] == ["done"]
        act(m, seat, "done")


def test_x_kira_reveals_and_looks_at_the_end_of_the_investigation() -> None:
    m = eyes_match()
    act(m, 0, "investigate", target=2)
    assert not st(m).seats[0].mission_revealed  # only at the end of the investigation
    finish_answer(m)
    act(m, 0, "open_eyes")
    assert st(m).seats[0].mission_revealed
    seen = st(m).seats[2].identity
    assert st(m).seats[0].looks == {2: seen}
    assert m.view(0)["state"]["me"]["looks"] == {"2": seen}
    for viewer in (1, 2, 3, 4, "spectator"):
        view = m.view(viewer)
        assert view["state"]["seats"][0]["mission"] == "x_kira"
        assert view["state"]["seats"][0]["eyes"]
        assert all("Your Shinigami Eyes" not in e["text"] for e in view["log"])
        if viewer != 2:
            assert view["state"]["seats"][2]["identity"] is None
    assert "Player 1 reveals the X-Kira Mission and opens the Shinigami Eyes." in texts(m)
    # He cannot show the card but may speak about it: the digital form is an announcement.
    assert m.pending()[0].kind == "announce"
    act(m, 0, "announce", identity=seen)
    assert st(m).claims == [{"by": 0, "seat": 2, "identity": seen, "turn": 1}]


def test_x_kira_may_announce_a_lie() -> None:
    m = eyes_match()
    open_eyes(m, 0, 2)
    seen = st(m).seats[2].identity
    said = [a["identity"] for a in m.legal(0) if a.kind == "announce"]
    assert said == st(m).clue_ids[:8]  # every Identity, the one he saw among them
    assert [a.kind for a in m.legal(0)][-1] == "quiet"
    truth = next(a for a in m.legal(0) if a.get("identity") == seen)
    assert "what your eyes saw" in truth.label
    lie = next(i for i in said if i != seen)
    before = {v: m.view(v)["state"]["seats"] for v in (1, 2, 3, 4, "spectator")}
    act(m, 0, "announce", identity=lie)
    assert st(m).claims == [{"by": 0, "seat": 2, "identity": lie, "turn": 1}]
    name = st(m).tables.names[lie]
    assert f"Player 1 (X-Kira) says that Player 3 is {name}." in texts(m)
    # A claim is not a reveal: nobody's view of Player 3's Identity changes.
    for v, seats in before.items():
        assert m.view(v)["state"]["seats"] == seats


def test_announcement_choices_do_not_depend_on_the_truth() -> None:
    """Whatever the eyes saw, the X-Kira is offered the same announcements in the same order
    (only his own label of the true one differs), and other seats see nothing of it."""
    a, b = eyes_match(), eyes_match()
    ids = st(b).clue_ids[:8]
    other = next(i for i in ids if i not in {x.identity for x in st(b).seats})
    st(b).seats[2].identity = other
    poke(b)
    for m in (a, b):
        open_eyes(m, 0, 2)
    assert a.legal(0) == b.legal(0)
    assert a.pending()[0] == b.pending()[0]
    for v in (1, 3, 4, "spectator"):
        assert a.view(v) == b.view(v)


def test_revealed_x_kira_looks_at_every_investigation() -> None:
    m = eyes_match()
    open_eyes(m, 0, 2)
    act(m, 0, "quiet")
    st(m).order = [*st(m).order, 0]  # give X-Kira another investigation
    while st(m).current != 0:
        s = min(m.pending())
        m.submit(s, m.legal(s)[0])
    act(m, 0, "investigate", target=3)
    finish_answer(m)
    assert m.pending()[0].kind == "announce"  # already open: no question, a look
    assert set(st(m).seats[0].looks) == {2, 3}


def test_chase_x_kira_makes_a_revealed_x_kira_pass() -> None:
    m = eyes_match()
    s = st(m)
    s.seats[0].mission_revealed = True  # opened the eyes on an earlier turn
    s.current = 4
    s.order = [0]
    poke(m)
    chase = [a for a in m.legal(4) if a.kind == "chase"]
    assert [a["x_kira"] for a in chase] == [0]
    act(m, 4, "chase", x_kira=0)
    assert "Player 1 is chased and passes." in texts(m)
    assert st(m).phase == "arrest"


def test_no_chase_once_x_kira_has_investigated_or_when_hidden() -> None:
    m = eyes_match()
    assert not any(a.kind == "chase" for a in m.legal(0))
    open_eyes(m, 0, 2)
    act(m, 0, "quiet")
    # X-Kira already investigated this turn: nobody can chase him now.
    assert not any(a.kind == "chase" for a in m.legal(1))
    hidden = new(5, seed=8, shinigami_eyes=True)
    arrange(hidden, missions={3: "x_kira"})
    assert not any(a.kind == "chase" for a in hidden.legal(0))


def test_eyes_with_kira_rules() -> None:
    m = eyes_match(rules="kira")
    open_eyes(m, 0, 2, type="mission")
    assert st(m).seats[0].looks == {2: st(m).seats[2].identity}


def test_no_eyes_question_when_no_x_kira_is_in_the_box() -> None:
    m = new(5, seed=8, shinigami_eyes=True, x_kira=0)
    act(m, 0, "investigate", target=2)
    finish_answer(m)
    assert st(m).current == 1 and st(m).phase == "investigate"
