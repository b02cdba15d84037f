"""RULES.md 11.4: card powers (``powers``, ``powers_optional``)."""

from __future__ import annotations

import pytest
from builders import play
from referee_checks import accepted, offered, refused
from rules_11_kit import POWER_FACES, POWERS, dealt, draw_and_discard, knowers, rules_with

import gnoming_rules as gr
from gnoming_rules.formats import state_from_dict, state_to_dict
from gnoming_rules.play import observe
from gnoming_rules.play.observation_json import observation_from_dict, observation_to_dict

SEAT_0 = [1, 2, 3, 4, 5, 6, 11, 12, -1]
SEAT_1 = [-2, -3, 1, 2, 3, 4, 5, 6, 11]


def _power(card: int, ruleset: gr.Ruleset = POWERS) -> gr.State:
    """Seat 0 has drawn ``card`` from the draw pile and discarded it unplayed."""
    state = dealt(ruleset, 3, layouts={0: SEAT_0, 1: SEAT_1}, draw=[card])
    return draw_and_discard(ruleset, state)


def test_rule_11_4_a_card_drawn_and_discarded_unplayed_offers_its_power() -> None:
    state = _power(7)
    assert state.phase is gr.Phase.POWER and state.power == "peek_own" and state.actor == 0
    assert state.held is None and state.discard_piles[0][-1] == 7
    assert state.waiting == "seat 0 must use the discarded card's power or pass"
    refused(POWERS, state, gr.Draw(1), "not-your-turn", "2.1")
    refused(POWERS, state, gr.Pass(1), "not-your-turn", "2.1")
    refused(POWERS, state, gr.Draw(0), "wrong-phase", "11.4")


def test_rule_11_4_peek_own_looks_at_one_of_your_own_face_down_cards() -> None:
    state = _power(7)
    assert offered(POWERS, state) == {gr.Peek(0, s) for s in range(2, 9)} | {gr.Pass(0)}
    refused(POWERS, state, gr.Peek(0, 1), "slot-face-up", "11.4")
    refused(POWERS, state, gr.Peek(0, 9), "bad-slot", "11.4")
    refused(POWERS, state, gr.Peek(0, 4, 1), "bad-slot", "11.4")
    refused(POWERS, state, gr.Swap(0, 2, 1, 2), "wrong-phase", "11.4")
    after = accepted(POWERS, state, gr.Peek(0, 4))
    assert knowers(after, 0, 4) == {0} and not after.is_face_up(0, 4)
    assert after.phase is gr.Phase.DRAW and after.actor == 1 and after.power is None


def test_rule_11_4_peek_other_looks_at_a_face_down_card_of_another_player() -> None:
    state = _power(8)
    assert state.power == "peek_other"
    expected = {gr.Peek(0, s, t) for t in (1, 2) for s in range(2, 9)} | {gr.Pass(0)}
    assert offered(POWERS, state) == expected
    refused(POWERS, state, gr.Peek(0, 4), "bad-slot", "11.4")
    refused(POWERS, state, gr.Peek(0, 0, 1), "slot-face-up", "11.4")
    refused(POWERS, state, gr.Peek(0, 4, 3), "bad-slot", "11.4")
    after = accepted(POWERS, state, gr.Peek(0, 4, 1))
    assert knowers(after, 1, 4) == {0}
    assert after.phase is gr.Phase.DRAW and after.actor == 1


def test_rule_11_4_swap_blind_exchanges_two_cards_neither_turned_up_nor_looked_at() -> None:
    state = _power(9)
    assert state.power == "swap_blind"
    moves = offered(POWERS, state)
    assert len(moves) == 9 * 2 * 9 + 1 and gr.Swap(0, 0, 2, 8) in moves and gr.Pass(0) in moves
    refused(POWERS, state, gr.Swap(0, 0, 0, 4), "bad-slot", "11.4")
    refused(POWERS, state, gr.Swap(0, 9, 1, 4), "bad-slot", "11.4")
    refused(POWERS, state, gr.Swap(0, 0, 1, 9), "bad-slot", "11.4")
    refused(POWERS, state, gr.Swap(0, 0, 3, 4), "bad-slot", "11.4")
    refused(POWERS, state, gr.Peek(0, 4), "wrong-phase", "11.4")
    # Seat 0's face-up 1 (slot 0) for seat 1's face-down 3 (slot 4).
    after = accepted(POWERS, state, gr.Swap(0, 0, 1, 4))
    assert after.cards[0][0] == 3 and after.cards[1][4] == 1
    assert not after.is_face_up(0, 0) and after.is_face_up(1, 4)  # each keeps its side
    assert knowers(after, 0, 0) == set()  # nobody looked at the 3
    assert after.phase is gr.Phase.DRAW and after.actor == 1


