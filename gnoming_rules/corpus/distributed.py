"""Validating a corpus on a Dask cluster (``gnoming validate --dask [ADDRESS]``).

The work is the batch module's own: each task runs
:func:`~gnoming_rules.referee.batch.check_file` over a chunk of files on a worker, so a verdict is
exactly what ``--jobs`` gives, and the reports come back in the order of the files. With
no address a :class:`~distributed.LocalCluster` of worker *processes* starts on this
machine; with one, the client joins that scheduler, whose workers must have the same
``gnoming-rules`` installed and see the files at the same paths (a shared file system).

A worker lost mid-run loses nothing: the scheduler runs its tasks again elsewhere. A
task that keeps killing its workers (``KilledWorker``, after the scheduler's
``allowed-failures``) is split into one task per file, and a file that still kills its
worker, run again alone on the cluster, gets a ``worker-crashed`` report (exit status 2)
instead of stopping the run.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from ..core.errors import UsageError, one_line
from ..extras import need
from ..referee.batch import FileReport, check_file
from ..referee.validate import Verdict, VerdictError

CheckFile = Callable[[str, str | None, bool, tuple[str, ...]], FileReport]
"""What a task runs for one file: ``(path, ruleset, as_json, trusted) -> FileReport``
(``trusted``: folders of rulesets any record may name, as ``--trust-rulesets`` gives)."""

DEFAULT_WORKERS: Final = 2
"""Worker processes of the local cluster."""

DEFAULT_RETRIES: Final = 2
"""Lost workers a task survives on the local cluster (the scheduler's ``allowed-failures``)."""

NO_WORKER_TIMEOUT: Final = 120.0
"""Seconds without any worker after which a run gives up."""

CRASH_CODE: Final = "worker-crashed"
"""The code of a file whose validation killed worker after worker (not a record's code)."""


def _check_chunk(
    check: CheckFile,
    paths: Sequence[str],
    ruleset: str | None,
    as_json: bool,
    trusted: tuple[str, ...] = (),
) -> list[FileReport]:
    """The task a worker runs: the reports of a few files, in order."""
    return [check(path, ruleset, as_json, trusted) for path in paths]


def crash_report(path: str, as_json: bool, why: str) -> FileReport:
    """The report of a file whose verdict is unknown because validating it kills a worker."""
    message = f"validating this file stopped its worker ({why}); its verdict is unknown"
    if as_json:
        error = VerdictError(None, None, CRASH_CODE, None, message)
        text = Verdict(False, False, error, (), (), ()).to_json()
    else:
        text = f"{path}: NOT CHECKED: {CRASH_CODE}: {message}"
    return FileReport(path, 2, text)


class DaskValidator:
    """A Dask client for validating files: on a new local cluster, or on a scheduler.

    ``address=None`` starts a :class:`~distributed.LocalCluster` of ``workers`` processes,
    one thread each, where a task may lose ``retries`` workers before it is split up; with
    an address (``tcp://host:8786``) the scheduler's own settings apply. Use it as a
    context manager: leaving it closes the client and the local cluster.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        workers: int = DEFAULT_WORKERS,
        retries: int = DEFAULT_RETRIES,
        check: CheckFile = check_file,
    ) -> None:
        dask = need("dask", "dask")
        distributed = need("distributed", "dask")
        self.check = check
        self._cluster: Any = None
        self._killed: type[BaseException] = distributed.KilledWorker
        self._size = workers
        self._settings: Any = None
        try:
            if address is None:
                # A worker that takes long to restart (a loaded machine) must not be given
                # up on: the cluster would close its nanny after 15 s and shrink for good.
                self._settings = dask.config.set(
                    {
                        "distributed.scheduler.allowed-failures": retries,
                        "distributed.deploy.lost-worker-timeout": "600s",
                    }
                )
                self._cluster = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # a free port: no clash, no warning
                    silence_logs=logging.CRITICAL,
                )
                self.client: Any = distributed.Client(self._cluster)
            else:
                self.client = distributed.Client(address, timeout="10s")
        except OSError as error:  # no scheduler there, or no port to listen on
            self.close()
            where = address or "a local cluster"
            raise UsageError(
                "dask-unavailable", f"cannot reach {where}: {one_line(str(error))}"
            ) from None

    def __enter__(self) -> DaskValidator:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the client, then the local cluster if this object started it."""
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None
        if self._settings is not None:
            self._settings.__exit__(None, None, None)
            self._settings = None

    @property
    def workers(self) -> int:
        """How many workers the scheduler knows now."""
        return len(self.client.scheduler_info().get("workers", {}))

    def wait_for_workers(self, count: int = 1, timeout: float = 60) -> None:
        """Block until ``count`` workers are up; ``dask-unavailable`` after ``timeout`` s."""
        try:
            self.client.wait_for_workers(count, timeout=timeout)
        except TimeoutError:
            raise UsageError(
                "dask-unavailable", f"fewer than {count} Dask workers after {timeout:g} s"
            ) from None

    def check_files(
        self,
        files: Sequence[Path | str],
        *,
        ruleset: str | None = None,
        as_json: bool = False,
        chunk: int | None = None,
        trusted: Sequence[str | Path] = (),
    ) -> Iterator[FileReport]:
        """The reports for ``files``, in their order, computed on the cluster's workers
        (``trusted``: folders of rulesets that any record may name, as for ``--jobs``).

        Files go in chunks of ``chunk`` (default: about 8 chunks per worker, at most 64
        files), and only a few chunks per worker are in flight at a time, so a corpus of
        millions of files costs the client little memory.
        """
        paths = [str(path) for path in files]
        if not paths:
            return
        folders = tuple(str(folder) for folder in trusted)

        def submit(part: list[str]) -> Any:
            return self._submit(part, ruleset, as_json, folders)

        self.wait_for_workers()
        workers = max(1, self.workers)
        size = chunk or max(1, min(64, len(paths) // (workers * 8)))
        chunks = deque(paths[start : start + size] for start in range(0, len(paths), size))
        window = max(4, 4 * workers)
        flight: deque[tuple[list[str], Any]] = deque()
        while chunks or flight:
            while chunks and len(flight) < window:
                part = chunks.popleft()
                flight.append((part, submit(part)))
            part, future = flight.popleft()
            try:
                reports: list[FileReport] = self._result(future)
            except self._killed:
                if len(part) > 1:  # find the file at fault: one task per file, in order
                    singles = [([path], submit([path])) for path in part]
                    flight.extendleft(reversed(singles))
                    continue
                reports = self._alone(part, flight, submit, as_json)
            except Exception as error:  # the check itself raised: a bug, still one report
                if len(part) > 1:
                    singles = [([path], submit([path])) for path in part]
                    flight.extendleft(reversed(singles))
                    continue
                reports = [crash_report(part[0], as_json, f"{type(error).__name__}: {error}")]
            yield from reports

    def _alone(
        self,
        part: list[str],
        flight: deque[tuple[list[str], Any]],
        submit: Callable[[list[str]], Any],
        as_json: bool,
    ) -> list[FileReport]:
        """The report of a file whose task lost its workers, from a run with nothing else
        on the cluster. A dying worker takes down every task the scheduler had queued on
        it, so a file can be lost beside the one that crashes; only a file that kills its
        worker on its own gets the ``worker-crashed`` report."""
        for _, other in flight:  # let the tasks in flight end; each keeps its outcome
            try:
                self._result(other)
            except UsageError:
                raise
            except Exception:  # met again, in order, when its turn comes
                continue
        try:
            reports: list[FileReport] = self._result(submit(part))
        except self._killed as killed:
            return [crash_report(part[0], as_json, _why(killed))]
        except UsageError:
            raise
        except Exception as error:  # the check itself raised: a bug, still one report
            return [crash_report(part[0], as_json, f"{type(error).__name__}: {error}")]
        return reports

    def _result(self, future: Any) -> Any:
        """The task's result; ``dask-unavailable`` once no worker has been up for
        :data:`NO_WORKER_TIMEOUT` seconds (a cluster whose workers cannot restart)."""
        alone_since: float | None = None
        while True:
            try:
                return future.result(timeout=5)
            except TimeoutError:
                cluster = self._cluster
                if cluster is not None and len(cluster.workers) < self._size:
                    cluster.scale(self._size)  # a nanny the cluster gave up on: a new one
                if self.workers:
                    alone_since = None
                    continue
                now = time.monotonic()
                alone_since = alone_since or now
                if now - alone_since > NO_WORKER_TIMEOUT:
                    raise UsageError(
                        "dask-unavailable",
                        f"no Dask worker has been up for {NO_WORKER_TIMEOUT:g} s: "
                        "the run cannot go on",
                    ) from None

    def _submit(
        self, paths: list[str], ruleset: str | None, as_json: bool, trusted: tuple[str, ...]
    ) -> Any:
        return self.client.submit(
            _check_chunk, self.check, paths, ruleset, as_json, trusted, pure=False
        )


def _why(killed: BaseException) -> str:
    """A one-line reason from a ``KilledWorker``: how many workers died running the task."""
    text = one_line(str(killed))
    return "its worker processes died" + (f": {text[:160]}" if text else "")


def check_files_dask(
    files: Sequence[Path | str],
    *,
    address: str | None = None,
    workers: int = DEFAULT_WORKERS,
    ruleset: str | None = None,
    as_json: bool = False,
    trusted: Sequence[str | Path] = (),
) -> Iterator[FileReport]:
    """:meth:`DaskValidator.check_files` on a cluster made for the run and closed after it:
    a local one of ``workers`` processes, or the scheduler at ``address``; none for no file."""
    if not files:
        return
    with DaskValidator(address, workers=workers) as validator:
        yield from validator.check_files(files, ruleset=ruleset, as_json=as_json, trusted=trusted)


__all__ = [
    "CRASH_CODE",
    "CheckFile",
    "DaskValidator",
    "check_files_dask",
    "crash_report",
]
