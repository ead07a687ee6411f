"""Gymnasium environments: one seat of a game against named bots.

Needs the ``rl`` extra (``pip install deathnote[rl]``). Importing this module registers
``deathnote/<Game>-v0`` for every game (``Confrontation``, ``Enquete``, ``ICG``, ``TCG``,
``Werewolf``); game options and the env's settings go through ``gymnasium.make``:

>>> import gymnasium, deathnote.interop.gymnasium  # doctest: +SKIP
>>> env = gymnasium.make("deathnote/ICG-v0", players=5, seat=2, opponents="heuristic")  # doctest: +SKIP
>>> vec = gymnasium.make_vec("deathnote/Confrontation-v0", num_envs=8)  # doctest: +SKIP

The observation is the PettingZoo one (a dict of the seat's ``observation`` tensor and its
``action_mask``); ``action_masks()`` gives the mask too, for sb3-contrib's MaskablePPO. The
reward is +1 for a win, -1 for a loss, 0 when nobody wins, given when the game ends. Bots
play every other seat between the learner's decisions, each with its own generator drawn
from the match seed. An action that is not legal ends the episode as a loss (reward -1,
``info["illegal_action"]``) and plays nothing: Gymnasium's checker steps with unmasked
random actions, and a learner should feel the cost of ignoring the mask. A deal in which
the game ends before the learner's seat is asked anything is skipped: ``reset`` draws the
next one from the same seeded generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from deathnote.agents import Agent, agent_rng, make_agent, observe
from deathnote.engine.actions import Seat
from deathnote.engine.errors import DeathNoteError, IllegalAction
from deathnote.engine.match import Match
from deathnote.engine.registry import games, get_game
from deathnote.interop.common import (
    RENDER_MODES,
    Observation,
    match_rewards,
    render_in_mode,
)

#: The Gymnasium name of each game (ids for any other game: its id, capitalised).
GYM_NAMES = {
    "confrontation": "Confrontation",
    "enquete": "Enquete",
    "icg": "ICG",
    "tcg": "TCG",
    "werewolf": "Werewolf",
}
#: Deals tried by one reset before giving up on a seat that is never asked.
MAX_DEALS = 100
#: Actions after which a game that does not end is an error (as in simulations).
MAX_ACTIONS = 100_000


def gym_id(game_id: str) -> str:
    """The registered Gymnasium id of a game, e.g. ``deathnote/ICG-v0``."""
    return f"deathnote/{GYM_NAMES.get(game_id, game_id.capitalize())}-v0"


class DeathNoteGymEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a game as a Gymnasium environment; the other seats are bots."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        *,
        seat: Seat = 0,
        opponents: str | Sequence[str] = "heuristic",
        max_steps: int | None = None,
        render_mode: str | None = None,
        content: str | None = None,
        **options: Any,
    ) -> None:
        game = get_game(game_id)
        self.game_id = game_id
        self.players = game.min_players if players is None else players
        self.options = options
        self.content = content
        self.match = Match.create(game_id, self.players, 0, options, content)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise DeathNoteError(f"seat must be 0..{self.players - 1}, not {seat!r}")
        self.seat = seat
        others = [s for s in range(self.players) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise DeathNoteError(
                f"opponents needs one bot name or {len(others)} names (one per other seat)"
            )
        self.opponents = dict(zip(others, names, strict=True))
        for other, name in self.opponents.items():
            make_agent(game_id, name, other)  # an unknown name fails now, not at reset
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.render_mode = render_mode
        self.max_steps = max_steps
        size = self.match.action_space.size
        self.observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, self.match.observation_shape(), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(size)
        self._bots: dict[Seat, Agent] = {}
        self._bot_rngs: dict[Seat, Any] = {}
        self._steps = 0
        self._over = True

    # -- the Gymnasium API ------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game (seeded from ``seed``) and play the bots up to the seat's turn."""
        super().reset(seed=seed)
        for _ in range(MAX_DEALS):
            match_seed = int(self.np_random.integers(2**62))
            self.match = Match.create(
                self.game_id, self.players, match_seed, self.options, self.content
            )
            self._bots = {s: make_agent(self.game_id, n, s) for s, n in self.opponents.items()}
            self._bot_rngs = {s: agent_rng(match_seed, s) for s in self.opponents}
            self._steps = 0
            self._play_bots()
            if self.match.outcome() is None:
                self._over = False
                return self._observe(), {"match_seed": match_seed}
        raise DeathNoteError(f"seat {self.seat} was never asked in {MAX_DEALS} deals")

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the seat's action, then the bots up to its next decision or the end."""
        if self._over:
            raise IllegalAction("the episode is over: call reset()")
        match = self.match
        legal = self._legal_action(action)
        if legal is None:
            self._over = True
            return self._observe(), -1.0, True, False, {"illegal_action": True}
        match.submit(self.seat, legal)
        self._steps += 1
        self._play_bots()
        over = match.outcome() is not None
        truncated = not over and self.max_steps is not None and self._steps >= self.max_steps
        self._over = over or truncated
        reward = match_rewards(match)[self.seat]
        return self._observe(), reward, over, truncated, {}

    def render(self) -> str | None:
        """The seat's own view as text: returned ("ansi") or printed ("human")."""
        return render_in_mode(self.render_mode, self.match, self.seat)

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (what sb3-contrib's MaskablePPO asks for)."""
        return self.match.legal_mask(self.seat).astype(bool)

    # -- inside -----------------------------------------------------------------------
    def _observe(self) -> Observation:
        return {
            # the game's tensor is a new array every call, shared with nothing: not copied
            "observation": self.match.observation_tensor(self.seat).astype(np.float32, copy=False),
            "action_mask": self.match.legal_mask(self.seat),
        }

    def _legal_action(self, action: Any) -> Any:
        try:
            index = int(action)
        except (TypeError, ValueError):
            return None
        space = self.match.action_space
        if not 0 <= index < space.size:
            return None
        wanted = space.at(index)
        for candidate in self.match.legal(self.seat):
            if candidate == wanted:
                return candidate
        return None

    def _play_bots(self) -> None:
        """Bots decide (lowest pending seat first) until the seat is asked or the game ends."""
        match = self.match
        while match.outcome() is None:
            pending = match.pending()
            if self.seat in pending:
                return
            if len(match.actions) >= MAX_ACTIONS:
                raise DeathNoteError(f"no end after {MAX_ACTIONS} actions")
            bot_seat = min(pending)
            bot = self._bots[bot_seat]
            match.submit(bot_seat, bot.choose(observe(match, bot_seat, self._bot_rngs[bot_seat])))


def register_envs() -> list[str]:
    """Register ``deathnote/<Game>-v0`` for every game (again is harmless); their ids."""
    ids = []
    for game_id in games():
        env_id = gym_id(game_id)
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="deathnote.interop.gymnasium:DeathNoteGymEnv",
                kwargs={"game_id": game_id},
            )
        ids.append(env_id)
    return ids


register_envs()
