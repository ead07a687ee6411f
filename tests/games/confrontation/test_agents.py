"""The heuristic bot plays either side from its view alone."""

from __future__ import annotations

import copy
import io
import random
from typing import Any

import pytest
from rich.console import Console

from deathnote.agents import Agent, Observation, agent_rng, make_agent, observe
from deathnote.cli.play import TerminalGame, parse_seat
from deathnote.cli.render import render_view
from deathnote.engine import Match
from deathnote.games.confrontation import GAME
from deathnote.games.confrontation.agents import HABIT_EVIDENCE, CautiousAgent, HeuristicAgent
from deathnote.games.confrontation.state import KIRA, L
from deathnote.sim.runner import Batch, play_one
from tests.terminal_input import first_key


@pytest.mark.parametrize("chapter", [1, 2])
def test_heuristic_plays_both_sides_to_the_end(chapter: int) -> None:
    conditions = set()
    for seed in range(12):
        result = play_one(
            Batch("confrontation", 2, ("heuristic", "heuristic"), {"chapter": chapter}), seed
        )
        assert "error" not in result, result
        conditions.add(result["condition"])
    assert conditions <= {"points", "cold_case", "accusation_right", "accusation_wrong"}


def test_l_bot_accuses_the_last_remaining_suspect() -> None:
    match = Match.create("confrontation", 2, seed=4)
    state = match.state
    for s in range(20):
        if s != state.identity:
            state.eliminated[s] = "card"
    bot = HeuristicAgent(L)
    action = bot.choose(observe(match, L, random.Random(1)))
    assert action.kind == "accuse"
    match.submit(L, action)
    action = bot.choose(observe(match, L, random.Random(1)))
    assert action["suspect"] == state.tables.letters[state.identity]
    match.submit(L, action)
    outcome = match.outcome()
    assert outcome is not None and outcome.condition == "accusation_right"


def test_l_bot_follows_leads_while_several_suspects_remain() -> None:
    match = Match.create("confrontation", 2, seed=4)
    action = HeuristicAgent(L).choose(observe(match, L, random.Random(1)))
    assert action.kind == "follow"


def test_bot_depends_only_on_view_legal_and_rng() -> None:
    match = Match.create("confrontation", 2, seed=6, options={"chapter": 2})
    while match.outcome() is None:
        seat = min(match.pending())
        view = copy.deepcopy(match.view(seat))
        legal = list(match.legal(seat))
        first = HeuristicAgent(seat).choose(
            Observation(seat, legal, lambda v=view: v, random.Random(3))
        )
        again = HeuristicAgent(seat).choose(
            Observation(seat, legal, lambda v=view: v, random.Random(3))
        )
        assert first == again and first in legal
        match.submit(seat, first)


def test_kira_bot_keeps_cover_and_l_bot_covers_the_news() -> None:
    """Kira prefers a kill inside his Local Area when one is offered."""
    match = Match.create("confrontation", 2, seed=12)
    agents = [make_agent("confrontation", "heuristic", s) for s in (KIRA, L)]
    local_kills = regional_kills = 0
    while match.outcome() is None:
        seat = min(match.pending())
        action = agents[seat].choose(observe(match, seat, agent_rng(12, seat)))
        if action.kind == "kill":
            nb = match.view(KIRA)["state"]["notebook"]
            offered = match.view(KIRA)["state"]["news"]
            if any(n in nb["local_criminals"] for n in offered):
                if action["criminal"] in nb["local_criminals"]:
                    local_kills += 1
                else:
                    regional_kills += 1
        match.submit(seat, action)
    assert local_kills >= regional_kills


def test_terminal_play_as_kira_against_the_bot() -> None:
    match = Match.create("confrontation", 2, seed=21)
    names = match.seat_names()
    assert parse_seat("kira", names) == KIRA and parse_seat("L", names) == L
    out = io.StringIO()
    TerminalGame(
        match, {KIRA}, "heuristic", False, Console(file=out, width=120, height=50), read=first_key
    ).run()
    assert match.outcome() is not None
    text = out.getvalue()
    assert "Kira's notebook" in text and "Chapter 1 Map" in text


def test_renderer_draws_every_viewer() -> None:
    match = Match.create("confrontation", 2, seed=2, options={"chapter": 2})
    for _ in range(10):
        seat = min(match.pending())
        match.submit(
            seat,
            match.legal(seat)[0],
        )
    for viewer in (KIRA, L, "spectator", "omniscient"):
        out = io.StringIO()
        Console(file=out, width=140).print(render_view(match.view(viewer)))
        assert "Chapter 2 Map" in out.getvalue()
    assert GAME.agents()["heuristic"] is HeuristicAgent


