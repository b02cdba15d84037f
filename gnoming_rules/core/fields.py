"""Input fields and their one-line messages, for every input format of the library.

A :class:`FieldReader` reads plain data (parsed JSON) for the small formats, one value at
a time, and raises the error its owner chose (``bad-state`` for a saved state,
``bad-record`` for a move entry) with a one-line message that starts with the field's
path: ``cards[1][4]: not a card: ..., got "X"``. Integers must be ``int`` (not ``bool``,
not ``float``), as in records (docs/record-format.md, Fields).

The formats pydantic reads (a ruleset, a record) build on :class:`StrictModel`, and
their readers turn pydantic's problems into the same kind of message with
:func:`field_path` and :func:`problem_words`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn

from pydantic import BaseModel, ConfigDict
from pydantic_core import ErrorDetails

from .cards import Face, is_face
from .errors import GnomingError, one_line, quoted

__all__ = ["FieldReader", "StrictModel", "field_path", "problem_words", "shown"]


def shown(value: object) -> str:
    """A short JSON-like rendering of an input value, for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class FieldReader:
    """Checks values of plain data; ``error(message)`` builds the error to raise."""

    def __init__(self, error: Callable[[str], GnomingError]) -> None:
        self._error = error

    def fail(self, path: str, problem: str) -> NoReturn:
        """Raise the owner's error for the field at ``path``."""
        raise self._error(f"{path}: {problem}" if path else problem)

    def mapping(
        self,
        value: object,
        path: str,
        required: Sequence[str],
        optional: Sequence[str] = (),
    ) -> Mapping[str, object]:
        """A mapping with exactly the ``required`` keys and perhaps some ``optional`` ones."""
        if not isinstance(value, Mapping):
            self.fail(path, f"must be a mapping (a JSON object), got {shown(value)}")
        known = {*required, *optional}
        for key in value:
            if key not in known:
                self.fail(_join(path, str(key)), "unknown field")
        for key in required:
            if key not in value:
                self.fail(_join(path, key), "missing")
        return value

    def integer(
        self, value: object, path: str, low: int | None = None, high: int | None = None
    ) -> int:
        """An ``int`` (not a bool) within ``low..high`` where they are given."""
        if type(value) is not int:
            self.fail(path, f"must be an integer, got {shown(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{low} to {high}" if high is not None else f"at least {low}"
            self.fail(path, f"must be {bounds}, got {value}")
        return value

    def optional_integer(
        self, value: object, path: str, low: int | None = None, high: int | None = None
    ) -> int | None:
        """:meth:`integer`, or ``None``."""
        return None if value is None else self.integer(value, path, low, high)

    def boolean(self, value: object, path: str) -> bool:
        """``True`` or ``False``."""
        if type(value) is not bool:
            self.fail(path, f"must be true or false, got {shown(value)}")
        return value

    def choice(self, value: object, path: str, options: Sequence[str]) -> str:
        """One of the strings ``options``."""
        if not isinstance(value, str) or value not in options:
            self.fail(path, f"must be one of {', '.join(options)}, got {shown(value)}")
        return value

    def items(self, value: object, path: str, length: int | None = None) -> Sequence[object]:
        """A list (or tuple), of ``length`` items where it is given."""
        if not isinstance(value, list | tuple):
            self.fail(path, f"must be a list, got {shown(value)}")
        if length is not None and len(value) != length:
            self.fail(path, f"must hold {length} items, got {len(value)}")
        return value

    def face(self, value: object, path: str) -> Face:
        """A card face (rule 1.3)."""
        if not is_face(value):
            self.fail(
                path, f'not a card: write an integer, "H", "M" or a face name, got {shown(value)}'
            )
        return value

    def optional_face(self, value: object, path: str) -> Face | None:
        """:meth:`face`, or ``None``."""
        return None if value is None else self.face(value, path)

    def faces(self, value: object, path: str) -> tuple[Face, ...]:
        """A list of card faces, as a tuple."""
        return tuple(
            self.face(card, f"{path}[{index}]")
            for index, card in enumerate(self.items(value, path))
        )


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class StrictModel(BaseModel):
    """The base of the pydantic input forms (a ruleset and its parts, a record and its
    parts): frozen, strict (``"3"`` is not ``3``), and no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def field_path(loc: Sequence[int | str], *, brackets: bool = True) -> str:
    """A pydantic location as a path: ``("rounds", 1, "moves", 7)`` -> ``rounds[1].moves[7]``,
    or with ``brackets=False`` every part after a dot, as a ruleset's messages write it
    (``deck.numbers.5``). Names from the input print on one line (:func:`~.errors.one_line`)."""
    if not brackets:
        return ".".join(one_line(str(part)) for part in loc)
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            name = one_line(str(part))
            path += f".{name}" if path else name
    return path


def problem_words(problem: ErrorDetails, *, python: bool = False) -> str:
    """One problem of a pydantic error in the library's words, after its path: ``missing
    field``, ``unknown field``, else pydantic's message from a small letter and the value
    given (``input should be a valid integer, got "3"``; quoted as Python with
    ``python=True``). Readers word their own special cases first."""
    kind = problem["type"]
    if kind == "missing":
        return "missing field"
    if kind == "extra_forbidden":
        return "unknown field"
    text = problem["msg"]
    return f"{text[:1].lower()}{text[1:]}, got {quoted(problem.get('input'), python=python)}"