def test_rule_11_4_look_and_swap_looks_at_a_card_then_swaps_it_or_not() -> None:
    state = _power(10)
    assert state.power == "look_and_swap"
    looks = {gr.Peek(0, s, t) for t in (1, 2) for s in range(9)} | {gr.Pass(0)}
    assert offered(POWERS, state) == looks  # face-up cards too
    looked = accepted(POWERS, state, gr.Peek(0, 5, 1))
    assert looked.phase is gr.Phase.POWER and looked.actor == 0
    assert (looked.power, looked.looked) == ("swap", (1, 5))
    assert knowers(looked, 1, 5) == {0}
    assert offered(POWERS, looked) == {gr.Swap(0, s, 1, 5) for s in range(9)} | {gr.Pass(0)}
    refused(POWERS, looked, gr.Swap(0, 2, 1, 6), "bad-slot", "11.4")
    refused(POWERS, looked, gr.Peek(0, 6, 1), "wrong-phase", "11.4")
    swapped = accepted(POWERS, looked, gr.Swap(0, 2, 1, 5))
    assert swapped.cards[0][2] == 4 and swapped.cards[1][5] == 3
    assert knowers(swapped, 0, 2) == {0}  # the looked-at 4 is known where it went
    assert swapped.phase is gr.Phase.DRAW and swapped.actor == 1
    kept = accepted(POWERS, looked, gr.Pass(0))
    assert kept.cards == looked.cards and knowers(kept, 1, 5) == {0}


def test_rule_11_4_a_power_may_be_declined_with_pass() -> None:
    state = _power(7)
    after = accepted(POWERS, state, gr.Pass(0))
    assert after.phase is gr.Phase.DRAW and after.actor == 1
    assert after.known == state.known


def test_rule_11_4_with_powers_optional_false_the_power_must_be_used() -> None:
    rules = rules_with(powers=POWER_FACES, powers_optional=False)
    state = _power(7, rules)
    assert offered(rules, state) == {gr.Peek(0, s) for s in range(2, 9)}
    refused(rules, state, gr.Pass(0), "wrong-phase", "11.4")


def test_rule_11_4_a_card_taken_from_a_discard_pile_has_no_power() -> None:
    rules = rules_with(powers=POWER_FACES, discard={"taken_must_be_played": False})
    state = dealt(rules, 3, discards=[7, 3])
    state = play(rules, state, gr.Draw(0, 0))
    state = accepted(rules, state, gr.Discard(0, 0))
    assert state.phase is gr.Phase.DRAW and state.actor == 1 and state.power is None


def test_rule_11_4_a_card_displaced_from_the_layout_has_no_power() -> None:
    state = dealt(POWERS, 3, layouts={0: [1, 2, 3, 4, 7, 5, 6, 11, 12]}, draw=[12])
    state = play(POWERS, state, gr.Draw(0), gr.Place(0, 4))
    assert state.held == 7
    state = accepted(POWERS, state, gr.Discard(0, 0))
    assert state.phase is gr.Phase.DRAW and state.actor == 1


def test_rule_11_4_the_power_comes_before_the_flip_of_10_7_and_ends_the_turn() -> None:
    rules = rules_with(powers=POWER_FACES, turn={"flip_after_deck_discard": "must"})
    state = _power(7, rules)
    assert state.phase is gr.Phase.POWER
    state = accepted(rules, state, gr.Peek(0, 4))
    assert state.phase is gr.Phase.FLIP and state.flips_owed == (0,)
    state = accepted(rules, state, gr.Flip(0, 4))
    assert state.phase is gr.Phase.DRAW and state.actor == 1


def test_rule_11_4_hazards_and_mulligans_cannot_carry_powers() -> None:
    for face in ("H", "M"):
        with pytest.raises(gr.RulesetError, match="powers"):
            rules_with(powers={face: "peek_own"})
    with pytest.raises(gr.RulesetError, match="powers"):
        rules_with(powers={13: "peek_own"})  # not a face of the deck


def test_rule_11_4_a_state_between_look_and_swap_s_look_and_its_swap_is_saved_and_read() -> None:
    """Between the look and the swap the state waits on the same power's second move;
    saved and read back (whole, or as the swapper's view) it is the same state."""
    looked = accepted(POWERS, _power(10), gr.Peek(0, 5, 1))
    assert looked.power == "swap"
    assert state_from_dict(state_to_dict(looked), POWERS) == looked
    view = observe(looked, 0)
    assert observation_from_dict(observation_to_dict(view), POWERS) == view