def test_l_bot_guesses_when_kira_is_about_to_win() -> None:
    """With two Suspects left, L plays on while Kira is far from his points and guesses
    (a 1 in 2 chance beats a near-certain loss) when Kira needs one more point."""
    for points, want in ((0, "follow"), (14, "accuse")):
        match = Match.create("confrontation", 2, seed=4)
        state = match.state
        other = (state.identity + 1) % 20
        for s in range(20):
            if s not in (state.identity, other):
                state.eliminated[s] = "card"
        state.points = points
        action = HeuristicAgent(L).choose(observe(match, L, random.Random(1)))
        assert action.kind == want
        if want == "accuse":
            match.submit(L, action)
            name = HeuristicAgent(L).choose(observe(match, L, random.Random(1)))
            assert name["suspect"] in {state.tables.letters[s] for s in (state.identity, other)}


def test_cautious_l_accuses_only_when_certain() -> None:
    """CONF-BOT-02: the cautious L plays on with two Suspects left even when Kira needs one
    more point, and accuses once one Suspect is left."""
    for left, want in ((2, "follow"), (1, "accuse")):
        match = Match.create("confrontation", 2, seed=4)
        state = match.state
        keep = {state.identity, (state.identity + 1) % 20} if left == 2 else {state.identity}
        for s in range(20):
            if s not in keep:
                state.eliminated[s] = "card"
        state.points = 14
        action = CautiousAgent(L).choose(observe(match, L, random.Random(1)))
        assert action.kind == want


@pytest.mark.parametrize("chapter", [1, 2])
def test_chase_l_covers_the_richer_scene_and_kira_dodges_it(chapter: int) -> None:
    """CONF-BOT-01: L always goes to the scene worth more to Kira; in Chapter 1 Kira always
    takes the other one (in Chapter 2 one Chase in ten, else the equilibrium mix)."""
    seen = 0
    kira_sides: list[bool] = []
    for seed in range(40):
        match = Match.create("confrontation", 2, seed=seed, options={"chapter": chapter})
        match.submit(L, next(a for a in match.legal(L) if a.kind == "follow"))
        lead = match.view(L)["state"]["lead"]
        worth = {s: lead[s]["points"] + 0.7 * lead[s]["apples"] for s in "AB"}
        if worth["A"] == worth["B"]:
            continue
        seen += 1
        rich = max(worth, key=worth.__getitem__)
        for r in range(5):
            l_side = HeuristicAgent(L).choose(observe(match, L, random.Random(r)))
            assert l_side["side"] == rich
            kira = HeuristicAgent(KIRA).choose(observe(match, KIRA, random.Random(r)))
            kira_sides.append(kira["side"] != rich)
    assert seen >= 5
    if chapter == 1:
        assert all(kira_sides)
    else:
        assert not all(kira_sides)


def _chase_log(kira: str, l_side: str, days: int) -> list[dict[str, Any]]:
    """A log of ``days`` Chases where A is worth more than B and the sides chose so."""
    entry = {"text": "lead", "data": {"scenes": {"A": [3, 0], "B": [1, 0]}}}
    tokens = {"text": "tokens", "data": {"kira": kira, "l": l_side}}
    return [entry, tokens] * days


def test_bots_read_the_other_sides_chase_habit() -> None:
    """CONF-BOT-01: L stops covering the richer scene once Kira kept dodging it (four
    Chases), Kira stops dodging once L is seen not covering; a Kira who takes either scene
    does not make L stop covering."""
    l_bot, kira_bot = HeuristicAgent(L), HeuristicAgent(KIRA)
    threshold = HABIT_EVIDENCE
    assert l_bot.other_habit(_chase_log("B", "A", 3)) < threshold[L]
    assert l_bot.other_habit(_chase_log("B", "A", 4)) >= threshold[L]
    mixed = _chase_log("A", "A", 2) + _chase_log("B", "A", 2)
    assert l_bot.other_habit(mixed) < threshold[L]
    assert kira_bot.other_habit([]) >= threshold[KIRA]  # dodges until shown otherwise
    assert kira_bot.other_habit(_chase_log("B", "A", 3)) >= threshold[KIRA]
    assert kira_bot.other_habit(_chase_log("B", "B", 1)) < threshold[KIRA]


