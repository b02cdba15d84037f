"""Shared test helpers: the example builders of ``examples/make_examples.py``, and paths."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from gnoming_rules.formats.record import parse_record
from gnoming_rules.referee.validate import Verdict, validate_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
ILLEGAL = EXAMPLES / "illegal"


def _load_examples() -> Any:
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


examples = _load_examples()
"""The module ``examples/make_examples.py`` (arranged deals, move builders, example lists)."""


def verdict_of(data: dict[str, Any], base_dir: Path = ILLEGAL, **options: Any) -> Verdict:
    """The verdict on record data (as a JSON file would hold it); relative paths from base_dir."""
    return validate_record(parse_record(json.dumps(data)), base_dir=base_dir, **options)


def where(verdict: Verdict) -> tuple[str, int | None, int | None]:
    """(code, round, move) of a verdict's error."""
    assert verdict.error is not None, verdict
    return verdict.error.code, verdict.error.round, verdict.error.move


def gnoming(
    *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``python -m gnoming_rules ARGS`` in ``cwd`` (the repository by default), its output
    captured as text; the exit status is the caller's to check."""
    return subprocess.run(
        [sys.executable, "-m", "gnoming_rules", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=env,
    )
