"""The output layer every command writes through: text for people, JSON for programs.

- ``out.json`` says whether ``--json`` was given. A command then prints one JSON
  document per line (:meth:`Output.data`), nothing else on standard output; the JSON
  Schema of that document is generated from the command's ``output`` TypedDict.
- Text that comes from the input (a file name, a player's name) goes through
  :func:`echo` before it is printed, so that it cannot break a line or a terminal.
- Colour (:meth:`Output.style`) only where standard output is a terminal, never when
  ``NO_COLOR`` is set (https://no-color.org), and never in JSON.
- :meth:`Output.progress` gives the progress bar of :mod:`gnoming_rules.cli.progress`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import IO, Any, Final

from ..core.errors import MAX_NAME, json_line, one_line
from .progress import Progress
from .terminal import colour_allowed

COLOURS: Final = {"green": "32", "red": "31", "yellow": "33", "bold": "1", "dim": "2"}
"""ANSI SGR codes of the styles :meth:`Output.style` knows."""


def echo(text: str, limit: int = MAX_NAME) -> str:
    """Text from the input as a line prints it: as it is when it prints on one line, else
    JSON-quoted with escapes, and cut to ``limit`` characters."""
    return one_line(text, limit)


class Output:
    """Where a command writes: standard output and error, in text or JSON."""

    def __init__(
        self, *, json: bool = False, stdout: IO[str] | None = None, stderr: IO[str] | None = None
    ) -> None:
        self.json = json
        self.stdout = stdout if stdout is not None else sys.stdout
        self.stderr = stderr if stderr is not None else sys.stderr
        self.colour = not json and colour_allowed(self.stdout)

    def line(self, text: str = "", *, err: bool = False, flush: bool = False) -> None:
        """Print one line (or several, ``text`` holding newlines) for people."""
        stream = self.stderr if err else self.stdout
        print(text, file=stream, flush=flush)

    def data(self, document: Mapping[str, Any], *, err: bool = False) -> None:
        """Print one JSON document on one line (see :func:`~gnoming_rules.errors.json_line`)."""
        stream = self.stderr if err else self.stdout
        print(json_line(document), file=stream, flush=True)

    def style(self, text: str, name: str) -> str:
        """``text`` in a colour of :data:`COLOURS` when colour is allowed, else as it is."""
        if not self.colour:
            return text
        return f"\033[{COLOURS[name]}m{text}\033[0m"

    def progress(self, total: int, unit: str = "files") -> Progress:
        """A progress bar on standard error (drawn only when it is a terminal)."""
        return Progress(total, self.stderr, unit=unit)


__all__ = ["COLOURS", "Output", "echo"]
