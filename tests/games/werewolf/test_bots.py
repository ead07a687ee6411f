"""The heuristic bot: whole games, and the habits the issue asks of each Role."""

from __future__ import annotations

import random

import pytest

from deathnote.agents import make_agent, observe
from deathnote.engine import Action, Match
from deathnote.engine.play import play as play_to_end
from deathnote.games.werewolf.agents import HeuristicAgent

from .helpers import act, new, set_hand, set_roles, st
from .test_judgment import quiet_table, to_judgment


def play(m: Match, names: list[str], seed: int) -> None:
    play_to_end(m, [make_agent("werewolf", n, s) for s, n in enumerate(names)], seed)


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_heuristic_games_end(players: int) -> None:
    for seed in range(4):
        m = Match.create("werewolf", players, seed)
        play(m, ["heuristic"] * players, seed)
        assert m.outcome() is not None
        mixed = Match.create("werewolf", players, seed + 100)
        play(mixed, ["heuristic", "random"] * 4, seed)
        assert mixed.outcome() is not None


def choose(m: Match, seat: int, agent: HeuristicAgent | None = None) -> dict[str, object]:
    bot = agent or HeuristicAgent(seat)
    return bot.choose(observe(m, seat, random.Random(0))).to_json()


def test_kira_hides_the_death_note() -> None:
    for seed in range(5):
        m = new(4, seed)
        set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
        set_hand(m, 0, ["interrogation", "vote", "alibi"])
        set_hand(m, 1, ["death_note", "vote"])
        act(m, "play", card="interrogation")
        act(m, "direction", dir="left")
        assert choose(m, 1)["card"] == "vote"


def test_l_keeps_arrest_when_passing() -> None:
    m = new(4, 1)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["interrogation", "vote", "alibi"])
    set_hand(m, 2, ["arrest", "exchange"])
    act(m, "play", card="interrogation")
    act(m, "direction", dir="left")
    assert choose(m, 2)["card"] == "exchange"


def test_l_keeps_arrest_without_confidence() -> None:
    for seed in range(5):
        m = new(6, seed)
        set_roles(m, {0: "l"})
        set_hand(m, 0, ["arrest", "vote", "exchange"])
        assert choose(m, 0)["card"] != "arrest"


def test_l_arrests_a_known_kira() -> None:
    m = new(6, 2)
    set_roles(m, {0: "l", 4: "kira"})
    st(m).seats[0].known_roles[4] = "kira"
    set_hand(m, 0, ["arrest", "vote", "exchange"])
    bot = HeuristicAgent(0)
    assert choose(m, 0, bot) == {"kind": "play", "card": "arrest"}
    act(m, "play", card="arrest")
    assert choose(m, 0, bot) == {"kind": "target", "seat": 4}


def test_kira_kills_the_known_l_and_spares_the_worshipper() -> None:
    m = quiet_table(
        5,
        {0: "l", 1: "kira", 2: "police", 3: "worshipper", 4: "police"},
        {0: ["arrest", "arrest", "vote"], 1: ["death_note", "vote"]},
    )
    st(m).seats[0].hand.remove("vote")
    act(m, "play", card="arrest")  # L shows itself by arresting Player 3
    act(m, "target", seat=2)
    to_judgment(m)
    assert choose(m, 3) == {"kind": "suggest", "seat": 0}
    act(m, "suggest", by=3, seat=0)
    for seat in (0, 1, 2, 4):
        act(m, "wait", by=seat)
    assert choose(m, 1) == {"kind": "write", "seat": 0}


def test_bot_reads_only_its_view() -> None:
    # The bot is built from a seat number and decides from Observation alone.
    m = new(5, 3)
    obs = observe(m, 0, random.Random(1))
    action = HeuristicAgent(0).choose(obs)
    assert action in m.legal(0)


def l_win_rate(players: int, kira_smart: bool, l_smart: bool, games: int) -> float:
    """How often the L team wins with each team played by the heuristic or the random bot
    (the seats' Roles are read from the state here only to seat the bots)."""
    wins = 0
    for seed in range(games):
        m = Match.create("werewolf", players, seed)
        agents = []
        for s, x in enumerate(st(m).seats):
            smart = kira_smart if x.role in ("kira", "worshipper") else l_smart
            agents.append(HeuristicAgent(s) if smart else make_agent("werewolf", "random", s))
        play_to_end(m, agents)
        out = m.outcome()
        assert out is not None
        wins += out.winners == ("l",)
    return wins / games


def test_heuristic_teams_beat_random_teams() -> None:
    base = l_win_rate(5, False, False, 300)
    assert l_win_rate(5, False, True, 300) > base + 0.1  # a smart L team wins more
    assert l_win_rate(5, True, False, 300) < base - 0.03  # a smart Kira team wins more


def test_bot_spots_a_renumbered_death_note() -> None:
    m = new(4, 3)
    set_roles(m, {0: "l", 1: "police", 2: "police", 3: "kira"})
    set_hand(m, 0, ["surveillance", "arrest", "alias"])
    set_hand(m, 1, ["interrogation", "exchange"])
    set_hand(m, 3, ["death_note", "vote"])
    act(m, "play", card="surveillance")
    act(m, "target", seat=3)
    bot = HeuristicAgent(0)
    bot.update(m.view(0))
    assert bot.dn == 3 and bot.kira is None
    act(m, "play", card="interrogation")
    act(m, "direction", dir="left")
    m.submit(0, {"kind": "give", "card": "alias"})
    m.submit(1, m.legal(1)[0])
    m.submit(2, m.legal(2)[0])
    m.submit(3, {"kind": "give", "card": "vote"})  # Kira renumbers the DEATH NOTE
    bot.update(m.view(0))
    assert bot.kira == 3


def test_bot_reads_nothing_into_a_card_given_back() -> None:
    m = new(4, 3)
    set_roles(m, {0: "l", 1: "police", 2: "police", 3: "kira"})
    set_hand(m, 0, ["surveillance", "exchange", "alias"])
    set_hand(m, 1, ["death_note", "exchange"])
    act(m, "play", card="surveillance")
    act(m, "target", seat=1)
    bot = HeuristicAgent(0)
    bot.update(m.view(0))
    assert bot.dn == 1
    act(m, "play", card="exchange")  # the Police holding the notebook exchanges with L
    act(m, "target", seat=0)
    act(m, "give", card="alias")
    act(m, "give", card="alias")  # any card may be given back: nothing to read
    bot.update(m.view(0))
    assert bot.kira is None


def test_l_team_exchanges_with_a_known_notebook_holder() -> None:
    m = new(4, 5)
    set_roles(m, {0: "police", 1: "l", 2: "kira", 3: "police"})
    set_hand(m, 0, ["surveillance", "exchange", "alias"])
    set_hand(m, 2, ["death_note", "vote"])
    act(m, "play", card="surveillance")
    act(m, "target", seat=2)
    bot = HeuristicAgent(0)
    view = m.view(0)
    bot.update(view)
    assert bot.probe_target() == 2
    play_exchange = Action.make("play", card="exchange")
    discard_alias = Action.make("discard", card="alias")
    hand = ["exchange", "alias", "vote"]
    assert bot.score_turn(play_exchange, view, hand) > bot.score_turn(discard_alias, view, hand)
    assert bot.target_for("exchange", observe(m, 1, random.Random(0)), view) == 2
    # Seat 1 saw nothing: it knows no holder to probe.
    other = HeuristicAgent(1)
    other.update(m.view(1))
    assert other.probe_target() is None
