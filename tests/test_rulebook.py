"""Rule texts quoted by reports: the bundled RULES.md is the project's spec, word for word."""

from __future__ import annotations

from pathlib import Path

import pytest
from kit import ROOT

from gnoming_rules.rulebook import rule_text, rules

BUNDLED = ROOT / "gnoming_rules" / "RULES.md"


def _spec() -> Path:
    """shared/spec/RULES.md beside the project (CI lays shared/ next to the clone)."""
    for folder in ROOT.parents:
        candidate = folder / "shared" / "spec" / "RULES.md"
        if candidate.is_file():
            return candidate
    raise AssertionError("shared/spec/RULES.md not found beside the project")


def test_the_bundled_rules_are_the_spec() -> None:
    assert BUNDLED.read_text(encoding="utf-8") == _spec().read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "number",
    [
        "2.1",
        "2.2",
        "3.1",
        "3.5",
        "4.1",
        "4.4",
        "4.5",
        "5.1",
        "5.2",
        "5.3",
        "5.4",
        "6.1",
        "7.2",
        "8.1",
        "8.7",
        "9.1",
    ],
)
def test_every_rule_the_engine_cites_has_a_text(number: str) -> None:
    text = rule_text(number)
    assert text is not None and len(text) > 20


def test_paragraphs_are_joined_and_sections_are_titled() -> None:
    assert rule_text("7.2") is not None
    assert "the displaced card has left the layout" in (rule_text("7.2") or "")
    assert rule_text("8") == "End of round and scoring"
    assert rule_text("4.6") == "Every turn ends with exactly one discard (4.4)."
    assert rule_text("10.1") is None and rule_text(None) is None
    assert "**" not in "".join(rules().values())
