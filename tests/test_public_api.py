"""The package's interface (docs/api/index.md): ``gnoming_rules`` itself exports the core,
every other public name is exported by its subpackage (``gnoming_rules.core``,
``.formats``, ``.play``, ``.referee``), every module declares its public names in
``__all__``, and ``State.to_move`` narrows the seat to move."""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gnoming_rules as gr
from gnoming_rules import core, formats, play, referee
from gnoming_rules.formats import rulesets
from gnoming_rules.play import bots

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"
ELSEWHERE = {
    "gnoming_rules.referee.batch",
    "gnoming_rules.referee.processes",
    "gnoming_rules.testing",
    "gnoming_rules.play.observation_json",
    "gnoming_rules.referee.redact",
    "gnoming_rules.formats.rulesets",  # load_ruleset and bundled_rulesets: from gnoming_rules
}
"""Documented as imported from their own modules (the index says so)."""
PACKAGES = (core, formats, play, referee)
"""The subpackages that export their modules' public names."""


def documented_modules() -> list[str]:
    names = re.findall(r"^::: (gnoming_rules(?:\.\w+)+)$", "".join(
        page.read_text(encoding="utf-8") for page in sorted(API.glob("*.md"))
    ), flags=re.MULTILINE)  # fmt: skip
    return sorted(set(names) - ELSEWHERE)


def test_the_api_pages_cover_the_modules_with_an_interface() -> None:
    modules = documented_modules()
    for name in (
        "core.engine",
        "core.state",
        "formats.snapshot",
        "play.observation",
        "core.entries",
        "core.scoring",
        "play.bots",
    ):
        assert f"gnoming_rules.{name}" in modules


def all_modules() -> list[str]:
    """Every module of the package, subpackages included."""
    found = pkgutil.walk_packages(gr.__path__, prefix="gnoming_rules.")
    return sorted({"gnoming_rules", *(module.name for module in found)})


@pytest.mark.parametrize("name", all_modules())
def test_every_module_declares_its_public_names(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as missing:  # an adapter or the server, whose extra is not installed
        if not name.startswith(("gnoming_rules.adapters.", "gnoming_rules.server.")):
            raise
        pytest.skip(f"{name}: {missing}")
    assert hasattr(module, "__all__"), f"{name} has no __all__"
    for public in module.__all__:
        assert hasattr(module, public), f"{name}.__all__ names {public}, which it does not hold"
        if public in gr.__all__:
            assert getattr(gr, public) is getattr(module, public), (
                f"gnoming_rules.{public} is not {name}.{public}"
            )


@pytest.mark.parametrize("name", documented_modules())
def test_a_subpackage_exports_its_documented_modules_names_as_they_are(name: str) -> None:
    """Each documented module gives its subpackage some of its public names (the ones a
    user needs, which the API index lists: see the next test), as the same objects."""
    module = importlib.import_module(name)
    package = importlib.import_module(name.rpartition(".")[0])
    shared = set(module.__all__) & set(package.__all__)
    assert shared, f"{package.__name__} exports nothing of {name}"
    for public in shared:
        assert getattr(package, public) is getattr(module, public), f"{name}.{public}"


def test_every_name_the_api_index_lists_is_exported() -> None:
    rows = re.findall(
        r"^\| \[[^]]+\]\([\w.-]+\) \| (.+?) \| (.+) \|$",
        (API / "index.md").read_text(encoding="utf-8"),
        flags=re.MULTILINE,
    )
    listed = {
        name
        for modules, holds in rows
        if not set(re.findall(r"`([\w.]+)`", modules)) & ELSEWHERE
        for name in re.findall(r"`(\w+)`", holds)
    }
    assert {"Bot", "observe", "state_to_dict", "move_from_entry", "score_visible"} <= listed
    exported = {name for package in PACKAGES for name in package.__all__}
    missing = sorted(name for name in listed if name not in exported)
    assert not missing, f"listed in docs/api/index.md but not exported: {missing}"


def test_the_package_exports_exactly_its_names() -> None:
    assert len(set(gr.__all__)) == len(gr.__all__)
    for name in gr.__all__:
        assert hasattr(gr, name), name
    assert play.Bot is bots.Bot


def test_to_move_is_the_actor_as_an_int_or_a_clear_refusal() -> None:
    rules = gr.load_ruleset("standard")
    state = gr.new_game(rules, 3, first_player=1)
    with pytest.raises(gr.GnomingError) as refused:
        _ = state.to_move
    assert refused.value.code == "no-player-to-move"
    assert refused.value.message == "no seat moves in phase deal: a deal or a reshuffle is due"
    state = gr.apply(rules, state, gr.sample_chance(rules, state, random.Random(1)))
    assert state.to_move == state.actor == 1
    rng = random.Random(2)
    while not state.is_over:
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
        else:
            assert state.to_move == state.actor
            state = gr.apply(rules, state, rng.choice(gr.legal_moves(rules, state)))
    with pytest.raises(gr.GnomingError, match="no seat moves in phase over: the game is over"):
        _ = state.to_move


CORE = [
    "ERROR_CODES",
    "HAZARD",
    "MULLIGAN",
    "Bounce",
    "Deal",
    "Discard",
    "Draw",
    "Face",
    "Flip",
    "GnomingError",
    "Knock",
    "Pass",
    "Peek",
    "Swap",
    "IllegalMove",
    "Move",
    "Phase",
    "Place",
    "PlayerMove",
    "RecordError",
    "Reshuffle",
    "Reveal",
    "Ruleset",
    "RulesetError",
    "State",
    "StateError",
    "UnreadableYamlError",
    "UsageError",
    "apply",
    "bundled_rulesets",
    "explain",
    "is_legal",
    "legal_moves",
    "load_ruleset",
    "new_game",
    "sample_chance",
    "score_breakdown",
    "score_layout",
    "score_visible",
]
"""The top-level namespace (issue 10, item 4): rulesets, the state, the moves, the engine,
scoring, card faces and the families of errors."""


def test_the_top_level_namespace_is_the_core_and_nothing_more() -> None:
    assert len(gr.__all__) <= 40
    assert sorted(gr.__all__) == sorted(CORE)
    for name in CORE:  # the core's names; ruleset files are read by the formats layer
        home = rulesets if name in ("load_ruleset", "bundled_rulesets") else core
        assert getattr(gr, name) is getattr(home, name), name
    for package in (formats, play, referee):
        for name in package.__all__:
            assert not hasattr(gr, name), f"gnoming_rules.{name}: import it from {package.__name__}"
    for name in set(core.__all__) - set(CORE):
        assert not hasattr(gr, name), f"gnoming_rules.{name}: import it from gnoming_rules.core"
    with pytest.raises(AttributeError):
        _ = gr.validate_file  # type: ignore[attr-defined]
    frameworks = ("numpy", "pettingzoo", "pyspiel", "gymnasium", "dask", "matplotlib")
    for statement in (
        "import gnoming_rules",
        "from gnoming_rules import core, formats, play, referee",
    ):
        probe = f"{statement}; import sys; print(' '.join(sorted(sys.modules)))"
        modules = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
        ).stdout.split()
        assert not [name for name in modules if name.split(".")[0] in frameworks], statement
