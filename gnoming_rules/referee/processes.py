"""Spreading tasks over processes: ``map`` over this process and ``N - 1`` forks of it.

:func:`in_processes` runs the first task here before forking, so that whatever it loads
(a ruleset, its compiled view, a module imported lazily) the forks inherit instead of
loading it again; the objects made so far are frozen (``gc.freeze``), so that the forks'
collections do not write to the pages they share with this process. Then every process
takes chunks of tasks from one queue as it becomes free, this one keeping the last few
for itself, and the forks send back only each chunk's results, which this process hands
out in order between its own tasks. Small runs stay in one process: starting workers
costs more than they save. :mod:`gnoming_rules.referee.batch` validates many files with it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import gc
import os
import pickle
import select
import signal
import struct
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NoReturn, TypeVar

__all__ = [
    "CAN_FORK",
    "CHUNK_MOST",
    "KEPT",
    "SERIAL_BELOW",
    "SHARES",
    "available_cpus",
    "chunk_starts",
    "in_processes",
]

SERIAL_BELOW = 8
"""Fewer tasks than this run in the calling process."""


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it), else
    every CPU of the machine."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


Task = TypeVar("Task")
Result = TypeVar("Result")

CHUNK_MOST = 16
"""Most tasks a process takes at once. Smaller near the end of a run (a share of what is
left), so that every process finishes at about the same time."""

SHARES = 4
"""A process takes at most 1/``SHARES`` of its even share of the tasks left."""

KEPT = 2
"""The last chunks (of one task each), which this process keeps for itself: the workers
run out of chunks first and end while it checks these, so that it seldom waits for one
to exit (about a millisecond: its memory unmapped) when the run is over."""

PIPE_BYTES = 1 << 20
"""What a worker's pipe holds (where the system lets it grow), so that a worker seldom
waits for this process to read its results while it is busy with a task of its own."""

CAN_FORK = hasattr(os, "fork")
"""Whether this system forks processes (not Windows): else a pool spawns the workers."""


def in_processes(
    function: Callable[[Task], Result],
    tasks: Sequence[Task],
    *,
    jobs: int | None = None,
    name: Callable[[Task], str] | None = None,
) -> Iterator[Result]:
    """``map(function, tasks)`` over ``jobs`` processes (default: the CPUs available, and
    never more than those nor than the tasks), results in the order of the tasks, each as
    soon as those before it are in. Fewer than :data:`SERIAL_BELOW` tasks, or one job, run
    in this process alone.

    This process is one of the ``jobs``: it runs the first task before forking the others,
    so that whatever that loads (a ruleset, its compiled view, a module imported lazily)
    they inherit instead of loading it again, then takes its turn at the tasks between
    handing out results. An exception a task raises is raised here at that task's turn. A
    worker that dies raises :class:`ChildProcessError` at the turn of the first task it
    left undone, whose ``filename`` is ``name(task)`` (default: ``task N of M``). Where
    processes cannot fork (Windows), a :mod:`multiprocessing` pool of ``jobs`` workers
    does the work, and ``function`` must then be a module-level function."""
    cpus = available_cpus()
    processes = min(cpus if jobs is None else min(jobs, cpus), len(tasks))
    if processes <= 1 or len(tasks) < SERIAL_BELOW:
        yield from map(function, tasks)
    elif CAN_FORK:
        yield from _Shared(function, tasks, processes, name).results()
    else:
        yield from _in_pool(function, tasks, processes)


def _in_pool(
    function: Callable[[Task], Result], tasks: Sequence[Task], workers: int
) -> Iterator[Result]:
    """``map`` over a pool of ``workers`` spawned processes, for systems with no ``fork``."""
    import multiprocessing  # only here: a few milliseconds of start-up

    chunk = max(1, min(64, len(tasks) // (workers * 8)))
    with multiprocessing.get_context().Pool(workers) as pool:
        yield from pool.imap(function, tasks, chunksize=chunk)


def chunk_starts(count: int, processes: int) -> list[int]:
    """Where each chunk of ``count`` tasks starts, and ``count`` last: the first task alone
    (this process runs it before forking), then chunks of :data:`CHUNK_MOST` tasks at
    most, each at most 1/:data:`SHARES` of a process's even share of the tasks left."""
    starts = [0]
    start = 1
    while start <= count:
        starts.append(start)
        start += max(1, min(CHUNK_MOST, (count - start) // (processes * SHARES)))
    if starts[-1] != count:
        starts.append(count)
    return starts


_HEADER = struct.Struct("<I")
"""The length of a message from a worker, before its pickled bytes."""

_CHUNK = struct.Struct("<I")
"""A chunk's number, as the queue of chunks holds it."""


@dataclass(slots=True)
class _Worker:
    """A forked worker: its process, the pipe its messages come through (and the bytes of
    a message read in part), and the chunk it has taken and not yet sent back."""

    pid: int
    pipe: int
    received: bytearray
    chunk: int | None = None


class _Shared(Generic[Task, Result]):
    """One run of :func:`in_processes` over this process and ``processes - 1`` forks.

    The tasks are cut into chunks (:func:`chunk_starts`) whose numbers wait in a pipe; every
    process, this one included, reads the next number when it is free, so a busy or slow
    process simply takes fewer. The forks inherit ``tasks`` and ``function``: nothing but
    chunk numbers goes to them, and back comes one message a chunk (that they took it, then
    its results, pickled), so a worker that dies is known by the chunk it held. This process
    puts the results in order and hands them out between its own tasks.
    """

    def __init__(
        self,
        function: Callable[[Task], Result],
        tasks: Sequence[Task],
        processes: int,
        name: Callable[[Task], str] | None,
    ) -> None:
        self.function = function
        self.tasks = tasks
        self.processes = processes
        self.name = name
        self.starts = chunk_starts(len(tasks), processes)
        self.done: dict[int, Result] = {}
        self.failed: dict[int, BaseException] = {}
        self.first_failure = len(tasks)
        chunks = len(self.starts) - 1
        kept = max(0, min(KEPT, chunks - 2))  # a chunk at least for the workers
        self.unqueued = deque(range(1, chunks - kept))
        self.kept = deque(range(chunks - kept, chunks))
        self.queue_out = self.queue_in = -1
        self.workers: dict[int, _Worker] = {}  # by the pipe their messages come through
        self.how_ended = ""  # how the last worker that failed ended
        self.poller = select.poll()

    def results(self) -> Iterator[Result]:
        """The results in the order of the tasks; forks the workers on the first ``next``."""
        count = len(self.tasks)
        self._run(0)  # the warm-up, which the workers inherit
        if 0 in self.failed:
            raise self.failed.pop(0)
        # The objects made so far are moved out of the collector's reach (unless the caller
        # froze some itself): a worker's collections would otherwise walk them all, writing
        # to every page it shares with this process (copy-on-write).
        freeze = not gc.get_freeze_count()
        if freeze:
            gc.freeze()
        finished = False
        try:
            self._fork()
            following = 0
            mine: Iterator[int] = iter(())
            while True:
                if self.workers:
                    self._collect(block=False)
                while following in self.done:
                    yield self.done.pop(following)
                    following += 1
                if following == count:
                    finished = True
                    return
                if following in self.failed:
                    raise self.failed.pop(following)
                index = next(mine, None)
                if index is not None:
                    if index < self.first_failure:
                        self._run(index)
                    continue
                chunk = self._take()
                if chunk is not None:
                    mine = iter(range(self.starts[chunk], self.starts[chunk + 1]))
                elif self.workers:
                    self._collect(block=True)
                else:  # every chunk taken, no worker left: one died as it took a chunk
                    raise self._lost(following, self.how_ended or "for no reason given")
        finally:
            self._close(finished)
            if freeze:
                gc.unfreeze()

    def _run(self, index: int) -> None:
        """Run task ``index`` here; its result (or exception) waits for its turn."""
        try:
            self.done[index] = self.function(self.tasks[index])
        except Exception as error:  # raised at its turn, as a worker's would be
            self._fail(index, error)

    def _fail(self, index: int, error: BaseException) -> None:
        self.failed[index] = error
        self.first_failure = min(self.first_failure, index)

    def _fork(self) -> None:
        """Queue the chunks and fork the workers (as many as the system lets us)."""
        self.queue_out, self.queue_in = os.pipe()
        os.set_blocking(self.queue_out, False)
        os.set_blocking(self.queue_in, False)
        self._queue()
        for _ in range(self.processes - 1):
            pipe, end = os.pipe()
            with contextlib.suppress(AttributeError, OSError):  # Linux: room for big chunks
                fcntl.fcntl(end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
            try:
                pid = os.fork()
            except OSError:  # no more processes: the ones there are do the work
                os.close(pipe)
                os.close(end)
                break
            if pid == 0:
                self._serve(end)
            os.close(end)
            os.set_blocking(pipe, False)
            self.workers[pipe] = _Worker(pid, pipe, bytearray())
            self.poller.register(pipe, select.POLLIN)

    def _queue(self) -> None:
        """Put as many chunk numbers into the queue as it holds; close it after the last."""
        while self.unqueued:
            try:
                os.write(self.queue_in, _CHUNK.pack(self.unqueued[0]))
            except BlockingIOError:  # full: the rest when it has room
                return
            self.unqueued.popleft()
        if self.queue_in >= 0:
            os.close(self.queue_in)
            self.queue_in = -1

    def _take(self) -> int | None:
        """The next chunk for this process: from the queue, then those it kept; ``None``
        when every chunk is taken."""
        while self.queue_out >= 0:
            self._queue()
            try:
                data = os.read(self.queue_out, _CHUNK.size)
            except BlockingIOError:  # the workers took all there was: queue more, or wait
                if not self.unqueued:  # for the last fork to close its end of the queue
                    _wait_for(self.queue_out)
                continue
            if data:
                chunk: int = _CHUNK.unpack(data)[0]
                return chunk
            os.close(self.queue_out)  # every chunk of the queue is taken
            self.queue_out = -1
        return self.kept.popleft() if self.kept else None

    def _serve(self, results: int) -> NoReturn:
        """A worker's life: take chunks until none is left, send back each one's results."""
        status = 1
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                signal.signal(signal.SIGINT, signal.SIG_DFL)  # ctrl-C: end quietly
            if self.queue_in >= 0:
                os.close(self.queue_in)  # else the queue would never end
            for pipe in self.workers:
                os.close(pipe)
            while (chunk := _next_chunk(self.queue_out)) is not None:
                _send(results, (chunk, None, None))
                done: list[Result] = []
                error: Exception | None = None
                for index in range(self.starts[chunk], self.starts[chunk + 1]):
                    try:
                        done.append(self.function(self.tasks[index]))
                    except Exception as problem:  # raised in the parent at its turn
                        error = problem
                        break
                _send(results, (chunk, done, error))
                if error is not None:
                    break
            status = 0
        finally:
            os._exit(status)  # never the parent's clean-up, nor its buffered output

    def _collect(self, *, block: bool) -> None:
        """Read what the workers sent (waiting for something if ``block``)."""
        for pipe, _ in self.poller.poll(None if block else 0):
            worker = self.workers[pipe]
            data = os.read(pipe, 1 << 16)
            if not data:
                self._ended(worker)
                continue
            received = worker.received
            received += data
            while len(received) >= _HEADER.size:
                (size,) = _HEADER.unpack_from(received)
                end = _HEADER.size + size
                if len(received) < end:
                    break
                message = pickle.loads(memoryview(received)[_HEADER.size : end])
                del received[:end]
                self._receive(worker, *message)

    def _receive(
        self,
        worker: _Worker,
        chunk: int,
        done: list[Result] | None,
        error: BaseException | None,
    ) -> None:
        if done is None:  # taken
            worker.chunk = chunk
            return
        worker.chunk = None
        start = self.starts[chunk]
        for offset, result in enumerate(done):
            self.done[start + offset] = result
        if error is not None:
            self._fail(start + len(done), error)

    def _ended(self, worker: _Worker) -> None:
        """A worker's pipe closed: it has exited; a chunk it held is lost."""
        del self.workers[worker.pipe]
        self.poller.unregister(worker.pipe)
        os.close(worker.pipe)
        _, status = os.waitpid(worker.pid, 0)
        if status:
            self.how_ended = _how_it_ended(status)
        if worker.chunk is not None:
            start, stop = self.starts[worker.chunk], self.starts[worker.chunk + 1]
            self._fail(start, self._lost(start, self.how_ended, stop - start - 1))

    def _lost(self, index: int, how: str, after: int = 0) -> ChildProcessError:
        """The error for task ``index`` (and ``after`` more), lost with a worker that died."""
        task = self.tasks[index]
        name = self.name(task) if self.name else f"task {index + 1} of {len(self.tasks)}"
        held = f", with {after} more after it," if after else ""
        message = f"the worker process that held it{held} stopped ({how}): no result"
        return ChildProcessError(errno.ECHILD, message, name)

    def _close(self, finished: bool) -> None:
        """End the workers (at once, unless the run finished: then they are ending) and
        close the pipes."""
        for worker in self.workers.values():
            if not finished:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGKILL)
            os.waitpid(worker.pid, 0)
            os.close(worker.pipe)
        self.workers.clear()
        for end in (self.queue_out, self.queue_in):
            if end >= 0:
                os.close(end)
        self.queue_out = self.queue_in = -1


def _next_chunk(queue: int) -> int | None:
    """A worker's next chunk from the queue (waiting for one), or ``None`` when it ends."""
    while True:
        try:
            data = os.read(queue, _CHUNK.size)
        except BlockingIOError:
            _wait_for(queue)
            continue
        return _CHUNK.unpack(data)[0] if data else None


def _wait_for(pipe: int) -> None:
    """Wait until ``pipe`` has something to read, or is closed at the other end."""
    poller = select.poll()
    poller.register(pipe, select.POLLIN)
    poller.poll()


def _send(pipe: int, message: tuple[int, list[Any] | None, Exception | None]) -> None:
    """Send a message to the parent: its length, then its pickled bytes. A result or an
    exception that does not survive pickling is sent as a :class:`RuntimeError` that says so."""
    chunk, _, error = message
    try:
        payload = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        if error is not None:  # an exception may pickle, then fail to unpickle (its args)
            pickle.loads(pickle.dumps(error, pickle.HIGHEST_PROTOCOL))
    except Exception as problem:
        name = "an exception" if error is not None else "a result"
        failure = RuntimeError(
            f"{name} could not be sent back: {type(problem).__name__}: {problem}"
            + (f" (the exception: {type(error).__name__}: {error})" if error is not None else "")
        )
        payload = pickle.dumps((chunk, [], failure), pickle.HIGHEST_PROTOCOL)
    data = memoryview(_HEADER.pack(len(payload)) + payload)
    while data:
        data = data[os.write(pipe, data) :]


def _how_it_ended(status: int) -> str:
    """How a process ended, from its ``waitpid`` status: a signal's name or an exit status."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            return f"killed by {signal.Signals(number).name}"
        except ValueError:
            return f"killed by signal {number}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
