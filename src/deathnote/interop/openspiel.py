"""OpenSpiel Python games: every game registered as ``deathnote_<id>``.

Needs the ``rl`` extra (``pip install deathnote[rl]``, which brings ``open_spiel``).
Importing this module registers the games:

>>> import pyspiel, deathnote.interop.openspiel  # doctest: +SKIP
>>> game = pyspiel.load_game("deathnote_icg", {"players": 5, "options": '{"rules": "kira"}'})  # doctest: +SKIP

- Dynamics: sequential. The player to move is the lowest pending seat; a simultaneous
  secret choice is asked one seat after the other, and a later seat's information state
  never shows the earlier choice (no seat's view does).
- Chance: sampled stochastic. The engine draws inside its transitions from the match's
  own seeded generator, so there are no explicit chance nodes: a state's future draws are
  fixed by its generator (a clone draws the same), and ``resample_from_infostate`` redraws
  everything hidden, that generator included, with ``Match.sample_world``. Parameter
  ``seed`` (default -1: a fresh seed for every initial state) fixes the deal.
- Information state string: the seat's own view (its log included) and its own actions,
  as JSON: equal exactly when that seat cannot tell two histories apart. Observation string:
  the view without the log; observation tensor: ``Match.observation_tensor(seat)``. No
  information-state tensor (the games have no fixed-size perfect-recall encoding yet).
- Returns: +1 for each winning seat, -1 for the others, 0 for all when nobody wins, at the
  end; two-player games are zero-sum.
- Parameters: ``players``, ``seed`` and ``options`` (the game options as a JSON object).
"""

from __future__ import annotations

import ctypes
import random
from typing import Any

import numpy as np
import orjson
import pyspiel

from deathnote.engine.actions import Seat
from deathnote.engine.match import Match
from deathnote.engine.registry import games, get_game
from deathnote.interop.common import match_rewards

#: The longest game OpenSpiel is told about (simulations call longer games broken).
MAX_GAME_LENGTH = 100_000


def spiel_name(game_id: str) -> str:
    """The OpenSpiel short name of a game."""
    return f"deathnote_{game_id}"


def _game_type(game_id: str) -> pyspiel.GameType:
    game = get_game(game_id)
    two = game.max_players == 2
    return pyspiel.GameType(
        short_name=spiel_name(game_id),
        long_name=f"Death Note: {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if two else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": game.min_players, "seed": -1, "options": "{}"},
    )


class DeathNoteSpielGame(pyspiel.Game):
    """One of our games as an OpenSpiel game (see the module docstring)."""

    def __init__(self, game_id: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = _game_type(game_id)
        defaults = game_type.parameter_specification
        players = int(params.get("players", defaults["players"]))
        options = orjson.loads(str(params.get("options", "{}")))
        probe = Match.create(game_id, players, 0, options)
        two = players == 2
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.action_space.size,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if two else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, params)
        self.game_id = game_id
        self.players = players
        self.options = options
        self.shape = probe.observation_shape()
        seed = int(params.get("seed", -1))
        self.fixed_seed = seed if seed >= 0 else None
        self.seeder = random.Random()
        _hold_forever(self)

    def new_initial_state(self) -> DeathNoteSpielState:
        """A new deal (the ``seed`` parameter's, or a fresh one)."""
        seed = self.fixed_seed if self.fixed_seed is not None else self.seeder.getrandbits(62)
        return DeathNoteSpielState(self, _Held(None, [[] for _ in range(self.players)], seed))

    def create_match(self, seed: int) -> Match:
        """The match of a new deal."""
        return Match.create(self.game_id, self.players, seed, self.options)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> DeathNoteObserver:
        """Information states (perfect recall) or observations of a seat."""
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        observer = DeathNoteObserver(self.shape, perfect_recall)
        _hold_forever(observer)
        return observer


