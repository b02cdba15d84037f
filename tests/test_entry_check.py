"""The fast check of move entries (``core/entry_check.py``) says what pydantic's strict
reading says, and the record reader that uses it reads what pydantic reads.

An entry fits exactly when pydantic's strict reading of its JSON text accepts it and
returns it unchanged (same keys, same order, same values of the same types): checked on
entries built from each action's form, then broken (a value of another type, a bool for
an integer, an integer past 64 bits, a face name that is no face, a key missing, one
too many, keys in another order). A record read through the check equals pydantic's
reading of it, on recorded games, on every kind of mutation of them, and on the examples.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, TypeAdapter, ValidationError
from pydantic_core import from_json
from record_mutations import Mutation, mutated, render
from strategies import RecordedGame, recorded_games
from typing_extensions import TypedDict

import gnoming_rules as gr
from gnoming_rules.core.entry_check import FULL_FORMS, PUBLIC_FORMS, EntryField, EntryForms
from gnoming_rules.core.entry_forms import ACTIONS, MoveEntry, PublicMoveEntry, RevealEntry
from gnoming_rules.core.errors import INT64_MAX, INT64_MIN
from gnoming_rules.formats import record

ROOT = Path(__file__).resolve().parents[1]

ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "full": TypeAdapter(MoveEntry),
    "public": TypeAdapter(PublicMoveEntry),
}
FORMS = {"full": FULL_FORMS, "public": PUBLIC_FORMS}

EDGE_INTEGERS = [INT64_MIN - 1, INT64_MIN, -1, 0, 1, 2, 8, 2**60, 2**62, INT64_MAX, INT64_MAX + 1]
EDGE_TEXTS = ["H", "M", "K", "JK", "Q10", "ABCD", "h", "H\n", "\nH", "1", "", "é", "deck"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(EDGE_INTEGERS),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=4),
    st.sampled_from(EDGE_TEXTS + list(ACTIONS) + ["discard"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=4,
)
KEYS = st.sampled_from(["action", "player", "slot", "source", "pile", "card", "cards", "x"])


def _good_value(draw: st.DrawFn, field: EntryField) -> object:
    """A value the field's form takes, mostly (the check, not this, is under test)."""
    face = st.one_of(
        st.integers(-20, 20), st.sampled_from(EDGE_INTEGERS), st.sampled_from(EDGE_TEXTS)
    )
    if field.nullable and draw(st.booleans()):
        return None
    if field.words:
        return draw(st.sampled_from(sorted(field.words)))
    if field.name == "cards":
        return draw(st.lists(face, max_size=4))
    if field.name == "card":
        return draw(face)
    return draw(st.one_of(st.integers(0, 9), st.sampled_from(EDGE_INTEGERS)))


