"""The planted source bugs of ``make mutation`` still apply: each edit's text occurs exactly
once in its file, names are unique, and every layer the kit measures has mutants."""

from __future__ import annotations

from pathlib import Path

from mutants import MUTANTS

PACKAGE = Path(__file__).resolve().parent.parent / "gnoming_rules"
ROOT = PACKAGE.parent
LAYERS = {
    "claims",
    "scoring bonus",
    "redact",
    "observation",
    "gymnasium truncation",
    "confinement",
    "setup rotation",
    "engine",
    "records",
}


def test_every_edit_applies_to_the_source_once() -> None:
    for mutant in MUTANTS:
        text = (PACKAGE / mutant.path).read_text(encoding="utf-8")
        assert text.count(mutant.old) == 1, mutant.name
        assert mutant.old != mutant.new, mutant.name


def test_names_are_unique_and_the_layers_covered() -> None:
    names = [mutant.name for mutant in MUTANTS]
    assert len(set(names)) == len(names)
    assert {mutant.layer for mutant in MUTANTS} == LAYERS


def test_every_targeted_test_exists() -> None:
    for mutant in MUTANTS:
        for target in mutant.tests:
            assert (ROOT / target.split("::")[0]).is_file(), (mutant.name, target)
