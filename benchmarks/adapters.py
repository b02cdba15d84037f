"""Steps per second of the framework adapters under uniform-random legal play (issue 12).

Usage: ``python benchmarks/adapters.py [--runs 5] [--seconds 2] [--players 4] [--only
NAME]``. ``--only`` (repeatable) keeps the measures whose name starts with ``NAME``. Each
measure runs for about ``--seconds`` of the process's CPU time (``time.process_time``:
on a shared machine, less sensitive than the wall clock to other processes) and is
repeated ``--runs`` times, the measures interleaved (A B C ... A B C ...); the median
is printed. In the same run, as the
scale the targets are set against:

- ``referee``: the library's own playout loop (``legal_moves`` + ``apply``), moves/s;
- ``leduc_holdem_v4`` and ``texas_holdem_v4``: PettingZoo's classic card games (they
  need rlcard: ``pip install 'pettingzoo[classic]'``, the ``rl-bench`` extra), with the
  same loop as the PettingZoo adapter.

The adapters: ``pettingzoo raw`` (``raw_env``) and ``pettingzoo wrapped`` (``env``: with
PettingZoo's checking wrappers) count ``step`` calls of live agents, each with its
``last()`` observation and a random legal action from the mask; ``openspiel`` counts
``apply_action`` calls of the random-simulation loop (chance nodes, one card each, and
player moves); ``gymnasium`` counts ``step`` calls of one seat against random bots (a
step includes the bots' moves up to the seat's next turn).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import gnoming_rules as gr

Measure = Callable[[float], float]
"""Runs for about the given seconds; returns steps per second."""


def referee(rules: gr.Ruleset, players: int) -> Measure:
    def run(seconds: float) -> float:
        rng = random.Random(1)
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            state = gr.new_game(rules, players)
            while not state.is_over:
                if state.is_chance:
                    state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
                else:
                    state = gr.apply(rules, state, rng.choice(gr.legal_moves(rules, state)))
                steps += 1
        return steps / (time.process_time() - start)

    return run


def aec_loop(make: Callable[[], Any]) -> Measure:
    """PettingZoo's usual loop: ``agent_iter``, ``last``, a random legal action, ``step``."""

    def run(seconds: float) -> float:
        env = make()
        rng = random.Random(2)
        steps, games, start = 0, 0, time.process_time()
        while time.process_time() - start < seconds:
            env.reset(seed=games)
            games += 1
            for _ in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps / (time.process_time() - start)

    return run


def openspiel_loop(ruleset: str, players: int) -> Measure:
    import pyspiel

    from gnoming_rules.adapters.openspiel_game import GAME_NAME

    game = pyspiel.load_game(GAME_NAME, {"ruleset": ruleset, "players": players})

    def run(seconds: float) -> float:
        rng = random.Random(3)
        choices, choice = rng.choices, rng.choice
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(choices(actions, probabilities)[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                steps += 1
        return steps / (time.process_time() - start)

    return run


def gymnasium_loop(ruleset: str, players: int) -> Measure:
    from gnoming_rules.adapters.gymnasium_env import GnomingGymEnv

    def run(seconds: float) -> float:
        env = GnomingGymEnv(ruleset, players, bots="random")
        rng = random.Random(4)
        steps, games, start = 0, 0, time.process_time()
        while time.process_time() - start < seconds:
            observation, _ = env.reset(seed=games)
            games += 1
            while True:
                legal = np.flatnonzero(observation["action_mask"])
                observation, _, terminated, truncated, _ = env.step(
                    int(legal[rng.randrange(len(legal))])
                )
                steps += 1
                if terminated or truncated:
                    break
        return steps / (time.process_time() - start)

    return run


def measures(ruleset: str, players: int) -> dict[str, Measure]:
    from gnoming_rules.adapters import pettingzoo_env

    rules = gr.load_ruleset(ruleset)
    found: dict[str, Measure] = {
        "referee (moves/s)": referee(rules, players),
        "pettingzoo raw": aec_loop(lambda: pettingzoo_env.raw_env(ruleset, players)),
        "pettingzoo wrapped": aec_loop(lambda: pettingzoo_env.env(ruleset, players)),
        "openspiel": openspiel_loop(ruleset, players),
        "gymnasium": gymnasium_loop(ruleset, players),
    }
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except Exception as missing:  # rlcard absent: say so, measure the rest
        print(f"PettingZoo's classic card games are not installed here: {missing}")
    else:
        found["leduc_holdem_v4"] = aec_loop(leduc_holdem_v4.env)
        found["texas_holdem_v4"] = aec_loop(texas_holdem_v4.env)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        help="run only the measures whose name starts with NAME (repeatable)",
    )
    arguments = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    found = measures(arguments.ruleset, arguments.players)
    if arguments.only:
        found = {
            name: measure
            for name, measure in found.items()
            if any(name.startswith(prefix) for prefix in arguments.only)
        }
        if not found:
            parser.error(f"--only {arguments.only}: no measure has such a name")
    results: dict[str, list[float]] = {name: [] for name in found}
    for _ in range(arguments.runs):
        for name, measure in found.items():
            results[name].append(measure(arguments.seconds))
    print(f"{arguments.ruleset}, {arguments.players} players, median of {arguments.runs} runs:")
    for name, values in results.items():
        spread = f"{min(values):,.0f} to {max(values):,.0f}"
        print(f"  {name:22} {statistics.median(values):>10,.0f} steps/s   ({spread})")


if __name__ == "__main__":
    main()
