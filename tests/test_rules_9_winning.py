"""RULES.md §9: the lowest total wins; ties go to the lowest last round, else are shared."""

from __future__ import annotations

from builders import (
    STANDARD,
    H,
    Slots,
    chain_layout,
    go_out,
    quiet_turns,
    start_game,
    start_round,
    three_seat_rules,
    variant,
)
from referee_checks import refused

import gnoming_rules as gr

# Rounds that end as soon as the reveals are done: three seats, a 29-card deck, and no
# reshuffle, so the first turn would begin with an empty draw pile (RULES 8.7). The scores
# are the layouts dealt: 1 2 1 / 2 1 2 / 1 2 x has no set and scores 12 + x.
INSTANT = three_seat_rules({1: 12, 2: 12, 3: 1, 4: 2, -1: 2}, empty_draw_pile="end_round")


def _layout(x: int) -> Slots:
    return [1, 2, 1, 2, 1, 2, 1, 2, x]


def _instant_game(rounds: list[tuple[int, int, int]]) -> gr.State:
    """A game of INSTANT rounds; each round names every seat's x (score 12 + x)."""
    state = gr.new_game(INSTANT, 3)
    for xs in rounds:
        layouts = {seat: _layout(x) for seat, x in enumerate(xs)}
        state = start_round(INSTANT, state, layouts=layouts)
        assert state.scores[-1] == tuple(12 + x for x in xs)
    assert state.is_over
    return state


def test_rule_9_1_the_lowest_total_wins() -> None:
    state = _instant_game([(-1, 3, 4), (3, -1, 4), (-1, 3, 4)])
    assert state.totals == (11 + 15 + 11, 15 + 11 + 15, 16 * 3)
    assert state.winners == (0,)
    refused(INSTANT, state, gr.Draw(0), "moves-after-end", "9.1")


def test_rule_9_1_a_tie_goes_to_the_lowest_last_round_score() -> None:
    state = _instant_game([(3, -1, 4), (-1, 4, 4), (4, 3, 4)])
    assert state.totals == (42, 42, 48)
    assert state.scores[-1] == (16, 15, 16)
    assert state.winners == (1,)


def test_rule_9_1_a_tie_on_both_is_shared() -> None:
    state = _instant_game([(4, 4, 3), (-1, -1, 3), (4, 4, 3)])
    assert state.totals == (43, 43, 45)
    assert state.scores[-1][:2] == (16, 16)
    assert state.winners == (0, 1)


def test_rule_9_1_the_last_round_score_includes_the_going_out_bonus() -> None:
    # Two rounds. Round 0 ends when the draw pile runs out (nobody out): seat 0 scores 50,
    # seat 1 55. In round 1 seat 1 goes out at -12, tied with seat 0, and gets -5: totals
    # tie at 38, and only the bonus separates the last-round scores.
    rules = variant(rounds=2, empty_draw_pile="end_round")
    hazards: Slots = [H, H, H, 12, 11, 10, 11, 12, 10]  # no set: 96
    state = start_game(
        rules,
        3,
        layouts={0: [1, 2, 3, 4, 6, 7, 8, 9, 10], 1: [6, 2, 3, 4, 6, 7, 8, 9, 10], 2: hazards},
    )
    state = quiet_turns(rules, state, 81)
    assert state.round == 1 and state.scores[0][:2] == (50, 55)
    state = start_round(
        rules,
        state,
        layouts={
            0: [-5, -4, -3, -3, -2, -1, 1, 2, 3],
            1: chain_layout(1, 2, 5, 3),
            2: hazards,
        },
        draw=[5],
    )
    assert state.actor == 1  # round 1 starts one seat further on
    state = quiet_turns(rules, go_out(rules, state), 2)
    assert state.is_over
    assert state.scores[1][:2] == (-12, -17)
    assert state.totals[:2] == (38, 38)
    assert state.winners == (1,)


def test_rule_9_1_winners_only_once_the_game_is_over() -> None:
    state = start_game(STANDARD, 3, layouts={0: chain_layout(1, 2, 5, 3)}, draw=[5])
    state = quiet_turns(STANDARD, go_out(STANDARD, state), 2)
    assert state.round == 1 and state.scores
    assert state.winners == ()
