"""Input that a record reader must survive: arbitrary bytes, JSON, YAML and text.

Each strategy gives ``(content, suffix)``: the bytes of a file and the suffix it is saved
under (``.json``, ``.yaml``, ``.yml``, or none and ``.txt``, which the reader sniffs).
Besides noise, some inputs look like records (the right keys, values of any kind), so
that the checks after parsing (ruleset, seats, deals, the replay) see garbage too.
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import strategies as st

from gnoming_rules.formats.record import ACTIONS, FORMAT

SUFFIXES = (".json", ".yaml", ".yml", "", ".txt")

json_values: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["H", "M", "deck", "discard", *ACTIONS]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=25,
)
"""Any JSON document (YAML reads each one too)."""

_cards = st.integers(-12, 15) | st.sampled_from(["H", "M"]) | json_values
_small = st.integers(-2, 10) | json_values

moves_shaped = st.fixed_dictionaries(
    {"action": st.sampled_from(ACTIONS) | json_values},
    optional={
        "player": _small,
        "slot": _small,
        "source": st.sampled_from(["deck", "discard"]) | json_values,
        "pile": st.integers(-1, 2) | json_values,
        "card": _cards,
        "cards": st.lists(_cards, max_size=6),
    },
)
rounds_shaped = st.fixed_dictionaries(
    {},
    optional={
        "deal": st.lists(_cards, max_size=40) | json_values,
        "moves": st.lists(moves_shaped, max_size=12) | json_values,
        "scores": st.lists(st.integers(-20, 40), max_size=8) | json_values,
    },
)
records_shaped = st.fixed_dictionaries(
    {"format": st.just(FORMAT) | json_values},
    optional={
        "ruleset": st.sampled_from(["standard", "quick", "nope", "../x.yaml"]) | json_values,
        "ruleset_sha256": st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
        "players": st.lists(st.text(max_size=4), max_size=9) | json_values,
        "first_player": _small,
        "rounds": st.lists(rounds_shaped, max_size=3) | json_values,
        "result": st.fixed_dictionaries(
            {}, optional={"totals": st.lists(st.integers()), "winners": st.lists(_small)}
        )
        | json_values,
    },
)
"""Mappings with a record's keys and values of any kind."""

YAML_BITS = (
    "format: gnoming-record/1\n",
    "ruleset: standard\n",
    "players: [a, b, c]\n",
    "first_player: 0\n",
    "rounds:\n",
    "- deal: [1, 2, H, M]\n",
    "  moves:\n",
    "  - {action: reveal, player: 0, slot: 1}\n",
    "- ",
    "  ",
    "\t",
    "\n",
    ": ",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "!!python/object/apply:os.system ['true']",
    "!!binary aGk=",
    "!!int ",
    "!!str ",
    "!custom ",
    "---\n",
    "...\n",
    "%YAML 1.1\n",
    "%TAG ! tag:x,2000:\n",
    "0x1F",
    "0o17",
    "1_000",
    "1e400",
    ".inf",
    "~",
    "2024-01-01",
    "yes",
    "'",
    '"',
    "\\",
    "#",
    "|\n",
    ">-\n",
    "@",
    "`",
    "\x85",
    "\u2028",
    "\ufeff",
    "\x00",
    "\x7f",
    "\udcff",
)
"""Pieces of YAML, right and wrong: tags, anchors, directives, odd scalars, odd characters."""


def _encode(text: str) -> bytes:
    """UTF-8, except that ``\\udcff`` stands for the byte 0xff (never valid UTF-8)."""
    return text.encode("utf-8", errors="surrogateescape")


yaml_texts: st.SearchStrategy[bytes] = st.one_of(
    st.lists(st.sampled_from(YAML_BITS), max_size=30).map(lambda bits: _encode("".join(bits))),
    json_values.map(lambda value: yaml.safe_dump(value, allow_unicode=True).encode()),
    records_shaped.map(lambda value: yaml.safe_dump(value, allow_unicode=True).encode()),
)
"""YAML documents, valid or not."""

json_texts: st.SearchStrategy[bytes] = st.one_of(
    json_values.map(lambda value: json.dumps(value).encode()),
    records_shaped.map(lambda value: json.dumps(value, ensure_ascii=False).encode()),
    # JSON cut short, or with a byte changed
    st.tuples(records_shaped, st.integers(0, 10**6), st.binary(max_size=3)).map(
        lambda cut: _spliced(json.dumps(cut[0]).encode(), cut[1], cut[2])
    ),
)
"""JSON documents, valid or not."""


def _spliced(data: bytes, at: int, insert: bytes) -> bytes:
    at %= len(data) + 1
    return data[:at] + insert + data[at + len(insert) :]


def hostile_files() -> st.SearchStrategy[tuple[bytes, str]]:
    """``(content, suffix)``: bytes, JSON or YAML, under a suffix that may not match."""
    suffixes = st.sampled_from(SUFFIXES)
    return st.one_of(
        st.tuples(st.binary(max_size=400), suffixes),
        st.tuples(json_texts, st.sampled_from([".json", ".json", "", ".yaml"])),
        st.tuples(yaml_texts, st.sampled_from([".yaml", ".yml", "", ".json"])),
        st.tuples(st.text(max_size=200).map(lambda text: text.encode()), suffixes),
    )
