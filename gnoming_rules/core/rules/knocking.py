"""Knocking (rule 11.5, readings 11.7-11.8 "Knocking").

Under ``round_end.knock`` a player may knock at the start of their turn instead of
drawing, once the round has had as many completed turns as there are players
(``State.turns``), and not after a knock or during 8.1's final lap. The knocker is stored
as the player who went out (``State.went_out``): every other seat then takes one more
turn and :func:`~gnoming_rules.core.rules.round_end.finish_turn` ends the round when the
lap comes back to the knocker.
"""

from __future__ import annotations

from typing import Any, Final

from ..compiled import CompiledRules
from ..errors import IllegalMove
from ..moves import Draw, Knock, PlayerMove
from ..state import Extras, Phase, State
from .checks import _check_actor
from .round_end import finish_turn

_DRAW: Final = Phase.DRAW


def may_knock(rules: CompiledRules, state: State) -> bool:
    """Whether the seat in turn may knock now (phase ``DRAW``; 11.5, 11.8)."""
    return rules.knock and state.went_out is None and state.turns >= len(state.face_up)


def knock_draws(
    rules: CompiledRules, state: State, draws: tuple[Draw, ...], sources: int
) -> tuple[PlayerMove, ...]:
    """The legal moves of phase ``DRAW`` under ``round_end.knock``: ``draws`` (the draws,
    in their order), then the knock when it is allowed."""
    if not may_knock(rules, state):
        return draws
    seat = state.turn
    key = (-1, seat, sources)
    found = rules.memo.get(key)
    if found is None:
        found = rules.memo.remember(key, (*draws, Knock(seat)))
    return found


def _knock(rules: CompiledRules, state: State, move: Knock) -> State:
    """The knock: the knocker goes out (8.6, 10.9, 10.10) and their turn ends at once."""
    loose: Any = move  # see setup._reveal: fields are any object until checked
    player: object = loose.player
    if not (state.phase is _DRAW and type(player) is int and player == state.turn):
        _check_actor(state, move, _DRAW)
    seat = state.turn
    players = len(state.face_up)
    if not rules.knock:
        raise IllegalMove(
            "wrong-phase", "11.5", f"knock by seat {seat} refused: this ruleset has no knocking"
        )
    if state.went_out is not None:
        raise IllegalMove(
            "wrong-phase",
            "11.5",
            f"knock by seat {seat} refused: seat {state.went_out} has already knocked or gone "
            "out this round (the final lap is under way)",
        )
    if state.turns < players:
        raise IllegalMove(
            "wrong-phase",
            "11.5",
            f"knock by seat {seat} refused: a knock waits until every player has had a turn "
            f"({state.turns} of {players} turns completed this round)",
        )
    knocked = State(
        state.first_player, state.round, state.phase, seat, state.cards, state.face_up,
        state.draw_pile, state.discard_piles, state.removed, None, False, 0, False, (),
        seat, state.scores,
        Extras(state.known, state.peeks, None, None, state.turns),
    )  # fmt: skip
    return finish_turn(rules, knocked, state.face_up, state.discard_piles, state.removed)


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
