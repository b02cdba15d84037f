"""Serving the application with uvicorn, on loopback unless told otherwise."""

from __future__ import annotations

import gc
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from .app import Limits, create_app
from .pool import BotPool

__all__ = ["GC_THRESHOLDS", "serve"]

GC_THRESHOLDS: Final = (50_000, 20, 10)
"""The cyclic garbage collector's thresholds while serving (Python's are 700, 10, 10).
Its full passes walk every object of every table in memory: with 200 tables in play and
tables of bots being played, they came every few seconds and stopped the event loop for
100 to 150 ms each (the p99 of a move's latency went from 14 to over 100 ms). With these,
young objects are collected in bigger, rarer passes (tens of milliseconds at most), and
the full passes are rare (docs/server.md, Load)."""

MAX_FRAME = 64 * 1024
"""uvicorn's limit on one WebSocket message: past it the connection closes (code 1009);
below it, past :data:`~gnoming_rules.server.reading.MAX_MESSAGE`, the server answers
``too-large`` and goes on."""


def serve(
    storage: str | Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    access_log: bool = True,
    bots: Mapping[str, Sequence[str]] | None = None,
    limits: Limits | None = None,
) -> None:
    """Serve the tables kept in ``storage`` (a SQLite path or a PostgreSQL URL) until
    interrupted; ``bots``: the external bots registered, label -> command line."""
    import uvicorn

    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.run(
        create_app(storage, pool=BotPool(), bots=bots, limits=limits),  # its pool closed at the end
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,  # small messages: compressing them cost a tenth of the CPU
        access_log=access_log,
        log_level="info",
    )
