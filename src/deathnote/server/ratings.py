"""Ratings per game, for named players without passwords.

A player key, kept by the browser (or passed by a bot client) and sent with the nickname,
identifies a player across the rooms of one server; the server keeps only its SHA-256.
When a rated room's game ends, the ratings of its seats are updated with OpenSkill's
Plackett-Luce model (Weng and Lin's Bayesian approximation, which rates teams): the seats
that won are one team ranked first, the others one team ranked second, so team games
(Werewolf, ICG) and games with one winner (Le Jeu d'Enquête) are rated alike. A seat with
no key plays with a fresh rating that is not stored; a declared bot seat is rated as the
player "bot: <level>", so people can measure themselves against the bots.

The leaderboard orders players by the conservative estimate mu - 3 sigma (the "ordinal").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from deathnote.engine.errors import IllegalAction
from deathnote.server.storage import Storage

KEY = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
MODEL = PlackettLuce()


def player_id(key: str) -> str:
    """The stored identity of a player key (its SHA-256; the key itself is never kept)."""
    if not KEY.match(key):
        raise IllegalAction(
            "a player key is 16 to 128 letters, digits, '-' or '_' (the page makes one)"
        )
    return hashlib.sha256(key.encode()).hexdigest()


def bot_player(agent: str) -> str:
    """The identity of a bot level on the leaderboard."""
    return "bot:" + agent


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown: mu - 3 sigma."""
    return mu - 3 * sigma


def rate(
    storage: Storage,
    game: str,
    players: Sequence[tuple[str, str] | None],
    winning_seats: Sequence[int],
) -> list[dict[str, Any]]:
    """Update and store the ratings of one finished game; returns the stored rows.

    ``players``: per seat, ``(player id, name shown)``, or None for a seat with no key.
    Nothing is rated when every seat won or every seat lost (no order to learn from).
    """
    winners = {s for s in winning_seats if 0 <= s < len(players)}
    losers = [s for s in range(len(players)) if s not in winners]
    if not winners or not losers:
        return []
    known = [p[0] for p in players if p is not None]
    if len(set(known)) != len(known):
        return []  # one player in two seats: not a game between players
    stored = storage.ratings(game, known)
    ratings = []
    for seat, player in enumerate(players):
        row = stored.get(player[0]) if player is not None else None
        if row is None:
            ratings.append(MODEL.rating(name=str(seat)))
        else:
            ratings.append(MODEL.create_rating([row["mu"], row["sigma"]], name=str(seat)))
    won = sorted(winners)
    teams = [[ratings[s] for s in won], [ratings[s] for s in losers]]
    new_teams = MODEL.rate(teams, ranks=[1, 2])
    updated = dict(zip([*won, *losers], [*new_teams[0], *new_teams[1]], strict=True))
    rows = []
    for seat, player in enumerate(players):
        if player is None:
            continue
        before = stored.get(player[0])
        rows.append(
            {
                "player": player[0],
                "name": player[1][:80],
                "mu": float(updated[seat].mu),
                "sigma": float(updated[seat].sigma),
                "games": (before["games"] if before else 0) + 1,
                "wins": (before["wins"] if before else 0) + (1 if seat in winners else 0),
            }
        )
    storage.save_ratings(game, rows)
    return rows


def leaderboard(storage: Storage, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The best players of a game, for the page: rank, name, rating, games, wins (no ids)."""
    out = []
    for rank, row in enumerate(storage.leaderboard(game, limit), start=1):
        out.append(
            {
                "rank": rank,
                "name": row["name"],
                "bot": row["player"].startswith("bot:"),
                "rating": round(ordinal(row["mu"], row["sigma"]), 1),
                "mu": round(row["mu"], 2),
                "sigma": round(row["sigma"], 2),
                "games": row["games"],
                "wins": row["wins"],
            }
        )
    return out
