"""The wheel's build hook: the hot modules compiled with mypyc, or the pure-Python wheel.

The modules listed under ``[tool.hatch.build.targets.wheel.hooks.custom]`` in
``pyproject.toml`` are compiled to C extensions by mypyc (through ``hatch-mypyc``) from the
same source, which stays in the wheel beside them. The wheel is pure Python, with
identical behaviour, when any of these holds (the build says which):

- ``GNOMING_PURE_PYTHON=1`` is set in the environment;
- the install is editable (``pip install -e``): the source being edited is what runs,
  never a compiled copy of an older version of it;
- no C compiler is found, or ``hatch-mypyc`` is not installed (a build without isolation
  in an environment that lacks it).

mypyc writes its extensions beside the sources; once the wheel holds them they are
removed again, so that the working tree stays pure Python.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sysconfig
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PURE_VARIABLE = "GNOMING_PURE_PYTHON"


def pure_reason(version: str) -> str | None:
    """Why this build is pure Python, or ``None`` when it compiles."""
    if os.environ.get(PURE_VARIABLE, "").strip().lower() in {"1", "true", "yes", "on"}:
        return f"{PURE_VARIABLE} is set"
    if version == "editable":
        return "an editable install runs its source"
    # The compiler setuptools would run: $CC, else the one Python was built with.
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not compiler or shutil.which(compiler[0]) is None:
        return "no C compiler was found"
    try:
        import hatch_mypyc  # noqa: F401
    except ImportError:
        return "hatch-mypyc is not installed"
    return None


class CompiledCoreHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the configured modules with mypyc unless the build is to be pure Python."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._mypyc: Any = None
        if self.target_name != "wheel":
            return
        reason = pure_reason(version)
        if reason is not None:
            self.app.display_info(f"gnoming-rules: pure-Python wheel ({reason})")
            return
        from hatch_mypyc.plugin import MypycBuildHook

        config = {key: value for key, value in self.config.items() if key != "path"}
        self._mypyc = MypycBuildHook(
            self.root,
            config,
            self.build_config,
            self.metadata,
            self.directory,
            self.target_name,
            self.app,
        )
        self.app.display_info(
            f"gnoming-rules: compiling {len(self._mypyc.included_files)} modules with mypyc"
        )
        self._mypyc.initialize(version, build_data)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._mypyc is not None:
            self._mypyc.clean([version])
