"""Spreading tasks over processes (``referee.processes.in_processes``, and
``referee.batch.check_files`` on it): the
results in the order of the tasks, this process one of the workers, the first task's
loading inherited by the forks, an exception at its turn, a dead worker a clear error and
never a hang, and nothing left running when the caller stops early or is interrupted."""

from __future__ import annotations

import copy
import errno
import itertools
import os
import pickle
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import cast

import pytest
from kit import EXAMPLES, ROOT

from gnoming_rules.cli import main
from gnoming_rules.formats.rulesets import load_ruleset
from gnoming_rules.referee import batch, processes, resolver
from gnoming_rules.referee.batch import check_files
from gnoming_rules.referee.processes import SERIAL_BELOW, chunk_starts, in_processes

TASKS = 60
PAUSE = 0.003
"""Each task sleeps this long, so that both processes surely take some of them."""


@pytest.fixture
def two_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "available_cpus", lambda: 2)


def square(index: int) -> tuple[int, int]:
    """A task: its index squared, and the process that ran it."""
    time.sleep(PAUSE)
    return index * index, os.getpid()


def games(folder: Path, count: int) -> list[Path]:
    """``count`` copies of a valid record in ``folder``, beside the ruleset file it names."""
    shutil.copy(EXAMPLES / "tiny.yaml", folder)
    files = [folder / f"game-{index:02d}.json" for index in range(count)]
    for path in files:
        shutil.copy(EXAMPLES / "tiny-game.json", path)
    return files


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended and been reaped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.usefixtures("two_cpus")
def test_results_come_in_the_order_of_the_tasks_from_both_processes(forked: list[int]) -> None:
    results = list(in_processes(square, range(TASKS), jobs=2))
    assert [value for value, _ in results] == [index * index for index in range(TASKS)]
    assert len(forked) == 1  # --jobs 2: this process and one fork
    workers = {pid for _, pid in results}
    assert workers == {os.getpid(), forked[0]}
    assert results[0][1] == os.getpid()  # the first task ran here, before the fork
    assert gone(forked[0])


@pytest.mark.usefixtures("two_cpus")
def test_this_process_keeps_the_last_tasks_so_the_worker_ends_first(forked: list[int]) -> None:
    """The last chunks are never queued: the worker runs out of work and exits while this
    process checks them, so that the run does not end waiting for the worker to exit."""
    results = list(in_processes(square, range(TASKS), jobs=2))
    assert processes.KEPT >= 1
    assert {pid for _, pid in results[-processes.KEPT :]} == {os.getpid()}
    assert {pid for _, pid in results} == {os.getpid(), forked[0]} and gone(forked[0])


