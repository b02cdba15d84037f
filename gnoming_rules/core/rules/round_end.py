"""The end of a turn and of a round (rules 4.6, 8), the round's scores (8.2-8.6, 10.9), the
game's end (2.2, 10.8), and the reshuffle of the discard piles (8.7)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from ..cards import Face
from ..compiled import CompiledRules
from ..errors import IllegalMove
from ..moves import Reshuffle
from ..scoring import layout_score
from ..state import Extras, Phase, State, below_tops
from .checks import _check_in_play, _check_same_cards
from .knowledge import all_turned_up

# Final: compiled, a Final name is a C static, not a lookup in the module's dict.
_DEAL: Final = Phase.DEAL
_DRAW: Final = Phase.DRAW
_PLACE: Final = Phase.PLACE
_RESHUFFLE: Final = Phase.RESHUFFLE
_OVER: Final = Phase.OVER


def finish_turn(
    rules: CompiledRules,
    state: State,
    face_up: tuple[int, ...],
    piles: tuple[tuple[Face, ...], ...],
    removed: tuple[Face, ...],
) -> State:
    """End ``state.turn``'s turn after its discard and any flips (rule 4.6, 8.1, 8.7).

    ``face_up``, ``piles`` and ``removed`` are those fields after the discard and flips.
    The player goes out if every card is up and nobody has yet; the round ends once the
    final lap comes back round to them, or when the next turn would have nothing to draw.
    One of the engine's rule steps (not in ``__all__``).
    """
    seat, deck = state.turn, state.draw_pile
    went_out = state.went_out
    if went_out is None and face_up[seat] == rules.full_mask and not rules.placed_down:
        went_out = seat  # (rule 11.3: under placed down, nobody goes out by turning cards up)
    extras = state.extras  # (rules 1-10: the fields of §11 passed on as they are)
    if rules.knock:  # rule 11.5 counts the turns
        extras = Extras(extras.known, extras.peeks, extras.power, extras.looked, extras.turns + 1)
    following = (seat + 1) % len(face_up)
    if (went_out is not None and following == went_out) or (
        not deck and _nothing_to_draw(rules, deck, piles)
    ):
        ended = State(
            state.first_player, state.round, state.phase, seat, state.cards, face_up, deck,
            piles, removed, state.held, state.taken_from_discard, state.filled, state.chain,
            state.flips_owed, state.went_out, state.scores,
            extras,
        )  # fmt: skip
        return end_round(rules, ended, went_out)
    return State(
        state.first_player, state.round, _DRAW, following, state.cards, face_up, deck, piles,
        removed, None, False, 0, False, (), went_out, state.scores,
        extras,
    )  # fmt: skip


def _nothing_to_draw(
    rules: CompiledRules, deck: tuple[Face, ...], piles: tuple[tuple[Face, ...], ...]
) -> bool:
    """A turn may not begin (rule 8.7): the draw pile is empty and, under ``reshuffle``,
    every discard pile is too; under ``end_round`` an empty draw pile is enough."""
    return not deck and (not rules.reshuffle or not any(piles))


def end_round(rules: CompiledRules, state: State, went_out: int | None) -> State:
    """Turn every card up, score the round (8.2-8.6) and wait for the next deal or stop.

    One of the engine's rule steps (not in ``__all__``).
    """
    final = round_scores(rules, state.cards, went_out)
    following = state.round + 1
    scores = (*state.scores, final)
    extras = state.extras
    if extras.known:  # (rule 11.1: every card is up, so nobody knows a face-down one)
        known = all_turned_up(extras.known)
        extras = Extras(known, extras.peeks, extras.power, extras.looked, extras.turns)
    return State(
        state.first_player, following, _OVER if game_over(rules, scores) else _DEAL, -1,
        state.cards, (rules.full_mask,) * len(state.face_up), state.draw_pile,
        state.discard_piles, state.removed, None, False, 0, False, (), went_out, scores,
        extras,
    )  # fmt: skip


def game_over(rules: CompiledRules, scores: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the game ends once these rounds are scored: ``rounds`` rounds were played
    (2.2), or some total reached the end score (10.8).

    One of the engine's rule steps (not in ``__all__``).
    """
    if len(scores) >= rules.rounds:
        return True
    if rules.end_score is None:
        return False
    highest = max(sum(seat_scores) for seat_scores in zip(*scores, strict=True))
    return bool(highest >= rules.end_score)


def round_scores(
    rules: CompiledRules, layouts: Sequence[Sequence[Face]], went_out: int | None
) -> tuple[int, ...]:
    """Each seat's score for a round that ended with ``layouts`` (every card, RULES
    8.2-8.5), the going-out bonus or penalty of 8.6 included for seat ``went_out``."""
    base = [layout_score(rules, layout) for layout in layouts]
    final = list(base)
    if went_out is not None:
        others = [score for seat, score in enumerate(base) if seat != went_out]
        mine = base[went_out]
        lowest = not others or (
            mine <= min(others) if rules.ties_count_as_lowest else mine < min(others)
        )
        if rules.double_if_not_lowest and mine > 0 and not lowest:  # rule 10.9
            final[went_out] = 2 * mine
        final[went_out] += rules.going_out_bonus if lowest else rules.going_out_penalty
    return tuple(final)


def _reshuffle(rules: CompiledRules, state: State, move: Reshuffle) -> State:
    if state.phase is not _RESHUFFLE:
        if state.phase is _OVER or (state.phase is _DEAL and state.round > 0):
            _check_in_play(state)  # RECORD order 2.1: after the round's end, moves-after-end
        raise IllegalMove(
            "wrong-phase",
            "8.7",
            "no reshuffle is due: one comes only right after a draw that empties the draw pile",
        )
    piles = state.discard_piles
    below = Counter(below_tops(piles))
    loose: Any = move  # see _reveal: the cards may be any object until checked
    cards: Sequence[Face] = loose.cards
    _check_same_cards(
        cards,
        below,
        code="bad-reshuffle",
        rule="8.7",
        what="the reshuffle",
        whose="the discard piles' cards below their tops",
    )
    return State(
        state.first_player, state.round, _PLACE, state.turn, state.cards, state.face_up,
        tuple(cards), tuple(p[-1:] for p in piles), state.removed, state.held,
        state.taken_from_discard, state.filled, state.chain, state.flips_owed, state.went_out,
        state.scores,
        state.extras,
    )  # fmt: skip


__all__ = ["round_scores"]  # the other rule steps are called by the engine (not exported)
