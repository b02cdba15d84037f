"""Serving the application with uvicorn, on loopback unless told otherwise."""

from __future__ import annotations

from pathlib import Path

from .app import create_app
from .pool import BotPool

__all__ = ["serve"]

MAX_FRAME = 64 * 1024
"""uvicorn's limit on one WebSocket message: past it the connection closes (code 1009);
below it, past :data:`~gnoming_rules.server.reading.MAX_MESSAGE`, the server answers
``too-large`` and goes on."""


def serve(
    storage: str | Path, *, host: str = "127.0.0.1", port: int = 8000, access_log: bool = True
) -> None:
    """Serve the tables kept in ``storage`` (a SQLite path or a PostgreSQL URL) until
    interrupted."""
    import uvicorn

    uvicorn.run(
        create_app(storage, pool=BotPool()),  # its own, closed when it stops
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,  # small messages: compressing them cost a tenth of the CPU
        access_log=access_log,
        log_level="info",
    )
