"""RULES.md §8: going out, the end of a round, scoring, the empty draw pile; their toggles."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from builders import (
    STANDARD,
    H,
    M,
    Slots,
    arranged_deal,
    chain_layout,
    go_out,
    hazard_after_near_outs,
    play,
    quiet_turn,
    quiet_turns,
    start_game,
    three_seat_rules,
    variant,
)
from referee_checks import accepted, discards, offered, refused

import gnoming_rules as gr

# Seat 0 goes out in its first turn: it ends as 1 2 5 / 5 5 5 / 5 5 5, scoring -15 + 3 = -12.
OUT: Slots = chain_layout(1, 2, 5, 3)
OUT_SCORE = -12
HIGH: Slots = [6, 8, 9, 10, 11, 12, 11, 12, 10]  # no set: 89
HIGH_SCORE = 89


def _scores(state: gr.State) -> tuple[int, ...]:
    assert state.phase in (gr.Phase.DEAL, gr.Phase.OVER)
    return state.scores[-1]


# --- 8.1 going out ----------------------------------------------------------------------------


def test_rule_8_1_going_out_gives_each_other_player_exactly_one_more_turn() -> None:
    state = start_game(STANDARD, 4, first_player=2, layouts={2: OUT}, draw=[5])
    state = go_out(STANDARD, state)
    assert state.went_out == 2 and state.face_down_count(2) == 0
    for seat in (3, 0, 1):
        assert state.round == 0 and state.actor == seat
        state = quiet_turn(STANDARD, state)
    assert state.round == 1 and state.phase is gr.Phase.DEAL
    refused(STANDARD, state, gr.Draw(2), "moves-after-end", "8.1")
    refused(STANDARD, state, gr.Draw(3), "moves-after-end", "8.1")


def test_rule_8_1_then_every_face_down_card_is_turned_up_in_place_and_scored() -> None:
    state = start_game(STANDARD, 3, layouts={0: OUT, 2: HIGH}, draw=[5])
    state = quiet_turns(STANDARD, go_out(STANDARD, state), 2)
    assert state.face_up == (0b111111111,) * 3
    assert state.cards[2] == tuple(HIGH)
    assert state.cards[0] == (1, 2, 5, 5, 5, 5, 5, 5, 5)
    scores = _scores(state)
    assert scores[1] == gr.score_layout(STANDARD, state.cards[1])
    assert scores[2] == HIGH_SCORE
    assert scores[0] == OUT_SCORE - 5


def test_rule_8_1_going_out_counts_after_the_flips_the_turn_causes() -> None:
    # The last card displaced by the chain is a hazard: its flips come, then the final lap.
    state = start_game(STANDARD, 3, layouts={0: chain_layout(1, 2, 5, H)}, draw=[5])
    state = play(STANDARD, state, gr.Draw(0), gr.Place(0, 2))
    for slot in range(3, 9):
        state = play(STANDARD, state, gr.Bounce(0, slot))
    state = accepted(STANDARD, state, gr.Discard(0))
    assert state.phase is gr.Phase.FLIP and state.flips_owed == (1, 2)
    assert state.went_out is None
    state = play(STANDARD, state, gr.Flip(1, 4), gr.Flip(2, 4))
    assert state.went_out == 0 and state.actor == 1 and state.round == 0
    state = quiet_turns(STANDARD, state, 2)
    assert state.round == 1


def test_rule_8_1_only_the_first_player_to_go_out_has_gone_out() -> None:
    # Seat 1 also turns everything up in its last turn: -18, lower than seat 0's -12.
    state = start_game(
        STANDARD, 3, layouts={0: OUT, 1: chain_layout(1, 2, 7, 4), 2: HIGH}, draw=[5, 7]
    )
    state = go_out(STANDARD, state)
    state = go_out(STANDARD, state)
    assert state.went_out == 0 and state.face_down_count(1) == 0
    assert state.round == 0 and state.actor == 2
    state = quiet_turn(STANDARD, state)
    # The final lap was not extended; seat 0 was not lowest (+5), seat 1 gets nothing.
    assert _scores(state) == (OUT_SCORE + 5, -18, HIGH_SCORE)


def test_rule_8_1_a_layout_turned_all_up_outside_its_turn_goes_out_at_its_next_turn_end() -> None:
    unspared = variant(hazard={"spare_last_card": False})
    state = hazard_after_near_outs(unspared)
    state = play(unspared, state, gr.Flip(0, 7), gr.Flip(1, 8))
    assert state.face_down_count(1) == 0 and state.went_out is None
    state = quiet_turn(unspared, state)  # seat 0
    assert state.went_out is None and state.actor == 1
    state = quiet_turn(unspared, state)  # seat 1 ends its own turn all face up
    assert state.went_out == 1
    state = quiet_turns(unspared, state, 2)  # seats 2 and 0: the final lap
    assert state.round == 1


# --- 8.2 - 8.5 scoring ------------------------------------------------------------------------


def test_rule_8_2_a_set_is_one_positive_value_with_wild_mulligans() -> None:
    assert gr.score_layout(STANDARD, [4, 4, 4, 1, 2, 3, 6, 7, 8]) == -4 + 27
    assert gr.score_layout(STANDARD, [4, M, 4, 1, 2, 3, 6, 7, 8]) == -4 + 27
    # Not sets: two values, a negative card, a hazard.
    assert gr.score_layout(STANDARD, [4, 4, 3, 1, 2, 6, 7, 8, 9]) == 44
    assert gr.score_layout(STANDARD, [4, 4, -1, 1, 2, 3, 6, 7, 8]) == 34
    assert gr.score_layout(STANDARD, [4, 4, H, 1, 2, 3, 6, 7, 8]) == 45


def test_rule_8_2_a_line_of_equal_negative_cards_is_no_set() -> None:
    row = gr.score_breakdown(STANDARD, [-2, -2, -2, 1, 2, 3, 6, 7, 8])
    column = gr.score_breakdown(STANDARD, [-3, 1, 2, -3, 4, 6, -3, 7, 8])
    with_a_mulligan = gr.score_breakdown(STANDARD, [-2, M, -2, 1, 2, 3, 6, 7, 8])
    assert (row.sets, column.sets, with_a_mulligan.sets) == ((), (), ())
    assert row.total == -6 + 27 and column.total == -9 + 28
    assert with_a_mulligan.total == -4 + 0 + 27


def test_rule_8_2_a_line_needs_at_least_one_positive_card() -> None:
    three = variant(mulligan={"max_face_up": 3})
    breakdown = gr.score_breakdown(three, [M, M, M, 1, 2, 3, 4, 6, 7])
    assert [s.name for s in breakdown.sets] == []
    assert breakdown.total == 1 + 2 + 3 + 4 + 6 + 7


def test_rule_8_2_a_mulligan_may_stand_for_different_values_in_its_row_and_column() -> None:
    breakdown = gr.score_breakdown(STANDARD, [5, 5, M, 1, 2, 7, 3, 4, 7])
    assert [(s.name, s.value) for s in breakdown.sets] == [("row 0", 5), ("column 2", 7)]
    assert breakdown.wild == (2,)
    assert breakdown.total == -5 - 7 + 1 + 2 + 3 + 4


def test_rule_8_2_the_referee_picks_the_wild_mulligans_for_the_lowest_score() -> None:
    # Wild in row 0 gives 12, wild in row 1 gives 21: the referee takes 12.
    breakdown = gr.score_breakdown(STANDARD, [7, 7, M, 4, 4, M, 2, 3, 6])
    assert breakdown.total == 12 and breakdown.wild == (2,)
    assert [(s.name, s.value) for s in breakdown.sets] == [("row 0", 7)]


def test_rule_8_3_a_card_in_no_set_scores_its_value_one_in_two_sets_counts_in_both() -> None:
    assert gr.score_layout(STANDARD, [1, 2, 3, 4, 6, 7, 8, 9, 10]) == 50
    breakdown = gr.score_breakdown(STANDARD, [6, 6, 6, 6, 1, 2, 6, 3, 4])
    assert [s.name for s in breakdown.sets] == ["row 0", "column 0"]
    assert breakdown.total == -6 - 6 + 1 + 2 + 3 + 4
    corner = breakdown.cards[0]
    assert corner.in_set and corner.points == 0 and "row 0 and column 0" in corner.note


def test_rule_8_4_a_negative_card_scores_its_value_and_an_unmatched_mulligan_zero() -> None:
    breakdown = gr.score_breakdown(STANDARD, [M, 1, 2, -3, 4, 6, 7, 8, -5])
    assert breakdown.sets == ()
    points = {c.slot: c.points for c in breakdown.cards}
    assert points[0] == 0 and points[3] == -3 and points[8] == -5
    assert breakdown.total == 1 + 2 - 3 + 4 + 6 + 7 + 8 - 5


def test_toggle_unmatched_mulligan_value_scores_a_mulligan_in_no_set() -> None:
    layout = [M, 1, 2, -3, 4, 6, 7, 8, -5]
    base = gr.score_layout(STANDARD, layout)
    assert gr.score_layout(variant(mulligan={"unmatched_value": 5}), layout) == base + 5
    assert gr.score_layout(variant(mulligan={"unmatched_value": -2}), layout) == base - 2
    # A wild mulligan in a set is not "unmatched".
    in_set = [5, M, 5, 1, 2, 3, 4, 6, 7]
    assert gr.score_layout(variant(mulligan={"unmatched_value": 5}), in_set) == -5 + 23


def test_rule_8_5_a_hazard_in_a_layout_scores_10() -> None:
    breakdown = gr.score_breakdown(STANDARD, [H, 1, 2, 3, 4, 6, 7, 8, 9])
    assert breakdown.cards[0].points == 10
    assert breakdown.total == 10 + 40


def test_toggle_hazard_penalty_sets_what_a_hazard_scores() -> None:
    layout = [H, 1, 2, 3, 4, 6, 7, 8, H]
    assert gr.score_layout(STANDARD, layout) == 20 + 31
    assert gr.score_layout(variant(hazard={"penalty": 25}), layout) == 50 + 31
    assert gr.score_layout(variant(hazard={"penalty": 0}), layout) == 31


# --- 8.6 going-out bonus ------------------------------------------------------------------------

LOWER: list[gr.Face] = [-5, -5, -4, -4, -3, -3, -2, -2, 1]  # -27
EQUAL: list[gr.Face] = [-5, -4, -3, -3, -2, -1, 1, 2, 3]  # -12, as low as seat 0


def _round_with_seat_0_out(ruleset: gr.Ruleset, seat_1: Slots) -> tuple[int, ...]:
    state = start_game(ruleset, 3, layouts={0: OUT, 1: seat_1, 2: HIGH}, draw=[5])
    state = quiet_turns(ruleset, go_out(ruleset, state), 2)
    return _scores(state)


def test_rule_8_6_the_player_out_with_the_lowest_score_gets_minus_5() -> None:
    scores = _round_with_seat_0_out(STANDARD, [1, 2, 3, 4, 6, 7, 8, 9, 10])
    assert scores == (OUT_SCORE - 5, 50, HIGH_SCORE)


def test_rule_8_6_otherwise_plus_5_and_the_others_are_unchanged() -> None:
    assert gr.score_layout(STANDARD, LOWER) == -27
    assert _round_with_seat_0_out(STANDARD, LOWER) == (OUT_SCORE + 5, -27, HIGH_SCORE)


def test_rule_8_6_a_tie_counts_as_lowest() -> None:
    assert gr.score_layout(STANDARD, EQUAL) == OUT_SCORE
    assert _round_with_seat_0_out(STANDARD, EQUAL) == (OUT_SCORE - 5, OUT_SCORE, HIGH_SCORE)


def test_toggle_going_out_ties_count_as_lowest_false() -> None:
    strict = variant(going_out={"ties_count_as_lowest": False})
    assert _round_with_seat_0_out(strict, EQUAL) == (OUT_SCORE + 5, OUT_SCORE, HIGH_SCORE)


def test_toggle_going_out_bonus_and_penalty_values() -> None:
    house = variant(going_out={"bonus": -10, "penalty": 20})
    assert _round_with_seat_0_out(house, EQUAL)[0] == OUT_SCORE - 10
    assert _round_with_seat_0_out(house, LOWER)[0] == OUT_SCORE + 20


# --- 8.7 the empty draw pile ------------------------------------------------------------------

# Seat 2 holds the hazards face down, so the standard draw pile (81 cards) has none.
HAZARDS_AWAY: dict[int, Slots] = {2: [1, 2, 3, 4, 6, H, H, H, 7]}


def _before_the_last_draw(ruleset: gr.Ruleset) -> gr.State:
    state = start_game(ruleset, 3, layouts=HAZARDS_AWAY)
    assert len(state.draw_pile) == 81
    state = quiet_turns(ruleset, state, 80)
    assert len(state.draw_pile) == 1 and len(state.discard_piles[0]) == 81
    return state


def test_rule_8_7_a_draw_that_empties_the_pile_makes_a_reshuffle_due() -> None:
    state = _before_the_last_draw(STANDARD)
    seat = state.turn
    last = state.draw_pile[0]
    refused(STANDARD, state, gr.Reshuffle(()), "wrong-phase", "8.7")
    state = accepted(STANDARD, state, gr.Draw(seat))
    assert state.phase is gr.Phase.RESHUFFLE and state.is_chance
    assert state.held == last and state.draw_pile == () and state.actor is None
    assert gr.legal_moves(STANDARD, state) == ()
    refused(STANDARD, state, gr.Discard(seat, 0), "wrong-phase", "8.7")
    refused(STANDARD, state, gr.Place(seat, 4), "wrong-phase", "8.7")
    below = state.discard_piles[0][:-1] + state.discard_piles[1][:-1]
    assert len(below) == 80
    refused(STANDARD, state, gr.Reshuffle(below[1:]), "bad-reshuffle", "8.7")
    with_a_top = gr.Reshuffle((*below, state.discard_piles[0][-1]))
    refused(STANDARD, state, with_a_top, "bad-reshuffle", "8.7")
    sampled = gr.sample_chance(STANDARD, state, random.Random(4))
    assert isinstance(sampled, gr.Reshuffle) and Counter(sampled.cards) == Counter(below)
    order = tuple(reversed(below))
    tops = (state.discard_piles[0][-1:], state.discard_piles[1][-1:])
    state = accepted(STANDARD, state, gr.Reshuffle(order))
    assert state.draw_pile == order and state.discard_piles == tops
    assert state.phase is gr.Phase.PLACE and state.actor == seat and state.held == last
    # Play goes on with the new draw pile.
    state = play(STANDARD, state, gr.Discard(seat, 1))
    assert accepted(STANDARD, state, gr.Draw(state.turn)).held == order[0]


def _discarding_to(ruleset: gr.Ruleset, state: gr.State, piles: Sequence[int]) -> gr.State:
    """Quiet turns whose discards go to ``piles`` in turn, until the draw empties the pile."""
    for turn in range(200):
        seat = state.turn
        state = play(ruleset, state, gr.Draw(seat))
        if state.is_chance:
            return state
        state = play(ruleset, state, gr.Discard(seat, piles[turn % len(piles)]))
    raise AssertionError("the draw pile never ran out")


@pytest.mark.parametrize("piles", [(1,), (0, 1, 1)], ids=["pile 1 only", "both piles"])
def test_rule_8_7_the_reshuffle_takes_both_piles_except_each_top_card(
    piles: tuple[int, ...],
) -> None:
    state = _discarding_to(STANDARD, start_game(STANDARD, 3, layouts=HAZARDS_AWAY), piles)
    assert state.phase is gr.Phase.RESHUFFLE  # due even when pile 0 holds a single card
    first, second = state.discard_piles
    assert len(second) > 1 and (len(first) > 1) == (0 in piles)
    below = (*first[:-1], *second[:-1])
    refused(STANDARD, state, gr.Reshuffle(first[:-1]), "bad-reshuffle", "8.7")
    state = accepted(STANDARD, state, gr.Reshuffle(below))
    assert state.draw_pile == below
    assert state.discard_piles == (first[-1:], second[-1:])


def test_rule_8_7_with_nothing_to_shuffle_the_draw_pile_stays_empty() -> None:
    rules = three_seat_rules({1: 10, 2: 10, 3: 10})  # 30 cards: one left to draw
    state = start_game(rules, 3)
    assert len(state.draw_pile) == 1
    state = accepted(rules, state, gr.Draw(0))
    assert state.phase is gr.Phase.PLACE and state.draw_pile == ()
    state = play(rules, state, gr.Discard(0, 0))
    for _ in range(6):  # two laps: every turn draws from a discard pile, nothing reshuffles
        seat = state.turn
        assert state.phase is gr.Phase.DRAW and state.draw_pile == ()
        refused(rules, state, gr.Draw(seat), "empty-pile", "4.1")
        assert offered(rules, state) == {gr.Draw(seat, 0), gr.Draw(seat, 1)}
        state = play(rules, state, gr.Draw(seat, 0), gr.Place(seat, 8))
        state = play(rules, state, next(iter(discards(seat, 0) & offered(rules, state))))
    assert state.round == 0 and len(state.discard_piles[0]) == 2


def test_rule_8_7_a_turn_with_nothing_to_draw_anywhere_ends_the_round() -> None:
    # Unreachable in play: a valid deck always leaves two cards outside the layouts that are
    # not hazards, so this state is made with replace. Seat 0 holds the hazard from slot 2.
    state = start_game(STANDARD, 3, layouts={0: [1, 2, H, 3, 4, 6, 7, 8, 9]}, draw=[10])
    state = play(STANDARD, state, gr.Draw(0), gr.Place(0, 2))
    assert state.held == H
    bare = state.replace(draw_pile=(), discard_piles=((), ()))
    bare = play(STANDARD, bare, gr.Discard(0), gr.Flip(1, 5), gr.Flip(2, 5))
    assert bare.round == 1 and bare.phase is gr.Phase.DEAL and bare.went_out is None
    assert bare.scores[0] == tuple(gr.score_layout(STANDARD, layout) for layout in bare.cards)
    # With a card left on a discard pile, the next turn begins instead.
    kept = state.replace(draw_pile=(), discard_piles=((4,), ()))
    kept = play(STANDARD, kept, gr.Discard(0), gr.Flip(1, 5), gr.Flip(2, 5))
    assert kept.round == 0 and kept.phase is gr.Phase.DRAW and kept.actor == 1


def test_toggle_empty_draw_pile_end_round_ends_instead_of_reshuffling() -> None:
    end_round = variant(empty_draw_pile="end_round")
    state = _before_the_last_draw(end_round)
    seat = state.turn
    state = accepted(end_round, state, gr.Draw(seat))
    assert state.phase is gr.Phase.PLACE and state.draw_pile == ()
    state = accepted(end_round, state, gr.Discard(seat, 0))
    assert state.round == 1 and state.phase is gr.Phase.DEAL
    assert len(state.discard_piles[0]) == 82  # cards were there, yet nothing was reshuffled
    assert state.scores[0] == tuple(gr.score_layout(end_round, c) for c in state.cards)
    reshuffling = accepted(STANDARD, _before_the_last_draw(STANDARD), gr.Draw(seat))
    assert reshuffling.phase is gr.Phase.RESHUFFLE


def test_rule_8_7_end_round_still_gives_8_6_to_the_player_already_out() -> None:
    rules = three_seat_rules(
        {5: 7, 1: 5, 2: 5, 3: 5, 4: 4, 6: 4}, empty_draw_pile="end_round"
    )  # 30 cards: the one to draw is seat 0's 5
    state = start_game(rules, 3, layouts={0: OUT}, draw=[5])
    state = go_out(rules, state)
    # Seat 1's turn would begin with an empty draw pile: the round ends at once.
    assert state.round == 1 and state.went_out == 0
    others = [gr.score_layout(rules, state.cards[seat]) for seat in (1, 2)]
    assert min(others) > OUT_SCORE
    assert state.scores[0] == (OUT_SCORE - 5, *others)


def test_rule_8_7_end_round_with_nobody_out_gives_no_bonus() -> None:
    rules = three_seat_rules({1: 10, 2: 10, 3: 9}, empty_draw_pile="end_round")  # 29 cards
    state = play(rules, gr.new_game(rules, 3), arranged_deal(rules, 3))
    reveals = [gr.Reveal(seat, slot) for seat in range(3) for slot in (0, 1)]
    state = play(rules, state, *reveals[:-1])
    assert state.phase is gr.Phase.REVEAL
    state = accepted(rules, state, reveals[-1])
    # The first turn would begin with an empty draw pile: the round is over before it.
    assert state.round == 1 and state.went_out is None
    assert state.scores[0] == tuple(gr.score_layout(rules, c) for c in state.cards)
