"""Actions, decisions, events and outcomes: the small values the Match API speaks in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from deathnote.engine.errors import IllegalAction

Seat = int
"""A seat number, 0..players-1."""

Viewer = int | str
"""A seat number, or one of SPECTATOR / OMNISCIENT."""

SPECTATOR = "spectator"
OMNISCIENT = "omniscient"

Scalar = str | int | bool | None
ArgValue = Scalar | tuple[Scalar, ...]


def _freeze(key: str, value: Any) -> ArgValue:
    if value is None or isinstance(value, str | int | bool):
        return value
    if isinstance(value, list | tuple):
        items = tuple(value)
        for item in items:
            if not (item is None or isinstance(item, str | int | bool)):
                raise IllegalAction(f"malformed action: field {key!r} holds {item!r}")
        return items
    raise IllegalAction(f"malformed action: field {key!r} holds {value!r}")


def _same_types(a: tuple[tuple[str, ArgValue], ...], b: tuple[tuple[str, ArgValue], ...]) -> bool:
    """Whether two equal argument tuples also hold values of the same types (True == 1 in
    Python, but a boolean is not a number here)."""
    for (_ka, va), (_kb, vb) in zip(a, b, strict=True):
        if type(va) is not type(vb):
            return False
        if type(va) is tuple:
            for x, y in zip(va, vb, strict=True):  # type: ignore[arg-type]
                if type(x) is not type(y):
                    return False
    return True


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean (true/false)"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if value is None:
        return "null"
    return "a list"


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """One choice a seat makes, e.g. ``Action.make("chase", side="A")``.

    Equality ignores the label, so an action parsed from JSON equals the legal one. It is
    type-strict: a boolean is not a number (in Python ``True == 1``), so
    ``{"criminal": true}`` is not the action ``criminal=1``.

    >>> Action.make("chase", "Go to scene A", side="A") == Action.from_json({"kind": "chase", "side": "A"})
    True
    >>> Action.make("news", criminal=1) == Action.make("news", criminal=True)
    False
    """

    kind: str
    args: tuple[tuple[str, ArgValue], ...] = ()
    label: str = field(default="", compare=False, hash=False)
    #: the hash, once computed (0: not yet): search bots look actions up in dicts at
    #: every step. Never pickled (string hashes differ between processes).
    _hash: int = field(default=0, init=False, repr=False, compare=False, hash=False)

    @classmethod
    def make(cls, kind: str, label: str = "", **args: Any) -> Action:
        """Build an action; argument values are scalars or lists of scalars."""
        frozen = tuple(sorted((k, _freeze(k, v)) for k, v in args.items()))
        return cls(kind, frozen, label or kind)

    def get(self, key: str, default: Any = None) -> Any:
        """The value of one argument."""
        for k, v in self.args:
            if k == key:
                return v
        return default

    def __getitem__(self, key: str) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        """The stable JSON form: ``{"kind": ..., **args}`` with tuples as lists."""
        out: dict[str, Any] = {"kind": self.kind}
        for k, v in self.args:
            out[k] = list(v) if isinstance(v, tuple) else v
        return out

    def labelled_json(self) -> dict[str, Any]:
        """``to_json()`` with the ``label`` last (a view's list of legal actions)."""
        out = self.to_json()
        out["label"] = self.label
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse the JSON form; raises IllegalAction when it is malformed."""
        if not isinstance(data, Mapping):
            raise IllegalAction("malformed action: expected an object with a 'kind' field")
        kind = data.get("kind")
        if not isinstance(kind, str) or not kind:
            raise IllegalAction("malformed action: 'kind' must be a non-empty string")
        args = {k: v for k, v in data.items() if k not in ("kind", "label")}
        for key in args:
            if not isinstance(key, str):
                raise IllegalAction("malformed action: field names must be strings")
        return cls.make(kind, **args)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Action:
            return NotImplemented
        o: Action = other
        if self.kind != o.kind or self.args != o.args:
            return False
        return self.args is o.args or _same_types(self.args, o.args)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        # hash(True) == hash(1): equal hashes for unequal actions are allowed.
        h = self._hash
        if not h:
            h = hash((self.kind, self.args))
            _set_hash(self, h)
        return h

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy or an unpickled action computes its hash again (not the cached one: the
        # hash of a text differs between processes).
        return (Action, (self.kind, self.args, self.label))

    def loosely_equals(self, other: Action) -> bool:
        """Equal when booleans and numbers are not told apart (to explain a rejection)."""
        return self.kind == other.kind and self.args == other.args

    def __str__(self) -> str:
        return self.label or self.kind


_set_hash = Action.__dict__["_hash"].__set__


def type_mismatch(action: Action, legal: Iterable[Action]) -> str | None:
    """Why ``action`` is not legal if it differs from a legal action only in a value's type
    (a boolean where a number is expected, or the reverse); None otherwise."""
    for candidate in legal:
        if not action.loosely_equals(candidate):
            continue
        for (key, got), (_k, want) in zip(action.args, candidate.args, strict=True):
            pairs = zip(got, want, strict=True) if type(got) is tuple else [(got, want)]  # type: ignore[arg-type]
            for g, w in pairs:
                if type(g) is not type(w):
                    return f"field {key!r} must be {_type_name(w)}, not {g!r}"
    return None


_ATOM_TYPES = frozenset({str, int, float, bool, type(None)})


def json_copy(value: Any) -> Any:
    """A fresh copy of a JSON value (dicts and lists copied all the way down), so a view
    never hands out an object the match keeps."""
    kind = type(value)
    if kind in _ATOM_TYPES:
        return value
    atoms = _ATOM_TYPES
    if kind is dict:
        return {k: v if type(v) in atoms else json_copy(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in atoms else json_copy(v) for v in value]
    if isinstance(value, Mapping):
        return {k: json_copy(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Decision:
    """What a pending seat is asked: a stable ``kind`` ("chase", "pick_news", ...), the
    prompt for people, and structured ``data`` (card id, step, what is being chosen) that
    bots and screens dispatch on instead of the prompt's words.

    ``covert`` decisions are not shown to other seats as "waiting for X" (e.g. Kira's
    secret Death Note choice while everyone's eyes are closed).
    """

    kind: str
    prompt: str
    covert: bool = False
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"kind": self.kind, "prompt": self.prompt, "data": json_copy(self.data)}


_NO_DATA: Any = object()


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One log entry. ``audience`` None means every viewer; otherwise only those seats
    (and the omniscient viewer) may see it."""

    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: frozenset[Seat] | None = None

    def __init__(
        self,
        text: str,
        data: Mapping[str, Any] = _NO_DATA,
        audience: frozenset[Seat] | None = None,
    ) -> None:
        # The dataclass's own __init__ with the slots written directly (the frozen one
        # goes through object.__setattr__ per field): games make an event per step.
        _set_text(self, text)
        _set_data(self, {} if data is _NO_DATA else data)
        _set_audience(self, audience)

    @classmethod
    def public(cls, text: str, **data: Any) -> Event:
        """An event everyone sees."""
        return cls(text, data, None)

    @classmethod
    def private(cls, seats: Iterable[Seat], text: str, **data: Any) -> Event:
        """An event only the given seats see."""
        return cls(text, data, frozenset(seats))

    def visible_to(self, viewer: Viewer) -> bool:
        """Whether this viewer may see the event."""
        if self.audience is None or viewer == OMNISCIENT:
            return True
        return isinstance(viewer, int) and viewer in self.audience

    def to_json(self) -> dict[str, Any]:
        """JSON form (without the audience): a fresh copy, all the way down."""
        return {"text": self.text, "data": json_copy(self.data) if self.data else {}}


class _Dropped(list[Event]):
    """An event list that keeps nothing (``QUIET``)."""

    def append(self, event: Event) -> None:
        """Dropped."""


#: The events list of a quiet application (a game's ``apply_quiet``): it keeps nothing,
#: and a game need not even make the events that would go to it (``ev is QUIET``).
QUIET: list[Event] = _Dropped()


_set_text = Event.__dict__["text"].__set__
_set_data = Event.__dict__["data"].__set__
_set_audience = Event.__dict__["audience"].__set__


@dataclass(frozen=True, slots=True, init=False)
class Outcome:
    """How a finished game ended.

    ``winners``: the side/team names that won (e.g. ("kira",)), empty for none.
    ``condition``: a short id of the end condition (e.g. "points", "accusation").
    ``scores``: optional per-role or per-seat numbers (e.g. Apples per Role).
    ``winning_seats``: the seats that won (for per-seat rewards in RL and summaries).
    """

    winners: tuple[str, ...]
    condition: str
    reason: str
    scores: Mapping[str, float] = field(default_factory=dict)
    winning_seats: tuple[Seat, ...] = ()

    def __init__(
        self,
        winners: tuple[str, ...],
        condition: str,
        reason: str,
        scores: Mapping[str, float] = _NO_DATA,
        winning_seats: tuple[Seat, ...] = (),
    ) -> None:
        # The dataclass's own __init__ with the slots written directly (as ``Event``):
        # a simulated game makes one at its end.
        _set_winners(self, winners)
        _set_condition(self, condition)
        _set_reason(self, reason)
        _set_scores(self, {} if scores is _NO_DATA else scores)
        _set_winning_seats(self, winning_seats)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "winners": list(self.winners),
            "condition": self.condition,
            "reason": self.reason,
            "scores": dict(self.scores),
            "winning_seats": list(self.winning_seats),
        }


_set_winners = Outcome.__dict__["winners"].__set__
_set_condition = Outcome.__dict__["condition"].__set__
_set_reason = Outcome.__dict__["reason"].__set__
_set_scores = Outcome.__dict__["scores"].__set__
_set_winning_seats = Outcome.__dict__["winning_seats"].__set__
