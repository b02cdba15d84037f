"""The project stands alone: what the package, its CLI help and its docs cite is the
project's own (``docs/rules.md``, ``docs/record-format.md``), never a file outside the
repository such as the spec's ``RULES.md`` and ``RECORD.md``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from kit import ROOT

CITING = [
    *sorted((ROOT / "gnoming_rules").rglob("*.py")),
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "schemas").glob("*.json")),
    *sorted((ROOT / "rulesets").glob("*.yaml")),
    ROOT / "README.md",
    ROOT / "mkdocs.yml",
    ROOT / "pyproject.toml",
]
"""Every file whose text a user reads: the package (docstrings, CLI help, messages), the
docs, the schemas, the bundled rulesets and the project's front pages."""

OUTSIDE = re.compile(r"RULES\.md|RECORD\.md|shared/spec|\.\./shared|\bRULES [0-9§]")
"""A citation of a file that neither the repository nor the wheel holds."""


@pytest.mark.parametrize("path", CITING, ids=lambda path: str(path.relative_to(ROOT)))
def test_nothing_cites_a_file_outside_the_project(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [
        f"line {text.count(chr(10), 0, match.start()) + 1}: {match.group()}"
        for match in OUTSIDE.finditer(text)
    ]
    assert not found, f"{path.relative_to(ROOT)} cites files outside the project: {found}"


def test_every_page_the_package_cites_exists() -> None:
    cited = set()
    for path in (ROOT / "gnoming_rules").rglob("*.py"):
        cited |= set(re.findall(r"docs/[\w./-]+\.md", path.read_text(encoding="utf-8")))
    assert {"docs/rules.md", "docs/record-format.md"} <= cited
    for page in cited:
        assert (ROOT / page).is_file(), page
