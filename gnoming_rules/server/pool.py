"""The bots' pool: the bots' turns are played in worker processes, off the event loop.

A bot's move takes a tenth of a millisecond to milliseconds of CPU (eight greedy bots play
a game of golf-6 in about 1.5 s), and the event loop serves every table: a bot played on
it would make every other table's requests and clocks wait. So the tables hand their
bots' work to a :class:`BotPool`: a bounded pool of worker processes (threads would still
hold the interpreter's lock that the event loop needs), at a lower scheduling priority
than the server (``nice``), so that on a busy machine the people's moves come first.

A job (:class:`Job`) is a state, the ruleset's reference and the bots that play from it
(each with its own random generator, which travels with it and comes back moved on); the
worker plays the chance events and the bots' moves until a person is to move, the game
ends, or the job's ``limit`` of moves is reached, and returns the moves
(:class:`Played`). The table applies them on the event loop with the engine (a
microsecond or two a move), stores them and tells its connections, as for any move. A
table sends one job at a time, under its lock, so its steps stay in order.

The worker loads the ruleset itself, from the reference the table was made with (a
bundled name or inline data, read with ``files="none"``, as the server does), keeps the
last few it loaded, and checks that its sha256 is the table's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Final

from ..core.engine import apply
from ..core.entries import step_to_entry
from ..core.moves import Move
from ..core.ruleset import Ruleset
from ..core.state import State
from ..formats.rulesets import load_ruleset
from ..play.loop import Bot, play_out, seat_bots
from ..play.observation import observe

__all__ = ["BotPool", "Job", "Played", "ruleset_key"]

LOG: Final = logging.getLogger("gnoming.server")

_SYSTEM: Final = random.SystemRandom()


def ruleset_key(reference: str | dict[str, Any]) -> str:
    """A table's ruleset reference as the text a job carries (canonical JSON)."""
    return json.dumps(reference, sort_keys=True, separators=(",", ":"))


@dataclass(slots=True)
class Job:
    """Bots' work for a worker: play from ``state`` until a person is to move, the end, or
    ``limit`` moves."""

    ruleset: str
    """The table's ruleset reference (:func:`ruleset_key`)."""
    sha256: str
    """The ruleset's hash, which the worker's copy must have."""
    state: State
    bots: dict[int, Bot]
    """The table's bots by seat; a seat without one is a person's (the worker stops there)."""
    limit: int
    first: Bot | None = None
    """The bot that makes the first move for the seat to move, whoever it is (a person's
    default bot when its time ran out)."""


@dataclass(slots=True)
class Played:
    """What a job did: its moves in order, their entries as stored
    (:func:`~gnoming_rules.core.entries.step_to_entry`, and their JSON text: made here
    rather than on the event loop), and the bots after them (their generators moved on)."""

    moves: list[Move] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    """The entries as compact JSON text, as the storage keeps them."""
    bots: dict[int, Bot] = field(default_factory=dict)
    first: Bot | None = None


@lru_cache(maxsize=16)
def _ruleset(key: str, sha256: str) -> Ruleset:
    ruleset = load_ruleset(json.loads(key), files="none")
    if ruleset.sha256 != sha256:
        raise RuntimeError(f"the worker's ruleset {ruleset.name} is not the table's")
    return ruleset


def play(job: Job) -> Played:
    """Run ``job`` (in a worker process; any process can)."""
    rules = _ruleset(job.ruleset, job.sha256)
    played = Played(bots=job.bots, first=job.first)

    def made(move: Move) -> None:
        entry = step_to_entry(move)
        played.moves.append(move)
        played.entries.append(entry)
        played.texts.append(json.dumps(entry, separators=(",", ":")))

    state = job.state
    if job.first is not None and not state.is_over and not state.is_chance:
        move = job.first.choose(rules, observe(state, state.to_move))
        made(move)
        state = apply(rules, state, move)
    play_out(
        rules,
        state,
        _SYSTEM,
        seat_bots(rules, job.bots),
        hook=lambda _before, move, _after: made(move),
        limit=max(0, job.limit - len(played.moves)),
    )
    return played


def _start_worker(nice: int, parent: int) -> None:
    """A worker's start: run below the server's priority, and end when the server has gone
    (killed, or stopped by a signal that skips its clean-up)."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


class BotPool:
    """A bounded pool of ``workers`` processes, started on the first job (each takes under
    a second to start) and started again if one dies. A worker ends when the server's
    process does, however it ends.

    :meth:`shared` gives one pool per process and size, which the servers of one process
    share (a test suite starts many); a server closes a pool it was given when it stops."""

    _shared: ClassVar[dict[tuple[int, int], BotPool]] = {}

    def __init__(self, workers: int = 2, nice: int = 10) -> None:
        if workers < 1:
            raise ValueError("a pool has one worker at least")
        self.workers = workers
        self.nice = nice
        self._executor: ProcessPoolExecutor | None = None

    @classmethod
    def shared(cls, workers: int = 2, nice: int = 10) -> BotPool:
        """This process's pool of that size (made on first use)."""
        key = (workers, nice)
        pool = cls._shared.get(key)
        if pool is None:
            pool = cls._shared[key] = cls(workers, nice)
        return pool

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded server
                initializer=_start_worker,
                initargs=(self.nice, os.getpid()),
            )
        return self._executor

    async def run(self, job: Job) -> Played:
        """``job`` played by a worker. A worker that died (killed, out of memory) breaks
        the pool: it is replaced, and the error raised (nothing was played)."""
        executor = self._pool()
        try:
            future = executor.submit(play, job)  # raises too, once the pool is known broken
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            LOG.error("a bots' worker process died: the pool starts again")
            if self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        """Stop the workers (a job under way is abandoned)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
