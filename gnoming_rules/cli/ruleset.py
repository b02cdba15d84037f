"""``gnoming ruleset show|check|schema|diff``: inspect, check and compare rulesets."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any, Final, NotRequired

from typing_extensions import TypedDict

from ..core.errors import RulesetError, one_line, quoted
from ..core.ruleset import Ruleset, merge_patch, option_defaults
from ..formats.rulesets import load_ruleset, ruleset_data
from .command import Command
from .output import Output, echo

# --- show -----------------------------------------------------------------------------------


class RulesetShowDocument(TypedDict):
    """A resolved ruleset (``extends`` applied) and its hash."""

    sha256: str
    ruleset: dict[str, Any]
    """Every field of the ruleset, as a ruleset file holds them."""


def _show_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="R", help="name or path")


def _show(args: argparse.Namespace, out: Output) -> int:
    rules = load_ruleset(args.ruleset)
    if out.json:
        out.data(RulesetShowDocument(sha256=rules.sha256, ruleset=rules.model_dump()))
        return 0
    import yaml

    out.line(f"# sha256: {rules.sha256}")
    out.stdout.write(yaml.safe_dump(rules.model_dump(), sort_keys=False, allow_unicode=True))
    return 0


# --- check ----------------------------------------------------------------------------------


class CheckProblem(TypedDict):
    """One reason a ruleset cannot be used."""

    code: str
    """``bad-ruleset`` or ``unknown-ruleset``."""
    file: str | None
    """The ruleset file that holds the fault (a parent, for a fault ``extends`` brings in)."""
    path: str | None
    """The field at fault, dotted (``layout.rows``); ``None`` for a fault of the whole."""
    message: str
    """What is wrong; with ``file`` and ``path`` when the error has them."""


class RulesetCheckDocument(TypedDict):
    """One ruleset checked: one line per argument, in their order."""

    ruleset: str
    """The argument as given."""
    ok: bool
    name: str | None
    sha256: str | None
    errors: list[CheckProblem]
    """Every fault found at once (empty when ``ok``)."""


def _check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rulesets", nargs="+", metavar="R", help="names or paths")


def _check(args: argparse.Namespace, out: Output) -> int:
    status = 0
    for given in args.rulesets:
        label = echo(given)  # one line per argument, whatever it holds
        problems: list[CheckProblem] = []
        rules: Ruleset | None = None
        try:
            rules = load_ruleset(given)
        except RulesetError as error:
            problems = _problems(error)
        except (OSError, RecursionError, ValueError) as error:  # never the end of the run
            message = f"cannot be read: {one_line(str(error))}"
            problems = [{"code": "bad-ruleset", "file": None, "path": None, "message": message}]
        if problems:
            status = max(status, 2 if problems[0]["code"] == "unknown-ruleset" else 1)
        if out.json:
            out.data(
                RulesetCheckDocument(
                    ruleset=given,
                    ok=rules is not None,
                    name=None if rules is None else rules.name,
                    sha256=None if rules is None else rules.sha256,
                    errors=problems,
                )
            )
        elif rules is not None:
            out.line(f"{label}: {out.style('ok', 'green')} ({echo(rules.name)}, "
                     f"sha256 {rules.sha256[:12]}...)")  # fmt: skip
        elif len(problems) == 1:
            out.line(f"{label}: {out.style(problems[0]['code'], 'red')}: {_text(problems[0])}")
        else:
            code = out.style(problems[0]["code"], "red")
            lines = [f"{label}: {code}: {len(problems)} problems"]
            lines += [f"  {_text(problem)}" for problem in problems]
            out.line("\n".join(lines))
    return status


def _problems(error: RulesetError) -> list[CheckProblem]:
    if not error.problems:
        return [{"code": error.code, "file": None, "path": None, "message": error.message}]
    return [
        {"code": error.code, "file": item.file, "path": item.path or None, "message": item.message}
        for item in error.problems
    ]


def _text(problem: CheckProblem) -> str:
    """``FILE: PATH: MESSAGE`` as far as the problem has them."""
    parts = [part for part in (problem["file"], problem["path"]) if part]
    return ": ".join([*parts, problem["message"]])


# --- schema ---------------------------------------------------------------------------------


def _schema(args: argparse.Namespace, out: Output) -> int:
    from ..formats.schemas import ruleset_schema, schema_text

    if out.json:
        out.data(ruleset_schema())
    else:
        out.stdout.write(schema_text(ruleset_schema()))
    return 0


# --- diff -----------------------------------------------------------------------------------


class Change(TypedDict):
    """One field that differs; ``old`` or ``new`` is left out where that side lacks it."""

    path: str
    old: NotRequired[Any]
    new: NotRequired[Any]


class Side(TypedDict):
    """One side of a diff: its name and hash, or ``sha256`` ``None`` when it cannot be played."""

    name: str
    sha256: str | None
    refusal: str | None
    """``bad-ruleset: MESSAGE`` when the ruleset cannot be played: it is then diffed as
    written (its ``extends`` applied), and the refusal is a warning."""


class RulesetDiffDocument(TypedDict):
    """What ruleset B (``new``) changes against A (``old``)."""

    old: Side
    new: Side
    labels: list[Change]
    """Changed labels (``name``, ``description``): not rules."""
    changes: list[Change]
    """Every rule that differs, in the order of the fields."""


def _diff_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("old", metavar="A", help="the ruleset to compare against (name or path)")
    parser.add_argument("new", metavar="B", help="the ruleset whose changes are printed")


def _diff(args: argparse.Namespace, out: Output) -> int:
    (old, old_data), (new, new_data) = _diff_side(args.old), _diff_side(args.new)
    labels = [
        (label, old_data.get(label, ABSENT), new_data.get(label, ABSENT))
        for label in ("name", "description")
        if old_data.get(label, ABSENT) != new_data.get(label, ABSENT)
    ]
    changes = ruleset_changes(_rules(old_data), _rules(new_data))
    if out.json:
        out.data(
            RulesetDiffDocument(
                old=old,
                new=new,
                labels=[_change(*label) for label in labels],
                changes=[_change(*change) for change in changes],
            )
        )
        return 0
    for given, side in ((args.old, old), (args.new, new)):
        if side["refusal"] is not None:
            warning = out.style("warning", "yellow")
            out.line(f"{warning}: {echo(given)} cannot be played ({side['refusal']}); "
                     "diffed as written", err=True)  # fmt: skip
    lines = [
        f"{label}: {_value_text(before, quote=True)} -> {_value_text(after, quote=True)} "
        "(a label, not a rule)"
        for label, before, after in labels
    ]
    lines += [
        f"{path}: {_value_text(before)} -> {_value_text(after)}" for path, before, after in changes
    ]
    if not changes:
        lines.append(f"no rule differs (sha256 {_hash(old)})")
    else:
        count = len(changes)
        lines.append(
            f"{count} {'rules differ' if count > 1 else 'rule differs'} "
            f"(sha256 {_hash(old)} -> {_hash(new)})"
        )
    out.line("\n".join(lines))
    return 0


def _diff_side(given: str) -> tuple[Side, dict[str, Any]]:
    """A side of a diff and its fields as JSON data (labels included). A ruleset that cannot
    be played is read as written; one that cannot be found or read stops the command."""
    try:
        rules = load_ruleset(given)
    except RulesetError as error:
        if error.code != "bad-ruleset" or not error.problems:
            raise
        written = json.loads(json.dumps(ruleset_data(given), default=str))
        data = merge_patch(option_defaults(), written)  # the options it leaves out
        side = Side(
            name=str(data.get("name")), sha256=None, refusal=f"{error.code}: {error.message}"
        )
        return side, data
    # Every field, defaults included (rules_dict leaves discard.piles out at its default,
    # for the hash): both sides of a diff then name the same fields.
    fields = rules.model_dump(mode="json")
    return Side(name=rules.name, sha256=rules.sha256, refusal=None), fields


def _rules(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in ("name", "description")}


def _hash(side: Side) -> str:
    return "(none: cannot be played)" if side["sha256"] is None else f"{side['sha256'][:12]}..."


ABSENT: Final = object()
"""The value of a field on the side of a diff that does not have it."""


def ruleset_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """(field path, old value, new value) for every field that differs between two
    rulesets' fields as JSON data (:meth:`Ruleset.rules_dict`). A field only one side has
    is :data:`ABSENT` on the other."""
    changes: list[tuple[str, Any, Any]] = []
    _compare("", old, new, changes)
    return changes


def _compare(path: str, old: Any, new: Any, changes: list[tuple[str, Any, Any]]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        keys = list(old) + [key for key in new if key not in old]
        for key in keys:
            inner = f"{path}.{key}" if path else str(key)
            _compare(inner, old.get(key, ABSENT), new.get(key, ABSENT), changes)
    elif old != new or type(old) is not type(new):
        changes.append((path, old, new))


def _change(path: str, old: Any, new: Any) -> Change:
    change: Change = {"path": path}
    if old is not ABSENT:
        change["old"] = old
    if new is not ABSENT:
        change["new"] = new
    return change


def _value_text(value: Any, *, quote: bool = False) -> str:
    if value is ABSENT:
        return "(absent)"
    return quoted(value) if quote else json.dumps(value)


# --- the group ------------------------------------------------------------------------------

COMMAND = Command(
    name="ruleset",
    summary="show, check, diff rulesets; print the schema",
    description="Inspect rulesets: show one resolved, check files, compare two, print the "
    "JSON Schema of a ruleset file. R is a bundled name or a path.",
    examples=("gnoming ruleset check standard examples/tiny.yaml",),
    actions=(
        Command(
            name="show",
            summary="print a resolved ruleset and its sha256",
            description="""\
