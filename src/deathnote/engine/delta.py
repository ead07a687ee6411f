"""State patches: what changed between two JSON values, and how a client applies it.

A view's ``state`` changes little from one step to the next, so the server sends a patch
instead of the whole state after the first view of a connection (``Match.view(viewer,
since=k, patch=True)``). A patch is a list of operations, applied in order; a path is a
list of object keys (text) and list positions (numbers) from the root:

- ``["set", path, value]``: put ``value`` at ``path`` (an object key is added or replaced;
  a list position is replaced, or appended when it is the list's length). The empty path
  replaces the whole value.
- ``["del", path]``: remove the object key at ``path``.
- ``["cut", path, length]``: shorten the list at ``path`` to ``length`` items.

``diff(old, new)`` makes the patch, ``patch(old, ops)`` applies it to a copy; the browser
applies the same operations (``applyPatch`` in ``web/static/play.js``).

>>> old = {"hand": [1, 2, 3], "score": 4, "gone": True}
>>> new = {"hand": [1, 5], "score": 4, "deck": 7}
>>> ops = diff(old, new)
>>> ops
[['del', ['gone']], ['set', ['hand', 1], 5], ['cut', ['hand'], 2], ['set', ['deck'], 7]]
>>> patch(old, ops) == new and old["hand"] == [1, 2, 3]
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deathnote.engine.actions import _ATOM_TYPES, json_copy

Op = list[Any]
Path = list[str | int]


def diff(old: Any, new: Any, fresh: bool = True) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (both JSON values; neither is kept).

    ``fresh``: the operations' values are fresh copies of ``new``'s parts. False: they are
    ``new``'s own parts, for a caller that encodes the operations at once and never
    changes them (the server's messages: no copy is made only to be encoded)."""
    ops: list[Op] = []
    if old != new:
        _diff(old, new, [], ops, json_copy if fresh else _same)
    return ops


def _same(value: Any) -> Any:
    return value


_MISSING = object()


def _diff(old: Any, new: Any, path: Path, ops: list[Op], take: Callable[[Any], Any]) -> None:
    # Called only where old != new (a C-level comparison that stops at the first
    # difference), so unchanged parts of the state are never walked in Python. Parts a
    # shared view reuses are skipped by identity before any comparison, and a changed
    # atom (text, number, bool, None) is set here without a call of its own: most
    # changes of a view are atoms (phase, counters, dice), and this is the server's
    # per-action hot path.
    kind = type(new)
    if kind is not type(old) or (kind is not dict and kind is not list):
        ops.append(["set", path, take(new)])
        return
    atoms = _ATOM_TYPES
    if kind is dict:
        if len(old) > len(new) or old.keys() != new.keys():
            for key in old:
                if key not in new:
                    ops.append(["del", [*path, key]])
        for key, value in new.items():
            was = old.get(key, _MISSING)
            if was is value:
                continue
            if was is _MISSING:
                ops.append(["set", [*path, key], take(value)])
            elif was != value:
                if type(value) in atoms:
                    ops.append(["set", [*path, key], value])
                else:
                    _diff(was, value, [*path, key], ops, take)
        return
    # Lists: item by item where both have one, then the new tail or a cut. When most
    # items differ (a card taken from the middle of a hand), the whole list is cheaper.
    before = len(ops)
    common = min(len(old), len(new))
    changed = 0
    index = -1
    for was, value in zip(old, new, strict=False):
        index += 1
        if was is value or was == value:
            continue
        changed += 1
        if changed * 2 > common + 1:
            del ops[before:]
            ops.append(["set", path, take(new)])
            return
        if type(value) in atoms:
            ops.append(["set", [*path, index], value])
        else:
            _diff(was, value, [*path, index], ops, take)
    for index in range(common, len(new)):
        ops.append(["set", [*path, index], take(new[index])])
    if len(old) > len(new):
        ops.append(["cut", path, len(new)])


def patch(old: Any, ops: list[Op]) -> Any:
    """``old`` with the operations applied, as a new value (``old`` is not changed)."""
    value = json_copy(old)
    for op in ops:
        value = apply_op(value, op)
    return value


def apply_op(value: Any, op: Op, copy: bool = True) -> Any:
    """Apply one operation to ``value`` in place; returns the (possibly new) root.

    ``copy``: the value an operation sets is a fresh copy of the operation's. False: it is
    the operation's own, for a caller whose operations were just parsed for this one
    state and are never used again (a client's decoded message)."""
    kind, path = op[0], op[1]
    if kind == "set" and not path:
        return json_copy(op[2]) if copy else op[2]
    target = value
    for step in path[:-1]:
        target = target[step]
    last = path[-1] if path else None
    if kind == "set":
        item = json_copy(op[2]) if copy else op[2]
        if type(target) is list and last == len(target):
            target.append(item)
        else:
            target[last] = item
    elif kind == "del":
        del target[last]
    elif kind == "cut":
        where = target[last] if path else target
        del where[op[2] :]
    else:
        raise ValueError(f"unknown patch operation {kind!r}")
    return value
