"""RULES.md §4: a turn is a draw, an optional play (and bounces), and one discard."""

from __future__ import annotations

from builders import (
    STANDARD,
    H,
    Slots,
    flip_owed,
    play,
    quiet_turn,
    start_game,
    three_seat_rules,
    variant,
)
from referee_checks import accepted, discards, offered, places, refused

import gnoming_rules as gr

# Seat 0 reveals slots 0 and 1 (the 1 and the 2); slot 2 hides a hazard.
SEAT_0: Slots = [1, 2, H, 3, 10, 6, 7, 8, 9]


def _game(draw: Slots = (8,), ruleset: gr.Ruleset = STANDARD) -> gr.State:
    """Three players, seat 0 to draw; discard piles 4 and -2; ``draw`` on top of the pile."""
    return start_game(ruleset, 3, layouts={0: SEAT_0}, discards=[4, -2], draw=draw)


def test_rule_4_1_draw_takes_the_top_of_the_draw_pile() -> None:
    state = _game(draw=[8, 11])
    size = len(state.draw_pile)
    drawn = accepted(STANDARD, state, gr.Draw(0))
    assert drawn.held == 8 and drawn.phase is gr.Phase.PLACE
    assert drawn.draw_pile[0] == 11 and len(drawn.draw_pile) == size - 1
    assert drawn.discard_piles == state.discard_piles


def test_rule_4_1_or_the_top_of_either_discard_pile() -> None:
    state = _game()
    assert offered(STANDARD, state) == {gr.Draw(0), gr.Draw(0, 0), gr.Draw(0, 1)}
    from_first = accepted(STANDARD, state, gr.Draw(0, 0))
    assert from_first.held == 4 and from_first.discard_piles == ((), (-2,))
    from_second = accepted(STANDARD, state, gr.Draw(0, 1))
    assert from_second.held == -2 and from_second.discard_piles == ((4,), ())
    # After seat 0 discards its 8 on pile 0, the 8 is that pile's top.
    state = quiet_turn(STANDARD, state)
    assert state.discard_piles == ((4, 8), (-2,))
    taken = accepted(STANDARD, state, gr.Draw(1, 0))
    assert taken.held == 8 and taken.discard_piles == ((4,), (-2,))


def test_rule_4_1_an_empty_discard_pile_cannot_be_drawn_from() -> None:
    state = _game()
    # Seat 0 empties pile 1, plays the -2 onto its hidden hazard and discards the hazard.
    state = play(STANDARD, state, gr.Draw(0, 1), gr.Place(0, 2), gr.Discard(0))
    state = flip_owed(STANDARD, state)
    assert state.discard_piles == ((4,), ()) and state.actor == 1
    refused(STANDARD, state, gr.Draw(1, 1), "empty-pile", "4.1")
    assert offered(STANDARD, state) == {gr.Draw(1), gr.Draw(1, 0)}


def test_rule_4_1_an_empty_draw_pile_cannot_be_drawn_from() -> None:
    rules = three_seat_rules({1: 10, 2: 10, 3: 9})  # 29 cards: nothing left to draw
    state = start_game(rules, 3)
    assert state.draw_pile == () and state.phase is gr.Phase.DRAW
    refused(rules, state, gr.Draw(0), "empty-pile", "4.1")
    assert offered(rules, state) == {gr.Draw(0, 0), gr.Draw(0, 1)}


def test_rule_4_1_a_pile_is_0_or_1() -> None:
    state = _game()
    refused(STANDARD, state, gr.Draw(0, 2), "wrong-pile", "4.1")
    refused(STANDARD, state, gr.Draw(0, -1), "wrong-pile", "4.1")


def test_rule_4_1_a_turn_begins_with_the_draw() -> None:
    state = _game()
    refused(STANDARD, state, gr.Place(0, 3), "wrong-phase", "4.1")
    refused(STANDARD, state, gr.Discard(0, 0), "wrong-phase", "4.1")
    refused(STANDARD, state, gr.Bounce(0, 3), "wrong-phase", "4.1")


