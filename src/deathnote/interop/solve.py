"""Solving a small game exactly: its whole OpenSpiel tree as a tabular game, CFR+ on it,
and the exploitability of any policy on it, our bots' included.

Needs the ``rl`` extra. OpenSpiel's Python CFR walks the whole tree at every iteration,
cloning states as it goes; through our Python adapter every node is a fork of a match and
a view turned into JSON, so the tree is walked once (``build_tree``) and written as an
extensive-form game (Gambit's EFG text), which OpenSpiel loads as a C++ game
(``pyspiel.load_efg_game``): the same players, chance nodes, information sets, actions and
payoffs, each information set named by its number here. ``open_spiel.python.algorithms``'s
``CFRPlusSolver`` and ``exploitability.exploitability`` then run on that game.

A bot becomes a policy over the information states (``agent_policy``): at each information
set the bot is asked, in one match of that set (any: the bot sees only its seat's view, its
legal actions and worlds sampled for its seat, so the set decides its answer), ``samples``
times with different generators; its policy is the share of each answer.

The tiny variant of Confrontation (rules doc CONF-TINY-01) is the game this is made for:
``python -m deathnote.interop.solve`` prints the CFR+ curve and the bots' exploitability
and draws the curve (``--plot FILE``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from deathnote.agents import make_agent, observe
from deathnote.engine.actions import Seat
from deathnote.engine.match import Match
from deathnote.interop.openspiel import DeathNoteSpielState, spiel_name

#: the game solved by default: Confrontation's tiny variant
TINY = ("confrontation", 2, {"variant": "tiny"})


@dataclass
class InfoSet:
    """One information set of one seat: a match in it and its legal actions by number."""

    seat: Seat
    match: Match
    actions: list[int]
    #: another match of the same set, when there is one (tests: a bot answers alike)
    other: Match | None = None


@dataclass
class Tree:
    """The whole tree of a game as EFG text, with what each information set is."""

    efg: str
    infosets: list[InfoSet] = field(default_factory=list)
    nodes: int = 0
    terminals: int = 0
    chance_nodes: int = 0
    payoff_range: float = 2.0


def build_tree(
    game_id: str = TINY[0], players: int = TINY[1], options: dict[str, Any] | None = None
) -> Tree:
    """Walk every history of the game (our OpenSpiel adapter, explicit chance) once."""
    opts = dict(TINY[2] if options is None else options)
    game = pyspiel.load_game(
        spiel_name(game_id), {"players": players, "seed": 0, "options": orjson.dumps(opts).decode()}
    )
    tree = Tree(efg="", payoff_range=game.max_utility() - game.min_utility())
    index: dict[tuple[int, str], int] = {}
    per_seat: dict[int, dict[int, int]] = {}  # EFG numbers information sets per player
    lines: list[str] = []
    names = " ".join(f'"{p}"' for p in Match.create(game_id, players, 0, opts).seat_names())
    lines.append(f'EFG 2 R "{game_id} {opts}" {{ {names} }}')
    lines.append('""')
    lines.append("")
    chance_count = 0
    outcome_count = 0
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

    def walk(state: Any) -> None:
        nonlocal chance_count, outcome_count
        tree.nodes += 1
        if state.is_terminal():
            tree.terminals += 1
            outcome_count += 1
            pay = " ".join(f"{v:.17g}" for v in state.returns())
            lines.append(f't "" {outcome_count} "" {{ {pay} }}')
            return
        if state.is_chance_node():
            tree.chance_nodes += 1
            chance_count += 1
            outcomes = state.chance_outcomes()
            body = " ".join(f'"o{a}" {p:.17g}' for a, p in outcomes)
            lines.append(f'c "" {chance_count} "" {{ {body} }} 0')
            for a, _p in outcomes:
                walk(state.child(a))
            return
        seat = state.current_player()
        key = (seat, state.information_state_string(seat))
        actions = state.legal_actions()
        number = index.get(key)
        assert isinstance(state, DeathNoteSpielState)
        if number is None:
            number = index[key] = len(tree.infosets)
            tree.infosets.append(InfoSet(seat, state.match, list(actions)))
        elif tree.infosets[number].other is None:
            tree.infosets[number].other = state.match
        own = per_seat.setdefault(seat, {})
        local = own.setdefault(number, len(own) + 1)
        body = " ".join(f'"a{a}"' for a in actions)
        lines.append(f'p "" {seat + 1} {local} "i{number}" {{ {body} }} 0')
        for a in actions:
            walk(state.child(a))

    walk(game.new_initial_state())
    tree.efg = "\n".join(lines) + "\n"
    return tree


def load(tree: Tree) -> pyspiel.Game:
    """The tree as an OpenSpiel (C++) game."""
    return pyspiel.load_efg_game(tree.efg)


def _infoset_numbers(efg: pyspiel.Game) -> dict[str, int]:
    """Each information state string of the EFG game -> our information set number."""
    found: dict[str, int] = {}

    def walk(state: Any) -> None:
        if state.is_terminal():
            return
        if not state.is_chance_node():
            key = state.information_state_string()
            if key not in found:
                found[key] = int(key.rsplit("i", 1)[1]) if "i" in key else -1
        for a in state.legal_actions():
            walk(state.child(a))

    walk(efg.new_initial_state())
    return found


def cfr_plus_curve(
    efg: pyspiel.Game,
    iterations: int,
    every: int = 10,
    report: Callable[[int, float], None] | None = None,
) -> tuple[list[tuple[int, float]], cfr.CFRPlusSolver]:
    """Run CFR+ and measure the average policy's exploitability every ``every`` iterations."""
    solver = cfr.CFRPlusSolver(efg)
    curve: list[tuple[int, float]] = []
    for it in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if it % every == 0 or it == iterations or it == 1:
            value = float(exploitability.exploitability(efg, solver.average_policy()))
            curve.append((it, value))
            if report is not None:
                report(it, value)
    return curve, solver


