"""Reading YAML that may be hostile: the one loader of records and of ruleset files.

PyYAML's safe loader, on libyaml's C parser when PyYAML has it (many times faster; see
:func:`load_yaml`), with these guards, on either path:

- no aliases (``*name``): a few bytes of anchors and aliases can stand for gigabytes
  ("billion laughs");
- at most :data:`MAX_NESTING` lists and mappings deep, the limit of the JSON reader
  (pydantic's), so that a record gets the same verdict in either form;
- a ``\\u`` escape of a surrogate reads as JSON reads it: a pair of them is one character,
  a lone one is no Unicode text and is refused;
- a key given twice in one mapping is refused (:class:`DuplicateKeyError`, which names
  the mapping's path and the key), where PyYAML would keep the last value silently;
- ``<<`` and ``=`` are plain keys, as they are in JSON (YAML 1.1 made them merge and
  value keys, which only make sense with aliases);
- a value that does not fit its explicit tag (``!!int ""``) is refused;
- plain scalars are typed by YAML 1.2's core schema (:data:`_CORE_SCHEMA`), the YAML that
  editors check against the JSON Schemas: only ``true``/``false`` are booleans
  (``no`` is a string), ``012`` is twelve, and dates, ``1_000`` or ``1:30`` are strings.

Every refusal is a :class:`UnreadableYamlError` whose message is one line and says where.
"""

from __future__ import annotations

import gc
import re
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from typing import Any

import yaml

from ..core.errors import DuplicateKeyError, UnreadableYamlError, one_line, quoted_key

__all__ = ["FAST", "MAX_NESTING", "MAX_SLOW_BYTES", "Location", "load_yaml", "walk"]

FAST = True
"""Read with libyaml when PyYAML has it (tests turn it off to check the pure loader)."""

MAX_NESTING = 200
"""Most lists and mappings a value may lie inside. The JSON reader (pydantic's) refuses
deeper input; the YAML reader keeps the same limit, so both forms get the same verdict."""


MAX_SLOW_BYTES = 512 * 1024
"""The largest document the pure Python loader reads: it takes about 8 s a MiB (libyaml
about half a second), so that a stranger's record is answered within a few seconds. Past
it, a document libyaml refuses (an alias, say) gets libyaml's refusal without a second
reading. Documents that libyaml reads alone are bounded only by the record limit."""


Location = tuple[str | int, ...]
"""Where a value lies: mapping keys and list indexes from the top, e.g. ``("rounds", 0)``."""


def walk(tree: object) -> Iterator[tuple[Location, Any]]:
    """Every mapping and list in ``tree`` with its location, level by level from the top
    and, within a level, in document order (the order in which duplicates are reported)."""
    queue: deque[tuple[Location, Any]] = deque([((), tree)])
    while queue:
        location, node = queue.popleft()
        if isinstance(node, dict):
            yield location, node
            queue.extend(((*location, _part(key)), value) for key, value in node.items())
        elif isinstance(node, list):
            yield location, node
            queue.extend(((*location, index), value) for index, value in enumerate(node))


def _part(key: object) -> str:
    return key if isinstance(key, str) else one_line(repr(key))


