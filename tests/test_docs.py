"""Every example in the docs runs, and the reference pages match the code.

- Each ```python block of docs/**/*.md and README.md runs, the blocks of one page in
  order in one fresh namespace, from the repository's top folder, and writes nothing into
  the repository. A ```text block right after a line "This prints:" must be exactly what
  the previous Python block printed (after a ```sh block: what the commands printed, which
  tests/test_cli_docs.py checks).
- Each ```yaml block is a ruleset (loaded and played) or a game record (replayed move by
  move through the engine, card claims checked; a public-information record, which holds
  no deal, by the validator); any other YAML fails the test.
- Each ```json block parses; a verdict uses only the stable error codes.
- Each `make` command shown in a ```sh block is a target of the Makefile.
- The package docstring's examples run (they are shown on the API page).
- The house rules guide lists every field of a ruleset with its standard value, and its
  ten-line example says what it claims; the rules page covers every paragraph number, and
  each of its sections links to the API reference of the code that enforces it.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import random_move

import gnoming_rules as gr
from gnoming_rules.formats import parse_record
from gnoming_rules.referee import validate_record

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [*sorted(DOCS.rglob("*.md")), ROOT / "README.md"]
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    lang: str
    code: str
    line: int
    """1-based line of the opening fence."""
    after: str
    """The last non-blank line before the fence."""


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, in order."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index, previous = 0, ""
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            if lines[index].strip():
                previous = lines[index].strip()
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        assert end < len(lines), f"{page}:{index + 1}: unclosed code block"
        found.append(
            Block(opening.group(1), "\n".join(lines[index + 1 : end]), index + 1, previous)
        )
        index, previous = end + 1, ""
    return found


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def play_random_game(rules: gr.Ruleset, players: int, seed: int) -> gr.State:
    rng = random.Random(seed)
    state = gr.new_game(rules, players)
    while not state.is_over:
        move = random_move(rules, state, rng)
        state = gr.apply(rules, state, move)
    return state


# --- Python ---------------------------------------------------------------------------------


TOOL_FOLDERS = {".git", ".venv", "site", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


def repository_files() -> dict[str, tuple[int, int]]:
    """Every file of the checkout outside tool and cache folders: its size and mtime."""
    found: dict[str, tuple[int, int]] = {}
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [
            name
            for name in subfolders
            if name not in TOOL_FOLDERS
            and name not in {"__pycache__", ".hypothesis"}
            and not name.endswith(".egg-info")
        ]
        for name in files:
            status = (Path(folder) / name).stat()
            found[str(Path(folder, name).relative_to(ROOT))] = (status.st_size, status.st_mtime_ns)
    return found


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_python_blocks_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    before = repository_files()
    namespace: dict[str, Any] = {"__name__": f"docs_{page.stem}"}
    printed, previous = "", ""
    for block in blocks(page):
        where = f"{page_id(page)}:{block.line}"
        if block.lang == "python":
            output = io.StringIO()
            with contextlib.redirect_stdout(output):
                exec(compile(block.code, where, "exec"), namespace)
            printed = output.getvalue()
        elif block.after == "This prints:":
            assert block.lang == "text", f"{where}: expected output belongs in a text block"
            if previous != "sh":
                assert printed.rstrip("\n") == block.code, f"{where}: the output differs"
        if block.lang != "text":
            previous = block.lang
    after = repository_files()
    changed = sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    )
    assert not changed, f"{page_id(page)}: its examples wrote into the repository: {changed}"


def test_the_package_docstring_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its ``::`` blocks (shown on the API page) run in order, from the top folder."""
    monkeypatch.chdir(ROOT)
    doc = gr.__doc__
    assert doc is not None and "Quick start::" in doc
    examples = re.findall(r"::\n\n((?:(?:    .*)?\n)+)", doc + "\n")
    codes = ["\n".join(line[4:] for line in example.split("\n")) for example in examples]
    assert len(codes) == 2 and "gr.apply" in codes[0] and "validate_record" in codes[1]
    before = repository_files()
    namespace: dict[str, Any] = {"__name__": "quick_start"}
    for code in codes:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "gnoming_rules.__doc__", "exec"), namespace)
    assert repository_files() == before


# --- YAML: rulesets and records ----------------------------------------------------------------


def yaml_blocks() -> list[tuple[str, Block]]:
    return [
        (f"{page_id(page)}:{block.line}", block)
        for page in PAGES
        for block in blocks(page)
        if block.lang == "yaml"
    ]


