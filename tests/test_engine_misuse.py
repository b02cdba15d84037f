"""The engine given what it was not built for: a state of another ruleset, chance events
whose cards are no list, a legal-move cache on a grid too large to remember."""

from __future__ import annotations

import random

import pytest
from builders import STANDARD, random_move, variant

import gnoming_rules as gr
from gnoming_rules.core.compiled import MEMO_LIMIT, MoveMemo

BIG = gr.load_ruleset("big-grid")


def _dealt(rules: gr.Ruleset, players: int) -> gr.State:
    state = gr.new_game(rules, players)
    return gr.apply(rules, state, gr.sample_chance(rules, state, random.Random(1)))


def _reshuffle_due() -> gr.State:
    """The first state of a seeded random standard game that waits for a reshuffle."""
    for seed in range(100):
        rng = random.Random(seed)
        state = gr.new_game(STANDARD, 7)
        while not state.is_over:
            if state.phase is gr.Phase.RESHUFFLE:
                return state
            state = gr.apply(STANDARD, state, random_move(STANDARD, state, rng))
    raise AssertionError("no game reached a reshuffle")


@pytest.mark.parametrize(
    ("made_by", "players", "used_with", "problem"),
    [
        (STANDARD, 3, BIG, "its layouts have 9 cards, this ruleset's have 16"),
        (BIG, 3, STANDARD, "its layouts have 16 cards, this ruleset's have 9"),
        (STANDARD, 7, BIG, "it has 7 seats, this ruleset seats 3 to 6"),
    ],
)
def test_a_state_of_another_ruleset_is_refused_by_apply_and_legal_moves(
    made_by: gr.Ruleset, players: int, used_with: gr.Ruleset, problem: str
) -> None:
    state = _dealt(made_by, players) if "cards" in problem else gr.new_game(made_by, players)
    for call in (
        lambda: gr.apply(used_with, state, gr.Reveal(state.turn, 0)),
        lambda: gr.legal_moves(used_with, state),
        lambda: gr.is_legal(used_with, state, gr.Reveal(state.turn, 12)),
    ):
        with pytest.raises(gr.GnomingError) as caught:
            call()
        assert caught.value.code == "state-mismatch"
        assert caught.value.message.endswith(problem)
        assert not isinstance(caught.value, gr.IllegalMove)


def test_the_last_state_a_ruleset_made_is_still_refused_by_another_ruleset() -> None:
    """The engine skips the shape check for the state it last made or checked, per
    ruleset: a state fresh from one ruleset's ``apply`` is still checked by another's."""
    made = _dealt(STANDARD, 3)
    after = gr.apply(STANDARD, made, gr.legal_moves(STANDARD, made)[0])
    for call in (
        lambda: gr.legal_moves(BIG, after),
        lambda: gr.apply(BIG, after, gr.Reveal(after.turn, 1)),
    ):
        with pytest.raises(gr.GnomingError) as caught:
            call()
        assert caught.value.code == "state-mismatch"
    assert gr.legal_moves(STANDARD, after)  # and its own ruleset goes on with it


def test_a_state_before_its_first_deal_fits_any_ruleset_that_seats_its_players() -> None:
    state = gr.new_game(STANDARD, 4)
    assert gr.legal_moves(BIG, state) == ()
    assert gr.apply(BIG, state, gr.sample_chance(BIG, state, random.Random(2))).cards[0]


@pytest.mark.parametrize("cards", [None, 5, 2.5, iter([1, 2]), {1: 2}, object()])
def test_a_deal_or_reshuffle_that_is_no_list_is_refused_with_its_code(cards: object) -> None:
    state = gr.new_game(STANDARD, 3)
    refusal = gr.explain(STANDARD, state, gr.Deal(cards))  # type: ignore[arg-type]
    assert refusal is not None and (refusal.code, refusal.rule) == ("not-the-deck", "3.1")
    assert "must be a list of cards" in refusal.message and "\n" not in refusal.message
    state = _reshuffle_due()
    refusal = gr.explain(STANDARD, state, gr.Reshuffle(cards))  # type: ignore[arg-type]
    assert refusal is not None and (refusal.code, refusal.rule) == ("bad-reshuffle", "8.7")


def test_the_legal_move_cache_forgets_when_full_and_answers_stay_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = variant(layout={"rows": 5, "cols": 5}, players={"min": 2, "max": 3})
    monkeypatch.setattr(rules.compiled.memo, "limit", 40)
    rng = random.Random(5)
    state = gr.new_game(rules, 3)
    sizes = []
    for _ in range(600):
        if state.is_over:
            break
        if not state.is_chance:
            cached = gr.legal_moves(rules, state)
            assert cached == gr.legal_moves(rules, state)
            assert all(gr.is_legal(rules, state, move) for move in cached)
        sizes.append(len(rules.compiled.memo))
        state = gr.apply(rules, state, random_move(rules, state, rng))
    assert max(sizes) <= 40 and sizes.count(40) >= 1


def test_the_legal_move_cache_holds_at_most_its_limit_of_tuples() -> None:
    """The compiled view's memo is bounded: past its limit it forgets, never grows."""
    memo = MoveMemo(limit=3)
    moves = (gr.Reveal(0, 0),)
    for key in range(10):
        assert memo.remember((key,), moves) is moves
        assert len(memo) <= 3
        assert memo.get((key,)) is moves
    assert len(memo) == 1 and memo.get((8,)) is None  # the tenth key came after a refill
    assert STANDARD.compiled.memo.limit == MEMO_LIMIT == 50_000
