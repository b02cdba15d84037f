"""The compiled core and the pure one (docs/install.md).

``make test`` runs the suite twice: on the wheel the mypyc hook built (``build/compiled``)
with ``GNOMING_EXPECT_BUILD=compiled``, and on the editable source with
``GNOMING_EXPECT_BUILD=pure``. The first test fails when a pass runs the other build than
the one it means to test (a compile that silently fell back to pure Python, say).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

import gnoming_rules as gr

ROOT = Path(__file__).resolve().parent.parent


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiled_modules() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    paths = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["include"]
    return [path.removesuffix(".py").replace("/", ".") for path in paths]


def test_the_pass_runs_the_build_it_means() -> None:
    expected = os.environ.get("GNOMING_EXPECT_BUILD")
    if expected is None:
        pytest.skip("GNOMING_EXPECT_BUILD is not set: run by make test's two passes")
    assert expected in {"compiled", "pure"}
    assert gr.COMPILED is (expected == "compiled")


def test_every_listed_module_is_compiled_or_none_is() -> None:
    """The hook's list is what runs compiled: all of it, or nothing in a pure build."""
    names = _compiled_modules()
    assert "gnoming_rules.core.engine" in names
    for name in names:
        module = sys.modules.get(name) or importlib.import_module(name)
        compiled = not (module.__file__ or ".py").endswith(".py")
        assert compiled == gr.COMPILED, name
    assert not gr.__file__ or gr.__file__.endswith("__init__.py")  # the package stays Python


def test_the_pure_switch_and_editable_installs_give_pure_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hook = _hook()
    monkeypatch.delenv(hook.PURE_VARIABLE, raising=False)
    assert hook.pure_reason("editable") == "an editable install runs its source"
    for value in ("1", "true", "YES"):
        monkeypatch.setenv(hook.PURE_VARIABLE, value)
        assert hook.pure_reason("standard") == "GNOMING_PURE_PYTHON is set"
    monkeypatch.setenv(hook.PURE_VARIABLE, "0")
    assert hook.pure_reason("standard") != "GNOMING_PURE_PYTHON is set"


def test_no_c_compiler_gives_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    hook = _hook()
    monkeypatch.delenv(hook.PURE_VARIABLE, raising=False)
    monkeypatch.setenv("CC", "/nonexistent/cc -O2")
    assert hook.pure_reason("standard") == "no C compiler was found"
    monkeypatch.delenv("CC")
    monkeypatch.setattr(hook.shutil, "which", lambda _name: None)
    assert hook.pure_reason("standard") == "no C compiler was found"
