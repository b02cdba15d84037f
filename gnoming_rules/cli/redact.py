"""``gnoming redact FULL [-o PUBLIC]``: a full record's public-information form."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, cast

from typing_extensions import TypedDict

from ..core.errors import GnomingError, RecordError
from ..formats.record import PublicRecord, dump_record, format_of, read_record, write_record
from ..formats.rulesets import load_ruleset, looks_like_path
from ..play.recorder import default_reference
from .command import Command
from .output import Output, echo
from .validate import ErrorDocument


class RedactDocument(TypedDict):
    """What ``gnoming redact`` made of one full record."""

    file: str
    out: str | None
    """Where the public record was written; ``None`` when it is in ``record``."""
    error: ErrorDocument | None
    """Why the full record is refused, if it is: its public form stops at that move."""
    rounds: int
    """The public record's rounds."""
    moves: int
    """The public record's moves, every round's."""
    record: dict[str, Any] | None
    """The public record itself, as JSON data, when no ``--out`` was given."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="FULL", help="a full record file (it holds the deals)")
    parser.add_argument(
        "-o",
        "--out",
        metavar="PUBLIC",
        help="write the public record to PUBLIC, JSON or (for .yaml, .yml) YAML; a relative "
        "ruleset file is written inline in another folder (default: print it, as JSON)",
    )


def run(args: argparse.Namespace, out: Output) -> int:
    from ..referee.redact import redact  # the replay: not for --help
    from ..referee.validate import validate_record

    label = echo(args.path)
    source = Path(args.path)
    try:
        full = read_record(source)
        if isinstance(full, PublicRecord):
            raise RecordError("bad-record", "information: public: the record is public already")
        public = redact(full, base_dir=source.parent)
    except RecordError as unplayable:
        out.line(f"gnoming: {label}: {unplayable.code}: {unplayable.message}", err=True)
        return 2
    error = validate_record(full, base_dir=source.parent).error
    moves = sum(len(round_.moves) for round_ in public.rounds)
    if args.out is not None:
        write_record(_moved(public, source.parent, Path(args.out).parent), args.out)
    if out.json:
        data = None if args.out is not None else json.loads(dump_record(public, "json"))
        document: RedactDocument = {
            "file": args.path,
            "out": args.out,
            "error": None if error is None else cast(ErrorDocument, error.to_dict()),
            "rounds": len(public.rounds),
            "moves": moves,
            "record": data,
        }
        out.data(document)
    elif args.out is None:
        out.line(dump_record(public, "json").rstrip("\n"))
    else:
        kind = format_of(Path(args.out)) or "json"
        out.line(
            f"{label}: public record written to {echo(args.out)} ({kind}, "
            f"{len(public.rounds)} round{'s' if len(public.rounds) != 1 else ''}, {moves} moves)"
        )
    if error is not None:
        where = f"round {error.round}" + ("" if error.move is None else f", move {error.move}")
        out.line(
            f"{label}: refused at {where}: {error.code}: the public record stops there", err=True
        )
        return 1
    return 0


def _moved(public: PublicRecord, home: Path, there: Path) -> PublicRecord:
    """``public`` as it may be written in folder ``there``: a ruleset file it names from
    ``home`` is kept by name in the same folder and written inline elsewhere, since a record
    may name a ruleset file only inside its own folder (docs/security.md)."""
    ruleset = public.ruleset
    if not isinstance(ruleset, str) or not looks_like_path(ruleset):
        return public
    if home.resolve() == there.resolve():
        return public
    file = (home / ruleset).resolve()
    if not file.is_relative_to(home.resolve()):
        return public  # refused where it was, so refused where it goes
    try:
        rules = load_ruleset(file)
    except GnomingError:
        return public
    return public.model_copy(update={"ruleset": default_reference(rules)})


COMMAND = Command(
    name="redact",
    summary="turn a full record into its public-information form",
    description="""\
Write the public-information form of a full record (information: public): only what the
whole table saw. Each deal becomes the round's start (the cards that started the discard
piles, the hazards removed meanwhile), each reshuffle loses its cards, every card that
became visible is named where it did, and each finished round gets its final layouts.
The public record validates as the full one does: the same scores and winners, or the
same refusal at the same move.

Exit status: 0; 1 when the full record is refused for a rule or a claim (its public form,
still written, stops at that move); 2 when it is no playable record.""",
    examples=(
        "gnoming redact examples/tiny-game.yaml",
        "gnoming redact examples/tiny-game.yaml --json",
    ),
    arguments=arguments,
    run=run,
    output=RedactDocument,
)

__all__ = ["COMMAND", "RedactDocument"]
