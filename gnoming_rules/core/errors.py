"""Every error gnoming-rules raises on purpose, by kind, and every code it uses, listed once.

The tree (modelled on httpx's ``_exceptions.py``)::

    GnomingError                  any refusal; catch it to handle them all
    +-- RecordError               input that is not a playable record (exit status 2)
    +-- StateError                a saved state that cannot be restored (bad-state)
    +-- UnreadableYamlError       text that is not YAML the guarded reader reads (bad-yaml)
    |   +-- DuplicateKeyError     ... because a mapping repeats a key
    +-- RulesetError              a ruleset that cannot be found or played
    +-- IllegalMove               a move the rules refuse in this state (carries ``rule``)
    |   +-- PileError             ... because its pile does not fit it (wrong-pile)
    |   +-- DealError             ... because it is a deal that is not the deck (not-the-deck)
    +-- UsageError                the API called with something it cannot work with
    |   +-- LayoutError           the scorer given something that is not a layout
    +-- Refusal                   a request the server refuses (``gnoming serve``; ``rule``)
    +-- BotFailure                an external bot that broke the bot protocol (a forfeit)

Every error carries a stable ``code`` and a one-line ``message`` that says what was wrong
and, where it helps, what was allowed; ``str(error)`` is ``"code: message"``. The codes
are typed: :data:`VerdictCode` lists those of a record's verdict (docs/record-format.md), grouped
into :data:`InputCode` (exit status 2), :data:`RuleCode` (the engine's refusals) and
:data:`ClaimCode` (a false claim of the record); :data:`LibraryCode` lists the library's
own, and :data:`ServerCode` the server's. :data:`ERROR_CODES`, :data:`LIBRARY_CODES` and
:data:`SERVER_CODES` are the same lists as tuples, which the docs and the tests read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Literal, NamedTuple, TypeAlias, get_args

InputCode: TypeAlias = Literal["bad-record", "bad-deal", "unknown-ruleset", "ruleset-mismatch"]
"""A record that is not a playable record: its structure, its ruleset, its deals."""
RuleCode: TypeAlias = Literal[
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
    "moves-after-end",
]
"""A move the rules refuse (an :class:`IllegalMove`), as a record's verdict names it too.
The engine's two other refusals, :class:`PileError` and :class:`DealError`, have codes of
their own (:data:`LibraryCode`), which a record's verdict reports as its input errors."""
ClaimCode: TypeAlias = Literal[
    "card-mismatch", "score-mismatch", "result-mismatch", "impossible-card"
]
"""A claim of the record that the replay contradicts; ``impossible-card`` (a card named
that the deck cannot hold, rule 1.1) only in a public-information record."""
VerdictCode: TypeAlias = Literal[InputCode, RuleCode, ClaimCode]
"""Every code a record's verdict can carry (the record format, Stable error codes)."""
LibraryCode: TypeAlias = Literal[
    "bad-ruleset",
    "bad-state",
    "bad-yaml",
    "wrong-pile",
    "not-the-deck",
    "bad-layout",
    "bad-setup",
    "state-mismatch",
    "bad-seat",
    "bad-observation",
    "hidden-card",
    "no-player-to-move",
    "bot-stuck",
    "bad-action",
    "bad-output",
    "missing-extra",
    "dask-unavailable",
    "worker-crashed",
    "no-public-form",
    "bad-bot",
    "bad-tournament",
    "bot-crashed",
    "bot-timeout",
    "bot-bad-reply",
    "bot-illegal-move",
]
"""The library's own codes: ``bad-ruleset`` (:class:`RulesetError`), ``bad-state``
(:class:`StateError`), ``bad-yaml`` (:class:`UnreadableYamlError`), the engine's
``wrong-pile`` (:class:`PileError`: a discard or draw whose pile does not fit) and
``not-the-deck`` (:class:`DealError`: a deal that is not the deck), which the record layer
reports as a record's ``bad-record`` and ``bad-deal``, and the :class:`UsageError` codes:
``bad-layout`` (:class:`LayoutError`), ``bad-setup`` (``new_game``: a player count or seat
that does not fit), ``state-mismatch`` (a state another ruleset made), ``bad-seat``
(``observe``: no such seat), ``bad-observation`` (a :class:`StateError`: reading an
observation's JSON form), ``hidden-card`` (``legal_moves`` and ``explain`` from a view that
hides the card the decision depends on), ``no-player-to-move`` (``State.to_move`` while
chance decides or after the game), ``bot-stuck`` (``play_game``: the game did not end),
``bad-action`` (an adapter's action number that is not in its action space), ``bad-output``
(``gnoming stats --out`` given a file kind it does not write), ``missing-extra`` and
``dask-unavailable`` (an optional extra that is not installed, or a Dask scheduler that
cannot be reached); ``worker-crashed`` is the verdict code of a record whose validation
crashed a worker process (:mod:`gnoming_rules.corpus.distributed`); ``no-public-form``
(kept for callers that handle it: ``redact`` raised it for a record under ``play.placed:
down`` until their public form was written; it no longer does); ``bad-bot`` (a bot that is
neither a bot's name nor a command that can be run) and ``bad-tournament`` (a tournament
folder or option that cannot be used: ``gnoming tournament``); and the
:class:`BotFailure` codes of an external bot that loses its game by forfeit (the bot
protocol): ``bot-crashed`` (it exited or closed its output), ``bot-timeout`` (no answer
in its time), ``bot-bad-reply`` (a line that is not one move entry, or too long) and
``bot-illegal-move`` (a move the rules refuse there)."""
ServerCode: TypeAlias = Literal[
    "bad-json",
    "bad-request",
    "too-large",
    "unknown-table",
    "seat-taken",
    "bad-message",
    "bad-hello",
    "bad-token",
    "bad-sequence",
    "sequence-reused",
    "bad-move",
    "wrong-seat",
    "spectator",
    "flood",
    "not-stored",
    "no-route",
    "bad-method",
]
"""The server's own codes (``gnoming serve``, a :class:`Refusal`): ``bad-json`` (a body or
message that is not strict JSON), ``bad-request`` (a new table's request, naming the
field), ``too-large`` (a body or message over the limit), ``unknown-table``,
``seat-taken`` (a seat taken, or a bot's), ``bad-message`` (a message that is not one the
socket takes), ``bad-hello`` (no hello, or not first), ``bad-token`` (no seat has that
token), ``bad-sequence`` (a move's ``seq`` out of order, or not a whole number from 1 to
2**31 - 1), ``sequence-reused`` (a ``seq`` already applied, sent again with another
move), ``bad-move`` (not a move entry, or a reshuffle), ``wrong-seat`` (a move for
another seat), ``spectator`` (a spectator's move), ``flood`` (too many messages),
``not-stored`` (the database failed: nothing was applied), ``no-route`` (no such HTTP
route) and ``bad-method`` (a method the route does not take). A refusal may also carry a
code listed above: ``bad-seat`` and ``bot-stuck`` (:data:`LibraryCode`), a ruleset's
``unknown-ruleset`` or ``bad-ruleset``, or the code and rule of a move the rules refuse
(:data:`RuleCode`)."""
ErrorCode: TypeAlias = Literal[VerdictCode, LibraryCode, ServerCode]
"""Every code, of any error."""

