"""JSON Schemas generated from the models: committed, current, and shaped as authors write files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from kit import EXAMPLES, ROOT
from referencing import Registry, Resource

import gnoming_rules as gr
from gnoming_rules.cli.schemas import all_schemas
from gnoming_rules.formats.record import ACTIONS
from gnoming_rules.formats.schemas import record_schema, ruleset_schema, schema_text

RULE_FIELDS = {
    "deck",
    "players",
    "rounds",
    "first_player",
    "layout",
    "discard",
    "bounce",
    "hazard",
    "mulligan",
    "going_out",
    "empty_draw_pile",
}


SCHEMAS = all_schemas()


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_committed_schema_files_are_current(name: str) -> None:
    committed = (ROOT / "schemas" / name).read_text(encoding="utf-8")
    assert committed == schema_text(SCHEMAS[name]), f"schemas/{name} is stale: run make schemas"


def test_no_committed_schema_is_left_over() -> None:
    committed = {
        str(path.relative_to(ROOT / "schemas")) for path in (ROOT / "schemas").rglob("*.json")
    }
    assert committed == set(SCHEMAS)


def test_a_ruleset_file_without_extends_must_give_every_rule() -> None:
    schema = ruleset_schema()
    assert schema["if"] == {"required": ["extends"]}
    full = schema["$defs"][schema["else"]["$ref"].split("/")[-1]]
    assert set(full["required"]) == RULE_FIELDS
    assert "extends" not in full["properties"] and full["additionalProperties"] is False
    assert schema["$defs"]["Layout"]["required"] == ["rows", "cols", "face_up_at_start"]


def _requirements(schema: dict[str, Any]) -> list[str]:
    found = list(schema.get("required", []))
    for value in schema.values():
        if isinstance(value, dict):
            found += _requirements(value)
    return found


def test_a_ruleset_file_with_extends_requires_nothing_else_anywhere() -> None:
    schema = ruleset_schema()
    name = schema["then"]["$ref"].split("/")[-1]
    patch = schema["$defs"][name]
    assert patch["required"] == ["extends"]
    assert patch["properties"]["extends"]["type"] == "string"
    for field in RULE_FIELDS:
        reference = patch["properties"][field].get("$ref")
        if reference is not None:
            nested = schema["$defs"][reference.split("/")[-1]]
            assert _requirements(nested) == [], reference
            assert nested["additionalProperties"] is False
    numbers = schema["$defs"]["DeckPatch"]["properties"]["numbers"]
    assert {"type": "null"} in numbers["additionalProperties"]["anyOf"]  # null deletes a face
    assert numbers["propertyNames"] == {"pattern": "^-?(0|[1-9][0-9]*)$"}  # 0: rule 10.1


def test_the_record_schema_knows_every_action() -> None:
    schema = record_schema()
    defs = schema["$defs"]
    assert schema["if"] == {
        "properties": {"information": {"const": "public"}},
        "required": ["information"],
    }
    assert (schema["then"], schema["else"]) == (
        {"$ref": "#/$defs/PublicRecord"},
        {"$ref": "#/$defs/Record"},
    )
    top = {"format", "ruleset", "players", "first_player", "rounds"}
    for kind, round_ in (("Record", "Round"), ("PublicRecord", "PublicRound")):
        union = defs[round_]["properties"]["moves"]["items"]
        assert set(union["properties"]["action"]["enum"]) == set(ACTIONS)
        assert {branch["if"]["properties"]["action"]["const"] for branch in union["allOf"]} == (
            set(ACTIONS)
        )
        assert defs[kind]["properties"]["format"]["const"] == "gnoming-record/1"
        assert defs[kind]["additionalProperties"] is False
    assert set(defs["Record"]["required"]) == top
    assert set(defs["PublicRecord"]["required"]) == {*top, "information"}
    assert defs["Record"]["properties"]["information"]["const"] == "full"
    assert defs["PublicRecord"]["properties"]["information"]["const"] == "public"


def test_the_public_record_schema_requires_what_a_person_at_the_table_saw() -> None:
    defs = record_schema()["$defs"]
    assert set(defs["PublicRound"]["required"]) == {"start", "moves"}
    assert "deal" not in defs["PublicRound"]["properties"]
    assert defs["Start"]["required"] == ["piles"]
    for action in ("Reveal", "Flip"):
        assert "card" in defs[f"Public{action}Entry"]["required"], action
    # a draw's card depends on the ruleset: none from the deck under play.placed: down
    # (rule 11.3), where a discard may name its card; the record's reader checks both
    assert "card" in defs["PublicDrawEntry"]["properties"]
    assert "card" not in defs["PublicDrawEntry"]["required"]
    assert "card" in defs["PublicDiscardEntry"]["properties"]
    assert defs["PublicReshuffleEntry"]["required"] == ["action"]
    assert "cards" not in defs["PublicReshuffleEntry"]["properties"]


@pytest.mark.parametrize("path", [ROOT / "rulesets" / "standard.yaml", EXAMPLES / "tiny.yaml"])
def test_ruleset_files_name_the_schema_on_their_first_line(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schemas/ruleset.schema.json"


def test_an_inline_ruleset_in_a_record_is_checked_against_the_ruleset_schema() -> None:
    for kind in ("Record", "PublicRecord"):
        choices = record_schema()["$defs"][kind]["properties"]["ruleset"]["anyOf"]
        assert {"$ref": "ruleset.schema.json"} in choices
        assert {"type": "object"} not in choices


def test_a_json_ruleset_may_name_its_schema_and_the_loader_ignores_it(tmp_path: Path) -> None:
    defs = ruleset_schema()["$defs"]
    for kind in ("Ruleset", "RulesetPatch"):
        assert defs[kind]["properties"]["$schema"]["type"] == "string"
    path = tmp_path / "mine.json"
    change = {"extends": "standard", "rounds": 2}
    path.write_text(json.dumps({"$schema": "../schemas/ruleset.schema.json", **change}))
    assert gr.load_ruleset(path).sha256 == gr.load_ruleset(change).sha256


def _errors(record: dict[str, Any]) -> list[jsonschema.ValidationError]:
    schemas = ROOT / "schemas"
    registry: Registry[Any] = Registry().with_resource(
        "ruleset.schema.json",
        Resource.from_contents(json.loads((schemas / "ruleset.schema.json").read_text())),
    )
    schema = json.loads((schemas / "record.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, registry=registry)
    return list(validator.iter_errors(record))


def test_the_record_schema_keys_its_move_errors_on_the_action() -> None:
    """A JSON Schema validator (an editor, check-jsonschema) reports a mistyped action as
    one error, and a wrong field of a move against that action's fields alone."""
    record = json.loads((EXAMPLES / "tiny-game.json").read_text(encoding="utf-8"))
    assert _errors(record) == []
    moves = record["rounds"][0]["moves"]
    index = next(i for i, move in enumerate(moves) if move["action"] == "place")
    moves[index] = {**moves[index], "action": "plaec"}
    (error,) = _errors(record)
    assert list(error.absolute_path) == ["rounds", 0, "moves", index, "action"]
    assert "is not one of" in error.message
    moves[index] = {**moves[index], "action": "place", "slot": "two"}
    (error,) = _errors(record)
    assert list(error.absolute_path) == ["rounds", 0, "moves", index, "slot"]
    moves[index] = {"player": 0, "slot": 1}
    (error,) = _errors(record)
    assert "'action' is a required property" in error.message
