"""Validation on a local Dask cluster: the same reports as one process, in the same order,
through a worker lost mid-run and a record that crashes every worker that touches it.

The crashes come from a test seam: :class:`DaskValidator` takes the per-file check, and
the checks below kill their own worker process (``SIGKILL`` once, as an out-of-memory
killer would; ``SIGSEGV`` every time, as a crash in the interpreter would). One cluster
serves the module: starting worker processes is the slow part.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dask extra is not installed")

import cloudpickle  # type: ignore[import-untyped]

import gnoming_rules as gr
from gnoming_rules.corpus.distributed import CRASH_CODE, DaskValidator, check_files_dask
from gnoming_rules.formats import Record
from gnoming_rules.formats.record import write_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.batch import FileReport, check_file, check_files

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the seams run on the workers

LOST = "game-03.json"
"""The file whose first check kills its worker (the worker is lost, the file is not)."""
CRASHING = "game-05.json"
"""The file whose check kills every worker that runs it."""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("corpus")
    rules = gr.load_ruleset("standard")
    paths = []
    for index in range(10):
        record, _ = play_game(rules, 3, seed=index, rounds=1)
        if index == 7:  # one invalid record: a false card claim
            data = record.model_dump(mode="json", exclude_none=True)
            data["rounds"][0]["moves"][6]["card"] = 99
            record = Record.model_validate(data)
        path = folder / f"game-{index:02d}.json"
        write_record(record, path)
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def validator() -> Iterator[DaskValidator]:
    with DaskValidator(workers=2, retries=1) as made:
        made.wait_for_workers(2)
        yield made


def _dies_once(
    path: str, ruleset: str | None, as_json: bool, trusted: tuple[str, ...]
) -> FileReport:
    """Kill this worker the first time ``LOST`` comes up (a flag file beside it says so)."""
    flag = Path(path).with_suffix(".lost")
    if path.endswith(LOST) and not flag.exists():
        flag.write_text("lost once")
        os.kill(os.getpid(), signal.SIGKILL)
    return check_file(path, ruleset, as_json, trusted)


def _segfaults(
    path: str, ruleset: str | None, as_json: bool, trusted: tuple[str, ...]
) -> FileReport:
    """Crash this worker every time ``CRASHING`` comes up."""
    if path.endswith(CRASHING):
        os.kill(os.getpid(), signal.SIGSEGV)
    return check_file(path, ruleset, as_json, trusted)


def test_the_cluster_gives_the_single_process_reports_in_order(
    corpus: list[Path], validator: DaskValidator
) -> None:
    for as_json in (True, False):
        expected = list(check_files(corpus, jobs=1, as_json=as_json))
        assert [report.status for report in expected].count(1) == 1
        got = list(validator.check_files(corpus, as_json=as_json, chunk=3))
        assert got == expected


def test_a_worker_lost_mid_run_loses_no_verdict(
    corpus: list[Path], validator: DaskValidator
) -> None:
    expected = list(check_files(corpus, jobs=1, as_json=True))
    validator.check = _dies_once
    try:
        got = list(validator.check_files(corpus, as_json=True, chunk=2))
    finally:
        validator.check = check_file
    assert corpus[3].with_suffix(".lost").exists()  # the worker was killed
    assert got == expected


def test_a_record_that_crashes_its_workers_is_reported_not_fatal(
    corpus: list[Path], validator: DaskValidator
) -> None:
    expected = list(check_files(corpus, jobs=1, as_json=True))
    validator.check = _segfaults
    try:
        got = list(validator.check_files(corpus, as_json=True, chunk=4))
        human = list(validator.check_files(corpus[5:6], as_json=False))
    finally:
        validator.check = check_file
    crashed = [index for index, report in enumerate(got) if report != expected[index]]
    assert crashed == [5]
    assert got[5].status == 2 and got[5].path == str(corpus[5])
    verdict = json.loads(got[5].text)
    assert verdict["valid"] is False and verdict["error"]["code"] == CRASH_CODE
    assert "verdict is unknown" in verdict["error"]["message"]
    assert human[0].text.startswith(f"{corpus[5]}: NOT CHECKED: {CRASH_CODE}: ")


def test_trusted_ruleset_folders_reach_the_workers(
    tmp_path: Path, validator: DaskValidator
) -> None:
    """A record naming a ruleset in a trusted folder outside its own gets the verdict it
    gets in one process with the same trust (and ``unknown-ruleset`` without it)."""
    trust, records = tmp_path / "trust", tmp_path / "records"
    trust.mkdir()
    records.mkdir()
    (trust / "ours.yaml").write_text("extends: standard\nrounds: 1\n", encoding="utf-8")
    rules = gr.load_ruleset(trust / "ours.yaml")
    record, _ = play_game(rules, 3, seed=4, ruleset_ref="../trust/ours.yaml")
    path = records / "game.json"
    write_record(record, path)
    trusted = list(validator.check_files([path], as_json=True, trusted=[trust]))
    assert trusted == list(check_files([path], jobs=1, as_json=True, trusted=[trust]))
    assert json.loads(trusted[0].text)["valid"] is True
    untrusted = json.loads(next(validator.check_files([path], as_json=True)).text)
    assert untrusted["error"]["code"] == "unknown-ruleset"


def test_an_existing_scheduler_serves_the_same_reports(
    corpus: list[Path], validator: DaskValidator
) -> None:
    """``--dask ADDRESS``: a client of a scheduler that is already running (here, the
    module's cluster's), which leaves that cluster running when it closes."""
    address = validator.client.scheduler.address
    with DaskValidator(address) as remote:
        got = list(remote.check_files(corpus, as_json=True))
    assert got == list(check_files(corpus, jobs=1, as_json=True))
    # The cluster outlives the client: the module's validator still checks files.
    assert list(validator.check_files(corpus[:1], as_json=True)) == got[:1]


def test_no_address_and_no_file_start_nothing() -> None:
    assert list(check_files_dask([])) == []


def test_an_address_with_no_scheduler_is_a_typed_error() -> None:
    with pytest.raises(gr.GnomingError) as refused:
        DaskValidator("tcp://127.0.0.1:9")
    assert refused.value.code == "dask-unavailable"
    assert "tcp://127.0.0.1:9" in refused.value.message


def test_only_the_record_that_crashes_alone_is_reported(corpus: list[Path]) -> None:
    """On one worker the scheduler queues the next files beside the crashing one, and they
    die with it; with no retries they would be lost at once. Each is run again alone, so
    only the crashing record gets the crash report."""
    files = corpus[4:8]
    expected = list(check_files(files, jobs=1, as_json=True))
    with DaskValidator(workers=1, retries=0, check=_segfaults) as alone:
        got = list(alone.check_files(files, as_json=True, chunk=1))
    crashed = [files[index].name for index, report in enumerate(got) if report != expected[index]]
    assert crashed == [CRASHING]
