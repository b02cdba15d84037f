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

import difflib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import UnionType
from typing import (
    Annotated,
    Final,
    NoReturn,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
)

from pydantic import BaseModel, ConfigDict
from pydantic_core import ErrorDetails
from typing_extensions import get_type_hints, is_typeddict  # both TypedDicts (see record.py)

from .cards import Face, is_face
from .errors import GnomingError, one_line, quoted

__all__ = [
    "FieldReader",
    "StrictModel",
    "did_you_mean",
    "field_names",
    "field_path",
    "problem_words",
    "shown",
]


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
                self.fail(_join(path, str(key)), "unknown field" + did_you_mean(str(key), known))
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


_KIND: Final = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "string_type": "a string",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "bool_type": "true or false",
}
"""Pydantic's type errors, by the kind of value a field needs."""

_BOUND: Final = {
    "greater_than_equal": ("at least", "ge"),
    "greater_than": ("more than", "gt"),
    "less_than_equal": ("at most", "le"),
    "less_than": ("less than", "lt"),
}
"""Pydantic's bound errors: the words, and the key of the bound in the error's context."""


def problem_words(
    problem: ErrorDetails, *, python: bool = False, model: object | None = None
) -> str:
    """One problem of a pydantic error in the library's words, after its path: ``missing
    field``, ``unknown field`` (with the nearest known name, ``did you mean cols?``, when
    ``model``, the type read, is given), ``must be an integer, got "3"``, else pydantic's
    message from a small letter and the value given (quoted as Python with
    ``python=True``). Readers word their own special cases first."""
    kind = problem["type"]
    given = problem.get("input")
    context = problem.get("ctx") or {}
    if kind in ("missing", "union_tag_not_found"):
        return "missing field"
    if kind == "extra_forbidden":
        loc = problem["loc"]
        if model is None or not loc:
            return "unknown field"
        return "unknown field" + did_you_mean(str(loc[-1]), field_names(model, loc[:-1]))
    if kind == "union_tag_invalid":
        tag = str(context.get("tag"))
        options = [part.strip(" '") for part in str(context.get("expected_tags", "")).split(",")]
        name = str(context.get("discriminator", "tag")).strip("'")
        listed = ", ".join(option for option in options if option)
        return f"unknown {name} {quoted(tag, python=python)} (one of {listed})" + did_you_mean(
            tag, options
        )
    got = quoted(given, python=python)
    if kind in _KIND:
        return f"must be {_KIND[kind]}, got {got}"
    if kind == "literal_error":
        return f"must be {context.get('expected', '?')}, got {got}"
    if kind in _BOUND:
        words, key = _BOUND[kind]
        return f"must be {words} {context.get(key, '?')}, got {got}"
    if kind == "too_short" and context.get("min_length", 1) == 1:
        return f"must not be empty, got {got}"
    if kind == "json_invalid":
        return f"not valid JSON: {context.get('error', problem['msg'])}"
    text = problem["msg"]
    return f"{text[:1].lower()}{text[1:]}, got {quoted(given, python=python)}"


def did_you_mean(name: str, options: Iterable[str]) -> str:
    """`` — did you mean cols?`` for the known name nearest ``name`` (difflib's ratio at
    least 0.6), or nothing when none is near."""
    near = difflib.get_close_matches(name, [str(option) for option in options], n=1)
    return f" \u2014 did you mean {one_line(near[0])}?" if near else ""


def field_names(model: object, loc: Sequence[int | str]) -> tuple[str, ...]:
    """The field names that the type ``model`` (a pydantic model, a ``TypedDict``, or a
    list, union or ``Annotated`` of them) accepts at ``loc``, a pydantic location; a part of
    ``loc`` that names no field but a discriminator's value (``moves.7.reveal``) picks that
    branch. Empty when ``loc`` leads to no mapping of known fields."""
    types = _branches(model)
    for part in loc:
        found: list[object] = []
        for kind in types:
            if isinstance(part, int):
                args = get_args(kind)
                if get_origin(kind) in (list, tuple) and args:
                    found += _branches(args[0])
                continue
            fields = _fields(kind)
            if part in fields:
                found += _branches(fields[part])
            elif any(part in get_args(_plain(hint)) for hint in fields.values()):
                found.append(kind)  # a discriminator's value: this very branch
        types = found
    names: list[str] = []
    for kind in types:
        names += [name for name in _fields(kind) if name not in names]
    return tuple(names)


def _plain(hint: object) -> object:
    """``hint`` without ``Annotated``, ``NotRequired`` and ``Required`` around it."""
    while get_origin(hint) in (Annotated, NotRequired, Required):
        hint = get_args(hint)[0]
    return hint


def _branches(hint: object) -> list[object]:
    """The types a hint allows, unions opened (``None`` and plain values dropped)."""
    hint = _plain(hint)
    if get_origin(hint) in (Union, UnionType):
        return [branch for arg in get_args(hint) for branch in _branches(arg)]
    return [] if hint is type(None) else [hint]


def _fields(kind: object) -> dict[str, object]:
    """A model's or a ``TypedDict``'s fields and their hints; empty for any other type."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return {name: info.annotation for name, info in kind.model_fields.items()}
    if is_typeddict(kind):
        return dict(get_type_hints(kind, include_extras=True))
    return {}
