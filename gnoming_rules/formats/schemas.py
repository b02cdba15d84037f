"""JSON Schemas for ruleset files and game records, generated from the pydantic models.

Editors use them to check a file while it is written (a YAML ruleset names its schema in
its first line, ``# yaml-language-server: $schema=../schemas/ruleset.schema.json``).
The ruleset schema describes a ruleset *file* as an author writes it: without
``extends`` every rule field is required; with ``extends`` the file is a JSON Merge
Patch over its parent, so no field is required, nested mappings may be partial and an
entry of ``deck.numbers`` may be ``null`` (which deletes it).

``python -m gnoming_rules.cli.schemas [FOLDER]`` writes them, with the schemas of the
command line's ``--json`` output (``make schemas``); a test fails when the committed files
are stale.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from ..core.ruleset import Ruleset
from .record import SCHEMA_ADAPTER

__all__ = [
    "DIALECT",
    "FACE_KEY",
    "SCHEMAS",
    "record_schema",
    "ruleset_schema",
    "schema_text",
]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
FACE_KEY = "^-?(0|[1-9][0-9]*)$"
"""A ``deck.numbers`` key: an integer written as text (JSON keys are strings; 0 is a face,
rule 10.1)."""


def ruleset_schema() -> dict[str, Any]:
    """The schema of a ruleset file (YAML or JSON), ``extends`` included."""
    full = Ruleset.model_json_schema()
    defs: dict[str, Any] = full.pop("$defs")
    defs["Deck"]["properties"]["numbers"]["propertyNames"] = {"pattern": FACE_KEY}
    patches = {f"{name}Patch": _patch(schema) for name, schema in defs.items()}
    patch = _patch(full)
    patch["title"] = "RulesetPatch"
    patch["description"] = (
        "A ruleset that extends another: a JSON Merge Patch (RFC 7386) over the parent "
        "named by extends. No field is required; null deletes an entry of deck.numbers."
    )
    patch["properties"] = {
        "extends": {
            "type": "string",
            "minLength": 1,
            "description": "The parent ruleset: a bundled name, or a path relative to this file.",
        },
        **patch["properties"],
    }
    patch["required"] = ["extends"]
    hint = {
        "type": "string",
        "description": "The schema that editors check this file against (ignored by the loader).",
    }
    for schema in (full, patch):
        schema["properties"] = {"$schema": hint, **schema["properties"]}
    return {
        "$schema": DIALECT,
        "title": "gnoming-rules ruleset file",
        "description": "A ruleset of Gnoming A Round: the deck and every rule toggle "
        "(docs/rules.md). Without extends it must give every rule; with extends, only changes.",
        "type": "object",
        "if": {"required": ["extends"]},
        "then": {"$ref": "#/$defs/RulesetPatch"},
        "else": {"$ref": "#/$defs/Ruleset"},
        "$defs": {**defs, **patches, "Ruleset": full, "RulesetPatch": patch},
    }


def record_schema() -> dict[str, Any]:
    """The schema of a ``gnoming-record/1`` game record (JSON or YAML): a full record, or,
    when it says ``information: public``, a public-information one (checked against that
    kind only, as a ruleset file with ``extends`` is)."""
    schema = SCHEMA_ADAPTER.json_schema()
    inline = {"$ref": "ruleset.schema.json"}  # the file beside this one: typos are flagged
    for kind, round_ in (("Record", "Round"), ("PublicRecord", "PublicRound")):
        ruleset = schema["$defs"][kind]["properties"]["ruleset"]
        ruleset["anyOf"] = [
            inline if item == {"type": "object"} else item for item in ruleset["anyOf"]
        ]
        moves = schema["$defs"][round_]["properties"]["moves"]
        moves["items"] = _keyed_union(moves["items"])
    return {
        "$schema": DIALECT,
        "title": "gnoming-record/1 game record",
        "description": "A game record: a full one holds every card dealt; a public one "
        "(information: public) only what the whole table saw.",
        "type": "object",
        "if": {"properties": {"information": {"const": "public"}}, "required": ["information"]},
        "then": {"$ref": "#/$defs/PublicRecord"},
        "else": {"$ref": "#/$defs/Record"},
        "$defs": schema["$defs"],
    }


def _keyed_union(union: dict[str, Any]) -> dict[str, Any]:
    """A union discriminated by a property, as JSON Schema validators read it.

    pydantic writes ``oneOf`` with OpenAPI's ``discriminator``, which JSON Schema
    validators ignore: a mistyped ``action`` then fails every branch, a wall of errors
    ("16 other errors"). Here the property is checked first (one error: not one of the
    actions), and the entry only against the branch its value picks (``if``/``then``).
    """
    key = union["discriminator"]["propertyName"]
    mapping: dict[str, str] = union["discriminator"]["mapping"]
    branches = [
        {
            "if": {"properties": {key: {"const": value}}, "required": [key]},
            "then": {"$ref": reference},
        }
        for value, reference in mapping.items()
    ]
    return {
        "type": "object",
        "required": [key],
        "properties": {key: {"enum": list(mapping)}},
        "allOf": branches,
    }


def _patch(schema: dict[str, Any]) -> dict[str, Any]:
    """The same object schema with nothing required and references to the patch versions."""
    patch = copy.deepcopy(schema)
    patch.pop("required", None)
    if "title" in patch:
        patch["title"] = f"{patch['title']}Patch"
    for name, field in patch.get("properties", {}).items():
        patch["properties"][name] = _patch_field(field)
    return patch


def _patch_field(field: dict[str, Any]) -> dict[str, Any]:
    reference = field.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        return {**field, "$ref": f"{reference}Patch"}
    extra = field.get("additionalProperties")
    if isinstance(extra, dict):
        return {**field, "additionalProperties": {"anyOf": [extra, {"type": "null"}]}}
    return field


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as committed: indented JSON with a final newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


SCHEMAS = {"ruleset.schema.json": ruleset_schema, "record.schema.json": record_schema}
"""File name -> the function that builds it (the command line's output schemas are
:func:`gnoming_rules.cli.schemas.output_schemas`)."""
