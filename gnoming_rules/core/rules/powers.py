"""Card powers (rule 11.4, readings 11.7-11.8) and the ``peek`` move (setup peeks, 11.2).

A card drawn from the draw pile and discarded unplayed whose face has a power opens phase
``POWER`` (:func:`offer_power`) when the power can be used; the moves ``peek``, ``swap``
and ``pass`` answer it. After the power, 10.7's flip if owed, then the turn ends.
"""

from __future__ import annotations

from typing import Any, Final

from ..cards import EMPTY
from ..compiled import CompiledRules
from ..errors import IllegalMove, quoted
from ..moves import Pass, Peek, PlayerMove, Swap
from ..state import Extras, Phase, State
from .checks import _check_actor, _check_face_down, check_slot
from .knowledge import has_face_down, learned, setup_peek
from .lines import remove_lines
from .round_end import finish_turn
from .setup import _begin_turn

_PEEK: Final = Phase.PEEK
_POWER: Final = Phase.POWER
_FLIP: Final = Phase.FLIP

PEEKS: Final = frozenset({"peek_own", "peek_other", "look_and_swap"})
"""The powers whose move is a ``peek``."""
SWAPS: Final = frozenset({"swap_blind", "swap"})
"""The powers whose move is a ``swap`` (``swap``: the one after look_and_swap's look)."""


def _has_card(state: State, seat: int) -> bool:
    """``seat``'s layout holds a card (under 10.6 its slots may all be empty)."""
    return any(card != EMPTY for card in state.cards[seat])


def usable(state: State, power: str, seat: int) -> bool:
    """Whether ``seat`` can use ``power`` now: some card fits (reading 11.8's "no card
    fits": peek_own needs an own face-down card, peek_other another seat's, look_and_swap
    a card of another seat, swap_blind a card on both sides)."""
    others = [other for other in range(len(state.face_up)) if other != seat]
    if power == "peek_own":
        return has_face_down(state, seat)
    if power == "peek_other":
        return any(has_face_down(state, other) for other in others)
    if power == "look_and_swap":
        return any(_has_card(state, other) for other in others)
    return _has_card(state, seat) and any(_has_card(state, other) for other in others)


def offer_power(
    rules: CompiledRules, state: State, piles: tuple[tuple[object, ...], ...]
) -> State | None:
    """Phase ``POWER`` after the seat in turn discarded the card it drew from the draw pile
    unplayed (``state`` is the state before the discard, ``piles`` the piles after it),
    when that card's face has a power that can be used; else ``None`` (11.7: a power that
    cannot be used is skipped, the turn ends at the discard)."""
    power = rules.powers.get(state.held)  # type: ignore[arg-type]
    if power is None or not usable(state, power, state.turn):
        return None
    return State(
        state.first_player, state.round, _POWER, state.turn, state.cards, state.face_up,
        state.draw_pile, piles, state.removed, None, False, 0, False, (),  # type: ignore[arg-type]
        state.went_out, state.scores,
        Extras(state.known, state.peeks, power, None, state.turns),
    )  # fmt: skip


def _end_power(
    rules: CompiledRules,
    state: State,
    cards: tuple[tuple[Any, ...], ...],
    face_up: tuple[int, ...],
    known: tuple[tuple[int, ...], ...],
) -> State:
    """After the power (11.4): 10.7's flip if the player still has a face-down card (11.8
    "Powers and 10.7"), else the end of the turn."""
    after = State(
        state.first_player, state.round, _POWER, state.turn, cards, face_up,
        state.draw_pile, state.discard_piles, state.removed, None, False, 0, False, (),
        state.went_out, state.scores,
        Extras(known, state.peeks, None, None, state.turns),
    )  # fmt: skip
    if rules.flip_after_deck_discard and after.face_down_count(after.turn):
        return State(
            after.first_player, after.round, _FLIP, after.turn, cards, face_up,
            after.draw_pile, after.discard_piles, after.removed, None, False, 0, False,
            (after.turn,), after.went_out, after.scores,
            Extras(known, after.peeks, None, None, after.turns),
        )  # fmt: skip
    return finish_turn(rules, after, face_up, after.discard_piles, after.removed)


