"""Which ruleset a record names, loaded once: a cache in front of :func:`load_ruleset`.

Loading a ruleset reads YAML and runs pydantic: about a millisecond, as long as
replaying a whole record. A validator that checks thousands of records against the same
few rulesets keeps them here. Bundled rulesets and self-contained inline mappings are
pure data and always cached; rulesets read from files are cached only when the owner
asks (``cache_files=True``, as the command line does for one run), because a
long-lived program could otherwise miss an edit to the file.

A server that validates records from strangers limits the files a record may make it
read: ``RulesetResolver(files="none")`` (bundled names and inline rulesets only) or
``RulesetResolver(files=Path("house-rules"))`` (files inside that folder only).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.ruleset import Ruleset, RulesetFiles, RulesetSource, load_ruleset, looks_like_path


class RulesetResolver:
    """Resolves a record's ``ruleset`` (name, path or inline mapping) to a :class:`Ruleset`.

    ``files`` limits the ruleset files it reads (``"any"``, ``"none"`` or a folder; see
    :data:`~gnoming_rules.core.ruleset.RulesetFiles`). Raises
    :class:`~gnoming_rules.core.errors.RulesetError` as :func:`load_ruleset` does.
    """

    def __init__(self, *, cache_files: bool = False, files: RulesetFiles = "any") -> None:
        self.cache_files = cache_files
        self.files = files
        self._cache: dict[tuple[str, str], Ruleset] = {}

    def resolve(self, source: RulesetSource, base_dir: Path | None = None) -> Ruleset:
        """The ruleset ``source`` names, relative paths read from ``base_dir`` (default: cwd)."""
        key = self._key(source, base_dir)
        if key is None:
            return load_ruleset(source, base_dir=base_dir, files=self.files)
        cached = self._cache.get(key)
        if cached is None:
            cached = load_ruleset(source, base_dir=base_dir, files=self.files)
            self._cache[key] = cached
        return cached

    def _key(self, source: RulesetSource, base_dir: Path | None) -> tuple[str, str] | None:
        """A cache key, or ``None`` when ``source`` must be read afresh every time."""
        if isinstance(source, Mapping):
            parent = source.get("extends")
            if isinstance(parent, str) and looks_like_path(parent) and not self.cache_files:
                return None
            try:
                text = json.dumps(source, sort_keys=True, default=_refuse)
            except (TypeError, ValueError):
                return None
            folder = str(base_dir or Path.cwd()) if isinstance(parent, str) else ""
            return ("inline:" + folder, text)
        reference = str(source)
        if not looks_like_path(reference):
            return ("bundled", reference)
        if not self.cache_files:
            return None
        return ("file", str((base_dir or Path.cwd()) / reference))


def _refuse(value: Any) -> Any:
    raise TypeError(f"not JSON data: {value!r}")


__all__ = [
    "RulesetResolver",
]