def test_rule_4_2_play_puts_the_held_card_face_up_and_holds_the_displaced_one() -> None:
    state = play(STANDARD, _game(), gr.Draw(0))
    assert offered(STANDARD, state) == places(0, range(9)) | discards(0, 0, 1)
    # Into a face-down slot: the card there is turned up and held.
    played = accepted(STANDARD, state, gr.Place(0, 4))
    assert played.cards[0][4] == 8 and played.is_face_up(0, 4)
    assert played.held == 10 and played.phase is gr.Phase.BOUNCE
    assert played.face_down_count(0) == 6
    # Into a face-up slot: that card is held.
    over_face_up = accepted(STANDARD, state, gr.Place(0, 1))
    assert over_face_up.cards[0][1] == 8 and over_face_up.held == 2
    assert over_face_up.face_down_count(0) == 7


def test_rule_4_2_playing_is_optional_and_happens_once() -> None:
    state = play(STANDARD, _game(), gr.Draw(0))
    discarded = accepted(STANDARD, state, gr.Discard(0, 1))
    assert discarded.discard_piles == ((4,), (-2, 8))
    assert discarded.actor == 1 and discarded.cards == state.cards
    played = accepted(STANDARD, state, gr.Place(0, 4))
    refused(STANDARD, played, gr.Place(0, 5), "wrong-phase", "4.4")
    refused(STANDARD, played, gr.Place(0, 9), "wrong-phase", "4.4")


def test_rule_4_3_bounces_may_follow_the_play_before_the_discard() -> None:
    # Slots 3 and 4 hide a 1 and a 2, twins of the revealed 1 and 2.
    state = start_game(STANDARD, 3, layouts={0: [1, 2, 5, 1, 2, 6, 7, 8, 9]}, draw=[11])
    state = play(STANDARD, state, gr.Draw(0), gr.Place(0, 3))
    assert state.held == 1
    assert gr.Bounce(0, 4) in offered(STANDARD, state)
    assert discards(0, 0, 1) <= offered(STANDARD, state)
    state = accepted(STANDARD, state, gr.Bounce(0, 4))
    assert state.held == 2
    state = accepted(STANDARD, state, gr.Bounce(0, 5))
    assert state.held == 6 and state.cards[0][3:6] == (11, 1, 2)
    state = accepted(STANDARD, state, gr.Discard(0, 0))
    assert state.actor == 1 and state.discard_piles[0][-1] == 6


def test_rule_4_4_the_discard_goes_on_the_pile_of_the_players_choice() -> None:
    state = play(STANDARD, _game(), gr.Draw(0), gr.Place(0, 4))
    assert discards(0, 0, 1) <= offered(STANDARD, state)
    assert accepted(STANDARD, state, gr.Discard(0, 0)).discard_piles == ((4, 10), (-2,))
    assert accepted(STANDARD, state, gr.Discard(0, 1)).discard_piles == ((4,), (-2, 10))


def test_rule_4_4_an_empty_pile_must_take_the_discard() -> None:
    state = play(STANDARD, _game(), gr.Draw(0, 0), gr.Place(0, 4))
    assert state.discard_piles == ((), (-2,)) and state.held == 10
    error = refused(STANDARD, state, gr.Discard(0, 1), "must-use-empty-pile", "4.4")
    assert "pile 0" in error.message
    assert {m for m in offered(STANDARD, state) if isinstance(m, gr.Discard)} == {gr.Discard(0, 0)}
    assert accepted(STANDARD, state, gr.Discard(0, 0)).discard_piles == ((10,), (-2,))


