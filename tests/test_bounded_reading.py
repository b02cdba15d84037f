"""A record read as plain data and built in bounded memory (``formats/bounded.py``: moves
checked a batch at a time, problems listed from the first faulty rounds and moves, unknown
fields past a hundred only counted) gets exactly what pydantic's one call gives: the same
record, or the same problems in the same order with the same count."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import gnoming_rules as gr
from gnoming_rules.core.errors import RecordError
from gnoming_rules.formats import bounded
from gnoming_rules.formats.record import (
    PUBLIC_ADAPTER,
    RECORD_ADAPTER,
    SHAPE_CHECK_BYTES,
    dump_record,
    parse_record,
    record_error_from,
)
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.redact import redact


def _games() -> list[dict[str, Any]]:
    rules = gr.load_ruleset("standard")
    games = []
    for seed in range(2):
        record, _ = play_game(rules, 3, seed=seed)
        for form in (record, redact(record)):
            data = json.loads(dump_record(form))
            del data["rounds"][2:]  # two rounds: faults in one or both, kept small
            data.pop("result", None)
            games.append(data)
    return games


GAMES = _games()
JUNK: list[Any] = [None, "x", 1.5, True, -1, [], {}, [1, "a"], {"a": 1}, "H", 2**70, "reveal"]


def _damage(rng: random.Random, node: Any) -> None:
    """Delete, add or replace a few fields and items here and below, at random."""
    if isinstance(node, dict):
        for _ in range(rng.randrange(3)):
            keys, roll = list(node), rng.random()
            if roll < 0.2 and keys:
                del node[rng.choice(keys)]
            elif roll < 0.4:
                node[f"junk{rng.randrange(300)}"] = copy.deepcopy(rng.choice(JUNK))
            elif roll < 0.7 and keys:
                node[rng.choice(keys)] = copy.deepcopy(rng.choice(JUNK))
        for key in list(node):
            if rng.random() < 0.3:
                _damage(rng, node[key])
    elif isinstance(node, list) and node:
        for _ in range(rng.randrange(3)):
            index = rng.randrange(len(node))
            if rng.random() < 0.5:
                node[index] = copy.deepcopy(rng.choice(JUNK))
            else:
                _damage(rng, node[index])


def _hostile(rng: random.Random) -> dict[str, Any]:
    """A played record with faults: scattered, in many moves (past the hundred listed), or
    a mapping with hundreds of unknown fields."""
    data = copy.deepcopy(rng.choice(GAMES))
    shape = rng.randrange(4)
    if shape == 1:
        for round_ in data["rounds"]:
            for _ in range(rng.randrange(150) if rng.random() < 0.5 else 0):
                index = rng.randrange(len(round_["moves"]))
                move = copy.deepcopy(round_["moves"][index])
                _damage(rng, move)
                round_["moves"][index] = move
    elif shape == 2:
        places = [data, *data["rounds"], *(m for r in data["rounds"] for m in r["moves"][:3])]
        target = rng.choice(places)
        for number in range(rng.randrange(50, 300)):
            target[f"x{number}"] = number
    if shape != 3 or rng.random() < 0.5:
        _damage(rng, data)
    return data


def _outcome(build: Any, data: object) -> tuple[Any, ...]:
    try:
        return ("record", build(data).model_dump())
    except ValidationError as error:
        refused = record_error_from(error)
    except RecordError as error:
        refused = error
    return ("refused", refused.message, refused.problems)


@settings(max_examples=80)  # each example replays two builds of a whole record
@given(rng=st.randoms(use_true_random=False))
def test_the_bounded_build_gives_what_one_call_gives(rng: random.Random) -> None:
    """A JSON document over ``SHAPE_CHECK_BYTES`` (padded with spaces) is read as plain
    data and built in bounded memory (in batches of 3 moves, so that faults fall on
    every side of a batch's ends)."""
    data = _hostile(rng)
    adapter = PUBLIC_ADAPTER if data.get("information") == "public" else RECORD_ADAPTER
    expected = _outcome(adapter.validate_python, copy.deepcopy(data))
    text = json.dumps(data) + " " * SHAPE_CHECK_BYTES
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bounded, "BATCH", 3)
        assert _outcome(parse_record, text) == expected


def test_a_flood_of_problems_in_a_small_json_record_is_listed_as_in_a_large_one() -> None:
    """Read straight from its bytes, a small record with thousands of problems is read
    again as plain data: the verdict is the same, without building every problem."""
    head = '{"format":"gnoming-record/1","ruleset":"standard","players":["a"],"first_player":0,'
    text = head + '"rounds":[{"deal":[1],"moves":[' + "{}," * 5000 + '{"action":"x"}]}]}'
    with pytest.raises(RecordError) as refused:
        parse_record(text)
    assert (
        refused.value.message == "rounds[0].moves[0].action: missing field (and 5000 more problems)"
    )
    assert len(refused.value.problems) == 100
