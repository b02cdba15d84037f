"""Scoring properties: symmetries, monotonicity, wild mulligans, breakdowns.

Each property is a plain function of a Hypothesis ``data`` object, so that the planted-bug
tests can run the very same property against a broken scorer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from hypothesis import assume, given
from hypothesis import strategies as st
from invariants import PropertyViolation, check_wild_mulligans
from strategies import layouts, rulesets, variant

import gnoming_rules as gr
from gnoming_rules import HAZARD, MULLIGAN, Face, Ruleset
from gnoming_rules.core import is_positive
from gnoming_rules.core.cards import EMPTY
from gnoming_rules.core.ruleset import OfAKind
from gnoming_rules.core.scoring import ScoreBreakdown


def _ruleset_and_layout(
    data: st.DataObject, mulligans: tuple[int, int] = (0, 0)
) -> tuple[Ruleset, list[Face]]:
    """A ruleset and one of its layouts, in which between ``mulligans[0]`` and ``mulligans[1]``
    slots are then overwritten by mulligans (as many as the deck has to spare)."""
    ruleset = data.draw(rulesets(), label="ruleset")
    layout = list(data.draw(layouts(ruleset), label="layout"))
    spare = ruleset.deck.mulligans - layout.count(MULLIGAN)
    least, most = min(mulligans[0], spare), min(mulligans[1], spare)
    if most > 0:
        count = data.draw(st.integers(least, most), label="extra mulligans")
        for slot in data.draw(
            st.lists(st.integers(0, len(layout) - 1), min_size=count, max_size=count, unique=True),
            label="mulligan slots",
        ):
            layout[slot] = MULLIGAN
    return ruleset, layout


def transposing_keeps_the_score(data: st.DataObject) -> None:
    """Rows become columns: the score of the transposed layout is the same."""
    ruleset, layout = _ruleset_and_layout(data, mulligans=(0, 2))
    rows, cols = ruleset.layout.rows, ruleset.layout.cols
    swap = {"rows": "columns", "columns": "rows", "diagonals": "diagonals"}
    lines = [swap[kind] for kind in ruleset.sets.lines]  # rule 10.4: rows become columns
    patterns = [p.model_dump(mode="json") for p in ruleset.scoring.patterns]
    for pattern in patterns:  # rule 11.6: adjacent rows become adjacent columns, and back
        if isinstance(pattern["shape"], dict) and "adjacent_lines" in pattern["shape"]:
            pattern["shape"] = {"adjacent_lines": swap[pattern["shape"]["adjacent_lines"]]}
    transposed_rules = variant(
        ruleset,
        {
            "layout": {"rows": cols, "cols": rows},
            "sets": {"lines": lines},
            "scoring": {"patterns": patterns},
        },
    )
    transposed = [layout[r * cols + c] for c in range(cols) for r in range(rows)]
    assert gr.score_layout(transposed_rules, transposed) == gr.score_layout(ruleset, layout)


def permuting_rows_and_columns_keeps_the_score(data: st.DataObject) -> None:
    """Reordering the rows and the columns of a layout does not change its score (where
    diagonals are no sets: a reordering moves cards off them, RULES 10.4; and where the
    scoring patterns are only ``of_a_kind``, which takes cards anywhere: a reordering breaks
    up or makes a ``square`` or ``adjacent_lines``, which need adjacent slots, 11.6)."""
    ruleset, layout = _ruleset_and_layout(data, mulligans=(0, 2))
    if "diagonals" in ruleset.sets.lines:
        ruleset = variant(ruleset, {"sets": {"lines": ["rows", "columns"]}})
    patterns = [p.model_dump(mode="json") for p in ruleset.scoring.patterns]
    anywhere = [p for p in patterns if isinstance(p["shape"], dict) and "of_a_kind" in p["shape"]]
    if anywhere != patterns:
        ruleset = variant(ruleset, {"scoring": {"patterns": anywhere}})
    rows, cols = ruleset.layout.rows, ruleset.layout.cols
    row_order = data.draw(st.permutations(range(rows)), label="row order")
    col_order = data.draw(st.permutations(range(cols)), label="column order")
    permuted = [
        layout[row_order[r] * cols + col_order[c]] for r in range(rows) for c in range(cols)
    ]
    assert gr.score_layout(ruleset, permuted) == gr.score_layout(ruleset, layout)


def lowering_a_loose_card_never_raises_the_score(data: st.DataObject) -> None:
    """A positive card in no set, replaced by any lower number card, never raises the score.

    Why it holds whatever the toggles: under the referee's old choice of wild mulligans
    the lower card scores less, or completes sets that score below the cards they cover;
    a wild mulligan that such a set would newly cover was in no set before, so the referee
    may un-wild it instead, which changes nothing else. Not under ``sets.cards: any``
    (10.3, with set score ``zero`` or ``remove``): a lower card may complete a set of
    negative cards, which then score 0. Nor under scoring patterns (11.6), which are then
    left out: a pattern found is not optional (11.8), so a lower card may complete one that
    scores more than its cards did (``points: P``), or that takes cards out of sets that
    scored less (a card in two sets counts in both).
    """
    ruleset, layout = _ruleset_and_layout(data, mulligans=(0, 2))
    assume(ruleset.sets.cards != "any")
    if ruleset.scoring.patterns:
        ruleset = variant(ruleset, {"scoring": {"patterns": []}})
    breakdown = gr.score_breakdown(ruleset, layout)
    loose = [c.slot for c in breakdown.cards if not c.in_set and is_positive(c.card)]
    assume(loose)
    slot = data.draw(st.sampled_from(loose), label="slot")
    value = layout[slot]
    assert isinstance(value, int)
    worth = ruleset.deck.value  # lower in points (rule 10.1), not only in face
    lower = sorted(face for face in ruleset.deck.numbers if worth(face) < worth(value))
    assume(lower)
    lowered = [*layout]
    lowered[slot] = data.draw(st.sampled_from(lower), label="lower card")
    assert gr.score_layout(ruleset, lowered) <= breakdown.total


def a_wild_mulligan_never_scores_worse_than_an_unmatched_one(data: st.DataObject) -> None:
    """A layout scores no more than the same layout with one mulligan counted as a plain
    card of the unmatched value (0 in the standard): never wild, never in a set.

    The plain card is written as a hazard under a variant whose hazard penalty is that
    value (hazards never join sets); the layout's own hazards are then corrected back.
    Scoring patterns (11.6) are left out under ``sets.cards: any`` (10.3): there a mulligan
    that is not wild still matches the other mulligans, so it may complete a pattern, which
    is not optional (11.8) and may score more than its cards (``points: P``); a hazard
    completes none. (Under ``positive`` a mulligan that is not wild forms no pattern.)
    """
    ruleset, layout = _ruleset_and_layout(data, mulligans=(2, 3))
    if ruleset.sets.cards == "any" and ruleset.scoring.patterns:
        ruleset = variant(ruleset, {"scoring": {"patterns": []}})
    mulligans = [slot for slot, card in enumerate(layout) if card == MULLIGAN]
    assume(mulligans)
    slot = data.draw(st.sampled_from(mulligans), label="mulligan")
    unmatched = ruleset.mulligan.unmatched_value
    plain_rules = variant(ruleset, {"hazard": {"penalty": unmatched}})
    plain = [*layout]
    plain[slot] = HAZARD
    correction = layout.count(HAZARD) * (ruleset.hazard.penalty - unmatched)
    assert gr.score_layout(ruleset, layout) <= gr.score_layout(plain_rules, plain) + correction


def card_points(ruleset: Ruleset, card: Face) -> int:
    """What a card in no set scores (RULES 8.3-8.5, 10.1); an empty slot scores 0 (10.6)."""
    if card == EMPTY:
        return 0
    if card == HAZARD:
        return ruleset.hazard.penalty
    if card == MULLIGAN:
        return ruleset.mulligan.unmatched_value
    return ruleset.deck.value(card)


def grid_lines(ruleset: Ruleset) -> list[tuple[int, ...]]:
    """The lines that can be sets: rows, columns, diagonals, as chosen (RULES 2.3, 10.4)."""
    rows, cols = ruleset.layout.rows, ruleset.layout.cols
    kinds = ruleset.sets.lines
    found: list[tuple[int, ...]] = []
    if "rows" in kinds:
        found += [tuple(range(r * cols, (r + 1) * cols)) for r in range(rows)]
    if "columns" in kinds:
        found += [tuple(range(c, rows * cols, cols)) for c in range(cols)]
    if "diagonals" in kinds:
        found += [tuple(r * cols + r for r in range(rows))]
        found += [tuple(r * cols + cols - 1 - r for r in range(rows))]
    return found


def sets_under(
    ruleset: Ruleset, layout: Sequence[Face], wild: set[int]
) -> list[tuple[tuple[int, ...], int]]:
    """The lines that are sets when the mulligans in ``wild`` are wild (RULES 8.2, 10.2-10.3),
    with ``v``, the value of their cards."""
    found = []
    anything = ruleset.sets.cards == "any"
    for line in grid_lines(ruleset):
        cards = [layout[s] for s in line if s not in wild]
        if not cards or HAZARD in cards or EMPTY in cards:  # (no set through a gap: 10.6)
            continue
        if not anything and MULLIGAN in cards:
            continue
        values = {card_points(ruleset, card) for card in cards}
        if ruleset.sets.match == "value" or MULLIGAN in cards:
            same = len({(card == MULLIGAN, card_points(ruleset, card)) for card in cards}) == 1
        else:
            same = len(set(cards)) == 1
        value = next(iter(values))
        if same and (anything or value > 0):
            found.append((line, value))
    return found


def _points(ruleset: Ruleset, value: int) -> int:
    """What a set of ``value`` scores (RULES 8.2, 10.5)."""
    return 0 if ruleset.sets.score in ("zero", "remove") else -value  # remove: 10.6


def score_under(
    ruleset: Ruleset, layout: Sequence[Face], wild: set[int], taken: frozenset[int] = frozenset()
) -> int:
    """The score when exactly the mulligans in ``wild`` are wild (RULES 8.2-8.5), leaving
    out the slots ``taken`` by scoring patterns (11.6: their cards score nothing else, and
    a line holding one is no set; the patterns' own points are not counted here)."""
    sets = [(line, v) for line, v in sets_under(ruleset, layout, wild) if not taken & set(line)]
    covered = {slot for line, _ in sets for slot in line} | taken
    loose = sum(card_points(ruleset, c) for s, c in enumerate(layout) if s not in covered)
    return loose + sum(_points(ruleset, value) for _, value in sets)


def _pattern_slots(ruleset: Ruleset, layout: Sequence[Face], breakdown: ScoreBreakdown) -> set[int]:
    """The slots of the breakdown's pattern instances, each checked to be an instance of one
    of the ruleset's patterns under its choice of wild mulligans, scoring what the pattern
    says, disjoint from the others (RULES 11.6, 11.8)."""
    from pattern_reference import instance_points, places  # (it imports this module)

    everything = frozenset(range(len(layout)))
    wild = set(breakdown.wild)
    taken: set[int] = set()
    for found in breakdown.patterns:
        group = frozenset(found.slots)
        assert not group & taken, f"{found} shares a card with an earlier instance"
        taken |= group
        assert any(
            (
                len(group) == pattern.shape.of_a_kind
                if isinstance(pattern.shape, OfAKind)
                else group in places(ruleset, pattern, everything)
            )
            and instance_points(ruleset, pattern, layout, group, wild) == found.points
            for pattern in ruleset.scoring.patterns
        ), f"{found} is no instance of a pattern of the ruleset"
    return taken


def the_breakdown_adds_up_to_the_score(data: st.DataObject) -> None:
    """The score is the sum of its breakdown, and the breakdown is what RULES 8.2-8.5 say
    for its choice of wild mulligans: those sets, those cards in them, those points; with
    scoring patterns (11.6), instances of them whose cards are in no set and score nothing
    else."""
    ruleset, layout = _ruleset_and_layout(data, mulligans=(1, 3))
    breakdown = gr.score_breakdown(ruleset, layout)
    assert breakdown.total == gr.score_layout(ruleset, layout)
    patterns = sum(p.points for p in breakdown.patterns)
    parts = sum(s.points for s in breakdown.sets) + sum(c.points for c in breakdown.cards)
    assert breakdown.total == patterns + parts
    wild = set(breakdown.wild)
    taken = frozenset(_pattern_slots(ruleset, layout, breakdown))
    expected_sets = [
        (line, v) for line, v in sets_under(ruleset, layout, wild) if not taken & set(line)
    ]
    assert sorted((s.slots, s.value) for s in breakdown.sets) == sorted(expected_sets)
    covered = {slot for line, _ in expected_sets for slot in line}
    for card in breakdown.cards:
        assert card.card == layout[card.slot]
        assert card.in_set == (card.slot in covered)
        assert card.in_pattern == (card.slot in taken)
        scored = card.in_set or card.in_pattern
        assert card.points == (0 if scored else card_points(ruleset, card.card))
    assert breakdown.total == patterns + score_under(ruleset, layout, wild, taken)


def the_wild_mulligans_stay_within_the_limit(data: st.DataObject) -> None:
    """Scoring never makes more mulligans wild than the limit (RULES 7.3, 8.2)."""
    ruleset, layout = _ruleset_and_layout(data, mulligans=(1, 5))
    try:
        check_wild_mulligans(ruleset, layout)
    except PropertyViolation as failure:
        raise AssertionError(str(failure)) from None


def the_referee_takes_the_lowest_wild_choice(data: st.DataObject) -> None:
    """No allowed choice of wild mulligans scores lower than the referee's (RULES 8.2).

    With scoring patterns (11.6) the reference is the brute-force reading of 11.8 (every
    choice of wild mulligans and of instances, then the sets): exponential in the slots, so
    on layouts of up to nine slots; on larger ones the patterns are left out.
    """
    ruleset, layout = _ruleset_and_layout(data, mulligans=(1, 3))
    if ruleset.scoring.patterns:
        if len(layout) <= 9:
            from pattern_reference import reference_score  # (it imports this module)

            assert gr.score_layout(ruleset, layout) == reference_score(ruleset, layout)
            return
        ruleset = variant(ruleset, {"scoring": {"patterns": []}})
    mulligans = [slot for slot, card in enumerate(layout) if card == MULLIGAN]
    limit = min(ruleset.mulligan.max_face_up, len(mulligans))
    if ruleset.sets.score == "remove":  # no mulligan is wild for a line that leaves (10.6)
        limit = 0
    lowest = min(
        score_under(ruleset, layout, set(chosen))
        for size in range(limit + 1)
        for chosen in combinations(mulligans, size)
    )
    assert gr.score_layout(ruleset, layout) == lowest


SCORING_PROPERTIES = {
    "score-transpose": transposing_keeps_the_score,
    "score-permute": permuting_rows_and_columns_keeps_the_score,
    "score-lower-card": lowering_a_loose_card_never_raises_the_score,
    "score-wild-vs-unmatched": a_wild_mulligan_never_scores_worse_than_an_unmatched_one,
    "score-breakdown": the_breakdown_adds_up_to_the_score,
    "score-wild-limit": the_wild_mulligans_stay_within_the_limit,
    "score-lowest-choice": the_referee_takes_the_lowest_wild_choice,
}
"""Every scoring property by name (the planted-bug table refers to these names)."""


@given(st.data())
def test_transposing_keeps_the_score(data: st.DataObject) -> None:
    transposing_keeps_the_score(data)


@given(st.data())
def test_permuting_rows_and_columns_keeps_the_score(data: st.DataObject) -> None:
    permuting_rows_and_columns_keeps_the_score(data)


@given(st.data())
def test_lowering_a_loose_card_never_raises_the_score(data: st.DataObject) -> None:
    lowering_a_loose_card_never_raises_the_score(data)


@given(st.data())
def test_a_wild_mulligan_never_scores_worse_than_an_unmatched_one(data: st.DataObject) -> None:
    a_wild_mulligan_never_scores_worse_than_an_unmatched_one(data)


@given(st.data())
def test_the_breakdown_adds_up_to_the_score(data: st.DataObject) -> None:
    the_breakdown_adds_up_to_the_score(data)


@given(st.data())
def test_the_wild_mulligans_stay_within_the_limit(data: st.DataObject) -> None:
    the_wild_mulligans_stay_within_the_limit(data)


@given(st.data())
def test_the_referee_takes_the_lowest_wild_choice(data: st.DataObject) -> None:
    the_referee_takes_the_lowest_wild_choice(data)


def test_the_worked_examples_of_rules_md_hold_for_the_reference_scorer() -> None:
    """The reference scorer used by these properties agrees with RULES.md's worked examples."""
    rules = gr.load_ruleset("standard")
    examples: list[tuple[list[Face], int]] = [
        ([5, 5, MULLIGAN, 3, -2, 9, 5, HAZARD, 1], 21),
        ([5, 5, 5, 5, 1, 2, 5, 3, 4], 0),
        ([7, 7, MULLIGAN, 4, 4, MULLIGAN, 2, 3, 6], 12),
    ]
    for layout, score in examples:
        mulligans = [s for s, c in enumerate(layout) if c == MULLIGAN]
        choices = [set(), *({s} for s in mulligans)]
        assert min(score_under(rules, layout, wild) for wild in choices) == score
        assert gr.score_layout(rules, layout) == score
    assert Counter(map(len, grid_lines(rules))) == Counter({3: 6})
