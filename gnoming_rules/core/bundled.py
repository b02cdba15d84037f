"""Files the package ships beside its code: the bundled rulesets, the pages it cites (the
rules and the record format) and the JSON Schemas (beside the rulesets, so that their
``../schemas/`` comment resolves).

In an installed wheel they live under ``gnoming_rules/_bundled/`` (pyproject.toml's
``force-include`` puts them there); in a source checkout or an editable install they are
read where they are maintained, ``rulesets/`` and ``docs/rules.md``, so there is one copy.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["bundled_path"]

_SOURCE_TREE = {
    "rulesets": "rulesets",
    "rules.md": "docs/rules.md",
    "record-format.md": "docs/record-format.md",
    "schemas": "schemas",
}


def bundled_path(name: str) -> Path:
    """The path of the shipped file or folder ``name`` (``"rulesets"``, ``"rules.md"``,
    ``"record-format.md"`` or ``"schemas"``)."""
    packaged = resources.files("gnoming_rules") / "_bundled" / name
    if packaged.is_file() or packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / _SOURCE_TREE[name]