class DeathNoteSpielState(pyspiel.State):
    """A running match seen through OpenSpiel's State API."""

    def __init__(self, game: DeathNoteSpielGame, held: _Held) -> None:
        super().__init__(game)
        self._held = held

    @property
    def match(self) -> Match:
        """The running match (the full truth)."""
        held = self._held
        if held.match is None:
            held.match = self.get_game().create_match(held.seed)
        return held.match

    @property
    def own(self) -> list[list[int]]:
        """Each seat's own actions so far (kept here: a sampled world has no record)."""
        return self._held.own

    def current_player(self) -> int:
        """The lowest pending seat, or TERMINAL."""
        if self.match.outcome() is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return min(self.match.pending())

    def _legal_actions(self, player: int) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.match.legal_mask(player))]

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        self.match.submit(seat, self.match.action_at(int(action), seat))
        self.own[seat].append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        chosen = self.match.action_at(int(action), player if player >= 0 else None)
        return chosen.label or str(chosen.to_json())

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.match.outcome() is not None

    def returns(self) -> list[float]:
        """+1 per winning seat, -1 for the others (0 for all while running or on a draw)."""
        rewards = match_rewards(self.match)
        return [rewards[s] for s in range(self.match.players)]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> DeathNoteSpielState:
        """A state the seat cannot tell from this one, hidden facts drawn anew."""
        rng = random.Random(int(probability_sampler() * 2**53))
        world = self.match.sample_world(player_id, rng)
        return DeathNoteSpielState(self.get_game(), _Held(world, [list(a) for a in self.own], 0))

    def __str__(self) -> str:
        match = self.match
        return (
            f"{match.game.id} after {len(match.actions)} actions, pending {sorted(match.pending())}"
        )


class _Held:
    """What a state holds. OpenSpiel clones a Python state by making a new initial state
    and deep-copying the attributes over it: the new state's match is made only when first
    used (never, for a clone), and the copy is a fork (content shared, not copied)."""

    __slots__ = ("match", "own", "seed")

    def __init__(self, match: Match | None, own: list[list[int]], seed: int) -> None:
        self.match = match
        self.own = own
        self.seed = seed

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        match = None if self.match is None else self.match.fork()
        return _Held(match, [list(a) for a in self.own], self.seed)


class DeathNoteObserver:
    """OpenSpiel's PyObserver: a seat's information state or observation."""

    def __init__(self, shape: tuple[int, ...], perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0 if perfect_recall else int(np.prod(shape)), np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: DeathNoteSpielState, player: Seat) -> None:
        """Fill ``tensor`` with the seat's observation tensor."""
        if not self.perfect_recall:
            self.tensor[:] = state.match.observation_tensor(player).reshape(-1)

    def string_from(self, state: DeathNoteSpielState, player: Seat) -> str:
        """The seat's information state (its view with the log, its own actions) or its
        observation (its view without the log), as JSON."""
        view = state.match.view(player)
        if self.perfect_recall:
            body = {"view": view, "mine": state.own[player]}
        else:
            body = {k: v for k, v in view.items() if k != "log"}
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS).decode()


def _hold_forever(obj: Any) -> None:
    """Give ``obj`` one reference that is never released.

    OpenSpiel's C++ side keeps the Python objects it is handed (registered factories,
    loaded games, the observers they cache) and drops them after the interpreter has shut
    down, without the GIL: if that drop were the last reference, Python would abort at
    exit ("PyThreadState_Get: ... the GIL is released"). With this reference it never is.
    A few small objects per game stay allocated until the process ends.
    """
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))


def register_games() -> list[str]:
    """Register every game with OpenSpiel (again is harmless); their short names."""
    known = set(pyspiel.registered_names())
    names = []
    for game_id in games():
        name = spiel_name(game_id)
        if name not in known:

            def make(params: Any = None, game_id: str = game_id) -> DeathNoteSpielGame:
                return DeathNoteSpielGame(game_id, params)

            _hold_forever(make)
            pyspiel.register_game(_game_type(game_id), make)
        names.append(name)
    return names


register_games()
__all__ = ["DeathNoteSpielGame", "DeathNoteSpielState", "register_games", "spiel_name"]
