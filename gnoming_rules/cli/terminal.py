"""What the stream a command writes to can show: a terminal, with or without colour.

Colour follows https://no-color.org: ``NO_COLOR`` set to any non-empty value turns it
off. ``TERM=dumb`` (an editor's shell, some CI logs) gets neither colour nor a bar that
redraws itself.
"""

from __future__ import annotations

import os
from typing import IO


def is_terminal(stream: IO[str]) -> bool:
    """``stream`` is an interactive terminal that can redraw a line."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def colour_allowed(stream: IO[str]) -> bool:
    """Colour on ``stream``: a terminal (:func:`is_terminal`), ``NO_COLOR`` unset or empty."""
    return is_terminal(stream) and not os.environ.get("NO_COLOR")


__all__ = ["colour_allowed", "is_terminal"]
