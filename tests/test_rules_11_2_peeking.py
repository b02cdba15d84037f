"""RULES.md 11.2: peeking at the start (``layout.peek_at_start``)."""

from __future__ import annotations

import pytest
from builders import STANDARD, play, start_game
from referee_checks import accepted, offered, refused
from rules_11_kit import PEEKING, dealt, knowers, peek_all, rules_with

import gnoming_rules as gr


def test_rule_11_2_after_the_setup_reveals_each_player_in_seat_order_peeks_at_n_own_cards() -> None:
    state = dealt(PEEKING, 3, first_player=1)
    # The reveals are over (slots 0 and 1 of every seat are up); seat 1, first, peeks.
    assert all(state.face_down_count(seat) == 7 for seat in range(3))
    assert state.phase is gr.Phase.PEEK and state.actor == 1 and state.peeks == 0
    assert state.waiting == "seat 1 must look at a face-down card (setup)"
    assert offered(PEEKING, state) == {gr.Peek(1, slot) for slot in range(2, 9)}
    state = accepted(PEEKING, state, gr.Peek(1, 4))
    assert state.actor == 1 and state.peeks == 1
    state = accepted(PEEKING, state, gr.Peek(1, 6))
    assert state.actor == 2 and state.peeks == 0
    state = accepted(PEEKING, state, gr.Peek(2, 2))
    state = accepted(PEEKING, state, gr.Peek(2, 3))
    assert state.actor == 0
    state = accepted(PEEKING, state, gr.Peek(0, 8))
    state = accepted(PEEKING, state, gr.Peek(0, 7))
    # Back at the round's first player: the first turn begins.
    assert state.phase is gr.Phase.DRAW and state.actor == 1
    assert [knowers(state, 1, slot) for slot in (4, 6, 5)] == [{1}, {1}, set()]
    assert knowers(state, 0, 8) == {0} and knowers(state, 2, 3) == {2}


def test_rule_11_2_a_peeked_card_becomes_known_to_its_owner_and_stays_face_down() -> None:
    state = accepted(PEEKING, dealt(PEEKING, 3), gr.Peek(0, 5))
    assert not state.is_face_up(0, 5)
    assert state.knows(0, 0, 5) and not state.knows(1, 0, 5) and not state.knows(2, 0, 5)
    assert state.visible_layout(0)[5] is None  # the table still sees a face-down card
    assert state.known[0][5] == 1 << 0


def test_rule_11_2_a_peek_looks_at_one_of_the_players_own_face_down_cards() -> None:
    state = dealt(PEEKING, 3)
    refused(PEEKING, state, gr.Peek(0, 0), "slot-face-up", "11.2")
    refused(PEEKING, state, gr.Peek(0, 9), "bad-slot", "11.2")
    refused(PEEKING, state, gr.Peek(0, -1), "bad-slot", "11.2")
    error = refused(PEEKING, state, gr.Peek(0, 4, 1), "bad-slot", "11.2")
    assert "seat 1" in error.message
    refused(PEEKING, state, gr.Peek(0, 4, 7), "bad-slot", "11.2")
    refused(PEEKING, state, gr.Peek(1, 4), "not-your-turn", "11.2")
    refused(PEEKING, state, gr.Draw(0), "wrong-phase", "11.2")
    refused(PEEKING, state, gr.Reveal(0, 4), "wrong-phase", "11.2")
    # Naming oneself as the target is the same peek.
    assert gr.Peek(0, 4, 0) == gr.Peek(0, 4)
    assert accepted(PEEKING, state, gr.Peek(0, 4, 0)) == gr.apply(PEEKING, state, gr.Peek(0, 4))


def test_rule_11_2_without_setup_reveals_the_peeks_follow_the_deal() -> None:
    rules = rules_with(layout={"face_up_at_start": 0, "peek_at_start": 2})
    state = dealt(rules, 3)
    assert state.phase is gr.Phase.PEEK and state.actor == 0
    assert offered(rules, state) == {gr.Peek(0, slot) for slot in range(9)}
    state = peek_all(rules, state)
    assert state.phase is gr.Phase.DRAW and state.actor == 0
    assert [knowers(state, seat, 0) for seat in range(3)] == [{0}, {1}, {2}]


def test_rule_11_2_without_peek_at_start_nobody_peeks() -> None:
    state = start_game(STANDARD, 3)
    assert state.phase is gr.Phase.DRAW and state.known == ()
    refused(STANDARD, state, gr.Peek(0, 4), "wrong-phase", "4.1")
    refused(STANDARD, state, gr.Peek(1, 4), "not-your-turn", "2.1")
    state = play(STANDARD, state, gr.Draw(0))
    refused(STANDARD, state, gr.Peek(0, 4), "wrong-phase", "4.2")


def test_rule_11_2_reveals_and_peeks_together_must_fit_the_layout() -> None:
    with pytest.raises(gr.RulesetError, match=r"layout\.peek_at_start"):
        rules_with(layout={"peek_at_start": 8})  # 2 reveals + 8 peeks > 9 slots
    rules = rules_with(layout={"peek_at_start": 7})  # exactly the 9 slots
    state = peek_all(rules, dealt(rules, 3))
    assert all(knowers(state, seat, slot) for seat in range(3) for slot in range(9))
