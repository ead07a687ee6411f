"""The contract every game module fulfils; the Match supplies everything shared."""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from deathnote.engine.actions import (
    Action,
    Decision,
    Event,
    Outcome,
    Seat,
    Viewer,
    type_mismatch,
)
from deathnote.engine.errors import IllegalAction
from deathnote.engine.rng import weighted_pick

#: A play-out policy (``Game.playout_policy``): (state, seat, legal, rng) -> one of legal.
PlayoutPolicy = Callable[[Any, Seat, Sequence[Action], random.Random], Action]
#: A search's belief-weighted worlds (``Game.sample_weighted_state``): how many states are
#: drawn for each one kept, and the log-weight that picks it (``Game.search_belief``'s).
Belief = tuple[int, Callable[[Any], float]]

if TYPE_CHECKING:
    import numpy as np
    from pydantic import BaseModel

    from deathnote.agents.base import Agent, Observation
    from deathnote.engine.spaces import ActionSpace


def not_legal(action: Action, why: str | None = None) -> IllegalAction:
    """The error for an action that is well-formed but not among the legal ones; ``why``
    (e.g. from ``actions.type_mismatch``) says what was expected."""
    text = f"{action.label or action.kind!r} is not a legal move now"
    return IllegalAction(f"{text}: {why}" if why else text)


