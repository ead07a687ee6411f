"""Players' nicknames: chosen by whoever opens a seat link, shown as text only.

A game names its seats ("Player 3", or a public role such as "Kira"). Once a seat's person
chooses a nickname, every view the server sends names that seat by it: the seat list, log
entries, the prompt, choice labels and the outcome's reason. A game whose seats are
"Player N" has that phrase replaced by the nickname (one pass, so a nickname is never
replaced again); a game whose seats are public roles keeps the role in its texts (they speak
of the role) and shows "Nickname (Role)" in the seat list.

Nicknames are bounded in length, printable, unique in the room (without regard to case)
and never look like a seat's name, so no one can pass for another seat.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from deathnote.engine.errors import IllegalAction

GENERIC = re.compile(r"\bPlayer (\d{1,2})\b")
#: What a nickname may not contain: it would read as a seat's name.
SEAT_LIKE = re.compile(r"\b(player|seat)\s*\d", re.IGNORECASE)


def clean_nickname(text: str, max_chars: int) -> str:
    """The nickname as shown: spaces collapsed; raises IllegalAction with the reason."""
    text = " ".join(text.split())
    if not text:
        raise IllegalAction("a nickname needs at least one letter or digit")
    if len(text) > max_chars:
        raise IllegalAction(f"a nickname has at most {max_chars} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in text):
        raise IllegalAction("a nickname may hold only printable characters")
    if not any(c.isalnum() for c in text):
        raise IllegalAction("a nickname needs at least one letter or digit")
    if SEAT_LIKE.search(text):
        raise IllegalAction("a nickname may not look like a seat's name (Player 2, Seat 3)")
    return text


def check_unique(
    text: str, seat: int, seat_names: Sequence[str], nicks: Sequence[str | None]
) -> None:
    """Raise IllegalAction when the nickname is a seat's name or another seat's nickname."""
    folded = text.casefold()
    if any(folded == name.casefold() for name in seat_names):
        raise IllegalAction(f"{text!r} is the name of a seat; choose another nickname")
    for other, nick in enumerate(nicks):
        if other != seat and nick is not None and nick.casefold() == folded:
            raise IllegalAction(f"another player is called {text!r}; choose another nickname")


def is_generic(seat_names: Sequence[str]) -> bool:
    """Whether the game names its seats Player 1..N (then texts name the seats so)."""
    return all(name == f"Player {i + 1}" for i, name in enumerate(seat_names))


class Names:
    """How a room names its seats now: the game's names with the chosen nicknames."""

    def __init__(self, seat_names: Sequence[str], nicks: Sequence[str | None]) -> None:
        self.seat_names = list(seat_names)
        self.nicks = list(nicks)
        self.generic = is_generic(seat_names)
        self.any = any(n is not None for n in nicks)

    def display(self, seat: int) -> str:
        """A seat's name on screens: its nickname (with the public role where the game
        names seats by roles), else the game's name."""
        nick = self.nicks[seat] if 0 <= seat < len(self.nicks) else None
        name = self.seat_names[seat]
        if nick is None:
            return name
        return nick if self.generic else f"{nick} ({name})"

    def displays(self) -> list[str]:
        """Every seat's name on screens."""
        return [self.display(s) for s in range(len(self.seat_names))]

    def text(self, text: str) -> str:
        """A text with "Player N" replaced by seat N's nickname (generic seat names only)."""
        if not self.any or not self.generic or "Player " not in text:
            return text

        def replace(match: re.Match[str]) -> str:
            seat = int(match.group(1)) - 1
            if 0 <= seat < len(self.nicks) and self.nicks[seat] is not None:
                return str(self.nicks[seat])
            return match.group(0)

        return GENERIC.sub(replace, text)

    def view(self, view: dict[str, Any]) -> dict[str, Any]:
        """A view (``Match.view``) naming seats by nickname; the action fields a client
        sends back are never touched, only the texts people read."""
        if not self.any:
            return view
        out = dict(view)
        out["seats"] = self.displays()
        out["log"] = [
            {**entry, "text": self.text(entry["text"])} if "text" in entry else entry
            for entry in view.get("log") or []
        ]
        decision = view.get("decision")
        if decision and isinstance(decision.get("prompt"), str):
            out["decision"] = {**decision, "prompt": self.text(decision["prompt"])}
        if view.get("legal"):
            out["legal"] = [
                {**a, "label": self.text(a["label"])} if isinstance(a.get("label"), str) else a
                for a in view["legal"]
            ]
        outcome = view.get("outcome")
        if outcome and isinstance(outcome.get("reason"), str):
            out["outcome"] = {**outcome, "reason": self.text(outcome["reason"])}
        return out
