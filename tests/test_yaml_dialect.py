"""The YAML loader and the JSON Schemas agree on one YAML dialect: YAML 1.2's core schema.

Editors check YAML files against the JSON Schemas as YAML 1.2 reads them; the loader
reads the same text into the same data, so that a file the editor accepts, the loader
accepts, and the reverse. Checked on every bundled ruleset, every YAML file of
examples/, every YAML block of the docs, and on the scalars where YAML 1.1 and 1.2
differ (``no``, ``012``, ``1_000``, dates).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from kit import EXAMPLES, ROOT
from referencing import Registry, Resource
from test_docs import PAGES, blocks, page_id

import gnoming_rules as gr
from gnoming_rules.core.errors import GnomingError
from gnoming_rules.formats import safe_yaml
from gnoming_rules.formats.safe_yaml import load_yaml

SCHEMAS = ROOT / "schemas"
RULESET_SCHEMA = json.loads((SCHEMAS / "ruleset.schema.json").read_text(encoding="utf-8"))
RECORD_SCHEMA = json.loads((SCHEMAS / "record.schema.json").read_text(encoding="utf-8"))
REGISTRY: Registry[Any] = Registry().with_resource(
    "ruleset.schema.json", Resource.from_contents(RULESET_SCHEMA)
)


def schema_errors(data: object) -> list[str]:
    """What a JSON Schema validator (an editor) says of ``data``: the record schema for a
    record, else the ruleset schema."""
    is_record = isinstance(data, dict) and data.get("format") == "gnoming-record/1"
    schema = RECORD_SCHEMA if is_record else RULESET_SCHEMA
    validator = jsonschema.Draft202012Validator(schema, registry=REGISTRY)
    return [error.message for error in validator.iter_errors(data)]


@pytest.fixture(params=[True, False], ids=["libyaml", "pure"])
def fast(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setattr(safe_yaml, "FAST", request.param)
    return bool(request.param)


# YAML 1.2.2, 10.3.2 (tag resolution of the core schema), and where YAML 1.1 differs.
CORE: list[tuple[str, object]] = [
    ("true", True), ("True", True), ("TRUE", True), ("false", False), ("FALSE", False),
    ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("y", "y"), ("n", "n"),
    ("null", None), ("Null", None), ("~", None), ("", None),
    ("0", 0), ("-19", -19), ("+12", 12), ("012", 12), ("0o14", 12), ("0xC", 12),
    ("1_000", "1_000"), ("0b1100", "0b1100"), ("1:30", "1:30"), ("2026-12-01", "2026-12-01"),
    ("1.5", 1.5), ("-.5", -0.5), ("1e3", 1000.0), ("1.", 1.0),
    ("H", "H"), ("M", "M"), ("<<", "<<"), ("=", "="),
]  # fmt: skip


@pytest.mark.parametrize(("text", "value"), CORE, ids=[text or "empty" for text, _ in CORE])
def test_plain_scalars_read_as_the_core_schema_says(fast: bool, text: str, value: object) -> None:
    read = load_yaml(f"a: {text}\n".encode())
    assert read == {"a": value} and type(read["a"]) is type(value)


def yaml_sources() -> list[tuple[str, str]]:
    """(where, text) of every bundled ruleset, YAML file of examples/ and docs YAML block."""
    files = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted(EXAMPLES.rglob("*.yaml"))
    found = [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")) for path in files]
    for page in PAGES:
        for block in blocks(page):
            if block.lang == "yaml":
                found.append((f"{page_id(page)}:{block.line}", block.code + "\n"))
    return found


SOURCES = yaml_sources()


@pytest.mark.parametrize(("where", "text"), SOURCES, ids=[where for where, _ in SOURCES])
def test_every_bundled_example_and_docs_yaml_is_accepted_by_both(where: str, text: str) -> None:
    data = load_yaml(text.encode())
    assert schema_errors(data) == [], where
    if isinstance(data, dict) and data.get("format") == "gnoming-record/1":
        return  # a record's replay is checked elsewhere; its structure is the schema's
    assert isinstance(data, dict), where
    base = ROOT / "rulesets" if where.startswith("rulesets/") else EXAMPLES
    gr.load_ruleset(data, base_dir=base)


RULESET = "extends: standard\nbounce: {}\nrounds: {}\n"
EDITS = [
    ("false", "2", True), ("False", "2", True), ("no", "2", False), ("off", "2", False),
    ("yes", "2", False), ("n", "2", False), ("true", "0x2", True), ("true", "02", True),
    ("true", "1_0", False), ("true", "'2'", False),
]  # fmt: skip


@pytest.mark.parametrize(("bounce", "rounds", "ok"), EDITS)
def test_the_loader_accepts_a_ruleset_exactly_when_the_schema_does(
    tmp_path: Path, bounce: str, rounds: str, ok: bool
) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text(RULESET.format(bounce, rounds), encoding="utf-8")
    editor = schema_errors(load_yaml(path.read_bytes()))
    try:
        gr.load_ruleset(path)
    except GnomingError as error:
        assert error.code == "bad-ruleset"
        loaded = False
        assert ("bounce" if bounce not in ("true", "false", "False") else "rounds") in error.message
    else:
        loaded = True
    assert loaded is ok and (editor == []) is ok, editor


def test_the_one_known_difference_is_an_integer_written_as_a_float(tmp_path: Path) -> None:
    """JSON Schema's ``integer`` is any number without a fraction, so 2.0 passes in an
    editor; the loader wants the integer written as one (docs/decisions.md)."""
    path = tmp_path / "ours.yaml"
    path.write_text(RULESET.format("true", "2.0"), encoding="utf-8")
    assert schema_errors(load_yaml(path.read_bytes())) == []
    with pytest.raises(GnomingError) as refused:
        gr.load_ruleset(path)
    assert refused.value.message.startswith(f"{path}: rounds: ")
