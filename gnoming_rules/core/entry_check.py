"""The fast check that move entries have their strict form, derived from their declaration.

:mod:`~gnoming_rules.core.entry_forms` declares each action's entry once, as a
``TypedDict``; pydantic checks an entry against it, and says exactly what is wrong with one
that does not fit, which a record's reader reports. A valid record holds thousands of
entries that fit, and pydantic spends most of a record's reading on them. This module
walks the same declarations once, at import, into a table (per action: its fields in
order, which are required, the values each takes) that :meth:`EntryForms.fits` checks a
plain entry against, compiled, in a fraction of the time.

The table says the same as the declarations, or nothing: an annotation it does not know
raises ``TypeError`` at import. An entry fits when pydantic's strict reading would accept
it and return it unchanged: the same keys, in the order the form declares them, each
value one pydantic accepts (``tests/test_entry_check.py`` checks that they agree, entry by
entry). An entry that does not fit, in any way, is left to pydantic, which then words the
problem (or, for keys in another order, returns them reordered).
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any, Final, Literal, Union, get_args, get_origin, get_type_hints

import annotated_types
import typing_extensions
from pydantic.fields import FieldInfo

from .entry_forms import CardFace, MoveEntry, PublicMoveEntry

__all__ = [
    "COMPILED",
    "FULL_FORMS",
    "PUBLIC_FORMS",
    "EntryField",
    "EntryForms",
]

COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled (mypyc): only then is the check worth its pass over
the entries, which pure Python takes longer for than pydantic's whole reading of them; the
record reader asks."""

_SMALL: Final = 2**60
"""Integers within this bound compare fast, compiled (unboxed); both bounds lie outside it."""
_WORD: Final = 0
_INTEGER: Final = 1
_FACE: Final = 2
_FACES: Final = 3
_CHOSEN: Final = 4
"""The action's own field: the form was chosen by its value, which is therefore right."""

_FACE_SCHEMA: Final[Any] = get_args(CardFace)[1]
"""The card face's pydantic metadata: its integer range and its pattern for a name."""
_FACE_LOW: Final[int] = _FACE_SCHEMA.low
_FACE_HIGH: Final[int] = _FACE_SCHEMA.high
_FACE_NAME: Final = re.compile(_FACE_SCHEMA.pattern)
"""``fullmatch`` with it matches as pydantic's ``^...$`` does (``"H\\n"`` is no face)."""

_NOT_REQUIRED: Final = (typing.NotRequired, typing_extensions.NotRequired)
_UNIONS: Final = (Union, types.UnionType)


def _is_face(value: object) -> bool:
    if type(value) is int:
        number: int = value
        return -_SMALL < number < _SMALL or _FACE_LOW <= number <= _FACE_HIGH
    return type(value) is str and _FACE_NAME.fullmatch(value) is not None


class EntryField:
    """One field of an entry's form: its name, whether it is required, whether it may be
    ``null``, and the values it takes (words of a ``Literal``, an integer range, a card
    face, a list of card faces)."""

    def __init__(
        self,
        name: str,
        required: bool,
        nullable: bool,
        kind: int,
        *,
        low: int = 0,
        high: int = 0,
        words: frozenset[str] = frozenset(),
    ) -> None:
        self.name = name
        self.required = required
        self.nullable = nullable
        self.kind = kind
        self.low = low
        self.high = high
        self.words = words
        self.small_low = max(low, -_SMALL)
        self.small_high = min(high, _SMALL)

    def accepts(self, value: object) -> bool:
        """Whether pydantic's strict reading takes ``value`` (plain JSON data) as it is."""
        if value is None:
            return self.nullable
        kind = self.kind
        if kind == _INTEGER:
            if type(value) is not int:
                return False
            number: int = value
            if -_SMALL < number < _SMALL:  # the common case, compared without boxing
                return number >= self.small_low and number <= self.small_high
            return self.low <= number <= self.high
        if kind == _FACE:
            return _is_face(value)
        if kind == _WORD:
            return type(value) is str and value in self.words
        if type(value) is not list:
            return False
        return all(_is_face(item) for item in value)


