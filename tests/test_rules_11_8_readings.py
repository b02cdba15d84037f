"""RULES.md 11.7 and 11.8: the readings of §11 where a table could differ (scoring
patterns, 11.6 and its reading, are tests/test_rules_11_6_*)."""

from __future__ import annotations

from builders import M, arranged_deal, chain_layout, go_out, play, reveal_all
from referee_checks import accepted, offered, refused
from rules_11_kit import (
    DOWN,
    DOWN_RULES,
    KNOCK,
    PEEKING,
    POWER_FACES,
    POWERS,
    dealt,
    draw_and_discard,
    knowers,
    peek_all,
    quiet,
    rules_with,
)

import gnoming_rules as gr
from gnoming_rules.core.cards import EMPTY

# --- 11.7 ------------------------------------------------------------------------------------


def test_rule_11_7_a_seat_that_knows_a_card_sees_it_a_spectator_only_face_up_cards() -> None:
    state = accepted(PEEKING, dealt(PEEKING, 3), gr.Peek(0, 6))
    assert state.knows(0, 0, 6) and not state.knows(1, 0, 6) and not state.knows(2, 0, 6)
    assert state.knows(1, 0, 0)  # a face-up card: every seat
    assert state.visible_layout(0)[6] is None and state.visible_layout(0)[0] is not None


def test_rule_11_7_a_knock_is_refused_before_everyone_has_had_a_turn_and_after_a_knock() -> None:
    state = quiet(KNOCK, dealt(KNOCK, 3), 2)
    refused(KNOCK, state, gr.Knock(2), "wrong-phase", "11.5")
    state = accepted(KNOCK, quiet(KNOCK, state), gr.Knock(0))
    refused(KNOCK, state, gr.Knock(1), "wrong-phase", "11.5")
    state = quiet(KNOCK, state)  # seat 1 has had its last turn
    refused(KNOCK, state, gr.Draw(1), "not-your-turn", "2.1")


def test_rule_11_7_look_and_swap_is_two_moves_by_the_same_player() -> None:
    state = draw_and_discard(POWERS, dealt(POWERS, 3, draw=[10]))
    looked = accepted(POWERS, state, gr.Peek(0, 3, 2))
    assert looked.phase is gr.Phase.POWER and looked.actor == 0
    refused(POWERS, looked, gr.Swap(1, 3, 2, 3), "not-your-turn", "2.1")
    refused(POWERS, looked, gr.Pass(2), "not-your-turn", "2.1")
    refused(POWERS, looked, gr.Draw(1), "not-your-turn", "2.1")
    assert accepted(POWERS, looked, gr.Swap(0, 3, 2, 3)).actor == 1


def test_rule_11_7_a_power_that_cannot_be_used_is_skipped_and_the_turn_ends() -> None:
    rules = rules_with(layout={"face_up_at_start": 9}, powers={7: "peek_own", 8: "peek_other"})
    for card in (7, 8):  # no face-down card anywhere: neither power fits
        state = draw_and_discard(rules, dealt(rules, 3, draw=[card]))
        assert state.phase is gr.Phase.DRAW and state.actor == 1 and state.power is None


def test_rule_11_7_under_down_a_card_placed_from_a_discard_pile_is_known_to_every_seat() -> None:
    state = dealt(DOWN, 4, discards=[12, 3])
    state = play(DOWN, state, gr.Draw(0, 0))
    state = accepted(DOWN, state, gr.Place(0, 2))
    assert knowers(state, 0, 2) == {0, 1, 2, 3} and not state.is_face_up(0, 2)


# --- 11.8 ------------------------------------------------------------------------------------


