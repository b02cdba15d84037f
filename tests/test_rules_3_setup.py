"""RULES.md §3: the deal, the discard starters, the draw pile, the setup reveals."""

from __future__ import annotations

import random
from collections import Counter

from builders import STANDARD, H, M, Slots, arranged_deal, deck_of, play, reveal_all, variant
from referee_checks import accepted, offered, refused

import gnoming_rules as gr


def _dealt(discards: Slots | None = None, draw: Slots = ()) -> gr.State:
    """A standard three-player game right after its deal."""
    deal = arranged_deal(STANDARD, 3, discards=discards, draw=draw)
    return accepted(STANDARD, gr.new_game(STANDARD, 3), deal)


def test_rule_3_1_the_deal_is_the_whole_deck_in_shuffled_order() -> None:
    state = gr.new_game(STANDARD, 3)
    assert state.is_chance and gr.legal_moves(STANDARD, state) == ()
    deals = [gr.sample_chance(STANDARD, state, random.Random(seed)) for seed in (1, 2)]
    for deal in deals:
        assert isinstance(deal, gr.Deal)
        assert Counter(deal.cards) == deck_of(STANDARD)
        accepted(STANDARD, state, deal)
    assert deals[0] != deals[1]


def test_rule_3_1_a_deal_that_is_not_the_deck_is_refused() -> None:
    state = gr.new_game(STANDARD, 3)
    cards = arranged_deal(STANDARD, 3).cards
    short = refused(STANDARD, state, gr.Deal(cards[:-1]), "not-the-deck", "3.1")
    assert "110" in short.message and "109" in short.message and "missing" in short.message
    extra = refused(STANDARD, state, gr.Deal((*cards, 7)), "not-the-deck", "3.1")
    assert "not expected 1x 7" in extra.message


def test_rule_3_1_no_move_before_the_deal_and_no_second_deal() -> None:
    state = gr.new_game(STANDARD, 3)
    refused(STANDARD, state, gr.Reveal(0, 0), "wrong-phase", "3.1")
    refused(STANDARD, state, gr.Draw(0), "wrong-phase", "3.1")
    dealt = _dealt()
    refused(STANDARD, dealt, arranged_deal(STANDARD, 3), "wrong-phase", "3.1")


def test_rule_3_2_each_seat_takes_nine_cards_in_order_face_down() -> None:
    deal = arranged_deal(STANDARD, 4, layouts={2: [12, 11, 10, 9, 8, 7, 6, 5, 4]})
    state = accepted(STANDARD, gr.new_game(STANDARD, 4), deal)
    for seat in range(4):
        assert state.cards[seat] == deal.cards[9 * seat : 9 * seat + 9]
        assert state.face_up[seat] == 0
        assert state.visible_layout(seat) == (None,) * 9
        assert state.face_down_count(seat) == 9
    assert state.cards[2] == (12, 11, 10, 9, 8, 7, 6, 5, 4)


def test_rule_3_3_the_next_two_cards_start_the_discard_piles() -> None:
    state = _dealt(discards=[4, -2])
    assert state.discard_piles == ((4,), (-2,))
    assert state.removed == ()


def test_rule_3_3_a_hazard_met_there_is_removed_without_flips() -> None:
    state = _dealt(discards=[H, 4, H, -2], draw=[9])
    assert state.discard_piles == ((4,), (-2,))
    assert state.removed == (H, H)
    assert state.phase is gr.Phase.REVEAL and state.flips_owed == ()
    assert state.draw_pile[0] == 9
    assert len(state.draw_pile) == 110 - 27 - 4


def test_rule_3_4_the_rest_in_order_is_the_draw_pile() -> None:
    deal = arranged_deal(STANDARD, 3, draw=[7, M, -5])
    state = accepted(STANDARD, gr.new_game(STANDARD, 3), deal)
    assert state.draw_pile == deal.cards[29:]
    assert state.draw_pile[:3] == (7, M, -5)
    state = reveal_all(STANDARD, state)
    drawn = accepted(STANDARD, state, gr.Draw(0))
    assert drawn.held == 7
    assert drawn.draw_pile == deal.cards[30:]


def test_rule_3_5_each_player_reveals_two_before_the_next_starting_with_the_first() -> None:
    state = accepted(STANDARD, gr.new_game(STANDARD, 3, first_player=1), arranged_deal(STANDARD, 3))
    assert state.phase is gr.Phase.REVEAL and state.actor == 1
    assert offered(STANDARD, state) == {gr.Reveal(1, slot) for slot in range(9)}
    refused(STANDARD, state, gr.Reveal(0, 0), "not-your-turn", "3.5")
    refused(STANDARD, state, gr.Draw(1), "wrong-phase", "3.5")
    state = accepted(STANDARD, state, gr.Reveal(1, 4))
    # The same player reveals a second card, one of their own face-down ones.
    assert state.actor == 1
    refused(STANDARD, state, gr.Reveal(1, 4), "slot-face-up", "3.5")
    refused(STANDARD, state, gr.Reveal(2, 0), "not-your-turn", "3.5")
    assert offered(STANDARD, state) == {gr.Reveal(1, slot) for slot in range(9) if slot != 4}
    state = accepted(STANDARD, state, gr.Reveal(1, 8))
    assert state.visible_layout(1)[4] == state.cards[1][4]
    assert state.actor == 2
    state = play(STANDARD, state, gr.Reveal(2, 0), gr.Reveal(2, 1), gr.Reveal(0, 3))
    assert state.phase is gr.Phase.REVEAL and state.actor == 0
    state = accepted(STANDARD, state, gr.Reveal(0, 5))
    # Every seat has two cards up; the round's first player takes the first turn.
    assert [state.face_up[seat].bit_count() for seat in range(3)] == [2, 2, 2]
    assert state.phase is gr.Phase.DRAW and state.actor == 1


def test_toggle_face_up_at_start_sets_how_many_cards_are_revealed() -> None:
    none = variant(layout={"face_up_at_start": 0})
    state = accepted(none, gr.new_game(none, 3, first_player=2), arranged_deal(none, 3))
    assert state.phase is gr.Phase.DRAW and state.actor == 2
    assert state.face_up == (0, 0, 0)
    refused(none, state, gr.Reveal(2, 0), "wrong-phase", "4.1")

    three = variant(layout={"face_up_at_start": 3})
    state = accepted(three, gr.new_game(three, 3), arranged_deal(three, 3))
    state = play(three, state, gr.Reveal(0, 0), gr.Reveal(0, 1))
    after_third = accepted(three, state, gr.Reveal(0, 2))
    assert after_third.actor == 1
    assert reveal_all(three, after_third).face_up == (0b111, 0b111, 0b111)

    # Under the standard two, the third reveal belongs to the next seat.
    standard = accepted(STANDARD, gr.new_game(STANDARD, 3), arranged_deal(STANDARD, 3))
    standard = play(STANDARD, standard, gr.Reveal(0, 0), gr.Reveal(0, 1))
    refused(STANDARD, standard, gr.Reveal(0, 2), "not-your-turn", "3.5")
