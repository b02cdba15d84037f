"""Deliverable 1 of issue 19: every rule option is declared once, and the field table of
docs/house-rules.md, the rules hash and the random rulesets derive from the declaration."""

from __future__ import annotations

import typing

from kit import ROOT

import gnoming_rules as gr
from gnoming_rules.core.ruleset import Ruleset
from gnoming_rules.formats.field_table import field_rows, with_field_table


def _leaf_paths(model: type[typing.Any], prefix: str = "") -> list[str]:
    paths = []
    for key, field in model.model_fields.items():
        if key in ("name", "description"):
            continue
        nested = field.annotation
        if isinstance(nested, type) and hasattr(nested, "model_fields"):
            paths += _leaf_paths(nested, f"{prefix}{key}.")
        else:
            paths.append(f"{prefix}{key}")
    return paths


def test_the_field_table_of_the_house_rules_page_is_current() -> None:
    page = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    assert page == with_field_table(page), "docs/house-rules.md is stale: run make schemas"


def test_the_table_has_one_row_per_declared_option_with_its_rule_number() -> None:
    rows = {row[0].strip("`"): row for row in field_rows()}
    assert set(rows) == {"name", "description", "extends", *_leaf_paths(Ruleset)}
    for path in _leaf_paths(Ruleset):
        assert "(rule " in rows[path][3], path


def test_every_option_declares_a_meaning_and_a_rule_number() -> None:
    def walk(model: type[typing.Any]) -> None:
        for key, field in model.model_fields.items():
            nested = field.annotation
            if isinstance(nested, type) and hasattr(nested, "model_fields"):
                walk(nested)
            elif key not in ("name", "description"):
                assert field.description, key
                assert isinstance(field.json_schema_extra, dict), key
                assert field.json_schema_extra["rule"], key

    walk(Ruleset)


def test_an_option_at_its_default_stays_out_of_the_rules_hash() -> None:
    standard = gr.load_ruleset("standard")
    spelt_out = gr.load_ruleset(
        {
            "extends": "standard",
            "sets": {"match": "face", "cards": "positive", "score": "minus_value"},
            "turn": {"flip_after_deck_discard": "none"},
            "going_out": {"double_if_not_lowest": False},
            "game": {"end_score": None},
            "deck": {"named": {}, "values": {}},
        }
    )
    assert spelt_out.sha256 == standard.sha256
    assert "sets" not in standard.rules_dict() and "game" not in standard.rules_dict()
    changed = gr.load_ruleset({"extends": "standard", "discard": {"piles": 1}})
    assert changed.sha256 != standard.sha256
    assert changed.rules_dict()["discard"]["piles"] == 1
