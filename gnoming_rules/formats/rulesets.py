"""Ruleset files: find a ruleset (a bundled name, a path, an inline mapping), read it
with the guarded YAML reader, follow its ``extends`` chain, and hand the resolved data to
the core's :func:`~gnoming_rules.core.ruleset.ruleset_from_data`, which checks it.

The core reads no file: this module is where a ruleset's bytes come in, with the limits
of input from strangers (a regular file only, :data:`MAX_RULESET_BYTES`, at most
:data:`MAX_EXTENDS` links, and only the folders :data:`RulesetFiles` allows).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from ..core.bundled import bundled_path
from ..core.errors import MAX_NAME, RulesetError, UnreadableYamlError, one_line, quoted
from ..core.ruleset import (
    Ruleset,
    merge_patch,
    ruleset_from_data,
    unknown_fields,
    with_int_faces,
)
from .reading import NotRegularFileError, read_regular_file
from .safe_yaml import load_yaml

__all__ = [
    "MAX_EXTENDS",
    "MAX_RULESET_BYTES",
    "RulesetFiles",
    "RulesetSource",
    "bundled_dir",
    "bundled_rulesets",
    "load_ruleset",
    "looks_like_path",
    "ruleset_data",
]

RulesetSource = str | Path | Mapping[str, Any]
"""What :func:`load_ruleset` takes: a bundled name, a path, or an inline mapping."""
RulesetFiles = Literal["any", "none"] | Path | Collection[Path]
"""Which ruleset files may be read: any, none (bundled names and inline mappings only), or
only those inside the folders given (after resolving ``..`` and symlinks). Whatever reads
a record picks one of the last two, so that a record's ``ruleset`` (or an ``extends`` in
the files it names) cannot make it read other files; see
:class:`~gnoming_rules.referee.resolver.RulesetResolver`."""

_SUFFIXES = (".yaml", ".yml", ".json")
_T = TypeVar("_T")


MAX_RULESET_BYTES = 1024 * 1024
"""Largest ruleset file read (1 MiB; the standard ruleset is under 3 KB). A larger one is
refused before it is read."""
MAX_EXTENDS = 16
"""Most ``extends`` a ruleset may follow, one after the other, to its root ruleset."""


def bundled_dir() -> Path:
    """The folder of bundled rulesets: inside an installed wheel, else the source tree's."""
    return bundled_path("rulesets")


def bundled_rulesets() -> list[str]:
    """Names of the bundled rulesets, sorted (``standard`` and its variants)."""
    return sorted(p.stem for p in bundled_dir().glob("*.yaml"))


def looks_like_path(reference: str) -> bool:
    """A reference is a path if it has a folder separator or a YAML/JSON suffix, else a name."""
    return "/" in reference or "\\" in reference or reference.lower().endswith(_SUFFIXES)


def load_ruleset(
    source: RulesetSource, *, base_dir: Path | None = None, files: RulesetFiles = "any"
) -> Ruleset:
    """Load, resolve (``extends``) and check a ruleset.

    ``source`` is a bundled name (``"standard"``), a path to a YAML or JSON file, or a
    mapping (an inline ruleset, which may itself say ``extends:``). Relative paths are
    read from ``base_dir`` (default: the current folder); an ``extends:`` path inside a
    file is relative to that file's folder. ``files`` limits which files may be read
    (see :data:`RulesetFiles`; the default, ``"any"``, is for rulesets the user names);
    bundled names are always allowed. A file may hold at most :data:`MAX_RULESET_BYTES`,
    and a chain of ``extends`` at most :data:`MAX_EXTENDS` links.

    Raises :class:`RulesetError`: ``unknown-ruleset`` when a name or file is not found
    (or not allowed: then the message quotes the reference and nothing is read),
    ``bad-ruleset`` when it cannot be read or played; the message names the field.

    Example::

        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> rules.name, rules.rounds, rules.players.min, rules.players.max
        ('standard', 3, 3, 7)
        >>> short = gr.load_ruleset({"extends": "standard", "name": "short", "rounds": 1})
        >>> short.rounds, short.sha256 == rules.sha256
        (1, False)
        >>> try:
        ...     gr.load_ruleset("no-such-rules")
        ... except gr.RulesetError as error:
        ...     print(error.code)
        unknown-ruleset
    """
    data, label = _resolved(source, base_dir, files, checked=True)
    return ruleset_from_data(data, label)


