"""A record is input from a stranger: the ruleset it names is confined.

It may name a bundled ruleset, an inline mapping, or a file inside its own folder (after
``..`` and symlinks are resolved); ``extends:`` in such a file or mapping obeys the same
rule, and a record read from no file (standard input, an upload) may name bundled and
inline rulesets only. Anything else is ``unknown-ruleset`` with one message that quotes
the reference and reads nothing, the same whether the file exists or not. Widening is
explicit: ``RulesetResolver(trusted=...)`` (``--trust-rulesets`` on the command line).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from kit import examples

from gnoming_rules.cli import main
from gnoming_rules.formats.rulesets import load_ruleset
from gnoming_rules.referee.resolver import RulesetResolver
from gnoming_rules.referee.validate import Verdict, replay_bytes, validate_file

TINY = (Path(__file__).resolve().parent.parent / "examples" / "tiny.yaml").read_text(
    encoding="utf-8"
)
SECRET = "secret-line: the first line of a file the record must not read\n"


def record_naming(ruleset: str | dict[str, Any]) -> dict[str, Any]:
    """A valid tiny game's record data, naming ``ruleset`` (no sha256, so any rules do)."""
    data: dict[str, Any] = examples.tiny_game(seed=1, rounds=1)
    data["ruleset"] = ruleset
    data.pop("ruleset_sha256", None)
    return data


def write(folder: Path, data: dict[str, Any], name: str = "game.json") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    """records/ (where records lie, with tiny.yaml and sub/tiny.yaml), outside/ beside it
    (a ruleset, a secret, a folder and a symlink target), and links from records/ out."""
    records, outside = tmp_path / "records", tmp_path / "outside"
    (records / "sub").mkdir(parents=True)
    outside.mkdir()
    (records / "tiny.yaml").write_text(TINY, encoding="utf-8")
    (records / "sub" / "tiny.yaml").write_text(TINY, encoding="utf-8")
    (outside / "tiny.yaml").write_text(TINY, encoding="utf-8")
    (outside / "secret.yaml").write_text(SECRET, encoding="utf-8")
    (outside / "folder.yaml").mkdir()
    (records / "link.yaml").symlink_to(outside / "tiny.yaml")
    (records / "secret-link.yaml").symlink_to(outside / "secret.yaml")
    (records / "out").symlink_to(outside, target_is_directory=True)
    # A sibling whose name starts with the folder's: outside it, though its path string
    # starts with the folder's path.
    evil = tmp_path / f"{records.name}-evil"
    evil.mkdir()
    (evil / "tiny.yaml").write_text(TINY, encoding="utf-8")
    (records / "evil-link.yaml").symlink_to(evil / "tiny.yaml")
    return {"records": records, "outside": outside, "evil": evil, "root": tmp_path}


def error_of(verdict: Verdict) -> tuple[str, str]:
    assert verdict.error is not None, verdict
    return verdict.error.code, verdict.error.message


@pytest.mark.parametrize("name", ["tiny.yaml", "./tiny.yaml", "sub/tiny.yaml", "sub/../tiny.yaml"])
def test_a_file_inside_the_records_folder_may_be_named(layout: dict[str, Path], name: str) -> None:
    path = write(layout["records"], record_naming(name))
    assert validate_file(path).valid


def test_an_absolute_path_inside_the_records_folder_may_be_named(layout: dict[str, Path]) -> None:
    inside = str(layout["records"] / "tiny.yaml")
    assert validate_file(write(layout["records"], record_naming(inside))).valid


def escaping(layout: dict[str, Path]) -> list[str]:
    """References that leave the record's folder, to files that exist and do not, to a
    folder, to a file that is no ruleset, and through symlinks."""
    outside, evil = layout["outside"], layout["evil"]
    return [
        "../records-evil/tiny.yaml",
        str(evil / "tiny.yaml"),
        "evil-link.yaml",
        "../outside/tiny.yaml",
        "../outside/missing.yaml",
        "../outside/secret.yaml",
        "../outside/folder.yaml",
        "sub/../../outside/tiny.yaml",
        str(outside / "tiny.yaml"),
        str(outside / "missing.yaml"),
        str(outside / "secret.yaml"),
        "/etc/passwd",
        "/etc/no-such-file.yaml",
        "link.yaml",
        "secret-link.yaml",
        "out/tiny.yaml",
        "out/missing.yaml",
    ]


def test_anything_else_is_refused_in_one_message_that_reads_nothing(
    layout: dict[str, Path],
) -> None:
    messages = []
    for reference in escaping(layout):
        path = write(layout["records"], record_naming(reference))
        code, message = error_of(validate_file(path))
        assert code == "unknown-ruleset", (reference, message)
        assert json.dumps(reference) in message, message  # the reference as written
        assert "secret-line" not in message and "root:" not in message
        messages.append(message.replace(json.dumps(reference), "<ref>"))
    # The same words whether the file exists, is a folder, is no ruleset, or is a link.
    assert len(set(messages)) == 1, set(messages)


