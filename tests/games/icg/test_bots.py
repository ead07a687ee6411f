"""The heuristic bot: deduction, careful arrests, and games that always end."""

from __future__ import annotations

import pytest

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine import Match
from deathnote.engine.play import play
from deathnote.games.icg.deduce import Beliefs, beliefs

from .helpers import arrange, new, poke, quiet_investigation_phase, st


def run(m: Match, bots: str, seed: int) -> Match:
    play(m, [make_agent("icg", bots, s) for s in range(m.players)], seed, max_actions=20_000)
    return m


@pytest.mark.parametrize("rules", ["light", "kira"])
@pytest.mark.parametrize("eyes", [False, True])
@pytest.mark.parametrize("players", [4, 8])
def test_heuristic_games_end(rules: str, eyes: bool, players: int) -> None:
    for seed in range(3):
        m = Match.create("icg", players, seed, {"rules": rules, "shinigami_eyes": eyes})
        out = run(m, "heuristic", seed).outcome()
        assert out is not None and out.condition != "turn_limit"


def test_deduction_light_rules() -> None:
    m = new(5, seed=40)
    arrange(m, missions={0: "l", 1: "kira", 2: "team_member", 3: "team_member", 4: "x_kira"})
    s = st(m)
    s.seats[2].covered = ["kira", "x_kira"]
    s.seats[3].covered = ["kira"]
    s.seats[4].covered = ["kira"]
    b = beliefs(m.view(0)["state"])
    assert "kira" not in b.options[2] and "l" not in b.options[2]  # I am L
    seats = [1, 2, 3, 4]
    assert b.team_probability(1, "kira", seats) == 1.0
    assert b.team_probability(2, "kira", seats) == 0.0


def test_deduction_identities_unique() -> None:
    m = new(4, seed=41)
    s = st(m)
    ids = s.clue_ids[:8]
    mine = s.seats[0].identity
    keep = [s.seats[1].identity, next(i for i in ids if i not in (mine, s.seats[1].identity))]
    s.seats[1].covered = [i for i in ids if i not in keep][:6]
    b = beliefs(m.view(0)["state"])
    assert b.identities(1) <= set(keep) and mine not in b.identities(2)


def test_heuristic_l_does_not_arrest_blind() -> None:
    for seed in range(10):
        m = new(6, seed=seed)
        arrange(m, missions={2: "l"})
        quiet_investigation_phase(m)
        bot = make_agent("icg", "heuristic", 2)
        choice = bot.choose(observe(m, 2, agent_rng(seed, 2)))
        assert choice.kind == "pass"


def test_heuristic_l_arrests_a_certain_kira() -> None:
    m = new(5, seed=42)
    arrange(m, missions={0: "l", 3: "kira"})
    for s in (1, 2, 4):
        st(m).seats[s].covered = ["kira"]
    quiet_investigation_phase(m)
    bot = make_agent("icg", "heuristic", 0)
    choice = bot.choose(observe(m, 0, agent_rng(1, 0)))
    assert choice.kind == "arrest" and choice["target"] == 3


def test_heuristic_kira_writes_the_known_l() -> None:
    m = new(5, seed=43)
    arrange(m, missions={1: "kira", 4: "l", 0: "team_member", 2: "team_member", 3: "x_kira"})
    s = st(m)
    for t in (0, 2, 3):
        s.seats[t].covered = ["l"]
    ids = s.clue_ids[:8]
    s.seats[4].covered = [i for i in ids if i != s.seats[4].identity][:7]
    s.seats[4].covered = s.seats[4].covered[:6]
    from .helpers import to_death_note

    to_death_note(m)
    bot = make_agent("icg", "heuristic", 1)
    rng = agent_rng(1, 1)
    write = bot.choose(observe(m, 1, rng))
    assert write.kind == "write"
    up = [i for i in ids if i not in s.seats[4].covered]
    assert write["identity"] in up
    m.submit(1, write)
    for t in (0, 2, 3, 4):
        m.submit(t, m.legal(t)[0])
    place = bot.choose(observe(m, 1, rng))
    assert place.kind == "place" and place["placement"] == 4


def test_heuristic_x_kira_opens_the_eyes_after_the_answer_on_a_likely_l() -> None:
    def at_eyes(target: int) -> Match:
        m = new(4, seed=5, shinigami_eyes=True)
        arrange(m, missions={0: "x_kira", 1: "kira", 2: "l", 3: "team_member"})
        s = st(m)
        s.seats[3].out = s.seats[3].mission_revealed = True  # a Team Member, out
        s.seats[1].covered = ["l"]  # Player 2 cannot be L, so Player 3 is
        poke(m)
        m.submit(0, next(a for a in m.legal(0) if a["target"] == target))
        while st(m).phase == "cover":
            m.submit(target, m.legal(target)[0])
        assert m.pending()[0].kind == "eyes"
        return m

    bot = make_agent("icg", "heuristic", 0)
    likely = at_eyes(2)
    assert bot.choose(observe(likely, 0, agent_rng(1, 0))).kind == "open_eyes"
    unlikely = at_eyes(1)
    assert bot.choose(observe(unlikely, 0, agent_rng(1, 0))).kind == "done"


