"""Information Set MCTS: a search bot that searches only worlds its own seat cannot rule out.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search". Each
simulation draws one world with ``obs.sample_world`` (the hidden cards and secret choices
redrawn among those consistent with what this seat has seen: the true state is never read),
walks down the tree with UCB1 over the actions available in that world (availability
counts), adds one node, plays the game out with the rollout policy (random, the game's
heuristic agent, or the game's own: its cheap play-out policy until the game can estimate
each seat's chance, ``rollout=game``) and backs the result up: 1 for each winning seat, 0
for the others, or each seat's reward where the game scores its seats
(``Game.search_rewards``: Enquête's Apples).

Tree nodes are keyed by the information set of the seat to move: its observation tensor
(built only from what that seat may see; read as ``Game.search_key``, equal exactly when
the tensors are and cheaper where a game has its own) and the kind of decision it is
asked. So every seat's choices in the tree, opponents' too, depend only on what that seat
could know, and the simultaneous secret choices of several seats are searched as such (a
seat's node does not tell it what another seat chose in secret). Nodes reached by the same
information set along different paths share their statistics (a transposition table).

Prior (``prior=N``, off by default): the choice of the game's prior bot at the root
(``Game.search_prior``, by default the heuristic bot; it reads only this seat's
observation) starts with N virtual wins in N visits (progressive bias); every other
action is still tried first, and the search overrules the hint once it has seen enough.
With ``guide=tree`` the same hint seeds every node the search adds, for whichever seat
moves there: that seat's heuristic bot is shown that seat's view of the sampled world (in
the bare search, its state view and decision without the log), so the tree expects the
other seats to play sensibly rather than at random from the start.

The sampled worlds of one search draw their chance (dice, shuffles, draws after the
sample) from one generator of the search, seeded once from the search's own (no generator
seeded per world).

Loops of a seat's own moves (begin a two-step choice, cancel it: nothing it sees changed):
a walk that comes back to an information set by its seat's own moves alone counts them as
visits that won nothing (``_close_loop``), so the tree never rates going round as a move;
and at an information set this bot object has already answered in this game, it takes an
answer it has not given there while there is one (``choose``). A bot made afresh for every
move (the server's worker processes) is handed the previous one's answers (``memory``,
``recall``), so the second rule holds there too.

Other seats (``others``): ``tree`` searches every seat's choices in the tree as above;
``policy`` plays the other seats' moves, in the tree as in the play-outs, with the game's
play-out policy (random where it has none), reading only that seat's view of the sampled
world, and keeps nodes for this seat's own decisions only; ``game`` (the default) is the
game's choice (``Game.search_others``, ``tree`` in every game so far). Why one would:
every sampled world holds this seat's own secrets as they truly are, so another seat's
node, whose statistics come only from such worlds, learns them (an in-tree Kira "knows"
the searching L's Identity). Measured per team in the ICG and Werewolf (5 players), the
policy did no better than the tree (docs/rules/icg.md ICG-BOT-03, werewolf.md WW-BOT-03).

Decisions the game answers (``Game.search_answer``): where the game gives a rule for some
decisions, read only from this seat's observation (e.g. sampling worlds from its view), the
bot takes the rule's answer there instead of searching (the ICG's two-step Death Note,
whose best pair the simulations spread over some forty pairs cannot single out).

Anchor (``anchor=M``, off by default): the bot plays as the game's prior bot (its heuristic
bot, ``Game.search_prior``) would in its seat, fed every decision of the seat with a
generator of its own (a copy of the seat's first one, so it draws as that bot alone would),
and searches only to overrule it: it plays the search's most visited action instead where
that action's mean value beats the prior bot's choice's by at least ``M`` (and the prior
bot's choice was tried at least ``ANCHOR_VISITS`` times). So the search adds to the
heuristic bot only where it sees a clear difference, and plays no worse where its
simulations cannot tell the choices apart (Werewolf: WW-BOT-04).

Belief (``belief=K``; by default the game's ``Game.search_belief_worlds``: 8 in the ICG,
0, none, elsewhere): each world the search (not the game's answer rule) draws is one of
``K`` worlds drawn from this seat's view, picked with odds proportional to how likely the
other seats' play so far is in it (``Game.search_belief``, read from this seat's view only;
a game without one: as drawn). The sampler deals every hidden card this seat cannot rule
out alike; the table's play makes some deals likelier (Werewolf: WW-BOT-05). The game draws
and picks them (``Game.sample_weighted_state``), so it may do it with less work where it
can prove the same odds (the ICG draws only the candidates' Missions: ICG-BOT-05).

Paired (``paired=1``, with ``anchor=M``; off by default, except where a level's game says
so for the decision's seat, ``Game.search_mode``: Kira's side in Enquete): no tree. The
bot takes the prior bot's choice as ``anchor`` does, and checks it against every other
legal action on the same worlds: ``sims`` worlds drawn from this seat's view
(belief-weighted where ``belief`` says so), each action played in each world and the world
then played on by every seat's heuristic bot reading that seat's view of it, with the
same chance and the same bots' draws whichever action was played (common random numbers),
to the end or to the ``cut``-th point where the game estimates each seat's chance
(``Game.evaluate``). An action overrules the prior bot's choice where its mean reward over
those worlds beats the choice's by ``M`` and by ``PAIRED_Z`` standard errors of the paired
differences. So the search asks "what if I did otherwise here, the table playing on as it does"
(Bertsekas's rollout algorithm on sampled worlds): Werewolf WW-BOT-06. A time budget ends
it between two play-outs; an unfinished world is dropped, and with none finished the prior
bot's choice stands, so a seat with more choices answers no later than one play-out past
the budget.

Budget: ``sims`` simulations and/or ``seconds`` of search per move, whichever ends first.
It answers every decision the same way whatever it holds: with a time budget it takes
the whole time even when only one action is legal (it waits instead of searching), so the
table cannot tell a forced step from a real choice by its timing.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from deathnote.agents.base import Agent, Observation
from deathnote.engine.actions import Action, Decision, Seat
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.game import Game
from deathnote.engine.rng import below
from deathnote.engine.rng import new as new_rng

if TYPE_CHECKING:
    from deathnote.engine.game import PlayoutPolicy
    from deathnote.engine.match import Match

#: Name -> settings of the search levels offered to players. ``easy`` is the heuristic bot.
LEVELS: dict[str, dict[str, Any]] = {
    "ismcts": {"seconds": 0.2, "rollout": "game"},
    "ismcts-normal": {"seconds": 0.2, "rollout": "game"},
    # rollout=game: the game's own play-outs and estimate (random play-outs where a game
    # has neither); prior=20: the game's prior bot's choice leads at the root. Figures
    # against the heuristic bot: docs/rules/confrontation.md CONF-BOT-03.
    "ismcts-hard": {"seconds": 1.0, "prior": 20, "rollout": "game"},
}
#: The level names of the lobby and the terminal, and the agent each one is.
LEVEL_AGENTS = {"easy": "heuristic", "normal": "ismcts-normal", "hard": "ismcts-hard"}
#: The play-out policies: uniformly random, the game's heuristic bot (slow), or the game's
#: own: its cheap policy (``Game.playout_policy``; random where it has none) played until
#: the game estimates each seat's chance (``Game.evaluate``) or to the end.
ROLLOUTS = ("random", "heuristic", "game")
#: How the other seats' moves are played in the tree: searched (``tree``), by the game's
#: play-out policy (``policy``), or as the game says (``game``, ``Game.search_others``).
OTHERS = ("game", "tree", "policy")
#: UCB1 exploration constant (rewards are 0..1).
EXPLORATION = 0.7
#: A rollout that has not ended after this many actions counts as a draw (0.5 each).
MAX_ROLLOUT = 5_000
#: The visits the prior bot's choice needs before an anchored search (``anchor``) may
#: overrule it.
ANCHOR_VISITS = 10
#: The standard errors of its paired differences by which an action must beat the anchored
#: choice to overrule it in the paired comparison (``paired``).
PAIRED_Z = 2.0
#: A cap on the simulations of a time-only budget (a very fast game must still return).
MAX_SIMS = 1_000_000

Key = tuple[Seat, str, Hashable]


class Node:
    """One information set of one seat: per action [visits, total reward, availability]."""

    __slots__ = ("stats",)

    def __init__(self) -> None:
        self.stats: dict[Action, list[float]] = {}

    def select(self, legal: Sequence[Action], rng: random.Random, c: float) -> tuple[Action, bool]:
        """UCB1 over the actions available in this world; an untried one first (True)."""
        get = self.stats.get
        untried: list[Action] | None = None
        best: Action | None = None
        best_value = -math.inf
        log, sqrt = math.log, math.sqrt
        # One pass: count every available action, score the tried ones (scores are used
        # only if every action has been tried).
        for action in legal:
            entry = get(action)
            if entry is None:
                if untried is None:
                    untried = [action]
                else:
                    untried.append(action)
                continue
            available = entry[2] + 1
            entry[2] = available
            if untried is None:
                visits = entry[0]
                value = entry[1] / visits + c * sqrt(log(available) / visits)
                if value > best_value:
                    best, best_value = action, value
        if untried is not None:
            n = len(untried)
            if n == 1:
                action = untried[0]
            elif type(rng) is random.Random:
                # ``rng.randrange(n)``'s draws (``Random._randbelow``) without its frames
                action = untried[below(rng, n)]
            else:
                action = untried[rng.randrange(n)]
            self.stats[action] = [0.0, 0.0, 1.0]
            return action, True
        assert best is not None
        return best, False


class IsmctsAgent(Agent):
    """Single-observer ISMCTS with information-set nodes for every seat (module docstring)."""

    name = "ismcts"

    def __init__(
        self,
        seat: Seat,
        game_id: str,
        sims: int | None = None,
        seconds: float | None = 0.2,
        rollout: str = "random",
        c: float = EXPLORATION,
        prior: int = 0,
        guide: str = "root",
        others: str = "game",
        anchor: float | None = None,
        belief: int | None = None,
        paired: bool = False,
        cut: int = 0,
        game_mode: bool = False,
    ) -> None:
        super().__init__(seat)
        if sims is None and not seconds:
            raise DeathNoteError("ismcts needs a budget: sims or seconds")
        if sims is not None and sims < 1:
            raise DeathNoteError("ismcts: sims must be at least 1")
        if rollout not in ROLLOUTS:
            raise DeathNoteError(f"ismcts: rollout is {', '.join(ROLLOUTS)}, not {rollout!r}")
        self.game_id = game_id
        self.sims = sims
        self.seconds = seconds or None
        self.rollout = rollout
        self.c = c
        if prior < 0:
            raise DeathNoteError("ismcts: prior must be at least 0")
        #: virtual wins seeded on the heuristic bot's choice at the root (0: none)
        self.prior = prior
        if guide not in ("root", "tree"):
            raise DeathNoteError(f"ismcts: guide is root or tree, not {guide!r}")
        #: where the prior is seeded: the root only, or every node the search adds
        self.guide = guide
        if others not in OTHERS:
            raise DeathNoteError(f"ismcts: others is {', '.join(OTHERS)}, not {others!r}")
        if others == "game":
            from deathnote.engine.registry import get_game

            others = get_game(game_id).search_others
        #: how the other seats' moves are played in the tree (module docstring)
        self.others = others
        if anchor is not None and anchor < 0:
            raise DeathNoteError("ismcts: anchor must be at least 0")
        #: the margin by which the search must beat the prior bot's choice (None: no anchor)
        self.anchor = anchor
        self._anchor_rng: random.Random | None = None
        if belief is None:
            from deathnote.engine.registry import get_game

            belief = get_game(game_id).search_belief_worlds
        if belief < 0:
            raise DeathNoteError("ismcts: belief must be at least 0")
        #: worlds drawn for each one searched, picked by the game's belief (0 or 1: none)
        self.belief = belief
        if paired and anchor is None:
            raise DeathNoteError("ismcts: paired needs an anchor (the margin to overrule by)")
        #: the root's actions compared on the same worlds played out by the heuristic bots
        #: (``_paired``) instead of the tree search
        self.paired = paired
        if cut < 0:
            raise DeathNoteError("ismcts: cut must be at least 0")
        #: the paired play-outs end at the ``cut``-th point where the game estimates each
        #: seat's chance (``Game.evaluate``) and score that estimate; 0: at the game's end
        self.cut = cut
        self._anchor_bot: Agent | None = None
        #: the game's settings per decision (``Game.search_mode``; a level's, where its name
        #: names neither ``paired`` nor ``anchor``), None: this agent's own throughout
        self._mode: Callable[[Mapping[str, Any], Seat], Mapping[str, Any]] | None = None
        self._own = (anchor, paired)
        if game_mode:
            from deathnote.engine.registry import get_game

            game = get_game(game_id)
            if type(game).search_mode is not Game.search_mode:
                self._mode = game.search_mode
        #: how many times the anchored search overruled the prior bot (for the arena)
        self.overruled = 0
        self._hinters: dict[Seat, Agent] = {}
        #: figures of the last search (for the bench and the arena)
        self.last_sims = 0
        self.last_seconds = 0.0
        #: the nodes below the root of the last search, by information set (for tests)
        self.last_table: dict[Key, Node] = {}
        self._rng = random.Random(0)
        self._plain: Agent | None = None
        self._prior_agent: Agent | None = None
        #: the game's rule answering some decisions outright (False: not asked yet)
        self._answerer: Callable[[Observation], Action | None] | Literal[False] | None = False
        #: the information set of the last search's root (its node key), and the actions
        #: this bot has chosen at each information set so far (``choose``)
        self._root_key: Key | None = None
        self._answered: dict[Key, set[Action]] = {}

    def memory(self) -> dict[Key, set[Action]]:
        """The actions it has chosen at each information set of this game."""
        return self._answered

    def recall(self, memory: Any) -> None:
        """Go on from an earlier bot's ``memory()`` in the same game and seat."""
        if isinstance(memory, dict):
            self._answered = {key: set(actions) for key, actions in memory.items()}

    def choose(self, obs: Observation) -> Action:
        """The most visited root action after the budget's simulations."""
        start = time.perf_counter()
        legal = obs.legal
        self.last_sims = 0
        if self._mode is not None:
            self._set_mode(obs)
        anchored = self._anchored(obs) if self.anchor is not None else None
        if len(legal) == 1:
            action = legal[0]
        elif anchored is not None and not obs.can_sample:
            action = anchored
        elif not obs.can_sample:
            # Handed a bare view (no sampler): play as the heuristic bot rather than fail.
            action = self._fallback().choose(obs)
        elif anchored is None and (answer := self._answer(obs)) is not None:
            # A decision the game's own rule answers from this seat's observation
            # (``Game.search_answer``), where the tree's simulations cannot tell.
            action = answer
        else:
            self._root_key = None
            # Worlds picked by how likely the others' play is in them (``_believing``):
            # for the search only (a game's answer rule draws as many worlds as it needs
            # at once, and K times as many would outlast the time a covert answer takes).
            searched = self._believing(obs) if self.belief > 1 else obs
            if self.paired:
                assert anchored is not None
                action = self._paired_choice(self._paired(searched, start), anchored)
                return self._waited(action, start)
            stats = self.search(searched, start).stats
            # An information set this bot has decided at before in this game: nothing it
            # sees has changed since (e.g. it began a two-step choice and cancelled it), so
            # the same answer again would go round the same loop; take another one.
            candidates: Sequence[Action] = legal
            key = self._root_key
            if key is not None:
                before = self._answered.get(key)
                if before:
                    others = [a for a in legal if a not in before]
                    candidates = others or legal
            action = max(
                candidates,
                key=lambda a: (stats[a][0], stats[a][1]) if a in stats else (-1.0, 0.0),
            )
            if anchored is not None:
                # The prior bot's choice stands (it does not go round loops: the rule
                # above is the search's) unless the search's beats it clearly.
                action = self._overrule(anchored, action, stats)
            if key is not None:
                self._answered.setdefault(key, set()).add(action)
        return self._waited(action, start)

    def _set_mode(self, obs: Observation) -> None:
        """This decision's ``anchor`` and ``paired``: the game's for this seat's view
        (``Game.search_mode``), else the agent's own. The prior bot of the anchor is shown
        every decision all the same, so it plays as that bot alone in this seat would."""
        assert self._mode is not None
        mode = self._mode(obs.view, self.seat)
        unknown = set(mode) - {"anchor", "paired"}
        if unknown:
            raise DeathNoteError(f"ismcts: a game's search mode sets {sorted(unknown)}")
        anchor, paired = self._own
        self.anchor = mode.get("anchor", anchor)
        self.paired = bool(mode.get("paired", paired))
        if self.anchor is None:
            self._anchored(obs)

    def _waited(self, action: Action, start: float) -> Action:
        """``action``, once a time budget is spent where nothing was searched (a covert
        answer must not come faster than a real choice)."""
        if self.last_sims == 0 and self.seconds is not None:
            left = self.seconds - (time.perf_counter() - start)
            if left > 0:
                time.sleep(left)
        self.last_seconds = time.perf_counter() - start
        return action

    def _anchored(self, obs: Observation) -> Action:
        """The prior bot's choice, the bot shown every decision of this seat with a
        generator of its own (a copy of the seat's, taken at its first decision), so it
        plays and draws as that bot alone in this seat would."""
        if self._anchor_rng is None:
            self._anchor_rng = random.Random()
            self._anchor_rng.setstate(obs.rng.getstate())
        if self._anchor_bot is None:
            from deathnote.agents import make_agent
            from deathnote.engine.registry import get_game

            bot = get_game(self.game_id).search_prior(self.seat)
            self._anchor_bot = bot or make_agent(self.game_id, "heuristic", self.seat)
        return self._anchor_bot.choose(
            Observation(obs.seat, obs.legal, lambda: obs.view, self._anchor_rng)
        )

    def _believing(self, obs: Observation) -> Observation:
        """The observation whose sampled worlds are each one of ``belief`` drawn from this
        seat's view, picked with odds proportional to the game's belief weight, read from
        this seat's view only (``Game.search_belief``; the game draws and picks them,
        ``Game.sample_weighted_state``); the same observation where the game gives none."""
        from deathnote.engine.registry import get_game

        weigh = get_game(self.game_id).search_belief(obs.view, self.seat)
        if weigh is None:
            return obs
        return obs.believing(self.belief, weigh)

    def _overrule(
        self, anchored: Action, best: Action, stats: Mapping[Action, list[float]]
    ) -> Action:
        """The search's ``best`` where its mean beats the anchored choice's by ``anchor``
        (the anchored choice tried at least ``ANCHOR_VISITS`` times), else the anchored."""
        assert self.anchor is not None
        if best == anchored or best not in stats:
            return anchored
        mine = stats.get(anchored)
        if mine is None or mine[0] < ANCHOR_VISITS or stats[best][0] < ANCHOR_VISITS:
            return anchored
        if stats[best][1] / stats[best][0] - mine[1] / mine[0] < self.anchor:
            return anchored
        self.overruled += 1
        return best

    def _fallback(self) -> Agent:
        """This seat's own heuristic bot (random where a game has none), for real moves."""
        if self._plain is None:
            self._plain = _heuristic_bot(self.game_id, self.seat)
        return self._plain

    def _answer(self, obs: Observation) -> Action | None:
        """The game's outright answer to this decision (``Game.search_answer``), or None."""
        if self._answerer is False:
            from deathnote.engine.registry import get_game

            self._answerer = get_game(self.game_id).search_answer(self.seat)
        if self._answerer is None:
            return None
        answer = self._answerer(obs)
        return answer if answer is None or answer in obs.legal else None

    def _prior_bot(self) -> Agent:
        """The bot whose choice seeds the root: the game's (``Game.search_prior``), else
        this seat's heuristic bot."""
        if self._prior_agent is None:
            from deathnote.engine.registry import get_game

            self._prior_agent = get_game(self.game_id).search_prior(self.seat) or self._fallback()
        return self._prior_agent

    def search(self, obs: Observation, start: float) -> Node:
        """Run the simulations; the root node's statistics."""
        rng = obs.rng
        sample = obs.sample_world
        seat = self.seat
        root = Node()
        # The heuristic bots of the play-outs and the prior, fresh for each search (a bot
        # that keeps notes between calls keeps them only within one search).
        self._hinters = {}
        if self.prior:
            # Progressive bias: the prior bot's choice (it reads only this seat's view)
            # starts with ``prior`` virtual wins, the others are still all tried first.
            hint = self._prior_bot().choose(obs)
            if hint in obs.legal:
                root.stats[hint] = [float(self.prior), float(self.prior), 1.0]
        table: dict[Key, Node] = {}
        self.last_table = table
        policy = self._policy(rng)
        limit = self.sims if self.sims is not None else MAX_SIMS
        deadline = start + self.seconds if self.seconds is not None else math.inf
        c = self.c
        tree_prior = self.prior > 0 and self.guide == "tree"
        done = 0
        clock = time.perf_counter
        if policy is None:
            done = self._search_bare(obs, root, table, limit, deadline)
            self.last_sims = done
            return root
        # One generator for the chance of every sampled world of this search, drawn from
        # the search's own (``Match.sample_world`` ``world_rng``: no generator seeded per
        # world).
        world_rng = new_rng(rng.getrandbits(64))
        others_play: PlayoutPolicy | None = None  # as in ``_search_bare``
        while done < limit and (done == 0 or clock() < deadline):
            world = sample(rng, True, world_rng)
            if done == 0:
                self._root_key = _root_key(world.game, world.state, seat)
                if self.others == "policy":
                    others_play = world.game.playout_policy() or _random_play
            path: list[tuple[Node, Action, Seat]] = []
            node = root
            mover = seat
            outcome = None
            # The nodes of this walk: where each was entered (path length, actions taken),
            # and the run of actions by one seat that ends the walk so far.
            seen = {id(root): (0, 0)}
            steps = run_from = 0
            run_seat = seat
            while True:
                legal = world.legal(mover)
                if len(legal) == 1:
                    action, fresh = legal[0], False
                elif others_play is not None and mover != seat:
                    action, fresh = others_play(world.state, mover, legal, self._rng), False
                else:
                    action, fresh = node.select(legal, rng, c)
                    path.append((node, action, mover))
                if mover != run_seat:
                    run_seat, run_from = mover, steps
                steps += 1
                world.submit(mover, action)
                outcome = world.outcome()
                if outcome is not None:
                    break
                mover = min(world.pending())
                if fresh:
                    break
                if others_play is not None and mover != seat:
                    continue
                key = (
                    mover,
                    world.pending()[mover].kind,
                    world.game.search_key(world.state, mover),
                )
                found = table.get(key)
                if found is None:
                    found = table[key] = Node()
                    if tree_prior:
                        legal = world.legal(mover)
                        if len(legal) > 1:
                            hint = self._hinter(mover).choose(
                                Observation(mover, legal, partial(world.view, mover), rng)
                            )
                            found.stats[hint] = [float(self.prior), float(self.prior), 0.0]
                elif id(found) in seen:
                    # Back at an information set of this walk (an action that changes
                    # nothing the seat sees): the tree would choose alike forever; roll out.
                    _close_loop(path, seen[id(found)], mover, run_seat, run_from)
                    break
                seen[id(found)] = (len(path), steps)
                node = found
            rewards = self._rewards(world, policy) if outcome is None else None
            if world.outcome() is not None:
                scored = world.game.search_rewards(world.state)
                if scored is not None:  # a game scoring its seats (``Game.search_rewards``)
                    rewards = dict(enumerate(scored))
            winners = outcome.winning_seats if outcome is not None else ()
            for node_, action_, mover_ in path:
                entry = node_.stats[action_]
                entry[0] += 1
                if rewards is not None:
                    entry[1] += rewards.get(mover_, 0.0)
                elif mover_ in winners:
                    entry[1] += 1.0
            done += 1
        self.last_sims = done
        return root

    def _search_bare(
        self,
        obs: Observation,
        root: Node,
        table: dict[Key, Node],
        limit: float,
        deadline: float,
    ) -> int:
        """``search`` with random play-outs: the same walk, draws and statistics, played on
        each sampled world's state through the game's own functions (``pending``,
        ``legal``, ``apply``, ``outcome``, ``search_key``), without the Match's
        bookkeeping (log, record, caches, snapshots) that nothing reads in a play-out, and
        on worlds sampled without the log (``sample_world(rng, log=False)``; where the
        observation offers it, the state alone, ``Observation.state_sampler``: the same
        state and draws without the Match around it), all drawing their chance from one
        generator of the search (``world_rng``)."""
        rng = obs.rng
        sample = obs.sample_world
        seat = self.seat
        c = self.c
        tree_prior = self.prior > 0 and self.guide == "tree"
        heuristic = self.rollout == "heuristic"
        game_policy = self.rollout == "game"
        clock = time.perf_counter
        done = 0
        play: PlayoutPolicy | Literal[False] | None = None  # found on the first world
        estimate = False
        values: Sequence[float] | None = None
        world_rng = new_rng(rng.getrandbits(64))  # as in ``search``
        bare = obs.state_sampler
        by_policy = self.others == "policy"
        others_play: PlayoutPolicy | None = None
        prng = self._rng
        game: Any = None
        while done < limit and (done == 0 or clock() < deadline):
            if bare is not None:
                # the state alone (no Match around it): the same state and draws
                world_game, state = bare(rng)
                wrng = world_rng
            else:
                world = sample(rng, False, world_rng)
                state, wrng, world_game = world.state, world.rng, world.game
            if world_game is not game:
                # The game's functions, looked up once (every world of a search is one
                # game's; the check is for safety only).
                game = world_game
                pending_of, legal_of, outcome_of = game.pending, game.legal, game.outcome
                kind = type(game)
                # Where the game has its own: ``mover`` (who moves, no decisions made) and
                # ``apply_quiet`` (no events: a play-out reads no log); else the plain
                # calls, without the defaults' extra step.
                own_mover = kind.mover is not Game.mover
                mover_of = game.mover
                apply = game.apply_quiet if kind.apply_quiet is not Game.apply_quiet else game.apply
                # The game's own short list of the actions worth searching, where it has one.
                narrow = (
                    game.search_actions if kind.search_actions is not Game.search_actions else None
                )
                own_rewards = kind.search_rewards is not Game.search_rewards
                key_of = game.search_key
            if done == 0:
                self._root_key = _root_key(game, state, seat)
            path: list[tuple[Node, Action, Seat]] = []
            node = root
            mover = seat
            outcome = None
            seen = {id(root): (0, 0)}  # as in ``search``
            steps = run_from = 0
            run_seat = seat
            rollout = True
            if by_policy and others_play is None:
                others_play = game.playout_policy() or _random_play
            while True:
                legal = legal_of(state, mover)
                if len(legal) == 1:
                    action, fresh = legal[0], False
                elif others_play is not None and mover != seat:
                    # Another seat's move, by the play-out policy from its view: no node.
                    action, fresh = others_play(state, mover, legal, prng), False
                else:
                    if narrow is not None:
                        legal = narrow(state, mover, legal)
                    action, fresh = node.select(legal, rng, c)
                    path.append((node, action, mover))
                if mover != run_seat:
                    run_seat, run_from = mover, steps
                steps += 1
                apply(state, mover, action, wrng)
                outcome = outcome_of(state)
                if outcome is not None:
                    rollout = False
                    break
                # Who moves next is all a play-out needs (``mover``: no decisions made);
                # the decision's kind only for a node's key.
                if own_mover:
                    asked_seat, asked = mover_of(state), None
                else:
                    asked = pending_of(state)
                    asked_seat = min(asked) if asked else None
                if asked_seat is None:
                    raise DeathNoteError("no seat is asked but the game is not over")
                mover = asked_seat
                if fresh:
                    break
                if others_play is not None and mover != seat:
                    continue
                if asked is None:
                    asked = pending_of(state)
                key = (mover, asked[mover].kind, key_of(state, mover))
                found = table.get(key)
                if found is None:
                    found = table[key] = Node()
                    if tree_prior:
                        legal = legal_of(state, mover)
                        if len(legal) > 1:
                            hint = self._hint(game, state, mover, legal, asked, rng)
                            if hint is not None:
                                found.stats[hint] = [float(self.prior), float(self.prior), 0.0]
                elif id(found) in seen:
                    # back at an information set of this walk (see ``search``)
                    _close_loop(path, seen[id(found)], mover, run_seat, run_from)
                    break
                seen[id(found)] = (len(path), steps)
                node = found
            if rollout and game_policy and play is None:
                play = game.playout_policy() or False
                estimate = type(game).evaluate is not Game.evaluate
                # A game with neither: the random play-out below.
                game_policy = bool(play) or estimate
            # Each seat's value where the play-out ends on the game's estimate or score.
            values = None
            if rollout and game_policy:
                # The game's play-out: its own cheap policy (random where it has none),
                # stopped at the first point where the game estimates each seat's chance
                # (``Game.playout_policy``, ``Game.evaluate``), or at the end.
                prng = self._rng
                for _ in range(MAX_ROLLOUT):
                    if estimate:
                        values = game.evaluate(state)
                        if values is not None:
                            break
                    who = mover_of(state) if own_mover else min(pending_of(state))
                    if who is None:
                        raise DeathNoteError("no seat is asked but the game is not over")
                    mover = who
                    legal = legal_of(state, mover)
                    if not legal:
                        raise DeathNoteError(f"seat {mover} is asked but has no legal action")
                    if play:
                        action = play(state, mover, legal, prng)
                    else:
                        action = legal[below(prng, len(legal))]
                    apply(state, mover, action, wrng)
                    outcome = outcome_of(state)
                    if outcome is not None:
                        break
            elif rollout and heuristic:
                # The heuristic play-out: each seat's bot shown its view of the state.
                for _ in range(MAX_ROLLOUT):
                    asked = pending_of(state)
                    mover = min(asked)
                    legal = legal_of(state, mover)
                    if len(legal) > 1:
                        action = self._hint(game, state, mover, legal, asked, rng)
                    elif legal:
                        action = legal[0]
                    else:
                        raise DeathNoteError(f"seat {mover} is asked but has no legal action")
                    apply(state, mover, action, wrng)
                    outcome = outcome_of(state)
                    if outcome is not None:
                        break
            elif rollout:
                # The random play-out, as ``_rewards`` plays it (same draws).
                bits = self._rng.getrandbits
                for _ in range(MAX_ROLLOUT):
                    asked_seat = mover_of(state) if own_mover else min(pending_of(state))
                    if asked_seat is None:
                        raise DeathNoteError("no seat is asked but the game is not over")
                    legal = legal_of(state, asked_seat)
                    n = len(legal)
                    if not n:
                        raise DeathNoteError(f"seat {asked_seat} is asked but has no legal action")
                    k = n.bit_length()
                    r = bits(k)
                    while r >= n:
                        r = bits(k)
                    apply(state, asked_seat, legal[r], wrng)
                    outcome = outcome_of(state)
                    if outcome is not None:
                        break
            if values is None and outcome is not None and own_rewards:
                # A game scoring its seats: each seat's reward (``Game.search_rewards``).
                values = game.search_rewards(state)
            if values is not None:
                for node_, action_, mover_ in path:
                    entry = node_.stats[action_]
                    entry[0] += 1
                    entry[1] += values[mover_]
                done += 1
                continue
            winners = outcome.winning_seats if outcome is not None else ()
            for node_, action_, mover_ in path:
                entry = node_.stats[action_]
                entry[0] += 1
                if outcome is None:
                    entry[1] += 0.5  # no end within MAX_ROLLOUT: a draw
                elif mover_ in winners:
                    entry[1] += 1.0
            done += 1
        return done

    def _paired_choice(self, values: Mapping[Action, list[float]], anchored: Action) -> Action:
        """The anchored choice, unless another action beat it on the same worlds by at
        least ``anchor`` on average and by ``PAIRED_Z`` standard errors of the paired
        differences (the best such action by its mean difference)."""
        assert self.anchor is not None
        mine = values[anchored]
        best, best_gain = anchored, 0.0
        for action, theirs in values.items():
            if action == anchored:
                continue
            diffs = [a - b for a, b in zip(theirs, mine, strict=True)]
            n = len(diffs)
            if n < 2:
                continue
            gain = sum(diffs) / n
            if gain < self.anchor or gain <= best_gain:
                continue
            spread = math.sqrt(sum((d - gain) ** 2 for d in diffs) / (n - 1))
            if gain * math.sqrt(n) >= PAIRED_Z * spread:
                best, best_gain = action, gain
        if best != anchored:
            self.overruled += 1
        return best

    def _paired(self, obs: Observation, start: float) -> dict[Action, list[float]]:
        """Each root action's reward in each of the same sampled worlds (``sims`` of them,
        or as many as the time allows): every action played in every world, each world
        then played out to the end by every seat's heuristic bot reading that seat's view
        of it, with the same chance and the same bots' draws after each action (common
        random numbers), so two actions' rewards differ only by what the actions change."""
        rng = obs.rng
        legal = list(obs.legal)
        values: dict[Action, list[float]] = {action: [] for action in legal}
        limit = self.sims if self.sims is not None else MAX_SIMS
        deadline = start + self.seconds if self.seconds is not None else math.inf
        clock = time.perf_counter
        done = 0
        while done < limit:
            world = obs.sample_world(rng, True)
            seed = rng.getrandbits(32)
            row: list[float] = []
            for action in legal:
                # The budget ends between play-outs, the first world's too: an unfinished
                # world is dropped (and with none finished the anchored choice stands), so
                # a hand with more choices does not answer later than a forced one.
                if clock() >= deadline:
                    break
                row.append(self._bots_play_out(world.fork(), action, seed))
            if len(row) < len(legal):
                break
            for action, value in zip(legal, row, strict=True):
                values[action].append(value)
            done += 1
        self.last_sims = done
        return values

    def _bots_play_out(self, world: Match, action: Action, seed: int) -> float:
        """This seat's reward when it plays ``action`` in ``world`` and every seat's
        heuristic bot (fresh, reading its seat's view of the world) plays on to the end;
        the bots draw from generators seeded by ``seed`` and the seat."""
        seat = self.seat
        cut, cuts, evaluate = self.cut, 0, world.game.evaluate
        world.submit(seat, action)
        bots: dict[Seat, Agent] = {}
        rngs: dict[Seat, random.Random] = {}
        # Where the bots read no log (``Game.bot_reads_log``), their views start at the
        # current step: no log entries are built for them.
        whole_log = world.game.bot_reads_log
        outcome = world.outcome()
        for _ in range(MAX_ROLLOUT):
            if outcome is not None:
                break
            mover = min(world.pending())
            bot = bots.get(mover)
            if bot is None:
                bot = bots[mover] = _heuristic_bot(self.game_id, mover)
                rngs[mover] = random.Random(seed * 16 + mover)
            legal = world.legal(mover)
            view = (
                partial(world.view, mover)
                if whole_log
                else partial(world.view, mover, len(world.actions))
            )
            choice = bot.choose(Observation(mover, legal, view, rngs[mover]))
            world.submit(mover, choice)
            outcome = world.outcome()
            if cut and outcome is None:
                estimate = evaluate(world.state)
                if estimate is not None:
                    cuts += 1
                    if cuts >= cut:
                        return float(estimate[seat])
        if outcome is None:
            return 0.5
        scored = world.game.search_rewards(world.state)
        if scored is not None:
            return float(scored[seat])
        return 1.0 if seat in outcome.winning_seats else 0.0

    def _hinter(self, mover: Seat) -> Agent:
        """The heuristic bot (or the random one, where a game has none) of a seat."""
        bot = self._hinters.get(mover)
        if bot is None:
            bot = self._hinters[mover] = _heuristic_bot(self.game_id, mover)
        return bot

    def _hint(
        self,
        game: Any,
        state: Any,
        mover: Seat,
        legal: Sequence[Action],
        asked: Mapping[Seat, Decision],
        rng: random.Random,
    ) -> Action:
        """The mover's heuristic choice on a sampled world's bare state: the bot is shown
        the mover's view of that state (its state view and decision; no log, which a bare
        state does not keep), as a person in that seat of that world would see it."""

        def view() -> dict[str, Any]:
            return {
                "viewer": mover,
                "state": game.view(state, mover),
                "decision": asked[mover].to_json(),
                "log": [],
            }

        return self._hinter(mover).choose(Observation(mover, legal, view, rng))

    def _policy(self, rng: random.Random) -> Callable[[Match, Seat], Action] | None:
        """The rollout policy through each world's Match: one action for a seat of a world.
        None: the bare search (``_search_bare``) plays the built-in play-outs (random or
        heuristic) on the state itself."""
        self._rng = rng
        return None

    def _rewards(
        self, world: Match, policy: Callable[[Match, Seat], Action] | None
    ) -> dict[Seat, float]:
        """Play the world out; 1 for each winning seat, 0 for the others (0.5 if no end)."""
        pending, submit = world.pending, world.submit
        if policy is None:
            # The random play-out inline (the hottest loop of the search): the same draws
            # as RandomAgent.choose.
            legal_of, outcome_of, rng = world.legal, world.outcome, self._rng
            for _ in range(MAX_ROLLOUT):
                seat = min(pending())
                legal = legal_of(seat)
                submit(seat, legal[below(rng, len(legal))])
                outcome = outcome_of()
                if outcome is not None:
                    return dict.fromkeys(outcome.winning_seats, 1.0)
            return dict.fromkeys(range(world.players), 0.5)
        for _ in range(MAX_ROLLOUT):
            seat = min(pending())
            submit(seat, policy(world, seat))
            outcome = world.outcome()
            if outcome is not None:
                return dict.fromkeys(outcome.winning_seats, 1.0)
        return dict.fromkeys(range(world.players), 0.5)


