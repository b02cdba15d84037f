"""RULES.md §5: bounce chains, and the bounce toggle."""

from __future__ import annotations

from builders import STANDARD, H, M, Slots, play, start_game, variant
from referee_checks import accepted, bounces, discards, offered, refused

import gnoming_rules as gr

# Seat 0 reveals the 5 and the 6; face down: a 6, a 5, an 8, -2, M, H and another 8.
SEAT_0: Slots = [5, 6, 6, 5, 8, -2, M, H, 8]


def _holding(draw: gr.Face, slot: int, ruleset: gr.Ruleset = STANDARD) -> gr.State:
    """Seat 0 drew ``draw`` and played it into ``slot``: it now holds the displaced card."""
    state = start_game(ruleset, 3, layouts={0: SEAT_0}, draw=[draw])
    return play(ruleset, state, gr.Draw(0), gr.Place(0, slot))


def test_rule_5_1_a_chain_starts_only_when_the_play_displaced_a_face_down_card() -> None:
    over_face_up = _holding(5, 0)  # the revealed 5 is displaced by another 5
    assert over_face_up.held == 5 and over_face_up.cards[0][0] == 5
    error = refused(STANDARD, over_face_up, gr.Bounce(0, 3), "cannot-bounce", "5.1")
    assert "face-down" in error.message
    assert offered(STANDARD, over_face_up) == discards(0, 0, 1)

    over_face_down = _holding(5, 3)  # the hidden 5 is displaced by another 5
    assert over_face_down.held == 5
    assert offered(STANDARD, over_face_down) == bounces(0, set(range(9)) - {3}) | discards(0, 0, 1)


def test_rule_5_1_a_bounce_before_any_play_of_the_turn_is_the_wrong_phase() -> None:
    """A drawn card that could bounce (a 5 with face-up 5s in the layout) has no chain to
    go on with until a play starts one: a bounce straight after the draw is refused."""
    state = play(STANDARD, start_game(STANDARD, 3, layouts={0: SEAT_0}, draw=[5]), gr.Draw(0))
    assert state.held == 5 and state.phase is gr.Phase.PLACE
    refused(STANDARD, state, gr.Bounce(0, 3), "wrong-phase", "4.2")
    assert not any(isinstance(move, gr.Bounce) for move in offered(STANDARD, state))


def test_rule_5_1_once_started_the_chain_goes_on_over_face_up_cards() -> None:
    state = _holding(3, 2)
    assert state.held == 6
    state = accepted(STANDARD, state, gr.Bounce(0, 1))  # displaces the face-up 6
    assert state.held == 6 and state.cards[0][1] == 6
    state = accepted(STANDARD, state, gr.Bounce(0, 3))  # displaces the hidden 5
    assert state.held == 5
    state = accepted(STANDARD, state, gr.Bounce(0, 0))  # displaces the face-up 5
    assert state.held == 5
    assert gr.Bounce(0, 4) in offered(STANDARD, state)


def test_rule_5_2_a_positive_card_bounces_when_a_face_up_twin_is_in_the_layout() -> None:
    state = _holding(3, 2)
    assert state.held == 6  # the revealed 6 in slot 1 is its twin
    assert bounces(0, {0, 1, 3, 4, 5, 6, 7, 8}) <= offered(STANDARD, state)


def test_rule_5_2_the_card_that_just_displaced_it_counts() -> None:
    state = _holding(8, 4)  # no 8 is face up, but the 8 just played is
    assert state.held == 8
    after = accepted(STANDARD, state, gr.Bounce(0, 8))
    assert after.held == 8 and after.cards[0][4] == 8 and after.cards[0][8] == 8


def test_rule_5_2_no_face_up_twin_no_bounce() -> None:
    state = _holding(3, 4)  # holds an 8; the other 8 (slot 8) is face down: it does not count
    assert state.held == 8
    error = refused(STANDARD, state, gr.Bounce(0, 8), "cannot-bounce", "5.2")
    assert "8" in error.message
    assert offered(STANDARD, state) == discards(0, 0, 1)


def test_rule_5_3_bounce_into_a_slot_not_yet_filled_this_turn() -> None:
    state = _holding(3, 2)
    refused(STANDARD, state, gr.Bounce(0, 2), "slot-already-filled", "5.3")
    refused(STANDARD, state, gr.Bounce(0, 9), "bad-slot", "5.3")
    state = accepted(STANDARD, state, gr.Bounce(0, 1))
    for filled in (1, 2):
        refused(STANDARD, state, gr.Bounce(0, filled), "slot-already-filled", "5.3")
    assert offered(STANDARD, state) == bounces(0, {0, 3, 4, 5, 6, 7, 8}) | discards(0, 0, 1)


def test_rule_5_3_the_displaced_card_is_turned_up_held_and_checked_again() -> None:
    state = _holding(3, 2)
    state = accepted(STANDARD, state, gr.Bounce(0, 4))  # the hidden 8 comes out
    assert state.is_face_up(0, 4) and state.cards[0][4] == 6
    assert state.held == 8
    refused(STANDARD, state, gr.Bounce(0, 8), "cannot-bounce", "5.2")


def test_rule_5_3_bouncing_is_never_compulsory() -> None:
    state = _holding(3, 3)
    assert state.held == 5 and gr.Bounce(0, 4) in offered(STANDARD, state)
    done = accepted(STANDARD, state, gr.Discard(0, 1))
    assert done.actor == 1 and done.discard_piles[1][-1] == 5


def test_toggle_bounce_false_forbids_every_bounce() -> None:
    no_bounce = variant(bounce=False)
    state = _holding(3, 3, no_bounce)
    assert state.held == 5
    refused(no_bounce, state, gr.Bounce(0, 4), "cannot-bounce", "5.3")
    assert offered(no_bounce, state) == discards(0, 0, 1)
    accepted(STANDARD, _holding(3, 3), gr.Bounce(0, 4))


# Seat 0 reveals a -2 and a mulligan; face down: -2, M, H, 1, 3, 4, 6.
NEGATIVES: Slots = [-2, M, -2, M, H, 1, 3, 4, 6]


def _holding_negatives(slot: int) -> gr.State:
    state = start_game(STANDARD, 3, layouts={0: NEGATIVES}, draw=[7])
    return play(STANDARD, state, gr.Draw(0), gr.Place(0, slot))


def test_rule_5_4_negative_cards_mulligans_and_hazards_never_bounce() -> None:
    for slot, held in ((2, -2), (3, M), (4, H)):
        state = _holding_negatives(slot)
        assert state.held == held  # each has a face-up twin, or is a hazard
        refused(STANDARD, state, gr.Bounce(0, 6), "cannot-bounce", "5.4")
        assert not any(isinstance(m, gr.Bounce) for m in offered(STANDARD, state))


def test_rule_5_4_mulligans_are_not_wild_for_bouncing() -> None:
    state = _holding_negatives(5)
    assert state.held == 1 and state.visible_layout(0)[1] == M
    refused(STANDARD, state, gr.Bounce(0, 6), "cannot-bounce", "5.2")
