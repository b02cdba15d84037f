"""Reading YAML that may be hostile: the one loader of records and of ruleset files.

PyYAML's safe loader, with these guards:

- no aliases (``*name``): a few bytes of anchors and aliases can stand for gigabytes
  ("billion laughs");
- at most :data:`MAX_NESTING` lists and mappings deep, the limit of the JSON reader
  (pydantic's), so that a record gets the same verdict in either form;
- a ``\\u`` escape of a surrogate reads as JSON reads it: a pair of them is one character,
  a lone one is no Unicode text and is refused;
- a value that does not fit its explicit tag (``!!int ""``) is refused.

Every refusal is a :class:`UnreadableYamlError` whose message is one line and says where.
"""

from __future__ import annotations

import re

import yaml

MAX_NESTING = 200
"""Most lists and mappings a value may lie inside. The JSON reader (pydantic's) refuses
deeper input; the YAML reader keeps the same limit, so both forms get the same verdict."""


class UnreadableYamlError(ValueError):
    """Input that is not YAML this loader reads; ``str()`` is a one-line message that says
    what and where (``not valid YAML: ... at line 3, column 7``)."""


def load_yaml(raw: bytes) -> object:
    """The YAML document in ``raw`` (UTF-8) as plain data; raises :class:`UnreadableYamlError`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableYamlError(f"not UTF-8 text: byte {error.start} cannot be decoded") from None
    try:
        return yaml.load(text, Loader=_GuardedLoader)  # a SafeLoader subclass
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


class _GuardedLoader(yaml.SafeLoader):
    """PyYAML's safe loader without aliases and nested at most :data:`MAX_NESTING` deep."""

    _open = 0
    """Lists and mappings being composed around the current node."""

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


_SURROGATE = re.compile("[\ud800-\udfff]")
_GuardedLoader.add_constructor("tag:yaml.org,2002:str", _GuardedLoader.construct_yaml_str)
