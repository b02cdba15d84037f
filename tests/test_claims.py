"""A record's claims are checked seat by seat and winner by winner (docs/record-format.md,
"The claims"): a round's ``scores`` with the right numbers on the wrong seats is
``score-mismatch``; a ``result.winners`` that leaves out a real winner (a strict subset,
or ``[]``) is ``result-mismatch``; the same winners in another order, or repeated, pass."""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

from builders import STANDARD, arranged_deal, chain_layout, play, played_game, setup_reveals
from hypothesis import event, given, settings
from strategies import (
    GameSetup,
    PlayedGame,
    RecordedGame,
    play_randomly,
    played_games,
    record_game,
    recorded_games,
    tie_prone_setups,
)

import gnoming_rules as gr
from gnoming_rules.formats.record import parse_record
from gnoming_rules.referee import validate_record
from gnoming_rules.referee.validate import Verdict


def verdict_on(data: dict[str, Any]) -> Verdict:
    return validate_record(parse_record(json.dumps(data)))


def code_at(verdict: Verdict) -> tuple[str, int | None, int | None] | None:
    error = verdict.error
    return None if error is None else (error.code, error.round, error.move)


def seats_swapped(scores: list[int]) -> list[int] | None:
    """The same numbers on other seats (a rotation that changes the list), if any."""
    for shift in range(1, len(scores)):
        rotated = scores[shift:] + scores[:shift]
        if rotated != scores:
            return rotated
    return None


def strict_subsets(winners: list[int]) -> list[list[int]]:
    return [list(c) for size in range(len(winners)) for c in combinations(winners, size)]


# --- examples ---------------------------------------------------------------------------------


def _complete_game(setup: GameSetup, seed: int) -> PlayedGame:
    game = play_randomly(setup, random.Random(seed))
    assert game.complete
    return game


def test_scores_on_the_wrong_seats_are_a_score_mismatch() -> None:
    recorded = record_game(_complete_game(GameSetup(STANDARD, 3, 0), 5), claims=True)
    data = recorded.data()
    scores = data["rounds"][1]["scores"]
    assert len(set(scores)) > 1, scores
    data["rounds"][1]["scores"] = seats_swapped(scores)
    assert code_at(verdict_on(data)) == ("score-mismatch", 1, None)


def _shared_win() -> RecordedGame:
    """A complete game whose winners are seats 0, 1 and 2: a deck of 5s only, so every
    layout is three sets, and no bonus or penalty for going out."""
    rules = gr.load_ruleset(
        {
            "extends": "standard",
            "rounds": 1,
            "deck": {
                "numbers": dict.fromkeys(STANDARD.deck.numbers, None) | {5: 80},
                "hazards": 0,
                "mulligans": 0,
            },
            "going_out": {"bonus": 0, "penalty": 0},
        }
    )
    game = _complete_game(GameSetup(rules, 3, 0), 1)
    assert game.final.winners == (0, 1, 2)
    return record_game(game, claims=True)


def test_winners_that_leave_out_a_real_winner_are_a_result_mismatch() -> None:
    recorded = _shared_win()
    for claimed in ([], [0], [2], [0, 2], [1, 2]):
        data = recorded.data()
        data["result"]["winners"] = claimed
        assert code_at(verdict_on(data)) == ("result-mismatch", None, None), claimed


def test_winners_in_another_order_or_repeated_pass() -> None:
    recorded = _shared_win()
    for claimed in ([2, 0, 1], [1, 1, 0, 2]):
        data = recorded.data()
        data["result"]["winners"] = claimed
        assert verdict_on(data).valid, claimed


def test_no_winners_claimed_for_a_single_winner_is_a_result_mismatch() -> None:
    recorded = record_game(_complete_game(GameSetup(STANDARD, 4, 2), 3), claims=True)
    data = recorded.data()
    assert data["result"]["winners"]
    data["result"]["winners"] = []
    assert code_at(verdict_on(data)) == ("result-mismatch", None, None)


def test_a_bounces_card_claim_is_written_and_checked() -> None:
    """A bounce shows the card it displaced: the Recorder writes it as the entry's
    ``card``, and another face there is ``card-mismatch`` at that move."""
    deal = arranged_deal(STANDARD, 3, layouts={0: chain_layout(1, 2, 5, 9)}, draw=[5])
    moves: list[gr.Move] = [deal]
    moves += setup_reveals(STANDARD, play(STANDARD, gr.new_game(STANDARD, 3, 0), deal))
    moves += [gr.Draw(0), gr.Place(0, 2), gr.Bounce(0, 3)]
    data = record_game(played_game(STANDARD, 3, moves), claims=True).data()
    bounce = len(moves) - 2
    entry = data["rounds"][0]["moves"][bounce]
    assert entry == {"action": "bounce", "player": 0, "slot": 3, "card": 5}
    entry["card"] = 7
    assert code_at(verdict_on(data)) == ("card-mismatch", 0, bounce)


# --- properties -------------------------------------------------------------------------------

CLAIMED_GAMES = recorded_games(played_games(tie_prone_setups(), complete=True), claims=True)
"""Complete records with every claim, of games steered into ties (shared winners, equal
round scores)."""


def claims_are_checked_seat_by_seat(recorded: RecordedGame) -> None:
    """Each finished round's scores moved to other seats: ``score-mismatch`` at that round
    (the earlier rounds' claims hold). Each strict subset of the winners: ``result-mismatch``;
    the winners reversed: valid."""
    data = recorded.data()
    for index, round_ in enumerate(data["rounds"]):
        swapped = seats_swapped(round_["scores"])
        if swapped is None:
            event("a round whose seats all scored alike")
            continue
        changed = recorded.data()
        changed["rounds"][index]["scores"] = swapped
        assert code_at(verdict_on(changed)) == ("score-mismatch", index, None), index
    winners = data["result"]["winners"]
    event(f"winners: {min(len(winners), 3)}")
    for subset in strict_subsets(winners):
        changed = recorded.data()
        changed["result"]["winners"] = subset
        assert code_at(verdict_on(changed)) == ("result-mismatch", None, None), subset
    changed = recorded.data()
    changed["result"]["winners"] = winners[::-1]
    assert verdict_on(changed).valid


@settings(max_examples=max(10, settings().max_examples // 8))
@given(CLAIMED_GAMES)
def test_claims_are_checked_seat_by_seat(recorded: RecordedGame) -> None:
    claims_are_checked_seat_by_seat(recorded)
