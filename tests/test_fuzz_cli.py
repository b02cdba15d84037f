"""Fuzzing the command line in process, in the style of python-chess's fuzzers.

Hypothesis drives bytes, hostile documents and mutated valid records (JSON and YAML)
through ``gnoming_rules.cli.main``, several inputs at once, from files with hostile names
and from standard input, and rulesets with extreme numbers through ``ruleset check`` and
``play``. Whatever the input: the exit status is 0, 1 or 2, there is one verdict per
input, and nothing says "internal error".
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hostile_inputs import hostile_files
from hypothesis import given, settings
from hypothesis import strategies as st
from record_mutations import mutated, render

from gnoming_rules.cli import main
from gnoming_rules.core.errors import ERROR_CODES, INPUT_ERROR_CODES
from gnoming_rules.formats.record import RecordFormat
from gnoming_rules.formats.rulesets import load_ruleset
from gnoming_rules.testing import recorded_games

FORMATS: st.SearchStrategy[RecordFormat] = st.sampled_from(["json", "yaml"])


def records() -> st.SearchStrategy[tuple[bytes, str]]:
    """(content, suffix): hostile files, valid records and records with one field changed."""
    games = recorded_games()
    valid = st.tuples(games, FORMATS).map(lambda pair: (pair[0].text(pair[1]).encode(), pair[1]))
    broken = st.tuples(mutated(games), FORMATS).map(
        lambda pair: (render(pair[0][1].apply(pair[0][0].data()), pair[1]).encode(), pair[1])
    )
    hostile = hostile_files().map(lambda pair: (pair[0], pair[1].lstrip(".")))
    return hostile | valid | broken


NAME_BITS = st.sampled_from(
    ["game", "\n", "\r", "\x1b[31m", "\x1b]0;title\x07", "\t", "x.json: valid", " ", "\u2028"]
)
names = st.lists(NAME_BITS, min_size=1, max_size=4).map("".join)
"""File names as a stranger might choose them: newlines, terminal escapes, fake verdicts."""


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def run(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """``main(args)`` in process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(args)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def check_verdicts(status: int, stdout: str, stderr: str, count: int) -> list[dict[str, Any]]:
    """One JSON verdict per input, the exit status the worst of them, no internal error."""
    assert "internal error" not in stderr and "Traceback" not in stderr, stderr
    assert status in (0, 1, 2), (status, stderr)
    verdicts = [json.loads(line) for line in stdout.splitlines()]
    assert len(verdicts) == count, stdout
    worst = 0
    for verdict in verdicts:
        error = verdict["error"]
        assert (error is None) == verdict["valid"]
        if error is not None:
            assert error["code"] in ERROR_CODES, error
            worst = max(worst, 2 if error["code"] in INPUT_ERROR_CODES else 1)
    assert status == worst, (status, verdicts)
    return verdicts


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(records(), names), min_size=1, max_size=4))
def test_validate_gives_one_verdict_per_file_whatever_the_files_hold(
    inputs: list[tuple[tuple[bytes, str], str]],
) -> None:
    with folder() as where:
        paths = []
        for index, ((content, suffix), name) in enumerate(inputs):
            path = where / f"{index}{name}.{suffix}" if suffix else where / f"{index}{name}"
            path.write_bytes(content)
            paths.append(str(path))
        as_json = run(["validate", "--json", *paths])
        check_verdicts(*as_json, count=len(paths))
        status, text, stderr = run(["validate", *paths])
        assert status == as_json[0] and "internal error" not in stderr
        lines = text.splitlines()
        # Echoed names are escaped: no name breaks a line, and no escape reaches the terminal.
        assert "\x1b" not in text and "\r" not in text and "\x07" not in text
        reports = [line for line in lines if not line.startswith((" ", "\t"))]
        assert len(reports) == len(paths) + (len(paths) > 1), lines  # and the summary line


@settings(max_examples=40, deadline=None)
@given(records())
def test_validate_reads_any_input_on_standard_input(case: tuple[bytes, str]) -> None:
    content, _ = case
    check_verdicts(*run(["validate", "--json", "-"], stdin=content), count=1)


BIG = st.sampled_from(
    [2**62, -(2**62), 2**63 - 1, -(2**63), 2**63, 10**15, -(10**15), 10**15 + 1, 12, -5, 0]
)


@st.composite
def extreme_rulesets(draw: st.DrawFn) -> dict[str, Any]:
    """The standard rules with scoring numbers (and a few faces) drawn from the extremes."""
    changes: dict[str, Any] = {"extends": "standard"}
    if draw(st.booleans()):
        changes["hazard"] = {"penalty": draw(BIG | st.integers())}
    if draw(st.booleans()):
        changes["mulligan"] = {"unmatched_value": draw(BIG | st.integers())}
    if draw(st.booleans()):
        changes["going_out"] = {"bonus": draw(BIG), "penalty": draw(BIG)}
    if draw(st.booleans()):
        faces = draw(st.lists(BIG | st.integers(), max_size=3))
        changes["deck"] = {"numbers": {str(face): 8 for face in faces}}
    if draw(st.booleans()):
        changes["rounds"] = draw(st.sampled_from([1, 100]))
    return changes


@settings(max_examples=25, deadline=None)
@given(extreme_rulesets(), st.integers(0, 2**32))
def test_play_under_any_ruleset_that_ruleset_check_accepts_writes_a_valid_record(
    changes: dict[str, Any], seed: int
) -> None:
    with folder() as where:
        rules = where / "house.json"
        rules.write_text(json.dumps(changes), encoding="utf-8")
        status, _, stderr = run(["ruleset", "check", str(rules)])
        assert status in (0, 1) and "internal error" not in stderr, stderr
        if status != 0:
            return
        players = load_ruleset(rules).players.min
        out = where / "game.json"
        played = run(
            [
                *("play", "--players", str(players), "--seed", str(seed)),
                *("--ruleset", str(rules), "--out", str(out)),
            ]
        )
        assert played[0] == 0 and "internal error" not in played[2], played[2]
        check_verdicts(*run(["validate", "--json", str(out)]), count=1)
        assert json.loads(run(["validate", "--json", str(out)])[1])["valid"]


class _ClosedPipe(io.StringIO):
    """Standard output whose reader went away after the first line (``| head -1``)."""

    def write(self, text: str) -> int:
        if self.getvalue().count("\n") >= 1:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_a_broken_pipe_keeps_the_status_of_the_verdicts_found() -> None:
    broken = str(Path(__file__).resolve().parent.parent / "examples/illegal/bad-slot.json")
    fine = str(Path(__file__).resolve().parent.parent / "examples/tiny-game.json")
    for args, status in ([fine, broken], 1), ([broken, fine], 1), ([fine, fine], 0):
        with contextlib.redirect_stdout(_ClosedPipe()):
            assert main(["validate", "--json", *args]) == status, args
