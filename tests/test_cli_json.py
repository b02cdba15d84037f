"""``--json`` on every command: one JSON document per line, each valid under the command's
committed schema (schemas/cli/), holding what the text output says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from kit import EXAMPLES, ILLEGAL, ROOT, gnoming

import gnoming_rules as gr
from gnoming_rules.cli.app import commands
from gnoming_rules.formats import read_record, state_from_dict
from gnoming_rules.formats.schemas import ruleset_schema
from gnoming_rules.play.observation_json import observation_from_dict
from gnoming_rules.referee.validate import validate_file

LEAVES = {words: leaf for command in commands() for words, leaf in command.leaves()}


def documents(words: str, text: str) -> list[Any]:
    """Every line of ``text`` as JSON, each checked against the schema of ``words``."""
    name = "-".join(words.split()[1:])
    lines = text.splitlines()
    assert lines, f"{words}: no output"
    found = [json.loads(line) for line in lines]
    if LEAVES[words].output is not None:
        schema = json.loads((ROOT / "schemas" / "cli" / f"{name}.schema.json").read_text())
        for document in found:
            jsonschema.validate(document, schema)
    return found


def test_validate(tmp_path: Path) -> None:
    paths = [EXAMPLES / "tiny-game.json", ILLEGAL / "bad-deal.json", ILLEGAL / "cannot-bounce.json"]
    done = gnoming("validate", "--json", *map(str, paths))
    assert done.returncode == 2
    verdicts = documents("gnoming validate", done.stdout)
    assert verdicts == [validate_file(path).to_dict() for path in paths]


def test_validate_a_public_record() -> None:
    path = EXAMPLES / "public" / "tiny-game.json"
    done = gnoming("validate", "--json", str(path))
    assert done.returncode == 0, done.stderr
    (verdict,) = documents("gnoming validate", done.stdout)
    assert verdict["information"] == "public" and verdict == validate_file(path).to_dict()
    schema = json.loads((ROOT / "schemas" / "cli" / "validate.schema.json").read_text())
    with pytest.raises(jsonschema.ValidationError):  # the schema types the field
        jsonschema.validate({**verdict, "information": "full"}, schema)


def test_stats() -> None:
    done = gnoming("stats", "--json", "--jobs", "1", "examples")
    assert done.returncode == 0, done.stderr
    (summary,) = documents("gnoming stats", done.stdout)
    assert (summary["games"], summary["valid"]) == (37, 10)
    assert summary["invalid_by_code"]["cannot-bounce"] == 1


def test_impact_of_games_and_of_a_corpus() -> None:
    done = gnoming("impact", "standard", "standard", "--json", "--games", "2", "--players", "3")
    assert done.returncode == 0, done.stderr
    (same,) = documents("gnoming impact", done.stdout)
    assert same["games"] == 2 and same["changes"] is None
    assert {d["difference"] for d in same["differences"]} == {0}
    done = gnoming(
        "impact", "standard", "no-bounce", "--json", "--jobs", "1", "--corpus", "examples"
    )
    (replayed,) = documents("gnoming impact", done.stdout)
    assert replayed["records"] == 37 and replayed["changes"] is not None


def test_play_to_a_file_and_to_standard_output(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    done = gnoming("play", "--json", "--players", "3", "--seed", "7", "--out", str(out))
    assert done.returncode == 0 and done.stderr == ""
    (summary,) = documents("gnoming play", done.stdout)
    verdict = validate_file(out)
    assert summary["seed"] == 7 and summary["out"] == str(out) and summary["bot"] == "greedy"
    assert summary["totals"] == list(verdict.totals) and summary["winners"] == list(verdict.winners)
    assert summary["ruleset_sha256"] == gr.load_ruleset("standard").sha256
    assert summary["moves"] == sum(len(r.moves) for r in read_record(out).rounds)
    piped = gnoming("play", "--json", "--players", "3", "--seed", "7", "--out", "-")
    assert piped.returncode == 0
    (again,) = documents("gnoming play", piped.stderr)
    assert {**again, "out": str(out)} == summary
    assert json.loads(piped.stdout)["format"] == "gnoming-record/1"


def test_show_a_point_and_a_failure() -> None:
    done = gnoming("show", "--json", "examples/tiny-game.json", "--round", "1", "--move", "4")
    assert done.returncode == 0, done.stderr
    (table,) = documents("gnoming show", done.stdout)
    assert (table["round"], table["move"], table["error"]) == (1, 4, None)
    assert table["next_move"] == {"action": "place", "player": 0, "slot": 2, "card": "H"}
    assert table["state"]["format"] == "gnoming-state/1" and table["to_move"] == 0
    assert state_from_dict(table["state"]).held == 1
    stopped = gnoming("show", "--json", "examples/illegal/cannot-bounce.json")
    (failed,) = documents("gnoming show", stopped.stdout)
    assert failed["error"]["code"] == "cannot-bounce" and failed["move"] == failed["error"]["move"]


def test_show_as_a_seat_sees_it() -> None:
    done = gnoming(
        "show", "--json", "examples/tiny-game.json", "--round", "1", "--move", "4", "--seat", "1"
    )
    assert done.returncode == 0, done.stderr
    (table,) = documents("gnoming show", done.stdout)
    assert table["state"] is None and table["view"]["format"] == "gnoming-observation/1"
    assert table["next_move"] == {"action": "place", "player": 0, "slot": 2}  # no card yet
    view = observation_from_dict(table["view"])
    assert view.seat == 1 and view.layouts[0][0] is None and view.held == 1
    spectator = gnoming("show", "--json", "examples/tiny-game.json", "--spectator")
    (seen,) = documents("gnoming show", spectator.stdout)
    assert seen["view"]["seat"] is None
    wrong = gnoming("show", "examples/tiny-game.json", "--seat", "3")
    assert wrong.returncode == 2 and "--seat 3: the record has seats 0 to 2" in wrong.stderr


def test_redact_to_a_file_and_to_standard_output(tmp_path: Path) -> None:
    out = tmp_path / "public.yaml"
    done = gnoming("redact", "--json", "examples/tiny-game.yaml", "-o", str(out))
    assert done.returncode == 0, done.stderr
    (summary,) = documents("gnoming redact", done.stdout)
    assert summary["out"] == str(out) and summary["record"] is None and summary["error"] is None
    public = validate_file(out)  # its ruleset path was rewritten to be found from tmp_path
    assert public.valid and public.information == "public"
    assert public.scores == validate_file(EXAMPLES / "tiny-game.yaml").scores
    assert summary["moves"] == sum(len(r.moves) for r in read_record(out).rounds)
    printed = gnoming("redact", "--json", "examples/illegal/cannot-bounce.json")
    assert printed.returncode == 1
    (refused,) = documents("gnoming redact", printed.stdout)
    assert refused["record"]["information"] == "public"
    assert refused["error"]["code"] == "cannot-bounce"
    again = gnoming("redact", "examples/public/tiny-game.json")
    assert again.returncode == 2 and "the record is public already" in again.stderr


def test_serve(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn", reason="the server extra: pip install -e '.[server]'")
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "tables.sqlite"
    command = [sys.executable, "-m", "gnoming_rules", "serve", "--json", "--db", str(db)]
    server = subprocess.Popen(
        [*command, "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        (started,) = documents("gnoming serve", server.stdout.readline())
    finally:
        server.terminate()
        server.wait(20)
    assert started == {"url": f"http://127.0.0.1:{port}/", "storage": "sqlite"}


def test_score() -> None:
    done = gnoming("score", "--json", "5", "5", "M", "3", "-2", "9", "5", "H", "1")
    (score,) = documents("gnoming score", done.stdout)
    assert score["total"] == 21 and score["cards"] == [5, 5, "M", 3, -2, 9, 5, "H", 1]
    assert score["sets"] == [{"name": "row 0", "slots": [0, 1, 2], "value": 5}]
    assert score["wild"] == [2]
    assert sum(card["points"] for card in score["points"]) - 5 == 21


def test_rulesets() -> None:
    (listing,) = documents("gnoming rulesets", gnoming("rulesets", "--json").stdout)
    assert [entry["name"] for entry in listing["rulesets"]] == gr.bundled_rulesets()
    standard = next(entry for entry in listing["rulesets"] if entry["name"] == "standard")
    assert standard["sha256"] == gr.load_ruleset("standard").sha256 and standard["error"] is None


def test_ruleset_show() -> None:
    (shown,) = documents(
        "gnoming ruleset show", gnoming("ruleset", "show", "--json", "quick").stdout
    )
    assert gr.load_ruleset(shown["ruleset"]).sha256 == shown["sha256"]
    assert shown["sha256"] == gr.load_ruleset("quick").sha256


def test_ruleset_check(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: standard\nlayout: {rows: 9}\nroundz: 2\n", encoding="utf-8")
    done = gnoming("ruleset", "check", "--json", "standard", str(bad), str(tmp_path / "no.yaml"))
    assert done.returncode == 2
    good, broken, missing = documents("gnoming ruleset check", done.stdout)
    assert good["ok"] and good["sha256"] == gr.load_ruleset("standard").sha256
    assert not broken["ok"] and broken["errors"] == [
        {
            "code": "bad-ruleset",
            "file": str(bad),
            "path": "roundz",
            "message": "unknown field — did you mean rounds?",
        }
    ]
    bad.write_text("extends: standard\nlayout: {rows: 9, cols: 1}\n", encoding="utf-8")
    (values,) = documents(
        "gnoming ruleset check", gnoming("ruleset", "check", "--json", str(bad)).stdout
    )
    assert [error["path"] for error in values["errors"]] == ["layout.rows", "layout.cols"]
    assert missing["errors"][0]["code"] == "unknown-ruleset" and missing["name"] is None


def test_ruleset_schema() -> None:
    (schema,) = documents("gnoming ruleset schema", gnoming("ruleset", "schema", "--json").stdout)
    assert schema == ruleset_schema()


def test_ruleset_diff() -> None:
    done = gnoming("ruleset", "diff", "--json", "standard", "examples/tiny.yaml")
    (diff,) = documents("gnoming ruleset diff", done.stdout)
    assert {"path": "rounds", "old": 3, "new": 2} in diff["changes"]
    assert {"path": "deck.numbers.12", "old": 6} in diff["changes"]  # absent in tiny
    assert len(diff["changes"]) == 25
    assert diff["labels"][0] == {"path": "name", "old": "standard", "new": "tiny"}
    assert diff["old"]["sha256"] == gr.load_ruleset("standard").sha256


def test_replay_a_valid_and_a_refused_record(tmp_path: Path) -> None:
    for record, status in ((EXAMPLES / "tiny-game.json", 0), (ILLEGAL / "cannot-bounce.json", 1)):
        page = tmp_path / f"{record.stem}.html"
        done = gnoming("replay", "--json", str(record), "-o", str(page))
        assert done.returncode == status, done.stderr
        (written,) = documents("gnoming replay", done.stdout)
        verdict = validate_file(record).to_dict()
        assert written["valid"] == verdict["valid"] and written["error"] == verdict["error"]
        assert written["bytes"] == page.stat().st_size and written["positions"] > 0


def test_tournament(tmp_path: Path) -> None:
    args = ["tournament", "--ruleset", "examples/tiny.yaml", "--players", "2", "--deals", "1"]
    args += ["--bot", "greedy", "--bot", "random", "--out", str(tmp_path / "tour")]
    done = gnoming(*args, "--json")
    assert done.returncode == 0, done.stderr
    (written,) = documents("gnoming tournament", done.stdout)
    assert (written["games"], written["played"], written["forfeits"]) == (2, 2, 0)
    assert [bot["label"] for bot in written["bots"]] == ["greedy", "random"]
    text = gnoming(*args).stdout  # the same folder: read back, not played again
    assert text.startswith("2 games (0 played, 2 resumed) of 2 players, ruleset tiny")


def test_every_command_is_tested_here() -> None:
    tested = {
        name.removeprefix("test_").replace("_", " ")
        for name in globals()
        if name.startswith("test_") and name != "test_every_command_is_tested_here"
    }
    for words in LEAVES:
        command = " ".join(words.split()[1:])
        assert any(name.startswith(command) for name in tested), f"{words}: no --json test"


@pytest.mark.parametrize("words", sorted(LEAVES))
def test_every_command_has_a_committed_output_schema(words: str) -> None:
    name = "-".join(words.split()[1:])
    if LEAVES[words].output is None:  # ruleset schema prints a JSON Schema itself
        assert words == "gnoming ruleset schema"
        return
    schema = json.loads((ROOT / "schemas" / "cli" / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
