"""The command-line reference matches the real parser, and every shell example runs.

- docs/cli.md has a section ``## gnoming COMMAND`` for each command of the parser that
  ``gnoming_rules.cli.build_parser`` builds, and no section for a command it does not
  have. A section's table has a row for each argument and option (every spelling:
  ``-q`` and ``--quiet``), each choice of an option appears in its row, a default that is
  text appears in its Default cell, and a row names no option the command lacks.
- Each ``gnoming ...`` line of a ```sh block in docs/**/*.md and README.md runs as a real
  subprocess (``python -m gnoming_rules``). The lines of one page run in order, in a
  temporary folder that holds copies of examples/, rulesets/ and schemas/, so that the
  examples may write files without touching the repository. A ```yaml block right after
  a line that ends in "Save this as `NAME`:" (or "over") is written to NAME there first;
  if its first line names a JSON Schema for editors, that file must exist there.
- A command must exit 0, unless its line ends in a comment that says ``exit status N``.
  A sh block holds nothing but such commands, ``make`` targets and ``pip install``.
- A ```text block right after a line "This prints:" that follows a ```sh block must be
  exactly what that block's commands printed: standard output, then standard error.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_docs import DOCS, PAGES, ROOT, Block, blocks, page_id

from gnoming_rules.cli import build_parser

CLI_PAGE = DOCS / "cli.md"
COPIED = ("examples", "rulesets", "schemas")
SAVE_AS = re.compile(r"Save this (?:as|over) `([\w.-]+)`:$")
SCHEMA_COMMENT = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
STATUS = re.compile(r"#.*\bexit status (\d+)\s*$")
OPTION = re.compile(r"(?<![\w-])(--?[a-z][\w-]*)")


# --- the parser against the reference page ------------------------------------------------------


def leaf_commands(
    parser: argparse.ArgumentParser, prefix: str = "gnoming"
) -> dict[str, argparse.ArgumentParser]:
    """``{"gnoming validate": parser, "gnoming ruleset show": parser, ...}``."""
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                nested = leaf_commands(sub, f"{prefix} {name}")
                found.update(nested or {f"{prefix} {name}": sub})
    return found


COMMANDS = leaf_commands(build_parser())


def sections(text: str) -> dict[str, str]:
    """The ``## gnoming ...`` sections of the page, each up to the next ``## `` heading."""
    found: dict[str, str] = {}
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    for part in parts[1:]:
        heading, _, body = part.partition("\n")
        if heading.startswith("gnoming"):
            found[heading.strip()] = body
    return found


