"""The corpus commands: ``validate --dask`` prints what ``--jobs`` prints, ``stats`` and
``impact`` print their numbers, write their reports and rows, and refuse bad options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gnoming_rules as gr
from gnoming_rules.cli import main
from gnoming_rules.formats.record import write_record
from gnoming_rules.play.bots import play_game


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("records")
    rules = gr.load_ruleset("standard")
    for seed in range(9):
        record, _ = play_game(rules, 3 + seed % 2, seed=seed, rounds=1 + seed % 3)
        write_record(record, folder / f"game-{seed}.json")
    (folder / "broken.json").write_text('{"format": "gnoming-record/1"}', encoding="utf-8")
    return folder


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_validate_on_a_local_dask_cluster_prints_what_jobs_prints(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    expected = _run(capsys, "validate", str(corpus), "--json", "--jobs", "1")
    assert expected[0] == 2 and len(expected[1].splitlines()) == 10
    # --dask before the files: a word that is no scheduler address is the first file
    got = _run(capsys, "validate", "--dask", str(corpus), "--json")
    assert got == expected


def test_validate_refuses_jobs_with_a_scheduler_address(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run(
        capsys, "validate", str(corpus), "--dask", "tcp://127.0.0.1:9", "--jobs", "2"
    )
    assert status == 2 and "--jobs" in err and "usage" in err


def test_stats_prints_a_summary_and_writes_the_report_and_rows(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(capsys, "stats", str(corpus), "--json", "--jobs", "1")
    summary = json.loads(out)
    assert status == 0 and summary["games"] == 10 and summary["valid"] == 9
    assert summary["invalid_by_code"] == {"bad-record": 1}
    report, rows = tmp_path / "stats.html", tmp_path / "rows.csv"
    status, out, _ = _run(
        capsys, "stats", str(corpus), "--html", str(report), "--out", str(rows), "--jobs", "1"
    )
    assert status == 0 and out.startswith("10 records: 9 valid (3 complete, 6 unfinished, ")
    assert "data:image/png;base64," in report.read_text(encoding="utf-8")
    assert len(rows.read_text(encoding="utf-8").splitlines()) == 11
    assert (tmp_path / "rows.rounds.csv").exists()


def test_stats_refuses_rows_of_another_kind(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run(capsys, "stats", str(corpus), "--out", str(tmp_path / "rows.xlsx"))
    assert status == 2 and ".csv or .parquet" in err


def test_impact_of_a_ruleset_on_itself_is_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        capsys, "impact", "standard", "standard", "--games", "3", "--players", "3", "--json"
    )
    document = json.loads(out)
    assert status == 0 and document["games"] == 3 and document["changes"] is None
    assert all(d["difference"] == d["low"] == d["high"] == 0 for d in document["differences"])


def test_impact_on_a_corpus_lists_the_records_that_change(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "impact.html"
    status, out, _ = _run(
        capsys, "impact", "standard", "no-bounce", "--corpus", str(corpus), "--jobs", "1",
        "--html", str(report), "--json",
    )  # fmt: skip
    document = json.loads(out)
    assert status == 0 and document["records"] == 10 and document["unreadable"] == 1
    assert document["changes"], "some of these games bounce"
    for change in document["changes"]:
        assert change["kind"] == "verdict" and change["reason"] == "B: cannot-bounce (rule 5.3)"
    assert "Records that change" in report.read_text(encoding="utf-8")


@pytest.mark.parametrize("players", ["7-3", "three", "2-9"])
def test_impact_refuses_player_counts_it_cannot_seat(
    players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run(
        capsys, "impact", "standard", "quick", "--games", "1", "--players", players
    )
    assert status == 2 and err.startswith("gnoming: ")
