"""``make check``, the edit-test loop, runs files that exist, and the README says how long
it and ``make test`` take."""

from __future__ import annotations

import re
import subprocess

from kit import ROOT


def test_make_check_runs_lint_types_and_existing_fast_test_files() -> None:
    planned = subprocess.run(
        ["make", "-n", "check"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "ruff check" in planned and "mypy" in planned
    pytest_line = next(line for line in planned.splitlines() if "pytest" in line)
    files = re.findall(r"tests/test_\w+\.py", pytest_line)
    assert len(files) >= 20
    assert all((ROOT / name).is_file() for name in files), files
    assert "HYPOTHESIS_PROFILE=dev" in pytest_line


def test_the_readme_says_how_long_the_tests_take() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make check" in readme
    assert re.search(r"`make test`[^.]*about \d+ minutes on an idle 2-core", readme)
