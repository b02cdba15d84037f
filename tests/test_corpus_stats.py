"""Statistics over a corpus: the events of one replay, checked against the record's own
entries (counted here independently of the event log), and the numbers, rows and report
built from them."""

from __future__ import annotations

import base64
import csv
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import gnoming_rules as gr
from gnoming_rules.corpus.events import BONUS, PENALTY
from gnoming_rules.corpus.stats import (
    GameEvents,
    collect,
    game_events,
    rounds_path,
    summarize,
    write_rows,
)
from gnoming_rules.formats import read_record
from gnoming_rules.formats.record import Record, write_record
from gnoming_rules.play.bots import play_game

VARIANTS = ("standard", "end-on-empty-deck", "two-mulligans", "gentle-hazards", "quick")


def _entries_count(round_: Any) -> dict[str, Any]:
    """What a round's entries say happened, read from the record alone: draws, bounces,
    flips, reshuffles, the bounce chains of each turn, and the card held at each discard
    (the card claims of draw, place and bounce name the card then held)."""
    counts: dict[str, Any] = {"draw": 0, "bounce": 0, "flip": 0, "reshuffle": 0}
    chains: list[int] = []
    hazards = 0
    run = 0
    held: Any = None
    for move in round_.moves:
        action = move["action"]
        if action in counts:
            counts[action] += 1
        if action in ("draw", "place", "bounce"):
            held = move.get("card")
        if action == "place":
            run = 0
        elif action == "bounce":
            run += 1
        elif action == "discard":
            if run:
                chains.append(run)
            run = 0
            hazards += held == "H"
    counts["chains"] = chains
    counts["hazards"] = hazards
    return counts


SHORT_DECK = {
    "extends": "end-on-empty-deck",
    "name": "short-deck",
    "deck": {"numbers": {face: (3 if face > 0 else None) for face in range(-5, 13) if face}},
    "players": {"min": 3, "max": 3},
}
"""36 number cards, 3 hazards and 3 mulligans: at 3 players, 11 cards in the draw pile."""


def _games(
    tmp_path: Path, ruleset: str | dict[str, Any], count: int, bot: str = "greedy"
) -> list[Path]:
    rules = gr.load_ruleset(ruleset)
    paths = []
    for seed in range(count):
        players = rules.players.min + seed % (rules.players.max - rules.players.min + 1)
        record, _ = play_game(rules, min(players, 5), seed=seed, bot=bot)  # type: ignore[arg-type]
        path = tmp_path / f"{rules.name}-{seed:03d}.json"
        write_record(record, path)
        paths.append(path)
    return paths


@pytest.mark.parametrize("ruleset", VARIANTS)
def test_the_events_are_what_the_record_s_entries_say(tmp_path: Path, ruleset: str) -> None:
    for bot in ("greedy", "random"):
        for path in _games(tmp_path, ruleset, 4, bot):
            game = game_events(str(path))
            record = read_record(path)
            assert isinstance(record, Record)  # the bots' games hold their deals
            assert game.valid and game.complete and game.ruleset == ruleset
            assert len(game.rounds) == len(record.rounds)
            for events, round_ in zip(game.rounds, record.rounds, strict=True):
                said = _entries_count(round_)
                assert events.turns == said["draw"]
                assert events.bounces == said["bounce"] == sum(events.chains)
                assert events.chains == said["chains"]
                assert events.flips == said["flip"]
                assert events.reshuffles == said["reshuffle"]
                assert events.hazards == said["hazards"]
                assert events.hazards_at_setup == _setup_hazards(record, round_)
                assert events.moves == len(round_.moves) - said["reshuffle"]
                assert events.scores == tuple(round_.scores or ())


def _setup_hazards(record: Record, round_: Any) -> int:
    """Hazards among the discard starters (RULES 3.3), read from the deal."""
    position = len(record.players) * 9
    skipped = 0
    starters = 0
    while starters < 2:
        if round_.deal[position] == "H":
            skipped += 1
        else:
            starters += 1
        position += 1
    return skipped


def test_going_out_gives_the_bonus_exactly_when_the_score_is_the_lowest(tmp_path: Path) -> None:
    seen = set()
    for path in _games(tmp_path, "standard", 12):
        for events in game_events(str(path)).rounds:
            out = events.went_out
            assert out is not None and not events.ended_early
            others = min(score for seat, score in enumerate(events.scores) if seat != out)
            # 8.6: -5 to a lowest score makes it strictly lower; +5 to a higher one, higher.
            expected = BONUS if events.scores[out] < others else PENALTY
            assert events.going_out == expected
            seen.add(events.going_out)
    assert seen == {BONUS, PENALTY}


