"""Bouncing (rule 5): whether the held card may bounce, and the bounce itself."""

from __future__ import annotations

from typing import Any, Final

from ..cards import EMPTY, face_text
from ..compiled import CompiledRules
from ..errors import IllegalMove
from ..moves import Bounce
from ..state import Phase, State
from .checks import _check_actor, _played, check_slot
from .knowledge import played_up
from .lines import _empty_slot, remove_lines

# Final: compiled, a Final name is a C static, not a lookup in the module's dict.
_BOUNCE: Final = Phase.BOUNCE


def bounce_block(rules: CompiledRules, state: State) -> str | None:
    """The rule that stops the held card bouncing now (rule 5.1-5.4), or ``None`` if it may.

    One of the engine's rule steps (not in ``__all__``).
    """
    if not rules.bounce:
        return "5.3"
    if not state.chain:
        return "5.1"
    held = state.held
    seat = state.turn
    layout, up = state.cards[seat], state.face_up[seat]
    if not rules.plain_sets:  # face values or matching by value (10.1, 10.2)
        keys = rules.bounce_keys
        key = keys.get(held) if held is not None else None
        if key is None:
            return "5.4"
        for slot, card in enumerate(layout):
            if up >> slot & 1 and keys.get(card) == key:
                return None
        return "5.2"
    if type(held) is not int or held <= 0:  # (0 is a face, and not positive: rule 10.1)
        return "5.4"
    if held in layout:  # checked in C first: most held cards match no card of the layout
        for slot, card in enumerate(layout):
            if card == held and up >> slot & 1:
                return None
    return "5.2"


def _bounce_refusal(state: State, rule: str) -> IllegalMove:
    """The ``cannot-bounce`` refusal for the rule :func:`bounce_block` named."""
    held = face_text(state.held)
    reasons = {
        "5.3": "bouncing is off in this ruleset",
        "5.1": "a bounce chain starts only when the play displaced a face-down card; "
        "this play displaced a face-up one",
        "5.4": f"the held {held} cannot bounce: only positive cards do",
        "5.2": f"the held {held} matches no face-up {held} in seat {state.turn}'s layout",
    }
    return IllegalMove("cannot-bounce", rule, reasons[rule])


def _bounce(rules: CompiledRules, state: State, move: Bounce) -> State:
    loose: Any = move  # see _reveal
    player: object = loose.player
    if not (state.phase is _BOUNCE and type(player) is int and player == state.turn):
        _check_actor(state, move, _BOUNCE)
    blocked_by = bounce_block(rules, state)
    if blocked_by is not None:
        raise _bounce_refusal(state, blocked_by)
    seat = state.turn  # the player, checked above
    slot = check_slot(rules, loose.slot, "5.3")
    cards, face_up, piles, held, filled = (
        state.cards, state.face_up, state.discard_piles, state.held, state.filled
    )  # fmt: skip
    bit = 1 << slot
    remove = rules.remove_lines
    if remove and cards[seat][slot] == EMPTY:
        raise _empty_slot(seat, slot, "5.3")
    if filled & bit:
        raise IllegalMove(
            "slot-already-filled",
            "5.3",
            f"slot {slot} was already filled this turn; bounce into a slot not yet filled",
        )
    assert held is not None
    layout = cards[seat]
    displaced = layout[slot]
    cards, face_up = _played(cards, face_up, seat, slot, held)
    if remove:
        cards, piles = remove_lines(rules, cards, face_up, piles, seat)
    bounced = State(
        state.first_player, state.round, state.phase, seat, cards, face_up, state.draw_pile,
        piles, state.removed, displaced, False, filled | bit, True, state.flips_owed,
        state.went_out, state.scores,
        state.extras,
    )  # fmt: skip
    return played_up(bounced, seat, slot) if rules.knowledge else bounced  # (rule 11.1)


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
