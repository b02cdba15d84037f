"""Golden playthroughs: the engine still allows and does, move by move, what it did."""

from __future__ import annotations

import pytest
from golden_cases import CASES, GOLDEN, RESOLVER, load, steps_of

from gnoming_rules.referee.validate import validate_record


def test_every_case_has_a_golden_file_and_they_stay_small() -> None:
    assert sorted(path.stem for path in GOLDEN.glob("*.json")) == sorted(CASES)
    assert sum(path.stat().st_size for path in GOLDEN.glob("*.json")) < 1_000_000


@pytest.mark.parametrize("name", sorted(CASES))
def test_replaying_the_golden_record_gives_the_golden_steps(name: str) -> None:
    record, expected = load(name)
    assert validate_record(record, base_dir=GOLDEN, resolver=RESOLVER).valid
    actual = steps_of(record)
    for index, (got, want) in enumerate(zip(actual, expected, strict=False)):
        assert got == want, (
            f"{name}: step {index} ({want[0]}) differs (regenerate with make golden only if the "
            f"change is intended)\n  golden: {want[1]} #{want[2]}\n          {want[3]}\n"
            f"  now:    {got[1]} #{got[2]}\n          {got[3]}"
        )
    assert len(actual) == len(expected), f"{name}: {len(actual)} steps, golden has {len(expected)}"
