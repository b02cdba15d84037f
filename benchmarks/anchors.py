"""The project's speed beside well-known game engines, in one process (issue 20).

Usage: ``python benchmarks/anchors.py [--runs 5] [--seconds 1] [--players 4]
[--corpus 1000]``. Needs the ``rl`` extra (OpenSpiel) and the ``bench`` extra
(python-chess). Each measure runs for about ``--seconds`` of the process's CPU time
(``time.process_time``), the measures interleaved (A B C ... A B C ...) ``--runs``
times, on one core; the median is printed, then the ratios that the issue's targets are
set in. ``gnoming_rules.COMPILED`` says which engine ran (``make bench-anchors`` runs
the compiled core, then the pure one).

- ``gnoming playout``: random playouts with standard rules, every ``apply`` counted
  (player moves chosen uniformly from ``legal_moves``, chance events from
  ``sample_chance``), as ``benchmarks/engine.py`` does;
- ``gnoming validation``: ``gnoming validate``'s one-core path (read the file, parse,
  replay, check every claim) over records the greedy bots played, moves/s, as
  ``benchmarks/records.py`` does;
- ``openspiel crazy_eights`` and ``openspiel hearts``: OpenSpiel's C++ games with their
  default parameters, driven from Python the same way: a random legal action at each
  player node, a random outcome (by its probability) at each chance node, every
  ``apply_action`` counted;
- ``validate, one core`` and ``validate --jobs 2``: ``gnoming validate``'s path over a
  tournament-sized corpus (``--corpus``, 1,000 records of the greedy bots by default),
  files to verdicts, by wall clock with every CPU allowed (the other measures run on
  one), as ``benchmarks/records.py`` times them: their ratio is issue 20's ``--jobs 2``
  target. Their time includes forking the worker and waiting for it, a fixed cost that
  a small corpus pays on a larger share (``records.py`` shows it at 300 records);
- ``chess playout``: python-chess random games (``board.legal_moves``, ``push``; a game
  ends at its end or after 200 plies), moves/s;
- ``chess push_san``: replaying games written in SAN with ``push_san`` (which checks
  each move is legal), the chess counterpart of validating a record, moves/s;
- ``pettingzoo raw`` and ``openspiel adapter``: the framework adapters' steps/s under
  uniform-random legal play, the loops of ``benchmarks/adapters.py`` (PettingZoo's
  ``agent_iter``/``last``/``step`` on ``raw_env``; OpenSpiel's ``apply_action`` on the
  registered game, chance nodes one card each).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gnoming_rules as gr
from gnoming_rules.formats.record import write_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.batch import check_file

Measure = Callable[[float], float]
"""Runs for about the given CPU seconds; returns steps per second."""

ADAPTERS = ("pettingzoo raw", "openspiel adapter")
"""The measures that count an adapter's steps (a PettingZoo ``step``, an OpenSpiel
``apply_action``, a chance card included) rather than the engine's moves."""

TARGETS = {"gnoming validation": 600_000, "pettingzoo raw": 150_000, "openspiel adapter": 250_000}
"""Issue 20's floors besides the playout's, per measure (moves or steps per second)."""

CHESS_PLIES = 200
"""A random chess game stops here if it has not ended (most would run to the 50-move rule)."""


def gnoming_playout(rules: gr.Ruleset, players: int) -> Measure:
    def run(seconds: float) -> float:
        rng = random.Random(1)
        apply, legal_moves, sample_chance, choice = (
            gr.apply,
            gr.legal_moves,
            gr.sample_chance,
            rng.choice,
        )
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            state = gr.new_game(rules, players, rng.randrange(players))
            while not state.is_over:
                if state.is_chance:
                    state = apply(rules, state, sample_chance(rules, state, rng))
                else:
                    state = apply(rules, state, choice(legal_moves(rules, state)))
                steps += 1
        return steps / (time.process_time() - start)

    return run


def gnoming_validation(folder: Path, records: int) -> Measure:
    """Validates records of standard games (3 to 7 players, every claim) from files."""
    rules = gr.load_ruleset("standard")
    corpus: list[tuple[str, int]] = []
    for index in range(records):
        record, _ = play_game(rules, 3 + index % 5, seed=index)
        path = folder / f"game-{index:04d}.json"
        write_record(record, path)
        corpus.append((str(path), sum(len(round_.moves) for round_ in record.rounds)))

    def run(seconds: float) -> float:
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            for path, moves in corpus:
                report = check_file(path, None, True)
                if report.status:
                    raise SystemExit(f"{path}: not valid: {report.text}")
                steps += moves
        return steps / (time.process_time() - start)

    return run


def openspiel_game(name: str) -> Measure:
    import pyspiel

    game = pyspiel.load_game(name)

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


def _random_chess_game(chess: Any, rng: random.Random) -> list[str]:
    """One random game's moves in SAN."""
    board, moves = chess.Board(), list[str]()
    while len(moves) < CHESS_PLIES and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        moves.append(board.san(move))
        board.push(move)
    return moves


def chess_playout() -> Measure:
    import chess

    def run(seconds: float) -> float:
        rng = random.Random(5)
        choice = rng.choice
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            board, plies = chess.Board(), 0
            while plies < CHESS_PLIES and not board.is_game_over():
                board.push(choice(list(board.legal_moves)))
                plies += 1
            steps += plies
        return steps / (time.process_time() - start)

    return run


