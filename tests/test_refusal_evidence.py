"""A refusal names the rule a player expects and shows the evidence: ``not-your-turn``
quotes the turn order of rule 2.1 (not its player count), and ``impossible-card`` says
where the copies already known lie, and draws them."""

from __future__ import annotations

import json
from typing import Any

from kit import ILLEGAL

import gnoming_rules as gr
from gnoming_rules.formats import read_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.report import describe
from gnoming_rules.referee.rulebook import rule_text
from gnoming_rules.referee.validate import replay_bytes, replay_record

IMPOSSIBLE = json.loads((ILLEGAL / "impossible-card.json").read_text(encoding="utf-8"))


def public(start: list[Any], moves: list[dict[str, Any]]) -> bytes:
    """The tiny public record of the examples, with this start and these moves."""
    data = {key: value for key, value in IMPOSSIBLE.items() if key != "rounds"}
    data["rounds"] = [{"start": {"piles": start}, "moves": moves}]
    return json.dumps(data).encode()


def test_not_your_turn_quotes_the_turn_order_not_the_player_count() -> None:
    text = rule_text("2.1", "not-your-turn") or ""
    assert "play goes up in seat number" in text
    assert "Three to seven" not in text
    assert (rule_text("2.1") or "").startswith("Three to seven players")  # the whole rule
    # 4.5's sentence that names its code leans on the one before: the whole rule is quoted.
    assert (rule_text("4.5", "must-play-taken-card") or "").startswith("A card taken from")


def test_a_seat_that_draws_out_of_turn_is_told_rule_2_1s_turn_order() -> None:
    rules = gr.load_ruleset("standard")
    record, _ = play_game(rules, 3, seed=4, ruleset_ref="standard")
    data = record.model_dump(mode="json", exclude_none=True)
    moves = data["rounds"][0]["moves"]
    first_draw = next(index for index, move in enumerate(moves) if move["action"] == "draw")
    moves[first_draw]["player"] = (moves[first_draw]["player"] + 1) % 3
    replay = replay_bytes(json.dumps(data).encode())
    assert replay.verdict.error is not None
    assert (replay.verdict.error.code, replay.verdict.error.rule) == ("not-your-turn", "2.1")
    report = describe("game.json", replay)
    assert "rule 2.1: Seats are numbered 0 to n\u22121 and play goes up in seat number" in report
    assert "Three to seven" not in report


def test_impossible_card_says_which_seat_shows_the_earlier_copy_and_draws_it() -> None:
    moves = [
        {"action": "reveal", "player": 1, "slot": 0, "card": 5},
        {"action": "reveal", "player": 0, "slot": 2, "card": -2},
        {"action": "draw", "player": 1, "source": "deck", "card": -2},
    ]
    replay = replay_bytes(public([1, 3], moves))
    error = replay.verdict.error
    assert error is not None and (error.code, error.move) == ("impossible-card", 2)
    assert error.message == (
        "seat 1 drew a -2, but the deck holds 1 copy and 1 is already known this round: "
        "seat 0's slot 2"
    )
    report = describe("game.json", replay)
    assert "seat 0 (Ana), which shows -2:" in report
    assert report.count("+------+------+") == 6  # the mover's layout and seat 0's


def test_impossible_card_names_a_discard_pile_and_shows_the_piles() -> None:
    moves = [{"action": "reveal", "player": 1, "slot": 0, "card": -2}]
    replay = replay_bytes(public([-2, 3], moves))
    error = replay.verdict.error
    assert error is not None and error.code == "impossible-card"
    assert error.message.endswith("already known this round: discard pile 0")
    assert "discard pile 0: -2" in describe("game.json", replay)


def test_the_example_of_the_docs_says_where_too() -> None:
    replay = replay_record(read_record(ILLEGAL / "impossible-card.json"))
    assert replay.verdict.error is not None
    assert replay.verdict.error.message.endswith(": seat 1's slot 0")
