"""``gnoming tournament``: an external bot in another language against built-in bots,
every game a valid record, resuming, the SPRT's stop, forfeits, and clear refusals."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest
from kit import ROOT, gnoming

from gnoming_rules.referee.validate import validate_file

TINY = str(ROOT / "examples" / "tiny.yaml")
NODE_BOT = f"js=node {ROOT / 'examples' / 'bots' / 'random_bot.js'}"
SCHEMA = jsonschema.Draft202012Validator(
    json.loads((ROOT / "schemas" / "cli" / "tournament.schema.json").read_text())
)


def tournament(folder: Path, *args: str) -> dict[str, object]:
    done = gnoming(
        "tournament", "--ruleset", TINY, "--players", "2", "--out", str(folder), "--json", *args
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    SCHEMA.validate(document)
    return document  # type: ignore[no-any-return]


def games_in(folder: Path) -> list[Path]:
    return sorted(p for p in (folder / "games").glob("game-*.json") if ".result" not in p.name)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_node_bot_plays_a_tournament_against_built_in_bots(tmp_path: Path) -> None:
    folder = tmp_path / "tour"
    document = tournament(
        folder, "--bot", "greedy", "--bot", "random", "--bot", NODE_BOT, "--deals", "2"
    )
    assert document["games"] == 12 and document["played"] == 12 and document["forfeits"] == 0
    bots = {bot["label"]: bot for bot in document["bots"]}  # type: ignore[attr-defined]
    assert bots["js"]["kind"] == "external" and bots["js"]["games"] == 8
    records = games_in(folder)
    assert len(records) == 12
    for record in records:
        verdict = validate_file(record)
        assert verdict.valid and verdict.complete, record


def test_an_interrupted_tournament_goes_on_without_playing_a_game_twice(tmp_path: Path) -> None:
    folder = tmp_path / "tour"
    first = tournament(folder, "--bot", "greedy", "--bot", "random", "--deals", "2")
    assert first["played"] == 4
    (folder / "games" / "game-000003.result.json").unlink()  # stopped while writing game 3
    again = tournament(folder, "--bot", "greedy", "--bot", "random", "--deals", "3")
    assert (again["played"], again["resumed"], again["games"]) == (3, 3, 6)
    assert again["bots"] != first["bots"]


def test_sprt_stops_greedy_against_random_within_the_bound(tmp_path: Path) -> None:
    document = tournament(
        tmp_path / "match",
        "--bot", "greedy", "--bot", "random", "--sprt", "0", "100", "--deals", "20",
        "--jobs", "1",
    )  # fmt: skip
    test = document["sprt"]
    assert test["decision"] == "H1"  # type: ignore[index]
    assert test["deals"] < 20  # type: ignore[index]
    assert document["games"] == 2 * test["deals"]  # type: ignore[index]


def test_a_crashing_bot_forfeits_and_the_tournament_goes_on(tmp_path: Path) -> None:
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.stdin.readline()\nsys.exit(1)\n", encoding="utf-8")
    folder = tmp_path / "tour"
    document = tournament(
        folder, "--bot", "greedy", "--bot", f"crash={sys.executable} {crash}", "--deals", "2"
    )
    assert document["forfeits"] == 4
    bots = {bot["label"]: bot for bot in document["bots"]}  # type: ignore[attr-defined]
    assert bots["crash"]["forfeits"] == 4 and bots["crash"]["wins"] == 0
    for record in games_in(folder):
        assert validate_file(record).valid
    result = json.loads((folder / "games" / "game-000000.result.json").read_text())
    assert result["forfeit"]["code"] == "bot-crashed" and result["totals"] is None


def test_a_folder_of_another_tournament_is_refused_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "tour"
    tournament(folder, "--bot", "greedy", "--bot", "random", "--deals", "1")
    before = sorted(path.name for path in (folder / "games").iterdir())
    done = gnoming(
        "tournament", "--ruleset", TINY, "--players", "2", "--out", str(folder),
        "--bot", "greedy", "--bot", "search", "--deals", "1",
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("gnoming: bad-tournament: ")
    assert sorted(path.name for path in (folder / "games").iterdir()) == before
    (folder / "tournament.json").write_text("{", encoding="utf-8")
    done = gnoming(
        "tournament", "--ruleset", TINY, "--players", "2", "--out", str(folder),
        "--bot", "greedy", "--bot", "random", "--deals", "1",
    )  # fmt: skip
    assert done.returncode == 2 and "bad-tournament" in done.stderr


@pytest.mark.parametrize(
    ("bots", "error"),
    [
        (["greedy", "gredy"], "bad-bot"),
        (["greedy", "x=/no/such/program --flag"], "bad-bot"),
        (["greedy"], "usage: a tournament needs two --bot or more"),
        (["greedy", "greedy"], "usage: two bots have the same label"),
    ],
)
def test_bad_bots_are_refused_with_one_line(tmp_path: Path, bots: list[str], error: str) -> None:
    args = [word for bot in bots for word in ("--bot", bot)]
    done = gnoming(
        "tournament", "--ruleset", TINY, "--players", "2", "--out", str(tmp_path / "t"), *args
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"gnoming: {error}"), done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_games_played_over_two_processes_are_the_games_of_one(tmp_path: Path) -> None:
    args = ("--bot", "greedy", "--bot", "random", "--deals", "4")
    one = tournament(tmp_path / "one", *args, "--jobs", "1")
    two = tournament(tmp_path / "two", *args, "--jobs", "2")
    assert one["bots"] == two["bots"] and two["games"] == 8
    for record in games_in(tmp_path / "two"):
        twin = tmp_path / "one" / "games" / record.name
        assert record.read_text() == twin.read_text()
