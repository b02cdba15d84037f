"""The docs' SVG pictures (docs/pictures, drawn by docs/_ext/pictures.py): committed, current
and shown on a page, like the schemas."""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from kit import ROOT

PICTURES = ROOT / "docs" / "pictures"


def _generator() -> Any:
    path = ROOT / "docs" / "_ext" / "pictures.py"
    spec = importlib.util.spec_from_file_location("docs_pictures", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generator = _generator()


@pytest.mark.parametrize("name", sorted(generator.PICTURES))
def test_the_committed_picture_is_current(name: str) -> None:
    committed = (PICTURES / name).read_text(encoding="utf-8")
    drawn = generator.PICTURES[name]() + "\n"
    assert committed == drawn, f"docs/pictures/{name} is stale: run make pictures"
    ET.fromstring(committed)


def test_every_picture_is_shown_and_every_shown_picture_is_drawn() -> None:
    pages = "".join(page.read_text(encoding="utf-8") for page in (ROOT / "docs").glob("*.md"))
    shown = set(re.findall(r"\]\(pictures/([\w.-]+\.svg)\)", pages))
    assert shown == set(generator.PICTURES)
    assert {path.name for path in PICTURES.glob("*.svg")} == set(generator.PICTURES)