def announce_position(seed: int, target_could_be_l: bool) -> Match:
    """Player 1 (X-Kira) has just opened the eyes on Player 3."""
    m = new(5, seed=seed, shinigami_eyes=True)
    arrange(m, missions={0: "x_kira", 1: "kira", 2: "team_member", 3: "l", 4: "team_member"})
    if not target_could_be_l:
        st(m).seats[2].covered = ["l"]  # Player 3 shows he is not L
        poke(m)
    m.submit(0, next(a for a in m.legal(0) if a.get("target") == 2))
    while st(m).phase == "cover":
        m.submit(2, m.legal(2)[0])
    m.submit(0, next(a for a in m.legal(0) if a.kind == "open_eyes"))
    assert m.pending()[0].kind == "announce"
    return m


def test_heuristic_x_kira_mostly_tells_the_truth() -> None:
    bot = make_agent("icg", "heuristic", 0)
    for could_be_l in (True, False):
        said = []
        for seed in range(60):
            m = announce_position(seed % 5, could_be_l)
            choice = bot.choose(observe(m, 0, agent_rng(seed, 0)))
            assert choice.kind == "announce"
            truth = st(m).seats[2].identity
            said.append(choice["identity"] == truth)
            if choice["identity"] != truth:  # a bluff the table cannot refute
                assert choice["identity"] not in st(m).seats[2].covered
        if could_be_l:
            assert all(said)  # Kira needs the truth about a possible L
        else:
            assert 0.5 < sum(said) / len(said) < 0.95


def test_deduction_ignores_a_refuted_claim() -> None:
    m = new(5, seed=44)
    s = st(m)
    ids = s.clue_ids[:8]
    mine = s.seats[0].identity
    truth = s.seats[2].identity
    covered = next(i for i in ids if i not in (mine, truth))
    s.seats[2].covered = [covered]
    believable = next(i for i in ids if i not in (mine, truth, covered))
    s.claims = [{"by": 4, "seat": 2, "identity": covered, "turn": 1}]
    assert beliefs(m.view(0)["state"]).identities(2) == set(ids) - {mine, covered}
    s.claims.append({"by": 4, "seat": 2, "identity": believable, "turn": 1})
    assert beliefs(m.view(0)["state"]).identities(2) == {believable}
    s.claims.append({"by": 4, "seat": 2, "identity": mine, "turn": 1})  # I know it is mine
    assert beliefs(m.view(0)["state"]).identities(2) == set(ids) - {mine, covered}


def test_every_decision_has_typed_data_and_the_bot_knows_every_kind() -> None:
    from deathnote.games.icg.agents import HANDLERS

    kinds = set()
    for seed, opts in enumerate(
        [{"shinigami_eyes": True}, {"rules": "kira", "shinigami_eyes": True}] * 3
    ):
        m = Match.create("icg", 5, seed, opts)
        agents = [make_agent("icg", "heuristic", s) for s in range(5)]
        rngs = [agent_rng(seed, s) for s in range(5)]
        while m.outcome() is None:
            for s, d in m.pending().items():
                assert d.data["step"] and m.view(s)["decision"]["data"] == dict(d.data)
                kinds.add(d.kind)
            s = min(m.pending())
            m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
    assert kinds <= set(HANDLERS) and {"investigate", "arrest", "death_note"} <= kinds


def test_a_broken_bot_fails_instead_of_playing_at_random() -> None:
    from deathnote.agents.base import Observation

    m = new(5, seed=1)
    view = m.view(0)
    view["decision"] = {"kind": "no_such_decision", "prompt": "", "data": {}}
    bot = make_agent("icg", "heuristic", 0)
    with pytest.raises(KeyError):
        bot.choose(Observation(0, m.legal(0), lambda: view, agent_rng(1, 0)))


def test_randomness_only_through_the_engine() -> None:
    import re
    from pathlib import Path

    import deathnote.games.icg as pkg

    for path in Path(pkg.__file__).parent.glob("*.py"):
        text = path.read_text()
        assert not re.search(r"rng\.(shuffle|choice|randint|randrange|sample)\(", text), path
        assert "_randbelow" not in text, path


def _team_share(b: Beliefs, seat: int, mission: str, seats: list[int]) -> float:
    """The test's own reference: ``seat``'s odds of holding ``mission`` over the seats' sum
    (1 or 0 where some seat is certain of it)."""
    odds = {}
    for s in seats:
        p = b.mission[s].get(mission, 0.0)
        if p >= 1.0:
            return 1.0 if s == seat else 0.0
        odds[s] = p / (1.0 - p)
    total = sum(odds.values())
    return odds.get(seat, 0.0) / total if total > 0 else 0.0


def test_team_probabilities_are_each_seats_team_probability() -> None:
    """``Beliefs.team_probabilities`` gives every asked seat the figure ``team_probability``
    gives it, for both hunted Missions, at every position of heuristic games (a found Kira
    or L among them: some seat at certainty)."""
    certain = 0
    for seed, options in enumerate([{}, {"rules": "kira"}, {"shinigami_eyes": True}]):
        m = Match.create("icg", 5 + seed, seed, options)
        bots = [make_agent("icg", "heuristic", s) for s in range(m.players)]
        rngs = [agent_rng(seed, s) for s in range(m.players)]
        while m.outcome() is None:
            for viewer in range(m.players):
                view = m.view(viewer)["state"]
                b = beliefs(view)
                seats = [s for s in range(m.players) if s != viewer]
                for mission in ("kira", "l"):
                    got = b.team_probabilities(mission, seats, seats[::-1])
                    assert list(got) == seats[::-1]
                    assert got == {s: _team_share(b, s, mission, seats) for s in seats}
                    certain += 1.0 in got.values()
            s = min(m.pending())
            m.submit(s, bots[s].choose(observe(m, s, rngs[s])))
    assert certain > 0
