"""RULES 11.6 (scoring patterns) and the "Patterns" reading of 11.8: example tests named
after the rule's text, each worked by hand in its comments, the refusals at load, and
properties against a brute-force reading of the rule (``pattern_reference``)."""

from __future__ import annotations

from typing import Any

import pytest
from builders import refused_variant
from hypothesis import given
from hypothesis import strategies as st
from pattern_reference import reference_score
from strategies import layouts

import gnoming_rules as gr
from gnoming_rules import HAZARD, MULLIGAN, Face, Ruleset

M: Face = MULLIGAN
SQUARE_ZERO = {"shape": "square", "score": "zero"}


def patterns(*listed: dict[str, Any], base: str = "standard", **changes: Any) -> Ruleset:
    """``base`` with ``scoring.patterns`` set to ``listed`` (and other ``changes``)."""
    return gr.load_ruleset({"extends": base, "scoring": {"patterns": list(listed)}, **changes})


def of_a_kind(n: int, score: Any) -> dict[str, Any]:
    return {"shape": {"of_a_kind": n}, "score": score}


# --- 11.6 ------------------------------------------------------------------------------------


def test_rule_11_6_scoring_patterns_default_to_none_and_keep_every_rules_identity() -> None:
    for name in gr.bundled_rulesets():
        rules = gr.load_ruleset(name)
        if name == "golf-6-house":
            continue
        assert rules.compiled.patterns == ()
        assert "scoring" not in rules.rules_dict()
        # an empty list is the default: the same rules, the same hash
        assert (
            gr.load_ruleset({"extends": name, "scoring": {"patterns": []}}).sha256 == rules.sha256
        )
    assert patterns(SQUARE_ZERO).sha256 != gr.load_ruleset("standard").sha256


def test_rule_11_6_of_a_kind_is_any_n_matching_cards_anywhere_in_one_layout() -> None:
    rules = patterns(of_a_kind(3, {"points": -10}))
    # three 5s on the diagonal (no line of the standard): -10 for them, 1+2+3+4+6+7 = 23
    assert gr.score_layout(rules, [5, 1, 2, 3, 5, 4, 6, 7, 5]) == -10 + 23
    # two 5s are no three of a kind: 5 + 5 + 1+2+3+4+6+7+8
    assert gr.score_layout(rules, [5, 1, 2, 3, 5, 4, 6, 7, 8]) == 10 + 31


def test_rule_11_6_square_is_four_matching_cards_in_a_2x2_block_of_adjacent_slots() -> None:
    rules = patterns(SQUARE_ZERO)
    # [5 5 1 / 5 5 2 / 3 4 6]: the block of slots 0, 1, 3, 4 scores 0; 1+2+3+4+6 = 16
    assert gr.score_layout(rules, [5, 5, 1, 5, 5, 2, 3, 4, 6]) == 16
    # four 5s in the corners are no block: 4 * 5 + 1+2+3+4+6 = 36
    assert gr.score_layout(rules, [5, 1, 5, 2, 3, 4, 5, 6, 5]) == 36
    assert rules.compiled.patterns[0].instances == (
        0b000011011,
        0b000110110,
        0b011011000,
        0b110110000,
    )


def test_rule_11_6_adjacent_lines_are_two_adjacent_full_columns_all_matching() -> None:
    rules = patterns(
        {"shape": {"adjacent_lines": "columns"}, "score": {"points": -20}}, base="golf-6"
    )
    # [5 5 7 / 5 5 8]: columns 0 and 1 hold four 5s: -20; 7 + 8
    assert gr.score_layout(rules, [5, 5, 7, 5, 5, 8]) == -20 + 15
    # columns 0 and 2 are not adjacent: two pairs, each 0 under golf-6's sets; 7 + 8
    assert gr.score_layout(rules, [5, 7, 5, 5, 8, 5]) == 15
    rows = patterns({"shape": {"adjacent_lines": "rows"}, "score": {"points": -30}})
    # [4 4 4 / 4 4 4 / 1 2 3]: rows 0 and 1: -30; 1 + 2 + 3
    assert gr.score_layout(rows, [4, 4, 4, 4, 4, 4, 1, 2, 3]) == -30 + 6


