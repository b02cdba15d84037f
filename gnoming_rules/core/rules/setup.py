"""Setup (rule 3, and 10.10's starter): the deal and the setup reveals, then the round's
first turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ..cards import HAZARD, Face
from ..compiled import CompiledRules
from ..errors import IllegalMove
from ..moves import Deal, Reveal
from ..state import Phase, State
from .checks import _check_actor, _check_face_down, _check_same_cards, _replace_item, check_slot
from .knowledge import fresh_round, start_peeks
from .lines import remove_lines
from .round_end import _nothing_to_draw, end_round

# Final: compiled, a Final name is a C static, not a lookup in the module's dict.
_DEAL: Final = Phase.DEAL
_REVEAL: Final = Phase.REVEAL
_DRAW: Final = Phase.DRAW
_OVER: Final = Phase.OVER


def _reveal(rules: CompiledRules, state: State, move: Reveal) -> State:
    # The handlers read a move's fields through ``loose`` until they are checked: compiled
    # by mypyc, reading ``move.player`` as the ``int`` it is declared would raise a
    # TypeError on a float or a string before the engine's own refusal could name it.
    # Each field is read once, and compared as an int once its type is checked.
    loose: Any = move
    player: object = loose.player
    if not (state.phase is _REVEAL and type(player) is int and player == state.turn):
        _check_actor(state, move, _REVEAL)
    seat = state.turn  # the player, checked above
    slot = check_slot(rules, loose.slot, "3.5")
    cards, face_up, piles = state.cards, state.face_up, state.discard_piles
    up = face_up[seat]
    if up >> slot & 1:
        _check_face_down(state, seat, slot, "3.5")
    up |= 1 << slot
    face_up = _replace_item(face_up, seat, up)
    if rules.remove_lines:
        cards, piles = remove_lines(rules, cards, face_up, piles, seat)
    turn = seat
    if up.bit_count() >= rules.face_up_at_start:  # this seat is done: the next one reveals
        players = len(face_up)
        turn = (seat + 1) % players
        first, rnd = state.first_player, state.round
        starter = rules.first_player_of_round(first, rnd, players)
        if turn == starter:
            revealed = State(
                first, rnd, state.phase, seat, cards, face_up,
                state.draw_pile, piles, state.removed, state.held, state.taken_from_discard,
                state.filled, state.chain, state.flips_owed, state.went_out, state.scores,
                state.extras,
            )  # fmt: skip
            if rules.peek_at_start:  # rule 11.2: the setup peeks follow the reveals
                peeking = start_peeks(rules, revealed, starter)
                if peeking is not None:
                    return peeking
            return _begin_turn(rules, revealed, starter)
    return State(
        state.first_player, state.round, state.phase, turn, cards, face_up, state.draw_pile,
        piles, state.removed, state.held, state.taken_from_discard, state.filled, state.chain,
        state.flips_owed, state.went_out, state.scores,
        state.extras,
    )  # fmt: skip


def _deal(rules: CompiledRules, state: State, move: Deal) -> State:
    if state.phase is _OVER:
        raise IllegalMove(
            "moves-after-end", "2.2", f"the game is over: all {state.round} rounds were played"
        )
    if state.phase is not _DEAL:
        raise IllegalMove("wrong-phase", "3.1", "no deal is due: the round is under way")
    loose: Any = move  # see _reveal: the cards may be any object until checked
    cards: Sequence[Face] = loose.cards
    _check_same_cards(
        cards,
        rules.deck_counts,
        code="not-the-deck",
        rule="3.1",
        what="the deal",
        whose="the whole deck",
    )
    players, size = state.players, rules.slots
    layouts = tuple(tuple(cards[seat * size : (seat + 1) * size]) for seat in range(players))
    position = players * size
    starts: list[tuple[Face, ...]] = []
    removed: list[Face] = []
    while len(starts) < rules.piles:
        card = cards[position]
        position += 1
        if card == HAZARD:
            removed.append(card)
        else:
            starts.append((card,))
    starter = rules.first_player_of_round(state.first_player, state.round, players)
    if rules.went_out_starts and state.round:  # rule 10.10: who went out in the round before
        out = state.went_out
        starter = out if out is not None else (state.first_player + 1) % players
    dealt = State(
        starter if rules.went_out_starts else state.first_player,  # first_player
        state.round,
        _REVEAL,
        starter,  # turn
        layouts,  # cards
        (0,) * players,  # face_up
        tuple(cards[position:]),  # draw_pile
        tuple(starts),  # discard_piles
        tuple(removed),
        None,  # held
        False,  # taken_from_discard
        0,  # filled
        False,  # chain
        (),  # flips_owed
        None,  # went_out
        state.scores,
        state.extras,  # (started afresh below under §11)
    )
    if rules.knowledge or rules.knock:  # rule 11.1, 11.5: the round's §11 fields start afresh
        dealt = fresh_round(rules, dealt)
    if rules.face_up_at_start == 0:
        if rules.peek_at_start:  # rule 11.2: no reveals, so the peeks come first
            peeking = start_peeks(rules, dealt, starter)
            if peeking is not None:
                return peeking
        return _begin_turn(rules, dealt, starter)
    return dealt


def _begin_turn(rules: CompiledRules, state: State, seat: int) -> State:
    """Start the round's first turn, at ``seat``, unless there is nothing to draw."""
    if _nothing_to_draw(rules, state.draw_pile, state.discard_piles):
        return end_round(rules, state, None)
    return State(
        state.first_player, state.round, _DRAW, seat, state.cards, state.face_up,
        state.draw_pile, state.discard_piles, state.removed, state.held,
        state.taken_from_discard, state.filled, state.chain, state.flips_owed, state.went_out,
        state.scores,
        state.extras,
    )  # fmt: skip


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