def _refuse(rule: str, message: str, code: str = "wrong-phase") -> IllegalMove:
    return IllegalMove(code, rule, message)  # type: ignore[arg-type]


def _target_seat(state: State, target: object, seat: int, rule: str) -> int:
    """The seat a move's ``target`` names (``None``: the player's own), or ``bad-slot``."""
    if target is None:
        return seat
    if type(target) is not int or not 0 <= target < len(state.face_up):
        raise _refuse(
            rule,
            f"seat {quoted(target)} is not at the table (seats 0 to {len(state.face_up) - 1})",
            "bad-slot",
        )
    return target


def _peek(rules: CompiledRules, state: State, move: Peek) -> State:
    """A setup peek (11.2), or the move of ``peek_own``, ``peek_other`` or the look of
    ``look_and_swap`` (11.4)."""
    loose: Any = move  # see setup._reveal: fields are any object until checked
    player: object = loose.player
    phase = state.phase
    if not ((phase is _PEEK or phase is _POWER) and type(player) is int and player == state.turn):
        _check_actor(state, move, _PEEK, _POWER)
    seat = state.turn
    power = state.power
    if phase is _POWER and power not in PEEKS:
        raise _refuse(
            "11.4",
            f"peek refused: seat {seat} must swap or pass (the power open is {power}), not peek",
        )
    rule = "11.2" if phase is _PEEK else "11.4"
    slot = check_slot(rules, loose.slot, rule)
    whose = _target_seat(state, loose.target, seat, rule)
    if phase is _PEEK or power == "peek_own":
        if whose != seat:
            what = "a setup peek" if phase is _PEEK else "peek_own"
            raise _refuse(
                rule,
                f"{what} looks at one of seat {seat}'s own cards, not at seat {whose}'s",
                "bad-slot",
            )
    elif whose == seat:
        raise _refuse(
            rule, f"{power} looks at another seat's card, not at seat {seat}'s own", "bad-slot"
        )
    if power == "look_and_swap":
        if state.cards[whose][slot] == EMPTY:
            raise _refuse(rule, f"seat {whose}'s slot {slot} is empty (10.6)", "bad-slot")
    else:
        _check_face_down(state, whose, slot, rule)
    known = state.known
    if not state.face_up[whose] >> slot & 1:
        known = learned(known, seat, whose, slot)
    if phase is _PEEK:
        after, done = setup_peek(rules, state, slot)
        return _begin_turn(rules, after, after.turn) if done else after
    if power == "look_and_swap":
        return State(
            state.first_player, state.round, _POWER, seat, state.cards, state.face_up,
            state.draw_pile, state.discard_piles, state.removed, None, False, 0, False, (),
            state.went_out, state.scores,
            Extras(known, state.peeks, "swap", (whose, slot), state.turns),
        )  # fmt: skip
    return _end_power(rules, state, state.cards, state.face_up, known)


