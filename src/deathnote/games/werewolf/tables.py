"""Look-ups built once from the content and the player count, shared by every copy of a state.

Card and Role facts by id, the sort order of cards, and every action a seat may be offered
(built once, with its label, so that listing the legal actions makes no new objects). Nothing
here changes during a game; a copy of a state shares its ``Tables``.
"""

from __future__ import annotations

from typing import Any

from deathnote.engine.actions import Action, Decision

from .content import CARD_IDS

#: Cards that need a target player when played.
TARGETED = ("arrest", "handgun", "witness", "surveillance", "exchange")
#: Cards that can never be discarded to pass (DEATH NOTE also can never be played).
UNDISCARDABLE = ("death_note", "arrest")
#: Cards whose play is restricted to Roles (the others are played by anyone).
PLAYED_ONLY_BY = {"arrest": ("l",), "handgun": ("police",)}
#: Cards that are held, never played: their effect works from the hand.
NEVER_PLAYED = ("death_note", "alias", "alibi")
#: The Worshipper's "no one" when pointing Kira at a name.
NO_SUGGESTION = -1

#: The cards that can be played, and those that can be discarded, in the stable order.
PLAYABLE = tuple(c for c in CARD_IDS if c not in NEVER_PLAYED)
DISCARDABLE = tuple(c for c in CARD_IDS if c not in UNDISCARDABLE)


#: The most entries a memo of ``Tables`` keeps before it starts again.
MEMO_LIMIT = 20_000


#: The public names of the seats, made once (every step's log names players).
_NAMES = tuple(f"Player {seat + 1}" for seat in range(32))


def pname(seat: int) -> str:
    """The public name of a seat."""
    return _NAMES[seat] if 0 <= seat < 32 else f"Player {seat + 1}"


class Tables:
    """Content facts and prebuilt actions for one content and player count (never changed,
    but for the memo of decisions)."""

    __slots__ = (
        "cards",
        "changes",
        "decisions",
        "direction",
        "discard",
        "give",
        "give_took",
        "key",
        "lowest",
        "name",
        "number",
        "play",
        "players",
        "role_name",
        "roles",
        "setup",
        "suggest",
        "target",
        "team",
        "turns",
        "vote",
        "wait",
        "write",
        "write_self",
    )

    def __init__(self, content: dict[str, Any], players: int) -> None:
        self.players = players
        self.cards: dict[str, dict[str, Any]] = {c["id"]: c for c in content["cards"]}
        self.roles: dict[str, dict[str, Any]] = {r["id"]: r for r in content["roles"]}
        self.setup: dict[str, Any] = content["setups"][str(players)]
        self.number: dict[str, int] = {c: int(x["number"]) for c, x in self.cards.items()}
        self.name: dict[str, str] = {c: str(x["name"]) for c, x in self.cards.items()}
        #: sort key of a card: printed number, then id (cards in printed-number order)
        self.key: dict[str, tuple[int, str]] = {c: (n, c) for c, n in self.number.items()}
        self.team: dict[str, str] = {r: str(x["team"]) for r, x in self.roles.items()}
        self.role_name: dict[str, str] = {r: str(x["name"]) for r, x in self.roles.items()}
        self.changes: dict[str, frozenset[str]] = {
            r: frozenset(x["changes"]) for r, x in self.roles.items()
        }
        name = self.name
        self.play = {c: Action.make("play", f"Play {name[c]}", card=c) for c in PLAYABLE}
        self.discard = {
            c: Action.make("discard", f"Pass: discard {name[c]}", card=c) for c in DISCARDABLE
        }
        self.give = {c: Action.make("give", f"Give {name[c]}", card=c) for c in CARD_IDS}
        self.give_took = {
            c: Action.make("give", f"Give {name[c]} (the card you took)", card=c) for c in CARD_IDS
        }
        seats = range(players)
        self.target = [Action.make("target", f"Name {pname(t)}", seat=t) for t in seats]
        self.vote = [Action.make("vote", f"Point at {pname(t)}", seat=t) for t in seats]
        self.suggest = {
            NO_SUGGESTION: Action.make("suggest", "Point Kira at no one", seat=NO_SUGGESTION),
            **{t: Action.make("suggest", f"Point Kira at {pname(t)}", seat=t) for t in seats},
        }
        self.write = [Action.make("write", f"Write {pname(t)}", seat=t) for t in seats]
        self.write_self = [
            Action.make("write", f"Write {pname(t)} (yourself)", seat=t) for t in seats
        ]
        self.wait = (Action.make("wait", "Keep your eyes closed and tap the table"),)
        self.direction = (
            Action.make("direction", "Pass to the left", dir="left"),
            Action.make("direction", "Pass to the right", dir="right"),
        )
        #: Decisions by step and arguments, made on first use (a memo, never changed after).
        self.decisions: dict[tuple[Any, ...], Decision] = {}
        #: Memos by Role and hand (as held, in its order), filled on first use and cleared
        #: past MEMO_LIMIT entries: a turn's actions, and the cards a seat may give as its
        #: lowest (play-outs list them at every step).
        self.turns: dict[tuple[str, tuple[str, ...]], tuple[Action, ...]] = {}
        self.lowest: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}

    @classmethod
    def of(cls, content: dict[str, Any], players: int) -> Tables:
        """The tables of a content and player count, built once and shared by every match
        that plays them (the content is never changed once loaded; kept alive here, so
        its id names it)."""
        hit = _SHARED.get((id(content), players))
        if hit is not None and hit[0] is content:
            return hit[1]
        if len(_SHARED) >= 64:
            _SHARED.clear()
        tables = cls(content, players)
        _SHARED[(id(content), players)] = (content, tables)
        return tables

    def __deepcopy__(self, memo: dict[int, Any]) -> Tables:
        return self

    def __copy__(self) -> Tables:
        return self

    def all_actions(self) -> list[Action]:
        """Every action of the game for this player count, in the stable numbering order."""
        return [
            *self.play.values(),
            *self.discard.values(),
            *self.target,
            *self.direction,
            *self.give.values(),
            *self.vote,
            *self.suggest.values(),
            *self.write,
            *self.wait,
        ]


#: ``Tables.of``: per content (by id, kept alive) and player count, its tables
_SHARED: dict[tuple[int, int], tuple[dict[str, Any], Tables]] = {}
