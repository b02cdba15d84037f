"""Engine throughput: random playouts, whole games, layout scoring (issue 2, item 8).

Prints medians of several runs on one core (the process is pinned to one CPU where the
OS allows it). Usage: ``python benchmarks/engine.py [--runs 7] [--games 40] [--players 4]``.

- moves/s: every ``apply`` in random playouts, each player move chosen uniformly from
  ``legal_moves`` (the choice and the ``legal_moves`` call are inside the timing; chance
  events, shuffled by ``sample_chance``, are counted as moves too and reported apart);
- games/s: complete random games (3 rounds) at the given table size;
- layouts/s: ``score_layout`` over layouts taken from finished random games.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import gnoming_rules as gr


def play(rules: gr.Ruleset, players: int, rng: random.Random) -> tuple[gr.State, int, int]:
    """One random game; returns the final state, player moves and chance events applied."""
    apply, legal_moves, sample_chance, choice = (
        gr.apply,
        gr.legal_moves,
        gr.sample_chance,
        rng.choice,
    )
    state = gr.new_game(rules, players, rng.randrange(players))
    moves = chances = 0
    while not state.is_over:
        if state.is_chance:
            state = apply(rules, state, sample_chance(rules, state, rng))
            chances += 1
        else:
            state = apply(rules, state, choice(legal_moves(rules, state)))
            moves += 1
    return state, moves, chances


def bench_playouts(
    rules: gr.Ruleset, players: int, games: int, seed: int
) -> tuple[float, float, float]:
    """(moves/s all applies, player moves/s, games/s) for ``games`` random games."""
    rng = random.Random(seed)
    start = time.perf_counter()
    moves = chances = 0
    for _ in range(games):
        _, m, c = play(rules, players, rng)
        moves += m
        chances += c
    elapsed = time.perf_counter() - start
    return (moves + chances) / elapsed, moves / elapsed, games / elapsed


def bench_scoring(rules: gr.Ruleset, layouts: list[tuple[gr.Face, ...]], repeat: int) -> float:
    """Layouts scored per second."""
    score = gr.score_layout
    start = time.perf_counter()
    for _ in range(repeat):
        for layout in layouts:
            score(rules, layout)
    return repeat * len(layouts) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--ruleset", default="standard")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rules = gr.load_ruleset(args.ruleset)

    bench_playouts(rules, args.players, 5, seed=0)  # warm-up: compiled tables, caches
    runs = [bench_playouts(rules, args.players, args.games, seed=run) for run in range(args.runs)]
    all_moves = statistics.median(r[0] for r in runs)
    player_moves = statistics.median(r[1] for r in runs)
    games = statistics.median(r[2] for r in runs)

    rng = random.Random(99)
    layouts = [layout for _ in range(50) for layout in play(rules, args.players, rng)[0].cards]
    scored = statistics.median(bench_scoring(rules, layouts, 20) for _ in range(args.runs))

    print(f"ruleset {args.ruleset}, {args.players} players, median of {args.runs} runs, one core")
    print(
        f"random playouts: {all_moves:,.0f} moves/s applied "
        f"({player_moves:,.0f} player moves/s, chance events excluded)"
    )
    print(
        f"complete random games: {games:,.1f} games/s ({args.players} players, "
        f"{rules.rounds} rounds)"
    )
    print(f"layout scoring: {scored:,.0f} layouts/s ({len(layouts)} layouts from random games)")


if __name__ == "__main__":
    main()
