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

from gnoming_rules.core.errors import RecordError
from gnoming_rules.core.ruleset import MAX_DECK, MAX_ROUNDS
from gnoming_rules.formats.record import (
    MAX_RECORD_BYTES,
    MAX_YAML_BYTES,
    SHAPE_CHECK_BYTES,
    parse_record,
)
from gnoming_rules.formats.safe_yaml import MAX_SLOW_BYTES

HEAD = '{"format":"gnoming-record/1","ruleset":"standard","players":["a","b","c"],"first_player":0,'
MIB = 1024 * 1024


def filled(head: str, unit: str, tail: str, size: int) -> str:
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def test_more_rounds_than_any_game_has_are_refused_unbuilt(tmp_path: Path) -> None:
    path = tmp_path / "rounds.json"
    one = '{"deal":[1],"moves":[]}'
    path.write_text(filled(HEAD + '"rounds":[', one + ",", one + "]}", MAX_RECORD_BYTES))
    status, peak, out, _ = validate_in_a_process(str(path))
    error = json.loads(out)["error"]
    assert status == 2 and error["code"] == "bad-record"
    assert error["message"].startswith(f"rounds: at most {MAX_ROUNDS} items, as no ruleset")
    assert peak < 400 * MIB, f"{peak / MIB:.0f} MiB"  # 750 MB before


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
