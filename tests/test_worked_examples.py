"""The worked examples at the end of RULES.md, under the standard ruleset."""

from __future__ import annotations

from builders import STANDARD, H, M, variant

import gnoming_rules as gr
from gnoming_rules.core import ScoreBreakdown


def _sets(breakdown: ScoreBreakdown) -> list[tuple[str, tuple[int, ...], int]]:
    return [(s.name, s.slots, s.value) for s in breakdown.sets]


def _points(breakdown: ScoreBreakdown) -> list[int]:
    return [card.points for card in breakdown.cards]


def test_example_1_a_row_of_5s_scores_minus_5_not_15() -> None:
    # Row 5 5 5; no column and no other line is a set.
    breakdown = gr.score_breakdown(STANDARD, [5, 5, 5, 1, 2, 3, 4, 6, 7])
    assert _sets(breakdown) == [("row 0", (0, 1, 2), 5)]
    assert _points(breakdown)[:3] == [0, 0, 0]
    assert [c.in_set for c in breakdown.cards] == [True] * 3 + [False] * 6
    assert breakdown.total == -5 + (1 + 2 + 3 + 4 + 6 + 7)


def test_example_2_a_wild_mulligan_completes_a_row_total_21() -> None:
    layout = [5, 5, M, 3, -2, 9, 5, H, 1]
    breakdown = gr.score_breakdown(STANDARD, layout)
    # Row 0 is a set with M = 5; column 0 (5, 3, 5) and column 2 (M, 9, 1) are not.
    assert _sets(breakdown) == [("row 0", (0, 1, 2), 5)]
    assert breakdown.wild == (2,)
    assert "wild mulligan" in breakdown.cards[2].note
    assert _points(breakdown) == [0, 0, 0, 3, -2, 9, 5, 10, 1]
    assert sum(_points(breakdown)) == 26
    assert breakdown.total == gr.score_layout(STANDARD, layout) == 21


def test_example_3_a_corner_in_two_sets_counts_in_both_total_0() -> None:
    layout = [5, 5, 5, 5, 1, 2, 5, 3, 4]
    breakdown = gr.score_breakdown(STANDARD, layout)
    assert _sets(breakdown) == [("row 0", (0, 1, 2), 5), ("column 0", (0, 3, 6), 5)]
    assert breakdown.cards[0].note == "in set: row 0 and column 0"
    assert _points(breakdown) == [0, 0, 0, 0, 1, 2, 0, 3, 4]
    assert breakdown.wild == ()
    assert breakdown.total == gr.score_layout(STANDARD, layout) == 0


def test_example_4_only_one_of_two_mulligans_is_wild_total_12() -> None:
    layout = [7, 7, M, 4, 4, M, 2, 3, 6]
    breakdown = gr.score_breakdown(STANDARD, layout)
    # Wild in row 0: -7 + 4 + 4 + 0 + 2 + 3 + 6 = 12 (wild in row 1 would give 21).
    assert breakdown.wild == (2,)
    assert _sets(breakdown) == [("row 0", (0, 1, 2), 7)]
    assert _points(breakdown) == [0, 0, 0, 4, 4, 0, 2, 3, 6]
    assert not breakdown.cards[5].in_set and breakdown.cards[5].note == "mulligan in no set"
    assert breakdown.total == gr.score_layout(STANDARD, layout) == 12
    # Under a limit of two, both would be wild.
    two = variant(mulligan={"max_face_up": 2})
    assert gr.score_breakdown(two, layout).wild == (2, 5)
