"""Reading what a client sends: one strict parser for every path segment and message field.

Everything a client sends reaches the server through here: an HTTP body and a socket
message as JSON (:func:`read_json`), a table's id and a seat's number from a URL
(:func:`table_id`, :func:`seat_number`), a socket message (:func:`read_message`: a
:class:`Hello` or a :class:`MoveMessage`, its sequence number checked by
:func:`sequence`). What does not fit raises
:class:`~gnoming_rules.core.errors.Refusal` with a stable code, so that a request either
reads as something the server knows or is refused as a 4xx answer or an ``error``
message; nothing read here reaches a traceback.

What "strict" means here:

- JSON is UTF-8 text without a repeated key, ``NaN`` or ``Infinity``, a string holding a
  lone surrogate (which no UTF-8 writer can encode again), or nesting deeper than
  :data:`MAX_DEPTH` (``bad-json``).
- A seat's number is ASCII digits without a leading zero, at most four of them
  (``bad-seat``): each seat has one URL, and superscript, Arabic-Indic or
  full-width digits are no digits here.
- A table's id is what the server makes (URL-safe base64 letters, at most
  :data:`MAX_TABLE_ID`); anything else is no table (``unknown-table``).
- A sequence number is a JSON integer from 1 to :data:`MAX_SEQUENCE` (``bad-sequence``;
  ``true``, ``1.0`` and ``"1"`` are not integers).
- A message holds the fields of its type and no other (``bad-message``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

from ..core.errors import Refusal

__all__ = [
    "MAX_DEPTH",
    "MAX_MESSAGE",
    "MAX_SEQUENCE",
    "MAX_TABLE_ID",
    "MAX_TOKEN",
    "Hello",
    "MoveMessage",
    "read_json",
    "read_message",
    "seat_number",
    "sequence",
    "table_id",
]

MAX_MESSAGE: Final = 8 * 1024
"""The longest text message a client may send, in bytes (a move takes under 100)."""

MAX_DEPTH: Final = 32
"""The deepest nesting of arrays and objects a body or a message may hold (a table's
request with an inline ruleset needs under ten levels)."""

MAX_SEQUENCE: Final = 2**31 - 1
"""The largest sequence number (a 32-bit signed integer: what both databases store).
A seat makes a few hundred moves a game, so a client never comes near it."""

MAX_TABLE_ID: Final = 64
"""The longest table id read from a URL (the server's ids have 16 characters)."""

MAX_TOKEN: Final = 128
"""The longest token a hello may carry (the server's tokens have 43 characters)."""

_SEAT: Final = re.compile(r"0|[1-9][0-9]{0,3}")
_TABLE_ID: Final = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_TABLE_ID}}}")


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise Refusal("bad-json", f"the key {key[:40]!r} is repeated")
            seen.add(key)
    return data


def _no_constant(name: str) -> Any:
    raise Refusal("bad-json", f"{name} is not a JSON number")


def _check_shape(data: object) -> None:
    """Refuse nesting past :data:`MAX_DEPTH` and strings that UTF-8 cannot hold (a lone
    surrogate), walking ``data`` without recursion."""
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if not value.isascii():
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:
                    raise Refusal("bad-json", "a string holds a lone surrogate") from None
            continue
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise Refusal("bad-json", f"nested deeper than {MAX_DEPTH} levels")
            items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
            stack += [(item, depth + 1) for item in items]


def read_json(raw: bytes | str) -> object:
    """``raw`` as strict JSON (see the module's notes); raises ``Refusal`` (``bad-json``)."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise Refusal("bad-json", f"not JSON: {str(error)[:120]}") from None
    _check_shape(data)
    return data


def table_id(text: str) -> str:
    """A table's id as a URL names it; ``unknown-table`` if it cannot be one."""
    if _TABLE_ID.fullmatch(text) is None:
        raise Refusal("unknown-table", f"no table {text[:40]!r}")
    return text


def seat_number(text: str) -> int:
    """A seat's number as a URL names it: ASCII digits, no leading zero (``bad-seat``).
    Whether the table has that seat is the table's to say."""
    if _SEAT.fullmatch(text) is None:
        raise Refusal(
            "bad-seat", f"a seat is a number 0, 1, 2, ... in ASCII digits, got {text[:20]!r}"
        )
    return int(text)


def sequence(value: object) -> int:
    """A move's sequence number: a JSON integer from 1 to :data:`MAX_SEQUENCE`."""
    if type(value) is not int:
        raise Refusal("bad-sequence", f"seq must be a whole number, got {type(value).__name__}")
    if not 1 <= value <= MAX_SEQUENCE:
        shown = (
            str(value)
            if -(10**12) < value < 10**12
            else f"a number of {len(str(abs(value)))} digits"
        )
        raise Refusal("bad-sequence", f"seq must be 1 to {MAX_SEQUENCE}, got {shown}")
    return value


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message: the seat's token (``None``: a spectator), and whether the
    connection wants the table's picture in each view."""

    token: str | None
    svg: bool


@dataclass(frozen=True, slots=True)
class MoveMessage:
    """A seat's move: its sequence number, checked, and its record entry as sent (the
    table reads it, with :func:`~gnoming_rules.core.entries.move_from_entry`, and refuses
    it as ``bad-move`` naming this ``seq``)."""

    seq: int
    move: object


_FIELDS: Final = {"hello": {"type", "token", "svg"}, "move": {"type", "seq", "move"}}


def read_message(text: str | None) -> Hello | MoveMessage:
    """A client's socket message; raises ``Refusal`` saying what does not fit."""
    if text is None:
        raise Refusal("bad-message", "send text messages (JSON), not binary ones")
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_MESSAGE:
        raise Refusal("too-large", f"a message holds at most {MAX_MESSAGE} bytes, got {size}")
    data = read_json(text)
    if not isinstance(data, dict):
        raise Refusal("bad-message", "a message is a JSON object")
    kind = data.get("type")
    if kind not in _FIELDS:
        raise Refusal("bad-message", f"type must be 'hello' or 'move', got {str(kind)[:40]!r}")
    extra = sorted(set(data) - _FIELDS[kind])
    if extra:
        raise Refusal("bad-message", f"a {kind} message has no field {extra[0][:40]!r}")
    if kind == "hello":
        token, svg = data.get("token"), data.get("svg", False)
        if token is not None and (type(token) is not str or not 0 < len(token) <= MAX_TOKEN):
            raise Refusal("bad-hello", f"token must be a string of 1 to {MAX_TOKEN} characters")
        if type(svg) is not bool:
            raise Refusal("bad-hello", "svg must be true or false")
        return Hello(token, svg)
    return MoveMessage(sequence(data.get("seq")), data.get("move"))