def load_yaml(raw: bytes) -> object:
    """The YAML document in ``raw`` (UTF-8) as plain data; raises :class:`UnreadableYamlError`.

    libyaml (PyYAML's C parser, when it is installed) reads it first, many times faster.
    Whatever it does not read to the end, for any reason, is read again by the pure
    Python loader, whose verdict and words then stand: so both give the same verdicts,
    and a refusal is worded the same with or without libyaml.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableYamlError(f"not UTF-8 text: byte {error.start} cannot be decoded") from None
    refused: Exception | None = None
    if FAST and _FastLoader is not None and not _READ_OTHERWISE.search(text):
        try:
            data, duplicates = _construct(_FastLoader(raw))
        except Exception as error:  # any refusal: the pure loader below says why, in its words
            refused = error
        else:
            _refuse_duplicates(data, duplicates)
            return data
    if len(raw) > MAX_SLOW_BYTES:  # the pure loader would take minutes
        if refused is not None:  # libyaml's refusal, in the words the pure loader uses
            raise _unreadable(refused, text) from None
        raise UnreadableYamlError(
            f"a YAML document read without libyaml (it holds a tab or a byte order mark, "
            f"or PyYAML has no libyaml) may be at most {MAX_SLOW_BYTES // 2**10} KiB, "
            f"this one is {len(raw)} bytes: write it with spaces instead of tabs, or as JSON"
        )
    try:
        data, duplicates = _construct(_PureLoader(text))
    except Exception as error:
        raise _unreadable(error, text) from None
    _refuse_duplicates(data, duplicates)
    return data


def _unreadable(error: Exception, text: str) -> UnreadableYamlError:
    """The one-line refusal for what a loader raised while reading ``text``; an error that
    is no refusal of the document is raised again as it is."""
    if isinstance(error, UnreadableYamlError):
        return error
    if isinstance(error, yaml.reader.ReaderError):  # a character YAML does not allow
        line = text.count("\n", 0, error.position) + 1
        column = error.position - text.rfind("\n", 0, error.position)
        return UnreadableYamlError(
            f"not valid YAML: {error.reason} (U+{error.character:04X}) "
            f"at line {line}, column {column}"
        )
    if isinstance(error, yaml.YAMLError):
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "not valid YAML"
        return UnreadableYamlError(f"not valid YAML: {problem}{where}")
    if isinstance(error, ValueError):  # e.g. an integer with more digits than Python converts
        return UnreadableYamlError(f"not valid YAML: {error}")
    if isinstance(error, LookupError | AttributeError | TypeError | ArithmeticError):
        # PyYAML's constructors given a value that its explicit tag does not fit:
        # ``!!int ""``, ``!!bool maybe``, ``!!timestamp soon``.
        return UnreadableYamlError(
            "not valid YAML: a value does not fit its tag (!!int, !!bool, ...)"
        )
    raise error


def _construct(loader: _Construction) -> tuple[object, list[tuple[object, object, yaml.Mark]]]:
    """The document ``loader`` reads, and the mappings in it that repeat a key.

    The values are built straight from the parser's events (:meth:`_Construction.build`):
    PyYAML's own way composes a graph of nodes first, two position marks each, which
    takes about a hundred times the document's size in memory; this takes a few times.
    Python's cycle collector is paused meanwhile: a large document is millions of new
    objects, each batch of which would set off a collection over all the others, for
    nothing (they form no cycles). That more than halves the time."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return loader.build(), loader.duplicates
    finally:
        loader.dispose()  # type: ignore[attr-defined]
        if collecting:
            gc.enable()


def _refuse_duplicates(data: object, duplicates: list[tuple[object, object, yaml.Mark]]) -> None:
    """Raise :class:`DuplicateKeyError` for the mapping nearest the top that repeats a key."""
    if not duplicates:
        return
    repeated = {id(mapping): key for mapping, key, _ in duplicates}
    for location, node in walk(data):
        if id(node) in repeated:
            raise DuplicateKeyError(location, _key_text(repeated[id(node)]))
    _, key, mark = duplicates[0]  # a mapping that is not itself in the data (a !!set)
    raise UnreadableYamlError(
        f"not valid YAML: key {quoted_key(_key_text(key))} given more than once "
        f"at line {mark.line + 1}, column {mark.column + 1}"
    )


def _key_text(key: object) -> str:
    return key if isinstance(key, str) else repr(key)