ERROR_CODES: Final[tuple[VerdictCode, ...]] = get_args(VerdictCode)
"""The stable codes of a record verdict: input errors, rule refusals, false claims."""
INPUT_ERROR_CODES: Final[frozenset[InputCode]] = frozenset(get_args(InputCode))
"""Codes for input that is not a playable record: exit status 2 (docs/record-format.md)."""
LIBRARY_CODES: Final[tuple[LibraryCode, ...]] = get_args(LibraryCode)
"""The library's own codes, beside the verdict's."""
SERVER_CODES: Final[tuple[ServerCode, ...]] = get_args(ServerCode)
"""The server's own codes, beside the library's."""


class GnomingError(Exception):
    """Base of every error the library raises on purpose."""

    code: ErrorCode
    message: str

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RulesetProblem(NamedTuple):
    """One thing wrong in a ruleset file: the file that wrote it, the field, what."""

    file: str
    path: str
    """The field, dotted (``layout.rows``); empty for the ruleset as a whole."""
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path + ': ' if self.path else ''}{self.message}"


class RecordProblem(NamedTuple):
    """One fault of a record's structure: where (0-based, ``None`` outside a move or round)
    and what, the message starting with the field's path."""

    round: int | None
    move: int | None
    message: str


MAX_PROBLEMS: Final = 100
"""Most structural problems of one record that an error lists (a hostile input may have
millions); the message counts the rest."""


