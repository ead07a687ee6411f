"""PettingZoo environments over any game: ``env(...)`` (AEC) and ``parallel_env(...)``.

Needs the ``rl`` extra (``pip install deathnote[rl]``).

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Each agent observes a dict:
``observation`` is ``Match.observation_tensor(seat)`` (float32, only what that seat may
see; a new array every call) and ``action_mask`` is ``Match.legal_mask(seat)`` (int8 over
the game's stable action numbers, all zeros when the seat is not asked; read-only, as
observations with the same legal numbers share one: copy it to change it). The action
space is
``Discrete(number of distinct actions)``; an action that is not legal now raises
``IllegalAction`` and changes nothing (mask your policy), or with ``illegal="lose"`` ends
the episode as PettingZoo's classic games do (their ``TerminateIllegalWrapper``): the agent
that played it gets -1, every other 0, all are terminated, its info says
``illegal_action``, and the match is left as it was. Rewards come once, when the game
ends: +1 for each winning seat, -1 for the others, 0 for everyone when nobody wins. Every
agent is then terminated and its last observation is its own view of the final position,
never the omniscient one. ``max_steps`` truncates every agent after that many actions
(AEC) or parallel steps.

An episode is played on the game state and its generator alone (``Game.apply_quiet``, as
the search bots' play-outs: the same changes and draws, no log and no snapshots). The
env's ``match`` (and ``render``) replays its actions into the ``Match`` of that seed (log,
record, views) the first time it is asked for in an episode; the episode then goes on
on that match. Learners never need it.

The AEC env asks one seat at a time: the lowest pending seat. Several pending seats (a
secret simultaneous choice) are asked one after the other; the later ones never see the
earlier choice, because no seat's view shows it.

The parallel env makes one step of every decision round: all pending seats act together
(a simultaneous secret choice, like Confrontation's A/B tokens, is one step). Steps where
the game asks one seat are steps where only that seat has a non-zero mask; every other
live agent still gets its observation, reward and flags (PettingZoo's ``parallel_api_test``
expects all live agents in every dict) and its action, if given, is ignored. Pending
seats' actions are carried out in seat order, as the AEC env would; an action whose seat is
no longer asked after an earlier one (e.g. the game ended) is dropped.

>>> from deathnote.interop.pettingzoo import env  # doctest: +SKIP
>>> aec = env("confrontation", players=2)  # doctest: +SKIP
>>> aec.reset(seed=1)  # doctest: +SKIP
>>> for agent in aec.agent_iter():  # doctest: +SKIP
...     obs, reward, term, trunc, info = aec.last()
...     aec.step(None if term or trunc else aec.action_space(agent).sample(obs["action_mask"]))
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Action, Outcome, Seat, Viewer
from deathnote.engine.errors import IllegalAction
from deathnote.engine.game import Game
from deathnote.engine.match import Match
from deathnote.engine.registry import get_game
from deathnote.engine.rng import new as rng_new
from deathnote.engine.spaces import TableSpace
from deathnote.interop.common import (
    RENDER_MODES,
    Observation,
    outcome_rewards,
    render_in_mode,
)

AgentID = str
#: the kind and arguments of an Action (what its equality compares)
_KEY = operator.attrgetter("kind", "args")
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)
#: what an illegal action does: raise IllegalAction, or lose the episode
ILLEGAL = ("raise", "lose")


def agent_name(seat: Seat) -> AgentID:
    """The PettingZoo agent id of a seat."""
    return f"player_{seat}"


class _Table:
    """What both environments share: the match, its seeds, spaces and observations."""

    def __init__(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        content: str | None,
        max_steps: int | None,
        render_mode: str | None,
        render_viewer: Viewer,
        illegal: str = "raise",
    ) -> None:
        game = get_game(game_id)
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {ILLEGAL}, not {illegal!r}")
        self.illegal = illegal
        self.game_id = game_id
        self.players = game.min_players if players is None else players
        self.options = options
        self.content = content
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.render_mode = render_mode
        self.render_viewer = render_viewer
        self.max_steps = max_steps
        # A first match validates players, options and content now, and gives the spaces;
        # every episode's match is made from it with its seed.
        self._proto = Match.create(game_id, self.players, 0, options, content)
        self.game = game = self._proto.game
        # The episode is played on its state and generator alone (``Game.apply_quiet``, as
        # a search bot's play-out: the same state changes and draws, no log), with its
        # actions listed: ``full_match`` replays them into the ``Match`` (log and record)
        # when someone asks for it, and from then on the episode is played on that match.
        self.seed = 0
        self.state: Any = None
        self.rng: random.Random = random.Random(0)
        self.actions: list[tuple[Seat, Action]] = []
        self.outcome: Outcome | None = None
        self._full: Match | None = None
        # ``Game.apply_quiet``; where the game keeps the default (``apply``, its events
        # dropped), ``apply`` itself (one call fewer)
        self._apply_quiet = (
            game.apply_quiet if type(game).apply_quiet is not Game.apply_quiet else game.apply
        )
        self._game_outcome = game.outcome
        self._game_mover = game.mover
        self._game_legal = game.legal
        #: ``Game.moves`` where the game overrides it (the mover and its legal actions in
        #: one read of the state), else None (then ``mover`` and ``legal`` are asked apart)
        self._game_moves = game.moves if type(game).moves is not Game.moves else None
        self._tensor = game.observation_tensor
        self.seats = list(range(self.players))
        self.names = [agent_name(s) for s in self.seats]
        self.seat_of = {name: s for s, name in enumerate(self.names)}
        size = self._proto.action_space.size
        shape = self._proto.observation_shape()
        # Tensors hold one-hots, flags and counts: never negative, no fixed upper bound.
        self.observation_spaces = {
            name: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for name in self.names
        }
        self.action_spaces = {name: spaces.Discrete(size) for name in self.names}
        self.state_space = spaces.Box(0.0, np.inf, shape, np.float32)
        # The generator of the seeds of unseeded resets, made from the last seed given
        # when the first unseeded reset after it needs it.
        self._seeder: random.Random | None = None
        self._seed_from: int | None = None
        self.steps = 0
        # The legal actions of one seat, their numbers (in the same order) and its mask,
        # for the position (number of actions played) they were listed in.
        self._legal_step = -1
        self._legal_seat: Seat = -1
        # The seat the AEC env asks (Game.mover: no decisions built) and at which position.
        self._mover_step = -1
        self._mover: Seat = -1
        self._legal: Sequence[Action] = ()
        self._numbers: tuple[int, ...] = ()
        self._mask = np.zeros(size, np.int8)
        self._mask.flags.writeable = False
        # Games hand back the same tuple for a recurring choice (e.g. "A or B"): its
        # numbers and mask are made once (keyed by the tuple's id, the tuple kept alive).
        self._by_tuple: dict[int, tuple[tuple[Action, ...], tuple[int, ...], np.ndarray]] = {}
        #: numbers and mask by the ids of the legal action objects, all kept in ``_kept``
        self._by_ids: dict[tuple[int, ...], tuple[tuple[int, ...], np.ndarray]] = {}
        #: masks by the numbers of the legal actions (read-only: observations share them)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        # An action's number by its kind and arguments (C-level hashing, no Action.__eq__
        # per action for games that list new Action objects), where the table has no two
        # actions that differ only by a boolean standing for a number; else None.
        space = self._proto.action_space
        self._space = space
        self._numbers_by_key: dict[tuple[str, Any], int] | None = None
        # An action's number by the id of the action object (the objects kept alive in
        # ``_kept``); None once too many objects were seen (see ``_numbers_of``).
        self._numbers_by_id: dict[int, int] | None = {}
        self._kept: list[Action] = []
        if isinstance(space, TableSpace):
            keys = {(a.kind, a.args): i for i, a in enumerate(space.actions)}
            if len(keys) == space.size:
                self._numbers_by_key = keys

    def new_match(self, seed: int | None) -> None:
        """A fresh episode: seeded with ``seed``, else with the next seed of the last one."""
        if seed is not None:
            self._seeder, self._seed_from = None, seed
            match_seed = int(seed)
        else:
            if self._seeder is None:
                self._seeder = random.Random(self._seed_from)
            match_seed = self._seeder.getrandbits(62)
        # The state of the match ``Match.with_seed`` would make (same generator, same
        # set-up draws), without the set-up events (``Game.new_state``).
        proto = self._proto
        self.seed = match_seed
        self.rng = rng_new(match_seed)
        self.state = self.game.new_state(proto.players, proto.options, proto.content, self.rng)
        self.outcome = self._game_outcome(self.state)
        self.actions = []
        self._full = None
        self.steps = 0
        self._legal_step = self._mover_step = -1

    @property
    def match(self) -> Match:
        """The episode's ``Match`` (log, record, views): replayed from its actions the
        first time it is asked for; the episode then goes on on it."""
        full = self._full
        if full is None:
            full = self._proto.with_seed(self.seed)
            for seat, action in self.actions:
                full._commit(seat, action)  # each was legal where it was played
            self._full = full
            self.state, self.rng, self.actions = full.state, full.rng, full.actions
        return full

    def play(self, seat: Seat, action: Action) -> None:
        """Carry out one of the seat's legal actions (from ``legal_action``)."""
        full = self._full
        if full is None:
            self._apply_quiet(self.state, seat, action, self.rng)
            self.actions.append((seat, action))
            self.outcome = self._game_outcome(self.state)
        else:
            full._commit(seat, action)  # appends to self.actions: the same list
            self.outcome = full._outcome
        self.steps += 1

    def pending(self) -> Sequence[Seat]:
        """The seats asked now, in seat order."""
        return sorted(self.game.pending(self.state)) if self.outcome is None else []

    def mover(self) -> Seat:
        """The lowest pending seat (``Game.mover``; asked only while the game runs)."""
        seat = self._game_mover(self.state)
        if seat is None:
            raise RuntimeError(f"{self.game.id}: the game is not over and nobody is asked")
        self._mover, self._mover_step = seat, len(self.actions)
        return seat

    def list_legal(self, seat: Seat) -> None:
        """Lists the seat's legal actions, their numbers and mask (once per position)."""
        step = len(self.actions)
        if step == self._legal_step and seat == self._legal_seat:
            return
        state = self.state
        if (seat == self._mover and step == self._mover_step) or (
            self.outcome is None and seat in self.game.pending(state)
        ):
            # a pending seat: the game's legal actions, as Match.legal would give them
            legal = self._game_legal(state, seat)
        else:
            legal = ()
        self.set_legal(step, seat, legal)

    def set_legal(self, step: int, seat: Seat, legal: Sequence[Action]) -> None:
        """Takes ``legal`` as the seat's legal actions at this position (number of actions
        played), with their numbers and mask."""
        hit = self._by_tuple.get(id(legal)) if type(legal) is tuple else None
        if hit is not None and hit[0] is legal:
            self._legal, self._numbers, self._mask = legal, hit[1], hit[2]
            self._legal_step, self._legal_seat = step, seat
            return
        # The same lists of kept action objects recur: their numbers and mask by the
        # objects' ids (one hash of a tuple; valid because every object is kept alive).
        ids = tuple(map(id, legal))
        listed = self._by_ids.get(ids)
        if listed is not None:
            numbers, mask = listed
        else:
            by_id = self._numbers_by_id
            found = tuple(map(by_id.get, ids)) if by_id is not None else (None,)
            numbers = self._numbers_of(legal) if None in found else cast(tuple[int, ...], found)
            # The same sets of numbers recur (the choices of a phase): one mask each.
            known = self._masks.get(numbers)
            if known is None:
                ones = bytearray(self._space.size)  # as Match.legal_mask, numbers kept
                for number in numbers:
                    ones[number] = 1
                # read-only (over bytes): handed out to every such observation
                mask = np.frombuffer(bytes(ones), _INT8)
                if len(self._masks) >= 8192:
                    self._masks.clear()  # start again (the common ones come back first)
                self._masks[numbers] = mask
            else:
                mask = known
            if type(legal) is tuple and len(self._by_tuple) < 4096:
                self._by_tuple[id(legal)] = (legal, numbers, mask)
            elif self._numbers_by_id is not None and len(self._by_ids) < 8192:
                # every object of ``legal`` is now in ``_kept``: its id stays its own
                self._by_ids[ids] = (numbers, mask)
        self._legal, self._numbers, self._mask = legal, numbers, mask
        self._legal_step, self._legal_seat = step, seat

    def _numbers_of(self, legal: Sequence[Action]) -> tuple[int, ...]:
        """The numbers of legal actions not all known by identity; the action objects are
        remembered (and kept alive, so that their ids stay theirs) for the next time: most
        games hand out the same prebuilt objects. Games that make new ones every time
        soon fill the memo, and it is no longer tried."""
        by_key = self._numbers_by_key
        found = tuple(map(by_key.get, map(_KEY, legal))) if by_key is not None else (None,)
        if None in found:  # not a table of actions, or an action it does not list
            numbers = tuple(map(self._space.id, legal))
        else:
            numbers = cast(tuple[int, ...], found)
        by_id = self._numbers_by_id
        if by_id is not None:
            if len(self._kept) + len(legal) > 4096:
                self._numbers_by_id = None
            else:
                for action, number in zip(legal, numbers, strict=True):
                    if id(action) not in by_id:
                        by_id[id(action)] = number
                        self._kept.append(action)
        return numbers

    def legal_action(self, seat: Seat, number: int) -> Action | None:
        """The seat's legal action with this number now, or None."""
        self.list_legal(seat)
        numbers = self._numbers
        return self._legal[numbers.index(number)] if number in numbers else None

    def observe(self, seat: Seat) -> Observation:
        """One seat's own observation and mask: the game's fresh tensor, and the mask of
        its legal numbers (shared by every observation with those numbers: read-only)."""
        self.list_legal(seat)
        tensor = self._tensor(self.state, seat)  # Match.observation_tensor
        if tensor.dtype is not _FLOAT32:
            tensor = tensor.astype(np.float32)
        return {"observation": tensor, "action_mask": self._mask}

    def action(self, seat: Seat, action: Any) -> Action:
        """The legal Action for an action number of this seat, or IllegalAction."""
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalAction(f"an action is an integer, not {action!r}") from None
        space = self._space
        if not 0 <= index < space.size:
            raise IllegalAction(f"there is no action number {index} (0..{space.size - 1})")
        legal = self.legal_action(seat, index)
        if legal is not None:
            return legal
        wanted = space.at(index)
        raise IllegalAction(
            f"action {index} ({wanted.label or wanted.kind}) is not legal for "
            f"{agent_name(seat)} now"
        )

    def truncated(self) -> bool:
        """Whether the step limit is reached with the game still running."""
        return self.max_steps is not None and self.steps >= self.max_steps and self.outcome is None

    def render(self) -> str | None:
        """Text of the render viewer's view: returned ("ansi") or printed ("human")."""
        return render_in_mode(self.render_mode, self.match, self.render_viewer)

    def global_state(self) -> np.ndarray:
        """The omniscient tensor (for centralised critics only: never an agent's view)."""
        return self._tensor(self.state, OMNISCIENT).astype(np.float32, copy=True)


