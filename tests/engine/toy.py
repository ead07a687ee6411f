"""A tiny game for testing the engine core, and the worked example of the ``Game`` contract:
secret simultaneous picks, a die, a secret.

Each round both seats secretly pick "odd" or "even"; a die is rolled; a seat whose pick
matches the die's parity scores. Seat 0 also holds a secret number it alone may see (told
by a set-up event). First to 3 points wins (seat 0 wins ties).

Played through the Match API, as every front end and bot plays a game (the suite runs
this as a doctest):

>>> import random
>>> from deathnote.engine import Match, registry
>>> registry.games()["toy"] = TOY  # a real game is found in deathnote.games.<id>
>>> match = Match.create("toy", 2, seed=5)
>>> sorted(match.pending())  # both seats pick at once
[0, 1]
>>> [action.label for action in match.legal(0)]
['Pick odd', 'Pick even']
>>> [entry["text"] for entry in match.view(0)["log"]], match.view(1)["log"]
(['Your secret is 80.'], [])
>>> match.submit(0, {"kind": "pick", "parity": "odd"})[0].text
'Player 1 has chosen.'
>>> match.view(1)["state"]  # seat 1 sees that seat 0 chose, not what
{'points': [0, 0], 'chosen': [0]}
>>> match.submit(1, {"kind": "pick", "parity": 2})
Traceback (most recent call last):
  ...
deathnote.engine.errors.IllegalAction: 'pick' is not a legal move now
>>> twin = match.fork()  # an independent copy: playing it leaves the match as it is
>>> _ = twin.submit(1, twin.legal(1)[1])
>>> len(match.actions), len(twin.actions)
(1, 2)
>>> world = match.sample_world(1, random.Random(3))  # what seat 1 cannot tell apart
>>> world.view(1) == match.view(1), world.state.secret != match.state.secret
(True, True)
>>> match.action_id({"kind": "pick", "parity": "even"}), match.legal_mask(1).tolist()
(1, [1, 1])
>>> match.observation_tensor(1).tolist()  # points, "I have picked", the secret if seen
[0.0, 0.0, 0.0, 0.0]
>>> record = match.record()
>>> Match.replay(record).view(0) == match.view(0)
True
>>> del registry.games()["toy"]

``python -m deathnote.engine.conformance GAME`` (or ``tests/engine/test_conformance.py``
for the toy) checks a game against the whole contract.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from deathnote.engine import Action, Decision, Event, Game, Outcome, Seat, Viewer
from deathnote.engine.options import GameOptions
from deathnote.engine.spaces import ActionSpace, TableSpace

PICKS = tuple(Action.make("pick", f"Pick {p}", parity=p) for p in ("odd", "even"))


@dataclass
class ToyState:
    secret: int
    points: list[int] = field(default_factory=lambda: [0, 0])
    picks: dict[int, str] = field(default_factory=dict)
    rounds: int = 0


class ToyOptions(GameOptions):
    """The toy's one option, to test option models."""

    target: int = 3


class ToyGame(Game):
    id = "toy"
    name = "Toy"
    min_players = 2
    max_players = 2
    options_model = ToyOptions

    def fork_state(self, state: ToyState) -> ToyState:
        return ToyState(state.secret, list(state.points), dict(state.picks), state.rounds)

    def sample_state(self, state: ToyState, viewer: Viewer, rng: random.Random) -> ToyState:
        """Seat 0's secret is redrawn for everyone but seat 0; a pick made by the other
        seat is redrawn for a seat."""
        twin = self.fork_state(state)
        if viewer != 0 and viewer != "omniscient":
            twin.secret = rng.randint(1, 100)
        if isinstance(viewer, int):
            for seat in twin.picks:
                if seat != viewer:
                    twin.picks[seat] = rng.choice(("odd", "even"))
        elif viewer == "spectator":
            for seat in twin.picks:
                twin.picks[seat] = rng.choice(("odd", "even"))
        return twin

    def action_space(self, players: int, options: Mapping[str, Any]) -> ActionSpace:
        return TableSpace(PICKS)

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return (4,)

    def observation_tensor(self, state: ToyState, viewer: Viewer) -> np.ndarray:
        me = viewer if isinstance(viewer, int) else -1
        secret = state.secret / 100 if viewer in (0, "omniscient") else 0.0
        return np.array(
            [state.points[0], state.points[1], float(me in state.picks), secret], np.float32
        )

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> ToyState:
        return ToyState(secret=rng.randint(1, 100))

    def setup(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> tuple[ToyState, list[Event]]:
        state = self.new_state(players, options, content, rng)
        return state, [Event.private([0], f"Your secret is {state.secret}.", secret=state.secret)]

    def hidden_values(self, state: ToyState, viewer: Viewer) -> dict[str, set[Any]]:
        """The secret (1..100) for all but seat 0; a pick made by the other seat."""
        out: dict[str, set[Any]] = {}
        out["secret"] = {state.secret} if viewer in (0, "omniscient") else set(range(1, 101))
        for seat, pick in state.picks.items():
            out[f"pick{seat}"] = {pick} if viewer in (seat, "omniscient") else {"odd", "even"}
        return out

    def pending(self, state: ToyState) -> dict[Seat, Decision]:
        if self.outcome(state):
            return {}
        return {
            s: Decision("pick", "Odd or even?", data={"round": state.rounds + 1})
            for s in (0, 1)
            if s not in state.picks
        }

    def legal(self, state: ToyState, seat: Seat) -> Sequence[Action]:
        return PICKS

    def apply(self, state: ToyState, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
        state.picks[seat] = action["parity"]
        events = [Event.public(f"Player {seat + 1} has chosen.")]
        if len(state.picks) == 2:
            die = rng.randint(1, 6)
            parity = "even" if die % 2 == 0 else "odd"
            for s, p in state.picks.items():
                if p == parity:
                    state.points[s] += 1
            events.append(Event.public(f"Die shows {die}; picks were {state.picks}.", die=die))
            events.append(Event.private([0], f"Your secret is {state.secret}."))
            state.picks = {}
            state.rounds += 1
        return events

    def view(self, state: ToyState, viewer: Viewer) -> dict[str, Any]:
        out: dict[str, Any] = {"points": list(state.points), "chosen": sorted(state.picks)}
        if viewer in (0, "omniscient"):
            out["secret"] = state.secret
        if isinstance(viewer, int) and viewer in state.picks:
            out["my_pick"] = state.picks[viewer]
        return out

    def outcome(self, state: ToyState) -> Outcome | None:
        if max(state.points) < 3:
            return None
        winner = 0 if state.points[0] >= 3 else 1
        return Outcome(
            (f"seat{winner}",), "points", f"Player {winner + 1} reached 3 points", {}, (winner,)
        )

    def turn_count(self, state: ToyState) -> int:
        return state.rounds


TOY = ToyGame()
