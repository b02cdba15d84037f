"""Assertions that show apply, legal_moves, is_legal and explain agree on one move."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import gnoming_rules as gr
from gnoming_rules.core.engine import ENGINE_CODES
from gnoming_rules.core.errors import DealError, PileError

PLAYER_MOVES = (
    gr.Reveal,
    gr.Draw,
    gr.Place,
    gr.Bounce,
    gr.Discard,
    gr.Flip,
    gr.Peek,
    gr.Swap,
    gr.Pass,
    gr.Knock,
)


def refused(
    ruleset: gr.Ruleset, state: gr.State, move: gr.Move, code: str, rule: str | None
) -> gr.IllegalMove:
    """``apply`` refuses ``move`` with ``code`` and ``rule`` and a one-line message;
    explain gives the same refusal, is_legal says no, legal_moves does not offer it,
    and ``state`` is left as it was."""
    before = state
    with pytest.raises(gr.IllegalMove) as caught:
        gr.apply(ruleset, state, move)
    error = caught.value
    assert (error.code, error.rule) == (code, rule), error.message
    assert error.code in ENGINE_CODES
    kinds = {"wrong-pile": PileError, "not-the-deck": DealError}  # typed by kind
    assert type(error) is kinds.get(error.code, gr.IllegalMove), (type(error), error.code)
    assert error.message.strip() and "\n" not in error.message
    assert str(error) == f"{error.code}: {error.message}"
    explained = gr.explain(ruleset, state, move)
    assert explained is not None
    assert (explained.code, explained.rule, explained.message) == (code, rule, error.message)
    assert not gr.is_legal(ruleset, state, move)
    if isinstance(move, PLAYER_MOVES):
        assert move not in gr.legal_moves(ruleset, state)
    assert state == before
    return error


def accepted(ruleset: gr.Ruleset, state: gr.State, move: gr.Move) -> gr.State:
    """``move`` is legal by every account (legal_moves, is_legal, explain); the next state."""
    if isinstance(move, PLAYER_MOVES):
        assert move in gr.legal_moves(ruleset, state)
    assert gr.is_legal(ruleset, state, move)
    assert gr.explain(ruleset, state, move) is None
    return gr.apply(ruleset, state, move)


def offered(ruleset: gr.Ruleset, state: gr.State) -> set[gr.PlayerMove]:
    """legal_moves as a set, checking first that each one is accepted by apply."""
    moves = gr.legal_moves(ruleset, state)
    for move in moves:
        assert gr.is_legal(ruleset, state, move), move
    assert len(set(moves)) == len(moves)
    return set(moves)


def places(seat: int, slots: Iterable[int]) -> set[gr.PlayerMove]:
    """Place moves of ``seat`` into ``slots``."""
    return {gr.Place(seat, slot) for slot in slots}


def bounces(seat: int, slots: Iterable[int]) -> set[gr.PlayerMove]:
    """Bounce moves of ``seat`` into ``slots``."""
    return {gr.Bounce(seat, slot) for slot in slots}


def discards(seat: int, *piles: int | None) -> set[gr.PlayerMove]:
    """Discard moves of ``seat`` onto ``piles`` (``None`` for a hazard)."""
    return {gr.Discard(seat, pile) for pile in piles}
