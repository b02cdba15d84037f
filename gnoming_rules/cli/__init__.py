"""The ``gnoming`` command line: one module per command, one layer for output.

Adding a command takes one new module and one line:

1. ``gnoming_rules/cli/NAME.py`` defines ``COMMAND = Command(name=..., summary=...,
   description=..., examples=..., arguments=..., run=..., output=...)``
   (:class:`~gnoming_rules.cli.command.Command`). ``run(args, out)`` writes only through
   ``out`` (:class:`~gnoming_rules.cli.output.Output`): text for people, or with
   ``--json`` (added to every command) one JSON document per line, whose TypedDict
   ``output`` gives its JSON Schema (``make schemas`` writes ``schemas/cli/NAME.schema.json``).
   Raise :class:`~gnoming_rules.cli.command.ArgsError` for a command line that cannot be
   run, and let the library's ``GnomingError`` out: ``main`` makes either one line.
2. Add ``"NAME",`` to ``COMMANDS`` in :mod:`gnoming_rules.cli.app`.

The tests then require a section ``## gnoming NAME`` in docs/cli.md with a row for every
option, and run every example that ``--help`` shows.

Keep a command module's imports light: every module is imported for ``gnoming --help``,
so a heavy library is imported inside ``run``.
"""

from __future__ import annotations

from .app import build_parser, main

__all__ = ["build_parser", "main"]
