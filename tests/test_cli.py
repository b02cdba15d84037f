"""The ``gnoming`` command line, run as a real subprocess: exit codes, output, round trips."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from kit import EXAMPLES, ILLEGAL, ROOT, gnoming

import gnoming_rules as gr
from gnoming_rules.cli import build_parser, main
from gnoming_rules.core.ruleset import merge_patch
from gnoming_rules.formats.rulesets import load_ruleset
from gnoming_rules.formats.schemas import ruleset_schema
from gnoming_rules.referee import batch, processes
from gnoming_rules.referee.batch import record_files
from gnoming_rules.referee.validate import validate_file


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gnoming: "), done.stderr
    return lines[0]


# --- validate -------------------------------------------------------------------------------------


def test_validate_a_valid_record_exits_0() -> None:
    done = gnoming("validate", "examples/demo-game.json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("examples/demo-game.json: valid, complete: totals [")


def test_validate_a_violation_shows_move_rule_text_reason_and_grid() -> None:
    done = gnoming("validate", "examples/illegal/mulligan-limit.json")
    assert done.returncode == 1
    out = done.stdout
    assert "INVALID at round 0, move 7: mulligan-limit" in out
    assert 'move 7: {"action": "place", "player": 0, "slot": 2}' in out
    assert "rule 7.2: A play (4.2) of a mulligan is refused (mulligan-limit)" in out
    assert "reason: a mulligan in slot 2 would make 2 face-up mulligans" in out
    grid = [line.strip() for line in out.splitlines() if line.strip().startswith(("|", "+"))]
    assert grid[0] == "+------+------+------+" and len(grid) == 7
    assert grid[1] == "|  M   |  -5  |(-5)* |"


def test_validate_an_unreadable_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\x00\xff not json")
    done = gnoming("validate", str(bad))
    assert done.returncode == 2
    assert "NOT PLAYABLE: bad-record: not valid JSON" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize("code", ["bad-deal", "cannot-bounce", "result-mismatch", "bad-record"])
def test_validate_json_prints_exactly_the_verdict_object(code: str) -> None:
    path = ILLEGAL / f"{code}.json"
    done = gnoming("validate", "--json", str(path))
    assert done.returncode == validate_file(path).exit_status
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and done.stderr == ""
    assert json.loads(lines[0]) == validate_file(path).to_dict()
    assert list(json.loads(lines[0])) == [
        "valid",
        "complete",
        "error",
        "scores",
        "totals",
        "winners",
    ]


def test_validate_json_prints_one_verdict_per_line_in_order() -> None:
    paths = [ILLEGAL / "not-your-turn.json", EXAMPLES / "tiny-game.json", ILLEGAL / "bad-deal.json"]
    done = gnoming("validate", "--json", *map(str, paths))
    assert done.returncode == 2  # the worst of 1, 0, 2
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert verdicts == [validate_file(path).to_dict() for path in paths]
    assert done.stderr.strip() == "3 files: 1 valid, 1 invalid, 1 unreadable"


def test_validate_walks_folders_counts_and_skips_files_that_are_not_records() -> None:
    done = gnoming("validate", "--quiet", "examples")
    files = record_files([EXAMPLES])
    assert EXAMPLES / "tiny.yaml" not in files and len(files) == 37
    statuses = [validate_file(path).exit_status for path in files]
    expected = (
        f"{len(files)} files: {statuses.count(0)} valid, {statuses.count(1)} invalid, "
        f"{statuses.count(2)} unreadable"
    )
    assert done.stdout.splitlines()[-1] == expected
    assert "tiny-game.json" not in done.stdout  # --quiet: only failures
    assert done.returncode == 2


def test_validate_in_parallel_prints_the_same_as_in_one_process() -> None:
    one = gnoming("validate", "--jobs", "1", "examples")
    two = gnoming("validate", "--jobs", "2", "examples")
    assert (one.returncode, one.stdout) == (two.returncode, two.stdout)
    assert len(one.stdout.splitlines()) > 25


def test_validate_says_1_file_and_refuses_a_jobs_count_that_is_no_number(tmp_path: Path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    shutil.copy(EXAMPLES / "demo-game.json", folder)
    done = gnoming("validate", "--quiet", str(folder), cwd=ROOT)
    assert done.stdout.splitlines()[-1] == "1 file: 1 valid, 0 invalid, 0 unreadable"
    refused = gnoming("validate", "--jobs", "abc", str(folder))
    assert refused.returncode == 2 and "_positive" not in refused.stderr
    assert "--jobs: must be a whole number, got 'abc'" in refused.stderr


def test_validate_ruleset_override_still_checks_the_hash() -> None:
    done = gnoming("validate", "--ruleset", "standard", "examples/tiny-game.json")
    assert done.returncode == 2
    assert "ruleset-mismatch" in done.stdout and "the ruleset given" in done.stdout
    same = gnoming("validate", "--ruleset", "examples/tiny.yaml", "examples/tiny-game.json")
    assert same.returncode == 0, same.stdout
    assert "unknown-ruleset" in one_line_error(gnoming("validate", "--ruleset", "x", "examples"))


# --- play -----------------------------------------------------------------------------------------


def test_play_then_validate_round_trips_for_3_to_7_players(tmp_path: Path) -> None:
    printed = {}
    for players in range(3, 8):
        out = tmp_path / f"game-{players}.json"
        bot = "random" if players % 2 else "greedy"
        done = gnoming("play", "--players", str(players), "--seed", str(players), "--bot", bot,
                       "--out", str(out))  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert f"record written to {out}" in done.stdout
        printed[players] = done.stdout
    done = gnoming("validate", "--json", str(tmp_path))
    assert done.returncode == 0, done.stdout
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(verdicts) == 5 and all(v["valid"] and v["complete"] for v in verdicts)
    for players, verdict in zip(range(3, 8), verdicts, strict=True):
        assert len(verdict["totals"]) == players
        totals_line = next(
            line for line in printed[players].splitlines() if line.startswith("totals")
        )
        assert [int(word) for word in totals_line.split()[1:]] == verdict["totals"]


def test_play_to_stdout_and_with_a_ruleset_file(tmp_path: Path) -> None:
    done = gnoming("play", "--players", "2", "--seed", "4", "--ruleset", "examples/tiny.yaml",
                   "--out", "-")  # fmt: skip
    assert done.returncode == 0
    assert "totals" in done.stderr and done.stdout.startswith("{")
    record = json.loads(done.stdout)
    tiny = gr.load_ruleset("examples/tiny.yaml")
    assert record["ruleset"] == tiny.data()  # inline: the record travels
    assert record["ruleset_sha256"] == tiny.sha256
    nested = tmp_path / "deep" / "game.yaml"
    nested.parent.mkdir()
    done = gnoming("play", "--players", "3", "--seed", "4", "--ruleset", "examples/tiny.yaml",
                   "--out", str(nested), "--names", "X,Y,Z", "--no-claims")  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = yaml.safe_load(nested.read_text(encoding="utf-8"))
    assert data["players"] == ["X", "Y", "Z"] and "result" not in data
    assert data["ruleset"]["name"] == "tiny"
    assert gnoming("validate", str(nested), cwd=tmp_path).returncode == 0
    moved = tmp_path / "elsewhere.yaml"  # saved and sent anywhere, it still validates
    moved.write_text(nested.read_text(encoding="utf-8"), encoding="utf-8")
    nested.unlink()
    assert gnoming("validate", str(moved), cwd=ROOT).returncode == 0


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--players", "9", "--seed", "1"],
        ["play", "--players", "3", "--names", "A,B"],
        ["play"],
        ["nonsense"],
        ["validate"],
        ["validate", "--jobs", "0", "examples"],
        ["show", "examples/tiny-game.json", "--round", "7"],
        ["score", "1", "2"],
        ["score", "1", "2", "3", "4", "5", "6", "7", "8", "X"],
        ["ruleset", "show", "nonesuch"],
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str]) -> None:
    one_line_error(gnoming(*args))


# --- show, score, rulesets ------------------------------------------------------------------


def test_show_draws_the_table_at_a_point() -> None:
    done = gnoming("show", "examples/tiny-game.json", "--round", "1", "--move", "4")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "round 1, before move 4: seat" in out
    assert "next move: {" in out and "draw pile:" in out and "discard pile 0:" in out
    assert out.count("+------+------+") >= 3  # three 2x2 layouts
    assert "round 0 scores: [" in out


def test_show_stops_at_the_first_error() -> None:
    done = gnoming("show", "examples/illegal/cannot-bounce.json")
    assert done.returncode == 0
    assert "the replay stops at round 0, move 8: cannot-bounce" in done.stdout
    assert '"action": "bounce"' in done.stdout


def test_show_of_input_that_is_no_record_fails_like_every_command() -> None:
    done = gnoming("show", "examples/illegal/bad-record.json")
    assert done.returncode == 2
    assert done.stderr.startswith("gnoming: examples/illegal/bad-record.json: bad-record: ")
    assert done.stdout == ""


def test_play_refuses_an_out_folder_that_does_not_exist_before_playing(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "game.json"
    done = gnoming("play", "--players", "3", "--seed", "1", "--out", str(out))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("gnoming: usage: --out ") and "does not exist" in done.stderr
    assert not out.parent.exists()


def test_score_prints_the_layout_and_the_breakdown() -> None:
    done = gnoming("score", "5", "5", "M", "3", "-2", "9", "5", "H", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "total 21"
    assert "row 0 (slots 0, 1, 2): set of 5s  -5" in done.stdout
    assert "|  5   |  5   |  M   |" in done.stdout


def test_rulesets_and_ruleset_subcommands() -> None:
    listed = [line.split(":")[0] for line in gnoming("rulesets").stdout.splitlines()]
    assert listed == gr.bundled_rulesets() and "standard" in listed
    shown = gnoming("ruleset", "show", "examples/tiny.yaml")
    assert shown.returncode == 0
    tiny = gr.load_ruleset(EXAMPLES / "tiny.yaml")
    assert shown.stdout.splitlines()[0] == f"# sha256: {tiny.sha256}"
    assert gr.load_ruleset(yaml.safe_load(shown.stdout)).sha256 == tiny.sha256
    schema = gnoming("ruleset", "schema")
    assert json.loads(schema.stdout) == ruleset_schema()
    diff = gnoming("ruleset", "diff", "standard", "examples/tiny.yaml")
    assert "rounds: 3 -> 2" in diff.stdout.splitlines()
    assert "deck.numbers.12: 6 -> (absent)" in diff.stdout.splitlines()
    assert diff.stdout.splitlines()[-1].startswith("25 rules differ")
    assert diff.stdout.splitlines()[0] == 'name: "standard" -> "tiny" (a label, not a rule)'
    same = gnoming("ruleset", "diff", "standard", "standard")
    assert same.stdout.startswith("no rule differs")
    one = gnoming("ruleset", "diff", "standard", "quick")
    assert one.stdout.splitlines()[-2:] == [
        "rounds: 3 -> 1",
        f"1 rule differs (sha256 {gr.load_ruleset('standard').sha256[:12]}... -> "
        f"{gr.load_ruleset('quick').sha256[:12]}...)",
    ]


def test_ruleset_check_reports_each_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: standard\nlayout: {rows: 9}\n", encoding="utf-8")
    done = gnoming("ruleset", "check", "examples/tiny.yaml", str(bad))
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].startswith("examples/tiny.yaml: ok (tiny, sha256 ")
    assert "bad-ruleset" in done.stdout.splitlines()[1] and "layout.rows" in done.stdout
    assert gnoming("ruleset", "check", str(tmp_path / "missing.yaml")).returncode == 2


def test_the_console_script_and_version() -> None:
    script = shutil.which("gnoming", path=str(Path(sys.executable).parent))
    assert script is not None
    done = subprocess.run([script, "--version"], capture_output=True, text=True, check=False)
    build = "compiled with mypyc" if gr.COMPILED else "pure Python"
    assert done.returncode == 0
    assert done.stdout.strip() == f"gnoming-rules {gr.__version__} ({build})"


# --- in-process checks ------------------------------------------------------------------------


def test_main_turns_every_failure_into_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["validate", str(tmp_path)]) == 2  # an empty folder
    assert capsys.readouterr().err.startswith("gnoming: usage: no record files")


def test_a_hand_edit_of_the_demo_record_is_reported_at_its_move(tmp_path: Path) -> None:
    """One move of the demo changed by hand: the report names the move, the rule, the reason."""
    text = (EXAMPLES / "demo-game.json").read_text(encoding="utf-8")
    lines = text.splitlines()
    first_draw = next(i for i, line in enumerate(lines) if '"action": "draw", "player": 1' in line)
    moves_start = next(i for i, line in enumerate(lines) if '"moves": [' in line) + 1
    edited = lines[first_draw].replace('"player": 1', '"player": 2')
    path = tmp_path / "edited.json"
    path.write_text("\n".join([*lines[:first_draw], edited, *lines[first_draw + 1 :]]) + "\n")
    done = gnoming("validate", str(path))
    move = first_draw - moves_start
    assert done.returncode == 1
    assert f"INVALID at round 0, move {move}: not-your-turn" in done.stdout
    assert f"move {move}: {edited.strip().rstrip(',')}" in done.stdout
    assert (
        "rule 2.1: " in done.stdout
        and "reason: draw by seat 2 refused: seat 1 must draw" in done.stdout
    )
    as_json = json.loads(gnoming("validate", "--json", str(path)).stdout)
    assert as_json["error"] == {
        "round": 0,
        "move": move,
        "code": "not-your-turn",
        "rule": "2.1",
        "message": "draw by seat 2 refused: seat 1 must draw",
    }


def test_a_huge_yaml_integer_is_one_verdict_and_the_batch_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``first_player: 0xfff...`` (about 24,000 digits) once stopped the whole run with
    "internal error: ValueError" when a message printed it."""
    text = (EXAMPLES / "tiny-game.yaml").read_text(encoding="utf-8")
    big = tmp_path / "big.yaml"
    big.write_text(text.replace("first_player: ", "first_player: 0x" + "f" * 20_000 + " #", 1))
    other = EXAMPLES / "tiny-game.json"
    assert main(["validate", "--json", str(big), str(other)]) == 2
    out, err = capsys.readouterr()
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["error"]["code"] == "bad-record"
    assert first["error"]["message"].startswith("first_player: must be an integer from ")
    assert len(first["error"]["message"]) < 200
    assert second == validate_file(other).to_dict()
    assert "internal error" not in err


