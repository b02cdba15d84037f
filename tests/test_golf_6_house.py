"""The bundled ``golf-6-house`` (issue 30, rule 11.6): six-card Golf with two jokers worth -2
and four of a kind in two adjacent columns scoring -20, played, validated, redacted and
replayed like the rest of the family (tests/test_golf_family_rulesets.py)."""

from __future__ import annotations

import gnoming_rules as gr
from gnoming_rules.formats.record import dump_record, parse_record
from gnoming_rules.pictures.replay import replay_html
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee import validate_record
from gnoming_rules.referee.redact import redact
from gnoming_rules.referee.validate import replay_record

HOUSE = "golf-6-house"


def test_golf_6_house_is_golf_6_with_two_jokers_worth_minus_2() -> None:
    house, golf = gr.load_ruleset(HOUSE), gr.load_ruleset("golf-6")
    assert house.deck.size == golf.deck.size + 2 == 54
    assert house.deck.named["JK"] == 2 and house.deck.values["JK"] == -2
    assert (house.slots, house.rounds, house.players.max) == (golf.slots, 9, 8)
    assert "Pagat" in house.description and house.sha256 != golf.sha256
    # A joker scores -2 alone, and two of them in a column pair to 0, as the twos do.
    assert gr.score_layout(house, ["JK", 3, 4, 9, 5, 6]) == -2 + 3 + 4 + 9 + 5 + 6
    assert gr.score_layout(house, ["JK", 3, 4, "JK", 5, 6]) == 3 + 4 + 5 + 6


def test_rule_11_6_four_of_a_kind_in_two_adjacent_columns_scores_minus_20() -> None:
    house, golf = gr.load_ruleset(HOUSE), gr.load_ruleset("golf-6")
    assert gr.score_layout(house, [5, 5, 3, 5, 5, 4]) == -20 + 3 + 4
    assert gr.score_layout(golf, [5, 5, 3, 5, 5, 4]) == 3 + 4  # two pairs, 0 and 0
    assert gr.score_layout(house, [3, 5, 5, 4, 5, 5]) == -20 + 3 + 4  # columns 1 and 2
    # Columns 0 and 2 are not adjacent: two pairs, as in golf-6.
    assert gr.score_layout(house, [5, 3, 5, 5, 4, 5]) == 3 + 4
    # Two adjacent pairs of different ranks are two pairs, not the pattern.
    assert gr.score_layout(house, [5, 7, 3, 5, 7, 4]) == 3 + 4
    breakdown = gr.score_breakdown(house, [5, 5, 3, 5, 5, 4])
    assert [(p.slots, p.points) for p in breakdown.patterns] == [((0, 1, 3, 4), -20)]


def test_a_golf_6_house_game_plays_validates_redacts_and_replays() -> None:
    rules = gr.load_ruleset(HOUSE)
    record, final = play_game(rules, players=4, seed=11, ruleset_ref=HOUSE)
    verdict = validate_record(parse_record(dump_record(record)))
    assert verdict.valid and verdict.complete and verdict.totals == final.totals
    public = redact(record)
    public_verdict = validate_record(parse_record(dump_record(public)))
    assert public_verdict.valid and public_verdict.totals == final.totals
    page = replay_html(replay_record(record), title="house game")
    assert page.lower().startswith("<!doctype html>") and "house game" in page
