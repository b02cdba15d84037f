"""The ``gnoming`` program: the parser built from the commands, and ``main``.

``COMMANDS`` lists the command modules of this package, one per line. Each defines
``COMMAND`` (a :class:`~gnoming_rules.cli.command.Command`); the parser, the ``--json``
option, the help with its examples and the JSON Schemas all come from it.

``main(argv)`` returns the exit status and never lets a traceback out: every error
becomes one line on standard error (``gnoming: code: message``) and status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Final, NoReturn

from ..core.errors import GnomingError
from .command import ArgsError, Command
from .output import Output

COMMANDS: Final = (
    "impact",
    "play",
    "redact",
    "replay",
    "ruleset",
    "rulesets",
    "score",
    "serve",
    "show",
    "stats",
    "tournament",
    "validate",
)
"""The command modules of :mod:`gnoming_rules.cli`, in the order ``gnoming --help`` lists them."""


def commands(names: Sequence[str] = COMMANDS) -> list[Command]:
    """The ``COMMAND`` of every module that ``names`` (default: :data:`COMMANDS`) names."""
    found = []
    for name in names:
        command = importlib.import_module(f"{__package__}.{name}").COMMAND
        assert isinstance(command, Command), name
        found.append(command)
    return found


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors raised (as one line) instead of printed with the usage."""

    def error(self, message: str) -> NoReturn:
        raise ArgsError(f"{message} (see {self.prog} --help)")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every command, or of command ``only`` alone: running one
    command then imports that command's module and no other (``gnoming validate``
    starts faster); the help and the errors about commands need them all."""
    from .. import COMPILED, __version__

    parser = _Parser(
        prog="gnoming",
        description="Referee for the card game Gnoming A Round: check game records, play, "
        "show and score games, inspect rulesets. Every command takes --json.",
        epilog="Run 'gnoming COMMAND --help' for a command's options and examples.",
    )
    build = "compiled with mypyc" if COMPILED else "pure Python"
    parser.add_argument(
        "--version", action="version", version=f"gnoming-rules {__version__} ({build})"
    )
    parser.set_defaults(run=None, parser=parser)
    _add_commands(parser, commands(COMMANDS if only is None else (only,)), "commands")
    return parser


def _add_commands(parser: argparse.ArgumentParser, group: list[Command], title: str) -> None:
    subparsers = parser.add_subparsers(title=title, metavar=title[:-1].upper())
    for command in group:
        sub = subparsers.add_parser(
            command.name,
            help=command.summary,
            description=command.description,
            epilog=_examples(command),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(run=command.run, parser=sub)
        if command.arguments is not None:
            command.arguments(sub)
        if command.actions:
            _add_commands(sub, list(command.actions), "actions")
        else:
            sub.add_argument(
                "--json",
                action="store_true",
                help="print JSON for programs instead of text, one document per line "
                "(its JSON Schema: schemas/cli/)",
            )


def _examples(command: Command) -> str | None:
    if not command.examples:
        return None
    lines = "\n".join(f"  {example}" for example in command.examples)
    return f"example{'s' if len(command.examples) > 1 else ''}:\n{lines}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gnoming`` with ``argv`` (default: the process arguments); returns the exit status."""
    try:
        given = list(sys.argv[1:] if argv is None else argv)
        one = given[0] if given and given[0] in COMMANDS else None
        args = build_parser(one).parse_args(given)
        if args.run is None:  # `gnoming` alone, or a group without its action: the help
            args.parser.print_help()
            return 0
        return int(args.run(args, Output(json=getattr(args, "json", False))))
    except ArgsError as error:
        return fail(f"usage: {error}")
    except GnomingError as error:
        return fail(f"{error.code}: {error.message}")
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except KeyboardInterrupt:
        print("gnoming: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (| head): nothing more to say
        return 0
    except OSError as error:
        return fail(f"{error.filename or 'input'}: {error.strerror or error}")
    except Exception as error:  # a bug: still one line, and a status that says so
        return fail(f"internal error: {type(error).__name__}: {error}")


def fail(message: str) -> int:
    """Print ``gnoming: MESSAGE`` on standard error; returns 2, the status of an error."""
    print(f"gnoming: {message}", file=sys.stderr)
    return 2


__all__ = ["COMMANDS", "build_parser", "commands", "fail", "main"]
