"""Rule texts quoted by reports: the project's own rules page, numbered as the spec."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from kit import ROOT

from gnoming_rules.referee.rulebook import rule_text, rules


def _spec() -> Path | None:
    """``shared/spec/RULES.md`` beside the project, where CI lays ``shared/`` next to the
    clone; ``None`` in a clone that stands alone."""
    for folder in ROOT.parents:
        candidate = folder / "shared" / "spec" / "RULES.md"
        if candidate.is_file():
            return candidate
    return None


SPEC = _spec()
needs_spec = pytest.mark.skipif(
    SPEC is None, reason="no shared/spec/RULES.md beside the project to compare with"
)


@needs_spec
def test_the_rulebook_has_exactly_the_numbers_of_the_spec() -> None:
    assert SPEC is not None
    spec = SPEC.read_text(encoding="utf-8")
    numbers = set(re.findall(r"^(\d+\.\d+) ", spec, flags=re.MULTILINE))
    numbers |= set(re.findall(r"^## (\d+)\. ", spec, flags=re.MULTILINE))
    assert set(rules()) == numbers


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
    assert rule_text("8") == "End of the round and scoring"
    assert (rule_text("4.1") or "").startswith("Draw. Take the top card of the draw pile")
    assert (rule_text("4.6") or "").startswith("Every turn ends with exactly one discard.")
    assert rule_text("12.1") is None and rule_text(None) is None
    assert "**" not in "".join(rules().values())


def test_rule_11_the_rules_of_knowledge_powers_and_knocking_have_texts() -> None:
    assert rule_text("11") == (
        "What a seat knows, what a card does, how a round ends, what a layout scores"
    )
    assert (rule_text("11.5") or "").startswith("Knocking. Under round_end.knock: true")
    # a refusal quotes the sentences naming its code, not the whole readings paragraph
    face_up = rule_text("11.8", "slot-face-up") or ""
    assert face_up == "A peek at a face-up card is refused (slot-face-up)."
    assert "bad-slot" in (rule_text("11.8", "bad-slot") or "")
    assert "not-your-turn" in (rule_text("11.7", "not-your-turn") or "")
