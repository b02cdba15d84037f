"""Moves validated per second, end to end: read the file, parse, replay, check every claim.

Writes a corpus of records played by the greedy bots (3 to 7 players, every claim
written, as ``gnoming play`` writes them) to a temporary folder, then times
``gnoming validate``'s own path over it: one core (in this process), and ``--jobs N``
processes (forking the workers included), alternately. Then the same games in their public
form (``redact``: no deal, a card named wherever one became visible), on one core. Prints
the median of several runs, and the CPU time of ``--jobs N`` (this process's and its
workers') over one core's: the overhead of spreading the work, which wall-clock time on a
loaded machine hides.

    python benchmarks/records.py [--records 300] [--runs 5] [--jobs 2] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import gnoming_rules as gr
from gnoming_rules.formats.record import Record, read_record, write_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.batch import check_file, check_files
from gnoming_rules.referee.redact import redact


def make_corpus(folder: Path, count: int, *, claims: bool) -> tuple[list[Path], int]:
    """``count`` complete standard games as JSON files; returns the paths and total moves."""
    rules = gr.load_ruleset("standard")
    paths, moves = [], 0
    for index in range(count):
        players = 3 + index % 5
        record, _ = play_game(rules, players, seed=index, claims=claims)
        path = folder / f"game-{index:05d}.json"
        write_record(record, path)
        paths.append(path)
        moves += sum(len(round_.moves) for round_ in record.rounds)
    return paths, moves


def public_corpus(folder: Path, paths: list[Path]) -> list[Path]:
    """The public form of every record of ``paths``, written into ``folder``."""
    public = []
    for path in paths:
        full = read_record(path)
        assert isinstance(full, Record)
        target = folder / f"public-{path.name}"
        write_record(redact(full), target)
        public.append(target)
    return public


def one_core(paths: list[Path]) -> float:
    """Seconds to validate every file in this process, as ``--jobs 1`` does."""
    start = time.perf_counter()
    for path in paths:
        report = check_file(str(path), None, True)
        if report.status:
            raise SystemExit(f"{path}: not valid: {report.text}")
    return time.perf_counter() - start


def many_cores(paths: list[Path], jobs: int) -> float:
    """Seconds to validate every file with ``jobs`` worker processes (start-up included)."""
    start = time.perf_counter()
    for report in check_files(paths, jobs=jobs, as_json=True):
        if report.status:
            raise SystemExit(f"{report.path}: not valid: {report.text}")
    return time.perf_counter() - start


def cpu_seconds(who: int) -> float:
    """The user and system CPU time of this process (``RUSAGE_SELF``) or of its children."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def page_faults(who: int) -> int:
    """The minor page faults of this process or of its children: after a fork, the first
    write to each page that the processes share (copy-on-write)."""
    return resource.getrusage(who).ru_minflt


def _runs(rates: list[float]) -> str:
    return ", ".join(f"{rate:,.0f}" for rate in rates)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=300, help="records in the corpus")
    parser.add_argument("--runs", type=int, default=5, help="timed runs; the median is shown")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the 2nd run")
    parser.add_argument("--no-claims", action="store_true", help="records without card claims")
    parser.add_argument("--profile", action="store_true", help="profile one single-core run")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        paths, moves = make_corpus(Path(tmp), args.records, claims=not args.no_claims)
        size = sum(path.stat().st_size for path in paths)
        print(
            f"corpus: {len(paths)} records, {moves} moves, {size / 1e6:.1f} MB of JSON "
            f"(claims {'off' if args.no_claims else 'on'})"
        )
        print(f"load average before the runs: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
        one_core(paths[:20])  # warm up: rulesets loaded, caches filled
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            one_core(paths)
            profiler.disable()
            pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)
        public = public_corpus(Path(tmp), paths)
        one_core(public[:20])
        single, multi, hidden = [], [], []
        parent, workers, alone = [], [], []  # CPU seconds
        faults: list[tuple[int, int, int]] = []  # one core, this process, the workers
        for _ in range(args.runs):  # alternated, so that a change of load hits each alike
            before = cpu_seconds(resource.RUSAGE_SELF)
            faulted = page_faults(resource.RUSAGE_SELF)
            single.append(moves / one_core(paths))
            between = cpu_seconds(resource.RUSAGE_SELF)
            children = cpu_seconds(resource.RUSAGE_CHILDREN)
            faulted_between = page_faults(resource.RUSAGE_SELF)
            faulted_children = page_faults(resource.RUSAGE_CHILDREN)
            multi.append(moves / many_cores(paths, args.jobs))
            parent.append(cpu_seconds(resource.RUSAGE_SELF) - between)
            workers.append(cpu_seconds(resource.RUSAGE_CHILDREN) - children)
            alone.append(between - before)
            faults.append(
                (
                    faulted_between - faulted,
                    page_faults(resource.RUSAGE_SELF) - faulted_between,
                    page_faults(resource.RUSAGE_CHILDREN) - faulted_children,
                )
            )
            hidden.append(moves / one_core(public))
        load = os.getloadavg()[0]
    best, many = statistics.median(single), statistics.median(multi)
    seen = statistics.median(hidden)
    one, mine, theirs = (statistics.median(times) for times in (alone, parent, workers))
    total = statistics.median(p + w for p, w in zip(parent, workers, strict=True))
    print(f"one core:  median {best:,.0f} moves/s (runs: {_runs(single)})")
    print(f"--jobs {args.jobs}: median {many:,.0f} moves/s (runs: {_runs(multi)})")
    print(f"--jobs {args.jobs} / one core: {many / best:.2f}x (load average after: {load:.2f})")
    print(
        f"CPU, medians: one core {one:.3f} s; --jobs {args.jobs}: this process {mine:.3f} s + "
        f"workers {theirs:.3f} s, all {total / one:.2f}x one core's"
    )
    lone, here, there = (statistics.median(run[kind] for run in faults) for kind in range(3))
    print(
        f"minor page faults, medians: one core {lone:,.0f}; --jobs {args.jobs}: "
        f"this process {here:,.0f} + workers {there:,.0f}"
    )
    print(f"public records, one core: median {seen:,.0f} moves/s (runs: {_runs(hidden)})")
    print(f"public / full, one core: {seen / best:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
