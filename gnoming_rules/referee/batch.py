"""Validating many record files: walking folders, and spreading the files over processes.

``--jobs N`` is this process and ``N - 1`` forks of it
(:func:`~gnoming_rules.referee.processes.in_processes`). This one checks the first file
before forking, so its ruleset, loaded into the
:class:`~gnoming_rules.referee.resolver.RulesetResolver` cache (file rulesets too: a run
is short), is inherited rather than loaded again; then every process takes chunks of
files from a shared queue as it becomes free, and the forks send back only each file's
exit status and text, which this process prints in order between its own files.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..formats.record import MAX_RECORD_BYTES
from .processes import in_processes
from .report import describe
from .resolver import RulesetResolver
from .validate import replay_bytes, replay_file

__all__ = [
    "RECORD_SUFFIXES",
    "SNIFF_BYTES",
    "STDIN",
    "FileReport",
    "check_file",
    "check_files",
    "record_files",
]

RECORD_SUFFIXES = (".json", ".yaml", ".yml")
"""Files a folder walk picks up."""

SNIFF_BYTES = 64 * 1024
"""A folder walk reads this much of a file to see whether it is a record."""


@dataclass(frozen=True, slots=True)
class FileReport:
    """The outcome for one file: its exit status (0/1/2) and what to print for it."""

    path: str
    status: int
    text: str

    def __reduce__(self) -> tuple[type[FileReport], tuple[str, int, str]]:
        """Pickled as a call with its fields, which a worker sends back a few times faster
        than a slotted dataclass's state."""
        return FileReport, (self.path, self.status, self.text)


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
"""One cache per set of trusted folders, made on first use (a fork inherits this process's)."""


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
    return in_processes(_check_task, tasks, jobs=jobs, name=_task_file)


def _task_file(task: tuple[str, str | None, bool, tuple[str, ...]]) -> str:
    return task[0]
