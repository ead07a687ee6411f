"""The PettingZoo adapters pass PettingZoo's own API tests on every game and player count."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from deathnote.engine import OMNISCIENT, IllegalAction, Match, games
from deathnote.interop.common import match_rewards
from deathnote.interop.pettingzoo import env, parallel_env

CONFIGS = [
    (game_id, players)
    for game_id, game in sorted(games().items())
    for players in range(game.min_players, game.max_players + 1)
]
# Enough cycles for every game to reach its end in the play test (the longest random
# Werewolf games take about 600 actions), still well under a second per game.
CYCLES = 200


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # The API tests warn about dict observations ("not a NumPy array"), which PettingZoo's
    # own classic games also get: not a failure.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_pettingzoo_api_test(game_id: str, players: int) -> None:
    api_test(env(game_id, players), num_cycles=CYCLES)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_pettingzoo_parallel_api_test(game_id: str, players: int) -> None:
    parallel_api_test(parallel_env(game_id, players), num_cycles=CYCLES)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_pettingzoo_seed_test(game_id: str, players: int) -> None:
    seed_test(lambda: env(game_id, players), num_cycles=CYCLES)


def play_aec(game_id: str, players: int, seed: int) -> tuple[object, dict[str, object]]:
    """Random masked play to the end; each agent's (observation, reward) when it is done."""
    aec = env(game_id, players)
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, object] = {}
    for agent in aec.agent_iter():
        obs, reward, term, trunc, _ = aec.last()
        if term or trunc:
            final[agent] = (obs, reward)
            aec.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(rng.choice(legal)))
    return aec, final


@pytest.mark.parametrize("game_id", sorted(games()))
def test_final_observation_is_each_seats_own_view(game_id: str) -> None:
    players = games()[game_id].min_players
    aec, final = play_aec(game_id, players, seed=3)
    match = aec.match  # type: ignore[attr-defined]
    assert match.outcome() is not None
    assert set(final) == {f"player_{s}" for s in range(players)}
    rewards = match_rewards(match)
    hidden_somewhere = False
    for seat in range(players):
        obs, reward = final[f"player_{seat}"]  # type: ignore[misc]
        assert np.array_equal(obs["observation"], match.observation_tensor(seat))
        assert not obs["action_mask"].any()
        assert reward == rewards[seat]
        hidden_somewhere |= not np.array_equal(
            obs["observation"], match.observation_tensor(OMNISCIENT)
        )
    # The omniscient tensor shows more than at least one seat's own view.
    assert hidden_somewhere


@pytest.mark.usefixtures("toy_registered")
def test_rewards_are_plus_one_for_winners_and_minus_one_for_the_rest() -> None:
    aec, final = play_aec("toy", 2, seed=5)
    winner = aec.match.outcome().winning_seats[0]  # type: ignore[attr-defined]
    assert final[f"player_{winner}"][1] == 1.0  # type: ignore[index]
    assert final[f"player_{1 - winner}"][1] == -1.0  # type: ignore[index]
    # The toy's secret is seat 0's alone, also in the last observation.
    assert final["player_1"][0]["observation"][3] == 0.0  # type: ignore[index]
    assert final["player_0"][0]["observation"][3] > 0.0  # type: ignore[index]


@pytest.mark.usefixtures("toy_registered")
def test_aec_game_is_the_match_with_that_seed() -> None:
    aec, _ = play_aec("toy", 2, seed=9)
    record = aec.match.record()  # type: ignore[attr-defined]
    assert record["seed"] == 9
    assert Match.replay(record).outcome() == aec.match.outcome()  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_id", sorted(games()))
def test_masks_and_actions_are_the_matchs_own_numbers_at_every_step(game_id: str) -> None:
    """The env's mask is ``Match.legal_mask`` and a number plays ``Match.action_at`` of it,
    at every step of random games (the env lists numbers its own way, for speed)."""
    aec = env(game_id)
    rng = np.random.default_rng(5)
    for seed in range(3):
        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            if term or trunc:
                aec.step(None)
                continue
            seat = int(agent.removeprefix("player_"))
            match = aec.match
            assert np.array_equal(obs["action_mask"], match.legal_mask(seat))
            assert not obs["action_mask"].flags.writeable  # shared: read-only
            number = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            before = len(match.actions)
            aec.step(number)
            assert match.actions[before] == (seat, match.action_at(number))


