"""The docstrings' examples run and print what they show (issue 15, "API pages").

Every module of the package is searched with the standard library's ``doctest``
(``DocTestFinder``), and each ``>>>`` example runs from the repository's top folder (some
read the files under examples/); an output that differs from the one written fails the
test. A module that needs an extra which is not installed is skipped. The main public
functions must each have an example, and a wrong expected output must fail the check.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import io
import types
from collections.abc import Callable

import pytest
from test_docs import ROOT

import gnoming_rules as gr
from gnoming_rules.core import move_from_entry, move_to_entry
from gnoming_rules.formats import state_from_dict, state_to_dict
from gnoming_rules.play import observe, play_game
from gnoming_rules.referee import replay_record, validate_file, validate_record
from gnoming_rules.referee.redact import redact

PACKAGE = ROOT / "gnoming_rules"
OPTIONAL = {"hypothesis", "dask", "distributed", "matplotlib", "numpy", "pyarrow"}
"""Top-level packages of the extras (pyproject's optional dependencies) and of the
agent libraries the adapters wrap: a module that needs a missing one is skipped."""
ADAPTED = {"gymnasium", "pettingzoo", "pyspiel", "open_spiel"}


def module_names() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue  # the command line's entry point
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


COMPILED_AWAY = (
    "compiled by mypyc, which keeps no docstrings at run time; make test's pure-Python "
    "pass runs this module's examples"
)


def _compiled(thing: object) -> bool:
    """True for a module or function that mypyc compiled (its docstrings are gone)."""
    if isinstance(thing, types.ModuleType):
        return not (thing.__file__ or ".py").endswith(".py")
    return isinstance(thing, types.BuiltinFunctionType) and gr.COMPILED


def run_examples(module: types.ModuleType) -> tuple[int, str]:
    """``(examples run, the report of those that failed)`` for ``module``'s docstrings."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    for test in doctest.DocTestFinder().find(module, module.__name__):
        runner.run(test, out=report.write)
    return runner.tries, report.getvalue() if runner.failures else ""


@pytest.mark.parametrize("name", module_names())
def test_the_docstring_examples_print_what_they_show(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        top = (missing.name or "").split(".")[0]
        if top in OPTIONAL | ADAPTED:
            pytest.skip(f"{name} needs {top}, which is not installed")
        raise
    if _compiled(module):
        pytest.skip(COMPILED_AWAY)
    monkeypatch.chdir(ROOT)
    _, failures = run_examples(module)
    assert not failures, f"{name}: a docstring example differs\n{failures}"


MAIN: list[Callable[..., object]] = [
    gr.new_game,
    gr.apply,
    gr.legal_moves,
    gr.sample_chance,
    gr.is_legal,
    gr.explain,
    gr.load_ruleset,
    gr.score_layout,
    gr.score_breakdown,
    observe,
    state_to_dict,
    state_from_dict,
    validate_file,
    validate_record,
    replay_record,
    play_game,
    redact,
    move_to_entry,
    move_from_entry,
]


@pytest.mark.parametrize("function", MAIN, ids=lambda function: function.__name__)
def test_each_main_function_shows_an_example(function: Callable[..., object]) -> None:
    if _compiled(function):
        pytest.skip(COMPILED_AWAY)
    doc = inspect.getdoc(function) or ""
    examples = doctest.DocTestParser().get_examples(doc)
    assert examples, f"{function.__qualname__} has no >>> example in its docstring"
    assert "Example" in doc, f"{function.__qualname__}: the example has no heading"


def test_a_wrong_expected_output_fails() -> None:
    module = types.ModuleType("planted")
    exec(
        compile(
            'def double(n):\n    """\n    >>> double(2)\n    5\n    """\n    return 2 * n\n',
            "planted",
            "exec",
        ),
        module.__dict__,
    )
    tries, failures = run_examples(module)
    assert tries == 1 and "Expected:\n    5\nGot:\n    4" in failures
    module.double.__doc__ = "\n>>> double(2)\n4\n"
    assert run_examples(module) == (1, "")


def test_every_module_is_searched() -> None:
    names = module_names()
    assert {"gnoming_rules", "gnoming_rules.core.engine", "gnoming_rules.testing"} <= set(names)
    assert len(names) == len(set(names)) == len(list(PACKAGE.rglob("*.py"))) - 1  # no __main__
