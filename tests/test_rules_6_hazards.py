"""RULES.md §6: hazards, the flips they cause, and their toggles."""

from __future__ import annotations

from builders import (
    STANDARD,
    H,
    chain_layout,
    go_out,
    hazard_after_near_outs,
    play,
    quiet_turns,
    start_game,
    variant,
)
from referee_checks import accepted, offered, places, refused

import gnoming_rules as gr


def _hazard_by_seat_2(ruleset: gr.Ruleset = STANDARD) -> gr.State:
    """Four players; seats 0 and 1 took quiet turns; seat 2 drew a hazard and holds it."""
    state = start_game(ruleset, 4, draw=[None, None, H])
    state = quiet_turns(ruleset, state, 2)
    return play(ruleset, state, gr.Draw(2))


def test_rule_6_1_a_discarded_hazard_leaves_the_game_and_the_others_flip_in_order() -> None:
    holding = _hazard_by_seat_2()
    state = accepted(STANDARD, holding, gr.Discard(2))
    assert state.removed == (H,) and state.discard_piles == holding.discard_piles
    assert state.phase is gr.Phase.FLIP and state.flips_owed == (3, 0, 1)
    assert state.actor == 3
    assert offered(STANDARD, state) == {gr.Flip(3, slot) for slot in range(2, 9)}
    refused(STANDARD, state, gr.Flip(0, 5), "not-your-turn", "6.1")
    refused(STANDARD, state, gr.Flip(2, 5), "no-flip-owed", "6.1")
    refused(STANDARD, state, gr.Flip(3, 0), "slot-face-up", "6.1")
    refused(STANDARD, state, gr.Flip(3, 9), "bad-slot", "6.1")
    refused(STANDARD, state, gr.Draw(3), "wrong-phase", "6.1")
    refused(STANDARD, state, gr.Draw(0), "not-your-turn", "6.1")
    state = accepted(STANDARD, state, gr.Flip(3, 4))
    assert state.is_face_up(3, 4) and state.flips_owed == (0, 1) and state.actor == 0
    state = accepted(STANDARD, state, gr.Flip(0, 8))
    # The flips come before the next turn: seat 3 draws only once seat 1 has flipped.
    refused(STANDARD, state, gr.Draw(3), "not-your-turn", "6.1")
    state = accepted(STANDARD, state, gr.Flip(1, 2))
    assert state.phase is gr.Phase.DRAW and state.actor == 3 and state.flips_owed == ()
    assert [state.face_down_count(seat) for seat in range(4)] == [6, 6, 7, 6]


def test_rule_6_1_a_flip_is_refused_when_no_one_owes_one() -> None:
    state = start_game(STANDARD, 3)
    refused(STANDARD, state, gr.Flip(0, 5), "no-flip-owed", "6.1")
    refused(STANDARD, state, gr.Flip(1, 5), "no-flip-owed", "6.1")


def test_rule_6_1_flips_happen_in_the_final_lap_also_by_those_who_played_their_last_turn() -> None:
    state = start_game(STANDARD, 4, layouts={0: chain_layout(1, 2, 5, 3)}, draw=[5, None, None, H])
    state = go_out(STANDARD, state)
    assert state.went_out == 0
    state = quiet_turns(STANDARD, state, 2)  # seats 1 and 2 take their last turns
    state = play(STANDARD, state, gr.Draw(3))
    last = accepted(STANDARD, state, gr.Discard(3))
    # Seat 0 has no face-down card; seats 1 and 2 flip although their turns are over.
    assert last.round == 0 and last.phase is gr.Phase.FLIP
    assert last.flips_owed == (1, 2)
    state = accepted(STANDARD, last, gr.Flip(1, 5))
    assert state.round == 0 and state.actor == 2
    state = accepted(STANDARD, state, gr.Flip(2, 5))
    # Then the round ends: everything turned up and scored.
    assert state.round == 1 and state.phase is gr.Phase.DEAL
    assert len(state.scores) == 1


def test_toggle_hazard_flips_others_next_or_none() -> None:
    assert gr.apply(STANDARD, _hazard_by_seat_2(), gr.Discard(2)).flips_owed == (3, 0, 1)
    following = variant(hazard={"flips": "next"})
    state = accepted(following, _hazard_by_seat_2(following), gr.Discard(2))
    assert state.flips_owed == (3,)
    state = accepted(following, state, gr.Flip(3, 6))
    assert state.phase is gr.Phase.DRAW and state.actor == 3
    nobody = variant(hazard={"flips": "none"})
    state = accepted(nobody, _hazard_by_seat_2(nobody), gr.Discard(2))
    assert state.removed == (H,)
    assert state.phase is gr.Phase.DRAW and state.actor == 3 and state.flips_owed == ()
    refused(nobody, state, gr.Flip(3, 6), "no-flip-owed", "6.1")


def test_rule_6_2_a_hazard_never_turns_a_players_last_card() -> None:
    state = hazard_after_near_outs(STANDARD)
    # Seat 0 has two face-down cards and flips; seat 1 has one and is spared.
    assert state.flips_owed == (0,)
    refused(STANDARD, state, gr.Flip(1, 8), "no-flip-owed", "6.1")
    state = accepted(STANDARD, state, gr.Flip(0, 7))
    assert state.face_down_count(0) == 1 and state.face_down_count(1) == 1
    assert state.phase is gr.Phase.DRAW and state.actor == 0


def test_toggle_spare_last_card_false_flips_the_last_card_too() -> None:
    unspared = variant(hazard={"spare_last_card": False})
    state = hazard_after_near_outs(unspared)
    assert state.flips_owed == (0, 1)
    state = play(unspared, state, gr.Flip(0, 7))
    state = accepted(unspared, state, gr.Flip(1, 8))
    assert state.face_down_count(1) == 0


def test_rule_6_3_a_hazard_may_be_played_into_a_layout_and_scores_10() -> None:
    state = start_game(STANDARD, 3, layouts={0: [1, 2, 3, 4, 6, 7, 8, 9, 10]}, draw=[H])
    state = play(STANDARD, state, gr.Draw(0))
    assert places(0, range(9)) <= offered(STANDARD, state)
    state = accepted(STANDARD, state, gr.Place(0, 4))
    assert state.cards[0] == (1, 2, 3, 4, H, 7, 8, 9, 10)
    assert state.held == 6 and H not in state.removed
    assert gr.score_layout(STANDARD, state.cards[0]) == 1 + 2 + 3 + 4 + 10 + 7 + 8 + 9 + 10
