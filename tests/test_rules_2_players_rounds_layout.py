"""RULES.md §2: players and seat order, rounds, the layout grid; their toggles."""

from __future__ import annotations

import random

import pytest
from builders import (
    STANDARD,
    arranged_deal,
    finish_round_randomly,
    play,
    quiet_turn,
    start_game,
    variant,
)
from referee_checks import accepted, offered, refused

import gnoming_rules as gr
from gnoming_rules.core import round_first_player


def _bad_setup(ruleset: gr.Ruleset, players: int) -> str:
    with pytest.raises(gr.GnomingError) as caught:
        gr.new_game(ruleset, players)
    assert caught.value.code == "bad-setup"
    assert "\n" not in caught.value.message
    return caught.value.message


def test_rule_2_1_three_to_seven_players() -> None:
    for players in range(3, 8):
        assert gr.new_game(STANDARD, players).players == players
    assert "3 to 7" in _bad_setup(STANDARD, 2)
    assert "3 to 7" in _bad_setup(STANDARD, 8)


def test_rule_2_1_first_player_must_be_a_seat() -> None:
    for seat in (-1, 3):
        with pytest.raises(gr.GnomingError) as caught:
            gr.new_game(STANDARD, 3, first_player=seat)
        assert caught.value.code == "bad-setup"
        assert "first_player" in caught.value.message


def test_rule_2_1_play_goes_in_increasing_seat_order_wrapping() -> None:
    state = gr.new_game(STANDARD, 4, first_player=2)
    state = play(STANDARD, state, arranged_deal(STANDARD, 4))
    revealers = []
    while state.phase is gr.Phase.REVEAL:
        revealers.append(state.turn)
        state = play(STANDARD, state, gr.legal_moves(STANDARD, state)[0])
    assert revealers == [2, 2, 3, 3, 0, 0, 1, 1]
    turns = []
    for _ in range(6):
        turns.append(state.turn)
        state = quiet_turn(STANDARD, state)
    assert turns == [2, 3, 0, 1, 2, 3]


def test_rule_2_1_only_the_seat_whose_turn_it_is_moves() -> None:
    state = start_game(STANDARD, 4, first_player=2)
    assert state.actor == 2
    assert offered(STANDARD, state) == {gr.Draw(2), gr.Draw(2, 0), gr.Draw(2, 1)}
    for seat in (0, 1, 3):
        refused(STANDARD, state, gr.Draw(seat), "not-your-turn", "2.1")
    accepted(STANDARD, state, gr.Draw(2))


def test_toggle_players_min_max_bounds_the_table() -> None:
    small = variant(players={"min": 2, "max": 4})
    assert gr.new_game(small, 2).players == 2
    assert "2 to 4" in _bad_setup(small, 5)
    assert gr.new_game(STANDARD, 5).players == 5
    assert "3 to 7" in _bad_setup(STANDARD, 2)
    # A two-player game of the variant deals and plays.
    state = start_game(small, 2)
    assert state.phase is gr.Phase.DRAW
    assert len(state.cards) == 2


def _play_rounds(ruleset: gr.Ruleset, players: int, first_player: int, seed: int) -> list[int]:
    """Play a whole game at random; the seat that reveals first in each round."""
    rng = random.Random(seed)
    state = gr.new_game(ruleset, players, first_player)
    starters = []
    while not state.is_over:
        assert state.phase is gr.Phase.DEAL
        dealt = gr.apply(ruleset, state, gr.sample_chance(ruleset, state, rng))
        starters.append(dealt.turn)
        assert round_first_player(ruleset, dealt) == dealt.turn
        state = finish_round_randomly(ruleset, dealt, rng)
    return starters


def test_rule_2_2_a_game_is_three_rounds() -> None:
    rng = random.Random(22)
    state = gr.new_game(STANDARD, 3)
    for finished in range(1, 4):
        state = finish_round_randomly(STANDARD, state, rng)
        assert state.round == finished
        assert len(state.scores) == finished
        if finished < 3:
            assert state.phase is gr.Phase.DEAL and not state.is_over
            assert state.winners == ()
            refused(STANDARD, state, gr.Draw(0), "moves-after-end", "8.1")
    assert state.is_over
    assert state.winners
    refused(STANDARD, state, gr.Draw(0), "moves-after-end", "9.1")
    refused(STANDARD, state, arranged_deal(STANDARD, 3), "moves-after-end", "2.2")