def ruleset_data(
    source: RulesetSource, *, base_dir: Path | None = None, files: RulesetFiles = "any"
) -> dict[str, Any]:
    """The fields of a ruleset with its ``extends`` applied, as written and not checked:
    what :func:`load_ruleset` would check. For tools that show a ruleset that cannot be
    played (``gnoming ruleset diff``); misspelt fields are kept, under their spelling.

    Raises :class:`RulesetError` only for a ruleset that cannot be found or read.
    """
    return _resolved(source, base_dir, files, checked=False)[0]


def _resolved(
    source: RulesetSource, base_dir: Path | None, files: RulesetFiles, *, checked: bool
) -> tuple[dict[str, Any], str]:
    """(merged data, label) of a ruleset; ``checked``: refuse misspelt fields on the way."""
    base = base_dir if base_dir is not None else Path.cwd()
    allowed = _allowed_folders(files)
    if isinstance(source, Mapping):
        data, label = _resolve_mapping(source, base, "inline ruleset", (), allowed, checked=checked)
        default_name = _default_name(source, "inline")
    else:
        as_path = isinstance(source, Path)
        data, label, default_name = _resolve_reference(
            str(source), base, (), allowed, checked=checked, as_path=as_path
        )
    data.setdefault("name", default_name)
    return data, label


_Folders = tuple[tuple[str, Path], ...] | None
"""Where ruleset files may be read: per folder, its absolute path as written and resolved
(symlinks followed); ``None`` means anywhere."""


def _allowed_folders(files: RulesetFiles) -> _Folders:
    if files == "any":
        return None
    if files == "none":
        return ()
    folders = [files] if isinstance(files, Path) else list(files)
    return tuple(
        (os.path.abspath(folder), _looked_up(Path(folder).resolve, str(folder)))
        for folder in folders
    )


