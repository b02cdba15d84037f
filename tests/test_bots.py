"""Bots: only legal moves, whole games, and a greedy bot that keeps cards that lower its score."""

from __future__ import annotations

import random
import statistics

import pytest

import gnoming_rules as gr
from gnoming_rules.bots import GreedyBot, RandomBot, average_card, estimate, play_game


def test_the_estimate_counts_face_down_cards_at_the_average_and_out_of_sets() -> None:
    rules = gr.load_ruleset("standard")
    row_set = [5, 5, 5, 1, 2, 3, 4, 6, 7]
    assert estimate(rules, row_set, 0b111111111) == gr.score_layout(rules, row_set)
    hidden_third = 0b111111011  # slot 2 face down: row 0 is no set
    assert estimate(rules, row_set, hidden_third) == pytest.approx(
        5 + 5 + average_card(rules) + 1 + 2 + 3 + 4 + 6 + 7
    )
    assert average_card(rules) == pytest.approx((385 + 138 - 50 + 30) / 110)


@pytest.mark.parametrize("players", range(3, 8))
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_finish_games_whose_records_validate(players: int, bot: str) -> None:
    rules = gr.load_ruleset("standard")
    for seed in range(4):
        record, state = play_game(rules, players, seed=seed, bot=bot)  # type: ignore[arg-type]
        assert state.is_over and len(record.rounds) == rules.rounds
        assert record.result is not None and record.result.totals == list(state.totals)


def test_greedy_bots_score_lower_than_random_ones() -> None:
    rules = gr.load_ruleset("standard")

    def mean_total(bot: str) -> float:
        totals: list[int] = []
        for seed in range(12):
            _, state = play_game(rules, 4, seed=seed, bot=bot)  # type: ignore[arg-type]
            totals += state.totals
        return float(statistics.mean(totals))

    assert mean_total("greedy") < mean_total("random") - 10


def test_a_greedy_play_never_raises_the_estimate() -> None:
    rules = gr.load_ruleset("standard")
    rng = random.Random(3)
    bot = GreedyBot(random.Random(4))
    state = gr.new_game(rules, 4)
    checked = 0
    while not state.is_over and checked < 400:
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
            continue
        move = bot.choose(rules, state)
        assert move in gr.legal_moves(rules, state)
        if isinstance(move, gr.Place | gr.Bounce) and any(
            isinstance(option, gr.Discard) for option in gr.legal_moves(rules, state)
        ):
            seat = state.turn
            before = estimate(rules, state.cards[seat], state.face_up[seat], unknown=bot._unknown)
            after_state = gr.apply(rules, state, move)
            cards = after_state.cards[seat]
            after = estimate(rules, cards, after_state.face_up[seat], unknown=bot._unknown)
            assert after < before
            checked += 1
        state = gr.apply(rules, state, move)
    assert checked > 20


def test_the_same_seed_plays_the_same_game() -> None:
    rules = gr.load_ruleset("standard")
    first, _ = play_game(rules, 5, seed=77, bot="random")
    second, _ = play_game(rules, 5, seed=77, bot="random")
    assert first == second
    assert play_game(rules, 5, seed=78, bot="random")[0] != first


def test_a_random_bot_picks_among_legal_moves() -> None:
    rules = gr.load_ruleset("standard")
    state = gr.new_game(rules, 3)
    state = gr.apply(rules, state, gr.sample_chance(rules, state, random.Random(1)))
    assert RandomBot(random.Random(2)).choose(rules, state) in gr.legal_moves(rules, state)