def chess_push_san(games: int) -> Measure:
    import chess

    rng = random.Random(6)
    corpus = [_random_chess_game(chess, rng) for _ in range(games)]

    def run(seconds: float) -> float:
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            for moves in corpus:
                board = chess.Board()
                for san in moves:
                    board.push_san(san)
                steps += len(moves)
        return steps / (time.process_time() - start)

    return run


def _benchmark(name: str) -> Any:
    """Another benchmark script of this folder (``adapters``, the one home of the adapters'
    loops; ``records``, of the validation corpus and its timings), loaded from its file
    (the benchmarks are scripts, not a package, and ``make bench-anchors`` runs with
    ``PYTHONSAFEPATH``, which keeps this folder off the path)."""
    spec = importlib.util.spec_from_file_location(
        f"gnoming_{name}_benchmark", Path(__file__).with_name(f"{name}.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def gnoming_files(
    records: Any, corpus: tuple[list[Path], int], jobs: int, cpus: set[int]
) -> Measure:
    """``gnoming validate --jobs N`` (``jobs``; 1: this process alone) over ``corpus`` (its
    paths, their moves), moves/s by wall clock, every pass whole, with this process allowed
    ``cpus`` meanwhile (the pool never starts more processes than the CPUs allowed)."""
    paths, moves = corpus

    def run(seconds: float) -> float:
        pinned = os.sched_getaffinity(0) if hasattr(os, "sched_setaffinity") else None
        if pinned is not None:
            os.sched_setaffinity(0, cpus)
        try:
            elapsed, passes = 0.0, 0
            while passes == 0 or elapsed < seconds:
                elapsed += records.one_core(paths) if jobs == 1 else records.many_cores(paths, jobs)
                passes += 1
        finally:
            if pinned is not None:
                os.sched_setaffinity(0, pinned)
        return passes * moves / elapsed

    return run


def _ratio(results: dict[str, float], top: str, bottom: str) -> str:
    return f"  {top} / {bottom}: {results[top] / results[bottom]:.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--records", type=int, default=40, help="records validated per pass")
    parser.add_argument(
        "--corpus", type=int, default=1000, help="records of the --jobs 2 and one-core passes"
    )
    arguments = parser.parse_args()
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(cpus)})
    rules = gr.load_ruleset("standard")
    loops, records = _benchmark("adapters"), _benchmark("records")
    from gnoming_rules.adapters import pettingzoo_env

    with tempfile.TemporaryDirectory() as folder:
        corpus_folder = Path(folder) / "corpus"
        corpus_folder.mkdir()
        corpus = records.make_corpus(corpus_folder, arguments.corpus, claims=True)
        found: dict[str, Measure] = {
            "gnoming playout": gnoming_playout(rules, arguments.players),
            "openspiel crazy_eights": openspiel_game("crazy_eights"),
            "openspiel hearts": openspiel_game("hearts"),
            "gnoming validation": gnoming_validation(Path(folder), arguments.records),
            "validate, one core": gnoming_files(records, corpus, 1, cpus),
            "validate --jobs 2": gnoming_files(records, corpus, 2, cpus),
            "chess playout": chess_playout(),
            "chess push_san": chess_push_san(20),
            "pettingzoo raw": loops.aec_loop(
                lambda: pettingzoo_env.raw_env("standard", arguments.players)
            ),
            "openspiel adapter": loops.openspiel_loop("standard", arguments.players),
        }
        for measure in found.values():  # warm up: rulesets loaded, caches filled
            measure(0.05)
        runs: dict[str, list[float]] = {name: [] for name in found}
        for _ in range(arguments.runs):
            for name, measure in found.items():
                runs[name].append(measure(arguments.seconds))
    build = "compiled with mypyc" if gr.COMPILED else "pure Python"
    print(
        f"gnoming-rules {gr.__version__} ({build}); standard rules, {arguments.players} players; "
        f"median of {arguments.runs} interleaved runs of {arguments.seconds:g} s CPU, one core "
        f"(the validate measures: wall clock, {len(cpus)} CPUs, {arguments.corpus:,} records); "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    medians = {name: statistics.median(values) for name, values in runs.items()}
    for name, values in runs.items():
        spread = f"{min(values):,.0f} to {max(values):,.0f}"
        unit = "steps/s" if name in ADAPTERS else "moves/s"
        print(f"  {name:24} {medians[name]:>11,.0f} {unit}   ({spread})")
    print("ratios:")
    print(_ratio(medians, "gnoming playout", "openspiel crazy_eights"))
    print(_ratio(medians, "gnoming playout", "openspiel hearts"))
    print(_ratio(medians, "gnoming playout", "chess playout"))
    print(_ratio(medians, "gnoming validation", "chess push_san"))
    print(_ratio(medians, "openspiel adapter", "openspiel crazy_eights"))
    print(_ratio(medians, "validate --jobs 2", "validate, one core"))
    print("issue 20's targets (compiled core):")
    playout = medians["gnoming playout"]
    checks = [
        ("playout >= 1,000,000 moves/s", playout >= 1_000_000),
        ("playout >= 1.5x crazy_eights", playout >= 1.5 * medians["openspiel crazy_eights"]),
        *((f"{name} >= {floor:,}", medians[name] >= floor) for name, floor in TARGETS.items()),
        (
            "validate --jobs 2 >= 1.7x one core",
            medians["validate --jobs 2"] >= 1.7 * medians["validate, one core"],
        ),
    ]
    for label, met in checks:
        print(f"  {label:40} {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
