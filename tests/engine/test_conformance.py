"""The conformance suite itself: it passes the toy game and fails each kind of broken game."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from deathnote.agents import Agent, Observation
from deathnote.engine import (
    Action,
    Decision,
    Event,
    Game,
    IllegalAction,
    Match,
    Outcome,
    Seat,
    Viewer,
    registry,
)
from deathnote.engine import conformance as c
from deathnote.engine.conformance import ConformanceError, MissingHook, Setup
from tests.engine.toy import TOY, ToyGame, ToyState

TOY_SETUP = Setup("toy", 2)

# -- a game with a covert decision: seat 0 may hold a secret power ------------------------
USE = Action.make("power", "Use the power", use=True)
KEEP = Action.make("power", "Keep it", use=False)
GUESSES = tuple(Action.make("guess", f"Guess {n}", n=n) for n in (0, 1))


@dataclass
class PowerState:
    power: bool
    secret: int = 0  # seat 0's other secret, so a sampled world always has something to redraw
    phase: str = "power"
    round: int = 1
    used: int = 0
    guesses: list[int] = field(default_factory=list)


class PowerGame(Game):
    """Each round seat 0, if it holds the power, secretly decides whether to use it; then
    seat 1 guesses. ``leaky``: the public phase shows whether seat 0 is deciding (and
    seat 0 is asked only when it holds the power), as Confrontation Chapter 2 did. The fair
    game asks seat 0 every round alike (with nothing but "keep" without the power) and
    shows every viewer the same phase."""

    name = "Power"
    min_players = max_players = 2

    def __init__(self, leaky: bool) -> None:
        self.leaky = leaky
        self.id = "power-leaky" if leaky else "power-fair"  # type: ignore[misc]

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> PowerState:
        state = PowerState(power=rng.random() < 0.5, secret=rng.randint(1, 6))
        self._begin(state)
        return state

    def _begin(self, state: PowerState) -> None:
        state.phase = "power" if state.power or not self.leaky else "guess"

    def fork_state(self, state: PowerState) -> PowerState:
        return PowerState(
            state.power, state.secret, state.phase, state.round, state.used, list(state.guesses)
        )

    def sample_state(self, state: PowerState, viewer: Viewer, rng: random.Random) -> PowerState:
        twin = self.fork_state(state)
        if viewer != 0 and viewer != "omniscient":
            # Exact: only a power phase in the leaky game tells that seat 0 holds it.
            twin.power = True if self.leaky and state.phase == "power" else rng.random() < 0.5
            twin.used = rng.randint(0, twin.round - 1) if twin.power else 0
            twin.secret = rng.randint(1, 6)
        return twin

    def pending(self, state: PowerState) -> dict[Seat, Decision]:
        if state.round > 3:
            return {}
        if state.phase == "power":
            return {0: Decision("power", "Use your power?", covert=True)}
        return {1: Decision("guess", "Guess 0 or 1")}

    def legal(self, state: PowerState, seat: Seat) -> Sequence[Action]:
        if state.phase == "power":
            return (USE, KEEP) if state.power else (KEEP,)
        return GUESSES

    def apply(
        self, state: PowerState, seat: Seat, action: Action, rng: random.Random
    ) -> list[Event]:
        if action.kind == "power":
            state.used += action["use"]
            state.phase = "guess"
            return []
        state.guesses.append(action["n"])
        state.round += 1
        self._begin(state)
        return [Event.public(f"Seat 1 guessed {action['n']}.", n=action["n"])]

    def view(self, state: PowerState, viewer: Viewer) -> dict[str, Any]:
        out: dict[str, Any] = {"round": state.round, "guesses": list(state.guesses)}
        out["phase"] = state.phase if self.leaky or state.phase == "guess" else "night"
        if not self.leaky and state.phase == "power":
            out["phase"] = "guess-soon"
        if viewer in (0, "omniscient"):
            out["power"], out["used"], out["secret"] = state.power, state.used, state.secret
        return out

    def outcome(self, state: PowerState) -> Outcome | None:
        if state.round <= 3:
            return None
        return Outcome(("seat1",), "done", "three rounds", {}, (1,))


@pytest.fixture(autouse=True)
def games_registered(toy_registered: None) -> Iterator[None]:
    table = registry.games()
    table["power-leaky"] = PowerGame(leaky=True)
    table["power-fair"] = PowerGame(leaky=False)
    yield
    for key in ("power-leaky", "power-fair", "broken"):
        table.pop(key, None)


def register(game: Game) -> Setup:
    registry.games()["broken"] = game
    type(game).id = "broken"  # type: ignore[misc]
    return Setup("broken", 2)


@pytest.mark.parametrize("name", sorted(c.SETUP_CHECKS))
def test_the_toy_game_passes_every_check(name: str) -> None:
    c.SETUP_CHECKS[name](TOY_SETUP)


def test_setups_take_the_fewest_and_most_players_and_every_choice_option() -> None:
    assert [s.label for s in c.setups("toy")] == ["toy-2p"]
    assert [s.label for s in c.setups("toy", [{"target": 4}])] == ["toy-2p", "toy-target=4-2p"]


def test_covert_check_passes_a_decision_asked_alike() -> None:
    c.check_covert(Setup("power-fair", 2), seeds=range(6))
    c.check_sample_world(Setup("power-fair", 2))


def test_covert_check_fails_a_phase_that_tells_who_is_asked() -> None:
    """The leaky game's sampler is exact and passes the sample checks; only the covert
    check sees that seat 1 and the spectator learn whether seat 0 holds the power."""
    c.check_sample_world(Setup("power-leaky", 2))
    with pytest.raises(ConformanceError, match="can tell whether seat 0 has a covert decision"):
        c.check_covert(Setup("power-leaky", 2), seeds=range(6))


def test_a_missing_hook_is_reported_by_name() -> None:
    class NoSampler(ToyGame):
        def sample_state(self, state: ToyState, viewer: Viewer, rng: random.Random) -> ToyState:
            raise NotImplementedError

    with pytest.raises(MissingHook, match="broken: sample_state not implemented yet"):
        c.check_sample_world(register(NoSampler()))


# -- each check fails a game broken its way ---------------------------------------------------
def test_views_check_fails_a_view_sharing_the_state() -> None:
    class Sharing(ToyGame):
        def view(self, state: ToyState, viewer: Viewer) -> dict[str, Any]:
            return {"points": state.points}

    with pytest.raises(ConformanceError, match=r"view\['state'\]\['points'\] is the match's own"):
        c.check_views(register(Sharing()))


def test_views_check_fails_a_view_that_is_not_json() -> None:
    class Tupled(ToyGame):
        def view(self, state: ToyState, viewer: Viewer) -> dict[str, Any]:
            return {"points": tuple(state.points)}

    with pytest.raises(ConformanceError, match="is a tuple, not JSON"):
        c.check_views(register(Tupled()))


def test_rejection_check_fails_a_check_that_takes_a_boolean_for_a_number() -> None:
    class Lax(ToyGame):
        def legal(self, state: ToyState, seat: Seat) -> Sequence[Action]:
            return (Action.make("pick", "Pick 1", n=1), Action.make("pick", "Pick 2", n=2))

        def check(self, state: ToyState, seat: Seat, action: Action) -> None:
            fields = set(action.to_json())
            # True == 1, so True in (1, 2): the bug this check is for.
            if fields != {"kind", "n"} or action.get("n") not in (1, 2):
                raise IllegalAction("no")

        def apply(
            self, state: ToyState, seat: Seat, action: Action, rng: random.Random
        ) -> list[Event]:
            return super().apply(state, seat, Action.make("pick", parity="odd"), rng)

    with pytest.raises(ConformanceError, match=r"'n': True\} was accepted"):
        c.check_rejections(register(Lax()))


def test_fork_check_fails_a_fork_that_shares_the_state() -> None:
    class Shallow(ToyGame):
        def fork_state(self, state: ToyState) -> ToyState:
            return state

    with pytest.raises(ConformanceError, match="playing a fork changed the original"):
        c.check_fork(register(Shallow()))


def test_sample_check_fails_a_sample_that_shows_another_view() -> None:
    class Careless(ToyGame):
        def sample_state(self, state: ToyState, viewer: Viewer, rng: random.Random) -> ToyState:
            twin = super().sample_state(state, viewer, rng)
            twin.points = [rng.randint(0, 2), rng.randint(0, 2)]
            return twin

    with pytest.raises(ConformanceError, match="shows it another view"):
        c.check_sample_world(register(Careless()))


def test_sample_check_fails_a_sampler_that_redraws_nothing() -> None:
    class Lazy(ToyGame):
        def sample_state(self, state: ToyState, viewer: Viewer, rng: random.Random) -> ToyState:
            return self.fork_state(state)

    with pytest.raises(ConformanceError, match="every world sampled for it is the same"):
        c.check_sample_world(register(Lazy()))


def test_hidden_values_probe_fails_a_sampler_that_misses_values() -> None:
    class Narrow(ToyGame):
        def hidden_values(self, state: ToyState, viewer: Viewer) -> dict[str, set[int]]:
            return {"secret": {state.secret} if viewer in (0, "omniscient") else set(range(1, 101))}

        def sample_state(self, state: ToyState, viewer: Viewer, rng: random.Random) -> ToyState:
            twin = super().sample_state(state, viewer, rng)
            if viewer not in (0, "omniscient"):
                twin.secret = rng.randint(1, 50)
            return twin

    with pytest.raises(ConformanceError, match="never have secret"):
        c.check_hidden_values(register(Narrow()), seed=0, samples=200)

    class Full(Narrow):
        def sample_state(self, state: ToyState, viewer: Viewer, rng: random.Random) -> ToyState:
            return ToyGame.sample_state(self, state, viewer, rng)

    c.check_hidden_values(register(Full()), seed=0, samples=1500)


def test_observation_check_fails_a_tensor_that_sees_the_secret() -> None:
    class Peeking(ToyGame):
        def observation_tensor(self, state: ToyState, viewer: Viewer) -> np.ndarray:
            return np.array([state.secret, 0, 0, 0], np.float32)

    c.check_observations(register(Peeking()))  # shape and type are right
    with pytest.raises(ConformanceError, match="differs in a world it cannot tell apart"):
        c.check_observations_in_samples(register(Peeking()))


def test_action_number_check_fails_a_mask_that_disagrees() -> None:
    class Masked(ToyGame):
        def action_space(self, players: int, options: Mapping[str, Any]) -> Any:
            space = super().action_space(players, options)
            space.id = lambda action: 0  # type: ignore[method-assign]
            return space

    with pytest.raises(ConformanceError, match=r"share a number|is not"):
        c.check_action_numbers(register(Masked()))


class Crashing(Agent):
    name = "crashing"

    def choose(self, obs: Observation) -> Action:
        raise KeyError("a bug in the bot")


def test_a_bot_that_raises_fails_the_run() -> None:
    class WithBot(ToyGame):
        def agents(self) -> Mapping[str, type[Agent]]:
            return {"crashing": Crashing}

    with pytest.raises(KeyError, match="a bug in the bot"):
        c.check_bots(register(WithBot()))


def test_a_bot_that_returns_an_illegal_action_fails_the_run() -> None:
    class Cheat(Agent):
        def choose(self, obs: Observation) -> Action:
            return Action.make("pick", parity="both")

    class WithBot(ToyGame):
        def agents(self) -> Mapping[str, type[Agent]]:
            return {"cheat": Cheat}

    with pytest.raises(ConformanceError, match="not a legal action"):
        c.check_bots(register(WithBot()))


def test_random_games_check_fails_a_game_that_never_ends() -> None:
    class Endless(ToyGame):
        def outcome(self, state: ToyState) -> Outcome | None:
            return None

    with pytest.raises(ConformanceError, match="no end after 50 actions"):
        c.play(register(Endless()), 0, max_actions=50)


def test_random_games_check_fails_a_mover_that_is_not_the_lowest_pending_seat() -> None:
    class WrongMover(ToyGame):
        def mover(self, state: ToyState) -> Seat | None:
            pending = self.pending(state)
            return max(pending) + 1 if pending else None

    with pytest.raises(ConformanceError, match=r"mover\(\) is \d, the lowest pending seat is"):
        c.check_random_games(register(WrongMover()), seeds=[0])


def test_random_games_check_fails_moves_that_are_not_the_legal_actions_in_order() -> None:
    class WrongMoves(ToyGame):
        def moves(self, state: ToyState) -> tuple[Seat | None, Sequence[Action]]:
            seat, legal = super().moves(state)
            return seat, list(reversed(legal))

    with pytest.raises(ConformanceError, match=r"moves\(\) is seat \d with \d+ actions"):
        c.check_random_games(register(WrongMoves()), seeds=[0])


def test_apply_quiet_check_fails_a_quiet_apply_that_changes_nothing() -> None:
    class Idle(ToyGame):
        def apply_quiet(self, state: ToyState, seat: Seat, action: Action, rng: Any) -> None:
            pass

    with pytest.raises(ConformanceError, match="after apply_quiet"):
        c.check_apply_quiet(register(Idle()))


def test_the_toy_is_registered_for_these_tests() -> None:
    assert registry.games()["toy"] is TOY


def test_odd_seeds_play_patiently_and_reach_the_late_game() -> None:
    """Random play ends Confrontation at once (L accuses); the patient seeds reach nights."""
    setup = Setup("confrontation", 2)

    def kinds(seed: int, patient: bool | None = None) -> set[str]:
        seen: set[str] = set()
        c.play(
            setup,
            seed,
            patient=patient,
            on_step=lambda m, _: seen.update(d.kind for d in m.pending().values()),
        )
        return seen

    assert {"news", "kill"} <= kinds(1)
    assert kinds(1) != kinds(1, patient=False)
    assert len(c.play(setup, 1).actions) > len(c.play(setup, 1, patient=False).actions)


def test_view_delta_check_fails_a_delta_that_loses_an_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole_log = Match.log

    def lossy(
        self: Match, viewer: Viewer, since: int | None = None, fresh: bool = True
    ) -> list[dict[str, Any]]:
        entries = whole_log(self, viewer, since, fresh)
        return entries[1:] if since is not None else entries

    c.check_view_deltas(TOY_SETUP)
    monkeypatch.setattr(Match, "log", lossy)
    with pytest.raises(ConformanceError, match="is not the whole log's tail"):
        c.check_view_deltas(TOY_SETUP)


def test_state_patch_check_fails_a_patch_that_loses_a_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deathnote.engine import match as match_module

    whole_diff = match_module.diff
    c.check_state_patches(TOY_SETUP)
    monkeypatch.setattr(
        match_module, "diff", lambda old, new, fresh=True: whole_diff(old, new, fresh)[:-1]
    )
    with pytest.raises(ConformanceError, match="does not give the whole view's state"):
        c.check_state_patches(TOY_SETUP)
