"""The guards that keep tests independent of their order (tests/conftest.py): the whole
library is loaded before any test, so Hypothesis's pool of constants from loaded modules
(what ``st.integers()`` and ``st.text()`` mix in) is the same for every test."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import conftest

import gnoming_rules


def test_every_library_module_is_loaded_before_the_tests() -> None:
    missing = []
    for module in pkgutil.walk_packages(gnoming_rules.__path__, "gnoming_rules."):
        if module.name.endswith(".__main__") or module.name in sys.modules:
            continue
        try:
            importlib.import_module(module.name)
        except ImportError:
            continue  # an optional extra that is not installed: left out for every test
        missing.append(module.name)
    assert not missing, missing
    assert set(sys.modules) >= conftest.LIBRARY_MODULES