def test_unseeded_resets_follow_the_last_seed_given() -> None:
    def seeds(first: int) -> list[int]:
        aec = env("confrontation")
        aec.reset(seed=first)
        out = [aec.match.seed]
        for _ in range(3):
            aec.reset()
            out.append(aec.match.seed)
        return out

    assert seeds(4) == seeds(4) != seeds(5)
    assert seeds(4)[0] == 4 and len(set(seeds(4))) == 4


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    aec = env("confrontation")
    aec.reset(seed=2)
    agent = aec.agent_selection
    mask = aec.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = aec.match.record()
    for bad in (illegal, -1, mask.size, "1", None):
        with pytest.raises(IllegalAction):
            aec.step(bad)  # type: ignore[arg-type]
    assert aec.match.record() == before and aec.agent_selection == agent


def test_max_steps_truncates_every_agent_without_reward() -> None:
    aec = env("tcg", max_steps=3)
    aec.reset(seed=1)
    for _ in range(3):
        obs = aec.observe(aec.agent_selection)
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(aec.truncations.values()) and not any(aec.terminations.values())
    assert set(aec._cumulative_rewards.values()) == {0.0}


@pytest.mark.usefixtures("toy_registered")
def test_parallel_step_plays_a_simultaneous_choice_at_once() -> None:
    par = parallel_env("toy")
    obs, _ = par.reset(seed=4)
    assert all(o["action_mask"].all() for o in obs.values())  # both seats pick at once
    obs, rewards, term, trunc, _ = par.step({"player_0": 0, "player_1": 1})
    assert [seat for seat, _ in par.match.actions] == [0, 1]
    assert set(obs) == set(rewards) == set(term) == set(trunc) == {"player_0", "player_1"}


def test_parallel_step_ignores_agents_not_asked_and_needs_the_asked() -> None:
    par = parallel_env("tcg")
    obs, _ = par.reset(seed=1)
    asked = [a for a, o in obs.items() if o["action_mask"].any()]
    idle = [a for a, o in obs.items() if not o["action_mask"].any()]
    assert len(asked) == 1 and len(idle) == 1  # a sequential game: one seat a step
    with pytest.raises(IllegalAction, match="needs an action"):
        par.step({idle[0]: 0})
    assert par.match.actions == []
    choice = int(np.flatnonzero(obs[asked[0]]["action_mask"])[0])
    par.step({asked[0]: choice, idle[0]: 12345})  # the idle agent's action is ignored
    assert len(par.match.actions) == 1


def test_render_is_text_of_the_chosen_viewer() -> None:
    aec = env("confrontation", render_mode="ansi")
    aec.reset(seed=1)
    text = aec.render()
    assert isinstance(text, str) and "\x1b[" not in text and text.strip()
    assert env("confrontation").render() is None  # no render mode: nothing drawn
    with pytest.raises(ValueError, match="render_mode"):
        env("confrontation", render_mode="rgb_array")


def test_game_options_pass_through() -> None:
    aec = env("icg", players=5, rules="kira")
    assert aec.match.options["rules"] == "kira"
    assert str(aec) == "deathnote_icg_v0"


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_pettingzoo_parallel_seed_test(game_id: str, players: int) -> None:
    # The test samples actions from the unmasked space: illegal ones must end the episode
    # (PettingZoo's classic games: TerminateIllegalWrapper), not raise.
    parallel_seed_test(lambda: parallel_env(game_id, players, illegal="lose"), num_cycles=CYCLES)


