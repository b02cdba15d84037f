"""The JSON Schemas of the command line's ``--json`` output, and the writer of every
committed schema (``python -m gnoming_rules.cli.schemas [FOLDER]``, ``make schemas``): the
ruleset and record schemas come from :mod:`gnoming_rules.formats.schemas`, the bot
protocol's from :mod:`gnoming_rules.play.external`, the output ones from each command's
declared output type."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typing_extensions

from ..formats.schemas import DIALECT, SCHEMAS, schema_text

__all__ = ["all_schemas", "main", "output_schemas", "write_schemas"]


def output_schemas() -> dict[str, dict[str, Any]]:
    """``cli/NAME.schema.json`` -> the schema of one line of ``gnoming NAME --json``, for
    every command of the command line (``ruleset show`` is ``cli/ruleset-show``)."""
    from pydantic import TypeAdapter

    from .app import commands

    found = {}
    for command in commands():
        for words, leaf in command.leaves():
            if leaf.output is None:
                continue
            name = "-".join(words.split()[1:])
            _document_attributes(leaf.output)
            schema = TypeAdapter(leaf.output).json_schema()
            about = schema.pop("description", leaf.summary)
            found[f"cli/{name}.schema.json"] = {
                "$schema": DIALECT,
                "title": f"{words} --json",
                "description": f"One line of `{words} --json`. {about}",
                **{key: value for key, value in schema.items() if key != "title"},
            }
    return found


def _document_attributes(kind: Any) -> None:
    """Let pydantic take the docstrings under a TypedDict's fields (and those of the
    TypedDicts it holds) for their descriptions in the schema."""
    from pydantic import ConfigDict

    if typing_extensions.is_typeddict(kind) and "__pydantic_config__" not in vars(kind):
        kind.__pydantic_config__ = ConfigDict(use_attribute_docstrings=True)
        for hint in typing_extensions.get_type_hints(kind).values():
            _document_attributes(hint)
    for inner in typing_extensions.get_args(kind):
        _document_attributes(inner)


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every committed schema by its path under ``schemas/``."""
    from ..play.external import protocol_schemas

    return {
        **{name: build() for name, build in SCHEMAS.items()},
        **protocol_schemas(),
        **output_schemas(),
    }


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into ``folder``; returns the paths written."""
    written = []
    for name, schema in all_schemas().items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(schema_text(schema), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m gnoming_rules.cli.schemas [FOLDER]`` (default ``schemas``)."""
    args = sys.argv[1:] if argv is None else argv
    for path in write_schemas(Path(args[0] if args else "schemas")):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
