"""The record notation of moves: one entry of a round's ``moves`` (docs/record-format.md),
a plain dict.

The move layer owns its notation, as ``chess`` hands SAN to ``Board.parse_san``: this is
the one place that reads an entry into a move and writes a move as an entry, that says
which card a move shows the table (its ``card`` claim), and what a move means when the
notation lets it say more than the move (:func:`played_move`: a hazard's discard that
names a pile). An entry's *form* (its fields and their types) is declared once, in
:mod:`~gnoming_rules.core.entry_forms`, which the record's models are made of; a server
that takes moves as JSON, or a tool that edits records, reads them with the same
functions, and gets the same words for the same problem.

``move_to_entry(Draw(2, 1), card=7)`` gives
``{"action": "draw", "player": 2, "source": "discard", "pile": 1, "card": 7}``;
:func:`move_from_entry` reads such a dict back, checking it as the record format does
(the action, exactly the fields it takes, integers that are integers, a ``pile`` that a
draw from the discard names and a draw from the deck does not, a ``card`` that is a card
face): anything else raises :class:`~gnoming_rules.core.errors.RecordError`
(``bad-record``) whose message starts with the field. What the rules decide (whose move
it is, a slot outside the layout: ``bad-slot``) is left to the engine, as in a record.
:func:`read_entry` is the same reading for an entry whose form is already checked, and
returns the claimed card beside the move; compare it with :func:`card_claim` after
applying the move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple, TypeAlias

from .cards import EMPTY, HAZARD, Face
from .compiled import CompiledRules
from .entry_forms import checked_entry
from .errors import RecordError
from .moves import (
    PLAYER_MOVE_TYPES,
    Bounce,
    Deal,
    Discard,
    Draw,
    Flip,
    Knock,
    Move,
    Pass,
    Peek,
    Place,
    PlayerMove,
    Reshuffle,
    Reveal,
    Swap,
    piles_text,
)
from .state import State

__all__ = [
    "CLAIM_VERBS",
    "Malformed",
    "MoveTable",
    "card_claim",
    "move_from_entry",
    "move_to_entry",
    "played_move",
    "read_entry",
    "read_move",
    "step_from_entry",
    "step_to_entry",
]

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

    Example::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.core import move_to_entry
        >>> move_to_entry(gr.Draw(0, 1), card=7)
        {'action': 'draw', 'player': 0, 'source': 'discard', 'pile': 1, 'card': 7}
        >>> move_to_entry(gr.Place(2, 4))
        {'action': 'place', 'player': 2, 'slot': 4}
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
    elif isinstance(move, Swap):
        entry.update(slot=move.slot, target=move.target, target_slot=move.target_slot)
    elif isinstance(move, Peek):
        entry["slot"] = move.slot
        if move.target is not None:
            entry["target"] = move.target
    elif not isinstance(move, Pass | Knock):
        entry["slot"] = move.slot
    if card is not None:
        entry["card"] = card
    return entry


def step_to_entry(move: Move, *, public: bool = False) -> dict[str, Any]:
    """Any move of a game as one entry, chance events included: the one notation of a deal
    as an entry, ``{"action": "deal", "cards": [...]}`` (a reshuffle's form; a record
    writes a deal as its round's ``deal`` field instead), and every other move as
    :func:`move_to_entry` writes it, without a card claim. ``public`` leaves a deal's or a
    reshuffle's cards out: what the whole table sees of it (a public record's reshuffle
    names none). :func:`step_from_entry` reads it back.

    Example::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.core.entries import step_to_entry
        >>> step_to_entry(gr.Deal((3, 1, 2)))
        {'action': 'deal', 'cards': [3, 1, 2]}
        >>> step_to_entry(gr.Deal((3, 1, 2)), public=True)
        {'action': 'deal'}
    """
    if isinstance(move, (Deal, Reshuffle)):
        if public:
            return {"action": move.action}
        return {"action": move.action, "cards": list(move.cards)}
    return move_to_entry(move)


def step_from_entry(
    entry: Mapping[str, Any], players: int | None = None, *, piles: int = 2
) -> Move:
    """The move of a :func:`step_to_entry` entry: a deal's (its cards as they are, for the
    engine to judge, as a record's ``deal``), else :func:`move_from_entry`'s, which raises
    :class:`~gnoming_rules.core.errors.RecordError` (``bad-record``) naming the field."""
    if entry.get("action") == "deal":
        cards = entry.get("cards")
        if not isinstance(cards, list):
            raise RecordError("bad-record", "cards: a deal's entry lists its cards")
        extra = sorted(set(entry) - {"action", "cards"})
        if extra:
            raise RecordError("bad-record", f"{extra[0]}: a deal's entry has no such field")
        return Deal(tuple(cards))
    return move_from_entry(entry, players, piles=piles)


_SHOWS_HELD: Final = frozenset({Draw, Place, Bounce})
_SHOWS_SLOT: Final = frozenset({Reveal, Flip})
"""The moves whose card is the one then held, and those whose card is in their slot: one
set lookup where comparing with each class would look each name up (compiled, a class of
a module that is not compiled is read from the module's dict at every use)."""


def card_claim(move: Move, after: State, before: State | None = None) -> Face | None:
    """The card the table saw by ``move``, read from the state ``after`` it (the ``card``
    a record writes: docs/decisions.md, record reading 1): the card drawn, the card a
    place or bounce displaced, the card a reveal or flip turned up; ``None`` otherwise.

    A card turned up that completed a line under rule 10.6 has left its slot at once:
    it is read from the state ``before`` the move, when given."""
    kind = type(move)
    if kind in _SHOWS_HELD:
        return after.held
    if kind in _SHOWS_SLOT:
        seat: int = move.player  # type: ignore[union-attr]
        slot: int = move.slot  # type: ignore[union-attr]
        shown = after.cards[seat][slot]
        if shown == EMPTY and before is not None:
            return before.cards[seat][slot]
        return shown
    if kind is Peek:  # the card the peeking seat looked at (rule 11.1), still in its slot
        peek: Peek = move  # type: ignore[assignment]
        return after.cards[peek.seat][peek.slot]
    return None


def played_move(
    table: MoveTable, state: State, move: PlayerMove | Reshuffle
) -> PlayerMove | Reshuffle:
    """The move an entry's move stands for in ``state``: the notation lets a hazard's
    ``discard`` name a pile, which means nothing, since a hazard goes on no pile (the record
    format: ``pile`` is "required unless the card is a hazard"; docs/decisions.md, record
    reading 2): that is the hazard's discard. Any other move is itself, for the engine to
    judge."""
    if type(move) is Discard and state.held == HAZARD and move.pile is not None:
        return table.discard_moves[move.player][-1]
    return move


CLAIM_VERBS: Final[dict[type, str]] = {
    Draw: "drew",
    Place: "displaced",
    Bounce: "displaced",
    Reveal: "revealed",
    Flip: "flipped",
}
"""What a seat did to show the card it claims, by move type (``seat 1 drew a 7``)."""


MoveTable: TypeAlias = CompiledRules
"""A ruleset's discard piles and the shared move values to hand out instead of building
new ones: its compiled view (``slot_moves[action][seat][slot]``, and ``draw_moves[seat]``
and ``discard_moves[seat]`` as ``(pile 0, pile 1, ..., no pile)``), read as a native
class when compiled."""


def move_from_entry(
    entry: Mapping[str, Any], players: int | None = None, *, piles: int = 2
) -> PlayerMove | Reshuffle:
    """The engine's move for a record entry; ``players``, when given, bounds ``player``, and
    ``piles`` (the ruleset's discard piles) bounds ``pile``.

    Raises :class:`~gnoming_rules.core.errors.RecordError` (``bad-record``) naming the field
    when the entry is not a move entry of the record format.

    Example::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.core import move_from_entry
        >>> move_from_entry({"action": "place", "player": 2, "slot": 4, "card": 9})
        Place(player=2, slot=4)
        >>> try:
        ...     move_from_entry({"action": "draw", "player": 5, "source": "deck"}, players=4)
        ... except gr.RecordError as error:
        ...     print(error.code, "|", error.message)
        bad-record | player: seat 5 does not exist (4 players: seats 0 to 3)
    """
    checked = checked_entry(entry)  # the form, as a record's reader checks it
    read = read_entry(checked, players if players is not None else _ANY_SEAT, piles=piles)
    if isinstance(read, Malformed):
        raise RecordError("bad-record", f"{read.field}: {read.message}")
    return read[0]


_ANY_SEAT: Final = 2**63
"""A seat bound no seat reaches (a record's integers are 64-bit)."""


class Malformed(NamedTuple):
    """An entry whose form is right but which is no move: the field at fault and why."""

    field: str
    message: str


def read_entry(
    entry: Mapping[str, Any],
    players: int,
    table: MoveTable | None = None,
    *,
    piles: int | None = None,
) -> tuple[PlayerMove | Reshuffle, Face | None] | Malformed:
    """``(move, claimed card)`` for an entry whose form is checked (the record's schema or
    :func:`move_from_entry` did it), or :class:`Malformed` when it names a seat that does not
    exist (``players`` seats), a pile that does not (``piles``, else the table's, else 2), or
    a draw's ``pile`` does not fit its ``source``.

    ``table`` supplies shared move values and the number of piles (a ruleset's compiled
    view); without one, new moves are built.
    """
    fields: dict[str, Any] = entry if type(entry) is dict else dict(entry)
    move = read_move(fields, players, table, piles=piles)
    if type(move) is Malformed:
        return move
    return move, fields.get("card")  # type: ignore[return-value]


def read_move(
    entry: dict[str, Any],
    players: int,
    table: MoveTable | None = None,
    *,
    piles: int | None = None,
) -> PlayerMove | Reshuffle | Malformed:
    """:func:`read_entry` without the claimed card (the entry's ``card``, if it has one),
    for a caller that keeps the two apart: the validator reads every entry of a record
    with it."""
    action: str = entry["action"]
    if action == "reshuffle":  # a public record's names no cards: the replay knows them
        return Reshuffle(tuple(entry.get("cards", ())))
    player: int = entry["player"]
    if player >= players:
        return Malformed("player", f"seat {player} does not exist ({seats_text(players)})")
    pile: int | None = entry.get("pile")
    count = piles if piles is not None else table.piles if table is not None else 2
    if pile is not None and pile >= count:
        return Malformed("pile", f"must be {piles_text(count)}, got {pile}")
    if action == "draw":
        if entry["source"] == "deck":
            if pile is not None:
                return Malformed("pile", "a draw from the deck names no pile")
        elif pile is None:
            return Malformed(
                "pile", f"a draw from the discard must name its pile, {piles_text(count)}"
            )
        if table is not None and player < len(table.draw_moves):
            draws = table.draw_moves[player]
            index = len(draws) - 1 if pile is None else pile
            if 0 <= index < len(draws) - (pile is not None):
                return draws[index]
        return Draw(player, pile)
    if action == "discard":
        if table is not None and player < len(table.discard_moves):
            discards = table.discard_moves[player]
            index = len(discards) - 1 if pile is None else pile
            if 0 <= index < len(discards) - (pile is not None):
                return discards[index]
        return Discard(player, pile)
    if action == "pass":
        return Pass(player)
    if action == "knock":
        return Knock(player)
    slot: int = entry["slot"]
    if action in ("peek", "swap"):  # rule 11: a target seat, which must exist
        target: int | None = entry.get("target")
        if target is not None and target >= players:
            return Malformed("target", f"seat {target} does not exist ({seats_text(players)})")
        if action == "peek":
            return Peek(player, slot, target)
        assert target is not None  # (the swap's form requires it)
        return Swap(player, slot, target, entry["target_slot"])
    if table is not None:
        shared = table.slot_moves[action]
        if player < len(shared) and 0 <= slot < len(shared[player]):
            return shared[player][slot]
    return _SLOT_MOVES[action](player, slot)


def seats_text(players: int) -> str:
    """``3 players: seats 0 to 2``; ``1 player: seat 0``."""
    return f"{players} players: seats 0 to {players - 1}" if players > 1 else "1 player: seat 0"
