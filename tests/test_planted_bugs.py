"""Proof that the net catches fish: each property, run against an engine,
scorer, record reader or writer, validator, saved-state reader, observation or entry reader
with a bug planted, fails.

The runs are derandomized, without shrinking, with a fixed budget: a plant that is not
caught within it fails the test. Game properties run through the stateful machine with
only the property under test switched on, so the failure is that property's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
import test_engine_properties
import test_entries
import test_observation
import test_record_properties
import test_scoring_input
import test_scoring_properties
import test_snapshot
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test
from invariants import PROPERTIES, PropertyViolation
from machine import GameMachine
from planted_bugs import PLANTED_BUGS, SEAMS, PlantedBug
from strategies import played_games

import gnoming_rules as gr

PLANTED_RUN = settings(
    max_examples=300,
    stateful_step_count=40,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    deadline=None,
    report_multiple_bugs=False,
    suppress_health_check=list(HealthCheck),
)
"""Fixed and fast: whatever the profile, a planted bug must be caught within this budget."""


def _machine_run(prop: str) -> Callable[[], None]:
    def run() -> None:
        narrowed = type(f"Only_{prop}", (GameMachine,), {"properties": frozenset({prop})})
        run_state_machine_as_test(narrowed, settings=PLANTED_RUN)

    return run


def _given_run(
    body: Callable[..., None], *strategies: st.SearchStrategy[object]
) -> Callable[[], None]:
    def run() -> None:
        PLANTED_RUN(given(*strategies)(body))()

    return run


PROPERTY_RUNS: dict[str, Callable[[], None]] = {
    **{prop: _machine_run(prop) for prop in PROPERTIES},
    "determinism": _given_run(
        test_engine_properties.replays_are_identical, played_games(), st.integers()
    ),
    **{
        name: _given_run(body, st.data())
        for name, body in test_scoring_properties.SCORING_PROPERTIES.items()
    },
    **{
        name: _given_run(body, *strategies)
        for table in (
            test_record_properties.RECORD_PROPERTIES,
            test_snapshot.SNAPSHOT_PROPERTIES,
            test_observation.OBSERVATION_PROPERTIES,
            test_entries.ENTRY_PROPERTIES,
            test_scoring_input.VISIBLE_SCORE_PROPERTIES,
        )
        for name, (body, strategies) in table.items()
    },
}
"""How to run each property on its own."""


def test_every_property_has_a_planted_bug() -> None:
    assert {bug.prop for bug in PLANTED_BUGS} == set(PROPERTY_RUNS)


def test_the_plants_patch_public_seams_only() -> None:
    """Every seam is a public name of its module: no leading underscore."""
    for seam in SEAMS:
        for name in re.findall(r"\b\w+\.(\w+)", seam):
            assert not name.startswith("_"), seam


@pytest.mark.skipif(
    gr.COMPILED,
    reason="compiled build: the engine's seams call each other natively, where a monkeypatch "
    "cannot reach; the planted bugs run in make test's pure-Python pass",
)
@pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")
@pytest.mark.parametrize("bug", PLANTED_BUGS, ids=lambda bug: f"{bug.prop}:{bug.name}")
def test_the_property_catches_the_planted_bug(
    bug: PlantedBug, monkeypatch: pytest.MonkeyPatch
) -> None:
    bug.plant(monkeypatch)
    with pytest.raises(AssertionError) as caught:
        PROPERTY_RUNS[bug.prop]()
    if isinstance(caught.value, PropertyViolation):
        assert caught.value.prop == bug.prop