def test_rule_11_8_order_setup_peeks_follow_the_reveals_from_the_rounds_first_player() -> None:
    rules = rules_with(layout={"peek_at_start": 2}, round_end={"knock": True})
    state = dealt(rules, 3)
    assert state.phase is gr.Phase.PEEK and all(state.face_up[s] == 0b11 for s in range(3))
    state = quiet(rules, peek_all(rules, state), 3)
    state = quiet(rules, accepted(rules, state, gr.Knock(0)), 2)
    assert state.round == 1 and state.phase is gr.Phase.DEAL
    # Round 1 starts at seat 1 (rule 2.2): its reveals, then its peeks, all in a row.
    state = play(rules, state, arranged_deal(rules, 3))
    assert state.phase is gr.Phase.REVEAL and state.actor == 1
    state = reveal_all(rules, state)
    assert state.phase is gr.Phase.PEEK and state.actor == 1
    state = play(rules, state, gr.Peek(1, 2), gr.Peek(1, 3))
    assert state.actor == 2 and state.known[1][2] == state.known[1][3] == 1 << 1
    state = peek_all(rules, state)
    assert state.phase is gr.Phase.DRAW and state.actor == 1


def test_rule_11_8_order_peeking_again_at_a_known_card_is_allowed() -> None:
    state = accepted(PEEKING, dealt(PEEKING, 3), gr.Peek(0, 4))
    assert gr.Peek(0, 4) in offered(PEEKING, state)
    state = accepted(PEEKING, state, gr.Peek(0, 4))
    assert state.actor == 1 and knowers(state, 0, 4) == {0}


def test_rule_11_8_targets_a_peek_at_a_face_up_card_is_slot_face_up_else_bad_slot() -> None:
    state = draw_and_discard(POWERS, dealt(POWERS, 3, draw=[8]))  # peek_other
    refused(POWERS, state, gr.Peek(0, 1, 2), "slot-face-up", "11.4")
    refused(POWERS, state, gr.Peek(0, 3), "bad-slot", "11.4")  # oneself for peek_other
    refused(POWERS, state, gr.Peek(0, 9, 2), "bad-slot", "11.4")
    state = draw_and_discard(POWERS, dealt(POWERS, 3, draw=[10]))  # look_and_swap
    looked = accepted(POWERS, state, gr.Peek(0, 1, 2))  # any card, face up too
    assert looked.looked == (2, 1)
    state = draw_and_discard(POWERS, dealt(POWERS, 3, draw=[9]))  # swap_blind
    swapped = accepted(POWERS, state, gr.Swap(0, 0, 2, 1))  # two face-up cards
    assert swapped.is_face_up(0, 0) and swapped.is_face_up(2, 1)


def test_rule_11_8_declining_pass_answers_only_a_power_offered_now() -> None:
    state = dealt(POWERS, 3, draw=[7])
    refused(POWERS, state, gr.Pass(0), "wrong-phase", "4.1")
    refused(PEEKING, dealt(PEEKING, 3), gr.Pass(0), "wrong-phase", "11.2")
    held = play(POWERS, state, gr.Draw(0))
    refused(POWERS, held, gr.Pass(0), "wrong-phase", "4.2")


def test_rule_11_8_declining_not_swapping_after_the_look_stays_allowed() -> None:
    rules = rules_with(powers=POWER_FACES, powers_optional=False)
    state = draw_and_discard(rules, dealt(rules, 3, draw=[10]))
    refused(rules, state, gr.Pass(0), "wrong-phase", "11.4")
    looked = accepted(rules, state, gr.Peek(0, 4, 1))
    assert gr.Pass(0) in offered(rules, looked)
    assert accepted(rules, looked, gr.Pass(0)).actor == 1


def test_rule_11_8_powers_and_10_7_a_swap_that_leaves_the_layout_all_face_up_goes_out() -> None:
    rules = rules_with(
        layout={"face_up_at_start": 8},
        powers={9: "swap_blind"},
        turn={"flip_after_deck_discard": "must"},
    )
    state = draw_and_discard(rules, dealt(rules, 3, draw=[9]))
    state = accepted(rules, state, gr.Swap(0, 8, 1, 0))  # seat 0's last face-down card out
    assert state.face_up[0] == (1 << 9) - 1 and not state.is_face_up(1, 0)
    # No face-down card left: no flip of 10.7 is owed, the turn ends and seat 0 goes out.
    assert state.phase is gr.Phase.DRAW and state.went_out == 0 and state.actor == 1


