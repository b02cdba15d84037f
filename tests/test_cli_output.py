"""The command line's common layer: help for every command, the progress bar, colour,
escaping of echoed input. (``--json`` on every command: tests/test_cli_json.py.)"""

from __future__ import annotations

import io
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from kit import ROOT, gnoming

from gnoming_rules.cli.app import COMMANDS, commands, main
from gnoming_rules.cli.output import Output, echo
from gnoming_rules.cli.progress import Progress, duration_text

LEAVES = {words: leaf for command in commands() for words, leaf in command.leaves()}


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


# --- help ---------------------------------------------------------------------------------


def test_gnoming_alone_prints_the_help_and_exits_0() -> None:
    done = gnoming()
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: gnoming")
    for name in COMMANDS:  # a name longer than the help's column stands on a line alone
        assert f"\n    {name} " in done.stdout or f"\n    {name}\n" in done.stdout, name


def test_a_group_without_its_action_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruleset"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: gnoming ruleset")
    for action in ("show", "check", "schema", "diff"):
        assert f"\n    {action} " in shown


@pytest.mark.parametrize("words", sorted(LEAVES))
def test_every_command_has_a_description_and_an_example_in_its_help(
    words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    leaf = LEAVES[words]
    assert leaf.summary and leaf.description and leaf.examples, words
    assert main([*words.split()[1:], "--help"]) == 0
    shown = capsys.readouterr().out
    assert leaf.description.splitlines()[0] in shown
    assert "example" in shown and "--json" in shown
    for example in leaf.examples:
        assert f"  {example}\n" in shown
        assert shlex.split(example, comments=True)[: len(words.split())] == words.split()


@pytest.mark.parametrize("words", sorted(LEAVES))
def test_the_examples_in_the_help_run(words: str, tmp_path: Path) -> None:
    """In a copy of the examples and rulesets, each example exits with the status its
    comment gives (0 without one)."""
    for name in ("examples", "rulesets", "schemas"):
        shutil.copytree(ROOT / name, tmp_path / name)
    for example in LEAVES[words].examples:
        status = int(example.split("exit status ")[1]) if "exit status" in example else 0
        done = gnoming(*shlex.split(example, comments=True)[1:], cwd=tmp_path)
        assert "Traceback" not in done.stderr
        assert done.returncode == status, f"{example}: {done.stderr}"


# --- progress -----------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_progress_bar_shows_the_rate_and_the_time_left_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    terminal, clock = Terminal(), Clock()
    bar = Progress(200, terminal, clock=clock)
    clock.now += 10.0
    bar.update(50)  # 5 per second, 150 left: 30 s
    drawn = terminal.getvalue()
    assert drawn.startswith("\r[\033[32m" + "#" * 7 + "\033[0m" + "." * 23 + "] 50/200 files")
    assert drawn.endswith("  5.0/s  ETA 0:30")
    bar.update(51)  # no time has passed: not redrawn
    assert terminal.getvalue() == drawn
    clock.now += 30.0
    bar.update(200)
    bar.clear()
    assert "] 200/200 files  5.0/s  ETA 0:00" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\033[K")


def test_the_progress_bar_respects_no_color_and_stays_quiet_when_piped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm")
    terminal = Terminal()
    Progress(4, terminal).update(4)
    assert "\033[3" not in terminal.getvalue() and "[" + "#" * 30 + "] 4/4" in terminal.getvalue()
    pipe = io.StringIO()
    quiet = Progress(200, pipe)
    quiet.update(100)
    quiet.clear()
    assert pipe.getvalue() == ""
    monkeypatch.setenv("TERM", "dumb")
    dumb = Terminal()
    Progress(4, dumb).update(4)
    assert dumb.getvalue() == ""


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "0:00"), (7.4, "0:07"), (125, "2:05"), (3725, "1:02:05")]
)
def test_durations_read_as_a_clock(seconds: float, text: str) -> None:
    assert duration_text(seconds) == text


# --- colour and escaping ------------------------------------------------------------------


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert Output(stdout=Terminal()).style("ok", "green") == "\033[32mok\033[0m"
    assert Output(stdout=io.StringIO()).style("ok", "green") == "ok"
    assert Output(json=True, stdout=Terminal()).style("ok", "green") == "ok"
    monkeypatch.setenv("NO_COLOR", "1")
    assert Output(stdout=Terminal()).style("ok", "green") == "ok"
    monkeypatch.setenv("NO_COLOR", "")  # empty: as if unset (no-color.org)
    assert Output(stdout=Terminal()).style("ok", "green") != "ok"


def test_echoed_input_stays_on_one_line() -> None:
    assert echo("plain name.json") == "plain name.json"
    assert echo("evil\n\x1b[31mname") == '"evil\\n\\u001b[31mname"'
    assert echo("a\u2028b") == '"a\\u2028b"'
    assert len(echo("x" * 500)) == 120


def test_a_player_name_with_a_terminal_escape_is_echoed_escaped(tmp_path: Path) -> None:
    done = gnoming(
        "play", "--players", "3", "--seed", "1", "--names", "Ana,B\x1b[2Jo,Cy",
        "--out", str(tmp_path / "g.json"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and '"B\\u001b[2Jo"' in done.stdout
    shown = gnoming("show", str(tmp_path / "g.json"))
    assert shown.returncode == 0 and "\x1b" not in shown.stdout


def test_validate_colours_the_status_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    files = [
        str(ROOT / "examples" / "tiny-game.json"),
        str(ROOT / "examples" / "illegal" / "cannot-bounce.json"),
    ]
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(["validate", "--jobs", "1", *files]) == 1
    shown = terminal.getvalue()
    assert "tiny-game.json: \033[32mvalid\033[0m, complete" in shown
    assert "cannot-bounce.json: \033[31mINVALID\033[0m at round 0" in shown
    monkeypatch.setenv("NO_COLOR", "1")
    plain = Terminal()
    monkeypatch.setattr(sys, "stdout", plain)
    assert main(["validate", "--jobs", "1", *files]) == 1
    assert "\033[" not in plain.getvalue() and "tiny-game.json: valid, complete" in plain.getvalue()
