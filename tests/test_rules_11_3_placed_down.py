"""RULES.md 11.3: placing face down (``play.placed: down``)."""

from __future__ import annotations

import pytest
from builders import play
from referee_checks import accepted, offered, refused
from rules_11_kit import DOWN, DOWN_RULES, KNOCK, dealt, knowers, quiet, rules_with

import gnoming_rules as gr


def test_rule_11_3_a_played_card_lies_face_down_known_to_the_player_who_placed_it() -> None:
    state = dealt(DOWN, 3, layouts={0: [1, 2, 3, 4, 5, 6, 7, 8, 9]}, draw=[12])
    state = play(DOWN, state, gr.Draw(0))
    state = accepted(DOWN, state, gr.Place(0, 4))
    assert state.cards[0][4] == 12 and not state.is_face_up(0, 4)
    assert knowers(state, 0, 4) == {0}
    assert state.visible_layout(0)[4] is None
    # The displaced card is turned up and held (4.2); no bounce under down: discard it.
    assert state.held == 5 and state.phase is gr.Phase.BOUNCE
    assert offered(DOWN, state) == {gr.Discard(0, 0), gr.Discard(0, 1)}
    state = accepted(DOWN, state, gr.Discard(0, 1))
    assert state.discard_piles[1][-1] == 5 and state.phase is gr.Phase.DRAW


def test_rule_11_3_a_card_taken_from_a_discard_pile_is_known_to_every_seat() -> None:
    state = dealt(DOWN, 3, discards=[11, 3])
    state = play(DOWN, state, gr.Draw(0, 0))
    state = accepted(DOWN, state, gr.Place(0, 6))
    assert state.cards[0][6] == 11 and not state.is_face_up(0, 6)
    assert knowers(state, 0, 6) == {0, 1, 2}


def test_rule_11_3_a_card_played_onto_a_face_up_card_lies_face_down() -> None:
    state = dealt(DOWN, 3, layouts={0: [6, 2, 3, 4, 5, 1, 7, 8, 9]}, draw=[12])
    assert state.is_face_up(0, 0)
    state = play(DOWN, state, gr.Draw(0))
    state = accepted(DOWN, state, gr.Place(0, 0))
    assert not state.is_face_up(0, 0) and state.cards[0][0] == 12 and state.held == 6
    assert state.face_down_count(0) == 8


def test_rule_11_3_under_down_there_is_no_going_out_by_turning_every_card_up() -> None:
    # Every card is revealed at setup: under up, a turn ends with the layout all up.
    all_up = {"layout": {"face_up_at_start": 9}}
    down, up = rules_with(**DOWN_RULES, **all_up), rules_with(round_end={"knock": True}, **all_up)
    assert quiet(up, dealt(up, 3)).went_out == 0
    state = quiet(down, dealt(down, 3))
    assert state.went_out is None and state.phase is gr.Phase.DRAW and state.actor == 1
    assert state.face_up[0] == (1 << 9) - 1


def test_rule_11_3_down_needs_knocking_and_refuses_bouncing_and_hazards() -> None:
    for missing in ({"round_end": {"knock": False}}, {"bounce": True}, {"deck": {"hazards": 3}}):
        with pytest.raises(gr.RulesetError, match=r"play\.placed"):
            rules_with(**{**DOWN_RULES, **missing})
    assert KNOCK.compiled.placed_down is False and DOWN.compiled.placed_down is True


def test_rule_11_3_under_up_a_played_card_lies_face_up_as_in_4_2() -> None:
    rules = rules_with(layout={"peek_at_start": 1})
    state = dealt(rules, 3, layouts={0: [1, 2, 3, 4, 5, 6, 7, 8, 9]}, draw=[12])
    state = play(rules, state, gr.Peek(0, 4), gr.Peek(1, 4), gr.Peek(2, 4), gr.Draw(0))
    state = accepted(rules, state, gr.Place(0, 4))
    assert state.is_face_up(0, 4) and state.cards[0][4] == 12
    assert state.known[0][4] == 0  # the peeked 5 left the layout with its knower
    refused(rules, state, gr.Peek(0, 5), "wrong-phase", "4.4")
