"""The ``gnoming`` command line: validate, play, show and score games; inspect rulesets.

``main(argv)`` returns the exit status and never lets a traceback out: every error
becomes one line on standard error (``gnoming: code: message``) and status 2.
``gnoming validate`` exits 0 when every record is valid, 1 when some record breaks a rule
or makes a false claim, 2 when some input is not a playable record (docs/record-format.md).

``--ruleset R`` on ``validate`` replaces the ruleset each record names, but a record's
``ruleset_sha256`` is still checked against R: it says which rules the game was played
under, so replaying it under other rules is refused (``ruleset-mismatch``) rather than
passed. Use it to point at rules that moved; to try a game under other rules, remove
``ruleset_sha256`` from a copy of the record.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

import yaml

from .core.cards import face_from_text
from .core.errors import GnomingError, RulesetError, one_line, printable, quoted
from .core.ruleset import Ruleset, bundled_rulesets, load_ruleset
from .core.scoring import score_breakdown
from .formats.record import dump_record, write_record
from .formats.schemas import ruleset_schema, schema_text
from .play.bots import NAMES, play_game
from .play.render import describe_turn, draw_layout, draw_table, seat_name
from .referee.batch import check_files, record_files
from .referee.resolver import RulesetResolver
from .referee.validate import replay_file

PROGRESS_FROM = 50
"""A terminal shows a progress bar when at least this many files are validated."""


class UsageError(Exception):
    """A command line that cannot be run as written."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors raised (as one line) instead of printed with the usage."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gnoming`` with ``argv`` (default: the process arguments); returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        command: Callable[[argparse.Namespace], int] = args.command
        return command(args)
    except UsageError as error:
        return _fail(f"usage: {error}")
    except GnomingError as error:
        return _fail(f"{error.code}: {error.message}")
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except KeyboardInterrupt:
        print("gnoming: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (| head): nothing more to say
        return 0
    except OSError as error:
        where = printable(str(error.filename)) if error.filename else "input"
        return _fail(f"{where}: {one_line(str(error.strerror or error))}")
    except Exception as error:  # a bug: still one line, and a status that says so
        return _fail(f"internal error: {type(error).__name__}: {error}")


def _fail(message: str) -> int:
    print(f"gnoming: {message}", file=sys.stderr)
    return 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = _Parser(prog="gnoming", description="Referee for the card game Gnoming A Round.")
    from . import __version__

    parser.add_argument("--version", action="version", version=f"gnoming-rules {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

    validate = commands.add_parser(
        "validate", help="check game records (files or folders)", description=_VALIDATE_HELP
    )
    validate.add_argument("paths", nargs="+", metavar="FILE", help="record files or folders")
    validate.add_argument(
        "--json",
        action="store_true",
        help="print the verdict objects of docs/record-format.md, one per line",
    )
    validate.add_argument(
        "--ruleset",
        metavar="R",
        help="replay every record under R, a name or a path (default: the ruleset each "
        "record names); a record's ruleset_sha256 must still match",
    )
    validate.add_argument(
        "--jobs",
        type=_positive,
        default=None,
        metavar="N",
        help="processes that check files (default: the CPUs this process may use; never "
        "more than those CPUs, nor than the files)",
    )
    _trust_option(validate)
    validate.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    validate.set_defaults(command=cmd_validate)

    play = commands.add_parser("play", help="play a game with bots and write its record")
    play.add_argument(
        "--players",
        type=int,
        required=True,
        metavar="N",
        help="number of seats, within the ruleset's players.min and players.max",
    )
    play.add_argument(
        "--seed", type=int, default=None, metavar="S", help="the game's seed (default: random)"
    )
    play.add_argument(
        "--ruleset", default="standard", metavar="R", help="name or path (default: %(default)s)"
    )
    play.add_argument(
        "--bot",
        choices=("random", "greedy"),
        default="greedy",
        help="who plays every seat (default: %(default)s)",
    )
    play.add_argument(
        "--out",
        metavar="F",
        help="record file (.json/.yaml), - for standard output (default: gnoming-game-S.json, "
        "S the seed)",
    )
    play.add_argument(
        "--names",
        metavar="A,B,...",
        help=f"player names in seat order, comma-separated (default: {','.join(NAMES)})",
    )
    play.add_argument("--no-claims", action="store_true", help="write no card/score claims")
    play.set_defaults(command=cmd_play)

    show = commands.add_parser("show", help="replay a record to a point and draw the table")
    show.add_argument("path", metavar="FILE", help="one record file")
    show.add_argument(
        "--round", type=int, metavar="R", help="the round to show (default: the last round)"
    )
    show.add_argument(
        "--move", type=int, metavar="M", help="stop before move M (default: the end of the round)"
    )
    show.add_argument(
        "--ruleset",
        metavar="R",
        help="replay under R, a name or a path (default: the ruleset the record names)",
    )
    _trust_option(show)
    show.set_defaults(command=cmd_show)

    score = commands.add_parser("score", help="score one layout, with the breakdown")
    score.add_argument("cards", nargs="+", metavar="CARD", help="row-major: 5 5 M 3 -2 9 5 H 1")
    score.add_argument(
        "--ruleset", default="standard", metavar="R", help="name or path (default: %(default)s)"
    )
    score.set_defaults(command=cmd_score)

    listing = commands.add_parser("rulesets", help="list the bundled rulesets")
    listing.set_defaults(command=cmd_rulesets)

    ruleset = commands.add_parser("ruleset", help="show, check, diff rulesets; print the schema")
    actions = ruleset.add_subparsers(title="actions", metavar="ACTION", required=True)
    show_rules = actions.add_parser("show", help="print a resolved ruleset and its sha256")
    show_rules.add_argument("ruleset", metavar="R", help="name or path")
    show_rules.set_defaults(command=cmd_ruleset_show)
    check = actions.add_parser("check", help="check ruleset files")
    check.add_argument("rulesets", nargs="+", metavar="R", help="names or paths")
    check.set_defaults(command=cmd_ruleset_check)
    schema = actions.add_parser("schema", help="print the JSON Schema of a ruleset file")
    schema.set_defaults(command=cmd_ruleset_schema)
    diff = actions.add_parser("diff", help="what ruleset B changes against A")
    diff.add_argument("old", metavar="A", help="the ruleset to compare against (name or path)")
    diff.add_argument("new", metavar="B", help="the ruleset whose changes are printed")
    diff.set_defaults(command=cmd_ruleset_diff)
    return parser


_VALIDATE_HELP = """Replay game records and check every move and claim (docs/record-format.md). Exit
status:
0 all valid, 1 some record breaks a rule or makes a false claim, 2 some input is not a
playable record. --ruleset R replaces the ruleset a record names; its ruleset_sha256,
if any, must still match R."""


def _trust_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--trust-rulesets",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of trusted rulesets: any record may name a ruleset file inside it "
        "(repeatable; default: none, a record may name files in its own folder only)",
    )


def _positive(text: str) -> int:
    """A whole number of at least 1 (its error says so, not "invalid _positive value")."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


# --- validate -------------------------------------------------------------------------------


def cmd_validate(args: argparse.Namespace) -> int:
    """``gnoming validate FILE... [--json] [--ruleset R] [--jobs N] [-q]``."""
    if args.ruleset is not None:
        load_ruleset(args.ruleset)  # a bad --ruleset is one error, not one per file
    files = record_files(args.paths)
    if not files:
        raise UsageError("no record files (.json, .yaml, .yml) found in the folders given")
    counts = [0, 0, 0]
    progress = _Progress(len(files)) if len(files) >= PROGRESS_FROM else None
    reports = check_files(
        files,
        jobs=args.jobs,
        ruleset=args.ruleset,
        as_json=args.json,
        trusted=args.trust_rulesets,
    )
    try:
        for report in reports:
            counts[report.status] += 1
            if progress is not None:
                progress.clear()
            if args.json or not (args.quiet and report.status == 0):
                print(report.text, flush=progress is not None)
            if progress is not None:
                progress.update(sum(counts))
        if progress is not None:
            progress.clear()
        if len(files) > 1 or any(Path(path).is_dir() for path in args.paths):
            count = f"{len(files)} file{'' if len(files) == 1 else 's'}"
            summary = f"{count}: {counts[0]} valid, {counts[1]} invalid, {counts[2]} unreadable"
            print(summary, file=sys.stderr if args.json else sys.stdout)
    except BrokenPipeError:  # the reader went away (| head): the verdicts found still count
        _drop_output()
    return 2 if counts[2] else 1 if counts[1] else 0


def _drop_output() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of a
    closed pipe neither fails nor prints a warning."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass  # not a real file (a test's buffer): nothing will flush it


class _Progress:
    """A one-line progress bar on standard error, drawn only when it is a terminal."""

    def __init__(self, total: int, stream: IO[str] | None = None) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.shown = False
        self.last = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        width = 30
        filled = width * done // self.total
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total}")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


# --- play -----------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    """``gnoming play --players N [--seed S] [--ruleset R] [--bot B] [--out F]``."""
    rules = load_ruleset(args.ruleset)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    names = [name.strip() for name in args.names.split(",")] if args.names else None
    if names is not None and len(names) != args.players:
        raise UsageError(f"--names gives {len(names)} names for {args.players} players")
    out = args.out or f"gnoming-game-{seed}.json"
    to_stdout = out == "-"
    if not to_stdout and not Path(out).resolve().parent.is_dir():
        raise UsageError(f"--out {out}: the folder {Path(out).parent} does not exist")
    try:
        record, state = play_game(
            rules,
            args.players,
            seed=seed,
            bot=args.bot,
            names=names,
            ruleset_ref=None,  # a bundled ruleset by name, any other inline: it travels
            claims=not args.no_claims,
        )
    except GnomingError as error:
        if error.code == "bad-setup":
            raise UsageError(error.message) from None
        raise
    talk = sys.stderr if to_stdout else sys.stdout
    seats = record.players
    print(
        f"seed {seed}: {len(seats)} players, ruleset {one_line(rules.name)}, {args.bot} bots, "
        f"{seat_name(record.first_player, seats)} starts",
        file=talk,
    )
    width = max(len(name) for name in seats)
    print("         " + "  ".join(name.rjust(max(width, 5)) for name in seats), file=talk)
    for index, scores in enumerate(state.scores):
        cells = "  ".join(str(score).rjust(max(width, 5)) for score in scores)
        print(f"round {index}: {cells}", file=talk)
    cells = "  ".join(str(total).rjust(max(width, 5)) for total in state.totals)
    print(f"totals:  {cells}", file=talk)
    winners = ", ".join(seat_name(seat, seats) for seat in state.winners)
    print(f"{'winner' if len(state.winners) == 1 else 'winners'}: {winners}", file=talk)
    moves = sum(len(round_.moves) for round_ in record.rounds)
    if to_stdout:
        sys.stdout.write(dump_record(record))
    else:
        write_record(record, out)
        print(f"record written to {out} ({moves} moves)", file=talk)
    return 0


# --- show -----------------------------------------------------------------------------------


def cmd_show(args: argparse.Namespace) -> int:
    """``gnoming show FILE [--round R] [--move M]``: the table at one point of a record."""
    resolver = RulesetResolver(trusted=args.trust_rulesets)
    whole = replay_file(args.path, ruleset=args.ruleset, resolver=resolver)
    record = whole.record
    if record is None or whole.ruleset is None or whole.state is None:
        # Refused before any move (structure, ruleset, player count, deals): nothing to draw.
        error = whole.verdict.error
        assert error is not None
        return _fail(f"{printable(args.path)}: {error.code}: {error.message}")
    if not record.rounds:
        print(f"{printable(args.path)}: no round has been dealt yet")
        return 0
    last = len(record.rounds) - 1
    round_index = last if args.round is None else args.round
    if not 0 <= round_index <= last:
        raise UsageError(f"--round {round_index}: the record has rounds 0 to {last}")
    moves = len(record.rounds[round_index].moves)
    move_index = args.move
    if move_index is not None and not 0 <= move_index <= moves:
        raise UsageError(
            f"--move {move_index}: round {round_index} has {moves} moves: --move 0 to {moves} "
            f"({moves}: after its last move)"
        )
    until = (round_index, move_index)
    replay = replay_file(args.path, ruleset=args.ruleset, resolver=resolver, until=until)
    state, rules = replay.state, replay.ruleset
    assert rules is not None
    print(
        f"{printable(args.path)}: ruleset {one_line(rules.name)}, {len(record.players)} players, "
        f"{rules.rounds} round{'s' if rules.rounds > 1 else ''}"
    )
    error = replay.verdict.error
    if error is not None:
        where = "" if error.round is None else f" at round {error.round}"
        where += "" if error.move is None else f", move {error.move}"
        print(f"the replay stops{where}: {error.code}: {error.message}")
    if state is None:
        return 2 if replay.verdict.exit_status == 2 else 0
    reached = error.move if error is not None and error.move is not None else move_index
    shown_round = error.round if error is not None and error.round is not None else round_index
    point = "the end" if reached is None else f"move {reached}"
    print(f"round {shown_round}, before {point}: {describe_turn(state, record.players)}")
    if replay.entry is not None:
        text = json.dumps({k: v for k, v in replay.entry.items() if v is not None})
        print(f"next move: {text}")
    for line in draw_table(rules, state, record.players):
        print(line)
    for index, scores in enumerate(state.scores):
        print(f"round {index} scores: {list(scores)}")
    return 2 if replay.verdict.exit_status == 2 else 0


# --- score ----------------------------------------------------------------------------------


def cmd_score(args: argparse.Namespace) -> int:
    """``gnoming score 5 5 M 3 -2 9 5 H 1``: one layout's score and why."""
    rules = load_ruleset(args.ruleset)
    try:
        cards = [face_from_text(text) for text in args.cards]
    except ValueError as error:
        raise UsageError(str(error)) from None
    rows, cols = rules.layout.rows, rules.layout.cols
    if len(cards) != rows * cols:
        raise UsageError(
            f"a {rows}x{cols} layout has {rows * cols} cards, got {len(cards)} "
            "(give them row by row)"
        )
    for line in draw_layout(cards, (1 << len(cards)) - 1, rows, cols):
        print(line)
    print(score_breakdown(rules, cards))
    return 0


# --- rulesets -------------------------------------------------------------------------------


def cmd_rulesets(args: argparse.Namespace) -> int:
    """``gnoming rulesets``: the bundled rulesets, one per line."""
    for name in bundled_rulesets():
        try:
            rules = load_ruleset(name)
        except RulesetError as error:
            print(f"{name}: {error.code}: {error.message}")
            continue
        summary = rules.description.split(". ")[0].strip().rstrip(".")
        print(f"{name}: {summary}" if summary else name)
    return 0


def cmd_ruleset_show(args: argparse.Namespace) -> int:
    """``gnoming ruleset show R``: the resolved ruleset (``extends`` applied) as YAML."""
    rules = load_ruleset(args.ruleset)
    print(f"# sha256: {rules.sha256}")
    print(yaml.safe_dump(rules.model_dump(), sort_keys=False, allow_unicode=True), end="")
    return 0


def cmd_ruleset_check(args: argparse.Namespace) -> int:
    """``gnoming ruleset check R...``: 0 all fine, 1 some ruleset cannot be played, 2 not found."""
    status = 0
    for given in args.rulesets:
        label = one_line(given)  # one line per argument, whatever it holds
        try:
            rules = load_ruleset(given)
        except RulesetError as error:
            print(f"{label}: {error.code}: {error.message}")
            status = max(status, 2 if error.code == "unknown-ruleset" else 1)
            continue
        except (OSError, RecursionError, ValueError) as error:  # never the end of the run
            print(f"{label}: bad-ruleset: cannot be read: {one_line(str(error))}")
            status = max(status, 1)
            continue
        print(f"{label}: ok ({one_line(rules.name)}, sha256 {rules.sha256[:12]}...)")
    return status


def cmd_ruleset_schema(args: argparse.Namespace) -> int:
    """``gnoming ruleset schema``: the JSON Schema of a ruleset file."""
    sys.stdout.write(schema_text(ruleset_schema()))
    return 0


def cmd_ruleset_diff(args: argparse.Namespace) -> int:
    """``gnoming ruleset diff A B``: every rule B changes against A, as ``path: old -> new``."""
    old, new = load_ruleset(args.old), load_ruleset(args.new)
    for label in ("name", "description"):
        before, after = getattr(old, label), getattr(new, label)
        if before != after:
            print(f"{label}: {quoted(before)} -> {quoted(after)} (a label, not a rule)")
    changes = ruleset_changes(old, new)
    for path, before, after in changes:
        print(f"{path}: {_value_text(before)} -> {_value_text(after)}")
    if not changes:
        print(f"no rule differs (sha256 {old.sha256[:12]}...)")
    else:
        count = len(changes)
        print(
            f"{count} {'rules differ' if count > 1 else 'rule differs'} "
            f"(sha256 {old.sha256[:12]}... -> {new.sha256[:12]}...)"
        )
    return 0


_ABSENT = object()


def ruleset_changes(old: Ruleset, new: Ruleset) -> list[tuple[str, Any, Any]]:
    """(field path, old value, new value) for every rule that differs; labels are ignored."""
    changes: list[tuple[str, Any, Any]] = []
    _compare("", old.rules_dict(), new.rules_dict(), changes)
    return changes


def _compare(path: str, old: Any, new: Any, changes: list[tuple[str, Any, Any]]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        keys = list(old) + [key for key in new if key not in old]
        for key in keys:
            inner = f"{path}.{key}" if path else str(key)
            _compare(inner, old.get(key, _ABSENT), new.get(key, _ABSENT), changes)
    elif old != new or type(old) is not type(new):
        changes.append((path, old, new))


def _value_text(value: Any) -> str:
    return "(absent)" if value is _ABSENT else json.dumps(value)
