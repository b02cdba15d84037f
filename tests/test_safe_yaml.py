"""The guarded YAML loader of records and ruleset files: libyaml's path and the pure one.

With libyaml (PyYAML's C parser) a document is read many times faster; whatever libyaml
does not read to the end is read again by the pure Python loader. Both must give the same
data and the same refusals: each guard is checked on both paths, and arbitrary YAML is
read by both and compared.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import yaml
from hostile_inputs import YAML_BITS, _encode, yaml_texts
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import recorded_games

from gnoming_rules.core.errors import UnreadableYamlError
from gnoming_rules.formats import safe_yaml
from gnoming_rules.formats.safe_yaml import load_yaml
from gnoming_rules.testing import RecordedGame

HAS_LIBYAML = bool(getattr(yaml, "__with_libyaml__", False))
PATHS = [
    pytest.param(
        True, id="libyaml", marks=pytest.mark.skipif(not HAS_LIBYAML, reason="no libyaml")
    ),
    pytest.param(False, id="pure"),
]


@contextmanager
def reading(fast: bool) -> Iterator[None]:
    """Read with libyaml first (``fast``) or with the pure loader only."""
    before = safe_yaml.FAST
    safe_yaml.FAST = fast
    try:
        yield
    finally:
        safe_yaml.FAST = before


def outcome(raw: bytes, fast: bool) -> tuple[str, Any]:
    """("data", the value) or ("refused", the message)."""
    with reading(fast):
        try:
            return "data", load_yaml(raw)
        except UnreadableYamlError as error:
            return "refused", error.message


# --- every guard, on both paths -----------------------------------------------------------------


def _laughs() -> bytes:
    lines = ['a0: ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    return "\n".join(lines).encode()


@pytest.mark.parametrize("fast", PATHS)
@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_laughs(), "not valid YAML: aliases (*name) are not allowed at line 2, column 6"),
        (
            b"a: &x 1\nb: *x\n",
            "not valid YAML: aliases (*name) are not allowed at line 2, column 4",
        ),
        (
            b"a: " + b"[" * 201 + b"]" * 201,
            "not valid YAML: nested too deeply (more than 200 levels) at line 1, column 204",
        ),
        (
            b"a: " + b"[" * 5_000 + b"]" * 5_000,  # beyond libyaml's own limit (1,000)
            "not valid YAML: nested too deeply (more than 200 levels) at line 1, column 204",
        ),
        (b'a: "\\ud800"', "not valid YAML: a \\u escape gives a lone surrogate, not a character"),
        (b'a: !!int ""', "not valid YAML: a value does not fit its tag (!!int, !!bool, ...)"),
        (b"a: [1, 2", "not valid YAML: expected ',' or ']', but got '<stream end>' at line 1"),
        (b"a: \x01", "not valid YAML: special characters are not allowed (U+0001)"),
        (b"\xff", "not UTF-8 text: byte 0 cannot be decoded"),
        (b"a: 1\nb: {c: 1, c: 2}\na: 3\n", 'key "a" given more than once'),
        (b"b: {c: 1, c: 2}\n", 'b: key "c" given more than once'),
        (b"a: " + b"9" * 5_000, "not valid YAML: Exceeds the limit (4300 digits)"),
    ],
)
def test_each_guard_refuses_alike_on_both_paths(fast: bool, text: bytes, message: str) -> None:
    kind, said = outcome(text, fast)
    assert kind == "refused" and said.startswith(message), said


@pytest.mark.parametrize("fast", PATHS)
def test_both_paths_read_the_same_data(fast: bool) -> None:
    text = (
        b'a: [1, -2, H, M, "x", 0x1F, 1_000, ~, yes, 1.5]\n'
        b'<<: 2\n=: 3\nanchored: &a 4\npair: "\\ud83d\\ude00"\n'
    )
    assert outcome(text, fast) == (
        "data",
        {
            "a": [1, -2, "H", "M", "x", 31, "1_000", None, "yes", 1.5],  # YAML 1.2
            "<<": 2,  # plain keys, as in JSON: no merge, no value key
            "=": 3,
            "anchored": 4,  # an anchor without an alias is harmless
            "pair": "\U0001f600",  # a surrogate pair in escapes is one character
        },
    )
    assert outcome(b'"<<": 1\n<<: 2\n', fast) == ("refused", 'key "<<" given more than once')


@pytest.mark.skipif(not HAS_LIBYAML, reason="no libyaml")
def test_libyaml_reads_a_record_and_the_pure_loader_is_not_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The speed comes from libyaml reading ordinary records on its own."""
    text = b"format: gnoming-record/1\nrounds:\n  - deal: [1, 2, H]\n"

    def refuse(*args: object) -> None:
        raise AssertionError("the pure loader was asked")

    monkeypatch.setattr(safe_yaml, "_PureLoader", refuse)
    with reading(True):
        assert load_yaml(text) == {"format": "gnoming-record/1", "rounds": [{"deal": [1, 2, "H"]}]}
    with reading(False), pytest.raises(AssertionError, match="pure loader"):
        load_yaml(text)


@pytest.mark.skipif(not HAS_LIBYAML, reason="no libyaml")
@pytest.mark.parametrize("text", [b"a: b\tc\n", b"a: 1\n\xef\xbb\xbf\n", b"[a,\tb]"])
def test_what_libyaml_reads_otherwise_goes_to_the_pure_loader(text: bytes) -> None:
    """A tab, or a byte order mark past the start: libyaml reads them differently."""
    assert outcome(text, True) == outcome(text, False)


# --- arbitrary YAML: both paths agree ---------------------------------------------------------

_MORE_BITS = (
    "a", "b: c", "- x", "{a: 1}", "[1, 2]", '"x"', "'y'", "? a\n: b\n", "!!int 3", "&x ",
    "%YAML 1.2\n---\n", '"\\ud83d\\ude00"', '"\\ud800"', "\u00a0", "\u2029", "\x85",
    '"\\x41"', '"\\N"', '"\\_"', "!<tag:yaml.org,2002:str> ", "!foo ", "...", "--- ",
    "  ", "    ", "|2\n", ">+\n", "'it''s'", "k" * 1030 + ": v\n", "\n  - ", "[a: b]",
    "{? a}", "\u3000", "\U0001f600", "0b101", "0o7", "+12", "190:20:30", "=", "<<", "1e3",
)  # fmt: skip
yaml_pieces = st.lists(st.sampled_from(YAML_BITS + _MORE_BITS), max_size=30).map(
    lambda bits: _encode("".join(bits))
)


def _record_text(recorded: RecordedGame) -> bytes:
    return recorded.text("yaml").encode()


@settings(max_examples=300)
@given(yaml_texts | yaml_pieces | recorded_games().map(_record_text))
def test_libyaml_and_the_pure_loader_agree_on_any_input(raw: bytes) -> None:
    fast, pure = outcome(raw, True), outcome(raw, False)
    assert json.dumps(fast, default=repr) == json.dumps(pure, default=repr)