class _OnTable:
    """What the AEC and the parallel env share: both play one ``_Table``."""

    table: _Table
    metadata: dict[str, Any]
    observation_spaces: dict[AgentID, spaces.Dict]
    action_spaces: dict[AgentID, spaces.Discrete]

    def __str__(self) -> str:
        return str(self.metadata["name"])

    @property
    def match(self) -> Match:
        """The running match (the full truth: never hand it to a learner)."""
        return self.table.match

    def observation_space(self, agent: AgentID) -> gymnasium.spaces.Space[Any]:
        """The Dict space of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> gymnasium.spaces.Space[Any]:
        """Discrete over the game's stable action numbers."""
        return self.action_spaces[agent]


class DeathNoteAECEnv(_OnTable, AECEnv[AgentID, Observation, int]):
    """One game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo reads it from the class)
        "render_modes": RENDER_MODES,
        "name": "deathnote_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        *,
        max_steps: int | None = None,
        render_mode: str | None = None,
        render_viewer: Viewer = SPECTATOR,
        content: str | None = None,
        illegal: str = "raise",
        **options: Any,
    ) -> None:
        super().__init__()
        self.table = _Table(
            game_id, players, options, content, max_steps, render_mode, render_viewer, illegal
        )
        self.metadata = {**type(self).metadata, "name": f"deathnote_{game_id}_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(self.table.names)
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces
        self.state_space = self.table.state_space
        self._start(None)

    def _start(self, seed: int | None) -> None:
        self.table.new_match(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection: AgentID | None = None
        self.agent_selection = self.table.names[self.table.mover()]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds it (and the following unseeded resets).

        ``options`` is accepted for the PettingZoo API; game options are fixed when the
        environment is made."""
        self._start(seed)

    def observe(self, agent: AgentID) -> Observation:
        """The agent's own observation and action mask."""
        return self.table.observe(self.table.seat_of[agent])

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``: the selected agent's observation (``observe``), its
        accumulated reward, termination, truncation and info (written out: it is called at
        every step)."""
        agent = self.agent_selection
        table = self.table
        obs: Observation | None = None
        if observe:
            # ``table.observe`` written out (once per step of every learner's loop)
            seat = table.seat_of[agent]
            if table._legal_step != len(table.actions) or table._legal_seat != seat:
                table.list_legal(seat)
            tensor = table._tensor(table.state, seat)
            if tensor.dtype is not _FLOAT32:
                tensor = tensor.astype(np.float32)
            obs = {"observation": tensor, "action_mask": table._mask}
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> np.ndarray:
        """The omniscient tensor of the true state (for centralised training only)."""
        return self.table.global_state()

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        seat = table.seat_of[agent]
        actions = table.actions
        # The number of one of the seat's legal actions (the usual case) is looked up
        # directly, in the list ``last()`` made for this position if it did; anything else
        # goes through ``table.action``, which names the fault.
        chosen: Action | None = None
        if type(action) is int:
            if table._legal_step == len(actions) and table._legal_seat == seat:
                numbers = table._numbers
                if action in numbers:
                    chosen = table._legal[numbers.index(action)]
            else:
                chosen = table.legal_action(seat, action)
        if chosen is None:
            if action is None:
                raise IllegalAction(f"{agent} must act: None is only for agents that are done")
            try:
                chosen = table.action(seat, action)
            except IllegalAction:
                if table.illegal != "lose":
                    raise
                self._lose(agent)
                return
        self._cumulative_rewards[agent] = 0.0
        # ``chosen`` is one of the game's own legal actions for its asked seat (looked up
        # in its legal list): carried out as the engine's play loop does, without a
        # re-check (``table.play`` written out for an episode played on its state alone).
        if table._full is None:
            state = table.state
            table._apply_quiet(state, seat, chosen, table.rng)
            actions.append((seat, chosen))
            outcome = table.outcome = table._game_outcome(state)
            table.steps += 1
        else:
            table.play(seat, chosen)
            outcome = table.outcome
        over = outcome is not None
        if over or (table.max_steps is not None and table.truncated()):
            rewards = outcome_rewards(table.outcome, table.players)
            for name in self.agents:
                s = table.seat_of[name]
                self.rewards[name] = rewards[s]
                self.terminations[name] = over
                self.truncations[name] = not over
            # Every agent now gets its last observation, in seat order after the actor.
            self.agent_selection = table.names[(seat + 1) % table.players]
            self._accumulate_rewards()
        else:
            # Rewards are all 0 until the end (set so at reset): nothing to accumulate.
            # The next seat asked (``table.mover`` written out), and where the game tells
            # both in one read of the state (``Game.moves``), its legal actions too: the
            # ones ``last()`` lists next.
            moves = table._game_moves
            if moves is not None:
                mover, legal = moves(table.state)
            else:
                mover = table._game_mover(table.state)
            if mover is None:
                mover = table.mover()  # raises: the game is not over and nobody is asked
            step = len(actions)
            table._mover, table._mover_step = mover, step
            if moves is not None:
                table.set_legal(step, mover, legal)
            self.agent_selection = table.names[mover]

    def _was_dead_step(self, action: int | None) -> None:
        """PettingZoo's ``AECEnv._was_dead_step`` written out (every agent of every episode
        takes one such step): the dead selected agent leaves every dict and ``agents``; the
        next dead agent is selected, or once none is left, the agent selected before them;
        rewards are cleared (to 0, as PettingZoo's ``_clear_rewards``)."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        terminations, truncations = self.terminations, self.truncations
        del terminations[agent], truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        for other in agents:
            if terminations[other] or truncations[other]:
                if self._skip_agent_selection is None:
                    self._skip_agent_selection = agent
                self.agent_selection = other
                break
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        rewards = self.rewards
        for name in rewards:
            rewards[name] = 0

    def _lose(self, agent: AgentID) -> None:
        """``illegal="lose"``: the agent gets -1, the others 0, and every agent is done."""
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = -1.0 if name == agent else 0.0
            self.terminations[name] = True
        self.infos[agent] = {"illegal_action": True}
        seat = self.table.seat_of[agent]
        self.agent_selection = agent_name((seat + 1) % self.table.players)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The render viewer's view as text (default: the spectator's)."""
        return self.table.render()

    def close(self) -> None:
        """Nothing to release."""


class DeathNoteParallelEnv(_OnTable, ParallelEnv[AgentID, Observation, int]):
    """One game as a PettingZoo parallel environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo reads it from the class)
        "render_modes": RENDER_MODES,
        "name": "deathnote_v0",
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        *,
        max_steps: int | None = None,
        render_mode: str | None = None,
        render_viewer: Viewer = SPECTATOR,
        content: str | None = None,
        illegal: str = "raise",
        **options: Any,
    ) -> None:
        self.table = _Table(
            game_id, players, options, content, max_steps, render_mode, render_viewer, illegal
        )
        self.metadata = {**type(self).metadata, "name": f"deathnote_{game_id}_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(self.table.names)
        self.agents = list(self.possible_agents)
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces
        self.state_space = self.table.state_space

    def _observations(self) -> dict[AgentID, Observation]:
        return {a: self.table.observe(self.table.seat_of[a]) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[AgentID, Observation], dict[AgentID, dict[str, Any]]]:
        """Start a new game; returns every agent's observation and an empty info."""
        self.table.new_match(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def state(self) -> np.ndarray:
        """The omniscient tensor of the true state (for centralised training only)."""
        return self.table.global_state()

    def step(
        self, actions: dict[AgentID, Any]
    ) -> tuple[
        dict[AgentID, Observation],
        dict[AgentID, float],
        dict[AgentID, bool],
        dict[AgentID, bool],
        dict[AgentID, dict[str, Any]],
    ]:
        """Every pending seat acts (each needs an action); other agents' actions are
        ignored. Checked before anything is played: a bad action changes nothing."""
        table = self.table
        if not self.agents:
            raise IllegalAction("the game is over: call reset()")
        pending = table.pending()
        chosen = []
        for seat in pending:
            name = agent_name(seat)
            if name not in actions or actions[name] is None:
                raise IllegalAction(f"{name} is asked to decide and needs an action")
            try:
                chosen.append((seat, table.action(seat, actions[name])))
            except IllegalAction:
                if table.illegal != "lose":
                    raise
                return self._lose(name)
        steps = table.steps
        for seat, action in chosen:
            if table.outcome is not None or seat not in table.pending():
                continue
            if action in table.game.legal(table.state, seat):
                table.play(seat, action)
        table.steps = steps + 1  # a parallel step: one, whatever the number of actions
        over = table.outcome is not None
        done = over or table.truncated()
        rewards = outcome_rewards(table.outcome, table.players)
        live = list(self.agents)
        observations = self._observations()
        reward = {a: rewards[table.seat_of[a]] for a in live}
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, done and not over)
        infos: dict[AgentID, dict[str, Any]] = {a: {} for a in live}
        if done:
            self.agents = []
        return observations, reward, terminations, truncations, infos

    def _lose(
        self, agent: AgentID
    ) -> tuple[
        dict[AgentID, Observation],
        dict[AgentID, float],
        dict[AgentID, bool],
        dict[AgentID, bool],
        dict[AgentID, dict[str, Any]],
    ]:
        """``illegal="lose"``: the agent gets -1, the others 0, and every agent is done."""
        live = list(self.agents)
        observations = self._observations()
        reward = {a: -1.0 if a == agent else 0.0 for a in live}
        infos: dict[AgentID, dict[str, Any]] = {a: {} for a in live}
        infos[agent] = {"illegal_action": True}
        self.agents = []
        return observations, reward, dict.fromkeys(live, True), dict.fromkeys(live, False), infos

    def render(self) -> str | None:
        """The render viewer's view as text (default: the spectator's)."""
        return self.table.render()

    def close(self) -> None:
        """Nothing to release."""


def env(game_id: str, players: int | None = None, **kwargs: Any) -> DeathNoteAECEnv:
    """The AEC environment of a game; keyword arguments are the env's settings
    (``max_steps``, ``render_mode``, ``render_viewer``, ``content``, ``illegal``) and game
    options."""
    return DeathNoteAECEnv(game_id, players, **kwargs)


def parallel_env(game_id: str, players: int | None = None, **kwargs: Any) -> DeathNoteParallelEnv:
    """The parallel environment of a game (same arguments as ``env``)."""
    return DeathNoteParallelEnv(game_id, players, **kwargs)


def raw_env(game_id: str, players: int | None = None, **kwargs: Any) -> DeathNoteAECEnv:
    """The AEC environment without wrappers (the same as ``env``: it has none)."""
    return DeathNoteAECEnv(game_id, players, **kwargs)
