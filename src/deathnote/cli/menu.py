"""What a player types to pick an action: the number on the board where there is one.

A choice of a criminal, a player, a Suspect or a row is picked by typing that criminal's,
player's, Suspect's or row's own number or letter ("34" picks Criminal 34, "2" names
Player 2), never a menu position that looks like one. Other choices keep menu numbers
(1, 2, ...) or, beside board numbers, letters (a, b, ...). Typing the start of a label
works too. Everything here reads labels only: it knows no rules.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

BOARD_WORDS = r"criminal|player|suspect|placement|row|seat|scene"
_BOARD = re.compile(rf"\b(?:{BOARD_WORDS})\s+(\d+|[A-Z])\b", re.IGNORECASE)


def board_token(label: str) -> str | None:
    """The board number or letter a label names ("Criminal 34 (Shooter)" -> "34")."""
    found = _BOARD.search(label)
    return found.group(1).upper() if found else None


def menu_keys(labels: Sequence[str]) -> list[str]:
    """One key per label: board numbers where each names one, else menu numbers/letters."""
    tokens = [board_token(label) for label in labels]
    named = [t for t in tokens if t is not None]
    if not named or len(set(named)) != len(named):
        return [str(i) for i in range(1, len(labels) + 1)]
    numeric = all(t.isdigit() for t in named)
    spare = iter(string.ascii_lowercase if numeric else [str(i) for i in range(1, 100)])
    keys = []
    for token in tokens:
        if token is not None:
            keys.append(token)
            continue
        key = next(spare)
        while key.upper() in named:
            key = next(spare)
        keys.append(key)
    return keys


def pick(answer: str, labels: Sequence[str], keys: Sequence[str]) -> int | None:
    """The index chosen by what was typed: a key, a whole label, or a label's unique start."""
    text = answer.strip()
    if not text:
        return None
    for index, key in enumerate(keys):
        if text.upper() == key.upper():
            return index
    lowered = text.lower()
    exact = [i for i, label in enumerate(labels) if label.lower() == lowered]
    if len(exact) == 1:
        return exact[0]
    starts = [i for i, label in enumerate(labels) if label.lower().startswith(lowered)]
    if len(starts) == 1 and len(lowered) >= 3:
        return starts[0]
    return None


def describe(keys: Sequence[str]) -> str:
    """A short hint of what to type."""
    if all(k.isdigit() for k in keys) and keys == [str(i) for i in range(1, len(keys) + 1)]:
        return f"1-{len(keys)}" if len(keys) > 1 else "1"
    if len(keys) <= 6:
        return ", ".join(keys[:-1]) + f" or {keys[-1]}" if len(keys) > 1 else keys[0]
    return f"the number or letter in brackets ({', '.join(keys[:6])}, ...)"
