"""The shipped examples: one illegal record per error code, a few legal ones, the demo game."""

from __future__ import annotations

from pathlib import Path

import pytest
from kit import EXAMPLES, ILLEGAL, examples

import gnoming_rules as gr
from gnoming_rules.core.errors import INPUT_ERROR_CODES
from gnoming_rules.formats.record import dump_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.validate import validate_file

EXPECTED: dict[str, tuple[int | None, int | None]] = {
    "bad-record": (0, 1),
    "bad-deal": (0, None),
    "unknown-ruleset": (None, None),
    "ruleset-mismatch": (None, None),
    "not-your-turn": (0, 0),
    "wrong-phase": (0, 6),
    "bad-slot": (0, 0),
    "slot-face-up": (0, 1),
    "empty-pile": (0, 11),
    "must-use-empty-pile": (0, 8),
    "must-play-taken-card": (0, 7),
    "cannot-bounce": (0, 8),
    "slot-already-filled": (0, 8),
    "mulligan-limit": (0, 7),
    "no-flip-owed": (0, 6),
    "bad-reshuffle": (0, 25),
    "card-mismatch": (0, 0),
    "score-mismatch": (0, None),
    "result-mismatch": (None, None),
    "moves-after-end": (0, 32),
}
"""Error code -> (round, move) of the fault in ``examples/illegal/<code>.json``."""

RULES = {
    "not-your-turn": "3.5",
    "wrong-phase": "4.1",
    "bad-slot": "3.5",
    "slot-face-up": "3.5",
    "empty-pile": "4.1",
    "must-use-empty-pile": "4.4",
    "must-play-taken-card": "4.5",
    "cannot-bounce": "5.1",
    "slot-already-filled": "5.3",
    "mulligan-limit": "7.2",
    "no-flip-owed": "6.1",
    "bad-reshuffle": "8.7",
    "score-mismatch": "8",
    "result-mismatch": "9.1",
    "moves-after-end": "8.1",
    "bad-deal": "3.1",
}
"""The RULES.md number each example's verdict names (``None`` for the rest).

docs/decisions.md, record reading 5."""


def test_there_is_one_illegal_example_per_error_code() -> None:
    assert set(EXPECTED) == set(gr.ERROR_CODES)
    assert sorted(path.stem for path in ILLEGAL.glob("*.json")) == sorted(gr.ERROR_CODES)


@pytest.mark.parametrize("code", gr.ERROR_CODES)
def test_each_illegal_example_gets_its_code_round_and_move(code: str) -> None:
    verdict = validate_file(ILLEGAL / f"{code}.json")
    assert verdict.error is not None, verdict
    assert (verdict.error.code, verdict.error.round, verdict.error.move) == (code, *EXPECTED[code])
    assert verdict.error.rule == RULES.get(code)
    assert not verdict.valid
    assert verdict.exit_status == (2 if code in INPUT_ERROR_CODES else 1)
    assert verdict.error.message and "\n" not in verdict.error.message


@pytest.mark.parametrize(
    ("name", "complete"),
    [
        ("tiny-game.json", True),
        ("tiny-game.yaml", True),
        ("opening.yaml", False),
        ("inline-ruleset.json", False),
        ("demo-game.json", True),
    ],
)
def test_the_legal_examples_are_valid(name: str, complete: bool) -> None:
    verdict = validate_file(EXAMPLES / name)
    assert verdict.valid, verdict
    assert verdict.complete is complete


def test_the_examples_are_what_make_examples_builds(tmp_path: Path) -> None:
    built = examples.build(tmp_path)
    for path, text in built.items():
        committed = EXAMPLES / path.relative_to(tmp_path)
        assert committed.read_text(encoding="utf-8") == text, f"{committed} is stale: make examples"


def test_the_demo_game_is_the_seeded_game_make_demo_plays() -> None:
    record, _ = play_game(gr.load_ruleset("standard"), 4, seed=2026)
    assert (EXAMPLES / "demo-game.json").read_text(encoding="utf-8") == dump_record(record)
    assert record.ruleset_sha256 == gr.load_ruleset("standard").sha256
    moves = [move for round_ in record.rounds for move in round_.moves]
    claimed = [move for move in moves if move["action"] not in ("discard", "reshuffle")]
    assert all("card" in move for move in claimed)  # a hand edit of a card is caught
    assert all(round_.scores is not None for round_ in record.rounds) and record.result is not None
