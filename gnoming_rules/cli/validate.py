"""``gnoming validate FILE...``: replay records through the referee, report each one."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, NotRequired

from typing_extensions import TypedDict

from ..formats.rulesets import load_ruleset
from .command import ArgsError, Command, positive, trust_option
from .output import Output

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..referee.batch import FileReport
    from .progress import Progress

LOCAL: Final = "local"
"""What ``--dask`` without an address means: a local cluster."""

ADDRESS: Final = re.compile(r"^(\w+://)?[\w.\-\[\]:]+:\d+$")
"""A scheduler address (``tcp://host:8786``, ``host:8786``); any other word after
``--dask`` is the first file, as in ``gnoming validate --dask FOLDER``."""

PROGRESS_FROM: Final = 50
"""A terminal shows a progress bar when at least this many files are validated."""


class ProblemDocument(TypedDict):
    """One fault of a record's structure: where (from 0, or null) and what."""

    round: int | None
    move: int | None
    message: str


class ErrorDocument(TypedDict):
    """Where and why a record fails; ``round`` and ``move`` count from 0."""

    round: int | None
    move: int | None
    code: str
    rule: str | None
    message: str
    problems: NotRequired[list[ProblemDocument]]
    """Every fault of the record's structure (``bad-record``), when it has several, the first
    being the error's own; at most 100, the message counting them all."""


class VerdictDocument(TypedDict):
    """The record format's verdict on one record: one line per file, in the order of the files."""

    valid: bool
    complete: bool
    error: ErrorDocument | None
    scores: list[list[int]]
    totals: list[int]
    winners: list[int]
    information: NotRequired[Literal["public"]]
    """Present on the verdict of a public-information record only."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="FILE", help="record files or folders; - reads standard input"
    )
    parser.add_argument(
        "--ruleset",
        metavar="R",
        help="replay every record under R, a name or a path (default: the ruleset each "
        "record names); a record's ruleset_sha256 must still match",
    )
    parser.add_argument(
        "--jobs",
        type=positive,
        default=None,
        metavar="N",
        help="processes that check files (default: the CPUs this process may use; never "
        "more than those CPUs, nor than the files)",
    )
    trust_option(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    parser.add_argument(
        "--dask",
        nargs="?",
        const=LOCAL,
        default=None,
        metavar="ADDRESS",
        help="check the files on a Dask cluster: with no ADDRESS a local one of --jobs "
        "worker processes (default 2), else the scheduler at ADDRESS (tcp://host:8786); "
        "needs the dask extra",
    )


def run(args: argparse.Namespace, out: Output) -> int:
    from ..referee.batch import check_files, record_files  # multiprocessing: not for --help

    if args.ruleset is not None:
        load_ruleset(args.ruleset)  # a bad --ruleset is one error, not one per file
    address = None if args.dask is None else _dask_address(args)
    if not args.paths:  # nargs="*", so that --dask may come before the files
        raise ArgsError("the following arguments are required: FILE (see gnoming validate --help)")
    files = record_files(args.paths)
    if not files:
        raise ArgsError("no record files (.json, .yaml, .yml) found in the folders given")
    counts = [0, 0, 0]
    progress = out.progress(len(files)) if len(files) >= PROGRESS_FROM else None
    with contextlib.ExitStack() as stack:
        if args.dask is None:
            reports = check_files(
                files,
                jobs=args.jobs,
                ruleset=args.ruleset,
                as_json=out.json,
                trusted=args.trust_rulesets,
            )
        else:
            reports = _on_dask(args, address, stack, files, out.json)
        try:
            for report in reports:
                _print(report, counts, progress, args, out)
        except BrokenPipeError:  # the reader went away (| head): the verdicts found count
            _drop_output()
            return 2 if counts[2] else 1 if counts[1] else 0
    if progress is not None:
        progress.clear()
    if len(files) > 1 or any(Path(path).is_dir() for path in args.paths):
        count = f"{len(files)} file{'' if len(files) == 1 else 's'}"
        summary = f"{count}: {counts[0]} valid, {counts[1]} invalid, {counts[2]} unreadable"
        out.line(summary, err=out.json)
    return 2 if counts[2] else 1 if counts[1] else 0


def _dask_address(args: argparse.Namespace) -> str | None:
    """The scheduler's address, or ``None`` for a local cluster; a word after ``--dask``
    that is no address is taken back as the first file."""
    if args.dask == LOCAL:
        return None
    if ADDRESS.match(args.dask):
        if args.jobs is not None:
            raise ArgsError(
                "--jobs counts the workers of a local cluster: with a scheduler's ADDRESS, "
                "its own workers do the work"
            )
        return str(args.dask)
    args.paths.insert(0, args.dask)
    return None


def _on_dask(
    args: argparse.Namespace,
    address: str | None,
    stack: contextlib.ExitStack,
    files: list[Path],
    as_json: bool,
) -> Iterator[FileReport]:
    """The reports from a Dask cluster that ``stack`` closes after the run."""
    from ..corpus.distributed import DaskValidator

    validator = stack.enter_context(DaskValidator(address, workers=args.jobs or 2))
    return validator.check_files(
        files, ruleset=args.ruleset, as_json=as_json, trusted=args.trust_rulesets
    )


def _print(
    report: FileReport,
    counts: list[int],
    progress: Progress | None,
    args: argparse.Namespace,
    out: Output,
) -> None:
    """Print one file's report (and keep the progress bar below it)."""
    counts[report.status] += 1
    if progress is not None:
        progress.clear()
    if out.json or not (args.quiet and report.status == 0):
        out.line(_coloured(report, out), flush=progress is not None)
    if progress is not None:
        progress.update(sum(counts))


def _drop_output() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of a
    closed pipe neither fails nor prints a warning."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass  # not a real file (a test's buffer): nothing will flush it


_STATUS_STYLE: Final = ((": valid", "green"), (": INVALID", "red"), (": NOT PLAYABLE", "yellow"))


def _coloured(report: FileReport, out: Output) -> str:
    """The report with its status word in colour (on a terminal that allows it)."""
    if not out.colour:
        return report.text
    head, _, rest = report.text.partition("\n")
    word, style = _STATUS_STYLE[report.status]
    at = head.find(word)
    if at >= 0:
        head = head[:at] + ": " + out.style(word[2:], style) + head[at + len(word) :]
    return head + ("\n" + rest if rest else "")


COMMAND = Command(
    name="validate",
    summary="check game records (files or folders)",
    description="""\
Replay game records (gnoming-record/1, JSON or YAML) and check every move and claim,
in the order the record format fixes; report the first failure of each record.

Exit status: 0 every record is valid, 1 some record breaks a rule or makes a false
claim, 2 some input is not a playable record (also when the output stops early on a
broken pipe: the status is that of the verdicts found). --ruleset R replaces the ruleset a
record names; its ruleset_sha256, if any, must still match R. With --json, each
file's verdict is one line of JSON and the count goes to standard error.""",
    examples=(
        "gnoming validate examples/tiny-game.json",
        "gnoming validate --json examples/tiny-game.json",
        "gnoming validate --quiet examples     # exit status 2",
    ),
    arguments=arguments,
    run=run,
    output=VerdictDocument,
)

__all__ = [
    "COMMAND",
    "PROGRESS_FROM",
    "ErrorDocument",
    "ProblemDocument",
    "VerdictDocument",
]