def test_rule_4_4_with_both_piles_empty_either_may_be_used() -> None:
    state = play(STANDARD, _game(), gr.Draw(0, 1), gr.Place(0, 2), gr.Discard(0))
    state = flip_owed(STANDARD, state)
    state = play(STANDARD, state, gr.Draw(1, 0), gr.Place(1, 4))
    assert state.discard_piles == ((), ())
    moves = offered(STANDARD, state)
    assert {m for m in moves if isinstance(m, gr.Discard)} == discards(1, 0, 1)
    held = state.held
    assert accepted(STANDARD, state, gr.Discard(1, 1)).discard_piles == ((), (held,))


def test_rule_4_4_a_hazard_is_removed_from_the_game_instead() -> None:
    state = play(STANDARD, _game(draw=[H]), gr.Draw(0))
    assert state.held == H
    assert discards(0, None) <= offered(STANDARD, state)
    assert not discards(0, 0, 1) & offered(STANDARD, state)
    refused(STANDARD, state, gr.Discard(0, 0), "wrong-pile", "6.1")
    after = accepted(STANDARD, state, gr.Discard(0))
    assert after.removed == (H,) and after.discard_piles == ((4,), (-2,))
    assert after.held is None and after.phase is gr.Phase.FLIP


def test_rule_4_4_a_number_card_must_name_an_existing_pile() -> None:
    state = play(STANDARD, _game(), gr.Draw(0))
    refused(STANDARD, state, gr.Discard(0), "wrong-pile", "4.4")
    refused(STANDARD, state, gr.Discard(0, 2), "wrong-pile", "4.4")


def test_rule_4_5_a_card_taken_from_a_discard_pile_must_be_played() -> None:
    state = play(STANDARD, _game(), gr.Draw(0, 1))
    assert state.taken_from_discard
    for pile in (0, 1):
        error = refused(STANDARD, state, gr.Discard(0, pile), "must-play-taken-card", "4.5")
        assert "-2" in error.message
    assert offered(STANDARD, state) == places(0, range(9))
    played = accepted(STANDARD, state, gr.Place(0, 4))
    # The displaced card may go back on the pile the taken card came from.
    assert accepted(STANDARD, played, gr.Discard(0, 1)).discard_piles == ((4,), (10,))


def test_toggle_taken_must_be_played_false_lets_the_card_go_straight_back() -> None:
    relaxed = variant(discard={"taken_must_be_played": False})
    state = play(relaxed, _game(ruleset=relaxed), gr.Draw(0, 1))
    assert offered(relaxed, state) == places(0, range(9)) | discards(0, 1)
    back = accepted(relaxed, state, gr.Discard(0, 1))
    assert back.discard_piles == ((4,), (-2,)) and back.actor == 1
    assert back.cards == state.cards
    # Rule 4.4 still holds: the emptied pile must take it.
    refused(relaxed, state, gr.Discard(0, 0), "must-use-empty-pile", "4.4")
    standard = play(STANDARD, _game(), gr.Draw(0, 1))
    refused(STANDARD, standard, gr.Discard(0, 1), "must-play-taken-card", "4.5")


def test_rule_4_6_every_turn_ends_with_exactly_one_discard() -> None:
    state = play(STANDARD, _game(), gr.Draw(0))
    refused(STANDARD, state, gr.Draw(0), "wrong-phase", "4.2")
    state = accepted(STANDARD, state, gr.Place(0, 4))
    # Held a displaced card: only a bounce or the discard can follow, never a second draw.
    refused(STANDARD, state, gr.Draw(0), "wrong-phase", "4.4")
    assert all(isinstance(m, gr.Bounce | gr.Discard) for m in offered(STANDARD, state))
    state = accepted(STANDARD, state, gr.Discard(0, 0))
    assert state.phase is gr.Phase.DRAW and state.actor == 1 and state.held is None
    refused(STANDARD, state, gr.Discard(0, 0), "not-your-turn", "2.1")
    refused(STANDARD, state, gr.Discard(1, 0), "wrong-phase", "4.1")
