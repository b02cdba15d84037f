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
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
"""Where one sentence of a rule ends and the next begins."""
_LEANING = frozenset({"It", "This", "That", "They", "These", "Then"})
"""First words of a sentence that needs the one before it (``It may not go straight back``)."""


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


def rule_text(number: str | None, code: str | None = None) -> str | None:
    """The text of rule ``number`` (``"7.2"``, or a section such as ``"8"``), if there is one.

    Given the refusal's ``code``, a rule that says several things is quoted by the
    sentences that name that code only: rule 2.1 counts the players and orders the turns,
    and a ``not-your-turn`` refusal quotes the turn order, not "Three to seven players"."""
    if number is None:
        return None
    text = rules().get(number)
    if text is None or code is None:
        return text
    sentences = _SENTENCE.split(text)
    naming = [sentence for sentence in sentences if f"({code})" in sentence]
    if not naming or naming[0] == sentences[0] or naming[0].split(" ", 1)[0] in _LEANING:
        return text  # the whole rule is the code's, or its sentence leans on the one before
    return " ".join(naming)


def _plain(text: str) -> str:
    """Rule text without Markdown links, emphasis and code marks."""
    return _LINK.sub(r"\1", text).replace("**", "").replace("`", "").replace("*", "")
