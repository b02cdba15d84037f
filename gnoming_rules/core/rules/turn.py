"""A turn (rule 4): draw, place and discard. The place refuses a mulligan past the limit
(7.2) and the discard of a hazard owes flips (6.1, 10.7); the turn's end is
:mod:`~gnoming_rules.core.rules.round_end`'s ``finish_turn``."""

from __future__ import annotations

from typing import Any, Final

from ..cards import EMPTY, HAZARD, MULLIGAN, a_card, face_text
from ..compiled import CompiledRules, set_pile
from ..errors import IllegalMove, PileError, quoted
from ..moves import Discard, Draw, Place, piles_text
from ..state import Phase, State
from .checks import _check_actor, _listed, _played, check_slot
from .hazards import _own_flip, owed_flips
from .knowledge import place_down, played_up
from .lines import _all_empty, _empty_slot, remove_lines
from .powers import offer_power
from .round_end import finish_turn

# Final: compiled, a Final name is a C static, not a lookup in the module's dict.
_DRAW: Final = Phase.DRAW
_PLACE: Final = Phase.PLACE
_BOUNCE: Final = Phase.BOUNCE
_RESHUFFLE: Final = Phase.RESHUFFLE
_FLIP: Final = Phase.FLIP


def _draw(rules: CompiledRules, state: State, move: Draw) -> State:
    loose: Any = move  # see _reveal
    player: object = loose.player
    if not (state.phase is _DRAW and type(player) is int and player == state.turn):
        _check_actor(state, move, _DRAW)
    deck, piles = state.draw_pile, state.discard_piles
    pile: object = loose.pile
    if pile is None:
        if not deck:
            raise IllegalMove(
                "empty-pile", "4.1", "the draw pile is empty: take the top of a discard pile"
            )
        rest = deck[1:]
        phase = _PLACE
        if not rest and rules.reshuffle and any(len(below) > 1 for below in piles):
            phase = _RESHUFFLE
        return State(
            state.first_player, state.round, phase, state.turn, state.cards, state.face_up,
            rest, piles, state.removed, deck[0], False, 0, False, state.flips_owed,
            state.went_out, state.scores,
            state.extras,
        )  # fmt: skip
    if type(pile) is not int or not 0 <= pile < rules.piles:
        raise PileError(
            "wrong-pile", "4.1", f"pile {quoted(pile)} does not exist ({piles_text(rules.piles)})"
        )
    source = piles[pile]
    if not source:
        raise IllegalMove("empty-pile", "4.1", f"discard pile {pile} is empty")
    piles = set_pile(piles, pile, source[:-1])
    return State(
        state.first_player, state.round, _PLACE, state.turn, state.cards, state.face_up, deck,
        piles, state.removed, source[-1], True, 0, False, state.flips_owed, state.went_out,
        state.scores,
        state.extras,
    )  # fmt: skip


def _place(rules: CompiledRules, state: State, move: Place) -> State:
    loose: Any = move  # see _reveal
    player: object = loose.player
    if not (state.phase is _PLACE and type(player) is int and player == state.turn):
        _check_actor(state, move, _PLACE)
    seat = state.turn  # the player, checked above
    slot: object = loose.slot
    if type(slot) is not int or not 0 <= slot < rules.slots:
        slot = check_slot(rules, slot, "4.2")
    cards, face_up, piles, held = state.cards, state.face_up, state.discard_piles, state.held
    assert held is not None
    layout, up = cards[seat], face_up[seat]
    bit = 1 << slot
    remove = rules.remove_lines  # (read once: rule 10.6 off costs one read a move)
    if remove and layout[slot] == EMPTY:
        raise _empty_slot(seat, slot, "4.2")
    if rules.placed_down:  # rule 11.3: the card lies face down, known to its placer
        return place_down(rules, state, seat, slot)
    if held == MULLIGAN and not (up & bit and layout[slot] == MULLIGAN):
        count = sum(1 for s, card in enumerate(layout) if card == MULLIGAN and up >> s & 1)
        if count + 1 > rules.max_mulligans:
            raise IllegalMove(
                "mulligan-limit",
                "7.2",
                f"a mulligan in slot {slot} would make {count + 1} face-up mulligans in "
                f"seat {seat}'s layout; the limit is {rules.max_mulligans}",
            )
    cards, face_up = _played(cards, face_up, seat, slot, held)
    if remove:
        cards, piles = remove_lines(rules, cards, face_up, piles, seat)
    played = State(
        state.first_player, state.round, _BOUNCE, seat, cards, face_up, state.draw_pile, piles,
        state.removed, layout[slot], False, bit, not (up & bit), state.flips_owed,
        state.went_out, state.scores,
        state.extras,
    )  # fmt: skip
    return played_up(played, seat, slot) if rules.knowledge else played  # (rule 11.1)


