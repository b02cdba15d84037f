"""The built wheel carries what the package reads at run time.

In a checkout the bundled rulesets and the rules page are read where they are
maintained (``rulesets/``, ``docs/rules.md``); an installed wheel must carry copies under
``gnoming_rules/_bundled/``. This builds the wheel, installs it into a scratch folder and
uses it from a process that cannot see the source tree.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import gnoming_rules as gr

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_ships_rulesets_and_rule_texts(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(wheels), str(ROOT)],
        check=True,
        capture_output=True,
        env={**os.environ, "GNOMING_PURE_PYTHON": "1"},  # docs/install.md: the pure wheel
    )  # fmt: skip
    # The variable gives a wheel for any platform, with no compiled module in it.
    (wheel,) = wheels.glob("gnoming_rules-*-py3-none-any.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert not [name for name in names if name.endswith((".so", ".pyd"))]
    for ruleset in gr.bundled_rulesets():
        assert f"gnoming_rules/_bundled/rulesets/{ruleset}.yaml" in names
    # The pages the package cites (test_stands_alone.py) ship with it.
    for page in ("rules.md", "record-format.md"):
        assert f"gnoming_rules/_bundled/{page}" in names
    # The bundled rulesets' first line points editors at ../schemas/ruleset.schema.json.
    for schema in ("ruleset", "record"):
        assert f"gnoming_rules/_bundled/schemas/{schema}.schema.json" in names
    assert "gnoming_rules/py.typed" in names
    for schema in ("cli/validate", "cli/score"):  # the command line's output schemas
        assert f"gnoming_rules/_bundled/schemas/{schema}.schema.json" in names
    (info,) = {name.split("/")[0] for name in names if ".dist-info/" in name}
    assert f"{info}/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata.splitlines()

    target = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    probe = (
        "import json, gnoming_rules as gr\n"
        "from gnoming_rules.referee.rulebook import rule_text\n"
        "print(json.dumps([gr.__file__, gr.bundled_rulesets(),"
        " gr.load_ruleset('standard').sha256, rule_text('7.2')]))\n"
    )
    shown = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r})\n{probe}"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    where, listed, sha256, text = json.loads(shown.stdout)
    assert Path(where).is_relative_to(target)
    assert listed == gr.bundled_rulesets()
    assert sha256 == gr.load_ruleset("standard").sha256
    assert text and text.startswith("A play (4.2) of a mulligan is refused")
