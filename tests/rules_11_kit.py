"""Situations of RULES §11 for the tests of 11.1-11.8: the variants, the setup peeks, a
turn that discards what it drew, and the seats that know a card."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from builders import play, start_game, variant
from referee_checks import accepted

import gnoming_rules as gr

PEEKING = variant(layout={"peek_at_start": 2})
"""Standard with two setup peeks after the two reveals (rule 11.2)."""

DOWN_RULES: dict[str, Any] = {
    "play": {"placed": "down"},
    "round_end": {"knock": True},
    "bounce": False,
    "deck": {"hazards": 0},
}
DOWN = variant(**DOWN_RULES)
"""Cards placed face down (11.3), with what it needs: knocking, no bounce, no hazards."""

POWER_FACES: dict[int, str] = {7: "peek_own", 8: "peek_other", 9: "swap_blind", 10: "look_and_swap"}
POWERS = variant(powers=POWER_FACES)
"""Standard with a power on 7, 8, 9 and 10 (rule 11.4)."""

KNOCK = variant(round_end={"knock": True})
"""Standard with knocking (rule 11.5)."""


def rules_with(**changes: Any) -> gr.Ruleset:
    """A variant of standard (``variant``), for the §11 options a test combines."""
    return variant(**changes)


dealt = start_game
"""A new game dealt as arranged and past its setup reveals (peeks, if any, are due):
:func:`builders.start_game`."""


def peek_all(
    ruleset: gr.Ruleset, state: gr.State, peeks: Mapping[int, Sequence[int]] | None = None
) -> gr.State:
    """Play the setup peeks (RULES 11.2): each seat its ``peeks[seat]`` slots in order, or
    its lowest face-down slots."""
    chosen = peeks or {}
    while state.phase is gr.Phase.PEEK:
        seat = state.turn
        down = [s for s in range(ruleset.slots) if not state.is_face_up(seat, s)]
        slots = chosen.get(seat, down)
        slot = slots[state.peeks % len(slots)]
        state = play(ruleset, state, gr.Peek(seat, slot))
    return state


def draw_and_discard(ruleset: gr.Ruleset, state: gr.State) -> gr.State:
    """The seat in turn draws from the draw pile and discards that card on the first pile
    offered: the power of the card, if any, is then open."""
    seat = state.turn
    state = accepted(ruleset, state, gr.Draw(seat))
    discard = next(m for m in gr.legal_moves(ruleset, state) if isinstance(m, gr.Discard))
    return accepted(ruleset, state, discard)


def quiet(ruleset: gr.Ruleset, state: gr.State, turns: int = 1) -> gr.State:
    """``turns`` turns that draw, discard and decline any power offered."""
    for _ in range(turns):
        state = draw_and_discard(ruleset, state)
        while state.phase is gr.Phase.POWER:
            state = accepted(ruleset, state, gr.Pass(state.turn))
    return state


def knowers(state: gr.State, seat: int, slot: int) -> set[int]:
    """The seats that know ``seat``'s ``slot`` (face up: every seat; rule 11.1)."""
    return {viewer for viewer in range(state.players) if state.knows(viewer, seat, slot)}
