"""The bot protocol (docs/bot-protocol.md): external programs play seats over JSON lines.

The example bots (Python and Node.js) play whole games that validate; a bot that crashes,
stays silent, writes a line that is no move entry, writes too long a line or picks an
illegal move loses its game by forfeit, within its time, its record valid and incomplete,
and every process it started is killed; each message the referee sends fits its schema.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import jsonschema
import pytest

from gnoming_rules.core.errors import BotFailure, UsageError
from gnoming_rules.corpus.tournament import (
    BotSpec,
    Tournament,
    finished,
    game_paths,
    open_folder,
    parse_bot,
    play_game,
    schedule,
)
from gnoming_rules.formats.record import read_record
from gnoming_rules.formats.rulesets import load_ruleset
from gnoming_rules.play.external import TimeControl, end_message
from gnoming_rules.referee.validate import validate_record

ROOT = Path(__file__).resolve().parents[1]
TINY = str(ROOT / "examples" / "tiny.yaml")
PYTHON_BOT = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
NODE_BOT = f"node {ROOT / 'examples' / 'bots' / 'random_bot.js'}"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

BAD_BOT = """\
import json, os, subprocess, sys, time
how = sys.argv[1]
for line in sys.stdin:
    message = json.loads(line)
    if how == "log":  # records every message, then plays its first legal move
        with open(sys.argv[2], "a") as log:
            log.write(line)
    if message["type"] != "decide":
        continue
    if how == "crash":
        sys.exit(3)
    if how == "silent":
        child = subprocess.Popen(["sleep", "60"])
        open(sys.argv[2], "w").write(str(child.pid))
        time.sleep(60)
    if how == "garbage":
        print("this is no move", flush=True)
    if how == "object":
        print(json.dumps({"action": "fly", "player": 0}), flush=True)
    if how == "long":
        sys.stdout.write("x" * 200000)
        sys.stdout.flush()
        time.sleep(60)
    if how == "illegal":
        print(json.dumps({"action": "knock", "player": message["observation"]["seat"]}), flush=True)
    if how == "log":
        print(json.dumps(message["legal"][0]), flush=True)
