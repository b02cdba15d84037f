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
from collections.abc import Hashable, Iterator
from typing import Any

import yaml

from ..core.errors import DuplicateKeyError, UnreadableYamlError, one_line, quoted_key

FAST = True
"""Read with libyaml when PyYAML has it (tests turn it off to check the pure loader)."""

MAX_NESTING = 200
"""Most lists and mappings a value may lie inside. The JSON reader (pydantic's) refuses
deeper input; the YAML reader keeps the same limit, so both forms get the same verdict."""


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
    if FAST and _FastLoader is not None and not _READ_OTHERWISE.search(text):
        try:
            data, duplicates = _construct(_FastLoader(raw))
        except Exception:  # any refusal: the pure loader below says why, in its words
            pass
        else:
            _refuse_duplicates(data, duplicates)
            return data
    try:
        data, duplicates = _construct(_PureLoader(text))
    except yaml.reader.ReaderError as error:  # a character YAML does not allow
        line = text.count("\n", 0, error.position) + 1
        column = error.position - text.rfind("\n", 0, error.position)
        raise UnreadableYamlError(
            f"not valid YAML: {error.reason} (U+{error.character:04X}) "
            f"at line {line}, column {column}"
        ) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "not valid YAML"
        raise UnreadableYamlError(f"not valid YAML: {problem}{where}") from None
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        raise UnreadableYamlError(f"not valid YAML: {error}") from None
    except (LookupError, AttributeError, TypeError, ArithmeticError):
        # PyYAML's constructors given a value that its explicit tag does not fit:
        # ``!!int ""``, ``!!bool maybe``, ``!!timestamp soon``.
        raise UnreadableYamlError(
            "not valid YAML: a value does not fit its tag (!!int, !!bool, ...)"
        ) from None
    _refuse_duplicates(data, duplicates)
    return data


def _construct(loader: _Construction) -> tuple[object, list[tuple[object, object, yaml.Mark]]]:
    """The document ``loader`` reads, and the mappings in it that repeat a key.

    Python's cycle collector is paused meanwhile: a large document is millions of new
    objects (nodes, then values), each batch of which would set off a collection over
    all the others, for nothing (they form no cycles). That more than halves the time."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return loader.get_single_data(), loader.duplicates
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

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: Any) -> Any:
        if kind is not yaml.ScalarNode:
            return super().resolve(kind, value, implicit)  # type: ignore[misc]
        if not implicit[0]:  # quoted, or tagged "!": a string (what PyYAML's resolve says)
            return _STR
        tag = self._tags.get(value)
        if tag is None:
            tag = self._tags[value] = super().resolve(kind, value, implicit)  # type: ignore[misc]
        return tag

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """A node's value; a plain scalar (a number, a string...) is built once per text.
        A node met twice is an alias (libyaml composes them without asking)."""
        constructed = self.constructed_objects
        if node in constructed:
            raise yaml.constructor.ConstructorError(
                None, None, "aliases (*name) are not allowed", node.start_mark
            )
        if node.__class__ is not yaml.ScalarNode or node.tag not in _PLAIN_TAGS:
            return super().construct_object(node, deep)
        key = (node.tag, node.value)
        data = self._scalars.get(key, _MISSING)
        if data is _MISSING:
            data = self._scalars[key] = super().construct_object(node, deep)
        else:
            constructed[node] = data
        return data

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

    def construct_yaml_map(  # type: ignore[override]
        self, node: yaml.MappingNode
    ) -> Iterator[dict[Any, Any]]:
        data: dict[Any, Any] = {}
        yield data
        self._fill(node, data)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """Keys as given (no merge keys), a repeated key noted in :attr:`duplicates`."""
        return self._fill(node, {}, deep)

    def _fill(
        self, node: yaml.MappingNode, mapping: dict[Any, Any], deep: bool = False
    ) -> dict[Any, Any]:
        if not isinstance(node, yaml.MappingNode):
            raise yaml.constructor.ConstructorError(
                None, None, f"expected a mapping node, but found {node.id}", node.start_mark
            )
        repeated = False
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, Hashable):
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    "found unhashable key",
                    key_node.start_mark,
                )
            if key in mapping and not repeated:
                repeated = True
                self.duplicates.append((mapping, key, key_node.start_mark))
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


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
    """PyYAML's safe loader in Python, refusing aliases and nesting deeper than
    :data:`MAX_NESTING` as it composes the document: the loader whose words every
    refusal is reported in."""

    _open = 0
    """Lists and mappings being composed around the current node."""

    def __init__(self, stream: str) -> None:
        yaml.SafeLoader.__init__(self, stream)
        self._prepare()

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", mark)
        if self._open > MAX_NESTING:
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None, None, f"nested too deeply (more than {MAX_NESTING} levels)", mark
            )
        opens = self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent)
        self._open += opens
        try:
            return super().compose_node(parent, index)
        finally:
            self._open -= opens


class _FastLoader(_Construction, yaml.CSafeLoader):
    """The same loader on libyaml's C parser and composer. libyaml composes aliases and
    deep nesting without asking, so the guards sit where Python is called back: every
    node composed calls :meth:`descend_resolver` (depth), and a node constructed twice
    is an alias (:meth:`_Construction.construct_object`)."""

    def __init__(self, stream: bytes) -> None:
        yaml.CSafeLoader.__init__(self, stream)
        self._prepare()
        self._depth = 0

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        self._depth += 1
        if self._depth > MAX_NESTING + 1:  # the node lies inside more than MAX_NESTING
            raise yaml.composer.ComposerError(
                None, None, f"nested too deeply (more than {MAX_NESTING} levels)", None
            )

    def ascend_resolver(self) -> None:
        self._depth -= 1


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


def _mapping(loader: _PureLoader | _FastLoader, node: yaml.MappingNode) -> Iterator[dict[Any, Any]]:
    return loader.construct_yaml_map(node)


for _loader in (_PureLoader, _FastLoader):
    _loader.add_constructor("tag:yaml.org,2002:str", _string)
    _loader.add_constructor("tag:yaml.org,2002:map", _mapping)
    _loader.add_constructor("tag:yaml.org,2002:int", _integer)

if not getattr(yaml, "__with_libyaml__", False):
    _FastLoader = None  # type: ignore[misc, assignment]  # PyYAML built without libyaml
