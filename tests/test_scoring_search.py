"""The wild-mulligan search of RULES 8.2 is exact and bounded.

Scoring tries groups of candidate lines rather than every subset of mulligans
(``scoring.best_choice``). These tests compare it with the plain definition, every subset of
at most ``mulligan.max_face_up`` mulligans made wild, on seeded random layouts, and show
that a layout full of mulligans scores at once however high the limit.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from builders import variant

import gnoming_rules as gr
from gnoming_rules.core.cards import Face
from gnoming_rules.core.scoring import score_with


def _by_definition(rules: gr.Ruleset, cards: list[Face]) -> int:
    """The lowest score over every choice of at most the limit's mulligans as wild."""
    table = rules.compiled
    mulligans = [slot for slot, card in enumerate(cards) if card == gr.MULLIGAN]
    return min(
        score_with(table, cards, sum(1 << slot for slot in chosen))
        for size in range(min(len(mulligans), table.max_mulligans) + 1)
        for chosen in combinations(mulligans, size)
    )


def _rules(rows: int, cols: int, limit: int, unmatched: int) -> gr.Ruleset:
    return variant(
        layout={"rows": rows, "cols": cols},
        players={"min": 2, "max": 2},
        deck={"mulligans": 25},
        mulligan={"max_face_up": limit, "unmatched_value": unmatched},
    )


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (3, 3), (3, 5), (4, 4)])
@pytest.mark.parametrize("limit", [1, 2, 4])
def test_rule_8_2_the_search_finds_the_lowest_score_of_the_definition(
    rows: int, cols: int, limit: int
) -> None:
    rng = random.Random(rows * 100 + cols * 10 + limit)
    faces: list[Face] = [5, 5, 5, 7, "M", "M", "M", -2, "H", 3]
    for unmatched in (0, -4, 3):
        rules = _rules(rows, cols, limit, unmatched)
        for _ in range(300):
            cards = [rng.choice(faces) for _ in range(rows * cols)]
            assert gr.score_layout(rules, cards) == _by_definition(rules, cards), cards


def test_rule_8_2_a_layout_of_mulligans_scores_at_once_whatever_the_limit() -> None:
    rules = _rules(5, 5, 25, 0)
    everywhere: list[Face] = [gr.MULLIGAN] * 25
    assert gr.score_layout(rules, everywhere) == 0  # no positive card: no set
    one_five: list[Face] = [5, *([gr.MULLIGAN] * 24)]
    breakdown = gr.score_breakdown(rules, one_five)
    # Row 0 and column 0 can both be sets of 5s: 8 wild mulligans, -10.
    assert breakdown.total == -10
    assert {s.name for s in breakdown.sets} == {"row 0", "column 0"}
    assert len(breakdown.wild) == 8
