"""Group commit: the steps of every table waiting to be stored go to the database together.

A move is acknowledged only once it is stored, and a commit costs the same for one step
as for a hundred (PostgreSQL flushes its log on each). So the tables do not commit one by
one: :meth:`Committer.store` queues a table's steps and waits; one task takes everything
queued, stores it in one transaction in a worker thread (the event loop goes on serving
the other tables meanwhile), and then wakes each waiter. Under load a commit carries the
moves of many tables; alone, a move is stored at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence

from .storage import Step, Storage

__all__ = ["Committer"]

Batch = tuple[str, int, Sequence[Step]]


class Committer:
    """Stores the steps that tables hand it, many tables to a transaction."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._waiting: list[tuple[Batch, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    async def store(self, table_id: str, first: int, steps: Sequence[Step]) -> None:
        """Return once ``steps`` are stored as steps ``first``, ... of the table; raise
        what the database raised if they could not be."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(((table_id, first, steps), future))
        self._wake.set()
        await future

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            waiting, self._waiting = self._waiting, []
            if not waiting:
                continue
            try:
                await asyncio.to_thread(self.storage.append_many, [batch for batch, _ in waiting])
            except Exception:
                await self._one_by_one(waiting)  # one table's fault fails only that table
                continue
            for _, future in waiting:
                if not future.done():
                    future.set_result(None)

    async def _one_by_one(self, waiting: list[tuple[Batch, asyncio.Future[None]]]) -> None:
        for batch, future in waiting:
            try:
                await asyncio.to_thread(self.storage.append_many, [batch])
            except Exception as error:
                if not future.done():
                    future.set_exception(error)
            else:
                if not future.done():
                    future.set_result(None)

    async def close(self) -> None:
        """Stop (after the commit under way, if any)."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