def test_a_sibling_whose_name_starts_with_the_folders_name_is_outside_it(
    layout: dict[str, Path],
) -> None:
    """``records-evil/`` beside ``records/``: its path starts with the folder's path as a
    string, but it is another folder, whether named, reached by a link, or trusted."""
    records, evil = layout["records"], layout["evil"]
    assert str(evil).startswith(str(records))
    for reference in ("../records-evil/tiny.yaml", str(evil / "tiny.yaml"), "evil-link.yaml"):
        path = write(records, record_naming(reference))
        assert error_of(validate_file(path))[0] == "unknown-ruleset", reference
    trusted = layout["root"] / "trusted"
    trusted.mkdir()
    beside = layout["root"] / "trusted-too"
    beside.mkdir()
    (beside / "tiny.yaml").write_text(TINY, encoding="utf-8")
    path = write(records, record_naming(str(beside / "tiny.yaml")))
    verdict = validate_file(path, resolver=RulesetResolver(trusted=[trusted]))
    assert error_of(verdict)[0] == "unknown-ruleset"
    assert validate_file(path, resolver=RulesetResolver(trusted=[beside])).valid


def test_extends_in_a_file_of_the_folder_obeys_the_same_rule(layout: dict[str, Path]) -> None:
    records = layout["records"]
    (records / "child.yaml").write_text("extends: ../outside/tiny.yaml\n", encoding="utf-8")
    (records / "good-child.yaml").write_text(
        "extends: sub/tiny.yaml\nrounds: 1\n", encoding="utf-8"
    )
    code, message = error_of(validate_file(write(records, record_naming("child.yaml"))))
    assert code == "unknown-ruleset" and '"../outside/tiny.yaml"' in message
    assert validate_file(write(records, record_naming("good-child.yaml"))).valid


def test_extends_in_an_inline_ruleset_obeys_the_same_rule(layout: dict[str, Path]) -> None:
    records = layout["records"]
    for reference in ("../outside/tiny.yaml", "/etc/passwd", "link.yaml"):
        path = write(records, record_naming({"extends": reference}))
        code, message = error_of(validate_file(path))
        assert code == "unknown-ruleset" and json.dumps(reference) in message, message
    assert validate_file(write(records, record_naming({"extends": "tiny.yaml"}))).valid


def test_a_record_read_from_no_file_names_bundled_or_inline_rulesets_only(
    layout: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(layout["records"])  # tiny.yaml is in the current folder, still refused
    for reference in ("tiny.yaml", str(layout["records"] / "tiny.yaml"), "/etc/passwd"):
        data = json.dumps(record_naming(reference)).encode()
        code, message = error_of(replay_bytes(data).verdict)
        assert code == "unknown-ruleset" and json.dumps(reference) in message, message
    inline = load_ruleset(layout["records"] / "tiny.yaml").model_dump(mode="json")
    assert replay_bytes(json.dumps(record_naming(inline)).encode()).verdict.valid
    standard = examples.record_data([examples.standard_round(examples.SETUP)])
    assert replay_bytes(json.dumps(standard).encode()).verdict.valid


def test_widening_is_explicit(layout: dict[str, Path]) -> None:
    outside = layout["outside"]
    path = write(layout["records"], record_naming("../outside/tiny.yaml"))
    assert validate_file(path, resolver=RulesetResolver(trusted=[outside])).valid
    assert validate_file(path, resolver=RulesetResolver(files="any")).valid
    stdin = json.dumps(record_naming(str(outside / "tiny.yaml"))).encode()
    assert replay_bytes(stdin, resolver=RulesetResolver(trusted=[outside])).verdict.valid
    # A trusted folder does not open its neighbours.
    other = write(layout["records"], record_naming("../outside/../records/../x.yaml"))
    assert error_of(validate_file(other, resolver=RulesetResolver(trusted=[outside])))[0] == (
        "unknown-ruleset"
    )


def test_a_ruleset_given_by_the_user_is_trusted(layout: dict[str, Path]) -> None:
    path = write(layout["records"], record_naming("/etc/passwd"))
    assert validate_file(path, ruleset=layout["outside"] / "tiny.yaml").valid


def test_a_symlinked_records_folder_still_confines(layout: dict[str, Path]) -> None:
    """The record's folder reached through a link: files in it are inside, the rest not."""
    alias = layout["root"] / "alias"
    alias.symlink_to(layout["records"], target_is_directory=True)
    path = write(layout["records"], record_naming("tiny.yaml"))
    assert validate_file(alias / path.name).valid
    escape = write(layout["records"], record_naming("../outside/tiny.yaml"), "escape.json")
    assert error_of(validate_file(alias / escape.name))[0] == "unknown-ruleset"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_in_the_folder_is_refused_without_waiting(layout: dict[str, Path]) -> None:
    os.mkfifo(layout["records"] / "pipe.yaml")
    path = write(layout["records"], record_naming("pipe.yaml"))
    code, message = error_of(validate_file(path))
    assert code == "unknown-ruleset" and "not a regular file" in message, message


def test_the_command_line_trusts_the_folders_it_is_given(
    layout: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(layout["records"], record_naming("../outside/tiny.yaml"))
    assert main(["validate", str(path)]) == 2
    assert '"../outside/tiny.yaml"' in capsys.readouterr().out
    assert main(["validate", str(path), "--trust-rulesets", str(layout["outside"])]) == 0
    assert main(["show", str(path), "--trust-rulesets", str(layout["outside"])]) == 0
    assert main(["show", str(path)]) == 2
    assert "unknown-ruleset" in capsys.readouterr().err
