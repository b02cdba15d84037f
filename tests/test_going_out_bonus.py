"""Rule 8.6 for the seat that went out, in every case: strictly lowest gets the bonus under
both tie rules; tied for lowest gets it only when ties count as lowest; not lowest gets the
penalty (doubled first when above 0 under rule 10.9). The other seats' scores are their
layouts' (docs/rules.md 8.6)."""

from __future__ import annotations

from builders import STANDARD, variant
from hypothesis import event, given
from strategies import RoundEnding, round_endings

import gnoming_rules as gr
from gnoming_rules.core.rules.round_end import round_scores

OUT = (-5, -5, -4, -4, -3, -3, -2, -2, 1)  # -27
HIGH = (1, 2, 3, 4, 6, 7, 8, 9, 10)  # 50
LOW = (-5, -4, -3, -3, -2, -1, 1, 2, 3)  # -12


def scores(
    ruleset: gr.Ruleset, layouts: tuple[tuple[gr.Face, ...], ...], out: int
) -> tuple[int, ...]:
    return round_scores(ruleset.compiled, layouts, out)


def test_strictly_lowest_gets_the_bonus_whatever_the_tie_rule() -> None:
    for ties_count in (True, False):
        rules = variant(going_out={"ties_count_as_lowest": ties_count})
        assert scores(rules, (LOW, HIGH, HIGH), 0) == (-12 - 5, 50, 50), ties_count
        assert scores(rules, (HIGH, OUT, LOW), 1) == (50, -27 - 5, -12), ties_count


def test_a_tie_for_lowest_gets_the_bonus_only_when_ties_count() -> None:
    counting = variant(going_out={"ties_count_as_lowest": True})
    strict = variant(going_out={"ties_count_as_lowest": False})
    assert scores(counting, (LOW, LOW, HIGH), 0) == (-12 - 5, -12, 50)
    assert scores(strict, (LOW, LOW, HIGH), 0) == (-12 + 5, -12, 50)


def test_not_lowest_gets_the_penalty_and_nobody_out_gets_neither() -> None:
    assert scores(STANDARD, (LOW, OUT, HIGH), 0) == (-12 + 5, -27, 50)
    assert round_scores(STANDARD.compiled, (LOW, OUT, HIGH), None) == (-12, -27, 50)


def going_out_bonus_follows_rule_8_6(ending: RoundEnding) -> None:
    rules, layouts, out = ending.ruleset, ending.layouts, ending.went_out
    base = [gr.score_layout(rules, layout) for layout in layouts]
    mine, others = base[out], [score for seat, score in enumerate(base) if seat != out]
    tie_counts = rules.going_out.ties_count_as_lowest
    if mine < min(others):
        case, lowest = "strictly lowest", True
    elif mine == min(others):
        case, lowest = "tied for lowest", tie_counts
    else:
        case, lowest = "not lowest", False
    event(f"{case}, ties count: {tie_counts}")
    going_out = rules.going_out
    expected = list(base)
    if going_out.double_if_not_lowest and not lowest and mine > 0:
        expected[out] *= 2  # rule 10.9: doubled before the bonus or penalty of 8.6
    expected[out] += going_out.bonus if lowest else going_out.penalty
    assert scores(rules, layouts, out) == tuple(expected), (case, base)


@given(round_endings())
def test_going_out_bonus_follows_rule_8_6(ending: RoundEnding) -> None:
    going_out_bonus_follows_rule_8_6(ending)
