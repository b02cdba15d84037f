"""Cards of Gnoming A Round, written by their face (RULES 1.3).

A number card is the plain ``int`` on it (``7``, ``-3``); the two special cards are the
strings ``"H"`` (hazard) and ``"M"`` (mulligan). Two cards with the same face are
interchangeable, so a face *is* the card: no wrapper object, which keeps layouts and
piles as plain tuples that compare, hash and serialise for free.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, TypeAlias, TypeGuard

from .errors import integer_text

HAZARD: Final[Literal["H"]] = "H"
MULLIGAN: Final[Literal["M"]] = "M"

Face: TypeAlias = int | Literal["H", "M"]
"""A card, written by its face."""

HIDDEN: Final = 0
"""A stand-in for a card nobody sees (a view's face-down card, the draw pile's order): ``0``
is no card (:func:`is_face` is false), so it is never mistaken for one, and the engine
never reads it to decide a move (``gnoming_rules.play.observation.stand_in``)."""


def is_face(value: object) -> TypeGuard[Face]:
    """True for a card face: a non-zero ``int`` (not a bool), ``"H"`` or ``"M"``."""
    if type(value) is int:
        return value != 0
    return value in (HAZARD, MULLIGAN)


def is_positive(card: Face) -> bool:
    """True for a positive number card: the only kind that can form sets and bounce."""
    return type(card) is int and card > 0


def face_from_text(text: str) -> Face:
    """Read a face as a person types it: ``"7"``, ``"-2"``, ``"H"``, ``"m"``.

    Raises ``ValueError`` with a one-line message for anything else.
    """
    word = text.strip()
    if word.upper() in (HAZARD, MULLIGAN):
        return HAZARD if word.upper() == HAZARD else MULLIGAN
    try:
        value = int(word)
    except ValueError:
        raise ValueError(f"{text!r} is not a card: write a non-zero number, H or M") from None
    if value == 0:
        raise ValueError("0 is not a card: number cards are positive or negative")
    return value


def face_text(card: Face | None) -> str:
    """The face as printed in messages and drawings (``7``, ``-3``, ``H``, ``M``, ``-``)."""
    if card is None:
        return "-"
    return card if isinstance(card, str) else integer_text(card)


def a_card(card: Face | None) -> str:
    """The card with its article, as a sentence names it: ``a 7``, ``an 8``, ``an 11``,
    ``an 18``, ``an 80``, ``a -3`` (minus three), ``a hazard (H)``, ``a mulligan (M)``."""
    if card == HAZARD:
        return "a hazard (H)"
    if card == MULLIGAN:
        return "a mulligan (M)"
    text = face_text(card)
    return f"{'an' if _starts_with_a_vowel_sound(text) else 'a'} {text}"


def _starts_with_a_vowel_sound(number: str) -> bool:
    """Whether a number written in digits is read starting with a vowel: eight, eighteen,
    eighty, eight hundred, eleven (thousand, million...)."""
    if not number.isdigit():  # negative ("minus"), or not a number at all ("-")
        return False
    lead = number[: len(number) % 3 or 3]  # the group read first: 11 in 11000
    return lead.startswith("8") or lead in ("11", "18")


def face_sort_key(card: Face) -> tuple[int, int]:
    """Orders faces: numbers ascending, then hazards, then mulligans (stable for output)."""
    if type(card) is int:
        return (0, card)
    return (1, 0) if card == HAZARD else (2, 0)


def sorted_faces(cards: Iterable[Face]) -> list[Face]:
    """The cards in :func:`face_sort_key` order: a canonical form of a multiset of cards."""
    return sorted(cards, key=face_sort_key)


__all__ = [
    "HAZARD",
    "MULLIGAN",
    "Face",
    "face_from_text",
    "face_text",
    "is_face",
    "is_positive",
]