def test_rule_11_6_points_p_the_patterns_cards_together_score_p_their_values_not_counted() -> None:
    rules = patterns({"shape": "square", "score": {"points": 3}})
    # [9 9 1 / 9 9 2 / 3 4 6]: the four 9s score 3 together (not 36); 1+2+3+4+6 = 16
    breakdown = gr.score_breakdown(rules, [9, 9, 1, 9, 9, 2, 3, 4, 6])
    assert breakdown.total == 3 + 16
    assert [(p.name, p.slots, p.points) for p in breakdown.patterns] == [
        ("square", (0, 1, 3, 4), 3)
    ]
    assert [c.points for c in breakdown.cards if c.in_pattern] == [0, 0, 0, 0]


def test_rule_11_6_zero_the_patterns_cards_score_0() -> None:
    rules = patterns(of_a_kind(4, "zero"))
    # four 9s anywhere: 0; 1+2+3+4+6 = 16
    assert gr.score_layout(rules, [9, 1, 9, 2, 9, 3, 4, 9, 6]) == 16


def test_rule_11_6_minus_value_scores_as_a_set() -> None:
    rules = patterns({"shape": "square", "score": "minus_value"})
    # the square of 5s scores -5, as a set of 5s would; 1+2+3+4+6 = 16
    assert gr.score_layout(rules, [5, 5, 1, 5, 5, 2, 3, 4, 6]) == -5 + 16


def test_rule_11_6_patterns_are_checked_on_the_final_layout_in_the_listed_order() -> None:
    square, four = SQUARE_ZERO, of_a_kind(4, {"points": -30})
    layout: list[Face] = [5, 5, 1, 5, 5, 2, 3, 4, 6]
    # the square first takes the four 5s (0), so no four of a kind is left: 16
    assert gr.score_layout(patterns(square, four), layout) == 16
    # four of a kind first: -30 + 16
    assert gr.score_layout(patterns(four, square), layout) == -14
    # the end of the round scores the final layout the same way (round_scores)
    rules = patterns(four, square)
    assert gr.score_breakdown(rules, layout).total == -14


def test_rule_11_6_a_card_in_an_earlier_pattern_is_in_no_later_one() -> None:
    rules = patterns({"shape": "square", "score": {"points": -10}}, of_a_kind(2, {"points": -1}))
    # [5 5 5 / 5 5 5 / 1 2 3]: the two blocks of 5s overlap, so one square (-10) takes four
    # 5s; the two 5s left make one pair (-1); 1 + 2 + 3
    breakdown = gr.score_breakdown(rules, [5, 5, 5, 5, 5, 5, 1, 2, 3])
    assert breakdown.total == -10 - 1 + 6
    squares = [set(p.slots) for p in breakdown.patterns if p.name == "square"]
    pairs = [set(p.slots) for p in breakdown.patterns if p.name == "2 of a kind"]
    assert len(squares) == 1 and len(pairs) == 1 and not squares[0] & pairs[0]


def test_rule_11_6_a_card_in_a_pattern_is_part_of_no_set() -> None:
    rules = patterns(SQUARE_ZERO)
    # [5 5 5 / 5 5 1 / 5 3 4]: the square takes slots 0, 1, 3, 4, so row 0 and column 0
    # (both 5 5 5) are no sets; 5 (slot 2) + 1 + 5 (slot 6) + 3 + 4 = 18
    breakdown = gr.score_breakdown(rules, [5, 5, 5, 5, 5, 1, 5, 3, 4])
    assert breakdown.total == 18
    assert breakdown.sets == ()
    # without the pattern: row 0 and column 0 are sets (-5 each); 5 + 1 + 3 + 4
    assert gr.score_layout(gr.load_ruleset("standard"), [5, 5, 5, 5, 5, 1, 5, 3, 4]) == 3


def test_rule_11_6_which_cards_may_form_patterns_follows_sets_cards() -> None:
    layout: list[Face] = [-2, -2, 1, -2, -2, 3, 4, 6, 7]
    # positive cards only (10.3's default): four -2s are no square: -8 + 1+3+4+6+7 = 13
    assert gr.score_layout(patterns(SQUARE_ZERO), layout) == 13
    # sets.cards any: the square of -2s scores 0: 1+3+4+6+7 = 21
    anything = patterns(SQUARE_ZERO, sets={"cards": "any", "score": "zero"})
    assert gr.score_layout(anything, layout) == 21


