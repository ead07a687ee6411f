"""OpenSpiel Python games: every game registered as ``deathnote_<id>``.

Needs the ``rl`` extra (``pip install deathnote[rl]``, which brings ``open_spiel``).
Importing this module registers the games:

>>> import pyspiel, deathnote.interop.openspiel  # doctest: +SKIP
>>> game = pyspiel.load_game("deathnote_icg", {"players": 5, "options": '{"rules": "kira"}'})  # doctest: +SKIP

- Dynamics: sequential. The player to move is the lowest pending seat; a simultaneous
  secret choice is asked one seat after the other, and a later seat's information state
  never shows the earlier choice (no seat's view does).
- Chance: explicit. Every draw a game makes through ``deathnote.engine.rng`` (``below``,
  ``choice``, ``shuffle``: the deal, a reshuffle, a die) is a chance node: a draw among
  ``n`` is ``n`` outcomes of probability ``1/n`` (a shuffle is one node per Fisher-Yates
  swap, so every order of the deck has the same probability). The transition is run with
  an ``engine.rng.Scripted`` generator and run again with one more outcome for each draw
  (a fork of the match before it: the transition's events and state are the game's own).
  What stays internal: a draw of one outcome (no node), and a draw that does not go
  through those functions (``rng.random()``, ``getrandbits``: e.g. the ICG's weighted
  draw of a world), which comes from the state's own generator, seeded by ``seed``.
  ``resample_from_infostate`` redraws everything hidden with ``Match.sample_world``.
- Information state string: the seat's own view (its log included) and its own actions,
  as JSON: equal exactly when that seat cannot tell two histories apart. Information
  state tensor: the observation tensor followed by how often the seat took each action
  (a fixed size; it can merge two information states the string tells apart). Observation
  string: the view without the log; observation tensor: ``Match.observation_tensor(seat)``.
  At a chance node the views are those before the transition (at the deal: empty).
- Returns: +1 for each winning seat, -1 for the others, 0 for all when nobody wins, at the
  end; two-player games are zero-sum.
- Parameters: ``players``, ``seed`` (the internal draws; default -1: a fresh seed for
  every initial state) and ``options`` (the game options as a JSON object).
"""

from __future__ import annotations

import contextlib
import ctypes
import random
from typing import Any

import numpy as np
import orjson
import pyspiel

from deathnote.engine.actions import Action, Seat
from deathnote.engine.match import Match
from deathnote.engine.registry import games, get_game
from deathnote.engine.rng import Scripted
from deathnote.engine.rng import copy as rng_copy
from deathnote.interop.common import match_rewards

#: The longest game OpenSpiel is told about (simulations call longer games broken).
MAX_GAME_LENGTH = 100_000
#: The most outcomes one draw may have (a card drawn from the largest deck or pool).
MAX_CHANCE_OUTCOMES = 512


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
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if two else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
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
        probe = self.probe = Match.create(game_id, players, 0, options)
        two = players == 2
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.action_space.size,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
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
        """Before the deal (its draws are the first chance nodes)."""
        seed = self.fixed_seed if self.fixed_seed is not None else self.seeder.getrandbits(62)
        return DeathNoteSpielState(self, _Held([[] for _ in range(self.players)], seed))

    def start_match(self, seed: int, rng: random.Random) -> Match:
        """A new match of this game dealt with ``rng``."""
        p = self.probe
        return Match(p.game, p.players, seed, p.options, p.content, p.content_path, rng=rng)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> DeathNoteObserver:
        """Information states (perfect recall) or observations of a seat."""
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        actions = self.num_distinct_actions() if perfect_recall else 0
        observer = DeathNoteObserver(self.shape, actions, perfect_recall)
        _hold_forever(observer)
        return observer


