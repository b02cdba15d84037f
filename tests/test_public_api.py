"""The package's interface (docs/api/index.md): every public name the API index lists can
be imported from ``gnoming_rules`` itself, every module declares its public names in
``__all__``, and ``State.to_move`` narrows the seat to move."""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
from pathlib import Path

import pytest

import gnoming_rules as gr
from gnoming_rules.play import bots

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"
ELSEWHERE = {
    "gnoming_rules.referee.batch",
    "gnoming_rules.testing",
    "gnoming_rules.play.observation_json",
}
"""Documented as imported from their own modules (the index says so)."""


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
    except ImportError as missing:  # an adapter whose framework (an extra) is not installed
        if not name.startswith("gnoming_rules.adapters."):
            raise
        pytest.skip(f"{name}: {missing}")
    assert hasattr(module, "__all__"), f"{name} has no __all__"
    for public in module.__all__:
        assert hasattr(module, public), f"{name}.__all__ names {public}, which it does not hold"
        if public in gr.__all__:
            assert getattr(gr, public) is getattr(module, public), (
                f"gnoming_rules.{public} is not {name}.{public}"
            )


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
    missing = sorted(name for name in listed if name not in gr.__all__)
    assert not missing, f"listed in docs/api/index.md but not exported: {missing}"


def test_the_package_exports_exactly_its_names() -> None:
    assert len(set(gr.__all__)) == len(gr.__all__)
    for name in gr.__all__:
        assert hasattr(gr, name), name
    assert gr.Bot is bots.Bot


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