"""


def tournament(tmp_path: Path, *bots: str, move: float = 2.0, startup: float = 5.0) -> Tournament:
    return Tournament(
        bots=tuple(parse_bot(bot) for bot in bots),
        ruleset=TINY,
        players=2,
        seed=1,
        format="round-robin",
        time_control=TimeControl(move=move, startup=startup),
        folder=tmp_path / "tour",
    )


def bad_bot(tmp_path: Path, how: str, *extra: str) -> str:
    script = tmp_path / "bad_bot.py"
    script.write_text(BAD_BOT, encoding="utf-8")
    return f"bad={sys.executable} {script} {how} {' '.join(extra)}".strip()


def play_first(tour: Tournament) -> tuple[object, Path]:
    rules = load_ruleset(tour.ruleset)
    open_folder(tour, rules)
    game = schedule(len(tour.bots), tour.players, 1)[0][0]
    result = play_game(tour, rules, game)
    return result, game_paths(tour.folder, game.index)[0]


@pytest.mark.parametrize("bot", [PYTHON_BOT, pytest.param(NODE_BOT, marks=needs_node)])
def test_an_example_bot_plays_whole_games_that_validate(tmp_path: Path, bot: str) -> None:
    tour = tournament(tmp_path, "greedy", f"ext={bot}")
    rules = load_ruleset(TINY)
    open_folder(tour, rules)
    for game in schedule(2, 2, 1)[0]:
        result = play_game(tour, rules, game)
        assert result.forfeit is None and result.totals is not None
        verdict = validate_record(read_record(game_paths(tour.folder, game.index)[0]))
        assert verdict.valid and verdict.complete
        assert verdict.totals == result.totals


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("crash", "bot-crashed"),
        ("silent", "bot-timeout"),
        ("garbage", "bot-bad-reply"),
        ("object", "bot-bad-reply"),
        ("long", "bot-bad-reply"),
        ("illegal", "bot-illegal-move"),
    ],
)
def test_a_bot_that_breaks_the_protocol_forfeits_its_game(
    tmp_path: Path, how: str, code: str
) -> None:
    pid_file = tmp_path / "child.pid"
    tour = tournament(
        tmp_path, bad_bot(tmp_path, how, str(pid_file)), "greedy", move=0.5, startup=1.0
    )
    started = time.monotonic()
    result, record_path = play_first(tour)
    assert time.monotonic() - started < 5  # its time and the startup's, never a hang
    assert result.forfeit is not None  # type: ignore[attr-defined]
    assert result.forfeit["code"] == code  # type: ignore[attr-defined]
    assert result.forfeit["bot"] == "bad"  # type: ignore[attr-defined]
    assert result.totals is None  # type: ignore[attr-defined]
    verdict = validate_record(read_record(record_path))
    assert verdict.valid and not verdict.complete
    if how == "silent":  # the bot's own child was killed with its process group
        child = int(pid_file.read_text())
        for _ in range(50):
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the bot's child process outlived the game")


def test_a_program_that_cannot_start_forfeits(tmp_path: Path) -> None:
    tour = tournament(tmp_path, "bad=/nonexistent/bot --go", "greedy")
    result, _ = play_first(tour)
    assert result.forfeit["code"] == "bot-crashed"  # type: ignore[attr-defined]


def test_a_finished_game_is_read_back_not_played_again(tmp_path: Path) -> None:
    tour = tournament(tmp_path, "greedy", "random")
    result, _ = play_first(tour)
    game = schedule(2, 2, 1)[0][0]
    again = finished(tour, load_ruleset(TINY), game)
    assert again is not None and again.resumed
    assert again.totals == result.totals  # type: ignore[attr-defined]
    game_paths(tour.folder, 0)[1].write_text("{", encoding="utf-8")  # a broken result
    assert finished(tour, load_ruleset(TINY), game) is None


def test_every_message_fits_its_schema(tmp_path: Path) -> None:
    log = tmp_path / "messages.jsonl"
    tour = tournament(tmp_path, bad_bot(tmp_path, "log", str(log)), "greedy")
    result, _ = play_first(tour)
    assert result.forfeit is None  # type: ignore[attr-defined]
    schemas = {
        kind: jsonschema.Draft202012Validator(
            json.loads((ROOT / "schemas" / f"bot-{kind}.schema.json").read_text())
        )
        for kind in ("hello", "decide", "move", "end")
    }
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    messages += [end_message([3, 5], [0], None), end_message(None, [], 1)]
    assert messages[0]["type"] == "hello" and messages[0]["protocol"] == "gnoming-bot/1"
    assert messages[0]["ruleset"]["sha256"] == load_ruleset(TINY).sha256
    for message in messages:
        schemas[message["type"]].validate(message)
        if message["type"] == "decide":
            for entry in message["legal"]:
                schemas["move"].validate(entry)


@pytest.mark.parametrize("text", ["nosuchbot", "", "a b='"])
def test_a_bot_that_is_no_name_nor_command_is_refused(text: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_bot(text)
    assert refused.value.code == "bad-bot"


def test_bot_failure_carries_the_seat() -> None:
    failure = BotFailure("bot-timeout", "seat 1: no answer in its time", 1)
    assert failure.seat == 1 and str(failure).startswith("bot-timeout: ")


def test_a_built_in_bot_with_a_budget_is_a_tournament_bot() -> None:
    assert parse_bot("ismcts:50") == BotSpec("ismcts:50", builtin="ismcts:50")
    with pytest.raises(UsageError) as refused:
        parse_bot("greedy:50")
    assert refused.value.code == "bad-bot" and "search:BUDGET" in str(refused.value)
