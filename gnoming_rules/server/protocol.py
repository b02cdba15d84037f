"""The messages of a table's WebSocket, both ways, as JSON objects (docs/server.md).

From the client, one JSON object per text message, at most
:data:`~gnoming_rules.server.reading.MAX_MESSAGE` bytes, read by
:func:`~gnoming_rules.server.reading.read_message`:

- ``{"type": "hello", "token": "..."}`` first: the seat whose token it is (omit the
  token to watch as a spectator); ``"svg": true`` asks for the table's picture too.
- ``{"type": "move", "seq": 1, "move": {"action": "draw", "player": 0, "source": "deck"}}``:
  a move, in the record's notation (docs/record-format.md), numbered 1, 2, 3, ... per seat
  (at most :data:`~gnoming_rules.server.reading.MAX_SEQUENCE`).

From the server:

- ``{"type": "welcome", ...}``: the table, the seat (``null`` for a spectator), the
  players, the ruleset's name and sha256, the time control.
- ``{"type": "view", "step": N, "observation": {...}, "legal": [...], "last": {...}}``
  after every step (and on joining): the seat's observation (``gnoming-observation/1``),
  the moves open to it (empty unless it is to move), and the step just made as the
  whole table saw it (no card named: each card shown is in the observation).
- ``{"type": "ack", "seq": N, "step": N, "duplicate": false}``: the move numbered ``seq``
  is stored (``duplicate``: it was applied before, and nothing changed now).
- ``{"type": "error", "code": "...", "rule": "4.1" or null, "message": "...", "seq": N}``:
  a refusal; nothing changed. ``seq`` is the refused move's number when the message was
  a move whose number could be read (else ``null``).

Messages go out as compact JSON text (:func:`to_text`): through orjson when it is
installed (the ``server`` extra has it: it writes a view several times faster than the
standard library, and views are most of what a server writes), else through :mod:`json`.
A view's text is made once a step for all the connections of a seat (:func:`view_text`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..core.entries import move_to_entry, step_to_entry
from ..core.errors import Refusal
from ..core.moves import Deal, Move, PlayerMove, Reshuffle
from ..pictures.table import table_svg
from ..play.observation import stand_in
from ..play.observation_json import observation_to_dict
from .reading import MAX_SEQUENCE
from .table import Table

try:
    import orjson
except ImportError:  # pragma: no cover (the server extra installs it)
    orjson = None  # type: ignore[assignment]

__all__ = [
    "error_message",
    "to_text",
    "view_message",
    "view_text",
    "welcome_message",
]


def to_text(message: dict[str, Any]) -> str:
    """``message`` as compact JSON text (orjson's when installed, the same data either way)."""
    if orjson is not None:
        return orjson.dumps(message).decode()
    return json.dumps(message, separators=(",", ":"))


def error_message(refusal: Refusal, seq: object = None) -> dict[str, Any]:
    """The message that tells a client its request was refused; ``seq`` is echoed only
    when it is a sequence number (the message's reader checked it)."""
    return {
        "type": "error",
        "code": refusal.code,
        "rule": refusal.rule,
        "message": refusal.message,
        "seq": seq if type(seq) is int and 1 <= seq <= MAX_SEQUENCE else None,
    }


def welcome_message(table: Table, seat: int | None) -> dict[str, Any]:
    """The first message of a connection: whose view it gets and the table's settings."""
    return {
        "type": "welcome",
        "table": table.table_id,
        "seat": seat,
        "players": table.spec.names,
        "ruleset": {"name": table.ruleset.name, "sha256": table.ruleset.sha256},
        "move_seconds": table.spec.move_seconds,
        "next_seq": None if seat is None else table.sequences[seat] + 1,
    }


def public_step(move: Move | None, timed_out: bool = False) -> dict[str, Any] | None:
    """A step as the whole table saw it: the move's entry without a card, a deal or a
    reshuffle without its cards."""
    if move is None:
        return None
    if isinstance(move, Deal | Reshuffle):
        return step_to_entry(move, public=True)
    return {**_entry(move), "timed_out": timed_out}


@lru_cache(maxsize=1024)
def _entry(move: PlayerMove) -> dict[str, Any]:
    """``move_to_entry(move)``, shared: moves are few and immutable (never change the dict)."""
    return move_to_entry(move)


def view_message(
    table: Table,
    seat: int | None,
    last: Move | None = None,
    timed_out: bool = False,
    *,
    svg: bool = False,
) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) sees of ``table`` now. Everything in it is
    read from the seat's observation, never from the referee's state."""
    view = table.view(seat)
    message: dict[str, Any] = {
        "type": "view",
        "step": table.steps,
        "observation": observation_to_dict(view),
        "legal": [_entry(move) for move in table.legal(seat)],
        "last": public_step(last, timed_out),
        "over": table.state.is_over,
    }
    if svg:
        message["svg"] = table_svg(
            table.ruleset, stand_in(view), seat=seat, names=table.spec.names, public=seat is None
        )
    return message


def view_text(
    table: Table,
    seat: int | None,
    last: Move | None = None,
    timed_out: bool = False,
    *,
    svg: bool = False,
) -> str:
    """:func:`view_message` as text, made once a step for every connection of ``seat``
    (``last`` is the step just made, the same for all; ``None`` on joining)."""
    key = ("text", seat, last is None, svg)
    text: str | None = table.memo.get(key)
    if text is None:
        text = table.memo[key] = to_text(view_message(table, seat, last, timed_out, svg=svg))
    return text
