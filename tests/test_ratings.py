"""The tournament's ratings and SPRT (gnoming_rules.corpus.ratings): pairwise results from
totals and forfeits, a Bradley-Terry fit that is symmetric, ordered and finite, and an SPRT
that decides each way on clear samples and waits on mixed ones."""

from __future__ import annotations

import math

import pytest

from gnoming_rules.corpus.ratings import Pairwise, expected_score, fit_ratings, pairwise, sprt


def test_a_game_gives_a_result_between_every_two_seats_of_different_bots() -> None:
    found = pairwise([0, 1, 0], [10, 5, 5])
    assert found == [Pairwise(0, 1, 0.0), Pairwise(1, 0, 0.5)]


def test_a_forfeit_loses_to_every_other_bot_and_counts_for_nothing_else() -> None:
    assert pairwise([0, 1, 2], None, forfeit=1) == [Pairwise(0, 1, 1.0), Pairwise(1, 2, 0.0)]


def test_equal_bots_rate_equal_and_a_winner_rates_higher_with_finite_intervals() -> None:
    even = fit_ratings(2, [Pairwise(0, 1, 1.0), Pairwise(0, 1, 0.0)] * 10)
    assert even[0].rating == pytest.approx(0, abs=1e-6) == even[1].rating
    assert even[0].low < 0 < even[0].high
    ratings = fit_ratings(3, [Pairwise(0, 1, 1.0)] * 20 + [Pairwise(1, 2, 1.0)] * 20)
    assert ratings[0].rating > ratings[1].rating > ratings[2].rating
    assert sum(r.rating for r in ratings) == pytest.approx(0, abs=1e-6)
    assert all(math.isfinite(r.low) and math.isfinite(r.high) for r in ratings)
    assert all(r.low < r.rating < r.high for r in ratings)


def test_the_sprt_decides_each_way_and_waits_on_mixed_samples() -> None:
    assert sprt([1.0] * 10, 0, 100).decision == "H1"
    assert sprt([0.0] * 10, 0, 100).decision == "H0"
    assert sprt([1.0, 0.0] * 3, 0, 100).decision is None
    assert sprt([], 0, 100).decision is None
    assert expected_score(0) == 0.5 and expected_score(400) == pytest.approx(10 / 11)
