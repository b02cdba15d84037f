"""Hypothesis profiles: ``dev`` (default, fast), ``ci`` (derandomized, what ``make test`` runs)
and ``thorough`` (``make fuzz``, for a night). Pick one with ``HYPOTHESIS_PROFILE``.

Two guards keep every test independent of what ran before it (docs/testing.md, "Order"):

- every module of the library is imported before the first test. Hypothesis mixes the
  constants it finds in the loaded modules of the project into what it draws (an integer,
  a text), and looks again whenever ``sys.modules`` grows: a command that imports a module
  lazily would change the examples of every property that runs after it;
- ``--shuffle SEED`` runs the collected tests in a seeded random order, and
  ``--sample FRACTION`` keeps that share of them (``make test`` runs a shuffled sample).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import random
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

import gnoming_rules

settings.register_profile(
    "base",
    deadline=None,  # speed is measured in benchmarks/, never by tests
    suppress_health_check=[HealthCheck.too_slow],  # whole games are slow to generate
)
_BASE = settings.get_profile("base")

settings.register_profile("dev", _BASE, max_examples=25, stateful_step_count=25)
settings.register_profile(
    "ci",
    _BASE,
    max_examples=200,
    stateful_step_count=50,
    derandomize=True,
    print_blob=True,
    report_multiple_bugs=False,  # shrinking one failing game is slow enough
)
settings.register_profile(
    "thorough", _BASE, max_examples=5_000, stateful_step_count=100, print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _import_the_whole_library() -> frozenset[str]:
    """Import every module of ``gnoming_rules`` (those whose optional extra is missing stay
    out, the same for every test) and return the library's module names now loaded."""
    for module in pkgutil.walk_packages(gnoming_rules.__path__, "gnoming_rules."):
        try:  # __main__ included: it runs the command line only as a script
            importlib.import_module(module.name)
        except ImportError:
            continue
    return _library_modules()


def _library_modules() -> frozenset[str]:
    return frozenset(name for name in list(sys.modules) if name.split(".")[0] == "gnoming_rules")


LIBRARY_MODULES = _import_the_whole_library()
"""The library's modules, all loaded before any test is collected."""


@pytest.fixture(autouse=True)
def _no_library_module_loads_late() -> Iterator[None]:
    """A library module first imported by a test would change what Hypothesis draws in the
    tests after it: fail that test, loudly, rather than the innocent one later."""
    before = _library_modules()
    yield
    late = _library_modules() - before
    assert not late, f"imported during the test, not by tests/conftest.py: {sorted(late)}"


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The processes forked during the test (``os.fork`` counted)."""
    pids: list[int] = []
    fork = os.fork

    def counted() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counted)
    return pids


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("order", "test order (tests/conftest.py)")
    group.addoption(
        "--shuffle",
        type=int,
        default=None,
        metavar="SEED",
        help="run the collected tests in a random order drawn from SEED",
    )
    group.addoption(
        "--sample",
        type=float,
        default=1.0,
        metavar="FRACTION",
        help="with --shuffle: keep only this share of the tests (drawn from SEED too)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    seed: int | None = config.getoption("--shuffle")
    if seed is None:
        return
    fraction: float = config.getoption("--sample")
    rng = random.Random(seed)
    order = list(items)
    rng.shuffle(order)
    kept = order[: max(1, round(len(order) * fraction))] if order else order
    dropped = order[len(kept) :]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept


def pytest_report_header(config: pytest.Config) -> str | None:
    seed = config.getoption("--shuffle")
    if seed is None:
        return None
    return f"shuffled with seed {seed}, sample {config.getoption('--sample'):.0%}"
