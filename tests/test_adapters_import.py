"""The frameworks of the ``rl`` extra stay out of ``import gnoming_rules`` (and numpy too)."""

from __future__ import annotations

import subprocess
import sys

FRAMEWORKS = ("pettingzoo", "pyspiel", "open_spiel", "gymnasium", "numpy")


def imported_after(statement: str) -> list[str]:
    """The framework modules a fresh interpreter holds after running ``statement``."""
    probe = f"{statement}; import sys; print(' '.join(sorted(sys.modules)))"
    modules = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    return [name for name in modules if name.split(".")[0] in FRAMEWORKS]


def test_import_gnoming_rules_imports_no_framework() -> None:
    assert imported_after("import gnoming_rules, gnoming_rules.adapters") == []


def test_the_compiled_encoder_core_imports_no_framework() -> None:
    """``adapters.view_bytes`` is compiled with the core: it must import without the extra."""
    assert imported_after("import gnoming_rules.adapters.view_bytes") == []


def test_the_cli_imports_no_framework() -> None:
    assert imported_after("import gnoming_rules.cli") == []


def test_the_probe_sees_a_framework_when_one_is_imported() -> None:
    assert "pettingzoo" in imported_after("import gnoming_rules.adapters.pettingzoo_env")
