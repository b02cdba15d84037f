"""Whole games under random legal play end with totals and winners."""

from __future__ import annotations

import random

import pytest
from builders import random_move

import gnoming_rules as gr


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_games_finish_with_totals_and_winners(players: int) -> None:
    rules = gr.load_ruleset("standard")
    for seed in range(60):
        rng = random.Random(seed * 10 + players)
        state = gr.new_game(rules, players, first_player=seed % players)
        while not state.is_over:
            move = random_move(rules, state, rng)
            state = gr.apply(rules, state, move)
        assert len(state.scores) == rules.rounds
        assert len(state.totals) == players
        assert state.totals == tuple(sum(r[p] for r in state.scores) for p in range(players))
        assert state.winners
        assert all(state.totals[w] == min(state.totals) for w in state.winners)
