"""One exception family for everything gnoming-rules refuses.

Every error carries a stable ``code`` (the codes of RECORD.md, plus a few for library
use such as ``bad-ruleset``) and a one-line ``message`` that says what was wrong and, where
it helps, what was allowed. ``str(error)`` is ``"code: message"``. Catch
:class:`GnomingError` to handle them all, or a subclass for one kind.

The library's own codes, beside RECORD.md's (:data:`ERROR_CODES`): ``unknown-ruleset``
and ``bad-ruleset`` (:class:`RulesetError`), ``bad-layout`` (:class:`LayoutError`, the
scorer), ``bad-state`` (:class:`StateError`, restoring a saved state), ``bad-setup``
(``new_game``: a player count or seat that does not fit), ``state-mismatch`` (``apply``
or ``legal_moves`` given a state another ruleset made), ``bad-seat`` (``observe``: no
such seat), ``bad-observation`` (a :class:`StateError`: reading an observation's JSON
form), ``hidden-card`` (``legal_moves`` and ``explain`` from a view that hides the card
the decision depends on), ``no-player-to-move`` (``State.to_move`` while chance decides or after the
game) and ``bot-stuck`` (``play_game``: the game did not end).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Final


class GnomingError(Exception):
    """Base of every error the library raises on purpose."""

    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RulesetError(GnomingError):
    """A ruleset that cannot be found (``unknown-ruleset``) or cannot be played (``bad-ruleset``).

    The message names the file and the field, e.g.
    ``rulesets/mine.yaml: layout.rows: must be between 2 and 5, got 7``.
    """


class IllegalMove(GnomingError):
    """A move the rules refuse in this state.

    ``rule`` is the number in RULES.md that the refusal enforces (``"7.2"``), or ``None``
    where no single rule applies. The state is never changed: ``apply`` is pure.
    """

    rule: str | None

    def __init__(self, code: str, rule: str | None, message: str) -> None:
        super().__init__(code, message)
        self.rule = rule


class LayoutError(GnomingError, ValueError):
    """A layout given to the scorer that is not one (code ``bad-layout``).

    The wrong number of cards, or a slot that holds no card face (``None``, ``0``, ``"X"``,
    ``"5"``, ``5.0``, ``True``); the message names the slot and the value, e.g.
    ``slot 4: None is not a card ...``. It is also a ``ValueError``, which the scorer
    raised before it had a code of its own.
    """


class StateError(GnomingError):
    """A saved state that cannot be restored (code ``bad-state``).

    Raised by :func:`~gnoming_rules.formats.snapshot.state_from_dict`; the message starts with the
    field at fault, e.g. ``cards[1][4]: not a card: ...`` or ``phase: must be one of ...``.
    """


class RecordError(GnomingError):
    """A game record that is not a playable record (``bad-record``, ``bad-deal``, ...).

    ``round`` and ``move`` locate the fault (0-based) where it lies inside a move or round.
    """

    round: int | None
    move: int | None
    public: bool
    """The input said ``information: public`` (its verdict says so too)."""

    def __init__(
        self,
        code: str,
        message: str,
        round: int | None = None,
        move: int | None = None,
        *,
        public: bool = False,
    ) -> None:
        super().__init__(code, message)
        self.round = round
        self.move = move
        self.public = public


MAX_NAME = 120
"""Most characters of a name taken from the input (a field, a file) that a message quotes."""

MAX_QUOTED = 60
"""Most characters of an input value that a message quotes."""

INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1
"""The integers a record or a ruleset may hold: the signed 64-bit range."""


def one_line(text: str, limit: int = MAX_NAME) -> str:
    """``text`` as it is when it prints on one line, else JSON-quoted with escapes (``"a\\nb"``),
    cut to ``limit`` characters (ending ``...``): a name taken from the input (a field, a
    file) never breaks a message into lines, nor fills a screen."""
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return text if text.isprintable() else json.dumps(text)


def quoted(value: object, limit: int = MAX_QUOTED, *, python: bool = False) -> str:
    """An input value as a message quotes it: JSON-like text (Python's ``repr`` style with
    ``python=True``) on one line, at most ``limit`` characters (longer text ends ``...``).
    Safe for any value: an integer too long to print is described by its size, and a long
    or deeply nested value is only read as far as the text shows."""
    parts: list[str] = []
    _render(value, parts, limit + 1, python)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _render(value: object, parts: list[str], room: int, python: bool) -> int:
    """Append ``value``'s text to ``parts``, stopping once ``room`` characters are used;
    returns the room left."""
    if room <= 0:
        return room
    if isinstance(value, Mapping | list | tuple):
        mapping = isinstance(value, Mapping)
        pairs: Iterable[tuple[object, object]] = (
            value.items() if isinstance(value, Mapping) else ((None, item) for item in value)
        )
        parts.append("{" if mapping else "[")
        room -= 1
        for index, (key, item) in enumerate(pairs):
            if room <= 0:
                return room
            if index:
                parts.append(", ")
                room -= 2
            if mapping:
                room = _render(key, parts, room, python)
                parts.append(": ")
                room -= 2
            room = _render(item, parts, room, python)
        parts.append("}" if mapping else "]")
        return room - 1
    if value is None or isinstance(value, bool | float):
        text = repr(value) if python else json.dumps(value)
    elif isinstance(value, int):
        text = integer_text(value)
    elif isinstance(value, str):
        text = (
            repr(value[:room]) if python else _escaped(json.dumps(value[:room], ensure_ascii=False))
        )
    else:
        text = _escaped(repr(value)[:room])
    parts.append(text)
    return room - len(text)


def integer_text(value: int) -> str:
    """An integer in digits, or, past 60 digits, its size: ``str()`` of a huge integer is
    slow, and refused outright past 4,300 digits."""
    bits = value.bit_length()
    if bits <= 199:  # at most 60 digits
        return str(value)
    digits = int(bits * 0.30103) + 1
    return f"<an integer of about {digits:,} digits>"


def _escaped(text: str) -> str:
    """``text`` with every character that does not print on one line written as an escape
    (``\\u2028``): a message stays one line, even under ``str.splitlines()``."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


ERROR_CODES: tuple[str, ...] = (
    "bad-record",
    "bad-deal",
    "unknown-ruleset",
    "ruleset-mismatch",
    "not-your-turn",
    "wrong-phase",
    "bad-slot",
    "slot-face-up",
    "empty-pile",
    "must-use-empty-pile",
    "must-play-taken-card",
    "cannot-bounce",
    "slot-already-filled",
    "mulligan-limit",
    "no-flip-owed",
    "bad-reshuffle",
    "card-mismatch",
    "score-mismatch",
    "result-mismatch",
    "moves-after-end",
    "impossible-card",
)
"""The stable error codes of a record verdict (RECORD.md), in the order the spec lists them
(``impossible-card`` only for public-information records)."""


__all__ = [
    "ERROR_CODES",
    "GnomingError",
    "IllegalMove",
    "LayoutError",
    "RecordError",
    "RulesetError",
    "StateError",
]