def test_rule_2_2_each_later_round_starts_one_seat_further_on() -> None:
    assert _play_rounds(STANDARD, 3, first_player=2, seed=5) == [2, 0, 1]
    assert _play_rounds(STANDARD, 5, first_player=4, seed=6) == [4, 0, 1]


def test_toggle_rounds_sets_the_length_of_a_game() -> None:
    one = variant(rounds=1)
    rng = random.Random(9)
    after_one = finish_round_randomly(one, gr.new_game(one, 3), rng)
    assert after_one.is_over and len(after_one.scores) == 1
    assert after_one.winners
    standard_after_one = finish_round_randomly(STANDARD, gr.new_game(STANDARD, 3), rng)
    assert not standard_after_one.is_over
    assert len(_play_rounds(variant(rounds=5), 3, 0, seed=8)) == 5


def test_toggle_first_player_rotation_fixed_keeps_the_starter() -> None:
    fixed = variant(first_player="fixed")
    assert _play_rounds(fixed, 4, first_player=1, seed=3) == [1, 1, 1]
    assert _play_rounds(STANDARD, 4, first_player=1, seed=3) == [1, 2, 3]


def test_rule_2_3_slots_are_numbered_row_major() -> None:
    deal = arranged_deal(STANDARD, 3)
    state = gr.apply(STANDARD, gr.new_game(STANDARD, 3), deal)
    for seat in range(3):
        assert state.cards[seat] == deal.cards[seat * 9 : seat * 9 + 9]
    breakdown = gr.score_breakdown(STANDARD, [5, 1, 2, 5, 3, 4, 5, 6, 7])
    assert [(s.name, s.slots) for s in breakdown.sets] == [("column 0", (0, 3, 6))]
    breakdown = gr.score_breakdown(STANDARD, [1, 2, 3, 4, 6, 7, 8, 8, 8])
    assert [(s.name, s.slots) for s in breakdown.sets] == [("row 2", (6, 7, 8))]


def test_rule_2_3_a_slot_outside_the_layout_is_refused() -> None:
    state = gr.apply(STANDARD, gr.new_game(STANDARD, 3), arranged_deal(STANDARD, 3))
    for slot in (9, -1, 100):
        refused(STANDARD, state, gr.Reveal(0, slot), "bad-slot", "3.5")
    after = start_game(STANDARD, 3)
    after = play(STANDARD, after, gr.Draw(0))
    refused(STANDARD, after, gr.Place(0, 9), "bad-slot", "4.2")
    accepted(STANDARD, after, gr.Place(0, 8))


def test_toggle_rows_cols_change_the_grid() -> None:
    wide = variant(layout={"rows": 2, "cols": 4})
    deal = arranged_deal(wide, 3)
    state = accepted(wide, gr.new_game(wide, 3), deal)
    assert [len(layout) for layout in state.cards] == [8, 8, 8]
    assert state.cards[1] == deal.cards[8:16]
    assert state.discard_piles == ((deal.cards[24],), (deal.cards[25],))
    assert state.draw_pile == deal.cards[26:]
    refused(wide, state, gr.Reveal(0, 8), "bad-slot", "3.5")
    standard_state = gr.apply(STANDARD, gr.new_game(STANDARD, 3), arranged_deal(STANDARD, 3))
    accepted(STANDARD, standard_state, gr.Reveal(0, 8))
    # Lines are rows of four and columns of two.
    row = gr.score_breakdown(wide, [5, 5, 5, 5, 1, 2, 3, 4])
    assert [(s.name, s.slots) for s in row.sets] == [("row 0", (0, 1, 2, 3))]
    assert row.total == -5 + 1 + 2 + 3 + 4
    column = gr.score_breakdown(wide, [6, 1, 2, 3, 6, 4, 7, 8])
    assert [(s.name, s.slots) for s in column.sets] == [("column 0", (0, 4))]
    assert column.total == -6 + 1 + 2 + 3 + 4 + 7 + 8
    with pytest.raises(ValueError):
        gr.score_layout(STANDARD, [5, 5, 5, 5, 1, 2, 3, 4])
