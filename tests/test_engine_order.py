"""The engine's refusals follow RECORD.md's order of checks for chance events too."""

from __future__ import annotations

import random

import pytest
from builders import random_move, variant

import gnoming_rules as gr


def _after_first_round(rules: gr.Ruleset) -> gr.State:
    rng = random.Random(5)
    state = gr.new_game(rules, 3, first_player=0)
    while state.round == 0:
        move = random_move(rules, state, rng)
        state = gr.apply(rules, state, move)
    return state


def test_a_reshuffle_after_the_round_ended_is_a_move_after_the_end() -> None:
    """RECORD order 2.1 ("the round is over: moves-after-end") comes before 2.2."""
    rules = gr.load_ruleset("standard")
    state = _after_first_round(rules)
    assert state.phase is gr.Phase.DEAL
    with pytest.raises(gr.IllegalMove) as refused:
        gr.apply(rules, state, gr.Reshuffle((1, 2)))
    assert refused.value.code == "moves-after-end"


def test_a_reshuffle_after_the_game_is_a_move_after_the_end() -> None:
    rules = variant(rounds=1)
    state = _after_first_round(rules)
    assert state.is_over
    with pytest.raises(gr.IllegalMove) as refused:
        gr.apply(rules, state, gr.Reshuffle((1, 2)))
    assert refused.value.code == "moves-after-end"


def test_a_reshuffle_that_is_not_due_mid_round_is_the_wrong_phase() -> None:
    rules = gr.load_ruleset("standard")
    state = gr.apply(
        rules,
        gr.new_game(rules, 3),
        gr.sample_chance(rules, gr.new_game(rules, 3), random.Random(1)),
    )
    with pytest.raises(gr.IllegalMove) as refused:
        gr.apply(rules, state, gr.Reshuffle((1, 2)))
    assert refused.value.code == "wrong-phase"