def test_rule_11_8_swaps_keep_face_up_state_and_knowers_and_mulligans_may_pass_the_limit() -> None:
    layouts = {0: [M, 1, 2, 3, 4, 5, 6, 11, 12], 1: [M, 1, 2, 3, 4, 5, 6, 11, 12]}
    state = draw_and_discard(POWERS, dealt(POWERS, 3, layouts=layouts, draw=[9]))
    state = accepted(POWERS, state, gr.Swap(0, 4, 1, 0))
    assert state.cards[0][0] == state.cards[0][4] == M
    assert state.is_face_up(0, 0) and state.is_face_up(0, 4)  # two face-up mulligans, limit 1
    assert not state.is_face_up(1, 0) and state.cards[1][0] == 4


def test_rule_11_8_swaps_under_10_6_the_swappers_lines_leave_first() -> None:
    rules = rules_with(
        layout={"face_up_at_start": 3}, sets={"score": "remove"}, powers={9: "swap_blind"}
    )
    layouts = {0: [5, 5, 6, 1, 2, 3, 4, 7, 8], 1: [5, 6, 6, 1, 2, 3, 4, 7, 8]}
    state = draw_and_discard(rules, dealt(rules, 3, layouts=layouts, draw=[9]))
    pile = state.discard_piles[0]
    state = accepted(rules, state, gr.Swap(0, 2, 1, 0))
    assert state.discard_piles[0] == (*pile, 5, 5, 5, 6, 6, 6)
    assert state.cards[0][:3] == state.cards[1][:3] == (EMPTY,) * 3


def test_rule_11_8_knocking_flips_owed_to_the_knocker_in_the_lap_are_still_made() -> None:
    state = dealt(KNOCK, 3, draw=[None, None, None, gr.HAZARD])
    state = accepted(KNOCK, quiet(KNOCK, state, 3), gr.Knock(0))
    state = play(KNOCK, state, gr.Draw(1), gr.Discard(1))
    assert state.flips_owed == (2, 0)
    state = accepted(KNOCK, state, gr.Flip(2, 5))
    state = accepted(KNOCK, state, gr.Flip(0, 5))
    assert state.actor == 2 and state.phase is gr.Phase.DRAW


def test_rule_11_8_knocking_the_knocker_stays_the_player_who_went_out() -> None:
    state = dealt(KNOCK, 3, layouts={1: chain_layout(1, 2, 5, 3)}, draw=[None, None, None, 5])
    state = accepted(KNOCK, quiet(KNOCK, state, 3), gr.Knock(0))
    state = go_out(KNOCK, state)  # seat 1 turns its last card up in the lap
    assert state.face_up[1] == (1 << 9) - 1 and state.went_out == 0
    state = quiet(KNOCK, state)
    assert state.round == 1 and state.went_out == 0


def test_rule_11_8_under_down_the_displaced_card_is_turned_up_and_held() -> None:
    state = dealt(DOWN, 3, layouts={0: [1, 2, 3, 4, 5, 6, 7, 8, 9]}, draw=[12])
    state = play(DOWN, state, gr.Draw(0))
    state = accepted(DOWN, state, gr.Place(0, 3))
    assert state.held == 4 and state.phase is gr.Phase.BOUNCE
    refused(DOWN, state, gr.Bounce(0, 5), "cannot-bounce", "5.3")


def test_reading_11_3_a_mulligan_placed_face_down_is_not_limited_by_7_2() -> None:
    state = dealt(DOWN, 3, layouts={0: [M, 1, 2, 3, 4, 5, 6, 7, 8]}, draw=[M])
    state = play(DOWN, state, gr.Draw(0))
    assert gr.Place(0, 4) in offered(DOWN, state)  # under up: mulligan-limit (7.2)
    state = accepted(DOWN, state, gr.Place(0, 4))
    assert state.cards[0][4] == M and not state.is_face_up(0, 4)


def test_rule_11_8_loading_the_limit_of_11_2_applies_only_with_peeks() -> None:
    assert rules_with(layout={"face_up_at_start": 9}).compiled.peek_at_start == 0
    assert rules_with(**DOWN_RULES, layout={"face_up_at_start": 9}).compiled.knowledge