@pytest.mark.parametrize(("where", "block"), yaml_blocks(), ids=[w for w, _ in yaml_blocks()])
def test_yaml_blocks_are_rulesets_or_records_that_work(where: str, block: Block) -> None:
    document = yaml.safe_load(block.code)
    assert isinstance(document, dict), f"{where}: not a mapping"
    if document.get("information") == "public":
        # a public record holds no deal: the validator replays it (its paths are read from
        # the repository's top folder, where the docs' examples run)
        verdict = validate_record(parse_record(block.code, format="yaml"), base_dir=ROOT)
        assert verdict.valid and verdict.information == "public", f"{where}: {verdict.to_json()}"
    elif "format" in document:
        replay_record(document, where)
    elif "extends" in document or "deck" in document:
        rules = gr.load_ruleset(document)
        for players in {rules.players.min, rules.players.max}:
            state = play_random_game(rules, players, seed=players)
            assert len(state.scores) == rules.rounds and state.winners, where
    else:
        raise AssertionError(f"{where}: a YAML block must be a ruleset or a game record")


MOVE_FIELDS = {
    "reveal": {"player", "slot", "card"},
    "draw": {"player", "source", "pile", "card"},
    "place": {"player", "slot", "card"},
    "bounce": {"player", "slot", "card"},
    "discard": {"player", "pile"},
    "flip": {"player", "slot", "card"},
    "reshuffle": {"cards"},
}


def record_move(entry: dict[str, Any]) -> gr.Move:
    action = entry["action"]
    fields = set(entry) - {"action"}
    assert fields <= MOVE_FIELDS[action], f"{action}: unexpected fields {fields}"
    if action == "reshuffle":
        return gr.Reshuffle(tuple(entry["cards"]))
    player = entry["player"]
    if action == "draw":
        assert entry["source"] in ("deck", "discard")
        assert ("pile" in entry) == (entry["source"] == "discard")
        return gr.Draw(player, entry.get("pile"))
    if action == "discard":
        return gr.Discard(player, entry.get("pile"))
    kinds: dict[str, type[gr.Reveal | gr.Place | gr.Bounce | gr.Flip]] = {
        "reveal": gr.Reveal,
        "place": gr.Place,
        "bounce": gr.Bounce,
        "flip": gr.Flip,
    }
    return kinds[action](player, entry["slot"])


def replay_record(record: dict[str, Any], where: str) -> None:
    """Replay a record's moves through the engine and check its card claims."""
    top = {"format", "ruleset", "ruleset_sha256", "players", "first_player", "rounds", "result"}
    assert set(record) <= top, f"{where}: unknown top-level fields"
    assert record["format"] == "gnoming-record/1"
    rules = gr.load_ruleset(record["ruleset"])
    if "ruleset_sha256" in record:
        assert record["ruleset_sha256"] == rules.sha256, f"{where}: wrong ruleset_sha256"
    state = gr.new_game(rules, len(record["players"]), record["first_player"])
    for round_index, round_ in enumerate(record["rounds"]):
        assert set(round_) <= {"deal", "moves", "scores"}
        state = gr.apply(rules, state, gr.Deal(tuple(round_["deal"])))
        for move_index, entry in enumerate(round_["moves"]):
            move = record_move(entry)
            state = gr.apply(rules, state, move)
            if "card" in entry:
                seen: gr.Face | None
                if isinstance(move, gr.Reveal | gr.Flip):
                    seen = state.cards[move.player][move.slot]
                else:
                    seen = state.held
                assert seen == entry["card"], f"{where}: card claim of move {move_index}"
        if "scores" in round_:
            assert state.round == round_index + 1
            assert list(state.scores[round_index]) == round_["scores"]


# --- other blocks ---------------------------------------------------------------------------


def test_json_blocks_parse_and_verdicts_use_stable_codes() -> None:
    seen = 0
    for page in PAGES:
        for block in blocks(page):
            if block.lang != "json":
                continue
            seen += 1
            document = json.loads(block.code)
            if "valid" in document:
                keys = {"valid", "complete", "error", "scores", "totals", "winners"}
                assert set(document) - {"information"} == keys
                assert document["error"]["code"] in gr.ERROR_CODES
    assert seen


def test_make_commands_in_the_docs_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.MULTILINE))
    shown = {
        word
        for page in PAGES
        for block in blocks(page)
        if block.lang == "sh"
        for word in re.findall(r"^make (\w+)", block.code, flags=re.MULTILINE)
    }
    assert {"test", "docs"} <= shown
    assert shown <= targets, shown - targets


def test_every_block_has_a_known_language() -> None:
    for page in PAGES:
        for block in blocks(page):
            assert block.lang in {"python", "yaml", "json", "text", "sh"}, (page, block.line)


# --- reference pages against the code -----------------------------------------------------------


FACE_MAPPINGS = ("deck.numbers", "deck.named", "deck.values", "powers")