def test_rule_11_6_matching_follows_sets_match() -> None:
    square = {"shape": "square", "score": {"points": -20}}
    layout: list[Face] = ["J", "Q", "A", "Q", "J", 3]
    # by face (golf-6) a J and a Q do not match: J+Q+A+Q+J+3 = 10+10+1+10+10+3
    assert gr.score_layout(patterns(square, base="golf-6"), layout) == 44
    # by value (10.2) both are worth 10: the square scores -20; A + 3
    by_value = patterns(square, base="golf-6", sets={"match": "value"})
    assert gr.score_layout(by_value, layout) == -20 + 4


def test_rule_11_6_mulligans_are_wild_in_patterns_as_in_sets() -> None:
    layout: list[Face] = [5, 5, 1, 5, M, 2, 3, 4, 6]
    # the mulligan stands for the fourth 5: 0 + 1+2+3+4+6
    assert gr.score_layout(patterns(SQUARE_ZERO), layout) == 16
    # with no mulligan wild (limit 0): 5+5+5 + 0 (mulligan) + 16
    no_wild = patterns(
        SQUARE_ZERO, mulligan={"max_face_up": 0}, discard={"taken_must_be_played": False}
    )
    assert gr.score_layout(no_wild, layout) == 31
    breakdown = gr.score_breakdown(patterns(SQUARE_ZERO), layout)
    assert breakdown.wild == (4,)
    assert "wild mulligan in pattern" in breakdown.cards[4].note


# --- 11.8 "Patterns" ---------------------------------------------------------------------------


def test_rule_11_8_each_pattern_takes_as_many_disjoint_instances_as_the_cards_left_hold() -> None:
    pairs = patterns(of_a_kind(2, {"points": -3}))
    # four 5s are two pairs: -3 -3; 1+2+3+4+6 = 16 (row 0's 5 5 5 holds pattern cards)
    assert gr.score_layout(pairs, [5, 5, 5, 5, 1, 2, 3, 4, 6]) == -6 + 16
    # a 2x4 layout of 5s: three blocks, the middle one overlapping both others; the most
    # disjoint ones are the two outer ones: -10 -10 (the middle one alone would leave four
    # 5s, +20)
    wide = patterns({"shape": "square", "score": {"points": -10}}, layout={"rows": 2, "cols": 4})
    assert gr.score_layout(wide, [5] * 8) == -20


def test_rule_11_8_a_pattern_found_is_not_optional_like_a_set() -> None:
    # the square raises the score (18, not the 3 of the two sets: see the test of "no set"),
    # and the referee may not leave it out; a positive score as well
    rules = patterns({"shape": "square", "score": {"points": 50}})
    assert gr.score_layout(rules, [5, 5, 1, 5, 5, 2, 3, 4, 6]) == 50 + 16


def test_rule_11_8_where_cards_could_form_different_instances_the_lowest_score_is_taken() -> None:
    rules = patterns(SQUARE_ZERO)
    # [5 5 5 / 5 5 1 / 5 5 2]: the top block leaves 5, 1, 5, 5, 2 and no set: 18; the
    # bottom block leaves row 0, 5 5 5, a set: -5 + 1 + 2 = -2. The referee takes -2.
    breakdown = gr.score_breakdown(rules, [5, 5, 5, 5, 5, 1, 5, 5, 2])
    assert breakdown.total == -2
    assert breakdown.patterns[0].slots == (3, 4, 6, 7)
    assert [s.name for s in breakdown.sets] == ["row 0"]


def test_rule_11_8_the_wild_mulligans_are_one_choice_for_sets_and_patterns_within_7_3() -> None:
    three = of_a_kind(3, "zero")
    layout: list[Face] = [7, 7, M, 4, 4, M, 2, 3, 6]
    # one wild mulligan (7.3): 7 7 M is three of a kind (0), the other mulligan is no card
    # of a set (0): 4 + 4 + 2 + 3 + 6 = 19 (4 4 M instead: 7 + 7 + 11 = 25; none wild: 33)
    assert gr.score_layout(patterns(three), layout) == 19
    # both wild (limit 2): 7 7 M and 4 4 M both: 2 + 3 + 6
    two = patterns(three, mulligan={"max_face_up": 2})
    assert gr.score_layout(two, layout) == 11
    assert len(gr.score_breakdown(two, layout).wild) == 2


