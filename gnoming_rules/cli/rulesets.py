"""``gnoming rulesets``: the bundled rulesets, one per line."""

from __future__ import annotations

import argparse

from typing_extensions import TypedDict

from ..core.errors import RulesetError
from ..formats.rulesets import bundled_rulesets, load_ruleset
from .command import Command
from .output import Output, echo


class RulesetEntry(TypedDict):
    """One bundled ruleset: ``summary`` is the first sentence of its description."""

    name: str
    summary: str
    sha256: str | None
    error: str | None
    """``CODE: MESSAGE`` when the ruleset cannot be loaded (then ``sha256`` is ``None``)."""


class RulesetsDocument(TypedDict):
    """The bundled rulesets, sorted by name."""

    rulesets: list[RulesetEntry]


def run(args: argparse.Namespace, out: Output) -> int:
    entries: list[RulesetEntry] = []
    for name in bundled_rulesets():
        try:
            rules = load_ruleset(name)
        except RulesetError as error:
            entries.append({"name": name, "summary": "", "sha256": None, "error": str(error)})
            continue
        summary = rules.description.split(". ")[0].strip().rstrip(".")
        entries.append({"name": name, "summary": summary, "sha256": rules.sha256, "error": None})
    if out.json:
        out.data(RulesetsDocument(rulesets=entries))
        return 0
    lines = []
    for entry in entries:
        text = entry["error"] or entry["summary"]
        lines.append(f"{entry['name']}: {echo(text, limit=1000)}" if text else entry["name"])
    out.line("\n".join(lines))
    return 0


COMMAND = Command(
    name="rulesets",
    summary="list the bundled rulesets",
    description="""\
List the bundled rulesets, one per line: the name and the first sentence of its
description. Any command that takes a ruleset R accepts these names.""",
    examples=("gnoming rulesets", "gnoming rulesets --json"),
    run=run,
    output=RulesetsDocument,
)

__all__ = ["COMMAND", "RulesetEntry", "RulesetsDocument"]
