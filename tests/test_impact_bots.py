"""``gnoming impact --bots`` takes the bots ``gnoming tournament --bot`` takes: built-in
names, external programs over the bot protocol (a process a seat, a game), and
``LABEL=COMMAND``; an external bot that fails stops the comparison with its typed error."""

from __future__ import annotations

import json
import sys

import pytest
from kit import ROOT, gnoming

import gnoming_rules as gr
from gnoming_rules.core.errors import BotFailure
from gnoming_rules.corpus.impact import compare, play_paired, play_pairs
from gnoming_rules.play.bot_spec import BotSpec, parse_bot
from gnoming_rules.play.external import TimeControl

pytest.importorskip("numpy", reason="the stats extra is not installed")

TINY = "examples/tiny.yaml"
PYTHON_BOT = f"rb={sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
CRASHING = BotSpec("crash", command=(sys.executable, "-c", "raise SystemExit(3)"))


def test_an_external_bot_plays_paired_games_the_same_under_the_same_rules() -> None:
    pairs = play_pairs(TINY, TINY, games=2, players=[2], bots=["greedy", PYTHON_BOT], jobs=1)
    assert len(pairs) == 2
    for first, second in pairs:
        assert first.complete and second.complete
        # the same seed: the external bot is seeded by the hello, and plays the same game
        assert first.rounds == second.rounds and first.totals == second.totals
    assert all(d.difference == 0 for d in compare(pairs))


def test_a_failing_external_bot_stops_the_comparison_with_its_typed_error() -> None:
    rules = gr.load_ruleset(TINY)
    with pytest.raises(BotFailure) as failed:
        play_paired(rules, 2, 7, [parse_bot("greedy"), CRASHING], time_control=TimeControl(2, 5))
    assert failed.value.code == "bot-crashed"
    assert "seed 7" in failed.value.message and "'crash'" in failed.value.message
    with pytest.raises(gr.UsageError, match="bad-bot"):
        play_pairs(TINY, TINY, games=1, players=[2], bots=["no/such/program here"])


def test_gnoming_impact_bots_takes_external_commands() -> None:
    done = gnoming(
        "impact", TINY, TINY, "--games", "2", "--players", "2", "--jobs", "2", "--json",
        "--bots", f"greedy,{PYTHON_BOT}",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2
    crash = f"crash={sys.executable} -c 'raise SystemExit(3)'"
    done = gnoming("impact", TINY, TINY, "--games", "1", "--players", "2", "--bots", crash)
    assert done.returncode == 2
    assert "bot-crashed" in done.stderr and "'crash'" in done.stderr
    done = gnoming("impact", TINY, TINY, "--games", "1", "--players", "2", "--bots", "clever")
    assert done.returncode == 2 and "bad-bot" in done.stderr
