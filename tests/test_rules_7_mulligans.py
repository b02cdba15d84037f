"""RULES.md §7: mulligans, the limit on face-up mulligans, and its toggle."""

from __future__ import annotations

from builders import STANDARD, H, M, Slots, play, quiet_turns, start_game, variant
from referee_checks import accepted, discards, offered, places, refused

import gnoming_rules as gr

# Seat 0 reveals a mulligan (slot 0) and a 3; a second mulligan hides in slot 2.
ONE_UP: Slots = [M, 3, M, 4, 6, 7, 8, 9, 10]
# Seat 0 has no mulligan face up; one hides in slot 2.
NONE_UP: Slots = [1, 3, M, 4, 6, 7, 8, 9, 10]


def _holding_mulligan(layout: Slots, ruleset: gr.Ruleset = STANDARD) -> gr.State:
    state = start_game(ruleset, 3, layouts={0: layout}, draw=[M])
    state = play(ruleset, state, gr.Draw(0))
    assert state.held == M
    return state


def test_rule_7_1_a_mulligan_is_wild_in_scoring() -> None:
    assert gr.score_layout(STANDARD, [5, M, 5, 1, 2, 3, 4, 6, 7]) == -5 + 1 + 2 + 3 + 4 + 6 + 7
    assert gr.score_layout(STANDARD, [5, 6, 5, 1, 2, 3, 4, 6, 7]) == 5 + 6 + 5 + 23


def test_rule_7_2_a_play_may_not_raise_face_up_mulligans_above_the_limit() -> None:
    state = _holding_mulligan(ONE_UP)
    error = refused(STANDARD, state, gr.Place(0, 1), "mulligan-limit", "7.2")
    assert "limit is 1" in error.message
    for slot in (3, 4, 8):
        refused(STANDARD, state, gr.Place(0, slot), "mulligan-limit", "7.2")
    assert offered(STANDARD, state) == places(0, [0]) | discards(0, 0, 1)


def test_rule_7_2_onto_ones_own_face_up_mulligan_is_always_allowed() -> None:
    state = accepted(STANDARD, _holding_mulligan(ONE_UP), gr.Place(0, 0))
    assert state.held == M and state.cards[0][0] == M
    assert state.visible_layout(0).count(M) == 1


def test_rule_7_2_onto_a_face_down_mulligan_with_one_face_up_is_refused() -> None:
    # Counted before and after: the hidden M would come up and stay with the new one.
    refused(STANDARD, _holding_mulligan(ONE_UP), gr.Place(0, 2), "mulligan-limit", "7.2")


def test_rule_7_2_without_a_face_up_mulligan_any_slot_is_allowed() -> None:
    state = _holding_mulligan(NONE_UP)
    assert offered(STANDARD, state) == places(0, range(9)) | discards(0, 0, 1)
    # Onto the hidden mulligan: that one leaves the layout, so one stays face up.
    over_hidden = accepted(STANDARD, state, gr.Place(0, 2))
    assert over_hidden.held == M and over_hidden.visible_layout(0).count(M) == 1
    over_number = accepted(STANDARD, state, gr.Place(0, 4))
    assert over_number.held == 6 and over_number.visible_layout(0).count(M) == 1


def test_toggle_mulligan_max_face_up_raises_the_limit() -> None:
    two = variant(mulligan={"max_face_up": 2})
    state = _holding_mulligan(ONE_UP, two)
    assert offered(two, state) == places(0, range(9)) | discards(0, 0, 1)
    second = accepted(two, state, gr.Place(0, 1))
    assert second.visible_layout(0).count(M) == 2
    # Two may be wild in scoring too (the standard limit allows one).
    layout = [5, 5, M, 4, 4, M, 1, 2, 3]
    # Both wild: rows 0 and 1 are sets, and so is column 2 (M, M, 3).
    assert gr.score_layout(two, layout) == -5 - 4 - 3 + 1 + 2
    # One wild (slot 2, making row 0 a set) is the best the standard limit allows.
    assert gr.score_layout(STANDARD, layout) == -5 + 4 + 4 + 0 + 1 + 2 + 3
    assert gr.score_breakdown(two, layout).wild == (2, 5)
    assert len(gr.score_breakdown(STANDARD, layout).wild) == 1


def test_rule_7_3_a_mulligan_turned_up_by_a_reveal_stays() -> None:
    state = start_game(
        STANDARD, 3, layouts={0: [M, M, 3, 4, 6, 7, 8, 9, 10]}, reveals={0: [0, 1]}, draw=[M]
    )
    assert state.visible_layout(0)[:2] == (M, M)
    # Above the limit already: a third may only replace one of them.
    state = play(STANDARD, state, gr.Draw(0))
    assert offered(STANDARD, state) == places(0, [0, 1]) | discards(0, 0, 1)
    refused(STANDARD, state, gr.Place(0, 2), "mulligan-limit", "7.2")
    assert accepted(STANDARD, state, gr.Place(0, 1)).visible_layout(0)[:2] == (M, M)


def test_rule_7_3_a_mulligan_turned_up_by_a_flip_stays() -> None:
    # Seat 0 shows a mulligan and hides another in slot 8; seat 2 discards a hazard.
    layout: Slots = [M, 2, 3, 4, 6, 7, 9, 10, M]
    state = start_game(STANDARD, 3, layouts={0: layout}, draw=[None, None, H])
    state = quiet_turns(STANDARD, state, 2)
    state = play(STANDARD, state, gr.Draw(2), gr.Discard(2))
    assert state.flips_owed == (0, 1)
    state = accepted(STANDARD, state, gr.Flip(0, 8))
    assert state.visible_layout(0).count(M) == 2


def test_rule_7_3_only_the_limits_number_of_mulligans_are_wild() -> None:
    breakdown = gr.score_breakdown(STANDARD, [7, 7, M, 4, 4, M, 2, 3, 6])
    assert breakdown.total == 12
    assert breakdown.wild == (2,)