def _swap(rules: CompiledRules, state: State, move: Swap) -> State:
    """The move of ``swap_blind``, or the swap after ``look_and_swap``'s look (11.4, 11.8
    "Swaps"): the two cards change places with their face-up bits and their knowers."""
    loose: Any = move  # see setup._reveal
    player: object = loose.player
    if not (state.phase is _POWER and type(player) is int and player == state.turn):
        _check_actor(state, move, _POWER)
    seat = state.turn
    power = state.power
    if power not in SWAPS:
        raise _refuse(
            "11.4", f"swap refused: seat {seat} must peek or pass (the power open is {power})"
        )
    slot = check_slot(rules, loose.slot, "11.4")
    target = loose.target
    if target is None or (type(target) is int and target == seat):
        raise _refuse(
            "11.4", f"a swap takes one card of seat {seat}'s and one of another seat's", "bad-slot"
        )
    other = _target_seat(state, target, seat, "11.4")
    their = check_slot(rules, loose.target_slot, "11.4")
    looked = state.looked
    if power == "swap" and looked is not None and (other, their) != looked:
        raise _refuse(
            "11.4",
            f"the swap after look_and_swap takes the card looked at, seat {looked[0]}'s "
            f"slot {looked[1]}, not seat {other}'s slot {their}",
            "bad-slot",
        )
    cards = list(state.cards)
    mine, theirs = list(cards[seat]), list(cards[other])
    for who, where, row in ((seat, slot, mine), (other, their, theirs)):
        if row[where] == EMPTY:
            raise _refuse("11.4", f"seat {who}'s slot {where} is empty (10.6)", "bad-slot")
    mine[slot], theirs[their] = theirs[their], mine[slot]
    cards[seat], cards[other] = tuple(mine), tuple(theirs)
    ups = list(state.face_up)
    mine_up, their_up = ups[seat] >> slot & 1, ups[other] >> their & 1
    ups[seat] = ups[seat] & ~(1 << slot) | their_up << slot
    ups[other] = ups[other] & ~(1 << their) | mine_up << their
    known = list(state.known)
    mine_known, their_known = list(known[seat]), list(known[other])
    mine_known[slot], their_known[their] = their_known[their], mine_known[slot]
    known[seat], known[other] = tuple(mine_known), tuple(their_known)
    layouts, face_up = tuple(cards), tuple(ups)
    if rules.remove_lines:  # 11.8 "Swaps": the swapper's layout first, then the other's
        piles = state.discard_piles
        layouts, piles = remove_lines(rules, layouts, face_up, piles, seat)
        layouts, piles = remove_lines(rules, layouts, face_up, piles, other)
        state = state.replace(discard_piles=piles)
    return _end_power(rules, state, layouts, face_up, tuple(known))


def _pass(rules: CompiledRules, state: State, move: Pass) -> State:
    """Declining the power offered now, or the swap after ``look_and_swap``'s look (11.8
    "Declining"); under ``powers_optional: false`` the power itself cannot be declined."""
    loose: Any = move  # see setup._reveal
    player: object = loose.player
    if not (state.phase is _POWER and type(player) is int and player == state.turn):
        _check_actor(state, move, _POWER)
    if state.power != "swap" and not rules.powers_optional:
        raise _refuse(
            "11.4",
            f"pass refused: seat {state.turn} must use the power {state.power} "
            "(powers_optional is false)",
        )
    return _end_power(rules, state, state.cards, state.face_up, state.known)


def knowledge_moves(rules: CompiledRules, state: State) -> tuple[PlayerMove, ...]:
    """The legal moves of phases ``PEEK`` and ``POWER``, in this order: peeks by target
    seat then slot ascending (own slots for a setup peek and peek_own); swaps by own slot,
    then target seat, then target slot ascending; ``pass`` last, where allowed."""
    seat = state.turn
    players = len(state.face_up)
    slots = range(rules.slots)
    cards, face_up = state.cards, state.face_up
    power = state.power
    if state.phase is _PEEK or power == "peek_own":
        up = face_up[seat]
        moves: list[PlayerMove] = [Peek(seat, s) for s in slots if not up >> s & 1]
    elif power in ("peek_other", "look_and_swap"):
        looks = power == "look_and_swap"  # at any card; peek_other at a face-down one
        moves = [
            Peek(seat, s, t)
            for t in range(players)
            if t != seat
            for s in slots
            if (cards[t][s] != EMPTY if looks else not face_up[t] >> s & 1)
        ]
    elif power == "swap":
        looked = state.looked
        assert looked is not None
        moves = [Swap(seat, s, looked[0], looked[1]) for s in slots if cards[seat][s] != EMPTY]
    else:  # swap_blind
        moves = [
            Swap(seat, s, t, ts)
            for s in slots
            if cards[seat][s] != EMPTY
            for t in range(players)
            if t != seat
            for ts in slots
            if cards[t][ts] != EMPTY
        ]
    if state.phase is _POWER and (power == "swap" or rules.powers_optional):
        moves.append(Pass(seat))
    return tuple(moves)


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
