"""RULES.md 11.1: what a seat knows of the face-down cards."""

from __future__ import annotations

from builders import STANDARD, H, play, start_game
from referee_checks import accepted
from rules_11_kit import (
    DOWN_RULES,
    POWER_FACES,
    dealt,
    draw_and_discard,
    knowers,
    peek_all,
    quiet,
    rules_with,
)

import gnoming_rules as gr

ONE_DOWN = {"layout": {"face_up_at_start": 8, "peek_at_start": 1}}
"""Eight cards revealed at setup, the ninth peeked at: every card known to its owner."""


def test_rule_11_1_a_face_down_card_may_be_known_to_some_seats_only() -> None:
    rules = rules_with(**ONE_DOWN)
    state = peek_all(rules, dealt(rules, 3))
    for seat in range(3):
        assert knowers(state, seat, 8) == {seat}
        assert state.visible_layout(seat)[8] is None
    assert start_game(STANDARD, 3).known == ()  # under §1-10 nobody knows a face-down card


def test_rule_11_1_a_known_card_still_counts_as_face_down_for_going_out() -> None:
    rules = rules_with(**ONE_DOWN)
    state = quiet(rules, peek_all(rules, dealt(rules, 3)))
    assert state.went_out is None and state.actor == 1


def test_rule_11_1_a_known_card_still_counts_as_face_down_for_hazard_flips() -> None:
    rules = rules_with(layout={"face_up_at_start": 7, "peek_at_start": 2})
    state = peek_all(rules, dealt(rules, 3, draw=[H]))
    state = play(rules, state, gr.Draw(0), gr.Discard(0))
    assert state.flips_owed == (1, 2)  # two face-down cards each, both known: they flip
    spared = rules_with(**ONE_DOWN)
    state = peek_all(spared, dealt(spared, 3, draw=[H]))
    state = play(spared, state, gr.Draw(0), gr.Discard(0))
    assert state.phase is gr.Phase.DRAW  # one face-down (known) card each: 6.2 spares it


def test_rule_11_1_a_known_card_still_counts_as_face_down_for_10_7() -> None:
    rules = rules_with(**ONE_DOWN, turn={"flip_after_deck_discard": "must"})
    state = draw_and_discard(rules, peek_all(rules, dealt(rules, 3)))
    assert state.phase is gr.Phase.FLIP and state.flips_owed == (0,)
    state = accepted(rules, state, gr.Flip(0, 8))
    assert state.went_out == 0  # rule 10.7: the last card flipped counts for 8.1


def test_rule_11_1_knowledge_goes_with_the_card_when_it_moves() -> None:
    rules = rules_with(layout={"peek_at_start": 1}, powers=POWER_FACES)
    state = dealt(rules, 3, layouts={0: [1, 2, 3, 4, 5, 6, 11, 12, -1]}, draw=[9])
    state = peek_all(rules, state, {0: [4], 1: [6], 2: [2]})
    state = draw_and_discard(rules, state)
    assert state.power == "swap_blind"
    state = accepted(rules, state, gr.Swap(0, 4, 1, 6))
    assert knowers(state, 1, 6) == {0} and state.cards[1][6] == 5  # seat 0's peeked 5
    assert knowers(state, 0, 4) == {1}  # the card seat 1 peeked at, now seat 0's


def test_rule_11_1_a_card_that_leaves_the_layout_takes_its_knowers_with_it() -> None:
    rules = rules_with(**DOWN_RULES, powers=POWER_FACES)
    state = dealt(rules, 3, draw=[8, 12])
    state = draw_and_discard(rules, state)
    state = accepted(rules, state, gr.Peek(0, 4, 1))
    assert knowers(state, 1, 4) == {0}
    held = state.cards[1][4]
    state = play(rules, state, gr.Draw(1), gr.Place(1, 4))
    assert state.held == held and state.cards[1][4] == 12
    assert knowers(state, 1, 4) == {1}  # the placer knows the 12; seat 0 knew the card gone
