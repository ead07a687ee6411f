"""Stable action numbers: every game maps each of its actions to one integer and back.

A game's ``action_space(players, options)`` returns an :class:`ActionSpace`. The numbering
depends only on the game, the player count and the options, never on the state, so a
learner sees action 17 mean the same thing in every position. ``Match.legal_mask`` is the
0/1 vector of the legal ones.

>>> space = TableSpace([Action.make("chase", side="A"), Action.make("chase", side="B")])
>>> space.size, space.id(Action.make("chase", side="B")), space.at(0).to_json()
(2, 1, {'kind': 'chase', 'side': 'A'})
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable

from deathnote.engine.actions import Action
from deathnote.engine.errors import IllegalAction


class ActionSpace(ABC):
    """The numbered actions of one game for one player count and set of options."""

    size: int

    @abstractmethod
    def id(self, action: Action) -> int:
        """The number of an action (0..size-1); IllegalAction if the game has no such action."""

    @abstractmethod
    def at(self, index: int) -> Action:
        """The action with this number; IllegalAction if out of range."""


class TableSpace(ActionSpace):
    """An action space listed in full: the table order is the numbering."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self.actions: tuple[Action, ...] = tuple(actions)
        self.size = len(self.actions)
        self._ids: dict[Action, int] = {}
        for index, action in enumerate(self.actions):
            if action in self._ids:
                raise ValueError(f"action {action.to_json()} listed twice")
            self._ids[action] = index
        # The same action objects come back again and again (games hand out the table's
        # own, or keep theirs): found by identity first, without hashing the arguments.
        # Each entry holds its action, so an id is never reused while it is in here.
        self._by_object: dict[int, tuple[Action, int]] = {
            id(action): (action, index) for index, action in enumerate(self.actions)
        }
        self._object_limit = len(self.actions) + 50_000

    def id(self, action: Action) -> int:
        """The number of an action."""
        hit = self._by_object.get(id(action))
        if hit is not None and hit[0] is action:
            return hit[1]
        try:
            index = self._ids[action]
        except KeyError:
            raise IllegalAction(f"{action.to_json()} is not an action of this game") from None
        if len(self._by_object) < self._object_limit:
            self._by_object[id(action)] = (action, index)
        return index

    def at(self, index: int) -> Action:
        """The action with this number."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.size:
            raise IllegalAction(f"there is no action number {index!r} (0..{self.size - 1})")
        return self.actions[index]
