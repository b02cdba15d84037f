"""``gnoming replay FILE -o OUT.html``: the whole game as one page to step through."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import cast

from typing_extensions import TypedDict

from .command import ArgsError, Command
from .output import Output, echo
from .validate import ErrorDocument


class ReplayDocument(TypedDict):
    """The page written, and the verdict on the record it replays."""

    file: str
    out: str
    positions: int
    """How many positions the page steps through (0: the record has none to show)."""
    bytes: int
    """The page's size."""
    valid: bool
    complete: bool
    error: ErrorDocument | None
    """Where and why the record is refused (the page opens there), if it is."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="FILE", help="one record file")
    parser.add_argument(
        "-o",
        "--out",
        metavar="OUT",
        help="the page to write (default: FILE's name with .html, in the current folder)",
    )
    parser.add_argument(
        "--ruleset",
        metavar="R",
        help="replay under R, a name or a path (default: the ruleset the record names)",
    )
    parser.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="the game as seat N saw it: the cards it never saw drawn as backs, those it "
        "knows face down drawn as known (default: the referee's page, every card)",
    )


def target_file(given: str, record: str) -> Path:
    """The file ``--out`` names, once it is known not to be the record itself (the input is
    never written to) and to lie in a folder that exists."""
    target = Path(given)
    if target.exists() and Path(record).exists() and target.samefile(record):
        raise ArgsError(f"--out {echo(given)} is the record itself: name another file")
    if not target.resolve().parent.is_dir():
        folder = echo(str(target.parent))
        raise ArgsError(f"--out {echo(given)}: the folder {folder} does not exist")
    return target


def run(args: argparse.Namespace, out: Output) -> int:
    from ..pictures.replay import write_replay  # the pictures: not for --help

    source = Path(args.path)
    target = target_file(args.out or source.stem + ".html", args.path)
    written = write_replay(source, target, ruleset=args.ruleset, seat=args.seat)
    verdict = written.replay.verdict
    error = verdict.error
    if out.json:
        out.data(
            ReplayDocument(
                file=args.path,
                out=str(target),
                positions=written.positions,
                bytes=written.size,
                valid=verdict.valid,
                complete=verdict.complete,
                error=None if error is None else cast(ErrorDocument, error.to_dict()),
            )
        )
        return verdict.exit_status
    if error is None:
        said = "valid, complete" if verdict.complete else "valid, incomplete"
    else:
        where = "" if error.round is None else f" at round {error.round}"
        where += "" if error.move is None else f", move {error.move}"
        said = f"refused{where}: {error.code}"
    positions = f"{written.positions} position{'' if written.positions == 1 else 's'}"
    out.line(f"{echo(str(target))}: {positions} of {echo(args.path)} ({said})")
    return verdict.exit_status


COMMAND = Command(
    name="replay",
    summary="write a record as one HTML page that steps through the game",
    description="""\
Replay a record and write the whole game as one self-contained HTML page: the table at
every move (SVG), buttons, the arrow keys and a slider to step, the move list, the
running scores and the verdict. The page needs no network. A refused record opens at the
refused move, with its code, rule and message.

Exit status, as gnoming validate: 0 the record is valid, 1 it breaks a rule or makes a
false claim, 2 it is not a playable record. The page is written in every case.""",
    examples=(
        "gnoming replay examples/demo-game.json -o /tmp/demo-game.html",
        "gnoming replay examples/illegal/mulligan-limit.json -o /tmp/refused.html  # exit status 1",
    ),
    arguments=arguments,
    run=run,
    output=ReplayDocument,
)

__all__ = ["COMMAND", "ReplayDocument"]