def test_playout_policy_accuses_only_when_certain_and_kills_locally() -> None:
    """The search bot's play-out policy: L follows while two Suspects are left and accuses
    the last one; Kira kills in his Local Area whenever tonight's news allows it."""
    policy = GAME.playout_policy()
    match = Match.create("confrontation", 2, seed=4)
    state = match.state
    others = [s for s in range(20) if s != state.identity]
    for s in others[:-1]:
        state.eliminated[s] = "card"
    rng = random.Random(1)
    assert policy(state, L, match.legal(L), rng).kind == "follow"
    state.eliminated[others[-1]] = "card"
    assert policy(state, L, match.legal(L), rng).kind == "accuse"
    # Kira: a night whose news holds one local criminal among two regional ones.
    for seed in range(40):
        match = Match.create("confrontation", 2, seed=seed)
        bots = [make_agent("confrontation", "heuristic", s) for s in (KIRA, L)]
        rngs = [agent_rng(seed, s) for s in (KIRA, L)]
        while match.outcome() is None and match.state.phase != "kill":
            seat = min(match.pending())
            match.submit(seat, bots[seat].choose(observe(match, seat, rngs[seat])))
        state = match.state
        t = state.tables
        local = {t.numbers[c] for c in state.news if t.local_mask[c] >> state.identity & 1}
        if match.outcome() is None and 0 < len(local) < len(state.news):
            break
    else:
        pytest.fail("no night with a mixed news in 40 games")
    legal = match.legal(KIRA)
    assert len(legal) == len(state.news)
    picks = {policy(state, KIRA, legal, random.Random(i))["criminal"] for i in range(30)}
    assert picks == local


def test_evaluate_estimates_at_the_start_of_a_day_only() -> None:
    """The search bot's estimate: each seat's chance at a day's start (None mid-day), more
    for L with fewer Suspects left or more points still to Kira's target, the result at
    the end."""
    match = Match.create("confrontation", 2, seed=4)
    state = match.state
    kira, l_value = GAME.evaluate(state)
    assert 0.0 < l_value < 1.0 and kira == pytest.approx(1.0 - l_value)
    fewer = state.fork()
    for s in [s for s in range(20) if s != state.identity][:12]:
        fewer.eliminated[s] = "card"
    assert GAME.evaluate(fewer)[1] > l_value
    scored = state.fork()
    scored.points = 12
    assert GAME.evaluate(scored)[1] < l_value
    last = state.fork()
    last.eliminated = {s: "card" for s in range(20) if s != state.identity}
    assert GAME.evaluate(last) == (0.0, 1.0)
    match.submit(L, match.legal(L)[0])  # follow: the Chase, mid-day
    assert match.state.phase == "chase" and GAME.evaluate(match.state) is None
    ended = Match.create("confrontation", 2, seed=4)
    ended.submit(L, next(a for a in ended.legal(L) if a.kind == "accuse"))
    ended.submit(L, ended.legal(L)[0])
    outcome = ended.outcome()
    assert outcome is not None
    assert GAME.evaluate(ended.state) == (
        float(KIRA in outcome.winning_seats),
        float(L in outcome.winning_seats),
    )


def test_search_prior_each_side_expects_the_other_to_read_its_chases() -> None:
    """The search bot's prior (``Game.search_prior``): its L expects Kira to dodge while L
    looks like he covers the richer scene (as Kira's bot reads the log) and goes to the
    poorer one; once L was seen at the poorer scene (Kira then mixes) he covers the richer
    one as the heuristic bot does. Its Kira takes the poorer scene while L (reading the
    log as L's bot does) still covers the richer one, in Chapter 2 too, where the heuristic
    Kira mostly mixes; once L has seen four dodges it plays as the heuristic Kira."""
    for seed in range(40):
        match = Match.create("confrontation", 2, seed=seed, options={"chapter": 2})
        match.submit(L, next(a for a in match.legal(L) if a.kind == "follow"))
        lead = match.view(L)["state"]["lead"]
        worth = {s: lead[s]["points"] + 0.7 * lead[s]["apples"] for s in "AB"}
        if abs(worth["A"] - worth["B"]) > 1:
            break
    rich = max(worth, key=worth.__getitem__)
    poor = min(worth, key=worth.__getitem__)
    assert match.view(L)["decision"]["kind"] == "chase"

    def sides(bot: Agent, seat: int, log: list[dict[str, Any]]) -> set[str]:
        seen = dict(match.view(seat), log=log)
        return {
            str(
                bot.choose(Observation(seat, match.legal(seat), lambda: seen, random.Random(r)))[
                    "side"
                ]
            )
            for r in range(30)
        }

    prior_l, prior_kira = GAME.search_prior(L), GAME.search_prior(KIRA)
    assert isinstance(prior_l, HeuristicAgent) and isinstance(prior_kira, HeuristicAgent)
    assert sides(prior_l, L, []) == {poor}
    assert sides(prior_l, L, _chase_log("B", "A", 3)) == {poor}
    assert sides(prior_l, L, _chase_log("A", "B", 1)) == {rich}
    assert sides(HeuristicAgent(L), L, []) == {rich}
    assert sides(prior_kira, KIRA, []) == {poor}
    assert sides(prior_kira, KIRA, _chase_log("A", "B", 1)) == {poor}
    assert sides(HeuristicAgent(KIRA), KIRA, []) == {"A", "B"}
    read = _chase_log("B", "A", 4)
    assert sides(prior_kira, KIRA, read) == sides(HeuristicAgent(KIRA), KIRA, read)
