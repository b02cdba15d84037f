"""Saving and restoring a State (``state_to_dict`` / ``state_from_dict``): exact round trips
from every phase of games under every variant, and a clear ``bad-state`` for anything else."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, Final

import pytest
from builders import variant
from hypothesis import given
from hypothesis.strategies import SearchStrategy
from strategies import PlayedGame, played_games

import gnoming_rules as gr
from gnoming_rules.formats import STATE_FORMAT, state_from_dict, state_to_dict

STANDARD = gr.load_ruleset("standard")


STATE_ROUND_TRIP: Final = "state-round-trip"


def every_state_comes_back_exactly(game: PlayedGame) -> None:
    """States of ``game`` (about 25, and the last), saved as JSON text and restored with and
    without the ruleset, are equal to the originals field for field, types included, and
    have the same legal moves; restoring a saved state never raises."""
    step = max(1, len(game.states) // 25)
    for state in (*game.states[::step], game.final):
        text = json.dumps(state_to_dict(state))
        for ruleset in (None, game.ruleset):
            try:
                restored = state_from_dict(json.loads(text), ruleset)
            except Exception as error:
                raise AssertionError(f"restoring a saved state raised {error!r}") from error
            assert restored == state
            assert type(restored.phase) is gr.Phase
            assert all(
                type(getattr(restored, name)) is type(getattr(state, name))
                for name in gr.State._fields
            )
            assert gr.legal_moves(game.ruleset, restored) == gr.legal_moves(game.ruleset, state)


SNAPSHOT_PROPERTIES: dict[str, tuple[Callable[..., None], tuple[SearchStrategy[Any], ...]]] = {
    STATE_ROUND_TRIP: (every_state_comes_back_exactly, (played_games(),)),
}
"""Property name -> (check, strategies for its arguments), for the planted-bug tests."""


@given(played_games())
def test_every_state_of_every_game_comes_back_exactly(game: PlayedGame) -> None:
    every_state_comes_back_exactly(game)


def test_the_saved_form_is_plain_versioned_json() -> None:
    state = mid_turn()
    data = state_to_dict(state)
    assert data["format"] == STATE_FORMAT == "gnoming-state/1"
    assert data["phase"] == "bounce"
    assert data["face_up"][0] == [0, 1, 4] and data["filled"] == [4]
    assert json.loads(json.dumps(data)) == data
    assert list(data) == ["format", *gr.State._fields]


def mid_turn() -> gr.State:
    """Round 0 of a 3-seat standard game, seat 0 having played into its slot 4."""
    state = gr.new_game(STANDARD, 3)
    state = gr.apply(STANDARD, state, gr.sample_chance(STANDARD, state, random.Random(3)))
    for seat in range(3):
        state = gr.apply(STANDARD, state, gr.Reveal(seat, 0))
        state = gr.apply(STANDARD, state, gr.Reveal(seat, 1))
    state = gr.apply(STANDARD, state, gr.Draw(0))
    return gr.apply(STANDARD, state, gr.Place(0, 4))


def changed(**fields: Any) -> dict[str, Any]:
    data = state_to_dict(mid_turn())
    data.update(fields)
    return data


def test_a_state_rebuilt_from_its_fields_is_refused_not_misread() -> None:
    """What a newcomer tries first: the state's fields (``State._fields``) through JSON. The
    phase comes back an int; the saved form names it instead."""
    state = mid_turn()
    raw = json.loads(json.dumps({name: getattr(state, name) for name in gr.State._fields}))
    with pytest.raises(gr.StateError) as refused:
        state_from_dict(raw)
    assert refused.value.code == "bad-state"
    assert refused.value.message == "format: missing"
    with pytest.raises(gr.StateError, match=r"^bad-state: phase: must be one of deal, reveal"):
        state_from_dict(changed(phase=4))


NOT_A_CARD = 'not a card: write an integer, "H", "M" or a face name, got'
SEAT_2_SLOT_1_X = [[5] * 9, [5] * 9, [5, "x", *[5] * 7]]  # (a name is uppercase, 10.1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a mapping (a JSON object), got []"),
        (changed(format="x/2"), "format: must be 'gnoming-state/1', got 'x/2'"),
        (changed(extra=1), "extra: unknown field"),
        ({k: v for k, v in changed().items() if k != "held"}, "held: missing"),
        (changed(round=True), "round: must be an integer, got true"),
        (changed(round=1.0), "round: must be an integer, got 1.0"),
        (changed(turn=3), "turn: must be -1 to 2, got 3"),
        (changed(first_player=-1), "first_player: must be 0 to 2, got -1"),
        (changed(cards=[]), "cards: must hold one layout per seat (1 to 100), got 0"),
        (changed(cards=[[5] * 9, [5] * 9, [5] * 8]), "cards[2]: has 8 cards, but cards[0] has 9"),
        (changed(cards=SEAT_2_SLOT_1_X), f'cards[2][1]: {NOT_A_CARD} "x"'),
        (changed(held=1.5), f"held: {NOT_A_CARD} 1.5"),
        (changed(face_up=[[0], [9]]), "face_up: must hold 3 items, got 2"),
        (changed(face_up=[[0], [9], []]), "face_up[1][0]: must be 0 to 8, got 9"),
        (changed(face_up=[[0, 0], [], []]), "face_up[0][1]: slot 0 is listed twice"),
        (changed(discard_piles=[]), "discard_piles: must hold 1 to 4 piles, got 0"),
        (changed(chain="yes"), 'chain: must be true or false, got "yes"'),
        (changed(scores=[[1, 2, 3]]), "scores: one row per finished round (0), got 1"),
        (changed(phase="over"), "round: the game is over only after a round"),
        (changed(turn=-1), "turn: must be a seat in the bounce phase, got -1"),
        (changed(phase="draw"), "held: no card may be held in the draw phase"),
        (changed(held=None), "held: a card must be held in the bounce phase"),
        (changed(filled=[]), "filled: the play's slot must be filled in the bounce phase"),
        (changed(filled=[7]), "filled: every slot filled this turn is face up"),
        (changed(flips_owed=[1]), "flips_owed: no seat may owe a flip in the bounce phase"),
        (changed(taken_from_discard=True), "taken_from_discard: must be false in the bounce phase"),
    ],
)
def test_what_is_not_a_saved_state_gets_a_bad_state_naming_the_field(
    data: object, message: str
) -> None:
    with pytest.raises(gr.StateError) as refused:
        state_from_dict(data)
    assert refused.value.code == "bad-state"
    assert refused.value.message == message


def test_with_its_ruleset_a_state_must_fit_the_rules() -> None:
    data = changed()
    assert state_from_dict(data, STANDARD) == mid_turn()
    quick = gr.load_ruleset("quick")
    assert state_from_dict(data, quick) == mid_turn()  # round 0 of 1: it fits
    big = gr.load_ruleset("big-grid")
    with pytest.raises(gr.StateError, match=r"cards\[0\]: has 9 cards; a 4x4 layout has 16"):
        state_from_dict(data, big)
    duel = variant(players={"min": 4, "max": 5})
    with pytest.raises(gr.StateError, match="cards: 3 seats, but the ruleset seats 4 to 5"):
        state_from_dict(data, duel)
    cards = [list(layout) for layout in mid_turn().cards]
    cards[1][3] = 12 if cards[1][3] != 12 else 11
    with pytest.raises(gr.StateError, match=r"^bad-state: cards: the cards in play are not"):
        state_from_dict(changed(cards=cards), STANDARD)
    with pytest.raises(gr.StateError, match="round 2 in the bounce phase does not fit"):
        state_from_dict(changed(round=2, scores=[[0, 0, 0]] * 2), quick)