Print a ruleset resolved (its extends applied): every field, as YAML, after a comment
with the rules' hash, the ruleset_sha256 that records played under these rules carry.
The output is itself a ruleset file that loads to the same rules.""",
            examples=("gnoming ruleset show quick", "gnoming ruleset show --json quick"),
            arguments=_show_arguments,
            run=_show,
            output=RulesetShowDocument,
        ),
        Command(
            name="check",
            summary="check ruleset files",
            description="""\
Load each ruleset and say whether it can be played, one line per argument.
Exit status: 0 every ruleset is fine, 1 some ruleset cannot be played (bad-ruleset),
2 some ruleset does not exist (unknown-ruleset).""",
            examples=(
                "gnoming ruleset check standard examples/tiny.yaml",
                "gnoming ruleset check --json rulesets/quick.yaml",
            ),
            arguments=_check_arguments,
            run=_check,
            output=RulesetCheckDocument,
        ),
        Command(
            name="schema",
            summary="print the JSON Schema of a ruleset file",
            description="""\
Print the JSON Schema of a ruleset file (the same as schemas/ruleset.schema.json), for
editors that complete and check ruleset files as they are typed. --json prints it on
one line.""",
            examples=("gnoming ruleset schema",),
            run=_schema,
        ),
        Command(
            name="diff",
            summary="what ruleset B changes against A",
            description="""\
Print what ruleset B changes against ruleset A: one line FIELD: OLD -> NEW per rule
that differs, values in JSON, (absent) for a deck face only one of them has. Changed
labels (name, description) come first; the last line counts the rules that differ.
A ruleset that cannot be played is diffed as written, with a warning on standard
error that says why; the command exits 0 whenever both rulesets can be read.""",
            examples=(
                "gnoming ruleset diff standard quick",
                "gnoming ruleset diff --json standard quick",
            ),
            arguments=_diff_arguments,
            run=_diff,
            output=RulesetDiffDocument,
        ),
    ),
)

__all__ = [
    "ABSENT",
    "COMMAND",
    "Change",
    "CheckProblem",
    "RulesetCheckDocument",
    "RulesetDiffDocument",
    "RulesetShowDocument",
    "Side",
    "ruleset_changes",
]