def leaf_fields(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted paths of a ruleset's fields; the mappings of faces (the deck's, the powers)
    each stay one field."""
    leaves: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and path not in FACE_MAPPINGS:
            leaves.update(leaf_fields(value, f"{path}."))
        else:
            leaves[path] = value
    return leaves


def test_house_rules_guide_lists_every_field_with_its_standard_value() -> None:
    text = (DOCS / "house-rules.md").read_text(encoding="utf-8")
    text = text[text.index("## Every field") :]
    text = text[: text.index("\n## ")]
    rows = re.findall(r"^\| `([\w.]+)` \| ([^|]+) \|", text, flags=re.MULTILINE)
    table = {field: cell.strip() for field, cell in rows}
    fields = gr.load_ruleset("standard").model_dump(mode="json", exclude={"name", "description"})
    standard = leaf_fields(fields)  # rules_dict() leaves discard.piles out at its default
    assert set(standard) | {"name", "description", "extends"} == set(table)
    for field, value in standard.items():
        cell = table[field]
        if cell.startswith("`"):
            assert yaml.safe_load(cell.strip("`")) == value, field


def test_house_rules_example_is_ten_lines_that_change_three_rules() -> None:
    page = DOCS / "house-rules.md"
    example = next(b for b in blocks(page) if b.lang == "yaml" and "our-table" in b.code)
    assert len(example.code.splitlines()) <= 10
    ours = gr.load_ruleset(yaml.safe_load(example.code))
    standard = leaf_fields(gr.load_ruleset("standard").rules_dict())
    changed = {k: v for k, v in leaf_fields(ours.rules_dict()).items() if standard[k] != v}
    assert changed == {"bounce": False, "hazard.flips": "next", "rounds": 2}


RULE_NUMBERS = [
    *(f"1.{n}" for n in range(1, 4)),
    *(f"2.{n}" for n in range(1, 4)),
    *(f"3.{n}" for n in range(1, 6)),
    *(f"4.{n}" for n in range(1, 7)),
    *(f"5.{n}" for n in range(1, 5)),
    *(f"6.{n}" for n in range(1, 4)),
    *(f"7.{n}" for n in range(1, 4)),
    *(f"8.{n}" for n in range(1, 8)),
    "9.1",
    *(f"10.{n}" for n in range(1, 14)),
    *(f"11.{n}" for n in range(1, 9)),
]


def test_rules_page_has_every_paragraph_in_order() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    positions = [text.find(f"**{number}") for number in RULE_NUMBERS]
    missing = [number for number, p in zip(RULE_NUMBERS, positions, strict=True) if p < 0]
    assert not missing
    assert positions == sorted(positions)


ENFORCED_LINK = re.compile(r"\[`[\w.]+`\]\((api/\w+\.md)#([\w.]+)\)")


def test_each_rule_section_links_to_the_code_that_enforces_it() -> None:
    """Under each numbered section's title, an *Enforced by* paragraph links to the API
    pages; each anchor names an object of the module that page documents."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    sections = re.split(r"^## (\d+)\. .*$", text, flags=re.MULTILINE)[1:]
    assert [int(number) for number in sections[::2]] == list(range(1, 12))
    for number, body in zip(sections[::2], sections[1::2], strict=True):
        lead = body.strip().split("\n\n")[0]
        assert lead.startswith("*Enforced by:*"), f"section {number}"
        links = ENFORCED_LINK.findall(lead)
        assert links, f"section {number}: no link to the API pages"
        for page, anchor in links:
            shown = re.findall(r"^::: ([\w.]+)", (DOCS / page).read_text(encoding="utf-8"), re.M)
            module = max((m for m in shown if anchor.startswith(m + ".")), key=len, default=None)
            assert module is not None, f"section {number}: {page} does not document {anchor}"
            found: Any = importlib.import_module(module)
            for name in anchor[len(module) + 1 :].split("."):
                found = getattr(found, name)


def test_every_page_is_in_the_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS.rglob("*.md"):
        assert str(page.relative_to(DOCS)) in config, page


def test_the_testing_page_lists_every_planted_bug_and_property() -> None:
    """docs/testing.md's planted-bug table is ``tests/planted_bugs.PLANTED_BUGS``, row for row,
    and each property of the suite is described in one of its property tables."""
    from planted_bugs import PLANTED_BUGS
    from test_planted_bugs import PROPERTY_RUNS

    text = (DOCS / "testing.md").read_text(encoding="utf-8")
    planted = text[text.index("## Planted bugs") :]
    rows = re.findall(r"^\| `([\w-]+)` \| `(\w+)` \|", planted, flags=re.MULTILINE)
    assert rows == [(bug.prop, bug.name) for bug in PLANTED_BUGS]
    described = text[text.index("## The project's property suite") : text.index("## Profiles")]
    listed = re.findall(r"^\| `([\w-]+)` \|", described, flags=re.MULTILINE)
    assert sorted(listed) == sorted(PROPERTY_RUNS)


def test_one_numbering_is_stated_on_the_first_page_and_followed() -> None:
    """Rounds, moves, seats and slots count from 0 (as verdicts do): the first page and
    the README say so, and no example counts them from 1."""
    for page in (DOCS / "index.md", ROOT / "README.md"):
        text = page.read_text(encoding="utf-8")
        assert "counted from 0" in text and "round 0" in text, page
    for page in PAGES:
        for block in blocks(page):
            assert "start=1" not in block.code, f"{page_id(page)}:{block.line}"
            assert not re.search(r"round 1\b.*(dealt|first)", block.code), page_id(page)
