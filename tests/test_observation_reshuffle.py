"""A seat's view while a reshuffle is due (rule 8.7): the card just drawn from the draw
pile, which emptied it, is still in the drawer's hand and hidden from every other seat and
from spectators until it is played; the drawer sees it. Random play seldom stops here, so
the property's games are steered into it (``reshuffle_due_games``)."""

from __future__ import annotations

from builders import play, start_game, three_seat_rules
from hypothesis import given
from strategies import PlayedGame, reshuffle_due_games

import gnoming_rules as gr
from gnoming_rules.play import observe


def views_hide_the_drawn_card(state: gr.State) -> None:
    assert state.phase is gr.Phase.RESHUFFLE and state.held is not None
    assert not state.taken_from_discard
    drawer = state.turn
    own = observe(state, drawer)
    assert own.held == state.held and not own.held_hidden
    for seat in [*range(state.players), None]:
        if seat == drawer:
            continue
        view = observe(state, seat)
        assert view.held is None and view.held_hidden, (seat, view.held)
        assert view.draw_pile_size == 0 and view.phase is gr.Phase.RESHUFFLE
        # Nothing in the view depends on the card: another card in its place shows the same.
        others = [face for face in {*state.cards[drawer], 1, 2} if face != state.held]
        assert observe(state.replace(held=others[0]), seat) == view


def test_while_a_reshuffle_is_due_only_the_drawer_sees_the_drawn_card() -> None:
    rules = three_seat_rules({1: 10, 2: 10, 3: 10, 4: 3})  # 4 cards left to draw
    state = start_game(rules, 3)
    while not state.is_chance:
        seat = state.turn
        state = play(rules, state, gr.Draw(seat))
        if not state.is_chance:
            state = play(rules, state, gr.Discard(seat, 0))
    assert state.held is not None and state.draw_pile == ()
    views_hide_the_drawn_card(state)


def reshuffle_due_views_hide_the_drawn_card(game: PlayedGame) -> None:
    views_hide_the_drawn_card(game.final)


@given(reshuffle_due_games())
def test_while_a_reshuffle_is_due_the_drawn_card_stays_hidden(game: PlayedGame) -> None:
    reshuffle_due_views_hide_the_drawn_card(game)