@st.composite
def entries(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    """An entry of a random action, built from its form, perhaps broken."""
    action = draw(st.sampled_from(ACTIONS))
    entry: dict[str, Any] = {}
    for field in FORMS[kind].forms[action]:
        if field.required or draw(st.booleans()):
            broken = draw(st.integers(0, 9)) == 0
            entry[field.name] = draw(VALUES) if broken else _good_value(draw, field)
    change = draw(st.sampled_from(["none", "none", "drop", "add", "reorder"]))
    if change == "drop" and entry:
        del entry[draw(st.sampled_from(sorted(entry)))]
    elif change == "add":
        entry[draw(KEYS | st.text(max_size=3))] = draw(VALUES)
    elif change == "reorder":
        keys = draw(st.permutations(list(entry)))
        entry = {key: entry[key] for key in keys}
    return entry


def _pydantic_returns_it_unchanged(kind: str, text: str) -> bool:
    """Whether pydantic's strict reading of the JSON ``text`` accepts it and returns the
    same keys in the same order, each the same value of the same type."""
    try:
        read = ADAPTERS[kind].validate_json(text)
    except ValidationError:
        return False
    given_items = [(key, type(value), value) for key, value in from_json(text).items()]
    return [(key, type(value), value) for key, value in read.items()] == given_items


def _agrees(kind: str, entry: object) -> None:
    text = json.dumps(entry)
    assert FORMS[kind].fits(from_json(text)) == _pydantic_returns_it_unchanged(kind, text), text


@settings(max_examples=600)
@given(
    st.sampled_from(["full", "public"]).flatmap(
        lambda kind: st.tuples(st.just(kind), entries(kind))
    )
)
def test_an_entry_fits_exactly_when_pydantic_returns_it_unchanged(
    case: tuple[str, dict[str, Any]],
) -> None:
    _agrees(*case)


@given(st.sampled_from(["full", "public"]), VALUES)
def test_any_json_value_fits_only_as_pydantic_says(kind: str, value: object) -> None:
    _agrees(kind, value)


@pytest.mark.parametrize("kind", ["full", "public"])
@pytest.mark.parametrize(
    "entry",
    [
        {"action": "draw", "player": 0, "source": "deck", "card": 7},
        {"action": "draw", "player": 0, "source": "discard", "pile": 1, "card": "H"},
        {"action": "draw", "player": 0, "source": "deck", "pile": None, "card": None},
        {"action": "discard", "player": 2, "pile": 0},
        {"action": "discard", "player": 2, "pile": None},
        {"action": "reveal", "player": 1, "slot": 4, "card": -2},
        {"action": "reshuffle", "cards": [1, "M", "K"]},
        {"action": "reshuffle"},
        {"action": "place", "player": True, "slot": 1},
        {"action": "place", "player": 1, "slot": 1.0},
        {"action": "place", "player": -1, "slot": 1},
        {"action": "place", "player": 1, "slot": INT64_MAX + 1},
        {"action": "place", "player": 1, "slot": INT64_MIN},
        {"action": "place", "player": 1, "slot": 2, "card": INT64_MIN - 1},
        {"action": "place", "player": 1, "slot": 2, "card": "H\n"},
        {"action": "place", "player": 1, "slot": 2, "card": "k"},
        {"action": "place", "player": 1, "slot": 2, "card": True},
        {"action": "place", "slot": 2, "player": 1},
        {"action": "place", "player": 1},
        {"action": "place", "player": 1, "slot": 2, "extra": 0},
        {"action": "draw", "player": 0, "source": "pile"},
        {"action": "Draw", "player": 0, "source": "deck"},
        {"action": None},
        {"player": 0},
        {"action": "reshuffle", "cards": [1, 2.0]},
        {"action": "reshuffle", "cards": "12"},
        [],
        "draw",
    ],
    ids=repr,
)
def test_the_edge_cases_fit_only_as_pydantic_says(kind: str, entry: object) -> None:
    _agrees(kind, entry)


def test_a_form_the_table_cannot_say_is_refused_when_it_is_built() -> None:
    class Weighed(TypedDict):
        action: Literal["weigh"]
        weight: float

    with pytest.raises(TypeError, match="weight"):
        EntryForms(Annotated[RevealEntry | Weighed, Field(discriminator="action")])


# --- the record reader -------------------------------------------------------------------


def _agree_on(raw: bytes) -> None:
    """The reading through the check, when it reads, is pydantic's reading, to the byte."""
    public = record._says_public(raw)
    adapter = record.PUBLIC_ADAPTER if public else record.RECORD_ADAPTER
    forms = PUBLIC_FORMS if public else FULL_FORMS
    fast = record._read_fitting(raw, adapter, forms)
    if fast is None:
        return
    strict = adapter.validate_json(raw)
    assert fast == strict
    assert fast.model_fields_set == strict.model_fields_set
    assert [round_.model_fields_set for round_ in fast.rounds] == [
        round_.model_fields_set for round_ in strict.rounds
    ]
    assert record.dump_record(fast) == record.dump_record(strict)


def _parse(raw: bytes, fast: bool) -> object:
    with mock.patch.object(record, "FAST_ENTRY_CHECK", fast):
        try:
            return record.parse_record(raw, format="json")
        except gr.RecordError as error:
            return (error.code, error.message, error.round, error.move, error.problems)


@settings(max_examples=25)
@given(recorded_games())
def test_a_recorded_game_is_read_through_the_check(recorded: RecordedGame) -> None:
    raw = recorded.text("json").encode()
    assert record._read_fitting(raw, record.RECORD_ADAPTER, FULL_FORMS) is not None
    _agree_on(raw)


@settings(max_examples=150)
@given(mutated(recorded_games()))
def test_a_mutated_record_is_read_or_refused_as_pydantic_does(
    case: tuple[RecordedGame, Mutation],
) -> None:
    recorded, mutation = case
    raw = render(mutation.apply(recorded.data()), "json").encode()
    _agree_on(raw)
    assert _parse(raw, fast=True) == _parse(raw, fast=False)


@pytest.mark.parametrize(
    "path", sorted((ROOT / "examples").rglob("*.json")), ids=lambda path: path.name
)
def test_the_examples_are_read_alike(path: Path) -> None:
    raw = path.read_bytes()
    _agree_on(raw)
    assert _parse(raw, fast=True) == _parse(raw, fast=False)
