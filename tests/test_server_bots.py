"""External bots at a server's tables: the operator registers them (``gnoming serve --bot
LABEL=COMMAND``), a client names a label and never a command, each runs with a time per
move and is killed when its game ends or the server stops, and one that fails forfeits its
seat to the table's default bot without stopping the game or the server."""

from __future__ import annotations

import logging
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from server_kit import Live, live_server, storage_url

from gnoming_rules.formats.record import Record, parse_record
from gnoming_rules.referee.validate import validate_record
from gnoming_rules.server.app import Limits

ROOT = Path(__file__).resolve().parent.parent
SHORT = {"extends": "standard", "name": "short", "rounds": 1}
FAST = Limits(rate=10_000, burst=10_000, bot_move_seconds=2.0, bot_startup_seconds=10.0)


def running(marker: str) -> list[int]:
    """The processes whose command line holds ``marker`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                line = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in line:
                found.append(int(entry.name))
    return found


def until_over(live: Live, table: str, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while not (summary := live.summary(table))["over"]:
        assert time.monotonic() < deadline, summary
        time.sleep(0.05)
    return summary


def gone(marker: str, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while running(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def bot_script(tmp_path: Path) -> Path:
    """A copy of examples/bots/random_bot.py of its own name, to find its processes."""
    script = tmp_path / f"random_bot_{tmp_path.name}.py"
    shutil.copy(ROOT / "examples" / "bots" / "random_bot.py", script)
    return script


pytestmark = pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc")


def test_a_registered_external_bot_plays_a_table_to_its_end(
    tmp_path: Path, bot_script: Path
) -> None:
    bots = {"rb": [sys.executable, str(bot_script)]}
    with live_server(storage_url("sqlite", tmp_path), FAST, bots) as live:
        assert live.http.get("/bots").json() == {"bots": ["random", "greedy", "rb"]}
        created = live.create(
            ruleset=SHORT, seats=[{"bot": "rb"}, {"bot": "greedy"}, {"name": "Rb", "bot": "rb"}]
        )
        summary = until_over(live, created["table"])
        assert [seat["bot"] for seat in summary["seats"]] == ["rb", "greedy", "rb"]
        assert summary["forfeits"] == []
        record = parse_record(live.http.get(f"/tables/{created['table']}/record").content)
        assert isinstance(record, Record)
        verdict = validate_record(record)
        assert verdict.valid and verdict.complete and list(verdict.totals) == summary["totals"]
        assert gone(bot_script.name)  # killed at the game's end

        # at a table with a person: the bot moves between the person's moves
        people = live.create(ruleset=SHORT, seats=[{"name": "Ana"}, {"bot": "rb"}, {"bot": "rb"}])
        token = live.seat(people["table"], 0)
        with live.socket(people["table"], token) as ana:
            for seq in range(1, 4):
                view = ana.latest_view(0.2)
                while not view["legal"]:
                    view = ana.until("view")
                ana.send({"type": "move", "seq": seq, "move": view["legal"][0]})
                assert ana.until("ack")["seq"] == seq
        assert live.summary(people["table"])["steps"] > 3
    assert gone(bot_script.name)  # and at the server's end, the game unfinished


def test_a_failing_external_bot_forfeits_its_seat_and_the_game_goes_on(tmp_path: Path) -> None:
    bots = {
        "crash": [sys.executable, "-c", "raise SystemExit(3)"],
        "sleepy": [sys.executable, "-c", "import time; time.sleep(600)  # sleepy-bot"],
    }
    limits = Limits(rate=10_000, burst=10_000, bot_move_seconds=0.2, bot_startup_seconds=0.3)
    with live_server(storage_url("sqlite", tmp_path), limits, bots) as live:
        created = live.create(
            ruleset=SHORT, seats=[{"bot": "crash"}, {"bot": "greedy"}, {"bot": "sleepy"}]
        )
        summary = until_over(live, created["table"])
        forfeits = {forfeit["bot"]: forfeit for forfeit in summary["forfeits"]}
        assert forfeits["crash"]["seat"] == 0 and forfeits["crash"]["code"] == "bot-crashed"
        assert forfeits["sleepy"]["seat"] == 2 and forfeits["sleepy"]["code"] == "bot-timeout"
        record = parse_record(live.http.get(f"/tables/{created['table']}/record").content)
        verdict = validate_record(record)
        assert verdict.valid and verdict.complete
        assert gone("sleepy-bot")
        assert live.http.get("/rulesets").status_code == 200  # the server goes on


def test_a_client_names_registered_bots_only_never_a_command(
    tmp_path: Path, bot_script: Path
) -> None:
    pwned = tmp_path / "pwned"
    bots = {"rb": [sys.executable, str(bot_script)]}
    commands = [
        "nope",
        "search",  # a built-in bot, but not one a server seats
        f"{sys.executable} {bot_script}",
        f"rb={sys.executable} {bot_script}",
        f"{sys.executable} -c \"open('{pwned}', 'w')\"",
        str(bot_script),
    ]
    with live_server(storage_url("sqlite", tmp_path), FAST, bots) as live:
        for name in commands:
            for seats in ([{"bot": name}, {"bot": "greedy"}, {"bot": "greedy"}],
                          [{"name": "Ana"}, {"bot": "greedy"}, {"bot": name}]):  # fmt: skip
                response = live.http.post("/tables", json={"ruleset": SHORT, "seats": seats})
                assert response.status_code == 400, response.text
                error = response.json()["error"]
                assert error["code"] == "bad-request"
                assert "'random', 'greedy', 'rb'" in error["message"], error
            response = live.http.post("/tables", json={"seats": [{}] * 3, "default_bot": name})
            assert response.status_code == 400 and response.json()["error"]["code"] == "bad-request"
        time.sleep(0.5)
        assert not pwned.exists() and not running(bot_script.name)
    (tmp_path / "none").mkdir()
    with live_server(storage_url("sqlite", tmp_path / "none"), FAST) as live:  # none registered
        response = live.http.post("/tables", json={"seats": [{"bot": "rb"}] * 3})
        assert response.status_code == 400
        assert "one of 'random', 'greedy'" in response.json()["error"]["message"]
        assert live.http.get("/bots").json() == {"bots": ["random", "greedy"]}


def test_a_restarted_server_without_the_label_gives_the_seat_to_the_default_bot(
    tmp_path: Path, bot_script: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = storage_url("sqlite", tmp_path)
    bots = {"rb": [sys.executable, str(bot_script)]}
    with live_server(url, FAST, bots) as live:
        table = live.create(ruleset=SHORT, seats=[{"name": "Ana"}, {"bot": "rb"}, {"bot": "rb"}])
        token = live.seat(table["table"], 0)
    with caplog.at_level(logging.WARNING, "gnoming.server"), live_server(url, FAST) as live:
        assert "not registered here" in caplog.text
        with live.socket(table["table"], token) as ana:
            for seq in range(1, 4):
                view = ana.latest_view(0.2)
                while not view["legal"]:
                    view = ana.until("view")
                ana.send({"type": "move", "seq": seq, "move": view["legal"][0]})
                assert ana.until("ack")["seq"] == seq
        assert [seat["bot"] for seat in live.summary(table["table"])["seats"]][1:] == ["rb", "rb"]
    assert not running(bot_script.name)