def table_rows(section: str) -> list[list[str]]:
    """The cells of every table row (header and ``---`` rows left out)."""
    rows = []
    for line in section.splitlines():
        if line.startswith("|") and not re.match(r"^\|\s*-", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return [row for row in rows if row[0] != "Argument"]


def spellings(action: argparse.Action) -> list[str]:
    """How an argument is written on the command line: its options, or its metavar."""
    if action.option_strings:
        return list(action.option_strings)
    return [str(action.metavar or action.dest)]


def names_argument(cell: str, spelling: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(spelling)}(?![\w-])", cell) is not None


@pytest.fixture(scope="module")
def page_sections() -> dict[str, str]:
    return sections(CLI_PAGE.read_text(encoding="utf-8"))


def test_every_command_has_a_section_and_every_section_a_command(
    page_sections: dict[str, str],
) -> None:
    assert set(page_sections) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_argument_and_option_is_documented(
    command: str, page_sections: dict[str, str]
) -> None:
    rows = table_rows(page_sections[command])
    arguments = [a for a in COMMANDS[command]._actions if not isinstance(a, argparse._HelpAction)]
    for action in arguments:
        matching = [
            row for row in rows if any(names_argument(row[0], s) for s in spellings(action))
        ]
        assert len(matching) == 1, f"{command}: one table row for {spellings(action)}"
        row = matching[0]
        for spelling in spellings(action):
            assert names_argument(row[0], spelling), f"{command}: {spelling} missing in {row[0]}"
        for choice in action.choices or ():
            assert names_argument(" ".join(row), str(choice)), f"{command}: choice {choice}"
        if isinstance(action.default, str):
            assert f"`{action.default}`" in row[1], f"{command}: default of {action.dest}"
    known = {s for action in COMMANDS[command]._actions for s in action.option_strings}
    for row in rows:
        for option in OPTION.findall(row[0]):
            assert option in known, f"{command}: {option} is not an option of the command"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_help_says_what_every_argument_is_and_the_defaults_the_page_gives(
    command: str, page_sections: dict[str, str]
) -> None:
    """``gnoming COMMAND --help`` explains every argument, and names the default of every
    option whose Default cell on the page is a value (not "(required)", not "off")."""
    rows = table_rows(page_sections[command])
    arguments = [a for a in COMMANDS[command]._actions if not isinstance(a, argparse._HelpAction)]
    for action in arguments:
        assert action.help, f"{command}: {spellings(action)} has no help"
        row = next(row for row in rows if any(names_argument(row[0], s) for s in spellings(action)))
        if row[1] not in ("(required)", "off"):
            help_text = action.help % {"default": action.default}
            assert "default: " in help_text, f"{command}: {spellings(action)} hides its default"
            if isinstance(action.default, str):
                assert f"default: {action.default}" in help_text, f"{command}: {row[1]}"


def test_the_program_options_are_documented() -> None:
    text = CLI_PAGE.read_text(encoding="utf-8")
    for action in build_parser()._actions:
        for option in action.option_strings:
            assert f"`gnoming {option}`" in text, option


# --- running the shell examples -------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    words: list[str]
    status: int
    where: str


def shell_commands(block: Block, where: str) -> list[Command]:
    """The ``gnoming`` command lines of a sh block; other lines must be make or pip."""
    found = []
    for offset, line in enumerate(block.code.splitlines(), start=1):
        words = shlex.split(line, comments=True)
        if not words or words[0] in ("make", "pip"):
            continue
        assert Path(words[0]).name == "gnoming", f"{where}+{offset}: not a gnoming command"
        status = STATUS.search(line)
        found.append(Command(words, int(status.group(1)) if status else 0, f"{where}+{offset}"))
    return found


def test_shell_blocks_hold_only_commands_the_tests_know() -> None:
    """So that no command in a sh block escapes being run (or checked as a make target)."""
    for page in PAGES:
        for block in blocks(page):
            if block.lang == "sh":
                shell_commands(block, f"{page_id(page)}:{block.line}")


def pages_with_commands() -> list[Path]:
    return [
        page
        for page in PAGES
        if any(
            block.lang == "sh" and re.search(r"^\S*gnoming ", block.code, re.M)
            for block in blocks(page)
        )
    ]


def run(command: Command, folder: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "gnoming_rules", *command.words[1:]],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr, f"{command.where}: {done.stderr}"
    assert done.returncode == command.status, (
        f"{command.where}: {shlex.join(command.words)} exited {done.returncode}, "
        f"the page says {command.status}\n{done.stdout}{done.stderr}"
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize("page", pages_with_commands(), ids=page_id)
def test_shell_examples_run_and_print_what_the_page_shows(page: Path, tmp_path: Path) -> None:
    for name in COPIED:
        shutil.copytree(ROOT / name, tmp_path / name)
    printed, previous, ran = "", "", 0
    for block in blocks(page):
        where = f"{page_id(page)}:{block.line}"
        saved = SAVE_AS.search(block.after)
        if saved is not None:
            assert block.lang == "yaml", f"{where}: only YAML blocks are saved"
            file = tmp_path / saved.group(1)
            file.write_text(block.code + "\n", encoding="utf-8")
            schema = SCHEMA_COMMENT.match(block.code.splitlines()[0])
            if schema is not None:
                assert (file.parent / schema.group(1)).is_file(), f"{where}: no such schema"
        if block.lang == "sh":
            commands = shell_commands(block, where)
            printed = "".join(run(command, tmp_path) for command in commands)
            ran += len(commands)
        elif block.after == "This prints:" and previous == "sh":
            assert printed, f"{where}: the sh block before it runs no gnoming command"
            assert printed.rstrip("\n") == block.code, f"{where}: the output differs"
        if block.lang != "text":
            previous = block.lang
    assert ran


def test_every_command_section_has_an_example_that_runs_it() -> None:
    lines = CLI_PAGE.read_text(encoding="utf-8").splitlines()
    examples: dict[str, list[list[str]]] = {}
    for block in blocks(CLI_PAGE):
        headings = [line[3:].strip() for line in lines[: block.line] if line.startswith("## ")]
        if block.lang == "sh" and headings:
            commands = shell_commands(block, f"docs/cli.md:{block.line}")
            examples.setdefault(headings[-1], []).extend(c.words for c in commands)
    for command in COMMANDS:
        words = command.split()
        runs = examples.get(command, [])
        assert any(ran[: len(words)] == words for ran in runs), f"{command}: no example runs it"
