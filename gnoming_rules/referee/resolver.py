"""Which ruleset a record names, loaded once and read only where it may be.

Loading a ruleset reads YAML and runs pydantic: about a millisecond, as long as
replaying a whole record. A validator that checks thousands of records against the same
few rulesets keeps them here. Bundled rulesets and self-contained inline mappings are
pure data and always cached; rulesets read from files are cached only when the owner
asks (``cache_files=True``, as the command line does for one run), because a
long-lived program could otherwise miss an edit to the file. The cache is bounded: it
keeps the :data:`CACHE_SIZE` rulesets used last (an LRU), so a long-running validator fed
records that each carry another inline ruleset holds a fixed amount of memory.

A record is input from a stranger, so by default (``files="record"``) the ruleset it
names may be a bundled name, an inline mapping, or a file inside the record's own
folder (``base_dir``, after resolving ``..`` and symlinks), and ``extends:`` in such a
file or mapping obeys the same rule; a record read from no file (``base_dir=None``:
standard input, an upload) may name bundled and inline rulesets only. Widening is
explicit: ``trusted=[Path("house-rules")]`` adds folders whose rulesets any record may
name, ``files="any"`` reads any file (for records you wrote yourself), ``files="none"``
reads none, and ``files=Path("rules")`` reads only that folder, wherever the record is.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from ..core.ruleset import Ruleset
from ..formats.rulesets import RulesetFiles, RulesetSource, load_ruleset, looks_like_path

CACHE_SIZE = 256
"""Most rulesets one resolver keeps (the ones used last): a ruleset and its compiled view
take some tens of KB, so a full cache stays within a few tens of MB; a corpus names far
fewer rulesets than that."""


class RulesetResolver:
    """Resolves a record's ``ruleset`` (name, path or inline mapping) to a :class:`Ruleset`.

    ``files`` limits the ruleset files a record may make it read: ``"record"`` (the
    default: the record's own folder), or as
    :data:`~gnoming_rules.core.ruleset.RulesetFiles` says; ``trusted`` folders are allowed
    besides; ``cache_size`` bounds the rulesets kept (the least recently used goes first).
    Raises :class:`~gnoming_rules.core.errors.RulesetError` as :func:`load_ruleset` does.
    """

    def __init__(
        self,
        *,
        cache_files: bool = False,
        files: Literal["record"] | RulesetFiles = "record",
        trusted: Iterable[str | Path] = (),
        cache_size: int = CACHE_SIZE,
    ) -> None:
        self.cache_files = cache_files
        self.files = files
        self.trusted = tuple(Path(folder) for folder in trusted)
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, ...], Ruleset] = OrderedDict()

    def allowed(self, base_dir: Path | None) -> RulesetFiles:
        """The files a record in ``base_dir`` (``None``: in no file) may make it read."""
        if self.files == "any":
            return "any"
        if self.files == "record":
            own: tuple[Path, ...] = () if base_dir is None else (base_dir,)
        elif self.files == "none":
            own = ()
        elif isinstance(self.files, Path):
            own = (self.files,)
        else:
            own = tuple(self.files)
        folders = (*own, *self.trusted)
        return folders if folders else "none"

    def resolve(
        self, source: RulesetSource, base_dir: Path | None = None, *, trust: bool = False
    ) -> Ruleset:
        """The ruleset ``source`` names, relative paths read from ``base_dir`` (default: the
        current folder). ``trust=True`` is for a ruleset the user gave (``--ruleset``), which
        may be read from anywhere."""
        files = "any" if trust else self.allowed(base_dir)
        key = self._key(source, base_dir, files)
        if key is None:
            return load_ruleset(source, base_dir=base_dir, files=files)
        cache = self._cache
        cached = cache.get(key)
        if cached is not None:
            cache.move_to_end(key)
            return cached
        cached = load_ruleset(source, base_dir=base_dir, files=files)
        cache[key] = cached
        while len(cache) > self.cache_size:
            cache.popitem(last=False)
        return cached

    @property
    def cached(self) -> int:
        """How many rulesets the cache holds (at most ``cache_size``)."""
        return len(self._cache)

    def _key(
        self, source: RulesetSource, base_dir: Path | None, files: RulesetFiles
    ) -> tuple[str, ...] | None:
        """A cache key, or ``None`` when ``source`` must be read afresh every time."""
        folder = str(base_dir or Path.cwd())
        allowed = "any" if files == "any" else repr(files)
        if isinstance(source, Mapping):
            parent = source.get("extends")
            if isinstance(parent, str) and looks_like_path(parent) and not self.cache_files:
                return None
            try:
                text = json.dumps(source, sort_keys=True, default=_refuse)
            except (TypeError, ValueError):
                return None
            where = folder if isinstance(parent, str) else ""
            return ("inline", where, allowed, text)
        reference = str(source)
        if not looks_like_path(reference) and not isinstance(source, Path):
            return ("bundled", reference)
        if not self.cache_files:
            return None
        return ("file", folder, allowed, reference)


def _refuse(value: Any) -> Any:
    raise TypeError(f"not JSON data: {value!r}")


__all__ = [
    "CACHE_SIZE",
    "RulesetResolver",
]