def _heuristic_bot(game_id: str, seat: Seat) -> Agent:
    """A fresh heuristic bot of the game for a seat (the random one where it has none)."""
    from deathnote.agents import make_agent

    try:
        return make_agent(game_id, "heuristic", seat)
    except DeathNoteError:
        return make_agent(game_id, "random", seat)


def _random_play(state: Any, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
    """A uniformly random choice (``others=policy`` in a game without a play-out policy)."""
    return legal[below(rng, len(legal))]


def _close_loop(
    path: list[tuple[Node, Action, Seat]],
    entered: tuple[int, int],
    mover: Seat,
    run_seat: Seat,
    run_from: int,
) -> None:
    """A walk back at an information set it entered at ``entered`` (path length, actions
    taken): if only ``mover`` acted since (its own moves brought it back to where it was,
    e.g. it began a two-step choice and cancelled it), those choices count as visits that
    won nothing and leave the path; the rest of the walk is played out as usual. So the
    tree never finds going round such a loop as good as a real move (a bot that did would
    go round it for ever). A loop with other seats' moves in it is played out as usual."""
    at, steps = entered
    if run_seat != mover or run_from > steps:
        return
    for node, action, _seat in path[at:]:
        node.stats[action][0] += 1
    del path[at:]


def _root_key(game: Game, state: Any, seat: Seat) -> Key | None:
    """The node key of the seat's information set in a sampled world (the same in every
    world the seat cannot tell apart); None for a game without an observation tensor."""
    try:
        return (
            seat,
            game.pending(state)[seat].kind,
            game.search_key(state, seat),
        )
    except NotImplementedError:
        return None


def parse_ismcts(game_id: str, name: str, seat: Seat) -> IsmctsAgent | None:
    """An ISMCTS agent from a name: a level (``ismcts``, ``ismcts-normal``, ``ismcts-hard``)
    optionally followed by settings, e.g. ``ismcts:sims=500:rollout=heuristic``; None for a
    name that is not ISMCTS."""
    base, *settings = name.split(":")
    if base not in LEVELS:
        return None
    args: dict[str, Any] = dict(LEVELS[base])
    # A level plays as its game says per decision (``Game.search_mode``) unless its name
    # sets the search's mode itself.
    args["game_mode"] = not any(s.partition("=")[0] in ("paired", "anchor") for s in settings)
    for setting in settings:
        key, sep, value = setting.partition("=")
        try:
            if not sep:
                raise ValueError
            if key == "sims":
                args["sims"] = int(value)
                if "seconds" not in [s.partition("=")[0] for s in settings]:
                    args["seconds"] = None
            elif key == "seconds":
                args["seconds"] = float(value)
            elif key == "c":
                args["c"] = float(value)
            elif key == "prior":
                args["prior"] = int(value)
            elif key == "guide":
                args["guide"] = value
            elif key == "others":
                args["others"] = value
            elif key == "anchor":
                args["anchor"] = float(value)
            elif key == "belief":
                args["belief"] = int(value)
            elif key == "rollout":
                args["rollout"] = value
            elif key == "paired":
                args["paired"] = bool(int(value))
            elif key == "cut":
                args["cut"] = int(value)
            else:
                raise ValueError
        except ValueError:
            raise DeathNoteError(
                f"bad ismcts setting {setting!r} in {name!r}: use sims=N, seconds=S, "
                "rollout=random|heuristic|game, c=X, prior=N, guide=root|tree or "
                "others=game|tree|policy, anchor=M, belief=K, paired=0|1, cut=K, "
                "e.g. ismcts:sims=500:rollout=heuristic"
            ) from None
    return IsmctsAgent(seat, game_id, **args)
