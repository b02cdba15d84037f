"""Validating many record files: walking folders, and spreading the work over processes.

Each worker process keeps its own :class:`~gnoming_rules.referee.resolver.RulesetResolver`
(caching file rulesets too: a run is short), validates whole files and sends back only
the exit status and the text to print, so the parent does almost nothing but print in
order. Small runs stay in one process: starting workers costs more than they save.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..formats.record import MAX_RECORD_BYTES
from .report import describe
from .resolver import RulesetResolver
from .validate import replay_bytes, replay_file

__all__ = [
    "RECORD_SUFFIXES",
    "SERIAL_BELOW",
    "SNIFF_BYTES",
    "STDIN",
    "FileReport",
    "Result",
    "Task",
    "available_cpus",
    "check_file",
    "check_files",
    "in_processes",
    "record_files",
]

RECORD_SUFFIXES = (".json", ".yaml", ".yml")
"""Files a folder walk picks up."""

SNIFF_BYTES = 64 * 1024
"""A folder walk reads this much of a file to see whether it is a record."""

SERIAL_BELOW = 8
"""Fewer files than this are validated in the calling process."""


@dataclass(frozen=True, slots=True)
class FileReport:
    """The outcome for one file: its exit status (0/1/2) and what to print for it."""

    path: str
    status: int
    text: str


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files to validate: each file given, and in each folder (walked in sorted order,
    dot-folders skipped) every regular ``.json``/``.yaml``/``.yml`` file that says
    ``gnoming-record`` near its top, so that rulesets and other data lying beside records
    are left alone, and a named pipe or a device (which may never finish reading) too."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if str(given) == STDIN or not path.is_dir():
            found.append(path)
            continue
        for folder, subfolders, files in os.walk(path):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            found += [
                Path(folder) / name
                for name in sorted(files)
                if name.lower().endswith(RECORD_SUFFIXES)
                and not name.startswith(".")
                and (Path(folder) / name).is_file()
                and _says_record(Path(folder) / name)
            ]
    return found


def _says_record(path: Path) -> bool:
    try:
        with path.open("rb") as stream:
            return b"gnoming-record" in stream.read(SNIFF_BYTES)
    except OSError:
        return True  # let the validator report why it cannot be read


STDIN = "-"
"""The file name that means standard input, as in ``gnoming play --out - | gnoming validate -``."""

_resolvers: dict[tuple[str, ...], RulesetResolver] = {}
"""One cache per worker process and set of trusted folders, made on first use."""


def check_file(
    path: str,
    ruleset: str | None = None,
    as_json: bool = False,
    trusted: tuple[str, ...] = (),
) -> FileReport:
    """Validate one file in this process; the text is the JSON verdict or the human report.
    ``-`` (:data:`STDIN`) is the record on standard input, read up to the size limit; it
    may name bundled and inline rulesets only (and files in ``trusted`` folders, whose
    rulesets any record may name besides those in its own folder)."""
    resolver = _resolvers.get(trusted)
    if resolver is None:
        resolver = _resolvers[trusted] = RulesetResolver(cache_files=True, trusted=trusted)
    if path == STDIN:
        # One byte past the limit is enough to refuse: an endless input is never read whole.
        data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        replay = replay_bytes(data, ruleset=ruleset, resolver=resolver)
    else:
        replay = replay_file(path, ruleset=ruleset, resolver=resolver)
    text = replay.verdict.to_json() if as_json else describe(path, replay)
    return FileReport(path, replay.verdict.exit_status, text)


def _check_task(task: tuple[str, str | None, bool, tuple[str, ...]]) -> FileReport:
    return check_file(*task)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it), else
    every CPU of the machine."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


def check_files(
    files: Sequence[Path],
    *,
    jobs: int | None = None,
    ruleset: str | None = None,
    as_json: bool = False,
    trusted: Sequence[str | Path] = (),
) -> Iterator[FileReport]:
    """Reports for ``files``, in their order, computed by ``jobs`` processes (default: the
    CPUs available), never more processes than files nor than the CPUs available (a
    larger ``jobs`` is capped: more processes than CPUs only cost memory). ``trusted``
    folders hold rulesets that any record may name."""
    folders = tuple(str(folder) for folder in trusted)
    tasks = [(str(path), ruleset, as_json, folders) for path in files]
    return in_processes(_check_task, tasks, jobs=jobs)


Task = TypeVar("Task")
Result = TypeVar("Result")


def in_processes(
    function: Callable[[Task], Result], tasks: Sequence[Task], *, jobs: int | None = None
) -> Iterator[Result]:
    """``map(function, tasks)`` in ``jobs`` forked processes (default: the CPUs available,
    and never more than those nor than the tasks), results in the order of the tasks;
    fewer than :data:`SERIAL_BELOW` tasks, or one job, run in this process. ``function``
    must be a module-level function."""
    cpus = available_cpus()
    workers = min(cpus if jobs is None else min(jobs, cpus), len(tasks))
    if workers <= 1 or len(tasks) < SERIAL_BELOW:
        yield from map(function, tasks)
        return
    import multiprocessing  # only for a run that forks: a few milliseconds of start-up

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunk = max(1, min(64, len(tasks) // (workers * 8)))
    # The parent's objects are moved out of the collector's reach while the workers fork
    # (unless the caller froze some itself): a forked worker's collections would otherwise
    # walk them all, writing to every page it shares with the parent (copy-on-write). On
    # 300 records this took the pool's CPU overhead over one core from +29% to +14%.
    freeze = not gc.get_freeze_count()
    if freeze:
        gc.freeze()
    try:
        pool = context.Pool(workers)
    finally:
        if freeze:
            gc.unfreeze()
    with pool:
        yield from pool.imap(function, tasks, chunksize=chunk)
