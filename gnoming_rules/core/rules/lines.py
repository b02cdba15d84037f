"""Complete lines leave the layout (rules 10.6, 10.13): the removal, and the empty slots it
leaves, which take no card."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import EMPTY, Face
from ..compiled import CompiledRules, set_pile
from ..errors import IllegalMove
from ..scoring import keyed_set


def empty_mask(layout: Sequence[Face]) -> int:
    """The slots of ``layout`` that are empty (rule 10.6), as a bit mask.

    One of the engine's rule steps (not in ``__all__``).
    """
    mask = 0
    for slot, card in enumerate(layout):
        if card == EMPTY:
            mask |= 1 << slot
    return mask


def _all_empty(layout: Sequence[Face]) -> bool:
    """Every slot of ``layout`` is empty (rule 10.6): no slot can take a card."""
    return all(card == EMPTY for card in layout)


def _empty_slot(seat: int, slot: int, rule: str) -> IllegalMove:
    return IllegalMove("bad-slot", rule, f"seat {seat}'s slot {slot} is empty (10.6)")


def remove_lines(
    rules: CompiledRules,
    cards: tuple[tuple[Face, ...], ...],
    face_up: tuple[int, ...],
    piles: tuple[tuple[Face, ...], ...],
    seat: int,
) -> tuple[tuple[tuple[Face, ...], ...], tuple[tuple[Face, ...], ...]]:
    """The layouts and discard piles once ``seat``'s complete lines have left (rules 10.6,
    10.13): every line all face up and a set with no mulligan wild is found first; then,
    by lowest slot (row, column, diagonal), each one's cards not yet gone go face up on
    discard pile 0 in slot order and their slots become empty. ``cards`` and ``piles``
    themselves when no line is complete.

    One of the engine's rule steps (not in ``__all__``).
    """
    layout = cards[seat]
    up = face_up[seat]
    complete = [
        line
        for line in rules.removal_order
        if up & line.mask == line.mask and keyed_set(rules, line, layout, 0) is not None
    ]
    if not complete:
        return cards, piles
    left = list(layout)
    pile = list(piles[0])
    for line in complete:
        for slot in line.slots:
            if left[slot] != EMPTY:  # a card in two complete lines leaves with the first
                pile.append(left[slot])
                left[slot] = EMPTY
    seats = list(cards)
    seats[seat] = tuple(left)
    return tuple(seats), set_pile(piles, 0, tuple(pile))


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
