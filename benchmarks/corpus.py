"""Corpora at scale: make a folder of bot games, and time validating it three ways.

``make DIR`` writes ``--records`` games played by the greedy bots (3 to 7 players, every
claim written, as ``gnoming play`` writes them), spread over ``--jobs`` processes; every
``--invalid-every``-th record gets one false claim (a round's score, or a drawn card), so
that a corpus holds a few invalid records, as a tournament's would.

``validate [DIR]`` times ``gnoming validate``'s own paths over a corpus (a fresh one of
``--records`` in a temporary folder when no DIR is given), in records per second: one
process (``--jobs 1``), ``--jobs 2`` worker processes (pool start-up included) and a local
Dask cluster of two worker processes, its start-up timed on its own. The runs alternate
(A B C A B C ...) and the medians are printed; the machine's load moves absolute numbers,
so compare the ratios. It also checks that the three give identical reports, in order.

    python benchmarks/corpus.py make /tmp/corpus --records 10000 --jobs 2
    python benchmarks/corpus.py validate /tmp/corpus --runs 3 [--limit 2000]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import gnoming_rules as gr
from gnoming_rules.formats.record import Record, write_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.batch import FileReport, check_files, record_files


def corrupt(record: Record, index: int) -> Record:
    """The record with one false claim: a round's score, or the card of a draw."""
    data = record.model_dump(mode="json", exclude_none=True)
    last = data["rounds"][-1]
    if index % 2 and "scores" in last:
        last["scores"][0] += 1
    else:
        for move in last["moves"]:
            if move["action"] == "draw" and "card" in move:
                move["card"] = 99
                break
    return Record.model_validate(data)


def _make_one(task: tuple[str, int, int]) -> int:
    folder, index, invalid_every = task
    rules = gr.load_ruleset("standard")
    record, _ = play_game(rules, 3 + index % 5, seed=index)
    if invalid_every and index % invalid_every == invalid_every - 1:
        record = corrupt(record, index // invalid_every)
    write_record(record, Path(folder) / f"game-{index:05d}.json")
    return index


def make_corpus(folder: Path, count: int, *, jobs: int = 1, invalid_every: int = 0) -> None:
    """``count`` seeded bot games in ``folder`` as ``game-NNNNN.json``, by ``jobs`` processes."""
    folder.mkdir(parents=True, exist_ok=True)
    tasks = [(str(folder), index, invalid_every) for index in range(count)]
    start = time.perf_counter()
    if jobs <= 1:
        done = map(_make_one, tasks)
        for number, _ in enumerate(done, 1):
            _tick(number, count, start)
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for number, _ in enumerate(pool.imap_unordered(_make_one, tasks, chunksize=16), 1):
                _tick(number, count, start)
    print(f"\n{count} records in {time.perf_counter() - start:.0f} s in {folder}")


def _tick(done: int, total: int, start: float) -> None:
    if done % 100 == 0 or done == total:
        rate = done / (time.perf_counter() - start)
        print(f"\r{done}/{total} records, {rate:.1f}/s", end="", file=sys.stderr, flush=True)


def _serial(files: list[Path]) -> tuple[float, list[FileReport]]:
    start = time.perf_counter()
    reports = list(check_files(files, jobs=1, as_json=True))
    return time.perf_counter() - start, reports


def _pool(files: list[Path], jobs: int) -> tuple[float, list[FileReport]]:
    start = time.perf_counter()
    reports = list(check_files(files, jobs=jobs, as_json=True))
    return time.perf_counter() - start, reports


def _dask(files: list[Path], workers: int) -> tuple[float, float, list[FileReport]]:
    """(start-up seconds, validation seconds, reports) on a fresh local cluster."""
    from gnoming_rules.corpus.distributed import DaskValidator

    start = time.perf_counter()
    with DaskValidator(workers=workers) as validator:
        validator.wait_for_workers()
        ready = time.perf_counter()
        reports = list(validator.check_files(files, as_json=True))
        done = time.perf_counter()
    return ready - start, done - ready, reports


def bench(files: list[Path], runs: int, jobs: int) -> int:
    """Alternate the three ways ``runs`` times; print the medians and check the reports agree."""
    print(f"corpus: {len(files)} records; load average {os.getloadavg()[0]:.2f} "
          f"({os.cpu_count()} cores)")  # fmt: skip
    serial, pool, cluster, startup = [], [], [], []
    expected: list[FileReport] | None = None
    for run in range(runs):
        seconds, reports = _serial(files)
        serial.append(len(files) / seconds)
        expected = expected or reports
        seconds, reports = _pool(files, jobs)
        pool.append(len(files) / seconds)
        same_pool = reports == expected
        began, seconds, reports = _dask(files, jobs)
        startup.append(began)
        cluster.append(len(files) / seconds)
        same_dask = reports == expected
        print(
            f"run {run + 1}: --jobs 1 {serial[-1]:,.0f}/s, --jobs {jobs} {pool[-1]:,.0f}/s, "
            f"dask {cluster[-1]:,.0f}/s after {began:.1f} s start-up; identical reports: "
            f"pool {same_pool}, dask {same_dask}"
        )
        if not (same_pool and same_dask):
            return 1
    one = statistics.median(serial)
    print(f"--jobs 1: median {one:,.0f} records/s")
    print(f"--jobs {jobs}: median {statistics.median(pool):,.0f} records/s "
          f"({statistics.median(pool) / one:.2f}x)")  # fmt: skip
    print(f"dask, {jobs} local workers: median {statistics.median(cluster):,.0f} records/s "
          f"({statistics.median(cluster) / one:.2f}x), start-up median "
          f"{statistics.median(startup):.1f} s")  # fmt: skip
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make", help="write a corpus of bot games")
    make.add_argument("folder", type=Path)
    make.add_argument("--records", type=int, default=10_000)
    make.add_argument("--jobs", type=int, default=2)
    make.add_argument("--invalid-every", type=int, default=50, help="0: every record valid")
    timing = commands.add_parser("validate", help="time --jobs 1, --jobs N and a Dask cluster")
    timing.add_argument("folder", type=Path, nargs="?")
    timing.add_argument("--records", type=int, default=500, help="without a folder")
    timing.add_argument("--runs", type=int, default=3)
    timing.add_argument("--limit", type=int, default=None, help="only the first N records")
    timing.add_argument("--jobs", type=int, default=2, help="pool processes and Dask workers")
    args = parser.parse_args(argv)
    if args.command == "make":
        make_corpus(args.folder, args.records, jobs=args.jobs, invalid_every=args.invalid_every)
        return 0
    if args.folder is not None:
        return bench(record_files([args.folder])[: args.limit], args.runs, args.jobs)
    with tempfile.TemporaryDirectory() as tmp:
        make_corpus(Path(tmp), args.records, jobs=args.jobs, invalid_every=50)
        return bench(record_files([tmp]), args.runs, args.jobs)


if __name__ == "__main__":
    raise SystemExit(main())