class Game(ABC):
    """Rules of one game. Stateless: every method takes the game state it works on.

    A game module exposes one instance as ``GAME`` in ``deathnote.games.<id>``. The
    ``Match`` does everything shared (checking actions, the record, the log and who may
    see each entry, forks, sampled worlds, masks); a game supplies the rules through the
    methods below. ``tests/engine/toy.py`` is a complete small example (its docstring is a
    doctest run by the suite), and ``python -m deathnote.engine.conformance GAME`` checks a
    game against everything this contract says.

    What a game promises:

    - **Data is JSON.** Options are a JSON object validated by ``options_model``
      (``parse_options``); content (maps, decks, roles) is JSON-ready data, shared by every
      state and every fork and never changed once loaded. A record (game, rules version,
      options, content digest, seed, actions) replays to the identical match.
    - **The state** is a plain data object owned by one match. Only ``apply`` (and
      ``setup``/``new_state``, which make it) change it; every other method reads it.
      ``pending``, ``legal``, ``view`` and ``outcome`` are functions of the state alone.
      ``fork_state`` copies it independently (content shared); ``sample_state`` redraws
      what a viewer cannot see. All randomness comes from the ``rng`` argument, drawn
      through ``deathnote.engine.rng`` (``below``, ``choice``, ``shuffle``, ...) so that
      ``RNG_VERSION`` in every record names the draws; nothing may depend on the iteration
      order of a set of strings (it changes with ``PYTHONHASHSEED``).
    - **Decisions.** ``pending`` names every seat that must decide now (several at once for
      simultaneous secret choices) with a ``Decision`` whose ``kind`` and ``data`` a bot or
      screen dispatches on. A decision that would tell other seats a secret is ``covert``,
      and then nothing another viewer sees (phase, prompts, log, order of steps) may
      differ from the same match where that seat has nothing to decide: ask every
      eligible seat alike instead of only the one holding the card.
    - **Actions.** ``legal`` lists a pending seat's actions (every one with a label for
      people). ``apply`` never raises on a legal action; ``check`` raises
      ``IllegalAction`` on anything else and changes nothing (action equality is
      type-strict: a boolean is not a number). ``action_space`` numbers every action.
    - **Views** are built by listing what the viewer may see: JSON-ready (objects with text
      keys, lists, text, numbers, booleans, null; no tuples) and fresh objects every call,
      sharing no list or dict with the state or the content, so a front end may change a
      view it got without touching the match.
    - **The end.** ``outcome`` is None until the game is over, then the winners and the
      winning seats; random play always reaches it.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[str] = "1"
    #: Our own short summary of the rules, one line per point, for a screen's rules panel
    #: (player-facing words kept with the game, never in a front end).
    rules_summary: ClassVar[tuple[str, ...]] = ()
    #: "count": simulate counts Outcome.winners; "mean": it averages Outcome.scores.
    wins_mode: ClassVar[str] = "count"

    #: The game's options as a pydantic model (frozen, unknown fields refused, every field
    #: described). Its JSON Schema drives the lobby form and the CLI help. None: no options.
    options_model: ClassVar[type[BaseModel] | None] = None

    # -- set-up ---------------------------------------------------------------------
    def parse_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate options and fill defaults; raise OptionsError naming a bad option.

        The default validates ``options`` with ``options_model`` (JSON types, strictly: a
        boolean is not a number) and then calls ``check_options`` for rules that depend on
        the player count. Front ends that read text (``-o key=value``) coerce it first with
        ``deathnote.engine.options.coerce``.
        """
        from deathnote.engine.options import validate

        return self.check_options(players, validate(self, options))

    def check_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Checks of validated options that depend on the player count; raise OptionsError."""
        return options

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """Load and validate the content (maps, decks, roles). ``path`` None: the default.

        Raise ContentError naming the file and field on a broken file.
        """
        return None

    def seat_names(self, players: int, options: Mapping[str, Any]) -> list[str]:
        """Public names of the seats, in seat order."""
        return [f"Player {i + 1}" for i in range(players)]

    @abstractmethod
    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> Any:
        """A fresh game state; all randomness from ``rng``; ``content`` is shared, not
        copied into the state.

        It is the state ``setup`` makes, with the same draws, without the set-up events:
        the research adapters start every episode with it (and play it with
        ``apply_quiet``). Like ``apply_quiet`` it may leave out what only the log and
        later samples of the state read; the conformance suite checks the rest."""

    def setup(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> tuple[Any, list[Event]]:
        """A fresh state and the set-up events (e.g. "Your Role is ..."), logged before the
        first action. The default is ``new_state`` with no events; games with set-up events
        override this instead of parking them in the state."""
        return self.new_state(players, options, content, rng), []

    # -- play -------------------------------------------------------------------------
    @abstractmethod
    def pending(self, state: Any) -> dict[Seat, Decision]:
        """The seats that must decide now, each with its decision (empty when over)."""

    def mover(self, state: Any) -> Seat | None:
        """The lowest pending seat (``min(pending(state))``), None when none is asked.

        Play-outs (the search bots' random games) ask only who moves next; a game whose
        decisions are costly to build (prompts, data) overrides this with a direct read
        of the state. It must always equal ``min(pending(state))`` (the conformance suite
        checks it at every step of its random games)."""
        pending = self.pending(state)
        return min(pending) if pending else None

    def moves(self, state: Any) -> tuple[Seat | None, Sequence[Action]]:
        """Who moves and how: ``(mover(state), legal(state, that seat))``, and
        ``(None, ())`` when no seat is asked.

        Random play (the simulator's games) asks this once per action; a game overrides it
        where one read of the state answers both. It must always equal the two calls,
        the actions in the same order (the conformance suite checks it at every step)."""
        seat = self.mover(state)
        return (None, ()) if seat is None else (seat, self.legal(state, seat))

    @abstractmethod
    def legal(self, state: Any, seat: Seat) -> Sequence[Action]:
        """The legal actions of a seat now (empty when it is not asked)."""

    @abstractmethod
    def apply(self, state: Any, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
        """Carry out a legal action (already checked) and return the new events, each with
        its audience. It never raises on a legal action (a bug that does is caught by the
        Match, which restores the state from the record and re-raises)."""

    def apply_quiet(self, state: Any, seat: Seat, action: Action, rng: random.Random) -> None:
        """``apply`` for a play-out that reads no log (the search bots' simulations): the
        same change of the state and the same draws from ``rng``, without the events.

        Afterwards ``pending``, ``mover``, ``legal``, ``outcome``, ``observation_tensor`` and
        ``view`` (but its log) answer as after ``apply``; a game may leave out what only its
        log and later samples of the same state read (Werewolf's event history). The default
        is ``apply``, its events dropped; games whose events cost much override it."""
        self.apply(state, seat, action, rng)

    def check(self, state: Any, seat: Seat, action: Action) -> None:
        """Raise IllegalAction with a clear reason if the action is not legal.

        The default tests membership in ``legal``; games with huge action spaces override.
        """
        legal = self.legal(state, seat)
        if action not in legal:
            raise not_legal(action, type_mismatch(action, legal))

    @abstractmethod
    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """What the viewer may see of the state: JSON-ready, built by listing (not by
        deleting secrets), made of fresh lists and dicts on every call (nothing shared
        with the state or the content)."""

    def shared_view(self, state: Any, viewer: Viewer, public: Any = None) -> dict[str, Any] | None:
        """Optional: ``view``'s view (equal to it, the same JSON) that may share lists and
        dicts with earlier shared views (never with the state), for the match to keep
        and diff as the base of state patches; nobody hands it out or changes it. A game
        whose views grow with play (piles of cards) gives one built from parts made once,
        so that building it and diffing it against an earlier one stay cheap. None (the
        default): the match keeps the JSON of ``view``'s view instead.

        ``public``: where the game has a ``public_view``, the match's one of this state
        (built once per step for every viewer): the shared view may be made from it."""
        return None

    def public_view(self, state: Any) -> Any:
        """Optional: the part of the shared views that every seat and the spectator see
        alike (a game's public table), which the match builds once per step and hands to
        ``shared_view`` for each of those viewers (never to the omniscient one), instead
        of each viewer's shared view building it again. None (the default): none."""
        return None

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The outcome once the game is over, else None."""

    # -- copies and hidden worlds ----------------------------------------------------
    def fork_state(self, state: Any) -> Any:
        """An independent copy of ``state``; content (maps, decks, pools) is shared, never
        copied. Target: well under 1 ms mid-game. The default deep-copies (slow where the
        state holds its content: override, or make the content's ``__deepcopy__`` return
        itself)."""
        return copy.deepcopy(state)

    def sample_state(self, state: Any, viewer: Viewer, rng: random.Random) -> Any:
        """A copy of ``state`` in which everything ``viewer`` cannot see is drawn anew from
        ``rng`` among the worlds that agree with all that viewer has seen so far.

        It must never contradict the viewer: ``view``, the pending seats that viewer is
        shown, and ``legal(viewer)`` are the same in the sample as in ``state``. Exact where
        the game allows; otherwise a documented approximation (the game's rules doc says
        which). ``state`` is not changed.
        """
        raise NotImplementedError(f"{self.id} cannot sample hidden worlds yet")

    def sample_weighted_state(
        self,
        state: Any,
        viewer: Viewer,
        rng: random.Random,
        count: int,
        weigh: Callable[[Any], float],
    ) -> Any:
        """One of ``count`` states drawn as ``sample_state`` draws them, picked with odds
        proportional to ``exp(weigh(state))`` (a search's belief-weighted worlds: ``ismcts``
        ``belief``, with ``search_belief``'s weight). A game may draw it with less work
        where it can prove the picked state's odds the same (the ICG: ICG-BOT-05)."""
        states = [self.sample_state(state, viewer, rng) for _ in range(count)]
        return weighted_pick(rng, states, [weigh(s) for s in states])

    def hidden_values(self, state: Any, viewer: Viewer) -> Mapping[str, Collection[Any]] | None:
        """An optional probe for the conformance suite's coverage check: for each hidden
        quantity (e.g. ``"kira"``), the values ``viewer`` cannot rule out; for the
        omniscient viewer, the true value alone. Over many ``sample_state`` draws every
        such value must appear, and no other. None (the default): no probe; the suite then
        only checks that the worlds sampled for a blind viewer vary."""
        return None

    # -- numbers for learning ----------------------------------------------------------
    def action_space(self, players: int, options: Mapping[str, Any]) -> ActionSpace:
        """The stable numbering of every action of the game for these players and options
        (the same in every state); the game's rules doc has the table."""
        raise NotImplementedError(f"{self.id} has no action numbers yet")

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """The fixed shape of ``observation_tensor`` for these players and options."""
        raise NotImplementedError(f"{self.id} has no observation tensor yet")

    def observation_tensor(self, state: Any, viewer: Viewer) -> np.ndarray:
        """A float32 array of ``observation_shape``, built only from what ``viewer`` may see
        (two states the viewer cannot tell apart give equal arrays); layout in the rules doc.
        A new array every call, shared with nothing (the research adapters hand it on)."""
        raise NotImplementedError(f"{self.id} has no observation tensor yet")

    def search_key(self, state: Any, viewer: Viewer) -> Hashable:
        """What a search tree keys the viewer's information set by: two states give equal
        keys exactly when they give the viewer equal ``observation_tensor`` arrays. By
        default the array's bytes; a game may read a cheaper key off the same fields (a
        search asks at every step of its walks)."""
        return self.observation_tensor(state, viewer).tobytes()

    # -- extras -----------------------------------------------------------------------
    def agents(self) -> Mapping[str, type[Agent]]:
        """The game's own agents by name (e.g. {"heuristic": ...})."""
        return {}

    def playout_policy(self) -> PlayoutPolicy | None:
        """An optional cheap policy for a search bot's play-outs on sampled worlds:
        ``policy(state, seat, legal, rng)`` returns one of ``legal`` for ``seat``, reading
        only what that seat sees of ``state`` (a person in that seat of that world would
        choose alike) and drawing only from ``rng``. None (the default): uniformly random
        play-outs."""
        return None

    def evaluate(self, state: Any) -> Sequence[float] | None:
        """An optional estimate, for a search bot's play-outs on sampled worlds, of each
        seat's chance to win from ``state`` (0..1 per seat), ending the play-out there.
        None (the default, and wherever the game gives no estimate, e.g. in the middle of
        a round): the play-out goes on."""
        return None

    def search_actions(self, state: Any, seat: Seat, legal: Sequence[Action]) -> Sequence[Action]:
        """The actions a search bot's tree considers for ``seat`` among ``legal`` (never
        empty), reading only what that seat sees of ``state``: a game leaves out choices
        that can never help (e.g. a page naming no Character in play), so the search spends
        its simulations on the others. The default: all of them."""
        return legal

    def search_rewards(self, state: Any) -> Sequence[float] | None:
        """Each seat's reward for a search bot once the game is over (0..1 per seat), where
        a seat's result is more than won or lost (Le Jeu d'Enquête: its Apples); None (the
        default): 1 for each winning seat, 0 for the others. ``evaluate`` then estimates
        this reward."""
        return None

    #: How a search bot (``ismcts``, ``others=game``) plays the other seats' moves in its
    #: tree: ``"tree"`` (the default) searches them as their own information sets;
    #: ``"policy"`` plays them with ``playout_policy`` (random where the game has none) and
    #: keeps tree nodes for the searching seat's own decisions only. The tree's statistics
    #: of another seat come from worlds sampled from the searcher's view, in which the
    #: searcher's own secrets are always the true ones: another seat searched in the tree
    #: learns them (e.g. Kira learns L's Identity). Measured in the ICG and Werewolf, the
    #: policy did no better than the tree (docs/rules/icg.md ICG-BOT-03), so every game
    #: keeps the tree; ``ismcts:others=policy`` selects the policy.
    search_others: ClassVar[str] = "tree"
    #: The worlds a search bot (``ismcts``) draws for each one it searches, picked by
    #: ``search_belief``, unless told otherwise (``ismcts:belief=K``); 0: the worlds as
    #: drawn. Set where belief-weighted worlds measurably help (ICG-BOT-05).
    search_belief_worlds: ClassVar[int] = 0
    #: Whether the game's heuristic bot reads its view's log. False: the paired search's
    #: play-outs (``ismcts:paired=1``) show each seat's bot its view with no log entries
    #: (``Match.view`` from the current step), which it would not read, instead of
    #: building the whole log at every choice. A test per such game checks the bot chooses
    #: alike with and without the log.
    bot_reads_log: ClassVar[bool] = True

    def search_mode(self, view: Mapping[str, Any], seat: Seat) -> Mapping[str, Any]:
        """The settings a search bot's level (``ismcts``, ``ismcts-normal``,
        ``ismcts-hard``) takes for this decision of ``seat`` where they differ from the tree
        search, read from that seat's view only: e.g. ``{"paired": True, "anchor": 0.05}``
        for a side on which the paired search measurably gains and the tree does not
        (Enquete: ENQ-BOT-05). Settings named in the agent's name (``paired=``,
        ``anchor=``) win over these. The default: none."""
        return {}

    def search_prior(self, seat: Seat) -> Agent | None:
        """The bot whose choice seeds a search bot's root for ``seat`` (``ismcts``
        ``prior``), reading only that seat's observation; None (the default): the game's
        heuristic bot."""
        return None

    def search_belief(self, view: Mapping[str, Any], seat: Seat) -> Callable[[Any], float] | None:
        """For a search bot's belief-weighted worlds (``ismcts`` ``belief``): from ``seat``'s
        view only, a function giving a world sampled from that view its log-weight, how
        likely the other seats' play seen so far is in that world (never minus infinity:
        every consistent world keeps some weight); None (the default): worlds are taken as
        the sampler draws them."""
        return None

    def search_answer(self, seat: Seat) -> Callable[[Observation], Action | None] | None:
        """A rule that answers some decisions of a search bot (``ismcts``) in ``seat``
        outright, from that seat's observation only (its view, legal actions and the worlds
        it may sample), returning None wherever the search should search; None (the
        default): the search decides everything. For a decision whose value the tree's
        simulations cannot single out (the ICG's two-step Death Note: ICG-BOT-04)."""
        return None

    def seat_scores(self, state: Any) -> list[float] | None:
        """Each seat's score once the game is over where the game scores seats (Le Jeu
        d'Enquête: its Apples); None for games only won or lost. The arena averages it."""
        return None

    def seat_teams(self, state: Any) -> list[str] | None:
        """Each seat's team as players call it, once dealt (e.g. "Kira's team"), for
        figures per team; None where a seat's side is its seat name (the arena then uses
        ``seat_names``)."""
        return None

    def turn_count(self, state: Any) -> int:
        """Rounds or turns played so far (for summaries); 0 when not tracked."""
        return 0

    def next_in_series(self, state: Any, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """Once the game is over: the options of the next game of the series it belongs to
        (the same seats, e.g. Le Jeu d'Enquête's Apples carried on), or None when it is not
        in a series or was the series' last game. Front ends start that game on a rematch."""
        return None
