"""What a seat sees (``observe``): hidden information never shows, public information always
does, and the held card follows its documented reading."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from strategies import PlayedGame, played_games

import gnoming_rules as gr
from gnoming_rules import Face, Phase, State
from gnoming_rules.play import observe

STANDARD = gr.load_ruleset("standard")


def held_is_private(state: State) -> bool:
    """The reading: a card drawn from the draw pile, not yet played, is the drawer's alone."""
    return (
        state.held is not None
        and not state.taken_from_discard
        and state.phase in (Phase.PLACE, Phase.RESHUFFLE)
    )


def reshuffle_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """``state`` with every card ``seat`` cannot see dealt again at random among the places
    no one (or only another seat) can see: face-down slots the viewer does not know (rule
    11.1), the draw pile, a private hand."""

    def unseen(owner: int, slot: int) -> bool:  # face down, and not known to the viewer
        return not (
            state.knows(seat, owner, slot) if seat is not None else state.face_up[owner] >> slot & 1
        )

    hidden: list[Face] = []
    for owner, layout in enumerate(state.cards):
        hidden += [card for slot, card in enumerate(layout) if unseen(owner, slot)]
    hidden += state.draw_pile
    private = held_is_private(state) and seat != state.turn
    if private:
        assert state.held is not None
        hidden.append(state.held)
    rng.shuffle(hidden)
    cards = []
    for owner, layout in enumerate(state.cards):
        cards.append(
            tuple(hidden.pop() if unseen(owner, slot) else card for slot, card in enumerate(layout))
        )
    held = hidden.pop() if private else state.held
    return state.replace(cards=tuple(cards), draw_pile=tuple(hidden), held=held)


HIDES: Final = "observation-hides"
SHOWS: Final = "observation-shows"


def a_seat_sees_nothing_of_what_it_cannot_see(game: PlayedGame, seed: int) -> None:
    """Each seat's observation of the game's last state, and the spectator's, is unchanged
    when every card that viewer cannot see is dealt again at random (``reshuffle_hidden``)."""
    state = game.final
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(state.players), None]
    for seat in viewers:
        other = reshuffle_hidden(state, seat, rng)
        assert observe(other, seat) == observe(state, seat)


def a_seat_sees_everything_public(game: PlayedGame) -> None:
    """Each seat's observation of the game's last state holds every public field as the
    state has it, the face-up cards and the face-down ones it knows (rule 11.1), and the
    held card unless it is another seat's draw."""
    state = game.final
    for seat in range(state.players):
        seen = observe(state, seat)
        assert seen.seat == seat and seen.players == state.players
        assert (seen.round, seen.phase, seen.turn) == (state.round, state.phase, state.turn)
        assert seen.actor == state.actor and seen.first_player == state.first_player
        known = tuple(
            tuple(
                card if state.knows(seat, other, slot) else None
                for slot, card in enumerate(state.cards[other])
            )
            for other in range(state.players)
        )
        assert seen.layouts == known
        assert seen.own_layout == known[seat]
        assert seen.draw_pile_size == len(state.draw_pile)
        assert seen.discard_piles == state.discard_piles and seen.removed == state.removed
        assert (seen.filled, seen.chain, seen.flips_owed) == (
            state.filled,
            state.chain,
            state.flips_owed,
        )
        assert (seen.went_out, seen.scores) == (state.went_out, state.scores)
        assert seen.taken_from_discard == state.taken_from_discard
        private = held_is_private(state) and seat != state.turn
        assert seen.held_hidden == private
        assert seen.held == (None if private else state.held)


OBSERVATION_PROPERTIES: dict[str, tuple[Callable[..., None], tuple[SearchStrategy[Any], ...]]] = {
    HIDES: (
        a_seat_sees_nothing_of_what_it_cannot_see,
        (played_games(complete=False), st.integers(0, 2**32 - 1)),
    ),
    SHOWS: (a_seat_sees_everything_public, (played_games(complete=False),)),
}
"""Property name -> (check, strategies for its arguments), for the planted-bug tests."""


@given(played_games(complete=False), st.integers(0, 2**32 - 1))
def test_a_seat_sees_nothing_of_what_it_cannot_see(game: PlayedGame, seed: int) -> None:
    a_seat_sees_nothing_of_what_it_cannot_see(game, seed)


@given(played_games(complete=False))
def test_a_seat_sees_everything_public(game: PlayedGame) -> None:
    a_seat_sees_everything_public(game)


def dealt() -> State:
    state = gr.new_game(STANDARD, 3)
    state = gr.apply(STANDARD, state, gr.sample_chance(STANDARD, state, random.Random(8)))
    for seat in range(3):
        for slot in (0, 1):
            state = gr.apply(STANDARD, state, gr.Reveal(seat, slot))
    return state


def test_a_card_drawn_from_the_draw_pile_shows_only_to_the_drawer_until_played() -> None:
    state = gr.apply(STANDARD, dealt(), gr.Draw(0))
    drawn = state.held
    assert observe(state, 0).held == drawn and not observe(state, 0).held_hidden
    assert observe(state, 1).held is None and observe(state, 1).held_hidden
    played = gr.apply(STANDARD, state, gr.Place(0, 5))
    assert played.cards[0][5] == drawn
    assert observe(played, 1).own_layout == played.visible_layout(1)
    assert observe(played, 1).layouts[0][5] == drawn  # face up now, for everyone
    assert observe(played, 1).held == played.held  # the displaced card, turned up


def test_a_card_taken_from_a_discard_pile_is_public() -> None:
    state = dealt()
    top = state.discard_piles[1][-1]
    state = gr.apply(STANDARD, state, gr.Draw(0, 1))
    assert observe(state, 2).held == top and not observe(state, 2).held_hidden


def test_a_spectator_sees_what_the_whole_table_sees() -> None:
    state = gr.apply(STANDARD, dealt(), gr.Draw(0))
    table = observe(state)
    assert table.seat is None and table.held is None and table.held_hidden
    assert table.layouts == observe(state, 1).layouts
    with pytest.raises(gr.GnomingError) as refused:
        _ = table.own_layout
    assert refused.value.code == "bad-seat"
    played = gr.apply(STANDARD, state, gr.Place(0, 5))
    assert observe(played).held == played.held and not observe(played).held_hidden


def test_observe_refuses_a_seat_that_is_not_at_the_table() -> None:
    for seat in (-1, 3, True):
        with pytest.raises(gr.GnomingError) as refused:
            observe(dealt(), seat)
        assert refused.value.code == "bad-seat"
        assert refused.value.message == f"seat {seat!r} is not at the table (seats 0 to 2)"
