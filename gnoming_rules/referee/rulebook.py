"""The text of the numbered rules, so that a refusal can quote the rule it enforces.

The text is the project's own statement of the rules, ``docs/rules.md`` (shipped in the
wheel), numbered as the spec: ``"7.2"`` is a paragraph, ``"8"`` a whole section (its
title). Rule numbers are those of :attr:`IllegalMove.rule <gnoming_rules.core.errors.IllegalMove>`
and of a verdict's ``rule``.
"""

from __future__ import annotations

import re
from functools import cache

from ..core.bundled import bundled_path

__all__ = ["rule_text", "rules"]

_PARAGRAPH = re.compile(r"^\*\*(\d+\.\d+)(.*?)\*\*(.*)$")
_SECTION = re.compile(r"^## (\d+)\. (.*)$")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


@cache
def rules() -> dict[str, str]:
    """Rule number -> its text on one line (Markdown marks removed)."""
    text = bundled_path("rules.md").read_text(encoding="utf-8")
    found: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        section = _SECTION.match(line)
        paragraph = _PARAGRAPH.match(line)
        if section:
            found[section.group(1)] = section.group(2).strip()
            current = None
        elif paragraph:
            current = paragraph.group(1)
            found[current] = " ".join(
                part.strip() for part in paragraph.group(2, 3) if part.strip()
            )
        elif current is not None and line.strip():
            found[current] += " " + line.strip()
        else:
            current = None
    return {number: _plain(body) for number, body in found.items()}


def rule_text(number: str | None) -> str | None:
    """The text of rule ``number`` (``"7.2"``, or a section such as ``"8"``), if there is one."""
    if number is None:
        return None
    return rules().get(number)


def _plain(text: str) -> str:
    """Rule text without Markdown links, emphasis and code marks."""
    return _LINK.sub(r"\1", text).replace("**", "").replace("`", "").replace("*", "")
