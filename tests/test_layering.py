"""The package's layers (docs/architecture.md): imports run one way, down to the core.

Every module's imports are read from its source (``ast``: imports inside functions and
under ``TYPE_CHECKING`` count too), so a violation fails here before it can hide behind an
import-order workaround.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gnoming_rules"

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"core"}),
    frozenset({"extras", "markup"}),
    frozenset({"formats"}),
    frozenset({""}),  # gnoming_rules/__init__.py: the core's names and load_ruleset
    frozenset({"play"}),
    frozenset({"referee"}),
    frozenset({"pictures", "corpus", "adapters", "testing"}),
    frozenset({"server"}),
    frozenset({"cli", "__main__"}),
)
"""Lowest first: a part of the package may import its own layer and those below it."""

LEVEL = {part: level for level, parts in enumerate(LAYERS) for part in parts}


def _part(module: str) -> str:
    """``gnoming_rules.core.engine`` -> ``core``; the package itself -> ``""``."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else ""


def _imports(file: Path, root: Path = PACKAGE) -> list[tuple[int, str]]:
    """(line, module) of every import of the package (at ``root``) that ``file`` makes."""
    relative = file.relative_to(root.parent).with_suffix("")
    pieces = list(relative.parts)
    package = pieces if pieces[-1] == "__init__" else pieces[:-1]
    if package[-1] == "__init__":
        package = package[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                names = [".".join([*base, *([node.module] if node.module else [])])]
                if node.module is None:  # from . import formats, from .. import COMPILED
                    names = [_module_or_name(root, base, alias.name) for alias in node.names]
            else:
                names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [(node.lineno, name) for name in names if name.split(".")[0] == "gnoming_rules"]
    return found


def _module_or_name(root: Path, package: list[str], name: str) -> str:
    """``from PACKAGE import name``: the module ``name`` if there is one, else the package."""
    folder = root.parent.joinpath(*package)
    is_module = (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists()
    return ".".join([*package, name]) if is_module else ".".join(package)


def _violations(root: Path = PACKAGE) -> list[str]:
    wrong = []
    for file in sorted(root.rglob("*.py")):
        module = ".".join(file.relative_to(root.parent).with_suffix("").parts)
        here = _part(module.removesuffix(".__init__"))
        for line, target in _imports(file, root):
            there = _part(target)
            if LEVEL[there] > LEVEL[here]:
                where = file.relative_to(root.parent)
                wrong.append(f"{where}:{line}: {here or 'gnoming_rules'} imports {target}")
    return wrong


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {
        (path.stem if path.is_file() else path.name)
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert parts <= set(LEVEL), f"give these a layer: {sorted(parts - set(LEVEL))}"


def test_imports_run_one_way_down_to_the_core() -> None:
    assert _violations() == []


@pytest.mark.parametrize(
    ("part", "forbidden"),
    [
        ("core", ("formats", "referee", "play", "cli", "server", "pictures", "corpus")),
        ("formats", ("cli", "referee", "play", "server")),
    ],
)
def test_the_core_reads_no_file_format_and_formats_know_no_command(
    part: str, forbidden: tuple[str, ...]
) -> None:
    bad = [
        f"{file.relative_to(PACKAGE.parent)}:{line}: {target}"
        for file in sorted((PACKAGE / part).rglob("*.py"))
        for line, target in _imports(file)
        if _part(target) in forbidden
    ]
    assert bad == []


def test_the_check_finds_an_import_that_runs_upward(tmp_path: Path) -> None:
    """Relative imports, imports inside a function and ``from . import`` are all read."""
    root = tmp_path / "gnoming_rules"
    (root / "core").mkdir(parents=True)
    (root / "formats").mkdir()
    (root / "__init__.py").write_text("from . import formats\n")
    (root / "formats" / "__init__.py").write_text("from ..core import engine\n")
    (root / "core" / "__init__.py").write_text("")
    (root / "core" / "engine.py").write_text(
        "from .errors import IllegalMove\n\ndef later():\n    from ..formats.record import x\n"
    )
    assert _violations(root) == [
        "gnoming_rules/core/engine.py:4: core imports gnoming_rules.formats.record"
    ]
    assert (1, "gnoming_rules.formats") in _imports(root / "__init__.py", root)
