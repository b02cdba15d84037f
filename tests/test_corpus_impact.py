"""What a rule change does: paired games (the same game under the same rules is the same
game; a change shows up in its statistics), the paired bootstrap, and a corpus replayed
under other rules (which records change, and why)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gnoming_rules as gr
from gnoming_rules.corpus.events import BONUS
from gnoming_rules.corpus.impact import (
    METRICS,
    compare,
    paired_bootstrap,
    play_paired,
    play_pairs,
    replay_corpus,
)
from gnoming_rules.formats import read_record
from gnoming_rules.formats.record import write_record
from gnoming_rules.play.bots import play_game

pytest.importorskip("numpy", reason="the stats extra is not installed")


def test_the_same_rules_play_the_same_games_and_differ_by_nothing() -> None:
    pairs = play_pairs("standard", "standard", games=6, players=[3, 5], jobs=1)
    assert [first.players for first, _ in pairs] == [3, 5, 3, 5, 3, 5]
    for first, second in pairs:
        assert first.rounds == second.rounds and first.winners == second.winners
    differences = compare(pairs)
    assert [d.name for d in differences] == list(METRICS)
    for difference in differences:
        assert difference.difference == difference.low == difference.high == 0
        assert not difference.significant


def test_pairs_share_the_deals_when_the_decks_are_the_same() -> None:
    standard, no_bounce = gr.load_ruleset("standard"), gr.load_ruleset("no-bounce")
    for seed in range(3):
        first = play_paired(standard, 4, seed, ("greedy",))
        second = play_paired(no_bounce, 4, seed, ("greedy",))
        assert first.first_player == second.first_player
        # the same deal: the same hazards set aside at setup, round by round
        setup = [events.hazards_at_setup for events in first.rounds]
        assert setup == [events.hazards_at_setup for events in second.rounds]
    other_seed = play_paired(standard, 4, 99, ("greedy",))
    assert other_seed.rounds != play_paired(standard, 4, 0, ("greedy",)).rounds


def test_turning_bouncing_off_shows_as_fewer_bounces_with_an_interval() -> None:
    pairs = play_pairs("standard", "no-bounce", games=16, players=[4], bots=["greedy"], jobs=1)
    found = {difference.name: difference for difference in compare(pairs)}
    bounces = found["bounces"]
    assert bounces.b == 0 < bounces.a
    assert bounces.difference == -bounces.a and bounces.significant
    assert bounces.low <= bounces.difference <= bounces.high < 0


def test_the_paired_bootstrap_brackets_the_mean_difference() -> None:
    assert paired_bootstrap([0.0] * 10, [1.0] * 10) == (1.0, 1.0, 1.0)
    a = [float(value % 7) for value in range(200)]
    b = [value + (1.0 if index % 2 else -0.5) for index, value in enumerate(a)]
    mean, low, high = paired_bootstrap(a, b)
    assert mean == pytest.approx(0.25)
    assert low < mean < high and high - low < 0.5
    assert paired_bootstrap(a, b) == paired_bootstrap(a, b)  # seeded: the same interval
    assert paired_bootstrap([], []) == (0.0, 0.0, 0.0)


def test_unseatable_player_counts_are_refused() -> None:
    with pytest.raises(gr.GnomingError) as refused:
        play_pairs("standard", "standard", games=1, players=[8])
    assert refused.value.code == "bad-setup"


def _corpus(tmp_path: Path, count: int, rounds: int | None = None) -> list[str]:
    rules = gr.load_ruleset("standard")
    paths = []
    for seed in range(count):
        record, _ = play_game(rules, 3 + seed % 3, seed=seed, rounds=rounds)
        path = tmp_path / f"game-{seed:02d}.json"
        write_record(record, path)
        paths.append(str(path))
    return paths


def test_a_corpus_under_no_bounce_changes_exactly_the_records_that_bounce(
    tmp_path: Path,
) -> None:
    files = _corpus(tmp_path, 12, rounds=1)  # one round each: not every record bounces
    replayed = replay_corpus(files, "standard", "no-bounce", jobs=1)
    bouncing = [
        path
        for path in files
        if any(m["action"] == "bounce" for r in read_record(path).rounds for m in r.moves)
    ]
    assert 0 < len(bouncing) < len(files)  # both kinds, so both halves are checked
    assert [change.path for change in replayed.changes] == bouncing
    for change in replayed.changes:
        assert change.kind == "verdict"
        assert change.why.startswith("A: valid; B: cannot-bounce (rule 5.3) at round ")
    assert len(replayed.pairs) == len(files) - len(bouncing)


def test_a_scoring_change_changes_results_and_says_which_round_and_seat(
    tmp_path: Path,
) -> None:
    files = _corpus(tmp_path, 8)
    bigger = tmp_path / "bigger-bonus.yaml"
    bigger.write_text("name: bigger-bonus\nextends: standard\ngoing_out:\n  bonus: -10\n")
    replayed = replay_corpus(files, "standard", str(bigger), jobs=1)
    assert replayed.records == 8 and replayed.not_under_a == replayed.unreadable == 0
    results = [change for change in replayed.changes if change.kind == "result"]
    assert results
    with_bonus = [
        first.path for first, _ in replayed.pairs if any(r.going_out == BONUS for r in first.rounds)
    ]
    assert [change.path for change in results] == with_bonus
    for change in results:
        found = re.match(
            r"round (\d+): seat (\d+) scores (-?\d+) under A, (-?\d+) under B", change.why
        )
        assert found is not None, change.why
        assert int(found[4]) == int(found[3]) - 5  # the bonus went from -5 to -10
    unchanged = {pair[0].path for pair in replayed.pairs} - {c.path for c in replayed.changes}
    for first, second in replayed.pairs:
        if first.path in unchanged:
            assert [r.scores for r in first.rounds] == [r.scores for r in second.rounds]


def test_records_not_played_under_a_are_left_out(tmp_path: Path) -> None:
    files = _corpus(tmp_path, 2)
    (tmp_path / "junk.json").write_text("{}", encoding="utf-8")
    replayed = replay_corpus([*files, str(tmp_path / "junk.json")], "quick", "standard", jobs=1)
    assert replayed.not_under_a == 2 and replayed.unreadable == 1 and not replayed.changes
