"""RULES.md §1: the cards, and the deck toggle."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from builders import STANDARD, H, M, arranged_deal, deck_of, variant
from referee_checks import accepted, refused

import gnoming_rules as gr
from gnoming_rules.core import face_from_text, face_text, is_face
from gnoming_rules.core.cards import a_card


def test_rule_1_1_standard_deck_has_110_cards_of_four_kinds() -> None:
    deal = gr.sample_chance(STANDARD, gr.new_game(STANDARD, 3), random.Random(1))
    assert isinstance(deal, gr.Deal)
    cards = deal.cards
    assert len(cards) == 110
    assert sum(1 for c in cards if isinstance(c, int) and c > 0) == 82
    assert sum(1 for c in cards if isinstance(c, int) and c < 0) == 22
    assert cards.count(H) == 3
    assert cards.count(M) == 3
    assert STANDARD.deck.size == 110


def test_rule_1_2_standard_face_values_are_the_assumed_ones() -> None:
    expected: Counter[gr.Face] = Counter({H: 3, M: 3})
    for value in range(1, 11):
        expected[value] = 7
    expected[11] = expected[12] = 6
    expected.update({-1: 8, -2: 6, -3: 4, -4: 2, -5: 2})
    assert deck_of(STANDARD) == expected
    deal = gr.sample_chance(STANDARD, gr.new_game(STANDARD, 4), random.Random(2))
    assert isinstance(deal, gr.Deal)
    assert Counter(deal.cards) == expected


def test_rule_1_2_a_deal_with_other_face_values_is_refused() -> None:
    state = gr.new_game(STANDARD, 3)
    cards = list(arranged_deal(STANDARD, 3).cards)
    cards[cards.index(12)] = 13  # one 12 printed as a 13: not a card of this deck
    error = refused(STANDARD, state, gr.Deal(tuple(cards)), "not-the-deck", "3.1")
    assert "13" in error.message


def test_rule_1_3_cards_are_written_by_face() -> None:
    assert [face_from_text(t) for t in ("7", "-3", "H", "m", " M ", "0", "k")] == [
        7,
        -3,
        H,
        M,
        M,
        0,
        "K",
    ]  # fmt: skip  (0 and named faces: rule 10.1)
    assert [face_text(c) for c in (7, -3, H, M, None)] == ["7", "-3", "H", "M", "-"]
    assert all(is_face(c) for c in (1, -5, 12, H, M, 0, "K", "JK", "X"))
    assert not any(is_face(c) for c in (True, False, 1.0, "7", "x", "ABCD", "?", None))
    with pytest.raises(ValueError, match="not a card"):
        face_from_text("Q!")


def test_rule_1_3_a_deal_holds_faces_only() -> None:
    state = gr.new_game(STANDARD, 3)
    cards = list(arranged_deal(STANDARD, 3).cards)
    for bad in (True, "x", 7.0, "?"):
        wrong = (*cards[:-1], bad)
        error = refused(STANDARD, state, gr.Deal(wrong), "not-the-deck", "3.1")  # type: ignore[arg-type]
        assert "item 109" in error.message


def test_rule_1_3_cards_with_the_same_face_are_interchangeable() -> None:
    # Two shuffles that differ only in which copy of a face went where are the same deal.
    deal = arranged_deal(STANDARD, 3)
    twin = gr.Deal(tuple(deal.cards))
    assert twin == deal and hash(twin) == hash(deal)
    state = gr.new_game(STANDARD, 3)
    assert gr.apply(STANDARD, state, deal) == gr.apply(STANDARD, state, twin)


def test_toggle_deck_changes_the_cards_dealt_and_checked() -> None:
    thirteens = variant(deck={"numbers": {13: 4}, "mulligans": 1})
    assert thirteens.deck.size == 110 + 4 - 2
    assert deck_of(thirteens)[13] == 4 and deck_of(thirteens)[M] == 1
    state = gr.new_game(thirteens, 3)
    dealt = gr.sample_chance(thirteens, state, random.Random(3))
    assert isinstance(dealt, gr.Deal)
    assert Counter(dealt.cards) == deck_of(thirteens)
    accepted(thirteens, state, dealt)
    # A deal of the standard deck is not a deal of this one, and the other way round.
    standard_deal = arranged_deal(STANDARD, 3)
    refused(thirteens, state, standard_deal, "not-the-deck", "3.1")
    refused(STANDARD, gr.new_game(STANDARD, 3), dealt, "not-the-deck", "3.1")
    # The new face scores like any positive card and makes sets.
    layout = [13, 13, 13, 1, 2, 3, 4, 6, 7]
    assert gr.score_layout(thirteens, layout) == -13 + 1 + 2 + 3 + 4 + 6 + 7


@pytest.mark.parametrize(
    ("card", "named"),
    [
        (7, "a 7"),
        (8, "an 8"),
        (11, "an 11"),
        (18, "an 18"),
        (80, "an 80"),
        (88, "an 88"),
        (800, "an 800"),
        (8_000, "an 8000"),
        (11_000, "an 11000"),
        (18_500, "an 18500"),
        (1, "a 1"),
        (12, "a 12"),
        (110, "a 110"),
        (1_100, "a 1100"),
        (108, "a 108"),
        (-8, "a -8"),
        (-11, "a -11"),
        (H, "a hazard (H)"),
        (M, "a mulligan (M)"),
    ],
)
def test_a_card_is_named_with_the_article_its_reading_takes(card: gr.Face, named: str) -> None:
    """Messages say "an 8" and "an 11" (eight, eleven), "a -8" (minus eight)."""
    assert a_card(card) == named
