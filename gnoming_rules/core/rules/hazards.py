"""Hazards (rule 6, and 10.7's own flip): the flips a hazard's discard owes, and the flip.
The hazard's discard itself is :mod:`~gnoming_rules.core.rules.turn`'s discard."""

from __future__ import annotations

from typing import Any, Final

from ..compiled import CompiledRules
from ..errors import IllegalMove, quoted
from ..moves import Flip
from ..state import Phase, State
from .checks import _check_face_down, _check_in_play, _replace_item, check_slot
from .knowledge import played_up
from .lines import remove_lines
from .round_end import finish_turn

# Final: compiled, a Final name is a C static, not a lookup in the module's dict.
_FLIP: Final = Phase.FLIP


def owed_flips(rules: CompiledRules, state: State, seat: int) -> tuple[int, ...]:
    """Seats that flip after ``seat`` discards a hazard, fixed at the discard (rule 6.1-6.2).

    One of the engine's rule steps (not in ``__all__``).
    """
    players = state.players
    if rules.hazard_flips == "none":
        return ()
    count = players if rules.hazard_flips == "others" else min(players, 2)
    least = 2 if rules.spare_last_card else 1
    return tuple(
        other
        for other in ((seat + step) % players for step in range(1, count))
        if state.face_down_count(other) >= least
    )


def _own_flip(state: State) -> tuple[int, ...]:
    """The flip that rule 10.7 owes the player in turn: theirs, if a card of theirs is face
    down (6.2 does not spare a last card here)."""
    return (state.turn,) if state.face_down_count(state.turn) else ()


def _flip(rules: CompiledRules, state: State, move: Flip) -> State:
    owed = state.flips_owed if state.phase is _FLIP else ()
    loose: Any = move  # see _reveal
    if not owed or owed[0] != loose.player or type(loose.player) is not int:
        _check_in_play(state)
        if type(loose.player) is not int or loose.player not in owed:
            raise IllegalMove("no-flip-owed", "6.1", f"seat {quoted(loose.player)} owes no flip")
        raise IllegalMove(
            "not-your-turn", "6.1", f"seat {owed[0]} flips before seat {quoted(loose.player)}"
        )
    seat = move.player
    slot = check_slot(rules, loose.slot, "6.1")
    _check_face_down(state, seat, slot, "6.1")
    face_up = _replace_item(state.face_up, seat, state.face_up[seat] | 1 << slot)
    if rules.knowledge:  # a card turned up is seen by all, its knowers forgotten (11.1)
        state = played_up(state, seat, slot)
    if rules.remove_lines:
        cards, piles = remove_lines(rules, state.cards, face_up, state.discard_piles, seat)
    else:
        cards, piles = state.cards, state.discard_piles
    if len(owed) > 1:
        return State(
            state.first_player, state.round, state.phase, state.turn, cards, face_up,
            state.draw_pile, piles, state.removed, state.held, state.taken_from_discard,
            state.filled, state.chain, owed[1:], state.went_out, state.scores,
            state.extras,
        )  # fmt: skip
    if cards is not state.cards:
        state = State(
            state.first_player, state.round, state.phase, state.turn, cards, state.face_up,
            state.draw_pile, piles, state.removed, state.held, state.taken_from_discard,
            state.filled, state.chain, state.flips_owed, state.went_out, state.scores,
            state.extras,
        )  # fmt: skip
    return finish_turn(rules, state, face_up, piles, state.removed)


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
