"""The bundled rulesets of the Golf family (issue 19, rule 10): golf-6 and golf-9 play,
validate, redact and replay; a six-card Golf record written at the table validates, and a
copy with one changed claim is refused at that move."""

from __future__ import annotations

import warnings

import pytest
from kit import EXAMPLES

import gnoming_rules as gr
from gnoming_rules.formats.record import dump_record, parse_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee import validate_record
from gnoming_rules.referee.redact import redact

FAMILY = ["golf-6", "golf-9"]
GOLF = EXAMPLES / "golf"
"""Records written by hand at a table (public information: no deal)."""


def test_golf_6_is_classic_six_card_golf() -> None:
    golf = gr.load_ruleset("golf-6")
    assert golf.deck.size == 52 and golf.slots == 6
    assert (golf.players.min, golf.players.max, golf.rounds) == (2, 8, 9)
    # A=1, 2=-2, J/Q=10, K=0; a pair of equal cards in a column scores 0, twos included.
    assert gr.score_layout(golf, ["A", 2, "J", "Q", "K", 5]) == 1 - 2 + 10 + 10 + 0 + 5
    assert gr.score_layout(golf, [2, "J", 7, 2, "J", 3]) == 10
    assert gr.score_layout(golf, ["J", 9, 4, "Q", 9, 4]) == 20  # a J and a Q do not pair
    assert "Pagat" in golf.description


def test_golf_9_scores_three_of_a_kind_in_a_row_or_column_as_0() -> None:
    golf = gr.load_ruleset("golf-9")
    assert golf.slots == 9 and (golf.players.min, golf.players.max) == (2, 5)
    assert gr.score_layout(golf, [7, 7, 7, "A", 3, 4, "K", 5, 6]) == 1 + 3 + 4 + 5 + 6
    assert gr.score_layout(golf, [7, 3, 4, 7, 5, 6, 7, "A", "K"]) == 3 + 4 + 5 + 6 + 1


@pytest.mark.parametrize("name", FAMILY)
def test_a_family_game_plays_validates_redacts_and_replays(name: str) -> None:
    rules = gr.load_ruleset(name)
    record, final = play_game(rules, players=3, seed=7, ruleset_ref=name)
    verdict = validate_record(parse_record(dump_record(record)))
    assert verdict.valid and verdict.complete and verdict.totals == final.totals
    public = redact(record)
    public_verdict = validate_record(parse_record(dump_record(public)))
    assert public_verdict.valid and public_verdict.totals == final.totals


def test_a_six_card_golf_record_written_at_the_table_validates() -> None:
    verdict = validate_record(parse_record((GOLF / "six-card-round.yaml").read_bytes()))
    assert verdict.valid and not verdict.complete
    assert verdict.information == "public" and verdict.scores == ((23, 5),)


def test_the_same_record_with_one_claim_changed_is_refused_at_that_move() -> None:
    text = (GOLF / "six-card-round-tampered.yaml").read_bytes()
    verdict = validate_record(parse_record(text))
    assert verdict.error is not None
    assert (verdict.error.round, verdict.error.move, verdict.error.code) == (
        0,
        7,
        "card-mismatch",
    )


@pytest.mark.parametrize("name", FAMILY)
def test_pettingzoos_api_test_passes_on_each_family_ruleset(name: str) -> None:
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    from gnoming_rules.adapters.pettingzoo_env import env

    with warnings.catch_warnings():  # as tests/test_adapters_pettingzoo.py says why
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        pettingzoo_test.api_test(env(name, 3), num_cycles=150)