def test_rule_11_8_an_instance_needs_one_card_that_is_not_a_wild_mulligan() -> None:
    rules = patterns(
        {"shape": "square", "score": {"points": -50}},
        deck={"mulligans": 4},
        mulligan={"max_face_up": 4},
    )
    # [M M 1 / M M 2 / 3 4 6]: four wild mulligans are no square; they make the lines
    # sets instead: rows 0 and 1 (-1, -2), columns 0 and 1 (-3, -4); + 6 = -4
    assert gr.score_layout(rules, [M, M, 1, M, M, 2, 3, 4, 6]) == -4


def test_rule_11_8_minus_value_scores_minus_v_once_per_instance() -> None:
    rules = patterns(of_a_kind(2, "minus_value"))
    # two pairs of 5s: -5 -5; 1+2+3+4+6
    assert gr.score_layout(rules, [5, 5, 5, 5, 1, 2, 3, 4, 6]) == -10 + 16


def test_rule_11_8_a_patterns_cards_score_nothing_else() -> None:
    rules = patterns(of_a_kind(2, {"points": -1}))
    # [5 5 H / 1 2 3 / 4 6 7]: the pair scores -1 in all; the hazard +10; 1+2+3+4+6+7 = 23
    assert gr.score_layout(rules, [5, 5, HAZARD, 1, 2, 3, 4, 6, 7]) == -1 + 10 + 23


def test_rule_11_8_an_n_above_the_slots_loads_and_is_never_found() -> None:
    rules = patterns(of_a_kind(10, {"points": -100}))
    layout: list[Face] = [5] * 9
    assert gr.score_layout(rules, layout) == gr.score_layout(gr.load_ruleset("standard"), layout)


def test_rule_11_6_score_visible_scores_the_patterns_of_the_cards_a_seat_shows() -> None:
    rules = patterns(SQUARE_ZERO)
    # a face-down card is in no pattern: [5 5 1 / 5 ? 2 / 3 4 6] is no square
    assert gr.score_visible(rules, [5, 5, 1, 5, None, 2, 3, 4, 6]) == 15 + 16
    assert gr.score_visible(rules, [5, 5, 1, 5, 5, 2, 3, 4, 6]) == 16


# --- refusals at load (rule 10.11, 11.8 "Loading") -------------------------------------------

REFUSED: list[tuple[str, dict[str, Any], str, str]] = [
    # (case, override of standard, field the message must start with, what it must say)
    (
        "with remove",
        {"sets": {"score": "remove"}, "scoring": {"patterns": [SQUARE_ZERO]}},
        "scoring.patterns",
        "refused with sets.score remove",
    ),
    (
        "of a kind 1",
        {"scoring": {"patterns": [of_a_kind(1, "zero")]}},
        "scoring.patterns.0.shape.of_a_kind",
        "must be at least 2, got 1",
    ),
    (
        "unknown shape",
        {"scoring": {"patterns": [{"shape": "circle", "score": "zero"}]}},
        "scoring.patterns.0.shape",
        "a shape is square, {of_a_kind: N} or {adjacent_lines: rows|columns}, got 'circle'",
    ),
    (
        "diagonal lines",
        {"scoring": {"patterns": [{"shape": {"adjacent_lines": "diagonals"}, "score": "zero"}]}},
        "scoring.patterns.0.shape.adjacent_lines",
        "'rows' or 'columns'",
    ),
    (
        "unknown score",
        {"scoring": {"patterns": [{"shape": "square", "score": "double"}]}},
        "scoring.patterns.0.score",
        "a score is {points: P}, zero or minus_value",
    ),
    (
        "points not an integer",
        {"scoring": {"patterns": [{"shape": "square", "score": {"points": "-20"}}]}},
        "scoring.patterns.0.score.points",
        "must be an integer",
    ),
    (
        "minus_value with any",
        {
            "sets": {"cards": "any", "score": "zero"},
            "scoring": {"patterns": [SQUARE_ZERO, of_a_kind(2, "minus_value")]},
        },
        "scoring.patterns.1.score",
        "minus_value is refused with sets.cards any",
    ),
    (
        "unknown field",
        {"scoring": {"patterns": [{**SQUARE_ZERO, "when": "always"}]}},
        "scoring.patterns.0.when",
        "unknown field",
    ),
    (
        "too many wild choices",
        {
            "deck": {"mulligans": 20},
            "mulligan": {"max_face_up": 9},
            "layout": {"rows": 4, "cols": 4},
            "players": {"min": 3, "max": 3},
            "scoring": {"patterns": [SQUARE_ZERO]},
        },
        "scoring.patterns",
        "choices of wild mulligans",
    ),
]


