"""Moves as the record format (docs/record-format.md) writes them: one entry of a
round's ``moves``, a plain dict.

``move_to_entry(Draw(2, 1), card=7)`` gives
``{"action": "draw", "player": 2, "source": "discard", "pile": 1, "card": 7}`` and
``move_from_entry`` reads such a dict back into the engine's move. A server that takes
moves as JSON, or a tool that edits records, uses these two instead of its own mapping;
the :class:`~gnoming_rules.play.recorder.Recorder` writes its entries with
:func:`move_to_entry` and :func:`card_claim`.

:func:`move_from_entry` checks an entry as the record format does: the action, the
fields each action takes (nothing else), integers that are integers, a ``pile`` of 0 or
1 that a draw from the discard names and a draw from the deck does not, and a ``card``
that is a card face. Anything else raises :class:`~gnoming_rules.core.errors.RecordError`
(``bad-record``) whose message starts with the field. What the rules decide (whose move
it is, a slot outside the layout: ``bad-slot``) is left to the engine, as in a record.
A ``card`` claim is checked for form but is not part of the move: compare it with
:func:`card_claim` after applying the move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core.cards import Face
from ..core.errors import RecordError
from ..core.moves import (
    PLAYER_MOVE_TYPES,
    Bounce,
    Deal,
    Discard,
    Draw,
    Flip,
    Move,
    Place,
    PlayerMove,
    Reshuffle,
    Reveal,
)
from ..core.state import State
from .fields import FieldReader

__all__ = ["card_claim", "move_from_entry", "move_to_entry"]

_FIELDS: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "reveal": (("player", "slot"), ("card",)),
    "draw": (("player", "source"), ("pile", "card")),
    "place": (("player", "slot"), ("card",)),
    "bounce": (("player", "slot"), ("card",)),
    "discard": (("player",), ("pile",)),
    "flip": (("player", "slot"), ("card",)),
    "reshuffle": (("cards",), ()),
}
"""Per action: (required fields, optional fields), besides ``action``
(docs/record-format.md, Moves)."""

_SLOT_MOVES: Final[dict[str, type[Reveal | Place | Bounce | Flip]]] = {
    "reveal": Reveal,
    "place": Place,
    "bounce": Bounce,
    "flip": Flip,
}


def move_to_entry(move: PlayerMove | Reshuffle, card: Face | None = None) -> dict[str, Any]:
    """The record entry of ``move``; ``card``, when given, is written as its ``card`` claim.

    A ``discard`` and a ``reshuffle`` carry no claim, and a deal is a round's ``deal``
    field, not an entry: those raise ``ValueError``.
    """
    if isinstance(move, Deal):
        raise ValueError("a deal is written as its round's deal field, not as a move entry")
    if not isinstance(move, (*PLAYER_MOVE_TYPES, Reshuffle)):
        raise TypeError(f"not a move: {move!r}")
    if isinstance(move, Reshuffle | Discard) and card is not None:
        raise ValueError(f"a {move.action} carries no card claim")
    if isinstance(move, Reshuffle):
        return {"action": "reshuffle", "cards": list(move.cards)}
    entry: dict[str, Any] = {"action": move.action, "player": move.player}
    if isinstance(move, Draw):
        entry["source"] = move.source
        if move.pile is not None:
            entry["pile"] = move.pile
    elif isinstance(move, Discard):
        if move.pile is not None:
            entry["pile"] = move.pile
    else:
        entry["slot"] = move.slot
    if card is not None:
        entry["card"] = card
    return entry


def card_claim(move: Move, after: State) -> Face | None:
    """The card the table saw by ``move``, read from the state ``after`` it (the ``card``
    a record writes: docs/decisions.md, record reading 1): the card drawn, the card a
    place or bounce displaced, the card a reveal or flip turned up; ``None`` otherwise."""
    if isinstance(move, Draw | Place | Bounce):
        return after.held
    if isinstance(move, Reveal | Flip):
        return after.cards[move.player][move.slot]
    return None


def move_from_entry(entry: Mapping[str, Any], players: int | None = None) -> PlayerMove | Reshuffle:
    """The engine's move for a record entry; ``players``, when given, bounds ``player``.

    Raises :class:`~gnoming_rules.core.errors.RecordError` (``bad-record``) naming the field
    when the entry is not a move entry of the record format.
    """
    read = FieldReader(lambda message: RecordError("bad-record", message))
    if not isinstance(entry, Mapping):
        read.fail("", f"a move entry must be a mapping, got {type(entry).__name__}")
    if "action" not in entry:
        read.fail("action", "missing")
    action = read.choice(entry["action"], "action", tuple(_FIELDS))
    required, optional = _FIELDS[action]
    read.mapping(entry, "", ("action", *required), optional)
    if action == "reshuffle":
        return Reshuffle(read.faces(entry["cards"], "cards"))
    high = None if players is None else players - 1
    player = read.integer(entry["player"], "player", 0, high)
    read.optional_face(entry.get("card"), "card")
    if action == "draw":
        source = read.choice(entry["source"], "source", ("deck", "discard"))
        pile = read.optional_integer(entry.get("pile"), "pile", 0, 1)
        if source == "deck" and pile is not None:
            read.fail("pile", "a draw from the deck names no pile")
        if source == "discard" and pile is None:
            read.fail("pile", "a draw from the discard must name its pile, 0 or 1")
        return Draw(player, pile)
    if action == "discard":
        return Discard(player, read.optional_integer(entry.get("pile"), "pile", 0, 1))
    return _SLOT_MOVES[action](player, read.integer(entry["slot"], "slot"))
