"""Train OpenSpiel's tabular Q-learner as L on tiny Confrontation, then test it against a
random Kira and compare with a random L (a 95% interval for each win rate and for the gain).

    pip install -e .[rl]
    python examples/train_tiny_qlearning.py --episodes 10000 --games 2000

The game is our OpenSpiel adapter (``deathnote_confrontation`` with the ``tiny`` variant,
rules doc CONF-TINY-01); the learner is ``open_spiel.python.algorithms.tabular_qlearner``
keyed by L's information-state tensor, the opponent OpenSpiel's ``RandomAgent``; both go
through OpenSpiel's ``rl_environment`` (it draws the chance nodes: the deal).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent, tabular_qlearner

import deathnote.interop.openspiel  # noqa: F401  (registers the deathnote_* games)

KIRA, L = 0, 1


def make_env(seed: int) -> rl_environment.Environment:
    """Tiny Confrontation as an OpenSpiel RL environment."""
    return rl_environment.Environment(
        "deathnote_confrontation",
        chance_event_sampler=rl_environment.ChanceEventSampler(seed),
        options='{"variant": "tiny"}',
        seed=seed,
    )


def play(env: rl_environment.Environment, agents: list, learn: bool) -> float:
    """One episode; L's return (+1 win, -1 loss)."""
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        out = agents[seat].step(step, is_evaluation=not learn)
        step = env.step([out.action])
    for agent in agents:  # the learner sees the final reward
        agent.step(step, is_evaluation=not learn)
    return float(step.rewards[L])


def win_rate(env: rl_environment.Environment, agents: list, games: int) -> tuple[float, float]:
    """L's win rate over ``games`` and the half-width of its 95% interval."""
    wins = sum(play(env, agents, learn=False) > 0 for _ in range(games))
    p = wins / games
    return p, 1.96 * math.sqrt(p * (1 - p) / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = make_env(args.seed)
    actions = env.action_spec()["num_actions"]
    np.random.seed(args.seed)  # the random agents and the learner's exploration draw here
    learner = tabular_qlearner.QLearner(L, actions, step_size=0.1)
    kira = random_agent.RandomAgent(KIRA, actions)
    start = time.perf_counter()
    for _ in range(args.episodes):
        play(env, [kira, learner], learn=True)
    trained = time.perf_counter() - start
    base = random_agent.RandomAgent(L, actions)
    p_base, h_base = win_rate(env, [kira, base], args.games)
    p_q, h_q = win_rate(env, [kira, learner], args.games)
    gain, h_gain = p_q - p_base, math.hypot(h_q, h_base)
    print(f"trained {args.episodes} episodes in {trained:.0f} s")
    print(f"random L    vs random Kira: {100 * p_base:.1f}% +- {100 * h_base:.1f} (95%)")
    print(f"Q-learned L vs random Kira: {100 * p_q:.1f}% +- {100 * h_q:.1f} (95%)")
    print(
        f"gain: {100 * gain:+.1f} points, 95% interval [{100 * (gain - h_gain):+.1f}, "
        f"{100 * (gain + h_gain):+.1f}]: {'beats' if gain - h_gain > 0 else 'does not beat'} "
        "the random agent"
    )


if __name__ == "__main__":
    main()