class DeathNoteSpielState(pyspiel.State):
    """A running match seen through OpenSpiel's State API."""

    def __init__(self, game: DeathNoteSpielGame, held: _Held) -> None:
        super().__init__(game)
        self._held = held

    @property
    def held(self) -> _Held:
        """What the state holds, the deal's first draw run if not yet."""
        held = self._held
        if not held.started:
            held.started = True
            held.run(self.get_game())
        return held

    @property
    def match(self) -> Match:
        """The match at this state (at a chance node: before the transition being drawn;
        at the deal's draws there is none yet: ``LookupError``)."""
        held = self.held
        match = held.match if held.match is not None else held.base
        if match is None:
            raise LookupError("the cards are being dealt: there is no match yet")
        return match

    @property
    def own(self) -> list[list[int]]:
        """Each seat's own actions so far (kept here: a sampled world has no record)."""
        return self._held.own

    def current_player(self) -> int:
        """The lowest pending seat, CHANCE while a draw is open, or TERMINAL."""
        held = self.held
        if held.wanted:
            return int(pyspiel.PlayerId.CHANCE)
        assert held.match is not None
        if held.match.outcome() is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return min(held.match.pending())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The open draw's outcomes, alike."""
        n = self.held.wanted
        return [(i, 1.0 / n) for i in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.match.legal_mask(player))]

    def _apply_action(self, action: int) -> None:
        held = self.held
        game = self.get_game()
        if held.wanted:
            held.script.append(int(action))
            held.run(game)
            return
        match = held.match
        assert match is not None
        seat = min(match.pending())
        held.base = match
        held.move = (seat, match.action_at(int(action), seat))
        held.script = []
        held.run(game)
        self.own[seat].append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action} of {self.held.wanted}"
        chosen = self.match.action_at(int(action), player if player >= 0 else None)
        return chosen.label or str(chosen.to_json())

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        held = self.held
        return not held.wanted and held.match is not None and held.match.outcome() is not None

    def returns(self) -> list[float]:
        """+1 per winning seat, -1 for the others (0 for all while running or on a draw)."""
        held = self.held
        if held.wanted or held.match is None:
            return [0.0] * self.get_game().players
        rewards = match_rewards(held.match)
        return [rewards[s] for s in range(held.match.players)]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> DeathNoteSpielState:
        """A state the seat cannot tell from this one, hidden facts drawn anew."""
        rng = random.Random(int(probability_sampler() * 2**53))
        world = self.match.sample_world(player_id, rng)
        held = _Held([list(a) for a in self.own], 0)
        held.started, held.match = True, world
        return DeathNoteSpielState(self.get_game(), held)

    def __str__(self) -> str:
        held = self.held
        if held.wanted:
            return f"drawing ({held.wanted} outcomes, {len(held.script)} drawn)"
        match = self.match
        return (
            f"{match.game.id} after {len(match.actions)} actions, pending {sorted(match.pending())}"
        )


class _Held:
    """What a state holds: the match at a decision (``match``), or at a chance node the
    match before the transition (``base``, None at the deal), the seat's action being
    carried out (``move``), the outcomes drawn so far (``script``) and the size of the open
    draw (``wanted``). OpenSpiel clones a Python state by making a new initial state and
    deep-copying the attributes over it: the new state runs nothing until first used, and
    the copy forks the match (content shared, not copied); ``base`` is never changed, so it
    is shared."""

    __slots__ = ("base", "match", "move", "own", "script", "seed", "started", "wanted")

    def __init__(self, own: list[list[int]], seed: int) -> None:
        self.started = False
        self.match: Match | None = None
        self.base: Match | None = None
        self.move: tuple[Seat, Action] | None = None
        self.script: list[int] = []
        self.wanted = 0
        self.own = own
        self.seed = seed

    def run(self, game: DeathNoteSpielGame) -> None:
        """Carry out the transition with the outcomes drawn so far: either a draw is still
        open (``wanted``) or the match after it is ``match``."""
        if self.base is None:
            rng = Scripted(self.script, random.Random(self.seed).getstate())
            match = game.start_match(self.seed, rng)
        else:
            match = self.base.fork()
            rng = match.rng = Scripted(self.script, match.rng.getstate())
            assert self.move is not None
            match.submit(*self.move)
        if rng.wanted:
            self.match, self.wanted = None, rng.wanted
            return
        match.rng = rng_copy(rng)  # an ordinary generator again, in the same state
        self.match, self.base, self.move, self.script, self.wanted = match, None, None, [], 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        twin = _Held([list(a) for a in self.own], self.seed)
        twin.started = self.started
        twin.match = None if self.match is None else self.match.fork()
        twin.base, twin.move, twin.script = self.base, self.move, list(self.script)
        twin.wanted = self.wanted
        return twin


class DeathNoteObserver:
    """OpenSpiel's PyObserver: a seat's information state or observation."""

    def __init__(self, shape: tuple[int, ...], actions: int, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.size = int(np.prod(shape))
        self.tensor = np.zeros(self.size + actions, np.float32)
        self.dict = {"observation": self.tensor[: self.size].reshape(shape)}
        if perfect_recall:
            self.dict["own_actions"] = self.tensor[self.size :]

    def set_from(self, state: DeathNoteSpielState, player: Seat) -> None:
        """Fill ``tensor``: the seat's observation tensor (and its action counts)."""
        tensor = self.tensor
        tensor[:] = 0.0
        with contextlib.suppress(LookupError):  # at the deal: nothing seen yet
            tensor[: self.size] = state.match.observation_tensor(player).reshape(-1)
        if self.perfect_recall:
            for action in state.own[player]:
                tensor[self.size + action] += 1.0

    def string_from(self, state: DeathNoteSpielState, player: Seat) -> str:
        """The seat's information state (its view with the log, its own actions) or its
        observation (its view without the log), as JSON."""
        try:
            view = state.match.view(player)
        except LookupError:
            view = {"dealing": True}
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
