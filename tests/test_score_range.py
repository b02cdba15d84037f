"""No score can leave the signed 64-bit range, and card faces are read as written.

A record's integers are 64-bit (decision 15), so a ruleset under which a score could
leave that range is refused at load, naming the field; under every ruleset that loads,
``gnoming play`` writes a record that validates. Faces are ASCII digits only, and a deck
that names one face twice (``1`` and ``"1"``, or ``true``, which YAML makes 1) is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gnoming_rules.cli import main
from gnoming_rules.core.cards import face_from_text
from gnoming_rules.core.errors import INT64_MAX, RulesetError
from gnoming_rules.core.ruleset import MAX_SCORE_VALUE
from gnoming_rules.formats.rulesets import load_ruleset
from gnoming_rules.referee.validate import validate_file

FIELDS = [
    ("hazard.penalty", {"hazard": {"penalty": 2**62}}),
    ("mulligan.unmatched_value", {"mulligan": {"unmatched_value": -(2**62)}}),
    ("going_out.bonus", {"going_out": {"bonus": -(2**63)}}),
    ("going_out.penalty", {"going_out": {"penalty": 2**63 - 1}}),
    ("deck.numbers", {"deck": {"numbers": {2**62: 7}}}),
    ("deck.numbers", {"deck": {"numbers": {-(2**62): 7}}}),
]


@pytest.mark.parametrize(("field", "override"), FIELDS, ids=[str(f[1]) for f in FIELDS])
def test_a_ruleset_whose_scores_can_leave_64_bits_is_refused_naming_the_field(
    field: str, override: dict[str, Any]
) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset({"extends": "standard", **override})
    assert refused.value.code == "bad-ruleset"
    assert refused.value.message.startswith(f"inline ruleset: {field}"), refused.value.message
    assert str(MAX_SCORE_VALUE) in refused.value.message or "10^15" in refused.value.message


def test_ruleset_check_refuses_what_play_could_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("extends: standard\nhazard:\n  penalty: 9223372036854775000\n", "utf-8")
    assert main(["ruleset", "check", str(path)]) == 1
    assert "hazard.penalty" in capsys.readouterr().out


def extreme_ruleset(sign: int) -> dict[str, Any]:
    """Every scoring value at the limit, with the most rounds and the largest layout."""
    top = MAX_SCORE_VALUE
    return {
        "extends": "standard",
        "rounds": 100,
        "layout": {"rows": 5, "cols": 5},
        "players": {"min": 2, "max": 2},
        "deck": {"numbers": {sign * top: 40, -sign * top: 40, sign * (top - 1): 20}},
        "hazard": {"penalty": sign * top},
        "mulligan": {"unmatched_value": sign * top},
        "going_out": {"bonus": sign * top, "penalty": sign * top},
    }


@pytest.mark.parametrize("sign", [1, -1])
def test_play_under_the_most_extreme_ruleset_writes_a_record_that_validates(
    tmp_path: Path, sign: int, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "extreme.json"
    rules.write_text(json.dumps(extreme_ruleset(sign)), encoding="utf-8")
    out = tmp_path / "game.json"
    status = main(
        ["play", "--players", "2", "--seed", "3", "--ruleset", str(rules), "--out", str(out)]
    )
    assert status == 0, capsys.readouterr().err
    verdict = validate_file(out)
    assert verdict.valid and verdict.complete, verdict
    assert all(abs(total) <= INT64_MAX for total in verdict.totals)


@pytest.mark.parametrize(
    "text", ["\u0663", "\uff13", "\u06f3", "\U0001d7d1", "-\u0663", "\u00b2", "1_000", " \u0663 "]
)
def test_face_from_text_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        face_from_text(text)


@pytest.mark.parametrize(("text", "face"), [("3", 3), (" -2 ", -2), ("12", 12), ("h", "H")])
def test_face_from_text_still_reads_what_people_type(text: str, face: int | str) -> None:
    assert face_from_text(text) == face


@pytest.mark.parametrize(
    "numbers",
    [
        {True: 7},
        {False: 7},
        {1: 7, "1": 2},
        {"1": 7, "01": 2},
        {"\u0663": 7},
        {"\uff13": 7},
        {"1.0": 7},
    ],
    ids=["true", "false", "1 and '1'", "'1' and '01'", "arabic 3", "fullwidth 3", "1.0"],
)
def test_a_deck_key_that_is_no_plain_face_or_repeats_one_is_refused(
    numbers: dict[Any, int],
) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset({"extends": "standard", "deck": {"numbers": numbers}})
    assert refused.value.code == "bad-ruleset"
    assert "deck.numbers" in refused.value.message, refused.value.message


def test_a_yaml_true_key_in_a_deck_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "true.yaml"
    path.write_text("extends: standard\ndeck:\n  numbers:\n    true: 7\n", encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        load_ruleset(path)
    assert "deck.numbers" in refused.value.message and "True" in refused.value.message


def test_json_faces_written_as_text_still_load() -> None:
    rules = load_ruleset({"extends": "standard", "deck": {"numbers": {"-3": 2, "13": 1}}})
    assert rules.deck.numbers[-3] == 2 and rules.deck.numbers[13] == 1