def test_a_round_that_ends_on_an_empty_deck_ended_early(tmp_path: Path) -> None:
    early = 0
    for path in _games(tmp_path, SHORT_DECK, 6):
        record = read_record(path)
        assert isinstance(record, Record)  # the bots' games hold their deals
        for events, round_ in zip(game_events(str(path)).rounds, record.rounds, strict=True):
            deck_draws = sum(
                1 for m in round_.moves if m["action"] == "draw" and m["source"] == "deck"
            )
            pile = len(round_.deal) - len(record.players) * 9 - 2 - events.hazards_at_setup
            if events.ended_early:
                early += 1
                assert deck_draws == pile  # 8.7 end_round: the draw pile ran out
            else:
                assert events.went_out is not None
    assert early > 0


def _corpus(tmp_path: Path) -> list[Path]:
    paths = _games(tmp_path, "standard", 10)
    broken = read_record(paths[3]).model_dump(mode="json", exclude_none=True)
    broken["rounds"][0]["scores"][0] += 1
    Path(paths[3]).write_text(json.dumps(broken), encoding="utf-8")
    (tmp_path / "standard-900.json").write_text('{"format": "gnoming-record/1"}')
    return [*paths, tmp_path / "standard-900.json"]


def test_the_summary_counts_verdicts_and_shares_every_win(tmp_path: Path) -> None:
    files = _corpus(tmp_path)
    games = collect(files, jobs=1)
    assert [game.path for game in games] == [str(path) for path in files]
    summary = summarize(games)
    assert summary["games"] == 11 and summary["valid"] == 9 == summary["complete"]
    assert summary["invalid_by_code"] == {"bad-record": 1, "score-mismatch": 1}
    wins = sum(row["wins"] for row in summary["win_rate_by_seat"])
    assert wins == pytest.approx(9, abs=1e-3)  # each game hands out exactly one win in shares
    by_position = summary["win_rate_by_position"]
    assert sum(row["wins"] for row in by_position) == pytest.approx(9, abs=1e-3)
    for row in summary["win_rate_by_seat"]:
        assert row["win_rate"] == pytest.approx(row["wins"] / row["games"], abs=1e-4)
    assert summary["rounds"] == 27 and summary["events"]["went_out"] == 27
    turns = [sum(events.turns for events in game.rounds) for game in games if game.valid]
    assert summary["turns_per_game"]["max"] == max(turns)
    assert summary["events"]["bonus"] + summary["events"]["penalty"] == 27
    assert json.loads(json.dumps(summary)) == summary


def test_the_rows_are_written_as_csv_and_parquet(tmp_path: Path) -> None:
    games = collect(_corpus(tmp_path), jobs=1)
    out = tmp_path / "rows.csv"
    assert write_rows(out, games) == (out, tmp_path / "rows.rounds.csv")
    with out.open(encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == 11 and rows[3]["code"] == "score-mismatch"
    assert json.loads(rows[0]["totals"]) == list(games[0].totals)
    with rounds_path(out).open(encoding="utf-8") as stream:
        round_rows = list(csv.DictReader(stream))
    assert len(round_rows) == 27
    assert json.loads(round_rows[0]["scores"]) == list(games[0].rounds[0].scores)
    parquet = pytest.importorskip("pyarrow.parquet", reason="the stats extra is not installed")
    write_rows(tmp_path / "rows.parquet", games)
    table = parquet.read_table(tmp_path / "rows.parquet").to_pylist()
    assert [row["path"] for row in table] == [game.path for game in games]
    assert table[0]["totals"] == list(games[0].totals)
    rounds = parquet.read_table(tmp_path / "rows.rounds.parquet").to_pylist()
    assert sum(row["bounces"] for row in rounds) == sum(
        events.bounces for game in games for events in game.rounds if game.valid
    )


def test_rows_go_only_to_csv_or_parquet(tmp_path: Path) -> None:
    with pytest.raises(gr.GnomingError) as refused:
        write_rows(tmp_path / "rows.xlsx", [])
    assert refused.value.code == "bad-output"


def test_the_html_report_is_one_self_contained_page(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the stats extra is not installed")
    from gnoming_rules.corpus.stats_page import stats_page

    games = collect(_corpus(tmp_path), jobs=1)
    games.append(GameEvents(path="<b>odd</b>.json", status=2, code="bad-record"))
    text = stats_page("Statistics of <corpus>", summarize(games), games)
    assert "<b>odd" not in text and "&lt;corpus&gt;" in text
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert len(images) >= 5
    assert all(base64.b64decode(image).startswith(b"\x89PNG\r\n\x1a\n") for image in images)
    assert not re.search(r'(src|href)="(?!data:)', text)  # nothing to fetch


def test_the_optional_frameworks_stay_out_until_used() -> None:
    """``import gnoming_rules`` and the corpus modules import no optional framework: each
    is imported when a command needs it (the extras ``dask`` and ``stats``)."""
    code = (
        "import sys, gnoming_rules, gnoming_rules.corpus.stats, gnoming_rules.corpus.impact, "
        "gnoming_rules.corpus.distributed, gnoming_rules.corpus.stats_page\n"
        "heavy = ('dask', 'distributed', 'matplotlib', 'numpy', 'pyarrow', 'pandas')\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
