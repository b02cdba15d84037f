"""Rulesets as data: the bundled standard, extends and merge, refusals, identity, immutability."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from builders import STANDARD, variant
from pydantic import ValidationError

import gnoming_rules as gr
from gnoming_rules.formats.rulesets import bundled_dir

# The hash records carry for the standard rules (RECORD.md, "Rules identity"). Changing it
# makes every stored record that names it a ruleset-mismatch: do so only on purpose.
STANDARD_SHA256 = "d08cc8d284f15d788e09b490f988050d6df61c6e2abd52ac026619926e135211"


def _refusal(source: Any, code: str = "bad-ruleset", **kwargs: Any) -> str:
    with pytest.raises(gr.RulesetError) as caught:
        gr.load_ruleset(source, **kwargs)
    error = caught.value
    assert error.code == code
    assert error.message.strip() and "\n" not in error.message
    return error.message


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- the bundled standard ---------------------------------------------------------------------


def test_standard_is_bundled_and_matches_rules_1_1_and_1_2() -> None:
    assert "standard" in gr.bundled_rulesets()
    rules = gr.load_ruleset("standard")
    assert rules.name == "standard"
    numbers = rules.deck.numbers
    assert rules.deck.size == 110
    assert sum(n for face, n in numbers.items() if face > 0) == 82
    assert sum(n for face, n in numbers.items() if face < 0) == 22
    assert (rules.deck.hazards, rules.deck.mulligans) == (3, 3)
    assert {face: numbers[face] for face in range(1, 13)} == {
        **dict.fromkeys(range(1, 11), 7),
        11: 6,
        12: 6,
    }
    assert {face: numbers[face] for face in range(-5, 0)} == {-1: 8, -2: 6, -3: 4, -4: 2, -5: 2}


def test_standard_has_the_decided_toggle_values() -> None:
    rules = gr.load_ruleset("standard")
    assert (rules.players.min, rules.players.max, rules.rounds) == (3, 7, 3)
    assert rules.first_player == "rotate"
    assert (rules.layout.rows, rules.layout.cols, rules.layout.face_up_at_start) == (3, 3, 2)
    assert rules.discard.taken_must_be_played is True
    assert rules.bounce is True
    assert (rules.hazard.flips, rules.hazard.spare_last_card, rules.hazard.penalty) == (
        "others",
        True,
        10,
    )
    assert (rules.mulligan.max_face_up, rules.mulligan.unmatched_value) == (1, 0)
    going_out = rules.going_out
    assert (going_out.bonus, going_out.penalty, going_out.ties_count_as_lowest) == (-5, 5, True)
    assert rules.empty_draw_pile == "reshuffle"


def test_standard_loads_by_path_too() -> None:
    by_path = gr.load_ruleset(bundled_dir() / "standard.yaml")
    assert by_path.sha256 == STANDARD.sha256


# --- extends ----------------------------------------------------------------------------------


def test_extends_merges_nested_mappings_key_by_key() -> None:
    rules = variant(hazard={"penalty": 20}, going_out={"bonus": -10})
    assert rules.hazard.penalty == 20
    assert rules.hazard.flips == "others" and rules.hazard.spare_last_card is True
    assert (rules.going_out.bonus, rules.going_out.penalty) == (-10, 5)
    assert rules.deck == STANDARD.deck
    with_13 = variant(deck={"numbers": {13: 2, 12: 1}})
    assert with_13.deck.numbers[13] == 2 and with_13.deck.numbers[12] == 1
    assert with_13.deck.numbers[1] == 7 and with_13.deck.size == 110 + 2 - 5


def test_extends_null_deletes_a_key() -> None:
    fewer = variant(deck={"numbers": {12: None, -5: None}})
    assert 12 not in fewer.deck.numbers and -5 not in fewer.deck.numbers
    assert fewer.deck.size == 110 - 6 - 2
    # Deleting a required field leaves the ruleset incomplete: refused, naming the field.
    message = _refusal({"extends": "standard", "going_out": {"bonus": None}})
    assert "going_out.bonus" in message and "missing" in message


def test_extends_null_deletes_a_number_face_written_as_a_string(tmp_path: Path) -> None:
    # JSON keys are strings: "12": null must delete the 12s just as 12: null does.
    path = _write(
        tmp_path / "no12.json",
        json.dumps({"extends": "standard", "deck": {"numbers": {"12": None, "11": 1}}}),
    )
    rules = gr.load_ruleset(path)
    assert 12 not in rules.deck.numbers
    assert rules.deck.numbers[11] == 1
    assert rules.deck.size == 110 - 6 - 5


def test_extends_chains_through_files_relative_to_the_extending_file(tmp_path: Path) -> None:
    _write(tmp_path / "base" / "house.yaml", "extends: standard\nrounds: 5\nbounce: false\n")
    _write(tmp_path / "mine" / "child.yaml", "extends: ../base/house.yaml\nrounds: 2\n")
    elsewhere = tmp_path / "mine"  # from here ../base/house.yaml would not be found...
    rules = gr.load_ruleset("mine/child.yaml", base_dir=tmp_path)
    assert (rules.rounds, rules.bounce, rules.name) == (2, False, "child")
    # ... and the same file loaded from another folder resolves its parent the same way.
    assert gr.load_ruleset(elsewhere / "child.yaml").sha256 == rules.sha256
    # An inline mapping's extends path is relative to base_dir.
    inline = gr.load_ruleset({"extends": "base/house.yaml"}, base_dir=tmp_path)
    assert (inline.rounds, inline.bounce) == (5, False)


def test_extends_cycles_are_refused(tmp_path: Path) -> None:
    _write(tmp_path / "a.yaml", "extends: b.yaml\nrounds: 2\n")
    _write(tmp_path / "b.yaml", "extends: a.yaml\nrounds: 4\n")
    message = _refusal(tmp_path / "a.yaml")
    assert "cycle" in message and "a.yaml" in message and "b.yaml" in message
    _write(tmp_path / "self.yaml", "extends: self.yaml\n")
    assert "cycle" in _refusal(tmp_path / "self.yaml")


def test_errors_in_an_extends_chain_name_the_file_that_made_them(tmp_path: Path) -> None:
    _write(tmp_path / "sub" / "parent.yaml", "extends: standard\nbouncing: false\n")
    _write(tmp_path / "child.yaml", "extends: sub/parent.yaml\nrounds: 2\n")
    message = _refusal(tmp_path / "child.yaml")
    assert message == "sub/parent.yaml: bouncing: unknown field — did you mean bounce?"
    _write(tmp_path / "sub" / "hazards.yaml", "extends: standard\nhazard: {flip: next}\n")
    nested = _refusal({"extends": "sub/hazards.yaml"}, base_dir=tmp_path)
    assert nested == "sub/hazards.yaml: hazard.flip: unknown field — did you mean flips?"
    # A missing grandparent: who named it, and where it was looked for.
    _write(tmp_path / "a.yaml", "extends: sub/b.yaml\n")
    _write(tmp_path / "sub" / "b.yaml", "extends: c.yaml\n")
    missing = _refusal(tmp_path / "a.yaml", "unknown-ruleset")
    looked = tmp_path.resolve() / "sub" / "c.yaml"
    assert missing == f"sub/b.yaml: extends: c.yaml: no such ruleset file (looked for {looked})"
    _write(tmp_path / "d.yaml", "extends: no-such-rules\n")
    assert _refusal(tmp_path / "d.yaml", "unknown-ruleset").startswith(
        f"{tmp_path / 'd.yaml'}: extends: no bundled ruleset named"
    )


def test_an_unknown_name_is_refused_listing_the_bundled_names() -> None:
    message = _refusal("no-such-rules", "unknown-ruleset")
    assert "no-such-rules" in message
    for name in gr.bundled_rulesets():
        assert name in message
    assert "no-such-rules" in _refusal({"extends": "no-such-rules"}, "unknown-ruleset")


def test_a_missing_file_is_an_unknown_ruleset(tmp_path: Path) -> None:
    message = _refusal(tmp_path / "nowhere.yaml", "unknown-ruleset")
    assert "nowhere.yaml" in message
    _write(tmp_path / "child.yaml", "extends: parent.yaml\n")
    assert "parent.yaml" in _refusal(tmp_path / "child.yaml", "unknown-ruleset")


def test_a_file_that_is_not_a_ruleset_mapping_is_refused(tmp_path: Path) -> None:
    assert "line" in _refusal(_write(tmp_path / "broken.yaml", "rounds: [1, 2\n"))
    assert "mapping" in _refusal(_write(tmp_path / "list.yaml", "- 1\n- 2\n"))


# --- bad rulesets -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "fields"),
    [
        ({"players": {"max": 12}}, ["deck", "players.max"]),
        ({"deck": {"numbers": {5: 0}}}, ["deck.numbers.5"]),
        ({"deck": {"numbers": {5: -1}}}, ["deck.numbers.5"]),
        ({"deck": {"hazards": -1}}, ["deck.hazards"]),
        ({"rounds": 0}, ["rounds"]),
        ({"players": {"min": 0}}, ["players.min"]),
        ({"bounc": True}, ["bounc", "unknown field"]),
        ({"hazard": {"flip": "next"}}, ["hazard.flip", "unknown field"]),
        ({"rounds": "3"}, ["rounds", "integer"]),
        ({"rounds": 2.0}, ["rounds", "integer"]),
        ({"bounce": "yes"}, ["bounce", "true or false"]),
        ({"deck": {"numbers": {5: True}}}, ["deck.numbers.5"]),
        ({"hazard": {"flips": "all"}}, ["hazard.flips", "'others'"]),
        ({"empty_draw_pile": "stop"}, ["empty_draw_pile"]),
        ({"players": {"min": 5, "max": 4}}, ["players", "min", "max"]),
        ({"layout": {"face_up_at_start": 10}}, ["layout.face_up_at_start", "10"]),
        ({"layout": {"rows": 6}}, ["layout.rows", "6"]),
        ({"layout": {"cols": 1}}, ["layout.cols", "1"]),
        ({"deck": {"named": {"k": 3}}}, ["deck.named", "'k'"]),
        ({"mulligan": {"max_face_up": 0}}, ["mulligan.max_face_up"]),
    ],
)
def test_a_bad_ruleset_is_refused_naming_the_field(
    change: dict[str, Any], fields: list[str]
) -> None:
    message = _refusal({"extends": "standard", **change})
    assert message.startswith("inline ruleset: ")
    for field in fields:
        assert field in message


def test_a_bad_ruleset_file_is_named_in_the_message(tmp_path: Path) -> None:
    path = _write(tmp_path / "huge.yaml", "extends: standard\nplayers: {min: 3, max: 13}\n")
    message = _refusal(path)
    assert "huge.yaml" in message and "players.max" in message


def test_extends_must_name_a_ruleset() -> None:
    assert "extends" in _refusal({"extends": 5})
    assert "extends" in _refusal({"extends": ""})


# --- identity ---------------------------------------------------------------------------------


def test_sha256_is_stable_and_hashes_the_canonical_json() -> None:
    assert STANDARD.sha256 == STANDARD_SHA256
    assert gr.load_ruleset("standard").sha256 == STANDARD_SHA256
    canonical = STANDARD.canonical_json()
    assert " " not in canonical and "\n" not in canonical
    assert hashlib.sha256(canonical.encode("utf-8")).hexdigest() == STANDARD_SHA256
    data = json.loads(canonical)
    assert "name" not in data and "description" not in data and "extends" not in data
    assert canonical == json.dumps(data, sort_keys=True, separators=(",", ":"))


def test_sha256_ignores_name_and_description() -> None:
    relabelled = variant(name="mine", description="the same rules, another label")
    assert relabelled.name == "mine"
    assert relabelled.sha256 == STANDARD_SHA256
    assert gr.load_ruleset({"extends": "standard"}).sha256 == STANDARD_SHA256


def test_sha256_changes_with_any_rule() -> None:
    changed = [
        variant(rounds=4),
        variant(hazard={"penalty": 11}),
        variant(deck={"numbers": {12: 5}}),
        variant(going_out={"ties_count_as_lowest": False}),
    ]
    hashes = {rules.sha256 for rules in changed}
    assert len(hashes) == len(changed) and STANDARD_SHA256 not in hashes


# --- immutability, no writes ------------------------------------------------------------------


def test_the_model_is_frozen() -> None:
    rules = gr.load_ruleset("standard")
    with pytest.raises(ValidationError):
        rules.rounds = 5
    with pytest.raises(ValidationError):
        rules.layout.rows = 4
    with pytest.raises(ValidationError):
        rules.hazard.penalty = 0
    with pytest.raises(TypeError):
        rules.deck.numbers[5] = 1  # type: ignore[index]
    assert rules.deck.numbers[5] == 7
    assert rules.sha256 == STANDARD_SHA256


def test_equal_rulesets_hash_equal_and_serve_as_keys() -> None:
    first, second = gr.load_ruleset("standard"), gr.load_ruleset("standard")
    assert first == second and hash(first) == hash(second)
    assert {first: "cached"}[second] == "cached"
    assert first != variant(rounds=2)


def test_a_path_object_is_always_read_as_a_file(tmp_path: Path) -> None:
    (tmp_path / "house").write_text("extends: standard\nrounds: 2\n", encoding="utf-8")
    rules = gr.load_ruleset(tmp_path / "house")
    assert (rules.rounds, rules.name) == (2, "house")
    with pytest.raises(gr.RulesetError) as missing:
        gr.load_ruleset(tmp_path / "standard")
    assert missing.value.code == "unknown-ruleset"


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(path.relative_to(folder)): (path.read_bytes(), os.stat(path).st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_loader_never_writes_files(tmp_path: Path) -> None:
    _write(tmp_path / "base" / "house.yaml", "extends: standard\nrounds: 5\n")
    _write(tmp_path / "child.yaml", "extends: base/house.yaml\nbounce: false\n")
    _write(tmp_path / "bad.yaml", "extends: child.yaml\nrounds: 0\n")
    before, bundled_before = _snapshot(tmp_path), _snapshot(bundled_dir())
    gr.load_ruleset(tmp_path / "child.yaml")
    gr.load_ruleset("child.yaml", base_dir=tmp_path)
    with pytest.raises(gr.RulesetError):
        gr.load_ruleset(tmp_path / "bad.yaml")
    assert _snapshot(tmp_path) == before
    assert _snapshot(bundled_dir()) == bundled_before


def test_a_changed_copy_plays_its_own_rules_not_its_originals() -> None:
    rules = gr.load_ruleset("standard")
    assert rules.compiled.bounce and rules.sha256 == STANDARD_SHA256  # cached on the original
    copy = rules.model_copy(update={"bounce": False, "layout": {"rows": 4}})
    assert copy.bounce is False and copy.compiled.bounce is False
    assert (copy.layout.rows, copy.layout.cols) == (4, 3)  # nested fields merge
    assert copy.sha256 != STANDARD_SHA256
    assert rules.model_copy().compiled is not rules.compiled
    with pytest.raises(gr.RulesetError) as refused:
        rules.model_copy(update={"rounds": 0})
    assert refused.value.code == "bad-ruleset" and "rounds" in refused.value.message


def test_merge_patch_follows_rfc_7386() -> None:
    from gnoming_rules.core.ruleset import merge_patch

    # The RFC's own example (section 3), keys and values kept as the RFC writes them.
    target = {"title": "Goodbye!", "author": {"givenName": "John", "familyName": "Doe"},
              "tags": ["example", "sample"], "content": "This will be unchanged"}  # fmt: skip
    patch = {"title": "Hello!", "phoneNumber": "+01-123-456-7890",
             "author": {"familyName": None}, "tags": ["example"]}  # fmt: skip
    assert merge_patch(target, patch) == {
        "title": "Hello!",
        "author": {"givenName": "John"},
        "tags": ["example"],
        "content": "This will be unchanged",
        "phoneNumber": "+01-123-456-7890",
    }
    assert merge_patch({}, {"a": {"b": None}}) == {"a": {}}
    assert merge_patch({"a": 1}, {"a": {"b": 2, "c": None}}) == {"a": {"b": 2}}
    assert target["author"] == {"givenName": "John", "familyName": "Doe"}  # inputs untouched


# --- ruleset files are input: read with the records' guarded YAML loader ----------------------


def _laughs(levels: int) -> str:
    """A billion-laughs document: each level an alias list of nine of the level before."""
    lines = ["extends: standard", 'a0: ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join([*lines, f"rounds: *a{levels}", ""])


@pytest.mark.parametrize("levels", [7, 9])
def test_aliases_in_a_ruleset_file_are_refused_before_they_expand(
    tmp_path: Path, levels: int
) -> None:
    """9 levels hung the loader; 7 made a 5.8 MB one-line message."""
    path = _write(tmp_path / "laughs.yaml", _laughs(levels))
    message = _refusal(path)
    assert message.startswith(f"{path}: not valid YAML: aliases (*name) are not allowed")
    assert len(message) < 300
    child = _write(tmp_path / "child.yaml", "extends: laughs.yaml\n")
    assert "aliases" in _refusal(child)


def test_a_deeply_nested_ruleset_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "deep.yaml", "rounds: " + "[" * 5_000 + "]" * 5_000 + "\n")
    assert "nested too deeply (more than 200 levels)" in _refusal(path)


def test_a_long_value_is_quoted_short(tmp_path: Path) -> None:
    path = _write(tmp_path / "long.yaml", f"extends: standard\nrounds: {'x' * 100_000}\n")
    message = _refusal(path)
    assert message.startswith(f"{path}: rounds: ") and len(message) < 300, message


def test_every_fault_of_a_file_is_reported_at_once_with_its_field(tmp_path: Path) -> None:
    """Three typos are three problems, not one and "(and 2 more)" without saying what."""
    typos = tmp_path / "typos.yaml"
    typos.write_text(
        "extends: standard\nbonce: false\nhazard:\n  penaltty: 3\nlayout:\n  colls: 3\n",
        encoding="utf-8",
    )
    with pytest.raises(gr.RulesetError) as caught:
        gr.load_ruleset(typos)
    problems = caught.value.problems
    assert [(p.path, p.message) for p in problems] == [
        ("bonce", "unknown field — did you mean bounce?"),
        ("hazard.penaltty", "unknown field — did you mean penalty?"),
        ("layout.colls", "unknown field — did you mean cols?"),
    ]
    assert all(problem.file == str(typos) for problem in problems)
    assert caught.value.message == (
        f"{typos}: bonce: unknown field — did you mean bounce? (and 2 more: hazard.penaltty, "
        "layout.colls)"
    )
    values = tmp_path / "values.yaml"
    values.write_text("extends: standard\nlayout: {rows: 9, cols: 0}\nrounds: x\n")
    with pytest.raises(gr.RulesetError) as caught:
        gr.load_ruleset(values)
    assert [p.path for p in caught.value.problems] == ["rounds", "layout.rows", "layout.cols"]
    assert str(caught.value.problems[1]) == (f"{values}: layout.rows: must be at most 5, got 9")
