"""Reading an input file safely: a regular file only, and never more than a limit.

Records and ruleset files are input from strangers. Opening a named pipe would wait for a
writer, and a device (``/dev/zero``) can be endless, so anything but a regular file is
refused without being read; and at most ``limit + 1`` bytes are read, so that the caller
can refuse a larger file without holding it all.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotRegularFileError(OSError):
    """The path names a folder, a named pipe, a device or a socket: it is not read."""


_NOT_REGULAR = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_regular_file(file: str | Path, limit: int) -> bytes:
    """The first ``limit + 1`` bytes of a regular file (more than ``limit`` means too large).

    Anything else raises :class:`NotRegularFileError` ("not a regular file") without being
    read. The file is opened without blocking, then looked at, so that what is checked is
    what would be read."""
    descriptor = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        status = os.fstat(descriptor)
    except OSError:
        os.close(descriptor)
        raise
    mode = status.st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        kind = next((name for test, name in _NOT_REGULAR if test(mode)), "not a file")
        raise NotRegularFileError(f"not a regular file ({kind})")
    with os.fdopen(descriptor, "rb") as stream:
        # Asked for limit + 1 bytes at once, Python allocates them all (16 MiB) whatever
        # the file holds: ask for its size first, and for the rest only if it grew.
        expected = min(status.st_size, limit)
        data = stream.read(expected + 1)
        if len(data) <= expected:
            return data
        return data + stream.read(limit + 1 - len(data))


__all__ = [
    "NotRegularFileError",
    "read_regular_file",
]