class RecordError(GnomingError):
    """A game record that is not a playable record (``bad-record``, ``bad-deal``, ...).

    ``round`` and ``move`` locate the fault (0-based) where it lies inside a move or round.
    When the record's structure has several faults, ``problems`` lists them all, in
    document order (at most :data:`MAX_PROBLEMS`), the first being the error's own; it is
    empty for an error that is not the structure's.
    """

    round: int | None
    move: int | None
    public: bool
    """The input said ``information: public`` (its verdict says so too)."""
    problems: tuple[RecordProblem, ...]

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        round: int | None = None,
        move: int | None = None,
        *,
        public: bool = False,
        problems: Sequence[RecordProblem] = (),
    ) -> None:
        super().__init__(code, message)
        self.round = round
        self.move = move
        self.public = public
        self.problems = tuple(problems)

    @classmethod
    def of(cls, problems: Sequence[RecordProblem], total: int | None = None) -> RecordError:
        """A ``bad-record`` error for one or more problems (at least one) out of ``total``
        (default: as many as given): the message is the first, and counts the others."""
        first = problems[0]
        more = (len(problems) if total is None else total) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        return cls("bad-record", first.message + tail, first.round, first.move, problems=problems)


class StateError(GnomingError):
    """A saved state that cannot be restored (code ``bad-state``).

    Raised by :func:`~gnoming_rules.formats.snapshot.state_from_dict`; the message starts with
    the field at fault, e.g. ``cards[1][4]: not a card: ...`` or ``phase: must be one of ...``.
    """


class UnreadableYamlError(GnomingError, ValueError):
    """Input that is not YAML the guarded reader (:mod:`~gnoming_rules.formats.safe_yaml`)
    reads (code ``bad-yaml``); the message says what and where (``not valid YAML: ... at
    line 3, column 7``). Readers of records and rulesets report it under their own code."""

    def __init__(self, message: str) -> None:
        super().__init__("bad-yaml", message)


class DuplicateKeyError(UnreadableYamlError):
    """A key given more than once in one mapping: ``location`` is the mapping's (keys and
    indexes from the top), ``key`` the key as text."""

    def __init__(self, location: tuple[str | int, ...], key: str) -> None:
        path = ".".join(one_line(str(part)) for part in location)
        super().__init__(f"{path + ': ' if path else ''}key {quoted_key(key)} given more than once")
        self.location = location
        self.key = key


class RulesetError(GnomingError):
    """A ruleset that cannot be found (``unknown-ruleset``) or cannot be played (``bad-ruleset``).

    The message names the file and the field, e.g.
    ``rulesets/mine.yaml: layout.rows: must be between 2 and 5, got 7``. When a file has
    several faults, ``problems`` lists every one (the message gives the first and names
    the fields of the others); ``problems`` is empty for an error that is not one field's.
    """

    problems: tuple[RulesetProblem, ...]

    def __init__(
        self, code: ErrorCode, message: str, problems: Sequence[RulesetProblem] = ()
    ) -> None:
        super().__init__(code, message)
        self.problems = tuple(problems)

    @classmethod
    def of(cls, problems: Sequence[RulesetProblem]) -> RulesetError:
        """A ``bad-ruleset`` error for one or more problems (at least one)."""
        first, *others = problems
        message = str(first)
        if others:
            fields = ", ".join(problem.path or "(top)" for problem in others)
            message += f" (and {len(others)} more: {fields})"
        return cls("bad-ruleset", message, problems)


class IllegalMove(GnomingError):
    """A move the rules refuse in this state.

    ``rule`` is the number in the rules (docs/rules.md) that the refusal enforces
    (``"7.2"``), or ``None`` where no single rule applies. The state is never changed:
    ``apply`` is pure.
    """

    rule: str | None

    def __init__(self, code: ErrorCode, rule: str | None, message: str) -> None:
        super().__init__(code, message)
        self.rule = rule


class PileError(IllegalMove):
    """A move whose ``pile`` does not fit it (code ``wrong-pile``): a pile that does not
    exist (rule 4.1, 4.4), a number card's discard that names none (4.4), a hazard's that
    names one (6.1). In a record, such an entry is malformed: its verdict says
    ``bad-record`` at that move, without a rule (docs/record-format.md)."""