def agent_policy(
    tree: Tree,
    efg: pyspiel.Game,
    agent: str,
    samples: int = 16,
    seed: int = 0,
    make: Callable[[str, Seat], Any] | None = None,
) -> policy_lib.TabularPolicy:
    """A bot as a policy of the EFG game: at each information set, the share of each of
    its answers over ``samples`` tries (one try when only one action is legal). The
    ``random`` agent is its exact policy (each legal action alike). A sampled policy is
    a little more exploitable than the bot (the best response also exploits the sampling
    noise): more ``samples`` lower the measure toward the bot's own."""
    game_id = tree.infosets[0].match.game.id if tree.infosets else TINY[0]
    build = make or (lambda name, seat: make_agent(game_id, name, seat))
    numbers = _infoset_numbers(efg)
    table = policy_lib.TabularPolicy(efg)
    if agent == "random":
        return table  # uniform over the legal actions: RandomAgent's own policy
    rng = random.Random(seed)
    for key, number in numbers.items():
        info = tree.infosets[number]
        row = table.state_lookup[key]
        probs = table.action_probability_array[row]
        probs[:] = 0.0
        legal = info.actions
        shares = _agent_shares(info, legal, agent, samples, rng, build)
        for action, share in shares.items():
            probs[_efg_action(efg, key, action)] = share
    return table


_ACTIONS: dict[int, dict[str, int]] = {}


def _efg_action(efg: pyspiel.Game, key: str, action: int) -> int:
    """The EFG game's number of our action ``action`` (by its name ``a<number>``)."""
    names = _ACTIONS.get(id(efg))
    if names is None:
        names = _ACTIONS[id(efg)] = {}
        state = efg.new_initial_state()
        # The EFG game numbers action names game-wide: read them off any player node.
        stack = [state]
        while stack:
            s = stack.pop()
            if s.is_terminal():
                continue
            for a in s.legal_actions():
                if not s.is_chance_node():
                    names[s.action_to_string(s.current_player(), a)] = a
                stack.append(s.child(a))
    return names[f"a{action}"]


