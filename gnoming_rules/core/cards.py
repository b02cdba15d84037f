"""Cards of Gnoming A Round, written by their face (rule 1.3).

A number card is the plain ``int`` on it (``7``, ``-3``); the two special cards are the
strings ``"H"`` (hazard) and ``"M"`` (mulligan). Two cards with the same face are
interchangeable, so a face *is* the card: no wrapper object, which keeps layouts and
piles as plain tuples that compare, hash and serialise for free.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final, Literal, TypeAlias, TypeGuard

from .errors import integer_text

HAZARD: Final[Literal["H"]] = "H"
MULLIGAN: Final[Literal["M"]] = "M"

Face: TypeAlias = int | str
"""A card, written by its face: an ``int`` (0 included), ``"H"``, ``"M"`` or a name
(rule 10.1)."""

FACE_NAME: Final = re.compile("[A-Z][A-Z0-9]{0,2}")
"""A named face (rule 10.1): 1 to 3 uppercase letters and digits, starting with a letter;
``H`` and ``M`` are the hazard's and the mulligan's."""

_NUMBER = re.compile("[-+]?[0-9]+")
HIDDEN: Final = "?"
"""A stand-in for a card nobody sees (a view's face-down card, the draw pile's order):
``"?"`` is no card (:func:`is_face` is false), so it is never mistaken for one, and the
engine never reads it to decide a move (``gnoming_rules.play.observation.stand_in``)."""
EMPTY: Final = "."
"""What an empty slot holds (rule 10.6: its line left the layout under ``sets.score:
remove``). ``"."`` is no card (:func:`is_face` is false); its slot's face-up bit is set, so
that it counts neither as face down (hazard flips, 10.7, going out) nor, matching no
card, as a face-up card for bouncing. Records and views write it ``null``."""


def is_face(value: object) -> TypeGuard[Face]:
    """True for a card face: an ``int`` (not a bool; 0 included, rule 10.1), ``"H"``,
    ``"M"`` or a face name (``"K"``, ``"JK"``)."""
    if type(value) is int:
        return True
    return isinstance(value, str) and FACE_NAME.fullmatch(value) is not None


def is_positive(card: Face) -> bool:
    """True for a positive integer face (under the standard rules, the only cards that form
    sets and bounce; a ruleset's values decide it for other faces, rule 10.1)."""
    return type(card) is int and card > 0


def face_from_text(text: str) -> Face:
    """Read a face as a person types it: ``"7"``, ``"-2"``, ``"0"``, ``"H"``, ``"m"``,
    ``"k"`` (a named face, rule 10.1).

    Raises ``ValueError`` with a one-line message for anything else.
    """
    word = text.strip(" \t")
    if FACE_NAME.fullmatch(word.upper()):
        return word.upper()
    if not _NUMBER.fullmatch(word):  # ASCII digits only: int() reads any Unicode digit
        raise ValueError(f"{text!r} is not a card: write a number, H, M or a face name (K)")
    return int(word)


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
    if card == EMPTY:
        return "an empty slot"
    text = face_text(card)
    if isinstance(card, str):  # a named face, read by its first letter: an A, a K, an F
        return f"{'an' if card[0] in 'AEFILNORSX' else 'a'} {text}"
    return f"{'an' if _starts_with_a_vowel_sound(text) else 'a'} {text}"


def _starts_with_a_vowel_sound(number: str) -> bool:
    """Whether a number written in digits is read starting with a vowel: eight, eighteen,
    eighty, eight hundred, eleven (thousand, million...)."""
    if not number.isdigit():  # negative ("minus"), or not a number at all ("-")
        return False
    lead = number[: len(number) % 3 or 3]  # the group read first: 11 in 11000
    return lead.startswith("8") or lead in ("11", "18")


def face_sort_key(card: Face) -> tuple[int, int, str]:
    """Orders faces: numbers ascending, then names (alphabetically), then hazards, then
    mulligans (stable for output)."""
    if type(card) is int:
        return (0, card, "")
    if card == HAZARD:
        return (2, 0, "")
    if card == MULLIGAN:
        return (3, 0, "")
    return (1, 0, str(card))


def sorted_faces(cards: Iterable[Face]) -> list[Face]:
    """The cards in :func:`face_sort_key` order: a canonical form of a multiset of cards."""
    return sorted(cards, key=face_sort_key)


__all__ = [
    "EMPTY",
    "FACE_NAME",
    "HAZARD",
    "MULLIGAN",
    "Face",
    "face_from_text",
    "face_text",
    "is_face",
    "is_positive",
]
