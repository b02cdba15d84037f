"""A one-line progress bar on standard error, with the rate and the time left.

It draws only when its stream is a terminal (``TERM`` not ``dumb``): piped into a file
or another program, a run prints nothing but its results. The bar is green unless
``NO_COLOR`` is set. It redraws at most ten times a second, so that it costs nothing
next to the work it follows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO, Final

from .terminal import colour_allowed, is_terminal

WIDTH: Final = 30
"""Characters of the bar itself."""


def duration_text(seconds: float) -> str:
    """``0:07``, ``2:05``, ``1:02:05``: a duration as a clock shows it."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """``[#########.....] 120/400 files  38.2/s  ETA 0:07``, redrawn in place."""

    def __init__(
        self,
        total: int,
        stream: IO[str],
        *,
        unit: str = "files",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.stream = stream
        self.unit = unit
        self.clock = clock
        self.enabled = is_terminal(stream)
        self.colour = self.enabled and colour_allowed(stream)
        self.started = clock()
        self.last = float("-inf")
        self.shown = False

    def update(self, done: int) -> None:
        """Say that ``done`` of ``total`` are done (drawn when due and on a terminal)."""
        now = self.clock()
        if not self.enabled or (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        self.stream.write("\r" + self.text(done, now - self.started))
        self.stream.flush()
        self.shown = True

    def text(self, done: int, elapsed: float) -> str:
        """The line drawn after ``elapsed`` seconds with ``done`` finished."""
        filled = WIDTH * done // self.total if self.total else WIDTH
        bar = "#" * filled
        if self.colour:
            bar = f"\033[32m{bar}\033[0m"
        line = f"[{bar}{'.' * (WIDTH - filled)}] {done}/{self.total} {self.unit}"
        if done and elapsed > 0:
            rate = done / elapsed
            left = (self.total - done) / rate
            line += f"  {rate:.1f}/s  ETA {duration_text(left)}"
        return line

    def clear(self) -> None:
        """Erase the bar, so that the next line prints where it stood."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


__all__ = ["WIDTH", "Progress", "duration_text"]