@pytest.mark.usefixtures("two_cpus")
def test_when_no_process_can_be_forked_this_one_does_every_task(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Out of processes (``EAGAIN``): this process takes every chunk of the queue, then
    the ones it kept, and nothing waits for a worker that never was."""

    def refused() -> int:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    results = list(in_processes(square, range(TASKS), jobs=2))
    assert results == [(index * index, os.getpid()) for index in range(TASKS)]


def test_a_report_comes_back_from_a_worker_equal() -> None:
    report = batch.FileReport("game.json", 1, "game.json: invalid: \u001b[31m")
    assert pickle.loads(pickle.dumps(report, pickle.HIGHEST_PROTOCOL)) == report
    assert copy.deepcopy(report) == report


def test_chunks_cover_every_task_once_and_shrink_towards_the_end() -> None:
    for count in (SERIAL_BELOW, 9, 60, 300, 100_000):
        starts = chunk_starts(count, 2)
        assert starts[:2] == [0, 1] and starts[-1] == count  # the first task alone
        sizes = [stop - start for start, stop in itertools.pairwise(starts)]
        assert min(sizes) == 1 and max(sizes) <= processes.CHUNK_MOST
        assert sizes[1:] == sorted(sizes[1:], reverse=True)
        assert sizes[-1] == 1


@pytest.mark.usefixtures("two_cpus")
def test_results_are_handed_out_before_the_last_task_has_run(tmp_path: Path) -> None:
    """A big run streams: each result is handed out as soon as those before it are in."""
    log = tmp_path / "done"

    def logged(index: int) -> int:
        time.sleep(PAUSE)
        with log.open("a") as out:
            out.write(f"{index}\n")
        return index

    seen = []
    for result in in_processes(logged, range(TASKS), jobs=2):
        seen.append(len(log.read_text().splitlines()))
        assert result == len(seen) - 1
    assert seen[0] < TASKS // 2 and seen[-1] == TASKS


@pytest.mark.usefixtures("two_cpus")
def test_small_runs_and_one_job_stay_in_this_process(forked: list[int]) -> None:
    few = range(SERIAL_BELOW - 1)
    assert list(in_processes(square, few, jobs=2)) == [(i * i, os.getpid()) for i in few]
    assert list(in_processes(square, range(20), jobs=1)) == [
        (i * i, os.getpid()) for i in range(20)
    ]
    assert forked == []


@pytest.mark.usefixtures("two_cpus")
def test_the_forks_inherit_what_the_first_task_loaded(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, forked: list[int]
) -> None:
    """The first record is checked here before forking: its ruleset, loaded once, is in
    the resolver the worker inherits, so no process loads it again."""
    files = games(tmp_path, 24)
    loads, checks = tmp_path / "loads", tmp_path / "checks"
    check = batch.check_file

    def loading(*args: object, **options: object) -> object:
        with loads.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return load_ruleset(*args, **options)  # type: ignore[arg-type]

    def checking(*args: object) -> batch.FileReport:
        time.sleep(PAUSE)
        with checks.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return check(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "_resolvers", {})  # as in a new process
    monkeypatch.setattr(resolver, "load_ruleset", loading)  # where the resolver calls it
    monkeypatch.setattr(batch, "check_file", checking)
    reports = list(check_files(files, jobs=2, as_json=True))
    assert [report.path for report in reports] == [str(path) for path in files]
    assert {report.status for report in reports} == {0}
    assert len(forked) == 1
    assert set(checks.read_text().split()) == {str(os.getpid()), str(forked[0])}
    assert loads.read_text().split() == [str(os.getpid())]  # once, here


def fails_at_25(index: int) -> int:
    time.sleep(PAUSE)
    if index == 25:
        raise ValueError(f"task {index} refuses")
    return index


@pytest.mark.usefixtures("two_cpus")
def test_an_exception_is_raised_at_its_task_s_turn(forked: list[int]) -> None:
    got: list[int] = []
    with pytest.raises(ValueError, match="task 25 refuses"):
        got.extend(in_processes(fails_at_25, range(TASKS), jobs=2))
    assert got == list(range(25))
    assert len(forked) == 1 and gone(forked[0])
    with pytest.raises(ValueError, match="task 25 refuses"):
        list(in_processes(fails_at_25, range(25, 25 + TASKS), jobs=2))
    assert len(forked) == 1  # the first task failed here: no worker was started


@pytest.mark.usefixtures("two_cpus")
def test_an_exception_that_cannot_be_sent_back_is_still_raised() -> None:
    parent = os.getpid()

    class LocalError(Exception):
        """Defined in a function: pickle cannot find it by name."""

    def refuses(index: int) -> int:
        time.sleep(PAUSE)
        if os.getpid() != parent:
            raise LocalError(f"task {index}")
        return index

    with pytest.raises((LocalError, RuntimeError)) as raised:
        list(in_processes(refuses, range(TASKS), jobs=2))
    assert raised.type is RuntimeError
    assert "an exception could not be sent back" in str(raised.value)
    assert "(the exception: LocalError: task " in str(raised.value)


def chunk_size(start: int) -> int:
    """How many tasks follow ``start`` in its chunk (of a run of :data:`TASKS` on two)."""
    starts = chunk_starts(TASKS, 2)
    return starts[starts.index(start) + 1] - start - 1


def dies_in_a_fork(parent: int) -> Callable[[int], int]:
    """A task that kills its process when it runs in a fork."""

    def task(index: int) -> int:
        time.sleep(PAUSE)
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return index

    return task


@pytest.mark.usefixtures("two_cpus")
def test_a_worker_that_dies_is_a_clear_error_never_a_hang(forked: list[int]) -> None:
    got: list[int] = []
    with pytest.raises(ChildProcessError) as raised:
        got.extend(in_processes(dies_in_a_fork(os.getpid()), range(TASKS), jobs=2))
    assert got and got == list(range(len(got)))  # every result before the first one lost
    error = raised.value
    assert error.filename == f"task {len(got) + 1} of {TASKS}"
    assert error.strerror == (
        f"the worker process that held it, with {chunk_size(len(got))} more after it, "
        "stopped (killed by SIGKILL): no result"
    )
    assert len(forked) == 1 and gone(forked[0])


@pytest.mark.usefixtures("two_cpus")
def test_validate_names_the_file_a_dead_worker_held(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = games(tmp_path, 20)
    check, parent = batch.check_file, os.getpid()

    def checking(path: str, *args: object) -> batch.FileReport:
        time.sleep(PAUSE)
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return check(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "check_file", checking)
    assert main(["validate", "--jobs", "2", *map(str, files)]) == 2
    out, err = capsys.readouterr()
    printed = len(out.splitlines())
    valid = "valid, complete: totals [-10, -18, 7], winner seat 1 (Bo)"
    assert printed >= 1 and out.splitlines() == [f"{path}: {valid}" for path in files[:printed]]
    lost = files[printed]
    assert err.startswith(f"gnoming: {lost}: the worker process that held it")
    assert err.rstrip().endswith("stopped (killed by SIGKILL): no result")
    assert len(err.splitlines()) == 1


@pytest.mark.usefixtures("two_cpus")
def test_stopping_early_ends_the_worker(forked: list[int]) -> None:
    results = cast(Generator[tuple[int, int]], in_processes(square, range(TASKS), jobs=2))
    for _, pid in results:
        if pid != os.getpid():
            break
    assert len(forked) == 1 and not gone(forked[0])
    results.close()  # as a reader that went away, or ctrl-C, ends the loop
    assert gone(forked[0])


@pytest.mark.usefixtures("two_cpus")
def test_a_system_without_fork_uses_a_pool(
    monkeypatch: pytest.MonkeyPatch, forked: list[int]
) -> None:
    monkeypatch.setattr(processes, "CAN_FORK", False)
    assert list(in_processes(abs, range(-20, 0), jobs=2)) == list(range(20, 0, -1))
    assert len(forked) == 2  # the pool's two workers, none of ours


SCRIPT = """
import os, sys, time
from gnoming_rules.referee import processes

def slow(index):
    time.sleep(0.05)
    return index

processes.available_cpus = lambda: 2
try:
    for result in processes.in_processes(slow, range(200), jobs=2):
        print(result, flush=True)
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
    sys.exit(130)
"""


def test_ctrl_c_ends_every_process_quietly() -> None:
    """The terminal's ctrl-C reaches the whole process group: the worker ends without a
    word, and this process says it was interrupted, leaving nothing running."""
    process = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(SCRIPT)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job
        cwd=ROOT,
    )
    assert process.stdout is not None
    assert [process.stdout.readline() for _ in range(3)] == ["0\n", "1\n", "2\n"]
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert err == "interrupted\n"
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)  # no process of the group is left


def test_standard_input_is_read_whichever_process_checks_it(tmp_path: Path) -> None:
    """``-`` among many files: the process that checks it reads this command's standard
    input (a pool's workers once read an empty one, and called the record null)."""
    files = [str(path) for path in games(tmp_path, 9)]
    done = subprocess.run(
        [sys.executable, "-m", "gnoming_rules", "validate", "--jobs", "2", *files, "-"],
        input=(EXAMPLES / "demo-game.json").read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    assert done.stdout.splitlines()[-2:] == [
        "-: valid, complete: totals [44, 28, 12, 66], winner seat 2 (Cy)",
        "10 files: 10 valid, 0 invalid, 0 unreadable",
    ]
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.usefixtures("two_cpus")
def test_more_chunks_than_the_queue_holds_are_queued_as_it_empties(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pipe holds 64 KiB: 20,000 chunks of one task (80,000 bytes of chunk numbers) are
    queued as the processes take them, in order, none lost nor taken twice."""
    monkeypatch.setattr(processes, "CHUNK_MOST", 1)
    count = 20_000
    assert len(chunk_starts(count, 2)) == count + 1
    assert list(in_processes(abs, range(-count, 0), jobs=2)) == list(range(count, 0, -1))
