"""A ruleset that cannot be played is refused at load time, naming the field.

Each case overrides the standard ruleset with one bad value and checks the ``bad-ruleset``
error: one line, starting with where the ruleset came from and the dotted field path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import refused_variant

import gnoming_rules as gr
from gnoming_rules.core.ruleset import MAX_SCORE_VALUE

REFUSED: list[tuple[str, dict[str, Any], str, str]] = [
    # (case, override of standard, field the message must start with, what it must say)
    ("rows 1", {"layout": {"rows": 1}}, "layout.rows", "must be at least 2, got 1"),
    ("rows 6", {"layout": {"rows": 6}}, "layout.rows", "must be at most 5, got 6"),
    ("cols 1", {"layout": {"cols": 1}}, "layout.cols", "must be at least 2, got 1"),
    ("cols 6", {"layout": {"cols": 6}}, "layout.cols", "must be at most 5, got 6"),
    ("negative copies", {"deck": {"numbers": {5: -1}}}, "deck.numbers.5", "got -1"),
    ("zero copies", {"deck": {"numbers": {5: 0}}}, "deck.numbers.5", "got 0"),
    ("named no value", {"deck": {"named": {"K": 4}}}, "deck.values", "K has no value"),
    ("negative hazards", {"deck": {"hazards": -1}}, "deck.hazards", "got -1"),
    ("negative mulligans", {"deck": {"mulligans": -2}}, "deck.mulligans", "got -2"),
    ("unknown flips", {"hazard": {"flips": "all"}}, "hazard.flips", "'others', 'next' or 'none'"),
    (
        "unknown first",
        {"first_player": "random"},
        "first_player",
        "'rotate', 'fixed' or 'went_out'",
    ),
    (
        "unknown empty pile",
        {"empty_draw_pile": "stop"},
        "empty_draw_pile",
        "'reshuffle' or 'end_round', got 'stop'",
    ),
    ("negative mulligan limit", {"mulligan": {"max_face_up": -1}}, "mulligan.max_face_up", "-1"),
    ("rounds 0", {"rounds": 0}, "rounds", "must be at least 1, got 0"),
    ("players 0", {"players": {"min": 0}}, "players.min", "got 0"),
    ("reveal -1", {"layout": {"face_up_at_start": -1}}, "layout.face_up_at_start", "got -1"),
    ("bool as text", {"bounce": "no"}, "bounce", "must be true or false, got 'no'"),
    ("bool as int", {"discard": {"taken_must_be_played": 1}}, "discard.taken_must_be_played", "1"),
    ("int as text", {"rounds": "3"}, "rounds", "must be an integer, got '3'"),
    ("int as float", {"hazard": {"penalty": 10.5}}, "hazard.penalty", "10.5"),
    ("unknown field", {"bouncing": False}, "bouncing", "unknown field"),
    (
        "unknown nested field",
        {"hazard": {"flip": "none"}},
        "hazard.flip",
        "unknown field — did you mean flips?",
    ),
    ("min > max", {"players": {"min": 5, "max": 4}}, "players.min", "greater than players.max"),
    (
        "reveals > grid",
        {"layout": {"face_up_at_start": 10}},
        "layout.face_up_at_start",
        "10 is more than the 9 cards of a 3x3 layout",
    ),
    (
        "reveals > small grid",
        {"layout": {"rows": 2, "cols": 2, "face_up_at_start": 5}},
        "layout.face_up_at_start",
        "5 is more than the 4 cards of a 2x2 layout",
    ),
    (
        "deck too small for the players",
        {"layout": {"rows": 4, "cols": 4}},
        "deck",
        "players.max = 7 players",
    ),
    (
        "deck too small after removing cards",
        {"deck": {"numbers": {n: None for n in range(1, 8)}}},
        "deck",
        "cannot deal a 3x3 layout (9 cards)",
    ),
    (
        "mulligans never playable",
        {"mulligan": {"max_face_up": 0}},
        "mulligan.max_face_up",
        "discard.taken_must_be_played",
    ),
]


@pytest.mark.parametrize(
    ("override", "field", "fragment"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
def test_unplayable_ruleset_is_refused_naming_the_field(
    override: dict[str, Any], field: str, fragment: str
) -> None:
    refused_variant(override, field, fragment)


def test_deck_too_small_says_how_many_players_it_can_deal_to() -> None:
    # 110 cards, 16 per seat, 2 discard starts and 3 hazards that may be set aside:
    # 6 * 16 + 5 = 101 fits, 7 * 16 + 5 = 117 does not.
    with pytest.raises(gr.RulesetError) as caught:
        gr.load_ruleset({"extends": "standard", "layout": {"rows": 4, "cols": 4}})
    assert "needs 117" in caught.value.message
    assert "at most 6 players" in caught.value.message
    fitting = gr.load_ruleset(
        {"extends": "standard", "layout": {"rows": 4, "cols": 4}, "players": {"max": 6}}
    )
    assert fitting.slots == 16


def test_a_file_is_named_in_the_message(tmp_path: Path) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text("extends: standard\nlayout:\n  rows: 6\n", encoding="utf-8")
    with pytest.raises(gr.RulesetError) as caught:
        gr.load_ruleset(path)
    assert caught.value.code == "bad-ruleset"
    assert caught.value.message.startswith(f"{path}: layout.rows: ")


def test_the_limits_themselves_are_accepted() -> None:
    """The refusals are exact: the values at each limit load."""
    for rows, cols in [(2, 2), (5, 2), (2, 5)]:
        rules = gr.load_ruleset({"extends": "standard", "layout": {"rows": rows, "cols": cols}})
        assert rules.slots == rows * cols
    every_card_up = gr.load_ruleset({"extends": "standard", "layout": {"face_up_at_start": 9}})
    assert every_card_up.layout.face_up_at_start == 9
    one_table = gr.load_ruleset({"extends": "standard", "players": {"min": 7}})
    assert one_table.players.min == one_table.players.max == 7
    assert gr.load_ruleset({"extends": "standard", "rounds": 1}).rounds == 1
    no_wild = gr.load_ruleset(
        {
            "extends": "standard",
            "mulligan": {"max_face_up": 0},
            "discard": {"taken_must_be_played": False},
        }
    )
    assert no_wild.mulligan.max_face_up == 0


def test_a_huge_integer_is_refused_in_a_short_message(tmp_path: Path) -> None:
    """YAML reads ``0xfff...`` of any length; every score of a ruleset lies within
    MAX_SCORE_VALUE, and the message quoting the value stays short (``str()`` of it would
    raise)."""
    path = tmp_path / "huge.yaml"
    path.write_text(
        "extends: standard\nhazard:\n  penalty: 0x" + "f" * 20_000 + "\n", encoding="utf-8"
    )
    with pytest.raises(gr.RulesetError) as caught:
        gr.load_ruleset(path)
    message = caught.value.message
    assert caught.value.code == "bad-ruleset"
    assert message.startswith(f"{path}: hazard.penalty: ") and len(message) < 300, message
    assert "<an integer of about 24,083 digits>" in message
    at_limit = gr.load_ruleset({"extends": "standard", "going_out": {"bonus": -MAX_SCORE_VALUE}})
    assert at_limit.going_out.bonus == -MAX_SCORE_VALUE