class _Construction(yaml.constructor.SafeConstructor):
    """What both loaders build: strings as JSON reads them, mappings without merge keys and
    with repeated keys noted, ``<<`` and ``=`` as plain strings; and, since a record
    repeats the same few scalars (``action``, small numbers) thousands of times, each
    distinct scalar resolved once per document."""

    def _prepare(self) -> None:
        """Called by each loader's ``__init__`` (PyYAML's own are not cooperative)."""
        self.duplicates: list[tuple[object, object, yaml.Mark]] = []
        """(mapping, first key it repeats, where); the mapping is kept alive, so that its
        ``id`` is not reused before the duplicates are located."""
        self._tags: dict[str, str] = {}
        self._scalars: dict[tuple[str, str], object] = {}

    def build(self) -> object:
        """The single document of the stream as plain data, built from the parser's events
        (no node graph): PyYAML's composer and constructor in one pass, with their words
        for every refusal, and this loader's guards (no aliases, :data:`MAX_NESTING`)."""
        self.get_event()  # type: ignore[attr-defined]  # the stream's start
        if self.check_event(yaml.StreamEndEvent):  # type: ignore[attr-defined]
            self.get_event()  # type: ignore[attr-defined]
            return None
        document = self.get_event()  # type: ignore[attr-defined]  # the document's start
        data = self._build_value()
        self.get_event()  # type: ignore[attr-defined]  # the document's end
        if not self.check_event(yaml.StreamEndEvent):  # type: ignore[attr-defined]
            event = self.get_event()  # type: ignore[attr-defined]
            raise yaml.composer.ComposerError(
                "expected a single document in the stream",
                document.start_mark,
                "but found another document",
                event.start_mark,
            )
        self.get_event()  # type: ignore[attr-defined]
        return data

    def _build_value(self) -> object:
        """One value (a scalar, or a whole list or mapping) from the events, iteratively."""
        stack: list[_Open] = []
        get_event = self.get_event  # type: ignore[attr-defined]
        while True:
            event = get_event()
            kind = event.__class__
            if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                closed = stack.pop()
                value = closed.finish(self)
                mark = closed.mark
            else:
                if kind is yaml.AliasEvent:
                    raise yaml.composer.ComposerError(
                        None, None, "aliases (*name) are not allowed", event.start_mark
                    )
                if len(stack) > MAX_NESTING:
                    raise yaml.composer.ComposerError(
                        None,
                        None,
                        f"nested too deeply (more than {MAX_NESTING} levels)",
                        event.start_mark,
                    )
                mark = event.start_mark
                if kind is yaml.ScalarEvent:
                    value = self._scalar(event)
                else:
                    stack.append(self._open(event))
                    continue
            if not stack:
                return value
            stack[-1].add(self, value, mark)

    def _scalar(self, event: yaml.ScalarEvent) -> object:
        """A scalar's value; a plain one (a number, a string...) is built once per text."""
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.resolve(yaml.ScalarNode, event.value, event.implicit)
        plain = tag in _PLAIN_TAGS
        if plain:
            data = self._scalars.get((tag, event.value), _MISSING)
            if data is not _MISSING:
                return data
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)  # type: ignore[arg-type]
        data = self._constructor(tag)(self, node)
        if plain:
            self._scalars[(tag, event.value)] = data
        return data

    def _constructor(self, tag: str) -> Callable[[Any, yaml.Node], Any]:
        constructor = self.yaml_constructors.get(tag) or self.yaml_constructors[None]
        return constructor  # type: ignore[no-any-return]

    def _open(self, event: yaml.CollectionStartEvent) -> _Open:
        is_map = event.__class__ is yaml.MappingStartEvent
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.resolve(yaml.MappingNode if is_map else yaml.SequenceNode, None, True)
        return _Open(tag, is_map, event.start_mark)

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: Any) -> Any:
        if kind is not yaml.ScalarNode:
            return super().resolve(kind, value, implicit)  # type: ignore[misc]
        if not implicit[0]:  # quoted, or tagged "!": a string (what PyYAML's resolve says)
            return _STR
        tag = self._tags.get(value)
        if tag is None:
            tag = self._tags[value] = super().resolve(kind, value, implicit)  # type: ignore[misc]
        return tag

    def construct_yaml_str(self, node: yaml.ScalarNode) -> str:
        """A string, read as the JSON reader reads it: two ``\\u`` escapes of a surrogate
        pair make one character; a lone surrogate is no Unicode text and is refused."""
        text: str = super().construct_yaml_str(node)
        if text.isascii() or not _SURROGATE.search(text):
            return text
        try:
            return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a \\u escape gives a lone surrogate, not a character", node.start_mark
            ) from None


class _Open:
    """A list or mapping being built from events: its values so far, and for a mapping
    the key waiting for its value."""

    __slots__ = ("data", "is_map", "key", "key_mark", "mark", "repeated", "tag")

    def __init__(self, tag: str, is_map: bool, mark: Any) -> None:
        self.tag = tag
        self.is_map = is_map
        self.mark = mark
        self.data: Any = {} if is_map else []
        self.key: Any = _MISSING
        self.key_mark: Any = None
        self.repeated = False

    def add(self, loader: _Construction, value: object, mark: Any) -> None:
        """Append ``value``, or in a mapping take it as the next key or the key's value
        (a repeated key is noted in the loader's ``duplicates``, as PyYAML keeps the last)."""
        if not self.is_map:
            self.data.append(value)
        elif self.key is _MISSING:
            if not isinstance(value, Hashable):
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping", self.mark, "found unhashable key", mark
                )
            self.key, self.key_mark = value, mark
        else:
            key, self.key = self.key, _MISSING
            if key in self.data and not self.repeated:
                self.repeated = True
                loader.duplicates.append((self.data, key, self.key_mark))
            self.data[key] = value

    def finish(self, loader: _Construction) -> object:
        """The finished value: a list or a dict, or what the collection's tag makes of it
        (``!!set``, ``!!omap``, ``!!pairs``, as PyYAML's safe constructors make them)."""
        if self.tag == (_MAP if self.is_map else _SEQ):
            return self.data
        if self.tag == _SET and self.is_map:
            return set(self.data)
        if self.tag in (_OMAP, _PAIRS) and not self.is_map:
            return _pairs(self.data, self.tag, self.mark)
        # Any other tag does not fit a collection: PyYAML's constructor says so in its words.
        kind = yaml.MappingNode if self.is_map else yaml.SequenceNode
        built = loader._constructor(self.tag)(loader, kind(self.tag, [], self.mark, self.mark))
        if isinstance(built, Iterator):
            next(built, None)
            for _ in built:
                pass
        raise yaml.constructor.ConstructorError(
            None, None, f"the tag {self.tag} does not fit a collection", self.mark
        )


