"""RULES.md 11.5: knocking (``round_end.knock``)."""

from __future__ import annotations

from builders import STANDARD, chain_layout, go_out, start_game
from referee_checks import accepted, offered, refused
from rules_11_kit import KNOCK, dealt, quiet

import gnoming_rules as gr

LOW = [-5, -4, -3, -3, -2, -2, -1, -1, -1]
"""Seat 0's layout in the knock tests: the lowest score at the table."""


def _after_a_lap(players: int = 3) -> gr.State:
    """Every player has had one (quiet) turn; seat 0 is to draw again."""
    state = dealt(KNOCK, players, layouts={0: LOW})
    return quiet(KNOCK, state, players)


def test_rule_11_5_a_player_may_knock_instead_of_drawing_once_everyone_has_had_a_turn() -> None:
    state = dealt(KNOCK, 3, layouts={0: LOW})
    assert gr.Knock(0) not in offered(KNOCK, state)
    refused(KNOCK, state, gr.Knock(0), "wrong-phase", "11.5")
    state = quiet(KNOCK, state, 2)
    refused(KNOCK, state, gr.Knock(2), "wrong-phase", "11.5")  # seat 2 has not had a turn
    state = quiet(KNOCK, state)
    assert state.turns == 3 and state.actor == 0
    moves = gr.legal_moves(KNOCK, state)
    assert moves[-1] == gr.Knock(0) and set(moves[:-1]) == {
        gr.Draw(0),
        gr.Draw(0, 0),
        gr.Draw(0, 1),
    }
    refused(KNOCK, state, gr.Knock(1), "not-your-turn", "2.1")
    knocked = accepted(KNOCK, state, gr.Knock(0))
    assert knocked.went_out == 0 and knocked.phase is gr.Phase.DRAW and knocked.actor == 1
    assert knocked.cards == state.cards and knocked.draw_pile == state.draw_pile


def test_rule_11_5_every_other_player_takes_exactly_one_more_turn_then_the_round_ends() -> None:
    state = accepted(KNOCK, _after_a_lap(4), gr.Knock(0))
    for seat in (1, 2):
        assert state.actor == seat and state.round == 0
        state = quiet(KNOCK, state)
    assert state.actor == 3 and state.round == 0
    state = quiet(KNOCK, state)
    assert state.round == 1 and state.phase is gr.Phase.DEAL and len(state.scores) == 1


def test_rule_11_5_the_knocker_takes_no_more_turn() -> None:
    state = quiet(KNOCK, accepted(KNOCK, _after_a_lap(), gr.Knock(0)))
    assert state.actor == 2
    refused(KNOCK, state, gr.Draw(0), "not-your-turn", "2.1")
    refused(KNOCK, state, gr.Knock(0), "not-your-turn", "2.1")


def test_rule_11_5_at_its_end_every_card_is_turned_up_and_the_knocker_went_out() -> None:
    before = accepted(KNOCK, _after_a_lap(), gr.Knock(0))
    state = quiet(KNOCK, before, 2)
    assert state.face_up == ((1 << 9) - 1,) * 3 and state.went_out == 0
    base = [gr.score_layout(KNOCK, layout) for layout in state.cards]
    assert base[0] == sum(LOW) and base[0] < min(base[1:])
    # Rule 8.6: the knocker, lowest, has the going-out bonus (-5); the others nothing more.
    assert state.scores[-1] == (base[0] - 5, base[1], base[2])


def test_rule_11_5_going_out_still_ends_the_round_as_before() -> None:
    state = start_game(KNOCK, 3, layouts={0: chain_layout(1, 2, 5, 3)}, draw=[5])
    state = go_out(KNOCK, state)
    assert state.went_out == 0 and state.actor == 1
    refused(KNOCK, state, gr.Knock(1), "wrong-phase", "11.5")
    state = quiet(KNOCK, state, 2)
    assert state.round == 1 and state.scores[-1][0] == gr.score_layout(KNOCK, state.cards[0]) - 5


def test_rule_11_5_without_round_end_knock_nobody_knocks() -> None:
    state = start_game(STANDARD, 3)
    state = quiet(STANDARD, state, 4)
    assert state.turns == 0 and gr.Knock(1) not in gr.legal_moves(STANDARD, state)
    refused(STANDARD, state, gr.Knock(1), "wrong-phase", "11.5")