def test_a_ruleset_name_too_long_for_the_file_system_is_one_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 300-character ``ruleset`` made ``Path.is_file()`` raise "File name too long",
    which stopped the whole run; it is that record's ``unknown-ruleset``, and the other
    files are still checked."""
    data = json.loads((EXAMPLES / "tiny-game.json").read_text(encoding="utf-8"))
    data["ruleset"] = "r" * 300
    long_name = tmp_path / "long-name.json"
    long_name.write_text(json.dumps(data), encoding="utf-8")
    other = EXAMPLES / "tiny-game.json"
    assert main(["validate", "--json", str(long_name), str(other)]) == 2
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["error"]["code"] == "unknown-ruleset"
    assert "cannot be looked up: File name too long" in first["error"]["message"]
    assert len(first["error"]["message"]) < 250
    assert second["valid"] is True


def test_validate_reads_a_record_from_standard_input() -> None:
    played = gnoming("play", "--players", "3", "--seed", "4", "--out", "-")
    for fmt_input in (played.stdout, yaml.safe_dump(json.loads(played.stdout))):
        done = subprocess.run(
            [sys.executable, "-m", "gnoming_rules", "validate", "--json", "-"],
            input=fmt_input,
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert json.loads(done.stdout)["valid"] is True
    broken = subprocess.run(
        [sys.executable, "-m", "gnoming_rules", "validate", "-"],
        input='{"format": "gnoming-record/1"',
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert broken.returncode == 2 and broken.stdout.startswith("-: NOT PLAYABLE: bad-record")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_skipped_in_a_folder_and_refused_when_named(tmp_path: Path) -> None:
    """A FIFO named b.json in a folder hung ``gnoming validate FOLDER`` (opening it waits
    for a writer). A folder walk leaves it out; named on the command line, it is a
    bad-record "not a regular file", read never."""
    shutil.copy(EXAMPLES / "tiny-game.json", tmp_path / "a.json")
    shutil.copy(EXAMPLES / "tiny.yaml", tmp_path / "tiny.yaml")
    pipe = tmp_path / "b.json"
    os.mkfifo(pipe)
    assert record_files([tmp_path]) == [tmp_path / "a.json"]
    run = [sys.executable, "-m", "gnoming_rules", "validate"]
    folder = subprocess.run(
        [*run, str(tmp_path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert folder.returncode == 0, folder
    assert folder.stdout.splitlines()[-1].endswith(": 1 valid, 0 invalid, 0 unreadable")
    named = subprocess.run(
        [*run, "--json", str(pipe)], capture_output=True, text=True, timeout=60, check=False
    )
    assert named.returncode == 2
    error = json.loads(named.stdout)["error"]
    assert error["code"] == "bad-record"
    assert error["message"] == f"cannot read {pipe}: not a regular file (a named pipe)"


def test_a_folder_or_a_device_is_no_record_file(tmp_path: Path) -> None:
    for path, kind in [(tmp_path, "a folder"), (Path(os.devnull), "a character device")]:
        verdict = validate_file(path)
        assert verdict.error is not None and verdict.error.code == "bad-record"
        assert verdict.error.message == f"cannot read {path}: not a regular file ({kind})"


def _tiny_game() -> dict[str, Any]:
    """examples/tiny-game.json, its ruleset inline (to be written anywhere: a record may
    name a ruleset file only in its own folder)."""
    data: dict[str, Any] = json.loads((EXAMPLES / "tiny-game.json").read_text(encoding="utf-8"))
    data["ruleset"] = load_ruleset(EXAMPLES / data["ruleset"]).model_dump(mode="json")
    return data


def _without_a_discard_pile(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``data`` with the pile left out of its first non-hazard discard (a bad-record found
    only during the replay); and that move's index in round 0."""
    moves = data["rounds"][0]["moves"]
    index = next(
        i for i, move in enumerate(moves) if move["action"] == "discard" and "pile" in move
    )
    del moves[index]["pile"]
    return data, index