class AgentPolicy(policy_lib.Policy):
    """One of our bots as an OpenSpiel policy of our adapter's game (``deathnote_<id>``):
    at a state, the share of each answer the bot gives over ``samples`` tries, asked with
    only what the seat to move may know (its view, legal actions and worlds sampled for
    it). Cached by the seat's information state, so the policy is one per information set.
    """

    def __init__(self, game: pyspiel.Game, agent: str, samples: int = 16, seed: int = 0) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.agent = agent
        self.samples = samples
        self.rng = random.Random(seed)
        self.cache: dict[tuple[int, str], dict[int, float]] = {}

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        """The bot's answers at ``state`` (an information set's), as probabilities."""
        seat = state.current_player() if player_id is None else player_id
        key = (seat, state.information_state_string(seat))
        hit = self.cache.get(key)
        if hit is None:
            match = state.match
            info = InfoSet(seat, match, list(state.legal_actions(seat)))
            hit = self.cache[key] = _agent_shares(
                info,
                info.actions,
                self.agent,
                self.samples,
                self.rng,
                lambda name, s: make_agent(match.game.id, name, s),
            )
        return dict(hit)


def _agent_shares(
    info: InfoSet,
    legal: Sequence[int],
    agent: str,
    samples: int,
    rng: random.Random,
    build: Callable[[str, Seat], Any],
) -> dict[int, float]:
    if len(legal) == 1:
        return {legal[0]: 1.0}
    match = info.match
    counts: dict[int, int] = {}
    for _ in range(samples):
        bot = build(agent, info.seat)
        if hasattr(bot, "_rng"):
            bot._rng = random.Random(rng.getrandbits(62))
        obs = observe(match, info.seat, random.Random(rng.getrandbits(62)))
        chosen = match.action_space.id(bot.choose(obs))
        counts[chosen] = counts.get(chosen, 0) + 1
    return {a: n / samples for a, n in counts.items()}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m deathnote.interop.solve``: the CFR+ curve on the tiny variant and the
    exploitability of our bots."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--agents", default="random,heuristic,ismcts:sims=100")
    parser.add_argument("--samples", type=int, default=32, help="tries per information set")
    parser.add_argument(
        "--search-samples",
        type=int,
        default=8,
        help="tries per information set for the search bots (ismcts...: about 2 minutes)",
    )
    parser.add_argument("--plot", default="", help="draw the curve into this PNG file")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    tree = build_tree()
    efg = load(tree)
    print(
        f"tiny Confrontation: {tree.nodes} nodes, {tree.terminals} terminals, "
        f"{tree.chance_nodes} chance nodes, {len(tree.infosets)} information sets "
        f"(built in {time.perf_counter() - start:.1f} s); payoff range {tree.payoff_range:g}"
    )
    print("CFR+ (open_spiel.python.algorithms.cfr.CFRPlusSolver): iterations, exploitability")

    def show(it: int, value: float) -> None:
        print(f"  {it:5d}  {value:.6f}  ({100 * value / tree.payoff_range:.3f}% of the range)")

    start = time.perf_counter()
    curve, solver = cfr_plus_curve(efg, args.iterations, args.every, show)
    print(f"  ({time.perf_counter() - start:.1f} s)")
    average = solver.average_policy()
    value = expected_game_score.policy_value(efg.new_initial_state(), [average, average])
    print(
        f"CFR+ average policy's value: Kira {value[0]:+.6f}, L {value[1]:+.6f} "
        f"(L wins {50 * (1 + value[1]):.1f}% of the games)"
    )
    print("Exploitability of our bots (as policies over information sets):")
    for name in [a for a in args.agents.split(",") if a]:
        start = time.perf_counter()
        tries = args.search_samples if name.startswith("ismcts") else args.samples
        table = agent_policy(tree, efg, name, tries)
        value = float(exploitability.exploitability(efg, table))
        how = "exact" if name == "random" else f"{tries} tries per set"
        print(
            f"  {name:10s} {value:.4f}  ({100 * value / tree.payoff_range:.2f}% of the range; "
            f"{how}, {time.perf_counter() - start:.0f} s)"
        )
    if args.plot:
        plot(curve, tree.payoff_range, args.plot)
        print(f"curve drawn in {args.plot}")
    return 0


def plot(curve: Sequence[tuple[int, float]], payoff_range: float, path: str) -> None:
    """The exploitability curve (log scale) with the 1%-of-the-range line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([i for i, _ in curve], [v for _, v in curve], marker=".", label="CFR+")
    ax.axhline(0.01 * payoff_range, color="grey", linestyle="--", label="1% of the payoff range")
    ax.set_yscale("log")
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability")
    ax.set_title("CFR+ on tiny Confrontation")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