def _discard(rules: CompiledRules, state: State, move: Discard) -> State:
    phase = state.phase
    loose: Any = move  # see _reveal
    player: object = loose.player
    if not ((phase is _BOUNCE or phase is _PLACE) and type(player) is int and player == state.turn):
        _check_actor(state, move, _PLACE, _BOUNCE)
    if (
        phase is _PLACE
        and state.taken_from_discard
        and rules.taken_must_be_played
        and not (rules.remove_lines and _all_empty(state.cards[state.turn]))  # (10.6)
    ):
        raise IllegalMove(
            "must-play-taken-card",
            "4.5",
            f"the {face_text(state.held)} taken from a discard pile must be played into a slot",
        )
    held = state.held
    pile: object = loose.pile
    piles = state.discard_piles
    if held == HAZARD:
        if pile is not None:
            raise PileError(
                "wrong-pile", "6.1", "a hazard leaves the game: its discard names no pile"
            )
        removed = (*state.removed, HAZARD)
        owed = owed_flips(rules, state, state.turn)
        if rules.flip_after_deck_discard and phase is _PLACE and not state.taken_from_discard:
            owed = _own_flip(state) + owed  # rule 10.7 and 10.13: the owner flips first
        if owed:
            return State(
                state.first_player, state.round, _FLIP, state.turn, state.cards, state.face_up,
                state.draw_pile, piles, removed, None, state.taken_from_discard, 0, False, owed,
                state.went_out, state.scores,
                state.extras,
            )  # fmt: skip
        return finish_turn(rules, state, state.face_up, piles, removed)
    if type(pile) is not int or not 0 <= pile < rules.piles:
        if pile is None:
            raise PileError("wrong-pile", "4.4", f"the discard of {a_card(held)} must name a pile")
        raise PileError(
            "wrong-pile", "4.4", f"pile {quoted(pile)} does not exist ({piles_text(rules.piles)})"
        )
    top = piles[pile]
    if top and () in piles:  # some pile is empty (``all``, a builtin, is looked up per call)
        empty = [index for index, other in enumerate(piles) if not other]
        which = (
            f"discard pile {empty[0]} is empty: the discard must start it again"
            if len(empty) == 1
            else f"discard piles {_listed(empty)} are empty: the discard must start one again"
        )
        raise IllegalMove("must-use-empty-pile", "4.4", which)
    assert held is not None
    piles = set_pile(piles, pile, top + (held,))  # noqa: RUF005 (concatenation: faster)
    if rules.knowledge and phase is _PLACE and not state.taken_from_discard and rules.powers:
        offered = offer_power(rules, state, piles)  # rule 11.4: the discarded card's power
        if offered is not None:
            return offered
    if rules.flip_after_deck_discard and phase is _PLACE and not state.taken_from_discard:
        own = _own_flip(state)  # rule 10.7: a drawn card discarded unplayed owes a flip
        if own:
            return State(
                state.first_player, state.round, _FLIP, state.turn, state.cards, state.face_up,
                state.draw_pile, piles, state.removed, None, state.taken_from_discard, 0, False,
                own, state.went_out, state.scores,
                state.extras,
            )  # fmt: skip
    return finish_turn(rules, state, state.face_up, piles, state.removed)


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
