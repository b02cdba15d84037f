"""Hypothesis profiles: ``dev`` (default, fast), ``ci`` (derandomized, what ``make test`` runs)
and ``thorough`` (``make fuzz``, for a night). Pick one with ``HYPOTHESIS_PROFILE``."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
