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


def _graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (a package by its own name)."""
    graph: dict[str, set[str]] = {}
    for file in sorted(root.rglob("*.py")):
        module = ".".join(file.relative_to(root.parent).with_suffix("").parts)
        graph[module.removesuffix(".__init__")] = {target for _, target in _imports(file, root)}
    for module, targets in graph.items():  # `from .x import name` names module x
        graph[module] = {t if t in graph else t.rpartition(".")[0] for t in targets} - {module}
    return graph


def _cycles(root: Path = PACKAGE) -> list[list[str]]:
    """The import circles of the package: each strongly connected group of modules that
    import one another, round or through others (Tarjan's algorithm, without recursion)."""
    graph = _graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    """No import circle inside the package, imports inside functions included (a lazy
    import hides a circle from Python, not from the design): docs/architecture.md."""
    assert _cycles() == []


def test_the_check_finds_an_import_circle_through_a_function(tmp_path: Path) -> None:
    root = tmp_path / "gnoming_rules"
    (root / "play").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "play" / "__init__.py").write_text("from .bots import BOTS\n")
    (root / "play" / "bots.py").write_text("def search():\n    from .search import Bot\n")
    (root / "play" / "search.py").write_text("from .playout import run\n")
    (root / "play" / "playout.py").write_text("from .bots import greedy\n")
    (root / "play" / "worlds.py").write_text("from . import playout\n")
    assert _cycles(root) == [
        ["gnoming_rules.play.bots", "gnoming_rules.play.playout", "gnoming_rules.play.search"]
    ]
