"""The docs' Python examples type-check under ``mypy --strict``, as a reader's own code would.

Each page's ```python blocks run in order as one program (tests/test_docs.py), so each
page becomes one module for mypy, every block at its own line: an error's line number
is the page's. The package docstring's examples are checked the same way. mypy runs
with the project's configuration and cache (warm after ``make typecheck``).
"""

from __future__ import annotations

import re
from pathlib import Path

import mypy.api
from test_docs import PAGES, ROOT, blocks, page_id

import gnoming_rules as gr


def page_module(page: Path) -> str:
    """The page's Python blocks, each at its own line numbers; every other line blank."""
    lines = [""] * len(page.read_text(encoding="utf-8").splitlines())
    for block in blocks(page):
        if block.lang == "python":
            for offset, line in enumerate(block.code.splitlines(), start=1):
                lines[block.line - 1 + offset] = line
    return "\n".join(lines) + "\n"


def docstring_module() -> str:
    doc = gr.__doc__ or ""
    examples = re.findall(r"::\n\n((?:(?:    .*)?\n)+)", doc + "\n")
    return "\n\n".join("\n".join(line[4:] for line in example.split("\n")) for example in examples)


def test_the_python_examples_pass_mypy_strict(tmp_path: Path) -> None:
    sources = {
        page_id(page): page_module(page)
        for page in PAGES
        if any(block.lang == "python" for block in blocks(page))
    }
    sources["gnoming_rules/__init__.py (docstring)"] = docstring_module()
    files: dict[str, str] = {}
    for index, (where, source) in enumerate(sources.items()):
        path = tmp_path / f"docs_example_{index}.py"
        path.write_text(source, encoding="utf-8")
        files[str(path)] = where
    assert len(files) >= 7  # README, recipes, testing, ... and the docstring
    report, errors, status = mypy.api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--strict",
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            "--no-error-summary",
            *files,
        ]
    )
    for name, where in files.items():
        report = report.replace(name, where)
    assert status == 0, report + errors
