"""What a seat knows, in every view (rule 11.1): an observation names a face-down card
exactly to the seats that know it, marks it known (not face up), keeps it in the state
that stands in for the view, in its JSON form and in every world sampled from it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import PlayedGame, game_setups, played_games, variant

import gnoming_rules as gr
from gnoming_rules.core.cards import EMPTY
from gnoming_rules.core.errors import StateError
from gnoming_rules.formats import state_from_dict, state_to_dict
from gnoming_rules.play import observe
from gnoming_rules.play.observation import Observation, stand_in
from gnoming_rules.play.observation_json import observation_from_dict, observation_to_dict
from gnoming_rules.play.worlds import hidden_places, sample_world

STANDARD = gr.load_ruleset("standard")
KNOWING = (
    variant(STANDARD, {"layout": {"peek_at_start": 2}}),
    variant(gr.load_ruleset("skyjo-like"), {"layout": {"peek_at_start": 1}}),
    variant(gr.load_ruleset("golf-6"), {"layout": {"peek_at_start": 2}}),
)
"""Rulesets under which a seat can know a face-down card (``compiled.knowledge``)."""


def with_knowledge(state: gr.State, bits: random.Random) -> gr.State:
    """``state`` with random knowers of each face-down card (face-up and empty slots known
    to no one: every seat sees them), as peeks, placements and swaps leave them."""
    if not state.cards[0]:
        return state
    everyone = (1 << state.players) - 1
    return state.replace(
        known=tuple(
            tuple(0 if up >> slot & 1 else bits.randint(0, everyone) for slot in range(len(layout)))
            for layout, up in zip(state.cards, state.face_up, strict=True)
        )
    )


@st.composite
def knowing_states(draw: st.DrawFn) -> tuple[gr.Ruleset, gr.State]:
    """A state of a random game under rules of knowledge, its face-down cards known to
    random seats."""
    game: PlayedGame = draw(played_games(game_setups(st.sampled_from(KNOWING)), complete=False))
    state = with_knowledge(game.final, random.Random(draw(st.integers(0, 2**32 - 1))))
    return game.ruleset, state


def views(state: gr.State) -> list[tuple[int | None, Observation]]:
    """Each seat's view of ``state`` and a spectator's (``None``), with the viewer."""
    return [(viewer, observe(state, viewer)) for viewer in (*range(state.players), None)]


@given(knowing_states())
def test_rule_11_1_a_view_shows_the_cards_its_seat_knows_and_no_other(
    drawn: tuple[gr.Ruleset, gr.State],
) -> None:
    view_shows_exactly_what_its_seat_knows(drawn[1])


def view_shows_exactly_what_its_seat_knows(state: gr.State) -> None:
    """Each seat's view of ``state`` and the spectator's shows a card exactly where the
    viewer knows it (face up, or face down and known to it), marks it known exactly where
    it lies face down, and face up exactly where it is."""
    for viewer, view in views(state):
        for seat, layout in enumerate(state.cards):
            for slot, card in enumerate(layout):
                knows = state.is_face_up(seat, slot) or (
                    viewer is not None and state.knows(viewer, seat, slot)
                )
                assert (view.layouts[seat][slot] is not None) == knows
                if knows:
                    assert view.layouts[seat][slot] == card
                face_down = not state.is_face_up(seat, slot)
                assert view.is_known(seat, slot) == (knows and face_down)
                assert view.is_face_up(seat, slot) == (not face_down)


@given(knowing_states())
def test_rule_11_1_the_stand_in_keeps_known_cards_face_down_and_who_knows_them(
    drawn: tuple[gr.Ruleset, gr.State],
) -> None:
    ruleset, state = drawn
    for viewer, view in views(state):
        seen = stand_in(view)
        assert seen.face_up == state.face_up
        assert seen.known == state.known
        assert observe(seen, viewer) == view
        assert (seen.peeks, seen.power, seen.looked, seen.turns) == (
            state.peeks,
            state.power,
            state.looked,
            state.turns,
        )
        if not (view.held_hidden and state.phase is gr.Phase.PLACE):
            assert gr.legal_moves(ruleset, view) == gr.legal_moves(ruleset, state)


@given(knowing_states())
def test_rule_11_1_a_view_with_known_cards_round_trips_through_json(
    drawn: tuple[gr.Ruleset, gr.State],
) -> None:
    ruleset, state = drawn
    for _, view in views(state):
        data = json.loads(json.dumps(observation_to_dict(view)))
        assert observation_from_dict(data, ruleset) == view
        assert ("known" in data) == bool(state.known)


@given(knowing_states(), st.integers(0, 2**32 - 1))
def test_rule_11_1_a_sampled_world_keeps_every_card_its_seat_knows(
    drawn: tuple[gr.Ruleset, gr.State], seed: int
) -> None:
    ruleset, state = drawn
    if not state.cards[0]:
        return  # before the first deal: no cards out, nothing to sample
    for viewer, view in views(state):
        world = sample_world(ruleset, view, random.Random(seed))
        assert observe(world, viewer) == view
        assert world.known == state.known
        for place in hidden_places(view):
            if place.kind == "slot":
                assert viewer is None or not state.knows(viewer, place.seat, place.at)


@given(knowing_states())
def test_rule_11_1_a_saved_state_with_knowledge_round_trips(
    drawn: tuple[gr.Ruleset, gr.State],
) -> None:
    ruleset, state = drawn
    data = json.loads(json.dumps(state_to_dict(state)))
    assert state_from_dict(data, ruleset) == state


# --- examples -----------------------------------------------------------------------------------


def dealt(ruleset: gr.Ruleset = KNOWING[0], players: int = 3) -> gr.State:
    state = gr.new_game(ruleset, players, first_player=0)
    state = gr.apply(ruleset, state, gr.sample_chance(ruleset, state, random.Random(3)))
    zeros = tuple(tuple(0 for _ in layout) for layout in state.cards)
    return state.replace(known=zeros) if not state.known else state


def knowing(state: gr.State, seat: int, slot: int, knowers: int) -> gr.State:
    known = [list(masks) for masks in state.known]
    known[seat][slot] = knowers
    return state.replace(known=tuple(tuple(masks) for masks in known))


def test_rule_11_1_a_card_peeked_at_is_shown_to_its_owner_only() -> None:
    state = knowing(dealt(), 0, 2, 0b001)
    card = state.cards[0][2]
    assert observe(state, 0).layouts[0][2] == card
    assert observe(state, 0).is_known(0, 2) and not observe(state, 0).is_face_up(0, 2)
    assert observe(state, 1).layouts[0][2] is None
    assert observe(state, 2).layouts[0][2] is None
    assert observe(state).layouts[0][2] is None  # a spectator knows only face-up cards (11.7)
    assert observe(state, 1).known[0][2] == 0b001  # who knows it is public


def test_rule_11_1_a_view_of_rules_without_knowledge_is_as_it_was() -> None:
    state = gr.new_game(STANDARD, 3, first_player=0)
    state = gr.apply(STANDARD, state, gr.sample_chance(STANDARD, state, random.Random(3)))
    view = observe(state, 0)
    assert view.known == () and not view.is_known(0, 0)
    data = observation_to_dict(view)
    assert not {"known", "peeks", "power", "looked", "turns"} & set(data)


def test_rule_11_1_a_known_card_counts_in_the_view_as_shown_not_unseen() -> None:
    state = knowing(dealt(), 1, 0, 0b011)
    view = observe(state, 0)
    places = hidden_places(view)
    assert ("slot", 1, 0) not in [tuple(place) for place in places]
    assert ("slot", 1, 0) in [tuple(place) for place in hidden_places(observe(state, 2))]


def test_rule_10_6_an_empty_slot_round_trips_in_a_view() -> None:
    skyjo = gr.load_ruleset("skyjo-like")
    state = dealt(skyjo)
    cards = [list(layout) for layout in state.cards]
    up = list(state.face_up)
    for slot in (0, 4, 8):  # the first column leaves the layout (10.6)
        cards[0][slot] = EMPTY
        up[0] |= 1 << slot
    removed = sorted(state.cards[0][slot] for slot in (0, 4, 8))
    pile = (*state.discard_piles[0], *removed)
    state = state.replace(
        cards=tuple(tuple(layout) for layout in cards),
        face_up=tuple(up),
        discard_piles=(pile, *state.discard_piles[1:]),
        known=(),
    )
    view = observe(state, 1)
    data = json.loads(json.dumps(observation_to_dict(view)))
    assert data["layouts"][0][0] == "."
    assert observation_from_dict(data, skyjo) == view


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("shown to another", "layouts[0][2]: must be null: the card is face down"),
        ("hidden from a knower", "layouts[0][2]: must show the card: seat 0 knows it"),
    ],
)
def test_rule_11_1_a_view_that_shows_what_its_seat_does_not_know_is_refused(
    change: str, message: str
) -> None:
    state = knowing(dealt(), 0, 2, 0b001)
    if change == "shown to another":
        data = observation_to_dict(observe(state, 1))
        data["layouts"][0][2] = state.cards[0][2]
    else:
        data = observation_to_dict(observe(state, 0))
        data["layouts"][0][2] = None
    with pytest.raises(StateError) as refused:
        observation_from_dict(data, KNOWING[0])
    assert refused.value.code == "bad-observation"
    assert refused.value.message.startswith(message), refused.value.message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"known": [[[0], [], [], [], [], [], [], [], []]] * 3}, "known[0][0]: a face-up"),
        ({"power": "peek_own"}, "power: no power may be open in the draw phase"),
        ({"phase": "power"}, "power: a power must be open in the power phase"),
        ({"peeks": 1}, "peeks: must be 0 in the draw phase"),
        ({"phase": "power", "power": "swap"}, "looked: names the card looked at"),
        ({"phase": "power", "power": "peek_own", "looked": [1, 0]}, "looked: names the card"),
        (
            {"phase": "power", "power": "swap", "looked": [0, 0]},
            "looked: must be a slot of another",
        ),
    ],
)
def test_rule_11_a_saved_state_whose_knowledge_contradicts_it_is_refused(
    change: dict[str, object], message: str
) -> None:
    state = dealt()
    for seat in range(3):
        for slot in (0, 1):
            state = gr.apply(KNOWING[0], state, gr.Reveal(seat, slot))
    for seat in range(3):  # the setup peeks of rule 11.2 (peek_at_start: 2) come next
        for slot in (2, 3):
            state = gr.apply(KNOWING[0], state, gr.Peek(seat, slot))
    assert state.phase is gr.Phase.DRAW and state.turn == 0
    data = {**state_to_dict(state), **change}
    with pytest.raises(StateError) as refused:
        state_from_dict(data)
    assert refused.value.code == "bad-state"
    assert refused.value.message.startswith(message), refused.value.message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"known": [[[]] * 9] * 3}, "known: no seat can know a face-down card under these rules"),
        ({"turns": 2}, "turns: turns are counted only under round_end.knock"),
    ],
)
def test_rule_11_a_saved_state_with_knowledge_its_rules_lack_is_refused(
    change: dict[str, object], message: str
) -> None:
    state = gr.new_game(STANDARD, 3, first_player=0)
    state = gr.apply(STANDARD, state, gr.sample_chance(STANDARD, state, random.Random(3)))
    data = {**state_to_dict(state), **change}
    assert state_from_dict(data) is not None  # the state itself is consistent
    with pytest.raises(StateError) as refused:
        state_from_dict(data, STANDARD)
    assert refused.value.message.startswith(message), refused.value.message
