"""Group commit: the steps of every table waiting to be stored go to the database together.

A move is acknowledged only once it is stored, and a commit costs the same for one step
as for a hundred (PostgreSQL flushes its log on each). So the tables do not commit one by
one: :meth:`Committer.store` queues a table's steps and waits; one task takes everything
queued, stores it in one transaction, and then, table by table, takes the steps in (the
``then`` callback: the table's state moves on and its connections are told) and wakes the
waiter. Under load a commit carries the moves of many tables; alone, a move is stored at
once.

Where the transaction runs depends on the database: PostgreSQL's in a worker thread, so
that the event loop serves the other tables during the round trip and the flush; SQLite's
on the event loop itself (:attr:`~gnoming_rules.server.storage.Storage.commits_inline`),
since in WAL mode with ``synchronous=NORMAL`` a commit is a write to the log file, tens of
microseconds, cheaper than the hand-over to a thread and back. Every
:attr:`~gnoming_rules.server.storage.Storage.checkpoint_every` commits the committer runs
the storage's checkpoint in a worker thread; while it runs, commits go to a thread too,
where they wait for it, and the event loop serves on.

A step is taken in by the committer, not by the waiting task: a waiter that is cancelled
(its connection closed) cannot leave a stored step untaken.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Final

from .storage import Step, Storage

__all__ = ["Committer"]

LOG: Final = logging.getLogger("gnoming.server")

Batch = tuple[str, int, Sequence[Step]]
Waiter = tuple[Batch, Callable[[], None], asyncio.Future[None]]


class Committer:
    """Stores the steps that tables hand it, many tables to a transaction."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._waiting: list[Waiter] = []
        self._wake = asyncio.Event()
        self._commits = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._task = asyncio.create_task(self._run())

    async def store(
        self, table_id: str, first: int, steps: Sequence[Step], then: Callable[[], None]
    ) -> None:
        """Return once ``steps`` are stored as steps ``first``, ... of the table and
        ``then()`` has run (the table takes them in); raise what the database raised if
        they could not be stored (``then`` is not called)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(((table_id, first, steps), then, future))
        self._wake.set()
        await future

    async def _append(self, batches: list[Batch]) -> None:
        checkpointing = self._checkpoint is not None and not self._checkpoint.done()
        if self.storage.commits_inline and not checkpointing:
            self.storage.append_many(batches)
        else:
            await asyncio.to_thread(self.storage.append_many, batches)
        self._commits += 1
        every = self.storage.checkpoint_every
        if every is not None and self._commits % every == 0 and not checkpointing:
            self._checkpoint = asyncio.ensure_future(asyncio.to_thread(self.storage.checkpoint))
            self._checkpoint.add_done_callback(_checked)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            waiting, self._waiting = self._waiting, []
            if not waiting:
                continue
            try:
                await self._append([batch for batch, _, _ in waiting])
            except Exception:
                await self._one_by_one(waiting)  # one table's fault fails only that table
                continue
            for _, then, future in waiting:
                _done(then, future)

    async def _one_by_one(self, waiting: list[Waiter]) -> None:
        for batch, then, future in waiting:
            try:
                await self._append([batch])
            except Exception as error:
                if not future.done():
                    future.set_exception(error)
            else:
                _done(then, future)

    async def close(self) -> None:
        """Stop (after the commit and the checkpoint under way, if any)."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint


def _checked(checkpoint: asyncio.Future[None]) -> None:
    """Log a checkpoint that failed (the log then waits for the next one)."""
    if not checkpoint.cancelled() and checkpoint.exception() is not None:
        LOG.error("the database's checkpoint failed: %s", checkpoint.exception())


def _done(then: Callable[[], None], future: asyncio.Future[None]) -> None:
    """Stored: take the steps in, then wake the waiter (with the error, if taking in failed)."""
    try:
        then()
    except Exception as error:
        LOG.exception("a stored step could not be taken in")
        if not future.done():
            future.set_exception(error)
        return
    if not future.done():
        future.set_result(None)
