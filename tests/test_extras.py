"""A missing optional framework gets one wording, from one place (``gnoming_rules.extras``),
in the library and on the command line, and it installs the extra the way the README does.
Each case runs in a fresh interpreter where the framework cannot be imported."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from kit import ROOT

from gnoming_rules.extras import EXTRAS


def without(module: str, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` where ``import module`` fails as if it were not installed."""
    probe = f"import sys\nsys.modules[{module!r}] = None\n{code}"
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=False
    )


def message(extra: str, module: str) -> str:
    return (
        f"{extra} extra not installed ({module} missing): pip install '.[{extra}]' in your "
        "clone of gnoming-rules"
    )


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("gnoming_rules.adapters.gymnasium_env", "gymnasium", "rl"),
        ("gnoming_rules.adapters.pettingzoo_env", "pettingzoo", "rl"),
        ("gnoming_rules.adapters.openspiel_game", "pyspiel", "rl"),
        ("gnoming_rules.adapters.actions", "numpy", "rl"),
        ("gnoming_rules.testing", "hypothesis", "testing"),
    ],
)
def test_a_module_whose_extra_is_missing_says_which_to_install(
    module: str, blocked: str, extra: str
) -> None:
    code = (
        "from gnoming_rules.core.errors import UsageError\n"
        f"try:\n    import {module}\n"
        "except UsageError as error:\n    print(error.code, '|', error.message)\n"
    )
    done = without(blocked, code)
    assert done.stderr == ""  # no traceback, no bare ModuleNotFoundError
    assert done.stdout.strip() == f"missing-extra | {message(extra, blocked)}"


def test_the_command_line_says_the_same() -> None:
    code = (
        "from gnoming_rules.cli import main\n"
        "sys.exit(main(['stats', 'examples/tiny-game.json', '--html', '/dev/null']))\n"
    )
    done = without("matplotlib", code)
    assert done.returncode == 2
    assert done.stderr.strip().endswith(message("stats", "matplotlib")), done.stderr
    assert "Traceback" not in done.stderr


def test_the_docs_install_each_extra_the_same_way() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    text = "\n".join(path.read_text(encoding="utf-8") for path in docs)
    assert "gnoming-rules[" not in text
    for extra in EXTRAS:
        assert re.search(rf"pip install '\.\[([a-z]+,)*{extra}(,[a-z]+)*\]'", text), extra
