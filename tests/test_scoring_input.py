"""The scorer's input: what is not a layout is refused (bad-layout), and the score of the
cards a seat shows (``score_visible``) follows its documented reading."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any, Final

import pytest
from builders import variant
from hypothesis import given
from hypothesis import strategies as st
from strategies import PlayedGame, layouts, played_games, rulesets
from test_scoring_properties import _points as points
from test_scoring_properties import card_points, sets_under

import gnoming_rules as gr
from gnoming_rules import HAZARD, MULLIGAN, Face, Ruleset
from gnoming_rules.core import LayoutError

STANDARD = gr.load_ruleset("standard")
SCORERS = [gr.score_layout, gr.score_breakdown]


@pytest.mark.parametrize("scorer", SCORERS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("value", [None, "X", "5", "h", "?", 5.0, True, False, [5], b"M"], ids=repr)
def test_a_slot_that_holds_no_card_is_refused_with_the_slot_and_the_value(
    scorer: Any, value: object
) -> None:
    layout: list[object] = [5, 5, 5, 1, value, 2, 3, 4, 6]
    with pytest.raises(LayoutError) as refused:
        scorer(STANDARD, layout)
    assert refused.value.code == "bad-layout"
    assert refused.value.message.startswith(f"slot 4: {value!r} is not a card")
    with pytest.raises(LayoutError, match=r"^bad-layout: slot 0: "):
        scorer(STANDARD, [value] * 9)


def test_the_error_is_a_gnoming_error_and_a_value_error() -> None:
    for wrong in ([1] * 8, [1] * 10, ["5"] * 9):
        with pytest.raises(gr.GnomingError):
            gr.score_layout(STANDARD, wrong)
        with pytest.raises(ValueError):  # what the scorer raised before it had a code
            gr.score_layout(STANDARD, wrong)
    with pytest.raises(LayoutError, match="a 3x3 layout has 9 cards, got 8"):
        gr.score_layout(STANDARD, [1] * 8)


def test_a_visible_layout_given_to_score_layout_points_to_score_visible() -> None:
    state = gr.new_game(STANDARD, 3)
    state = gr.apply(STANDARD, state, gr.sample_chance(STANDARD, state, random.Random(5)))
    state = gr.apply(STANDARD, state, gr.Reveal(0, 0))
    with pytest.raises(LayoutError) as refused:
        gr.score_layout(STANDARD, state.visible_layout(0))  # type: ignore[arg-type]
    assert refused.value.message.startswith("slot 1: None is not a card")
    assert "score_visible" in refused.value.message
    card = state.cards[0][0]
    assert gr.score_visible(STANDARD, state.visible_layout(0)) == card_points(STANDARD, card)


def test_score_visible_refuses_what_is_not_a_visible_layout() -> None:
    with pytest.raises(LayoutError, match=r"^bad-layout: slot 2: 'X' is not a card"):
        gr.score_visible(STANDARD, [None, 5, "X", *[None] * 6])
    with pytest.raises(LayoutError, match="has 9 cards, got 3"):
        gr.score_visible(STANDARD, [None] * 3)


# --- the score of what a seat shows ---------------------------------------------------------

_: None = None
"""A face-down slot, as ``State.visible_layout`` writes it."""


def test_a_face_down_card_scores_nothing_and_keeps_its_lines_from_being_sets() -> None:
    assert gr.score_visible(STANDARD, [_] * 9) == 0
    # Row 0 is 5 5 (face down): no set, whatever lies there; column 0 is a set.
    shown: list[Face | None] = [5, 5, _, 5, 1, 2, 5, 3, 4]
    assert gr.score_visible(STANDARD, shown) == -5 + 5 + 1 + 2 + 3 + 4
    assert gr.score_layout(STANDARD, [5, 5, 5, 5, 1, 2, 5, 3, 4]) == -5 - 5 + 1 + 2 + 3 + 4


def test_only_face_up_mulligans_are_wild_and_hazards_count_as_usual() -> None:
    shown: list[Face | None] = [7, 7, MULLIGAN, 4, 4, _, HAZARD, -2, _]
    assert gr.score_visible(STANDARD, shown) == -7 + 4 + 4 + 10 - 2
    rules = variant(hazard={"penalty": -3}, mulligan={"unmatched_value": 2})
    assert gr.score_visible(rules, [MULLIGAN, 1, 3, HAZARD, _, _, _, _, _]) == 2 + 1 + 3 - 3


def visible_reference(ruleset: Ruleset, shown: Sequence[Face | None]) -> int:
    """The reading, from scratch: face-down cards score 0 and a line with one is no set;
    the lowest score over every allowed choice of wild face-up mulligans (8.2-8.5)."""
    mulligans = [slot for slot, card in enumerate(shown) if card == MULLIGAN]
    # Under set score remove no mulligan is wild (10.6, docs/decisions.md "10.6 remove").
    most_wild = 0 if ruleset.sets.score == "remove" else ruleset.mulligan.max_face_up
    scores = []
    for size in range(min(most_wild, len(mulligans)) + 1):
        for wild in combinations(mulligans, size):
            # A face-down card blocks its lines as a hazard would (never in a set).
            blocked = [HAZARD if card is None else card for card in shown]
            sets = sets_under(ruleset, blocked, set(wild))
            covered = {slot for line, _ in sets for slot in line}
            total = sum(points(ruleset, value) for _, value in sets)
            for slot, card in enumerate(shown):
                if card is not None and slot not in covered:
                    total += card_points(ruleset, card)
            scores.append(total)
    return min(scores)


VISIBLE_READING: Final = "visible-score-reading"
VISIBLE_IN_PLAY: Final = "visible-score-in-play"


def score_visible_follows_its_reading(data: st.DataObject) -> None:
    """A random layout of a random variant, with random cards face down, scores by
    ``score_visible`` as ``visible_reference`` says; with none face down, as
    ``score_layout``."""
    ruleset = data.draw(rulesets(), label="ruleset")
    layout = data.draw(layouts(ruleset), label="layout")
    mask = data.draw(st.integers(0, (1 << len(layout)) - 1), label="face-up mask")
    shown = [card if mask >> slot & 1 else None for slot, card in enumerate(layout)]
    if not ruleset.compiled.patterns:  # (the reading is of sets; patterns: test_rules_11_6)
        assert gr.score_visible(ruleset, shown) == visible_reference(ruleset, shown)
    assert gr.score_visible(ruleset, layout) == gr.score_layout(ruleset, layout)


def every_seat_scores_what_it_shows(game: PlayedGame) -> None:
    """Each seat's visible layout in the game's last state scores by ``score_visible`` as
    ``visible_reference`` says."""
    state: gr.State = game.final
    if game.ruleset.compiled.patterns:  # (the reading is of sets; patterns: test_rules_11_6)
        return
    for seat in range(state.players if state.cards[0] else 0):
        shown = state.visible_layout(seat)
        assert gr.score_visible(game.ruleset, shown) == visible_reference(game.ruleset, shown)


VISIBLE_SCORE_PROPERTIES: dict[
    str, tuple[Callable[..., None], tuple[st.SearchStrategy[Any], ...]]
] = {
    VISIBLE_READING: (score_visible_follows_its_reading, (st.data(),)),
    VISIBLE_IN_PLAY: (every_seat_scores_what_it_shows, (played_games(complete=False),)),
}
"""Property name -> (check, strategies for its arguments), for the planted-bug tests."""


@given(st.data())
def test_score_visible_follows_its_reading(data: st.DataObject) -> None:
    score_visible_follows_its_reading(data)


@given(played_games(complete=False))
def test_every_seat_of_every_state_scores_what_it_shows(game: PlayedGame) -> None:
    every_seat_scores_what_it_shows(game)
