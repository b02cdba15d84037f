"""is_legal and explain agree with apply and legal_moves; apply is pure."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest
from builders import STANDARD, arranged_deal, random_move, start_game, variant
from referee_checks import PLAYER_MOVES

import gnoming_rules as gr


def _candidates(ruleset: gr.Ruleset, state: gr.State) -> Iterator[gr.PlayerMove]:
    """Every player move of every seat (and one beyond), legal or not, odd fields included."""
    slots = range(-1, ruleset.layout.rows * ruleset.layout.cols + 1)
    for seat in range(-1, state.players + 1):
        for slot in slots:
            yield gr.Reveal(seat, slot)
            yield gr.Place(seat, slot)
            yield gr.Bounce(seat, slot)
            yield gr.Flip(seat, slot)
            for target in range(-1, state.players + 1):
                yield gr.Peek(seat, slot, target)
                yield gr.Swap(seat, slot, target, (slot + 1) % len(slots))
        for pile in (None, 0, 1, 2):
            yield gr.Draw(seat, pile)
            yield gr.Discard(seat, pile)
        yield gr.Pass(seat)
        yield gr.Knock(seat)


def _check_agreement(ruleset: gr.Ruleset, state: gr.State) -> None:
    legal = set(gr.legal_moves(ruleset, state))
    snapshot = copy.deepcopy(state)
    for move in _candidates(ruleset, state):
        try:
            after: gr.State | None = gr.apply(ruleset, state, move)
            error: gr.IllegalMove | None = None
        except gr.IllegalMove as refusal:
            after, error = None, refusal
        explained = gr.explain(ruleset, state, move)
        if error is None:
            assert explained is None and gr.is_legal(ruleset, state, move)
            assert move in legal, f"apply accepts {move} but legal_moves leaves it out"
            assert after is not None and after != state
        else:
            assert explained is not None and not gr.is_legal(ruleset, state, move)
            assert (explained.code, explained.rule, explained.message) == (
                error.code,
                error.rule,
                error.message,
            )
            assert move not in legal, f"legal_moves offers {move}, apply refuses: {error}"
    assert state == snapshot


def _states(ruleset: gr.Ruleset, players: int, seed: int) -> Iterator[gr.State]:
    """Every state of one random game (chance events included)."""
    rng = random.Random(seed)
    state = gr.new_game(ruleset, players, first_player=seed % players)
    while not state.is_over:
        yield state
        move = random_move(ruleset, state, rng)
        state = gr.apply(ruleset, state, move)
    yield state


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [
        (STANDARD, 3, 1),
        (STANDARD, 5, 2),
        (
            variant(
                rounds=1,
                players={"min": 2, "max": 4},
                layout={"rows": 2, "cols": 3, "face_up_at_start": 1},
                discard={"taken_must_be_played": False},
                hazard={"flips": "next", "spare_last_card": False},
                mulligan={"max_face_up": 2},
                empty_draw_pile="end_round",
            ),
            2,
            3,
        ),
    ],
)
def test_explain_and_is_legal_agree_with_apply_and_legal_moves(
    rules: gr.Ruleset, players: int, seed: int
) -> None:
    seen = 0
    for index, state in enumerate(_states(rules, players, seed)):
        if index % 3 == 0 or state.phase in (gr.Phase.FLIP, gr.Phase.RESHUFFLE, gr.Phase.OVER):
            _check_agreement(rules, state)
            seen += 1
    assert seen > 20


def test_explain_returns_none_for_a_legal_move_and_the_refusal_otherwise() -> None:
    state = start_game(STANDARD, 3)
    assert gr.explain(STANDARD, state, gr.Draw(0)) is None
    assert gr.is_legal(STANDARD, state, gr.Draw(0))
    refusal = gr.explain(STANDARD, state, gr.Draw(1))
    assert isinstance(refusal, gr.IllegalMove)
    assert (refusal.code, refusal.rule) == ("not-your-turn", "2.1")
    assert "seat 0" in refusal.message and "\n" not in refusal.message
    assert not gr.is_legal(STANDARD, state, gr.Draw(1))


def test_explain_covers_chance_events() -> None:
    state = gr.new_game(STANDARD, 3)
    deal = arranged_deal(STANDARD, 3)
    assert gr.explain(STANDARD, state, deal) is None
    short = gr.explain(STANDARD, state, gr.Deal(deal.cards[1:]))
    assert short is not None and (short.code, short.rule) == ("not-the-deck", "3.1")
    stray = gr.explain(STANDARD, state, gr.Reshuffle(()))
    assert stray is not None and (stray.code, stray.rule) == ("wrong-phase", "8.7")


def test_apply_is_pure_on_accepted_and_refused_moves() -> None:
    state = start_game(STANDARD, 3)
    snapshot = copy.deepcopy(state)
    after = gr.apply(STANDARD, state, gr.Draw(0))
    assert state == snapshot and after != state
    with pytest.raises(gr.IllegalMove):
        gr.apply(STANDARD, after, gr.Discard(0, 2))
    assert state == snapshot
    held = copy.deepcopy(after)
    with pytest.raises(gr.IllegalMove):
        gr.apply(STANDARD, after, gr.Place(0, 9))
    assert after == held
    # The ruleset is untouched too.
    assert STANDARD.sha256 == gr.load_ruleset("standard").sha256


def test_every_player_move_type_is_checked() -> None:
    # Guard for the agreement test above: it builds every kind of player move.
    kinds = {type(m) for m in _candidates(STANDARD, start_game(STANDARD, 3))}
    assert kinds == set(PLAYER_MOVES)


def test_a_non_move_is_a_type_error_not_an_illegal_move() -> None:
    state = start_game(STANDARD, 3)
    with pytest.raises(TypeError):
        gr.apply(STANDARD, state, "draw")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        gr.explain(STANDARD, state, "draw")  # type: ignore[arg-type]
