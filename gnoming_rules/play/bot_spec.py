"""A bot as a person names it on a command line: :class:`BotSpec` and :func:`parse_bot`.

``gnoming tournament --bot``, ``gnoming impact --bots`` and ``gnoming serve --bot`` read
their bots here, so that the three accept the same forms: a built-in name
(:func:`~gnoming_rules.play.bots.builtin_bot`: ``greedy``, or ``search:400`` with a budget
of steps a decision), an external program's command line
(``node examples/bots/random_bot.js``: anything with a space or a ``/``), or
``LABEL=COMMAND`` to name one. An external bot plays over the bot protocol
(:mod:`~gnoming_rules.play.external`, docs/bot-protocol.md). This module sits above
:mod:`~gnoming_rules.play.bots` and :mod:`~gnoming_rules.play.external` and below the
corpus, the command line and the server, which all import it and none of which it
imports: no import circle.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

from ..core.errors import UsageError
from .bots import bot_names, builtin_bot
from .external import bot_command

__all__ = ["BotSpec", "check_runnable", "parse_bot"]


@dataclass(frozen=True)
class BotSpec:
    """A bot as given: its label, and a built-in name or an external command."""

    label: str
    builtin: str | None = None
    command: tuple[str, ...] | None = None

    @property
    def external(self) -> bool:
        """An external program's (its :attr:`command`), not a built-in bot."""
        return self.command is not None


def parse_bot(text: str) -> BotSpec:
    """A bot as ``--bot`` gives it: a built-in name (``greedy``, ``search:400``),
    ``LABEL=COMMAND``, or a command (holding a space or a ``/``); ``bad-bot`` for anything
    else."""
    text = text.strip()
    if builtin_bot(text) is not None:
        return BotSpec(text, builtin=text)
    label, equals, command = text.partition("=")
    if equals and label.strip() and " " not in label.strip() and "/" not in label:
        words = bot_command(command)
        return BotSpec(label.strip(), command=tuple(words))
    if " " in text or "/" in text:
        return BotSpec(text, command=tuple(bot_command(text)))
    raise UsageError(
        "bad-bot",
        f"{text!r} is no bot: a name ({bot_names()}), a command with a space or a "
        "'/' (node examples/bots/random_bot.js) or LABEL=COMMAND",
    )


def check_runnable(spec: BotSpec) -> None:
    """``bad-bot`` when ``spec`` is an external bot whose program cannot be found (on the
    ``PATH``, or as an executable file's path): said once, before any game."""
    if spec.command is None:
        return
    program = spec.command[0]
    if shutil.which(program) is None and not (os.sep in program and os.access(program, os.X_OK)):
        raise UsageError("bad-bot", f"{spec.label}: no program {program!r} to run")
