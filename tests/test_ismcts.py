"""The information-set MCTS bot (gnoming_rules.play.ismcts): registered by name beside
``search``, it plays legal moves from its seat's view only, the same moves for the same
seed under an iteration budget, and whole games that validate."""

from __future__ import annotations

import random

import pytest

import gnoming_rules as gr
from gnoming_rules.core.engine import apply, legal_moves, new_game, sample_chance
from gnoming_rules.core.errors import UsageError
from gnoming_rules.core.moves import PlayerMove
from gnoming_rules.play import play_game
from gnoming_rules.play.bots import BOTS, make_bot
from gnoming_rules.play.ismcts import IsmctsBot
from gnoming_rules.play.observation import observe
from gnoming_rules.referee.validate import validate_record

TINY = "examples/tiny.yaml"


def decisions(seed: int, count: int = 12) -> list[PlayerMove]:
    """The bot's moves at the first ``count`` decisions of a greedy game under standard."""
    rules = gr.load_ruleset("standard")
    rng = random.Random(5)
    state = new_game(rules, 3, 0)
    bot = IsmctsBot(seed=seed, iterations=30)
    greedy = make_bot("greedy", random.Random(1))
    chosen: list[PlayerMove] = []
    while len(chosen) < count:
        if state.is_chance:
            state = apply(rules, state, sample_chance(rules, state, rng))
            continue
        view = observe(state, state.to_move)
        move = bot.choose(rules, view)
        assert move in legal_moves(rules, state)
        chosen.append(move)
        state = apply(rules, state, greedy.choose(rules, view))
    return chosen


def test_the_same_seed_makes_the_same_choices() -> None:
    assert decisions(3) == decisions(3)


def test_it_is_registered_beside_search_and_plays_a_whole_game_that_validates() -> None:
    assert "ismcts" in BOTS and "search" in BOTS
    record, final = play_game(gr.load_ruleset(TINY), 2, seed=4, bot="ismcts")
    verdict = validate_record(record)
    assert verdict.valid and verdict.complete and final.is_over


def test_a_budget_that_is_no_budget_is_refused() -> None:
    with pytest.raises(UsageError):
        IsmctsBot(iterations=0)
