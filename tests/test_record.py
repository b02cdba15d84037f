"""Record models: strict parsing of JSON and YAML, field paths in errors, hostile input, writing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gnoming_rules.core.errors import RecordError
from gnoming_rules.formats.record import (
    MAX_RECORD_BYTES,
    Record,
    dump_record,
    parse_record,
    read_record,
    write_record,
)
from gnoming_rules.referee.validate import validate_record


def record_data(moves: list[Any], **top: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "gnoming-record/1",
        "ruleset": "standard",
        "players": ["Ana", "Bo", "Cy"],
        "first_player": 0,
        "rounds": [{"deal": [1, "H", "M", -3], "moves": moves}],
    }
    data.update(top)
    return data


def refusal(data: object, fmt: str = "json") -> RecordError:
    text = json.dumps(data) if fmt == "json" else data
    assert isinstance(text, str)
    with pytest.raises(RecordError) as caught:
        parse_record(text, format="json" if fmt == "json" else "yaml")
    assert caught.value.code == "bad-record"
    return caught.value


def test_a_record_parses_into_models_with_moves_as_checked_dicts() -> None:
    data = record_data(
        [
            {"action": "reveal", "player": 0, "slot": 4, "card": 7},
            {"action": "draw", "player": 0, "source": "discard", "pile": 1},
            {"action": "discard", "player": 0},
            {"action": "reshuffle", "cards": [3, "H", -2]},
        ],
        ruleset_sha256="a" * 64,
        result={"totals": [1, 2, 3], "winners": [0]},
    )
    record = parse_record(json.dumps(data))
    assert isinstance(record, Record)
    assert record.players == ["Ana", "Bo", "Cy"]
    assert record.rounds[0].deal == [1, "H", "M", -3]
    assert record.rounds[0].moves[0] == {"action": "reveal", "player": 0, "slot": 4, "card": 7}
    assert record.rounds[0].moves[3] == {"action": "reshuffle", "cards": [3, "H", -2]}
    assert record.result is not None and record.result.winners == [0]


def test_a_pile_past_the_rulesets_last_is_found_by_the_validator_not_the_reader() -> None:
    """The reader cannot know how many piles the ruleset has (RULES 3.3): pile 2 is read,
    and the validator refuses it under the two-pile standard rules, at that move."""
    data = record_data([{"action": "draw", "player": 0, "source": "discard", "pile": 2}])
    verdict = validate_record(parse_record(json.dumps(data)))
    assert verdict.error is not None
    assert (verdict.error.code, verdict.error.round, verdict.error.move) == ("bad-record", 0, 0)
    assert verdict.error.message == "rounds[0].moves[0].pile: must be 0 or 1, got 2"


@pytest.mark.parametrize(
    ("move", "path", "words"),
    [
        ({"action": "reveal", "player": 0, "slot": "4"}, ".slot", 'must be an integer, got "4"'),
        ({"action": "reveal", "player": 0, "slot": 4.0}, ".slot", "must be an integer, got 4.0"),
        ({"action": "reveal", "player": True, "slot": 4}, ".player", "must be an integer"),
        ({"action": "reveal", "player": -1, "slot": 4}, ".player", "at least 0"),
        ({"action": "reveal", "player": 0, "slot": 4, "card": "?"}, ".card", "not a card"),
        ({"action": "reveal", "player": 0, "slot": 4, "card": "x"}, ".card", "not a card"),
        ({"action": "reveal", "player": 0, "slot": 4, "x": 1}, ".x", "unknown field"),
        ({"action": "reveal", "player": 0}, ".slot", "missing field"),
        ({"action": "jump", "player": 0}, ".action", 'unknown action "jump"'),
        ({"player": 0}, ".action", "missing field"),
        ({"action": "draw", "player": 0, "source": "hand"}, ".source", "'deck' or 'discard'"),
        ({"action": "draw", "player": 0, "source": "discard", "pile": True}, ".pile", "integer"),
        ({"action": "discard", "player": 0, "pile": -1}, ".pile", "a discard pile (0, 1"),
        ({"action": "reshuffle", "cards": [1, "?"]}, ".cards[1]", "not a card"),
        ([1, 2], "", "must be a mapping"),
    ],
)
def test_a_malformed_move_names_its_field_path_round_and_move(
    move: Any, path: str, words: str
) -> None:
    error = refusal(record_data([{"action": "reveal", "player": 0, "slot": 1}, move]))
    assert error.message.startswith(f"rounds[0].moves[1]{path}: "), error.message
    assert words in error.message
    assert (error.round, error.move) == (0, 1)


@pytest.mark.parametrize(
    ("change", "prefix"),
    [
        ({"format": "gnoming-record/2"}, "format: must be 'gnoming-record/1'"),
        ({"ruleset": 3}, "ruleset: must name a bundled ruleset"),
        ({"ruleset": ""}, "ruleset: must name a bundled ruleset"),
        ({"ruleset_sha256": "abc"}, "ruleset_sha256: must be 64 lowercase hex digits"),
        ({"players": []}, "players: must not be empty"),
        ({"players": ["Ana", 2]}, "players[1]: must be a string"),
        ({"first_player": 1.5}, "first_player: must be an integer"),
        ({"first_player": False}, "first_player: must be an integer"),
        ({"rounds": {}}, "rounds: must be a list"),
        ({"result": {"totals": [1, 2, 3], "best": 1}}, "result.best: unknown field"),
        ({"extra": 1}, "extra: unknown field"),
    ],
)
def test_a_malformed_top_field_names_its_path_and_no_move(
    change: dict[str, Any], prefix: str
) -> None:
    error = refusal(record_data([], **change))
    assert error.message.startswith(prefix), error.message
    assert (error.round, error.move) == (None, None)


def test_round_fields_outside_moves_give_their_path_without_a_location() -> None:
    data = record_data([])
    data["rounds"][0]["deal"] = [1, True]
    error = refusal(data)
    assert error.message.startswith("rounds[0].deal[1]: not a card")
    assert (error.round, error.move) == (None, None)
    data = record_data([])
    data["rounds"][0]["scores"] = [1, "2"]
    assert refusal(data).message.startswith("rounds[0].scores[1]: must be an integer")


def test_a_missing_field_and_the_count_of_other_problems_are_reported() -> None:
    error = refusal({"format": "gnoming-record/1"})
    assert error.message == "ruleset: missing field (and 3 more problems)"


def test_yaml_records_follow_the_same_rules() -> None:
    text = (
        "format: gnoming-record/1\nruleset: standard\nplayers: [Ana, Bo, Cy]\nfirst_player: 0\n"
        "rounds:\n  - deal: [1, H]\n    moves:\n      - {action: reveal, player: 0, slot: 1}\n"
        "      - {action: reveal, player: 0, slot: true}\n"
    )
    error = refusal(text, "yaml")
    assert error.message == "rounds[0].moves[1].slot: must be an integer, got true"
    assert (error.round, error.move) == (0, 1)


@pytest.mark.parametrize(
    ("data", "fmt", "words"),
    [
        (b"", "json", "not valid JSON"),
        (b"{", "json", "not valid JSON"),
        (b"[1, 2]", "json", "must be a mapping"),
        (b"\xff\xfe{}", "json", "not valid JSON"),
        (b"\xff\xfe: 1", "yaml", "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "json", "not valid JSON"),
        (b"[" * 100_000, "yaml", "nested too deeply"),
        (b'{"first_player": 1' + b"0" * 5000 + b"}", "json", "not valid JSON"),
        (b"first_player: 1" + b"0" * 5000, "yaml", "not valid YAML"),
        (b"a: &x [1, 2]\nb: *x\n", "yaml", "aliases (*name) are not allowed"),
        (b"a: [1\n", "yaml", "not valid YAML"),
        (b"--- 1\n--- 2\n", "yaml", "not valid YAML"),
        (
            b"format: gnoming-record/1\nruleset: standard\nplayers: [!!timestamp 2024-01-01]\n"
            b"first_player: 0\nrounds: []\n",
            "yaml",
            "players[0]: must be a string, got datetime.date(2024, 1, 1)",
        ),
    ],
)
def test_hostile_input_is_a_one_line_bad_record(data: bytes, fmt: str, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(data, format="json" if fmt == "json" else "yaml")
    assert caught.value.code == "bad-record"
    assert words in caught.value.message, caught.value.message
    assert "\n" not in caught.value.message


def test_a_billion_laughs_yaml_is_refused_before_it_expands() -> None:
    lines = ['a0: ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    with pytest.raises(RecordError, match="aliases"):
        parse_record("\n".join(lines), format="yaml")


def test_input_over_the_size_limit_is_refused_unread() -> None:
    with pytest.raises(RecordError, match="larger than"):
        parse_record(b" " * (MAX_RECORD_BYTES + 1))


def test_the_format_is_sniffed_and_a_byte_order_mark_is_skipped() -> None:
    data = record_data([{"action": "reveal", "player": 0, "slot": 1}])
    as_json = parse_record(b"\xef\xbb\xbf" + json.dumps(data).encode())
    as_yaml = parse_record(dump_record(as_json, "yaml"))
    assert as_json == as_yaml


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_written_records_read_back_equal(fmt: str, tmp_path: Any) -> None:
    data = record_data(
        [
            {"action": "reveal", "player": 0, "slot": 4, "card": "M"},
            {"action": "draw", "player": 0, "source": "deck", "card": -3},
            {"action": "discard", "player": 0, "pile": 1},
            {"action": "reshuffle", "cards": [3, "H", -2]},
        ],
        ruleset={"extends": "standard", "deck": {"numbers": {"13": 2}}, "name": "ünï"},
        players=["Ana", 'Bo "the bold"', "yes"],
        result={"winners": [1]},
    )
    data["rounds"].append({"deal": [], "moves": [], "scores": [1, -2, 3]})
    record = parse_record(json.dumps(data))
    path = tmp_path / f"game.{fmt}"
    write_record(record, path)
    assert read_record(path) == record
    lines = path.read_text(encoding="utf-8").splitlines()
    assert sum("reveal" in line for line in lines) == 1  # one move per line


def test_reading_a_missing_file_is_a_bad_record(tmp_path: Any) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "nothing.json")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_either_parse_or_raise_a_bad_record(data: bytes) -> None:
    for fmt in ("json", "yaml"):
        try:
            parse_record(data, format=fmt)
        except RecordError as error:
            assert error.code == "bad-record"


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_arbitrary_json_either_parses_or_raises_a_bad_record(value: object) -> None:
    text = json.dumps(value)
    for fmt in ("json", "yaml"):
        try:
            parse_record(text, format=fmt)
        except RecordError as error:
            assert error.code == "bad-record"
            assert "\n" not in error.message


# --- the readers and the writers agree (found by tests/test_record_properties.py) -------------


@pytest.mark.parametrize(
    "text", ["a\x7fb", "\x85", "x\x9f", "\ufffe", "\uffff", "\u2028", "\ufeffx"]
)
def test_any_name_is_written_as_yaml_that_reads_back_the_same(text: str) -> None:
    """DEL, C1 controls and U+FFFE/U+FFFF may not stand raw in YAML, and NEL reads as a line
    break: the YAML writer escapes them."""
    data = record_data([], players=[text, "Bo", "Cy"], ruleset=f"rules/{text}.yaml")
    record = parse_record(json.dumps(data, ensure_ascii=False))
    assert parse_record(dump_record(record, "yaml"), format="yaml") == record


@pytest.mark.parametrize(
    "tagged", ["!!int", "!!int +", "!!int _", "!!bool maybe", "!!bool", "!!timestamp soon"]
)
def test_a_yaml_value_that_does_not_fit_its_tag_is_a_bad_record(tagged: str) -> None:
    error = refusal(f"format: gnoming-record/1\nfirst_player: {tagged}\n", "yaml")
    assert error.message == "not valid YAML: a value does not fit its tag (!!int, !!bool, ...)"


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_text_with_a_lone_surrogate_is_a_bad_record(fmt: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record('{"format": "gnoming-record/1\ud800"}', format=fmt)  # type: ignore[arg-type]
    assert caught.value.message == "not Unicode text: character 28 is a lone surrogate (U+D800)"


def test_yaml_reads_unicode_escapes_as_json_does() -> None:
    """A surrogate pair written as two escapes is one character; a lone one is refused."""
    pair = record_data([], players=["\U0001f600", "Bo", "Cy"])
    as_json = parse_record(json.dumps(pair))  # ASCII: the smiley as "\ud83d\ude00"
    assert as_json == parse_record(json.dumps(pair), format="yaml")
    assert as_json.players[0] == "\U0001f600"
    lone = json.dumps(record_data([], players=["\ud800", "Bo", "Cy"]))
    assert "not valid JSON" in refusal(json.loads(lone)).message
    error = refusal(lone, "yaml")
    assert error.message.startswith("not valid YAML: a \\u escape gives a lone surrogate")


@pytest.mark.parametrize("depth", [195, 196, 197, 198])
def test_json_and_yaml_refuse_the_same_nesting(depth: int) -> None:
    """The JSON reader (pydantic's) refuses a value inside more than 200 lists and mappings;
    the YAML reader draws the line at the same place, so both forms get the same verdict."""
    moves = [{"action": "reveal", "player": 0, "slot": "SLOT"}]  # inside 5 lists and mappings
    text = json.dumps(record_data(moves)).replace('"SLOT"', "[" * depth + "]" * depth)
    errors = []
    for fmt in ("json", "yaml"):
        with pytest.raises(RecordError) as caught:
            parse_record(text, format=fmt)
        errors.append(caught.value)
    json_error, yaml_error = errors
    assert (json_error.round, json_error.move) == (yaml_error.round, yaml_error.move)
    if 5 + depth - 1 <= 200:  # the innermost (empty) list lies inside 5 + depth - 1
        assert json_error.message == yaml_error.message
        assert (json_error.round, json_error.move) == (0, 0)
    else:
        assert "recursion limit exceeded" in json_error.message
        assert yaml_error.message.startswith("not valid YAML: nested too deeply (more than 200")


def test_a_character_yaml_does_not_allow_is_named_with_its_place() -> None:
    error = refusal('format: gnoming-record/1\nplayers: ["a\x7f"]\n', "yaml")
    assert error.message == (
        "not valid YAML: special characters are not allowed (U+007F) at line 2, column 13"
    )


# --- integers beyond 64 bits (an audit found YAML's 0xfff... crashing the messages) ------------

HUGE_HEX = "0x" + "f" * 20_000
"""A YAML integer of about 24,000 digits: Python reads it (base 16 has no digit limit),
but ``str()`` of it raises."""


def _with_moves(moves: list[Any], **top: Any) -> str:
    return json.dumps(record_data(moves, **top)).replace('"HUGE"', HUGE_HEX)


@pytest.mark.parametrize(
    ("text", "path", "place"),
    [
        (
            _with_moves([{"action": "reveal", "player": 0, "slot": "HUGE"}]),
            "rounds[0].moves[0].slot",
            (0, 0),
        ),
        (
            _with_moves([{"action": "reveal", "player": "HUGE", "slot": 1}]),
            "rounds[0].moves[0].player",
            (0, 0),
        ),
        (
            _with_moves([{"action": "reveal", "player": 0, "slot": 1, "card": "HUGE"}]),
            "rounds[0].moves[0].card",
            (0, 0),
        ),
        (
            _with_moves([{"action": "reshuffle", "cards": [1, "HUGE"]}]),
            "rounds[0].moves[0].cards[1]",
            (0, 0),
        ),
        (
            _with_moves([{"action": "discard", "player": 0, "pile": "HUGE"}]),
            "rounds[0].moves[0].pile",
            (0, 0),
        ),
        (_with_moves([], first_player="HUGE"), "first_player", (None, None)),
        (_with_moves([], result={"totals": [1, "HUGE", 3]}), "result.totals[1]", (None, None)),
        (_with_moves([], result={"winners": ["HUGE"]}), "result.winners[0]", (None, None)),
        (_with_moves([], format="HUGE"), "format", (None, None)),
        (_with_moves([], ruleset="HUGE"), "ruleset", (None, None)),
        (_with_moves([], extra="HUGE"), "extra", (None, None)),
        (
            _with_moves([]).replace('"deal": [1', f'"deal": [{HUGE_HEX}'),
            "rounds[0].deal[0]",
            (None, None),
        ),
        (
            _with_moves([]).replace('"moves": []', f'"moves": [], "scores": [1, {HUGE_HEX}, 3]'),
            "rounds[0].scores[1]",
            (None, None),
        ),
    ],
)
def test_a_huge_yaml_integer_is_a_short_bad_record_at_its_field(
    text: str, path: str, place: tuple[int | None, int | None]
) -> None:
    error = refusal(text, "yaml")
    assert error.message.startswith(f"{path}: "), error.message
    assert (error.round, error.move) == place
    assert "\n" not in error.message and len(error.message) < 200, error.message


@pytest.mark.parametrize(
    ("value", "refused"),
    [
        (2**63 - 1, False),
        (-(2**63), False),
        (2**63, True),
        (-(2**63) - 1, True),
        (10**40, True),
    ],
)
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_every_integer_of_a_record_lies_in_the_64_bit_range(
    value: int, refused: bool, fmt: str
) -> None:
    fields = [("slot", "slot"), ("card", "card")]
    for field, path in fields:
        move = {"action": "reveal", "player": 0, "slot": 1, field: value}
        text = json.dumps(record_data([move]))
        if not refused:
            parse_record(text, format=fmt)  # type: ignore[arg-type]
            continue
        error = refusal(json.loads(text)) if fmt == "json" else refusal(text, "yaml")
        assert error.message.startswith(f"rounds[0].moves[0].{path}: must be an integer from ")
        assert "(64 bits)" in error.message and (error.round, error.move) == (0, 0)


# --- a key given twice (JSON readers, and PyYAML, keep the last value silently) ----------------


def _twice(text: str, key: str, first: str) -> str:
    """``text`` with ``"key": first,`` written before the first ``"key":``."""
    return text.replace(f'"{key}":', f'"{key}": {first}, "{key}":', 1)


_RECORD_TEXT = json.dumps(
    record_data(
        [
            {"action": "reveal", "player": 0, "slot": 1},
            {"action": "discard", "player": 0, "pile": 1},
        ],
        ruleset={"extends": "standard", "hazard": {"penalty": 5}},
        result={"winners": [0]},
    )
)


@pytest.mark.parametrize(
    ("key", "first", "path", "place"),
    [
        ("slot", "4", "rounds[0].moves[0]: ", (0, 0)),
        ("pile", "0", "rounds[0].moves[1]: ", (0, 1)),
        ("first_player", "1", "", (None, None)),
        ("deal", "[]", "rounds[0]: ", (None, None)),
        ("winners", "[1]", "result: ", (None, None)),
        ("penalty", "6", "ruleset.hazard: ", (None, None)),
        ("slot", '"four"', "rounds[0].moves[0]: ", (0, 0)),  # wins over the wrong type
    ],
)
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_key_given_twice_is_a_bad_record_naming_the_mapping_and_the_key(
    key: str, first: str, path: str, place: tuple[int | None, int | None], fmt: str
) -> None:
    text = _twice(_RECORD_TEXT, key, first)
    with pytest.raises(RecordError) as caught:
        parse_record(text, format=fmt)  # type: ignore[arg-type]
    error = caught.value
    assert error.code == "bad-record"
    assert error.message == f'{path}key "{key}" given more than once'
    assert (error.round, error.move) == place


def test_of_several_repeated_keys_the_one_nearest_the_top_is_named_in_both_forms() -> None:
    text = _twice(_twice(_RECORD_TEXT, "slot", "4"), "penalty", "6")
    messages = set()
    for fmt in ("json", "yaml"):
        with pytest.raises(RecordError) as caught:
            parse_record(text, format=fmt)
        messages.add(caught.value.message)
    assert messages == {'ruleset.hazard: key "penalty" given more than once'}


def test_colons_inside_strings_are_no_repeated_keys() -> None:
    """The JSON reader counts colons to skip the search for repeated keys; a colon inside
    a string makes it search, and find none."""
    data = record_data([{"action": "reveal", "player": 0, "slot": 1}])
    data["players"] = ["a:b", "c: d", '"e":']
    assert parse_record(json.dumps(data)).players == data["players"]


def test_yaml_merge_and_value_keys_are_plain_keys_as_in_json() -> None:
    """YAML 1.1's ``<<`` (merge) and ``=`` (value) keys would let YAML say what JSON
    cannot: they are ordinary keys, unknown to a record, in both forms."""
    for key in ("<<", "="):
        move = '{"action": "reveal", "player": 0, "slot": 1, "KEY": {"slot": 2}}'
        text = json.dumps(record_data([])).replace('"moves": []', f'"moves": [{move}]')
        as_json = refusal(json.loads(text.replace("KEY", key)))
        as_yaml = refusal(text.replace('"KEY"', key), "yaml")  # a plain scalar
        for error in (as_json, as_yaml):
            assert error.message.startswith(f"rounds[0].moves[0].{key}: unknown field")