class DealError(IllegalMove):
    """A deal that is not exactly the deck (code ``not-the-deck``, rule 3.1): not a list,
    a value that is no card, or other cards. A record's verdict says ``bad-deal`` at its
    round."""


class UsageError(GnomingError, ValueError):
    """The API was called with something it cannot work with: a player count outside the
    ruleset's (``bad-setup``), a state another ruleset made (``state-mismatch``), a seat
    that does not exist (``bad-seat``), ``State.to_move`` with no seat to move
    (``no-player-to-move``), bots that never finish a game (``bot-stuck``)."""


class Refusal(GnomingError):
    """A request the server (``gnoming serve``) refuses; nothing changed. ``code`` is
    stable (:data:`ServerCode`, or the library's code it passes on), and ``rule`` is the
    rule's number for a move the rules refuse (``None`` otherwise). The HTTP and WebSocket
    answers are made of these three fields (docs/server.md)."""

    rule: str | None

    def __init__(self, code: ErrorCode, message: str, rule: str | None = None) -> None:
        super().__init__(code, message)
        self.rule = rule


class BotFailure(GnomingError):
    """An external bot that broke the bot protocol (docs/bot-protocol.md): it crashed
    (``bot-crashed``), did not answer in time (``bot-timeout``), wrote a line that is not
    one move entry (``bot-bad-reply``) or chose a move the rules refuse
    (``bot-illegal-move``). Its game ends there, a forfeit of ``seat``."""

    seat: int

    def __init__(self, code: ErrorCode, message: str, seat: int) -> None:
        super().__init__(code, message)
        self.seat = seat

    def __reduce__(self) -> tuple[type[BotFailure], tuple[ErrorCode, str, int]]:
        """Pickled whole (its seat too): a game played in another process raises it in
        this one (``gnoming impact``'s paired games)."""
        return type(self), (self.code, self.message, self.seat)


class LayoutError(UsageError):
    """A layout given to the scorer that is not one (code ``bad-layout``).

    The wrong number of cards, or a slot that holds no card face (``None``, ``0``, ``"X"``,
    ``"5"``, ``5.0``, ``True``); the message names the slot and the value, e.g.
    ``slot 4: None is not a card ...``. It is also a ``ValueError``.
    """


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
    return printable(text if len(text) <= limit else text[: limit - 3] + "...")


def printable(text: str) -> str:
    """``text`` as it is when it prints on one line, else JSON-quoted with ASCII escapes
    (``"a\\nb"``, ``"\\u001b[31m"``): text taken from the input (a file name, a player's
    name) cannot then forge a line of output or reach a terminal as a control sequence."""
    return text if text.isprintable() else json.dumps(text)


_LINE_BREAKS: Final = {code: f"\\u{code:04x}" for code in (0x85, 0x2028, 0x2029)}
"""Characters JSON allows raw in a string that ``str.splitlines()`` breaks lines at (the
others, controls below U+0020, JSON escapes itself)."""


def json_line(data: object) -> str:
    """``data`` as one line of JSON, whatever text it holds: non-ASCII text stays as it is,
    except U+0085, U+2028 and U+2029, which JSON allows raw but which many readers (Python's
    ``str.splitlines()``, JSON Lines readers) take for line breaks: they are escaped."""
    return json.dumps(data, ensure_ascii=False).translate(_LINE_BREAKS)


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


def quoted_key(key: str) -> str:
    """A mapping key as a message names it: ``"slot"``."""
    return one_line(key) if key.startswith('"') else f'"{one_line(key)}"'


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


__all__ = [
    "ERROR_CODES",
    "INPUT_ERROR_CODES",
    "LIBRARY_CODES",
    "MAX_PROBLEMS",
    "SERVER_CODES",
    "BotFailure",
    "ClaimCode",
    "DealError",
    "DuplicateKeyError",
    "ErrorCode",
    "GnomingError",
    "IllegalMove",
    "InputCode",
    "LayoutError",
    "LibraryCode",
    "PileError",
    "RecordError",
    "RecordProblem",
    "Refusal",
    "RuleCode",
    "RulesetError",
    "ServerCode",
    "StateError",
    "UnreadableYamlError",
    "UsageError",
    "VerdictCode",
]
