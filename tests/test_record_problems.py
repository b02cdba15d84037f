"""Every structural problem of a record is listed, in text and JSON, with the nearest known
name for a misspelt field or action (as ``gnoming ruleset check`` does for rulesets)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from kit import EXAMPLES, ROOT

from gnoming_rules.core.errors import MAX_PROBLEMS, RecordError
from gnoming_rules.formats.record import parse_record
from gnoming_rules.referee.validate import replay_bytes

TINY = json.loads((EXAMPLES / "tiny-game.json").read_text(encoding="utf-8"))


def tiny(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(TINY))
    data.update(changes)
    return data


def misspelt() -> dict[str, Any]:
    """Five faults the schema finds, in four places."""
    data = tiny(resullt={})
    moves = data["rounds"][0]["moves"]
    moves[0]["action"] = "reveel"
    moves[1]["slto"] = moves[1].pop("slot")
    moves[3]["source"] = "pile"  # a draw from a discard pile
    return data


def test_every_problem_the_schema_finds_is_listed_with_the_nearest_name() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(json.dumps(misspelt()))
    error = caught.value
    messages = [problem.message for problem in error.problems]
    assert messages[0].startswith('rounds[0].moves[0].action: unknown action "reveel" (one of ')
    assert messages[0].endswith("\u2014 did you mean reveal?")
    assert "rounds[0].moves[1].slto: unknown field \u2014 did you mean slot?" in messages
    assert "rounds[0].moves[1].slot: missing field" in messages
    assert "resullt: unknown field \u2014 did you mean result?" in messages
    assert error.message == f"{messages[0]} (and {len(messages) - 1} more problems)"
    assert (error.round, error.move) == (0, 0)
    assert [(p.round, p.move) for p in error.problems][-1] == (None, None)  # resullt


def test_a_misspelt_field_of_an_inline_ruleset_is_named_with_the_nearest_field() -> None:
    data = tiny(ruleset={"extends": "standard", "layout": {"colums": 3}})
    verdict = replay_bytes(json.dumps(data).encode()).verdict
    assert verdict.error is not None and verdict.error.code == "unknown-ruleset"
    assert "layout.colums: unknown field \u2014 did you mean cols?" in verdict.error.message


def test_the_structure_the_referee_reads_lists_every_fault_too() -> None:
    data = tiny(first_player=7)
    data["rounds"][0]["moves"][2]["player"] = 9
    data["rounds"][0]["scores"] = [1]
    verdict = replay_bytes(json.dumps(data).encode()).verdict
    assert verdict.error is not None and verdict.error.code == "bad-record"
    listed = verdict.to_dict()["error"]["problems"]
    assert [item["message"].split(":")[0] for item in listed] == [
        "first_player",
        "rounds[0].moves[2].player",
        "rounds[0].scores",
    ]
    assert listed[1]["round"] == 0 and listed[1]["move"] == 2
    assert verdict.error.message.endswith("(and 2 more problems)")


def test_one_problem_keeps_the_verdict_as_it_was() -> None:
    verdict = replay_bytes(json.dumps(tiny(first_player=7)).encode()).verdict
    assert verdict.error is not None
    assert "problems" not in verdict.to_dict()["error"]


def test_a_record_with_a_million_faults_lists_a_hundred_and_counts_the_rest() -> None:
    data = tiny()
    data["rounds"][0]["moves"] = [{"action": "reveal", "player": 0, "slot": "x"}] * 5000
    with pytest.raises(RecordError) as caught:
        parse_record(json.dumps(data))
    assert len(caught.value.problems) == MAX_PROBLEMS
    assert caught.value.message.endswith("(and 4999 more problems)")


def test_gnoming_validate_lists_them_in_text_and_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(misspelt()), encoding="utf-8")
    command = [sys.executable, "-m", "gnoming_rules", "validate"]
    text = subprocess.run(
        [*command, str(bad)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    lines = text.stdout.splitlines()
    assert text.returncode == 2
    assert lines[0].startswith(f"{bad}: NOT PLAYABLE at round 0, move 0: bad-record: ")
    assert "  resullt: unknown field \u2014 did you mean result?" in lines
    assert "  rounds[0].moves[1].slto: unknown field \u2014 did you mean slot?" in lines
    done = subprocess.run(
        [*command, "--json", str(bad)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    error = json.loads(done.stdout)["error"]
    assert len(error["problems"]) == len(lines)
    assert [item["message"] for item in error["problems"]][1:] == [line[2:] for line in lines[1:]]
