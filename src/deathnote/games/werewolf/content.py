"""Loading and validating Werewolf content: Roles, Investigation cards and the set-ups.

The default content is ``content/werewolf.json``. A replacement is one JSON file of the same
shape; card effects and Role abilities are code, keyed by the ids below, so a file may change
names, texts, numbers, counts and which Roles play at each table size, not the ids.
"""

from __future__ import annotations

from typing import Any

from deathnote.engine.content import load_checked, package_json
from deathnote.engine.content import need as _need

ROLE_IDS = ("kira", "worshipper", "l", "police", "watari")
CARD_IDS = (
    "death_note",
    "arrest",
    "handgun",
    "alias",
    "alibi",
    "witness",
    "surveillance",
    "vote",
    "exchange",
    "interrogation",
    "shinigami",
)
TEAMS = ("kira", "l")


def default_content() -> dict[str, Any]:
    """The content shipped with the package."""
    data: dict[str, Any] = package_json("deathnote.games.werewolf", "werewolf.json")
    return data


def load(path: str | None) -> dict[str, Any]:
    """Default content, or the file at ``path``; validated either way."""
    return load_checked(path, default_content, validate, "werewolf")


def validate(data: Any, where: str) -> None:
    """Raise ContentError naming the file and field if ``data`` is not valid content."""
    _need(isinstance(data, dict), where, "(top)", "must be an object")
    roles = data.get("roles")
    _need(isinstance(roles, list), where, "roles", "must be a list")
    seen = set()
    for i, r in enumerate(roles):
        f = f"roles[{i}]"
        _need(isinstance(r, dict), where, f, "must be an object")
        _need(r.get("id") in ROLE_IDS, where, f"{f}.id", f"must be one of {list(ROLE_IDS)}")
        _need(r["id"] not in seen, where, f"{f}.id", "is a duplicate")
        seen.add(r["id"])
        _need(r.get("team") in TEAMS, where, f"{f}.team", f"must be one of {list(TEAMS)}")
        _need(isinstance(r.get("name"), str), where, f"{f}.name", "must be a string")
        _need(isinstance(r.get("text"), str), where, f"{f}.text", "must be a string")
        changes = r.get("changes")
        _need(
            isinstance(changes, list) and all(c in CARD_IDS for c in changes),
            where,
            f"{f}.changes",
            "must list card ids",
        )
    _need(seen == set(ROLE_IDS), where, "roles", f"must hold exactly {list(ROLE_IDS)}")
    cards = data.get("cards")
    _need(isinstance(cards, list), where, "cards", "must be a list")
    seen = set()
    for i, c in enumerate(cards):
        f = f"cards[{i}]"
        _need(isinstance(c, dict), where, f, "must be an object")
        _need(c.get("id") in CARD_IDS, where, f"{f}.id", f"must be one of {list(CARD_IDS)}")
        _need(c["id"] not in seen, where, f"{f}.id", "is a duplicate")
        seen.add(c["id"])
        n = c.get("number")
        _need(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0,
            where,
            f"{f}.number",
            "must be a non-negative integer",
        )
        _need(isinstance(c.get("name"), str), where, f"{f}.name", "must be a string")
        _need(isinstance(c.get("text"), str), where, f"{f}.text", "must be a string")
    _need(seen == set(CARD_IDS), where, "cards", f"must hold exactly {list(CARD_IDS)}")
    setups = data.get("setups")
    _need(isinstance(setups, dict), where, "setups", "must be an object")
    for n in range(4, 8):
        f = f"setups.{n}"
        s = setups.get(str(n))
        _need(isinstance(s, dict), where, f, "must be an object")
        rl = s.get("roles")
        _need(
            isinstance(rl, list) and len(rl) == n and all(x in ROLE_IDS for x in rl),
            where,
            f"{f}.roles",
            f"must list {n} Role ids",
        )
        _need(rl.count("kira") == 1 and "l" in rl, where, f"{f}.roles", "needs one Kira and an L")
        counts = s.get("cards")
        _need(isinstance(counts, dict), where, f"{f}.cards", "must be an object")
        for cid, k in counts.items():
            _need(cid in CARD_IDS, where, f"{f}.cards.{cid}", "is not a card id")
            _need(
                isinstance(k, int) and not isinstance(k, bool) and k >= 0,
                where,
                f"{f}.cards.{cid}",
                "must be a non-negative integer",
            )
        _need(counts.get("death_note") == 1, where, f"{f}.cards.death_note", "must be 1")
        _need(counts.get("arrest", 0) >= 1, where, f"{f}.cards.arrest", "must be at least 1")
        # Enough that the deck and discard pile never run dry together (a turn's draw):
        # two cards per hand, the drawn card, plus every Arrest that may leave the game.
        _need(
            sum(counts.values()) >= 2 * n + 2 + counts.get("arrest", 0),
            where,
            f"{f}.cards",
            f"must hold at least {2 * n + 2 + counts.get('arrest', 0)} cards",
        )
        t = s.get("turns_before_first_judgment")
        _need(t in (1, 2, 3), where, f"{f}.turns_before_first_judgment", "must be 1, 2 or 3")