def test_illegal_lose_ends_the_episode_and_leaves_the_match() -> None:
    par = parallel_env("confrontation", illegal="lose")
    par.reset(seed=3)
    before = len(par.match.actions)
    obs, rewards, terms, truncs, infos = par.step({"player_0": 0, "player_1": 700})
    assert set(obs) == {"player_0", "player_1"}
    assert rewards == {"player_0": 0.0, "player_1": -1.0}
    assert all(terms.values()) and not any(truncs.values()) and par.agents == []
    assert infos["player_1"] == {"illegal_action": True} and infos["player_0"] == {}
    assert len(par.match.actions) == before and par.match.outcome() is None
    aec = env("confrontation", illegal="lose")
    aec.reset(seed=3)
    assert aec.agent_selection == "player_1"
    aec.step(700)
    assert aec.terminations == {"player_0": True, "player_1": True}
    assert aec.rewards == {"player_0": 0.0, "player_1": -1.0}
    assert aec.infos["player_1"] == {"illegal_action": True}
    with pytest.raises(IllegalAction):
        env("confrontation").step(700)
    with pytest.raises(ValueError, match="illegal"):
        env("confrontation", illegal="ignore")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_quiet_play_is_the_match_replayed_when_asked_for(game_id: str) -> None:
    """The env plays an episode on the state alone (``apply_quiet``, no log); the match it
    hands out when asked is the replay of the same actions: the same tensors for every
    viewer and the same generator, and the episode then goes on on that match."""
    aec = env(game_id)
    aec.reset(seed=11)
    rng = np.random.default_rng(11)
    table = aec.table  # type: ignore[attr-defined]
    played = 0
    for _agent in aec.agent_iter():
        obs, _, term, trunc, _ = aec.last()
        if term or trunc:
            aec.step(None)
            continue
        if played == 8:
            quiet_state, quiet_rng = table.state, table.rng.getstate()
            viewers = [*range(table.players), OMNISCIENT]
            quiet = [table.game.observation_tensor(quiet_state, v) for v in viewers]
            match = aec.match  # type: ignore[attr-defined]
            assert match is aec.match and len(match.actions) == 8  # type: ignore[attr-defined]
            assert match.rng.getstate() == quiet_rng
            for viewer, tensor in zip(viewers, quiet, strict=True):
                assert np.array_equal(match.observation_tensor(viewer), tensor)
            assert match.log(OMNISCIENT)  # the replayed match has its log
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        played += 1
    assert played > 8
    match = aec.match  # type: ignore[attr-defined]
    assert len(match.actions) == played and match.outcome() is not None
    assert Match.replay(match.record()).outcome() == match.outcome()


@pytest.mark.parametrize(("game_id", "players"), [("confrontation", 2), ("werewolf", 6)])
@pytest.mark.parametrize("end", ["game", "max_steps", "illegal"])
def test_dead_steps_are_pettingzoos_own(game_id: str, players: int, end: str) -> None:
    """The env's ``_was_dead_step`` (written out) leaves every agent, selection, reward and
    flag as PettingZoo's ``AECEnv._was_dead_step`` does, whatever ended the episode."""
    import random
    import types

    from pettingzoo import AECEnv

    kwargs: dict[str, object] = {"max_steps": 7} if end == "max_steps" else {}
    if end == "illegal":
        kwargs["illegal"] = "lose"
    ours, theirs = env(game_id, players, **kwargs), env(game_id, players, **kwargs)
    theirs._was_dead_step = types.MethodType(AECEnv._was_dead_step, theirs)  # type: ignore[method-assign]
    for seed in range(4):
        rng = random.Random(seed)
        ours.reset(seed=seed)
        theirs.reset(seed=seed)
        for agent in ours.agent_iter(2000):
            assert agent == theirs.agent_selection
            obs, _reward, term, trunc, _info = ours.last()
            assert obs is not None
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            if term or trunc:
                action = None
            elif end == "illegal" and ours.table.steps >= 5:
                action = next(n for n in range(len(obs["action_mask"])) if n not in legal)
            else:
                action = rng.choice(legal)
            ours.step(action)
            theirs.step(action)
            for name in ("agents", "rewards", "_cumulative_rewards", "terminations"):
                assert repr(getattr(ours, name)) == repr(getattr(theirs, name)), name
            assert repr(ours.truncations) == repr(theirs.truncations)
            assert ours.infos == theirs.infos
            assert ours.agent_selection == theirs.agent_selection
            assert ours._skip_agent_selection == theirs._skip_agent_selection
        assert ours.agents == [] and theirs.agents == []
    with pytest.raises(ValueError, match="dead"):
        ours.reset(seed=0)
        for name in ours.agents:
            ours.terminations[name] = True
        ours.step(0)
