"""What a command of ``gnoming`` is: its name, its help, its arguments, what it runs.

Each command module of :mod:`gnoming_rules.cli` defines ``COMMAND = Command(...)``. The
application (:mod:`gnoming_rules.cli.app`) builds the parser from these, adds the options
every command shares (``--json``), and calls ``run(args, out)`` with the output layer.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .output import Output

Run = Callable[[argparse.Namespace, "Output"], int]
"""A command's body: the parsed arguments and the output layer in, the exit status out."""


class ArgsError(Exception):
    """A command line that cannot be run as written (one line, exit status 2)."""


@dataclass(frozen=True)
class Command:
    """One command, or a group of commands (``actions``, as ``gnoming ruleset``)."""

    name: str
    summary: str
    """One line for ``gnoming --help``."""
    description: str
    """What ``gnoming NAME --help`` says first: what the command does, its exit status."""
    examples: tuple[str, ...] = ()
    """Command lines that ``--help`` shows (and the tests run), ``# exit status N`` allowed."""
    arguments: Callable[[argparse.ArgumentParser], None] | None = None
    """Adds the command's own arguments to its parser."""
    run: Run | None = None
    """The body; ``None`` for a group, which then prints its help."""
    output: type | None = None
    """The TypedDict of one ``--json`` document (one line); its JSON Schema is generated."""
    actions: tuple[Command, ...] = field(default=())
    """The commands of a group."""

    def leaves(self, prefix: str = "gnoming") -> list[tuple[str, Command]]:
        """``("gnoming ruleset show", command)`` for every command that runs, here or below."""
        here = f"{prefix} {self.name}"
        if not self.actions:
            return [(here, self)]
        return [leaf for action in self.actions for leaf in action.leaves(here)]


def positive(text: str) -> int:
    """A whole number of at least 1 (its error says so, not "invalid positive value")."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def seconds(text: str) -> float:
    """A time in seconds, above 0 and at most an hour (a bot's time for a move)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 3600, got {value}")
    return value


def trust_option(parser: argparse.ArgumentParser) -> None:
    """``--trust-rulesets DIR`` (repeatable): folders whose ruleset files any record may
    name, besides those in its own folder (see docs/security.md)."""
    parser.add_argument(
        "--trust-rulesets",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of trusted rulesets: any record may name a ruleset file inside it "
        "(repeatable; default: none, a record may name files in its own folder only)",
    )


__all__ = ["ArgsError", "Command", "Run", "positive", "seconds", "trust_option"]
