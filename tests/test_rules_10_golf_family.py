"""RULES.md §10: the Golf family's rule options, one example test per numbered item, each
named after the rule's text (docs/rules.md §10)."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from builders import (
    H,
    arranged_deal,
    deck_patch,
    play,
    quiet_turns,
    reveal_all,
    start_game,
    variant,
)

import gnoming_rules as gr
from gnoming_rules.core.cards import EMPTY
from gnoming_rules.core.rules.round_end import round_scores
from gnoming_rules.formats.record import dump_record, parse_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee import validate_record


def _score(rules: gr.Ruleset, *rows: list[Any]) -> int:
    return gr.score_layout(rules, [card for row in rows for card in row])


def _refusal(**changes: Any) -> str:
    with pytest.raises(gr.RulesetError) as caught:
        variant(**changes)
    assert caught.value.code == "bad-ruleset"
    return caught.value.message


# --- 10.1 face values ------------------------------------------------------------------------


def test_10_1_deck_values_maps_a_face_to_the_points_it_scores() -> None:
    golfish = variant(deck={"values": {2: -2, 12: 0}})
    # 2 scores -2 and 12 scores 0; every other integer face scores itself.
    assert _score(golfish, [2, 12, 3], [4, 6, 7], [8, 9, 10]) == -2 + 0 + 3 + 4 + 6 + 7 + 27


def test_10_1_a_card_is_positive_when_its_value_is_above_0() -> None:
    # A 2 worth -2 is no positive card: a row of 2s is no set (8.2), three -2s score -6.
    rules = variant(deck={"values": {2: -2}})
    assert _score(rules, [2, 2, 2], [4, 6, 7], [8, 9, 10]) == -6 + 44
    # and a held 2 worth -2 cannot bounce (5.2): only positive cards do.
    assert rules.compiled.bounce_keys.get(2) is None
    assert rules.compiled.bounce_keys[5] == 5


# --- 10.2 matching -------------------------------------------------------------------------


def test_10_2_cards_match_when_they_have_the_same_face_by_default() -> None:
    rules = variant(deck={"values": {11: 10, 12: 10}})
    # 11 and 12 both worth 10 do not match by face: no set.
    assert _score(rules, [11, 12, 10], [1, 2, 3], [4, 6, 7]) == 30 + 6 + 17


def test_10_2_under_match_value_cards_with_the_same_value_match() -> None:
    rules = variant(deck={"values": {11: 10, 12: 10}}, sets={"match": "value"})
    assert _score(rules, [11, 12, 10], [1, 2, 3], [4, 6, 7]) == -10 + 6 + 17
    breakdown = gr.score_breakdown(rules, [11, 12, 10, 1, 2, 3, 4, 6, 7])
    assert [(s.name, s.value, s.points) for s in breakdown.sets] == [("row 0", 10, -10)]


def test_10_2_bouncing_uses_the_same_matching() -> None:
    by_value = variant(deck={"values": {11: 10, 12: 10}}, sets={"match": "value"})
    keys = by_value.compiled.bounce_keys
    assert keys[11] == keys[12] == keys[10]
    by_face = variant(deck={"values": {11: 10, 12: 10}})
    assert by_face.compiled.bounce_keys[11] != by_face.compiled.bounce_keys[12]


# --- 10.3 set cards ------------------------------------------------------------------------


def test_10_3_by_default_only_positive_cards_and_wild_mulligans_form_sets() -> None:
    rules = variant(sets={"score": "zero"})
    assert _score(rules, [-2, -2, -2], [1, 3, 4], [6, 7, 8]) == -6 + 29


def test_10_3_under_set_cards_any_a_line_of_matching_non_hazard_cards_is_a_set() -> None:
    rules = variant(sets={"score": "zero", "cards": "any"})
    assert _score(rules, [-2, -2, -2], [1, 3, 4], [6, 7, 8]) == 0 + 29
    # Hazards never match.
    assert _score(rules, ["H", "H", "H"], [1, 3, 4], [6, 7, 8]) == 30 + 29


def test_10_3_any_is_refused_together_with_set_score_minus_value() -> None:
    assert "sets.cards" in _refusal(sets={"cards": "any"})


# --- 10.4 lines ----------------------------------------------------------------------------


def test_10_4_the_lines_that_can_be_sets_are_rows_and_columns_by_default() -> None:
    standard = gr.load_ruleset("standard")
    assert [line.name for line in standard.compiled.lines][-1] == "column 2"
    assert _score(standard, [5, 1, 2], [3, 5, 4], [6, 7, 5]) == 38


def test_10_4_any_non_empty_subset_of_rows_columns_and_diagonals() -> None:
    rules = variant(sets={"lines": ["rows", "columns", "diagonals"]})
    names = [line.name for line in rules.compiled.lines]
    assert names[-2:] == ["diagonal 0", "diagonal 1"]
    assert _score(rules, [5, 1, 2], [3, 5, 4], [6, 7, 5]) == -5 + 23
    assert _score(rules, [1, 2, 5], [3, 5, 4], [5, 6, 7]) == -5 + 23  # the other diagonal
    columns = variant(sets={"lines": ["columns"]})
    assert _score(columns, [5, 5, 5], [1, 2, 3], [4, 6, 7]) == 38  # a row is no set now
    assert _score(columns, [5, 1, 2], [5, 3, 4], [5, 6, 7]) == -5 + 23


def test_10_4_diagonals_only_where_rows_equal_cols() -> None:
    message = _refusal(
        layout={"rows": 2, "cols": 3, "face_up_at_start": 2}, sets={"lines": ["diagonals"]}
    )
    assert "sets.lines" in message and "2x3" in message


def test_10_4_in_a_2_row_layout_a_column_is_a_pair() -> None:
    rules = variant(
        layout={"rows": 2, "cols": 3, "face_up_at_start": 2},
        sets={"lines": ["columns"], "score": "zero"},
    )
    assert gr.score_layout(rules, [7, 1, 2, 7, 3, 4]) == 0 + 10


# --- 10.5 set score ------------------------------------------------------------------------


def test_10_5_minus_value_a_set_scores_minus_v() -> None:
    assert _score(gr.load_ruleset("standard"), [5, 5, 5], [1, 2, 3], [4, 6, 7]) == -5 + 23


def test_10_5_zero_every_card_of_a_set_scores_0_and_a_card_in_two_sets_still_0() -> None:
    rules = variant(sets={"score": "zero"})
    assert _score(rules, [5, 5, 5], [5, 1, 2], [5, 3, 4]) == 10
    breakdown = gr.score_breakdown(rules, [5, 5, 5, 5, 1, 2, 5, 3, 4])
    assert [(s.name, s.points) for s in breakdown.sets] == [("row 0", 0), ("column 0", 0)]
    assert breakdown.total == 10


def test_10_5_zero_a_wild_mulligan_in_a_set_scores_0() -> None:
    rules = variant(sets={"score": "zero"}, mulligan={"max_face_up": 1, "unmatched_value": 3})
    assert _score(rules, [7, 7, "M"], [1, 2, 3], [4, 6, 8]) == 24


# --- 10.11 refusals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"sets": {"cards": "any"}}, "sets.cards"),
        ({"sets": {"lines": ["diagonals"]}, "layout": {"rows": 3, "cols": 4}}, "sets.lines"),
        ({"sets": {"lines": []}}, "sets.lines"),
        ({"sets": {"lines": ["rows", "rows"]}}, "sets.lines"),
        ({"deck": {"values": {77: 1}}}, "deck.values"),
        ({"sets": {"match": "colour"}}, "sets.match"),
    ],
)
def test_10_11_combinations_that_cannot_be_played_are_refused_naming_the_field(
    changes: dict[str, Any], field: str
) -> None:
    assert f": {field}" in _refusal(**changes)


# --- 10.8 game end by score ----------------------------------------------------------------


def _random_game(rules: gr.Ruleset, players: int = 3, seed: int = 4) -> gr.State:
    rng = random.Random(seed)
    state = gr.new_game(rules, players)
    while not state.is_over:
        if state.is_chance:
            move: gr.Move = gr.sample_chance(rules, state, rng)
        else:
            move = rng.choice(gr.legal_moves(rules, state))
        state = gr.apply(rules, state, move)
    return state


@pytest.mark.parametrize("seed", range(4))
def test_10_8_the_game_ends_after_the_first_round_at_whose_end_a_total_is_n_or_more(
    seed: int,
) -> None:
    rules = variant(rounds=6, game={"end_score": 60})
    final = _random_game(rules, seed=seed)
    totals = [0, 0, 0]
    for index, scores in enumerate(final.scores):
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        reached = max(totals) >= 60
        assert reached == (index == len(final.scores) - 1) or len(final.scores) == 6
        if reached:
            break
    assert final.round == len(final.scores) and final.totals == tuple(totals)


def test_10_8_or_after_rounds_rounds_whichever_comes_first() -> None:
    assert len(_random_game(variant(rounds=2, game={"end_score": 10**9})).scores) == 2
    assert len(_random_game(variant(rounds=3, game={"end_score": -(10**9)})).scores) == 1


def test_10_8_a_round_after_the_one_that_ended_the_game_is_moves_after_end() -> None:
    rules = variant(rounds=3, game={"end_score": -(10**9)})
    final = _random_game(rules)
    with pytest.raises(gr.IllegalMove) as caught:
        gr.apply(rules, final, gr.sample_chance(rules, gr.new_game(rules, 3), random.Random(1)))
    assert caught.value.code == "moves-after-end"


# --- 10.9 going out, doubled ---------------------------------------------------------------

_OUT = [1, 2, 3, 4, 6, 7, 8, 9, 10]  # 50, no set
_LOW = [5, 5, 5, 1, 2, 3, 4, 6, 7]  # 18


def test_10_9_the_score_of_the_player_who_went_out_doubles_when_above_0_and_not_lowest() -> None:
    rules = variant(going_out={"double_if_not_lowest": True})
    # seat 0 went out with 50, seat 1 has 18: 2 x 50 + the penalty of 8.6.
    assert round_scores(rules.compiled, [_OUT, _LOW, _OUT], 0) == (105, 18, 50)
    standard = gr.load_ruleset("standard")
    assert round_scores(standard.compiled, [_OUT, _LOW, _OUT], 0) == (55, 18, 50)


def test_10_9_no_doubling_when_lowest_or_not_above_0() -> None:
    rules = variant(going_out={"double_if_not_lowest": True})
    assert round_scores(rules.compiled, [_LOW, _OUT, _OUT], 0) == (18 - 5, 50, 50)
    negative = [-1, -2, -3, -4, -5, -1, -2, -3, -4]
    lower = [-5, -5, -5, -4, -4, -4, -3, -3, -3]
    assert round_scores(rules.compiled, [negative, lower, _OUT], 0) == (-25 + 5, -36, 50)


def test_10_9_lowest_follows_the_tie_toggle_of_8_6() -> None:
    ties_lose = variant(going_out={"double_if_not_lowest": True, "ties_count_as_lowest": False})
    assert round_scores(ties_lose.compiled, [_LOW, _LOW, _OUT], 0) == (36 + 5, 18, 50)
    ties_win = variant(going_out={"double_if_not_lowest": True})
    assert round_scores(ties_win.compiled, [_LOW, _LOW, _OUT], 0) == (18 - 5, 18, 50)


def test_10_8_a_record_with_a_round_after_the_end_is_moves_after_end_at_that_round() -> None:
    rules = variant(rounds=3, game={"end_score": -(10**9)})
    record, final = play_game(rules, players=3, seed=2)
    data = json.loads(dump_record(record))
    assert len(data["rounds"]) == 1 and final.is_over
    assert validate_record(parse_record(json.dumps(data))).valid
    data["rounds"].append(data["rounds"][0])
    verdict = validate_record(parse_record(json.dumps(data)))
    assert verdict.error is not None
    assert (verdict.error.round, verdict.error.move, verdict.error.code) == (
        1,
        None,
        "moves-after-end",
    )
    assert "end score" in verdict.error.message


# --- 10.7 flip after discarding a draw -------------------------------------------------------

_MUST = {"turn": {"flip_after_deck_discard": "must"}}


def test_10_7_a_player_who_discards_the_card_they_drew_from_the_draw_pile_then_flips() -> None:
    rules = variant(**_MUST)
    state = play(rules, start_game(rules, draw=[7]), gr.Draw(0), gr.Discard(0, 0))
    assert state.phase is gr.Phase.FLIP and state.flips_owed == (0,)
    assert gr.legal_moves(rules, state) == tuple(gr.Flip(0, slot) for slot in range(2, 9))
    # a move other than the owed flip by the player who owes it is wrong-phase
    refusal = gr.explain(rules, state, gr.Draw(0))
    assert refusal is not None and refusal.code == "wrong-phase"
    after = play(rules, state, gr.Flip(0, 5))
    assert after.is_face_up(0, 5) and after.phase is gr.Phase.DRAW and after.turn == 1
    standard = gr.load_ruleset("standard")
    plain = play(standard, start_game(standard, draw=[7]), gr.Draw(0), gr.Discard(0, 0))
    assert plain.phase is gr.Phase.DRAW and plain.turn == 1  # default none: no flip


def test_10_7_no_flip_after_a_play_or_for_a_card_taken_from_a_discard_pile() -> None:
    rules = variant(**_MUST, discard={"taken_must_be_played": False})
    played = play(rules, start_game(rules, draw=[7]), gr.Draw(0), gr.Place(0, 4))
    assert play(rules, played, gr.Discard(0, 0)).turn == 1
    taken = play(rules, start_game(rules), gr.Draw(0, 0), gr.Discard(0, 0))
    assert taken.phase is gr.Phase.DRAW and taken.turn == 1


def test_10_7_the_owners_flip_comes_before_the_hazard_flips() -> None:
    rules = variant(**_MUST)
    state = play(rules, start_game(rules, draw=[H]), gr.Draw(0), gr.Discard(0))
    assert state.flips_owed == (0, 1, 2)


def test_10_7_flipping_ones_last_card_is_allowed_and_counts_for_going_out() -> None:
    rules = variant(**_MUST, layout={"rows": 3, "cols": 3, "face_up_at_start": 8})
    state = play(rules, start_game(rules, draw=[7]), gr.Draw(0), gr.Discard(0, 0))
    assert state.flips_owed == (0,)
    after = play(rules, state, gr.Flip(0, 8))
    assert after.went_out == 0 and after.turn == 1


# --- 10.10 first player ----------------------------------------------------------------------


def _round_starters(rules: gr.Ruleset, seed: int, players: int = 4) -> list[tuple[int, int | None]]:
    """(the seat that started each round, who went out in it), from a random game."""
    rng = random.Random(seed)
    state = gr.new_game(rules, players, first_player=2)
    found: list[tuple[int, int | None]] = []
    starter = -1
    while not state.is_over:
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
            if state.phase is gr.Phase.REVEAL:
                starter = state.turn
            continue
        before = state
        state = gr.apply(rules, state, rng.choice(gr.legal_moves(rules, state)))
        if len(state.scores) > len(before.scores):
            found.append((starter, state.went_out))
    return found


@pytest.mark.parametrize("seed", range(3))
def test_10_10_each_later_round_starts_with_the_player_who_went_out_in_the_round_before(
    seed: int,
) -> None:
    rules = variant(first_player="went_out", rounds=4, players={"min": 3, "max": 4})
    rounds = _round_starters(rules, seed)
    assert rounds[0][0] == 2  # round 0: the record's first player
    for (starter, out), (following, _) in itertools.pairwise(rounds):
        assert following == (out if out is not None else (starter + 1) % 4)


def test_10_10_rotate_as_2_2_when_nobody_went_out() -> None:
    # Rounds end with nobody out: the draw pile runs out at once under end_round.
    rules = variant(
        first_player="went_out",
        rounds=3,
        empty_draw_pile="end_round",
        players={"min": 3, "max": 3},
        deck=deck_patch({1: 30}),
    )
    rounds = _round_starters(rules, 1, players=3)
    assert [out for _, out in rounds] == [None, None, None]
    assert [starter for starter, _ in rounds] == [2, 0, 1]


# --- 10.6 removing lines ---------------------------------------------------------------------

_REMOVE = {"sets": {"score": "remove"}}
_GAP = EMPTY


def _remove(**changes: Any) -> gr.Ruleset:
    return variant(**{**_REMOVE, **changes})


def test_10_6_a_reveal_that_leaves_a_line_all_face_up_and_matching_removes_it() -> None:
    rules = _remove(layout={"rows": 3, "cols": 3, "face_up_at_start": 4})
    state = gr.new_game(rules, 3)
    state = play(rules, state, arranged_deal(rules, 3, layouts={0: [5, 5, 5, 1, 2, 3, 4, 6, 7]}))
    pile = state.discard_piles[0]
    state = play(rules, state, gr.Reveal(0, 0), gr.Reveal(0, 1), gr.Reveal(0, 2))
    # the row leaves at once: face up on discard pile 0, slot order, the highest slot on top
    assert state.cards[0][:3] == (_GAP, _GAP, _GAP)
    assert state.discard_piles[0] == (*pile, 5, 5, 5)
    assert state.turn == 0 and state.phase is gr.Phase.REVEAL  # the setup goes on
    # an empty slot cannot be revealed (bad-slot)
    assert gr.Reveal(0, 0) not in gr.legal_moves(rules, state)
    refusal = gr.explain(rules, state, gr.Reveal(0, 0))
    assert refusal is not None and refusal.code == "bad-slot"


def test_10_6_a_play_that_completes_a_line_removes_it_and_the_turn_goes_on() -> None:
    rules = _remove()
    state = start_game(rules, layouts={0: [5, 5, 9, 1, 2, 3, 4, 6, 7]}, draw=[5])
    state = play(rules, state, gr.Draw(0), gr.Place(0, 2))
    assert state.cards[0][:3] == (_GAP, _GAP, _GAP)
    assert state.discard_piles[0][-3:] == (5, 5, 5)
    # the displaced 9 is held: the turn goes on, and the 9 is discarded as usual
    assert state.phase is gr.Phase.BOUNCE and state.held == 9
    after = play(rules, state, gr.Discard(0, 1))
    assert after.turn == 1 and after.discard_piles[1][-1] == 9
    # a later play into an empty slot is bad-slot, and legal_moves offers none
    state = quiet_turns(rules, after, 2)
    state = play(rules, state, gr.Draw(0))
    assert not any(isinstance(m, gr.Place) and m.slot < 3 for m in gr.legal_moves(rules, state))
    refusal = gr.explain(rules, state, gr.Place(0, 1))
    assert refusal is not None and (refusal.code, refusal.rule) == ("bad-slot", "4.2")


def test_10_6_a_bounce_that_completes_a_line_removes_it_and_the_held_card_may_still_bounce() -> (
    None
):
    rules = _remove()
    state = start_game(rules, layouts={0: [7, 7, 6, 1, 7, 3, 4, 6, 8]}, draw=[6])
    state = play(rules, state, gr.Draw(0), gr.Place(0, 4), gr.Bounce(0, 2))
    assert state.cards[0][:3] == (_GAP, _GAP, _GAP)
    assert state.discard_piles[0][-3:] == (7, 7, 7)
    # the 6 displaced from slot 2 is held, and matches the face-up 6 in slot 4
    assert state.held == 6 and state.phase is gr.Phase.BOUNCE
    moves = gr.legal_moves(rules, state)
    assert gr.Bounce(0, 5) in moves and not any(
        isinstance(m, gr.Bounce) and m.slot < 3 for m in moves
    )
    refusal = gr.explain(rules, state, gr.Bounce(0, 0))
    assert refusal is not None and (refusal.code, refusal.rule) == ("bad-slot", "5.3")


def test_10_6_a_flip_that_completes_a_line_removes_it() -> None:
    rules = _remove()
    state = start_game(rules, layouts={1: [4, 4, 4, 1, 2, 3, 5, 6, 7]}, draw=[H])
    state = play(rules, state, gr.Draw(0), gr.Discard(0))
    assert state.flips_owed == (1, 2)
    state = play(rules, state, gr.Flip(1, 2))
    assert state.cards[1][:3] == (_GAP, _GAP, _GAP)
    assert state.discard_piles[0][-3:] == (4, 4, 4)
    assert state.flips_owed == (2,)  # the flips go on
    # an empty slot is neither face up nor face down: it cannot be flipped (bad-slot)
    state = play(rules, state, gr.Flip(2, 2), gr.Draw(1), gr.Discard(1, 0))
    state = play(rules, state, gr.Draw(2), gr.Discard(2, 0))


def test_10_6_lines_completed_at_once_leave_by_lowest_slot_row_first_a_shared_card_once() -> None:
    # 11 and 12 are worth 5 and match 5 by value: the faces tell the order on the pile.
    rules = _remove(
        deck={"values": {11: 5, 12: 5}},
        sets={"match": "value", "score": "remove"},
        layout={"rows": 3, "cols": 3, "face_up_at_start": 4},
    )
    state = start_game(
        rules,
        layouts={0: [1, 5, 12, 12, 2, 3, 5, 4, 6]},
        reveals={0: (1, 2, 3, 6)},
        draw=[11],
    )
    pile = state.discard_piles[0]
    state = play(rules, state, gr.Draw(0), gr.Place(0, 0))
    # row 0 (slots 0, 1, 2) first, then column 0 (slots 3, 6): the 11 in both leaves once
    assert state.discard_piles[0] == (*pile, 11, 5, 12, 12, 5)
    assert [state.cards[0][s] for s in (0, 1, 2, 3, 6)] == [_GAP] * 5
    assert state.held == 1


def test_10_6_mulligans_are_never_wild_for_removal_and_hazards_never_match() -> None:
    rules = _remove(layout={"rows": 3, "cols": 3, "face_up_at_start": 6})
    layout: list[gr.Face | None] = [5, 5, "M", H, H, H, 1, 2, 3]
    state = start_game(rules, layouts={0: layout}, reveals={0: (0, 1, 2, 3, 4, 5)})
    assert _GAP not in state.cards[0]
    any_cards = _remove(sets={"cards": "any", "score": "remove"})
    assert gr.score_layout(any_cards, [H, H, H, 1, 2, 3, 4, 6, 7]) == 30 + 23


def test_10_6_an_empty_slot_scores_0_and_makes_its_other_lines_unable_to_be_sets() -> None:
    rules = _remove()
    # column 0 holds the gap: 5 5 5 in row 1 is a set still in the layout (it leaves: 0)
    assert gr.score_layout(rules, [_GAP, 8, 8, 5, 5, 5, 8, 1, 2]) == 8 + 8 + 8 + 1 + 2
    # row 0 with a gap and two 8s is no set; column 1 is 8, 1, 1: none
    assert gr.score_layout(rules, [_GAP, 8, 8, 3, 1, 4, 6, 1, 2]) == 8 + 8 + 3 + 1 + 4 + 6 + 1 + 2
    breakdown = gr.score_breakdown(rules, [_GAP, 8, 8, 3, 1, 4, 6, 1, 2])
    assert breakdown.cards[0].points == 0 and "empty" in breakdown.cards[0].note
    assert gr.score_visible(rules, [_GAP, 8, None, 3, 1, 4, 6, 1, 2]) == 8 + 3 + 1 + 4 + 6 + 3


def test_10_6_at_the_end_of_a_round_the_final_turning_up_removes_lines_on_every_layout() -> None:
    rules = _remove()
    # the round ends with column 0 of seat 1 completed by the final turning-up: it leaves
    # (0 points); without remove, the same layout scores minus its value.
    layouts = [[8, 1, 2, 8, 3, 4, 8, 6, 7], [1, 2, 3, 4, 6, 7, 9, 10, 11]]
    assert round_scores(rules.compiled, layouts, None) == (1 + 2 + 3 + 4 + 6 + 7, 53)
    standard = gr.load_ruleset("standard")
    assert round_scores(standard.compiled, layouts, None) == (-8 + 23, 53)


def test_10_6_a_player_goes_out_when_every_card_left_in_the_layout_is_face_up() -> None:
    rules = _remove(layout={"rows": 3, "cols": 3, "face_up_at_start": 8})
    state = start_game(
        rules,
        layouts={0: [5, 5, 9, 1, 2, 3, 4, 6, 7]},
        reveals={0: (0, 1, 3, 4, 5, 6, 7, 8)},
        draw=[5],
    )
    state = play(rules, state, gr.Draw(0), gr.Place(0, 2), gr.Discard(0, 0))
    assert state.cards[0][:3] == (_GAP, _GAP, _GAP)
    assert state.went_out == 0 and state.face_down_count(0) == 0


def test_10_6_an_empty_slot_is_no_face_down_card_for_hazard_flips() -> None:
    rules = _remove(layout={"rows": 3, "cols": 3, "face_up_at_start": 4})
    # seat 1: row 0 leaves at the setup, slots 3..8 are face down but one
    state = gr.new_game(rules, 3)
    deal = arranged_deal(rules, 3, layouts={1: [4, 4, 4, 1, 2, 3, 5, 6, 7]}, draw=[H])
    state = reveal_all(rules, play(rules, state, deal), {1: (0, 1, 2, 3)})
    assert state.cards[1][:3] == (_GAP, _GAP, _GAP) and state.face_down_count(1) == 5
    state = play(rules, state, gr.Draw(0), gr.Discard(0))
    assert state.flips_owed == (1, 2)
    flips = gr.legal_moves(rules, state)
    assert flips == tuple(gr.Flip(1, slot) for slot in range(4, 9))
    for slot in (0, 3):
        refusal = gr.explain(rules, state, gr.Flip(1, slot))
        assert refusal is not None
        assert refusal.code == ("bad-slot" if slot == 0 else "slot-face-up")


def test_10_6_a_layout_with_every_slot_empty_may_discard_a_card_taken_from_a_discard_pile() -> None:
    # Reading (docs/decisions.md): 4.5 cannot apply when no slot can take the card.
    rules = _remove(layout={"rows": 2, "cols": 2, "face_up_at_start": 4})
    state = start_game(rules, layouts={0: [5, 5, 5, 5]})
    assert state.cards[0] == (_GAP,) * 4 and state.turn == 0
    state = play(rules, state, gr.Draw(0, 0))
    moves = gr.legal_moves(rules, state)
    assert moves and all(isinstance(m, gr.Discard) for m in moves)
    after = play(rules, state, moves[0])
    assert after.went_out == 0


def test_10_6_the_lines_the_final_turning_up_completes_leave_and_score_0() -> None:
    rules = _remove(
        empty_draw_pile="end_round",
        deck=deck_patch({8: 3, 1: 10, 2: 10, 3: 7}),
        players={"min": 3, "max": 3},
    )
    # seat 1's column 0 is three face-down 8s; the draw pile holds one card
    state = start_game(rules, layouts={1: [8, 1, 2, 8, 3, 1, 8, 2, 3]}, draw=[3])
    assert len(state.draw_pile) == 1
    state = play(rules, state, gr.Draw(0), gr.Discard(0, 0))  # nothing left to draw: it ends
    assert state.round == 1 and state.face_up == (rules.compiled.full_mask,) * 3
    # the state keeps the layouts as a public record's final writes them (docs/decisions.md)
    assert state.cards[1][0] == 8
    assert state.scores[0][1] == 1 + 2 + 3 + 1 + 2 + 3  # the 8s left: 0 points