@pytest.mark.parametrize(
    ("override", "field", "fragment"), [case[1:] for case in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_rule_11_8_an_unplayable_pattern_is_refused_at_load_naming_the_field(
    override: dict[str, Any], field: str, fragment: str
) -> None:
    refused_variant(override, field, fragment)


def test_rule_11_8_the_refusals_are_exact_their_neighbours_load() -> None:
    assert patterns(of_a_kind(2, "zero")).compiled.patterns[0].size == 2
    anything = patterns(of_a_kind(2, "zero"), sets={"cards": "any", "score": "zero"})
    assert anything.compiled.patterns[0].score == "zero"
    # 12 mulligans that may all be wild: 2 ** 12 = 4,096 choices, the most allowed
    table: dict[str, Any] = {"layout": {"rows": 4, "cols": 4}, "players": {"min": 3, "max": 3}}
    most = patterns(SQUARE_ZERO, deck={"mulligans": 12}, mulligan={"max_face_up": 12}, **table)
    assert most.compiled.patterns
    with pytest.raises(gr.RulesetError, match="8,191 choices"):
        patterns(SQUARE_ZERO, deck={"mulligans": 13}, mulligan={"max_face_up": 12}, **table)


# --- properties --------------------------------------------------------------------------------

_STANDARD_FACES = tuple(gr.load_ruleset("standard").deck.numbers)


@st.composite
def pattern(draw: st.DrawFn, anything: bool) -> dict[str, Any]:
    """One scoring pattern, as a ruleset writes it."""
    shape = draw(
        st.sampled_from(["square", {"adjacent_lines": "rows"}, {"adjacent_lines": "columns"}])
        | st.integers(2, 5).map(lambda n: {"of_a_kind": n})
    )
    words = ["zero"] if anything else ["zero", "minus_value"]
    score = draw(st.sampled_from(words) | st.integers(-20, 20).map(lambda p: {"points": p}))
    return {"shape": shape, "score": score}


@st.composite
def small_pattern_rulesets(draw: st.DrawFn) -> Ruleset:
    """Rulesets of up to nine slots, a deck of few faces (patterns and sets are common),
    mulligans, and one to three scoring patterns."""
    rows, cols = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]))
    anything = draw(st.booleans())
    numbers: dict[int, int | None] = {face: None for face in _STANDARD_FACES}
    numbers.update({-2: 6, 1: 8, 5: 14, 7: 8})
    return gr.load_ruleset(
        {
            "extends": "standard",
            "layout": {"rows": rows, "cols": cols, "face_up_at_start": 2},
            "players": {"min": 2, "max": 3},
            "deck": {"numbers": numbers, "hazards": 2, "mulligans": draw(st.integers(0, 4))},
            "mulligan": {"max_face_up": draw(st.integers(0, 2)), "unmatched_value": 1},
            "discard": {"taken_must_be_played": False},
            "sets": {
                "cards": "any" if anything else "positive",
                "match": draw(st.sampled_from(["face", "value"])),
                "score": "zero" if anything else draw(st.sampled_from(["minus_value", "zero"])),
            },
            "scoring": {"patterns": draw(st.lists(pattern(anything), min_size=1, max_size=3))},
        }
    )