def _pairs(items: list[Any], tag: str, mark: yaml.Mark) -> list[tuple[Any, Any]]:
    """``!!omap`` and ``!!pairs``: a list of one-pair mappings, as (key, value) tuples."""
    pairs: list[tuple[Any, Any]] = []
    name = "an ordered map" if tag == _OMAP else "pairs"
    for item in items:
        if not isinstance(item, dict):
            raise yaml.constructor.ConstructorError(
                f"while constructing {name}", mark, "expected a mapping of length 1", mark
            )
        if len(item) != 1:
            raise yaml.constructor.ConstructorError(
                f"while constructing {name}",
                mark,
                f"expected a single mapping item, but found {len(item)} items",
                mark,
            )
        pairs.append(next(iter(item.items())))
    return pairs


_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "bool", "null", "float")
)
"""Tags whose values are immutable and depend on their text alone."""
_READ_OTHERWISE = re.compile("[\t\ufeff]")
"""Characters that libyaml reads otherwise than PyYAML's pure loader: a tab (libyaml takes
it into a plain scalar where PyYAML refuses it) and a byte order mark past the start
(libyaml skips it). A document holding one is read by the pure loader alone."""
_MISSING = object()
_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_SET = "tag:yaml.org,2002:set"
_OMAP = "tag:yaml.org,2002:omap"
_PAIRS = "tag:yaml.org,2002:pairs"
_SURROGATE = re.compile("[\ud800-\udfff]")
_CORE_SCHEMA: tuple[tuple[str, str, str], ...] = (
    ("bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
    ("int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789"),
    (
        "float",
        r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
        "-+.0123456789",
    ),
    ("null", r"~|null|Null|NULL|", "~nN"),
)
"""YAML 1.2's core schema: which plain scalars are booleans, integers, floats and null
(tag, pattern, first characters); every other plain scalar is a string. This is the
YAML that editors check against the JSON Schemas (YAML 1.2), so ``bounce: no`` is the
string ``"no"`` here as there, not YAML 1.1's false; ``012`` is twelve, not octal ten;
``1_000``, ``1:30`` and ``2026-12-01`` are strings."""


def _core_resolvers() -> dict[str | None, list[tuple[str, re.Pattern[str]]]]:
    resolvers: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {}
    for name, pattern, firsts in _CORE_SCHEMA:
        compiled = re.compile(f"^(?:{pattern})$")
        for first in [*firsts, *([""] if name == "null" else [])]:
            resolvers.setdefault(first, []).append((f"tag:yaml.org,2002:{name}", compiled))
    return resolvers


_Construction.yaml_implicit_resolvers = _core_resolvers()  # type: ignore[attr-defined]


class _PureLoader(_Construction, yaml.SafeLoader):
    """PyYAML's safe loader in Python: the loader whose words every refusal is reported in."""

    def __init__(self, stream: str) -> None:
        yaml.SafeLoader.__init__(self, stream)
        self._prepare()


class _FastLoader(_Construction, yaml.CSafeLoader):
    """The same loader on libyaml's C parser (many times faster)."""

    def __init__(self, stream: bytes) -> None:
        yaml.CSafeLoader.__init__(self, stream)
        self._prepare()


def _string(loader: _PureLoader | _FastLoader, node: yaml.ScalarNode) -> str:
    return loader.construct_yaml_str(node)


def _integer(loader: _PureLoader | _FastLoader, node: yaml.ScalarNode) -> int:
    """An integer as YAML 1.2 reads it: decimal (leading zeros allowed), ``0o`` octal or
    ``0x`` hexadecimal; anything else (``0b1``, ``1_000``, an empty ``!!int``) is refused."""
    text = str(loader.construct_scalar(node))
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    if not re.fullmatch(r"[-+]?[0-9]+", text):
        raise TypeError(text)  # reported as a value that does not fit its tag
    return int(text)


for _loader in (_PureLoader, _FastLoader):
    _loader.add_constructor("tag:yaml.org,2002:str", _string)
    _loader.add_constructor("tag:yaml.org,2002:int", _integer)

if not getattr(yaml, "__with_libyaml__", False):
    _FastLoader = None  # type: ignore[misc, assignment]  # PyYAML built without libyaml
