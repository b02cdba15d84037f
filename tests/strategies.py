"""The suite's strategies: those of :mod:`gnoming_rules.testing`, re-exported in one place."""

from gnoming_rules import testing
from gnoming_rules.testing import *  # noqa: F403 - the whole public list, kept in one place

__all__ = testing.__all__