def _inside(folder: str, path: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _confined(reference: str, base: Path, folders: _Folders, via: str) -> Path:
    """The file ``reference`` names from ``base``, if it lies inside one of ``folders``.

    The check runs twice: on the path as written (``..`` resolved as text, nothing asked
    of the file system), then on the path with symlinks resolved. A reference outside
    gets one refusal, quoting it, whether or not anything exists there."""
    written = os.path.abspath(os.path.join(base, reference))
    if folders is not None and not any(_inside(folder, written) for folder, _ in folders):
        raise _not_allowed(reference, via)
    path = _looked_up(Path(written).resolve, one_line(reference))
    if folders is not None and not any(_inside(str(real), str(path)) for _, real in folders):
        raise _not_allowed(reference, via)
    return path


def _not_allowed(reference: str, via: str) -> RulesetError:
    return RulesetError(
        "unknown-ruleset",
        f"{via}{quoted(reference, MAX_NAME)}: not a bundled ruleset, and ruleset files may be "
        "read only from the record's own folder (or a folder of trusted rulesets)",
    )


def _default_name(mapping: Mapping[str, Any], fallback: str) -> str:
    parent = mapping.get("extends")
    return f"{parent}+" if isinstance(parent, str) and parent else fallback


def _resolve_reference(
    reference: str,
    base: Path,
    chain: tuple[str, ...],
    files: _Folders,
    *,
    checked: bool,
    as_path: bool = False,
    referrer: str | None = None,
) -> tuple[dict[str, Any], str, str]:
    """Read the ruleset a name or path refers to; returns (merged data, label, default name).

    ``as_path`` forces a path reading (a ``Path`` given to :func:`load_ruleset`);
    ``referrer`` is the label of the ruleset whose ``extends`` names this one, so that an
    error says which file named what; ``chain`` holds the rulesets read on the way here.
    """
    via = f"{referrer}: extends: " if referrer is not None else ""
    if as_path or looks_like_path(reference):
        label = one_line(reference)
        path = _confined(reference, base, files, via)
        name = path.stem
    else:
        path = bundled_dir() / f"{reference}.yaml"
        label = name = one_line(reference)
        if not _looked_up(path.is_file, label):
            known = ", ".join(bundled_rulesets())
            raise RulesetError(
                "unknown-ruleset",
                f"{via}no bundled ruleset named {quoted(reference, MAX_NAME, python=True)} "
                f"(bundled: {known})",
            )
    key = str(path)
    if key in chain:
        cycle = " -> ".join(one_line(link) for link in [*chain, key])
        raise RulesetError("bad-ruleset", f"{via}{label}: extends forms a cycle: {cycle}")
    if len(chain) > MAX_EXTENDS:
        raise RulesetError(
            "bad-ruleset",
            f"{via}{label}: extends: a chain of more than {MAX_EXTENDS} rulesets, each "
            "extending the next (the most a ruleset may follow)",
        )
    raw = _read_document(path, label, via)
    data, _ = _resolve_mapping(raw, path.parent, label, (*chain, key), files, checked=checked)
    return data, label, name


def _looked_up(look: Callable[[], _T], label: str) -> _T:
    """``look()``, a question to the file system; an error of the file system (a name too
    long, a null byte) means the ruleset cannot be found: ``unknown-ruleset``."""
    try:
        return look()
    except (OSError, ValueError, RuntimeError) as error:  # RuntimeError: a symlink loop
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise RulesetError("unknown-ruleset", f"{label}: cannot be looked up: {reason}") from None


def _read_document(path: Path, label: str, via: str) -> Mapping[str, Any]:
    """A ruleset file's mapping, read by the records' own guarded YAML loader (no aliases,
    no deep nesting: a ruleset named by a record is input like the record). Only a
    regular file is read, and only up to :data:`MAX_RULESET_BYTES`."""
    try:
        raw = read_regular_file(path, MAX_RULESET_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        looked = f" (looked for {one_line(str(path))})" if via else ""
        raise RulesetError(
            "unknown-ruleset", f"{via}{label}: no such ruleset file{looked}"
        ) from None
    except NotRegularFileError as error:
        raise RulesetError("unknown-ruleset", f"{via}{label}: cannot read: {error}") from None
    except (PermissionError, IsADirectoryError) as error:
        reason = error.strerror or str(error)
        raise RulesetError("bad-ruleset", f"{via}{label}: cannot read: {reason}") from None
    except (OSError, ValueError) as error:  # a name too long, a null byte, a symlink loop
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise RulesetError("unknown-ruleset", f"{via}{label}: cannot be looked up: {why}") from None
    if len(raw) > MAX_RULESET_BYTES:
        raise RulesetError(
            "bad-ruleset",
            f"{label}: the file is larger than {MAX_RULESET_BYTES // 1024} KiB, "
            "the most a ruleset file may hold",
        )
    try:
        document = load_yaml(raw.removeprefix(b"\xef\xbb\xbf"))
    except UnreadableYamlError as problem:
        raise RulesetError("bad-ruleset", f"{label}: {problem.message}") from None
    if not isinstance(document, Mapping):
        raise RulesetError("bad-ruleset", f"{label}: a ruleset must be a mapping of fields")
    return document


def _resolve_mapping(
    mapping: Mapping[str, Any],
    base: Path,
    label: str,
    chain: tuple[str, ...],
    files: _Folders,
    *,
    checked: bool,
) -> tuple[dict[str, Any], str]:
    data = with_int_faces(dict(mapping), label)
    data.pop("$schema", None)  # an editor's hint (JSON rulesets name their schema so)
    parent = data.pop("extends", None)
    unknown = unknown_fields(data, Ruleset, label, "") if checked else []
    if unknown:
        raise RulesetError.of(unknown)
    if parent is None:
        return data, label
    if not isinstance(parent, str) or not parent:
        raise RulesetError("bad-ruleset", f"{label}: extends: must name a ruleset or a file")
    parent_data, _, _ = _resolve_reference(
        parent, base, chain, files, checked=checked, referrer=label
    )
    parent_data.pop("name", None)
    parent_data.pop("description", None)
    return merge_patch(parent_data, data), label