def test_show_exits_2_for_input_that_is_no_playable_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cli.md: bad-record and the other input errors exit 2, as for validate; a
    player count outside the ruleset's once exited 0."""
    too_few = _tiny_game()
    too_few["players"], too_few["first_player"] = too_few["players"][:1], 0
    too_few["rounds"], too_few["result"] = [], None
    path = tmp_path / "one-player.json"
    path.write_text(json.dumps(too_few), encoding="utf-8")
    assert main(["show", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"gnoming: {path}: bad-record: players: ")
    for args in (
        [str(ILLEGAL / "bad-deal.json")],
        [str(ILLEGAL / "ruleset-mismatch.json")],
        [str(EXAMPLES / "tiny-game.json"), "--ruleset", "standard"],
    ):
        assert main(["show", *args]) == 2, args
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1, err
    broken, index = _without_a_discard_pile(_tiny_game())
    path = tmp_path / "no-pile.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    assert main(["show", str(path)]) == 2  # found during the replay: the table is drawn
    out = capsys.readouterr().out
    assert f"the replay stops at round 0, move {index}: bad-record: " in out
    assert "draw pile:" in out
    assert main(["show", str(ILLEGAL / "cannot-bounce.json")]) == 0  # a rule violation


@pytest.mark.parametrize("held", [8, 11, 3])
def test_a_bad_record_found_during_the_replay_is_a_block_with_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], held: int
) -> None:
    """docs/cli.md: input errors found before the replay take one line; a discard with no
    pile, found only by the replay, is shown like a rule violation: the move, the reason
    (with the card's article right: "an 8"), the layout and the piles."""
    data, index = _without_a_discard_pile(_tiny_game())
    move = data["rounds"][0]["moves"][index]
    played = data["rounds"][0]["moves"][index - 1]  # displaced the card the discard throws
    assert played["action"] == "place" and played["card"] == 3
    if held != 3:  # the same game with another card dealt where that 3 lay face down
        data["rounds"][0]["deal"][played["player"] * 4 + played["slot"]] = held  # 2x2 layouts
        del played["card"]
        data["rounds"], data["result"] = data["rounds"][:1], None  # one deal to change
        data["ruleset"] = merge_patch(
            data["ruleset"], {"deck": {"numbers": {str(held): 1, "3": 2}}}
        )
        del data["ruleset_sha256"]
    path = tmp_path / "no-pile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{path}: NOT PLAYABLE at round 0, move {index}: bad-record"
    assert lines[1] == f"  move {index}: {json.dumps(move)}"
    article = "an" if held in (8, 11) else "a"
    assert lines[2] == f"  reason: the discard of {article} {held} must name a pile"
    assert any(line.strip().startswith("+------+") for line in lines)
    assert any(line.strip().startswith("draw pile: ") for line in lines)
    page = (EXAMPLES.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "`FILE: NOT PLAYABLE at round R, move M: bad-record`" in page


def test_json_verdicts_stay_one_line_under_splitlines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ruleset's name reaches a ruleset-mismatch message; with U+2028 in it, the --json
    line once broke in two for str.splitlines()."""
    rules = tmp_path / "odd.yaml"
    rules.write_text('extends: standard\nname: "odd\\u2028name\\x85"\n', encoding="utf-8")
    assert (
        main(["validate", "--json", "--ruleset", str(rules), str(EXAMPLES / "tiny-game.json")]) == 2
    )
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1
    assert json.loads(out)["error"]["code"] == "ruleset-mismatch"
    assert main(["validate", "--ruleset", str(rules), str(EXAMPLES / "tiny-game.json")]) == 2
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_a_bad_reshuffle_shows_the_piles_it_should_be_made_of(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["validate", str(ILLEGAL / "bad-reshuffle.json")]) == 1
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert lines[-5:] == [
        "the discard piles before the reshuffle (bottom first; each top stays):",
        "discard pile 0: 4 3 3 5 3  (top 3)",
        "discard pile 1: 5  (top 5)",
        "the reshuffle must hold, in any order (4 cards): 3 3 4 5",
        "draw pile: empty; held: 1",
    ]


def test_a_score_mismatch_quotes_the_scoring_rules_its_scores_rest_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not just the heading "rule 8: End of the round and scoring": the rules that score
    the disputed layouts (here a set, 8.2, and negative cards, 8.4)."""
    assert main(["validate", str(ILLEGAL / "score-mismatch.json")]) == 1
    out = capsys.readouterr().out
    rules = [line.split(":")[0].strip() for line in out.splitlines() if line.startswith("  rule")]
    assert rules == ["rule 8", "rule 8.2", "rule 8.4"]
    assert "  rule 8.2: Sets. A full row or a full column is a set when" in out
    # Every score of the last round claimed wrong: cards in no set (8.3), going out (8.6).
    data = _tiny_game()
    data["result"] = None
    claimed = data["rounds"][1]["scores"]
    data["rounds"][1]["scores"] = [score + 1 for score in claimed]
    path = tmp_path / "all-wrong.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    rules = [line.split(":")[0].strip() for line in out.splitlines() if line.startswith("  rule")]
    assert rules == ["rule 8", "rule 8.2", "rule 8.3", "rule 8.4", "rule 8.6"], out


def test_jobs_default_to_the_cpus_available_and_never_outnumber_the_files(
    monkeypatch: pytest.MonkeyPatch, forked: list[int]
) -> None:
    """Processes: the CPUs this process may run on by default, and never more than the
    files nor than those CPUs, whatever ``--jobs`` asks (this process is one of them;
    ``forked``: tests/conftest.py)."""
    files = [EXAMPLES / "tiny-game.json"] * 10
    monkeypatch.setattr(processes, "available_cpus", lambda: 64)
    assert len(list(batch.check_files(files, jobs=300))) == 10
    assert len(forked) == 9  # no more processes than the files
    monkeypatch.setattr(processes, "available_cpus", lambda: 3)
    list(batch.check_files(files))
    list(batch.check_files(files, jobs=300))
    assert len(forked) == 9 + 2 + 2  # no more than the CPUs, whatever --jobs says
    assert build_parser().parse_args(["validate", "x"]).jobs is None  # the default: CPUs
    monkeypatch.undo()
    if hasattr(os, "sched_getaffinity"):
        assert processes.available_cpus() == len(os.sched_getaffinity(0))


def test_ruleset_check_gives_every_argument_its_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deeply nested file once ended the command with "internal error: RecursionError",
    and a 300-character name with OSError before the later arguments were checked."""
    deep = tmp_path / "deep.yaml"
    deep.write_text("rounds: " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    laughs = tmp_path / "laughs.yaml"
    lines = ['a0: ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    laughs.write_text("\n".join(lines), encoding="utf-8")
    given = [str(deep), "n" * 300, "x" * 300 + ".yaml", "odd\nname", str(laughs), "standard"]
    assert main(["ruleset", "check", *given]) == 2
    out, err = capsys.readouterr()
    printed = out.splitlines()
    assert err == "" and len(printed) == len(given), out
    assert printed[0].startswith(f"{deep}: bad-ruleset: ") and "nested too deeply" in printed[0]
    assert "unknown-ruleset" in printed[1] and "File name too long" in printed[1]
    assert "unknown-ruleset" in printed[2] and "File name too long" in printed[2]
    assert printed[3].startswith('"odd\\nname": unknown-ruleset: ')
    assert printed[4].startswith(f"{laughs}: bad-ruleset: ") and "aliases" in printed[4]
    assert printed[5].startswith("standard: ok (standard, sha256 ")
    assert all(len(line) < 400 for line in printed)


def test_usage_messages_name_the_type_and_counts_take_the_right_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--jobs abc`` said "invalid _positive value"; a folder of one record, "1 files"."""
    assert main(["validate", "--jobs", "abc", "examples"]) == 2
    assert capsys.readouterr().err == (
        "gnoming: usage: argument --jobs: must be a whole number, got 'abc' "
        "(see gnoming validate --help)\n"
    )
    shutil.copy(EXAMPLES / "tiny-game.json", tmp_path / "game.json")
    shutil.copy(EXAMPLES / "tiny.yaml", tmp_path / "tiny.yaml")
    assert main(["validate", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 file: 1 valid, 0 invalid, 0 unreadable"


def test_ruleset_check_lists_every_fault_of_a_file_with_its_field(tmp_path: Path) -> None:
    typos = tmp_path / "typos.yaml"
    typos.write_text("extends: standard\nbonce: false\nhazard: {penaltty: 3}\nroundz: 2\n")
    done = gnoming("ruleset", "check", str(typos), "standard")
    assert done.returncode == 1
    assert done.stdout.splitlines()[:4] == [
        f"{typos}: bad-ruleset: 3 problems",
        f"  {typos}: bonce: unknown field — did you mean bounce?",
        f"  {typos}: hazard.penaltty: unknown field — did you mean penalty?",
        f"  {typos}: roundz: unknown field — did you mean rounds?",
    ]
    assert done.stdout.splitlines()[4].startswith("standard: ok")


def test_ruleset_diff_of_an_unplayable_ruleset_warns_and_diffs_it_as_written(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: standard\nlayout: {rows: 9}\nbonce: false\n", encoding="utf-8")
    done = gnoming("ruleset", "diff", "standard", str(bad))
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"warning: {bad} cannot be played (bad-ruleset: {bad}: bonce: ")
    lines = done.stdout.splitlines()
    rules = [line for line in lines if "(a label, not a rule)" not in line]
    assert (
        rules
        == [  # only what the file changes: both sides name every field alike
            "layout.rows: 3 -> 9",
            "bonce: (absent) -> false",
            f"2 rules differ (sha256 {gr.load_ruleset('standard').sha256[:12]}... -> "
            "(none: cannot be played))",
        ]
    )
    missing = gnoming("ruleset", "diff", "standard", str(tmp_path / "none.yaml"))
    assert missing.returncode == 2 and "unknown-ruleset" in missing.stderr
