"""What ``gnoming stats`` and the replay page report: unfinished games set apart, figures
split by ruleset when a folder mixes them, a title that names the folder, and rounds
counted from 0 wherever a page counts them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from kit import ROOT

import gnoming_rules as gr
from gnoming_rules.corpus.stats import collect, summarize
from gnoming_rules.formats import read_record
from gnoming_rules.formats.record import write_record
from gnoming_rules.pictures.replay import replay_html
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.validate import replay_file


def games(folder: Path, ruleset: str, seeds: range) -> list[Path]:
    rules = gr.load_ruleset(ruleset)
    paths = []
    for seed in seeds:
        record, _ = play_game(rules, 3, seed=seed, ruleset_ref=ruleset)
        path = folder / f"{ruleset}-{seed}.json"
        write_record(record, path)
        paths.append(path)
    return paths


def cut_short(path: Path) -> None:
    """Keep half of round 0's moves: a valid record that stops mid-game."""
    data = read_record(path).model_dump(mode="json", exclude_none=True)
    first = data["rounds"][0]
    first["moves"] = first["moves"][: len(first["moves"]) // 2]
    first.pop("scores", None)
    data["rounds"] = [first]
    data.pop("result", None)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_an_unfinished_record_is_counted_apart_not_as_a_short_game(tmp_path: Path) -> None:
    paths = games(tmp_path, "quick", range(4))
    cut_short(paths[0])
    summary = summarize(collect(paths, jobs=1))
    assert (summary["valid"], summary["complete"], summary["unfinished"]) == (4, 3, 1)
    turns = summary["turns_per_game"]
    assert turns["count"] == 3 and turns["min"] > 0
    assert "by_ruleset" not in summary  # one ruleset: nothing to split


def test_a_folder_that_mixes_rulesets_gets_each_rulesets_figures(tmp_path: Path) -> None:
    paths = [*games(tmp_path, "quick", range(2)), *games(tmp_path, "standard", range(3))]
    summary = summarize(collect(paths, jobs=1))
    parts = summary["by_ruleset"]
    assert set(parts) == {"quick", "standard"}
    assert (parts["quick"]["games"], parts["standard"]["games"]) == (2, 3)
    assert parts["quick"]["turns_per_game"]["count"] == 2
    assert "by_ruleset" not in parts["quick"]
    total = summary["events"]["turns"]
    assert total == parts["quick"]["events"]["turns"] + parts["standard"]["events"]["turns"]


def test_gnoming_stats_says_it_and_names_the_folder_for_dot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the stats extra is not installed")
    folder = tmp_path / "club-night"
    folder.mkdir()
    paths = [*games(folder, "quick", range(2)), *games(folder, "standard", range(2))]
    cut_short(paths[1])
    done = subprocess.run(
        [sys.executable, "-m", "gnoming_rules", "stats", ".", "--html", "report.html"],
        cwd=folder, capture_output=True, text=True, check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("4 records: 4 valid (3 complete, 1 unfinished, set apart")
    assert "ruleset quick:" in lines and "ruleset standard:" in lines
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "<title>Statistics of club-night</title>" in page
    assert "<h2>By ruleset</h2>" in page


def test_the_replay_score_table_counts_rounds_from_0(tmp_path: Path) -> None:
    (path,) = games(tmp_path, "standard", range(1))
    page = replay_html(replay_file(path))  # the score tables are in the page's data
    heads = set(re.findall(r"\\u003cth>R(\d+)\\u003c/th>", page))
    rounds = gr.load_ruleset("standard").rounds
    assert heads == {str(index) for index in range(rounds)}
    assert "Round 0" in page  # the move list counts the same way
