"""Every registered game passes the public conformance suite (``deathnote.engine.conformance``).

Each check runs for each set-up of each game (``conformance.setups``): its fewest and most
players, and its main options (the yes/no and one-of-a-list options of its options model,
plus ``conformance.MAIN_OPTIONS``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deathnote.engine import conformance, games
from deathnote.engine.conformance import MissingHook, Setup

GAME_IDS = sorted(games())

#: Optional hooks a game does not implement yet (the check is skipped, naming the hook,
#: only while the hook raises NotImplementedError). Remove an entry when the hook lands.
MISSING_HOOKS: dict[str, set[str]] = {}

#: Known game bugs the suite finds, by (game, check), each naming the defect: strict
#: expected failures (a check that passes again fails the run until its entry is removed).
#: Empty: the last two (tcg's shared abilities list in views, enquete's Investigation tiles
#: in views) are fixed.
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def _setups() -> list[Setup]:
    return [s for g in GAME_IDS for s in conformance.setups(g)]


SETUPS = _setups()


def _run(game: str, name: str, call: Callable[[], None]) -> None:
    reason = KNOWN_FAILURES.get((game, name))
    if reason:
        try:
            call()
        except (AssertionError, MissingHook):
            pytest.xfail(f"{game} {name}: {reason}")
        pytest.fail(f"{game} {name} passes now: remove its KNOWN_FAILURES entry ({reason})")
    try:
        call()
    except MissingHook as exc:
        if exc.hook in MISSING_HOOKS.get(exc.game, set()):
            pytest.skip(str(exc))
        raise


@pytest.mark.parametrize("setup", SETUPS, ids=[s.label for s in SETUPS])
@pytest.mark.parametrize("check", sorted(conformance.SETUP_CHECKS))
def test_conformance(check: str, setup: Setup) -> None:
    _run(setup.game, check, lambda: conformance.SETUP_CHECKS[check](setup))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_games_under_two_hash_seeds(game_id: str) -> None:
    """The same seeds give the same games in every process: no bot or rule may let the
    iteration order of a set of strings (which differs between runs) choose anything."""
    _run(game_id, "hash_seeds", lambda: conformance.check_hash_seeds(game_id))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_game_declares_its_facts(game_id: str) -> None:
    game = games()[game_id]
    assert game.id == game_id and game.name
    assert 1 <= game.min_players <= game.max_players
    assert game.wins_mode in ("count", "mean")
    assert isinstance(game.rules_version, str) and game.rules_version
