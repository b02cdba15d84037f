"""A flip whose seat is not an ``int`` is refused like any other malformed move.

Found by the "legal moves <=> apply" property: ``Flip(1.0, s)`` raised ``TypeError`` from
inside ``apply`` and ``Flip(True, s)`` was accepted as seat 1's flip, because ``1.0`` and
``True`` compare equal to the seat in ``flips_owed``. Every other move with a non-int
seat is refused (``not-your-turn``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from builders import random_move

import gnoming_rules as gr


def _flip_due_from(seat: int) -> gr.State:
    """The first state of a seeded standard game in which ``seat`` is next to flip."""
    rules = gr.load_ruleset("standard")
    for seed in range(500):
        rng = random.Random(seed)
        state = gr.new_game(rules, 4)
        while not state.is_over:
            if state.phase is gr.Phase.FLIP and state.flips_owed[0] == seat:
                return state
            move = random_move(rules, state, rng)
            state = gr.apply(rules, state, move)
    raise AssertionError(f"no game had seat {seat} flip")


@pytest.mark.parametrize(("seat", "odd"), [(1, 1.0), (1, True), (0, False), (0, 0.0), (2, "2")])
def test_a_flip_by_a_seat_that_is_not_an_int_is_refused(seat: int, odd: Any) -> None:
    rules = gr.load_ruleset("standard")
    state = _flip_due_from(seat)
    first = gr.legal_moves(rules, state)[0]
    assert isinstance(first, gr.Flip)
    slot = first.slot
    with pytest.raises(gr.IllegalMove) as refused:
        gr.apply(rules, state, gr.Flip(odd, slot))
    assert refused.value.code == "no-flip-owed"
    assert gr.apply(rules, state, gr.Flip(seat, slot)).face_up[seat] >> slot & 1