class EntryForms:
    """The forms of one union of entries (a full record's, a public record's), by action."""

    def __init__(self, union: object) -> None:
        self.forms: dict[str, tuple[EntryField, ...]] = {}
        for form in get_args(get_args(union)[0]):
            fields = tuple(
                _field(name, hint)
                for name, hint in get_type_hints(form, include_extras=True).items()
            )
            action = next(field for field in fields if field.name == "action")
            if len(action.words) != 1 or not action.required:
                raise TypeError(f"{form.__name__}: its action is not one required word")
            chosen = EntryField("action", True, False, _CHOSEN)
            self.forms[next(iter(action.words))] = tuple(
                chosen if field is action else field for field in fields
            )

    def fits(self, entry: object) -> bool:
        """Whether ``entry`` (plain JSON data) is an entry that pydantic's strict reading
        returns unchanged: its action's fields, required ones present, no other key, in the
        declared order, every value of its field's type."""
        if type(entry) is not dict:
            return False
        mapping: dict[object, object] = entry
        action = mapping.get("action")
        if type(action) is not str:
            return False
        fields = self.forms.get(action)
        if fields is None:
            return False
        position = 0
        count = len(fields)
        for key, value in mapping.items():
            if type(key) is not str:
                return False
            name: str = key
            while True:
                if position == count:  # a key of no field, or out of order
                    return False
                field = fields[position]
                position += 1
                if field.name == name:
                    break
                if field.required:
                    return False
            if field.kind != _CHOSEN and not field.accepts(value):
                return False
        while position < count:
            if fields[position].required:
                return False
            position += 1
        return True

    def all_fit(self, entries: list[object]) -> bool:
        """Whether every entry of ``entries`` :meth:`fits`."""
        return all(self.fits(entry) for entry in entries)


def _field(name: str, hint: object) -> EntryField:
    """The field ``name`` of a form from its evaluated annotation; ``TypeError`` for an
    annotation this table cannot say the same as."""
    required = True
    if get_origin(hint) in _NOT_REQUIRED:
        hint, required = get_args(hint)[0], False
    nullable = False
    if get_origin(hint) in _UNIONS:
        members = [member for member in get_args(hint) if member is not type(None)]
        if len(members) != 1:
            raise TypeError(f"{name}: a union the fast check does not know: {hint}")
        hint, nullable = members[0], True
    origin = get_origin(hint)
    if origin is Literal:
        words = get_args(hint)
        if not all(type(word) is str for word in words):
            raise TypeError(f"{name}: a literal that is not words: {hint}")
        return EntryField(name, required, nullable, _WORD, words=frozenset(words))
    if origin is list and get_args(hint)[0] == CardFace:
        return EntryField(name, required, nullable, _FACES)
    if hint == CardFace:
        return EntryField(name, required, nullable, _FACE)
    if get_origin(hint) is typing.Annotated and get_args(hint)[0] is int:
        low, high = _bounds(name, get_args(hint)[1:])
        return EntryField(name, required, nullable, _INTEGER, low=low, high=high)
    raise TypeError(f"{name}: a type the fast check does not know: {hint}")


def _bounds(name: str, metadata: tuple[object, ...]) -> tuple[int, int]:
    """An integer field's ``ge`` and ``le``, both required (a record's integers are 64-bit);
    any other constraint is one the table cannot say the same as."""
    low: int | None = None
    high: int | None = None
    for info in metadata:
        if not isinstance(info, FieldInfo):
            raise TypeError(f"{name}: metadata the fast check does not know: {info!r}")
        for constraint in info.metadata:
            if isinstance(constraint, annotated_types.Ge) and type(constraint.ge) is int:
                low = constraint.ge
            elif isinstance(constraint, annotated_types.Le) and type(constraint.le) is int:
                high = constraint.le
            else:
                raise TypeError(f"{name}: a constraint the fast check does not know: {constraint}")
    if low is None or high is None:
        raise TypeError(f"{name}: an integer without both bounds")
    return low, high


FULL_FORMS: Final = EntryForms(MoveEntry)
"""The forms of a full record's entries (:data:`~.entry_forms.MoveEntry`)."""
PUBLIC_FORMS: Final = EntryForms(PublicMoveEntry)
"""The forms of a public record's entries (:data:`~.entry_forms.PublicMoveEntry`)."""
