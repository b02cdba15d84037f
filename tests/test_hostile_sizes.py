"""Big hostile inputs are refused for what no ruleset allows before the record's models
are built (more rounds than any game has, a deal longer than any deck), YAML past its own
limit is refused unread, and an alias in a large YAML document is not read twice. The
time and memory they take at the size limits are measured by ``benchmarks/memory.py
--hostile`` (goal: 5 s and 300 MB); here the verdicts, and memory well under it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_limits import validate_in_a_process

from gnoming_rules.core.errors import MAX_PROBLEMS, RecordError
from gnoming_rules.core.ruleset import MAX_DECK, MAX_ROUNDS
from gnoming_rules.formats.record import (
    MAX_JSON_CONTAINERS,
    MAX_RECORD_BYTES,
    MAX_YAML_BYTES,
    SHAPE_CHECK_BYTES,
    parse_record,
)
from gnoming_rules.formats.safe_yaml import MAX_SLOW_BYTES

HEAD = '{"format":"gnoming-record/1","ruleset":"standard","players":["a","b","c"],"first_player":0,'
HEAD_YAML = "format: gnoming-record/1\nruleset: standard\nplayers: [a, b, c]\nfirst_player: 0\n"
MIB = 1024 * 1024


def filled(head: str, unit: str, tail: str, size: int) -> str:
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def test_more_rounds_than_any_game_has_are_refused_unbuilt() -> None:
    one = '{"deal":[1],"moves":[]}'
    text = filled(HEAD + '"rounds":[', one + ",", one + "]}", 4 * SHAPE_CHECK_BYTES)
    with pytest.raises(RecordError) as refused:
        parse_record(text)
    assert refused.value.code == "bad-record"
    assert refused.value.message.startswith(f"rounds: at most {MAX_ROUNDS} items, as no ruleset")


def test_a_json_record_of_more_lists_and_mappings_than_moves_allow_is_refused_unread(
    tmp_path: Path,
) -> None:
    """Read, ``[],`` takes twenty times its text: counted first, a million is the most."""
    path = tmp_path / "lists.json"
    path.write_text(filled(HEAD + '"x":[', "[],", "[]]}", MAX_RECORD_BYTES))
    status, peak, out, _ = validate_in_a_process(str(path))
    error = json.loads(out)["error"]
    assert status == 2 and error["code"] == "bad-record"
    assert error["message"].startswith(
        f"a JSON record may hold at most {MAX_JSON_CONTAINERS:,} lists and mappings"
    )
    assert peak < 150 * MIB, f"{peak / MIB:.0f} MiB"  # 480 MB before
    under = filled(HEAD + '"rounds":[{"deal":[1],"moves":[', "{},", "{}]}]}", 2_000_000)
    assert under.count("{") <= MAX_JSON_CONTAINERS
    with pytest.raises(RecordError) as listed:  # under the count, every {} a problem
        parse_record(under)
    assert not listed.value.message.startswith("a JSON record may hold")


@pytest.mark.parametrize("yaml", [False, True], ids=["json", "yaml"])
def test_a_million_problems_are_counted_without_holding_them(tmp_path: Path, yaml: bool) -> None:
    """Every ``{}`` move is a problem: pydantic held about 1.6 KB for each (9 GB for 16
    MiB); the first hundred are listed, the rest counted, in bounded memory."""
    if yaml:
        head = HEAD_YAML + "rounds: [{deal: [1], moves: ["
        text = filled(head, "{},", "{}]}]\n", MAX_YAML_BYTES)
    else:
        head = HEAD + '"rounds":[{"deal":[1],"moves":['
        text = filled(head, "{},", "{}]}]}", 3 * MAX_JSON_CONTAINERS - 1000)
    moves = text.count("{}")
    path = tmp_path / ("moves.yaml" if yaml else "moves.json")
    path.write_text(text)
    status, peak, out, _ = validate_in_a_process(str(path))
    error = json.loads(out)["error"]
    assert status == 2 and (error["round"], error["move"]) == (0, 0)
    assert error["message"] == (
        f"rounds[0].moves[0].action: missing field (and {moves - 1} more problems)"
    )
    assert [problem["move"] for problem in error["problems"]] == list(range(MAX_PROBLEMS))
    assert peak < 200 * MIB, f"{peak / MIB:.0f} MiB"


def test_a_deal_longer_than_any_deck_is_a_bad_deal_at_its_round() -> None:
    text = filled(HEAD + '"rounds":[{"deal":[', "1,", '1],"moves":[]}]}', 2 * SHAPE_CHECK_BYTES)
    with pytest.raises(RecordError) as refused:
        parse_record(text)
    assert (refused.value.code, refused.value.round) == ("bad-deal", 0)
    assert f"no deck holds more than {MAX_DECK:,} cards" in refused.value.message


def test_the_same_record_gets_the_same_verdict_small_or_large() -> None:
    """A large JSON document is read through plain data (then the models): its verdict is
    the one the direct reader gives a small one."""
    small = HEAD + '"rounds":[{"deal":[1],"moves":[{"action":"reveel","player":0}]}],"x":1}'
    large = small[:-1] + ',"padding":"' + " " * SHAPE_CHECK_BYTES + '"}'
    with pytest.raises(RecordError) as one:
        parse_record(small)
    with pytest.raises(RecordError) as other:
        parse_record(large)
    assert [p.message for p in one.value.problems] == [p.message for p in other.value.problems][
        : len(one.value.problems)
    ]
    assert other.value.problems[-1].message.startswith("padding: unknown field")


def test_a_yaml_record_past_its_limit_is_refused_unread() -> None:
    text = "format: gnoming-record/1\nrounds: [" + "1," * (MAX_YAML_BYTES // 2) + "1]\n"
    with pytest.raises(RecordError) as refused:
        parse_record(text)
    assert refused.value.message.startswith("a YAML record may be at most 2 MiB")
    assert "write a record this large as JSON" in refused.value.message


def test_an_alias_in_a_large_yaml_document_is_refused_in_one_reading() -> None:
    text = filled("players: &p [", "a,", "a]\nrounds: *p\n", MAX_SLOW_BYTES + 10)
    with pytest.raises(RecordError) as refused:
        parse_record(text, format="yaml")
    assert "aliases (*name) are not allowed" in refused.value.message