@given(st.data())
def test_rule_11_8_the_referee_scores_as_the_brute_force_reading_of_the_rule(
    data: st.DataObject,
) -> None:
    """Every choice of wild mulligans and of the largest families of instances, pattern
    after pattern, then the sets: the lowest score is the referee's."""
    rules = data.draw(small_pattern_rulesets(), label="ruleset")
    layout = data.draw(layouts(rules), label="layout")
    assert gr.score_layout(rules, layout) == reference_score(rules, layout)


@given(st.data())
def test_rule_11_6_the_breakdown_adds_up_and_keeps_patterns_and_sets_apart(
    data: st.DataObject,
) -> None:
    """The breakdown's points add up to the score; instances are disjoint, each with a
    card that is not wild; no set holds a pattern's card; at most the limit are wild."""
    rules = data.draw(small_pattern_rulesets(), label="ruleset")
    layout = data.draw(layouts(rules), label="layout")
    breakdown = gr.score_breakdown(rules, layout)
    total = sum(p.points for p in breakdown.patterns) + sum(s.points for s in breakdown.sets)
    total += sum(c.points for c in breakdown.cards)
    assert total == breakdown.total == gr.score_layout(rules, layout)
    seen: set[int] = set()
    for found in breakdown.patterns:
        assert not seen & set(found.slots)
        seen |= set(found.slots)
        assert any(slot not in breakdown.wild for slot in found.slots)
    for line in breakdown.sets:
        assert not seen & set(line.slots)
    assert {c.slot for c in breakdown.cards if c.in_pattern} == seen
    assert len(breakdown.wild) <= rules.mulligan.max_face_up


@given(st.data())
def test_rule_11_6_transposing_a_layout_keeps_its_score(data: st.DataObject) -> None:
    """Rows become columns: adjacent rows become adjacent columns, a square a square."""
    rules = data.draw(small_pattern_rulesets(), label="ruleset")
    layout = data.draw(layouts(rules), label="layout")
    rows, cols = rules.layout.rows, rules.layout.cols
    swap = {"rows": "columns", "columns": "rows"}
    listed = [p.model_dump(mode="json") for p in rules.scoring.patterns]
    for found in listed:
        if isinstance(found["shape"], dict) and "adjacent_lines" in found["shape"]:
            found["shape"] = {"adjacent_lines": swap[found["shape"]["adjacent_lines"]]}
    transposed_rules = rules.model_copy(
        update={"layout": {"rows": cols, "cols": rows}, "scoring": {"patterns": listed}}
    )
    transposed = [layout[r * cols + c] for c in range(cols) for r in range(rows)]
    assert gr.score_layout(transposed_rules, transposed) == gr.score_layout(rules, layout)


@given(st.data())
def test_rule_11_6_mirroring_a_layout_keeps_its_score(data: st.DataObject) -> None:
    """Columns in reverse order, rows in reverse order: adjacent lines stay adjacent,
    blocks stay blocks, so nothing changes."""
    rules = data.draw(small_pattern_rulesets(), label="ruleset")
    layout = data.draw(layouts(rules), label="layout")
    rows, cols = rules.layout.rows, rules.layout.cols
    flip_rows, flip_cols = data.draw(st.booleans()), data.draw(st.booleans())
    mirrored = [
        layout[(rows - 1 - r if flip_rows else r) * cols + (cols - 1 - c if flip_cols else c)]
        for r in range(rows)
        for c in range(cols)
    ]
    assert gr.score_layout(rules, mirrored) == gr.score_layout(rules, layout)


@given(st.data())
def test_rule_11_8_a_pattern_that_can_never_be_found_changes_no_score(
    data: st.DataObject,
) -> None:
    """``of_a_kind`` with N above the slots, anywhere in the list, is never found."""
    rules = data.draw(small_pattern_rulesets(), label="ruleset")
    layout = data.draw(layouts(rules), label="layout")
    listed = [p.model_dump(mode="json") for p in rules.scoring.patterns]
    at = data.draw(st.integers(0, len(listed)), label="where")
    listed.insert(at, of_a_kind(rules.slots + 1, {"points": -99}))
    more = rules.model_copy(update={"scoring": {"patterns": listed}})
    assert gr.score_layout(more, layout) == gr.score_layout(rules, layout)
