"""Deciding from a view: the observation's JSON form round-trips, the
moves open to the seat to move follow from its own observation exactly as from the full
state, and a bot's choice cannot depend on a card its seat cannot see."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    PlayedGame,
    bundled_variants,
    candidate_moves,
    game_setups,
    played_games,
    rulesets,
)
from test_observation import reshuffle_hidden

import gnoming_rules as gr
from gnoming_rules.core import is_face, move_from_entry, move_to_entry
from gnoming_rules.core.cards import HIDDEN
from gnoming_rules.core.errors import StateError
from gnoming_rules.formats import state_to_dict
from gnoming_rules.play import Bot, observe
from gnoming_rules.play.bots import GreedyBot, RandomBot, make_bot
from gnoming_rules.play.observation import stand_in
from gnoming_rules.play.observation_json import (
    OBSERVATION_FORMAT,
    observation_from_dict,
    observation_to_dict,
)

STANDARD = gr.load_ruleset("standard")
SOME_RULES = bundled_variants() | rulesets()
"""Every bundled variant, and random variants of every kind."""


def viewers(state: gr.State) -> list[int | None]:
    """Every seat, and the spectator."""
    return [*range(state.players), None]


def spread(game: PlayedGame, most: int = 40) -> tuple[gr.State, ...]:
    """Up to ``most`` states of the game, evenly spread, and its last one."""
    return (*game.states[:: max(1, len(game.states) // most)], game.final)


def refusal(outcome: gr.IllegalMove | None) -> tuple[str, str | None, str] | None:
    return None if outcome is None else (outcome.code, outcome.rule, outcome.message)


# --- the JSON form -----------------------------------------------------------------------------


@given(played_games(game_setups(SOME_RULES), complete=False))
def test_every_view_round_trips_through_json_exactly(game: PlayedGame) -> None:
    for state in spread(game):
        for seat in viewers(state):
            view = observe(state, seat)
            data = observation_to_dict(view)
            text = json.dumps(data)
            assert json.loads(text) == data  # plain JSON: nothing lost on the way
            back = observation_from_dict(json.loads(text), game.ruleset)
            assert back == view
            assert type(back.phase) is gr.Phase and back.layouts == view.layouts


def test_the_json_form_follows_the_saved_state_conventions() -> None:
    state = gr.new_game(STANDARD, 3)
    state = gr.apply(STANDARD, state, gr.sample_chance(STANDARD, state, random.Random(8)))
    state = gr.apply(STANDARD, state, gr.Reveal(0, 4))
    data = observation_to_dict(observe(state, 1))
    saved = state_to_dict(state)
    assert data["format"] == OBSERVATION_FORMAT == "gnoming-observation/1"
    assert data["phase"] == saved["phase"] == "reveal"
    assert data["layouts"][0] == [None] * 4 + [state.cards[0][4]] + [None] * 4
    assert data["seat"] == 1 and data["actor"] == 0 and data["held"] is None
    assert data["filled"] == saved["filled"] == []
    assert data["draw_pile_size"] == len(saved["draw_pile"])
    assert observation_to_dict(observe(state))["seat"] is None  # the spectator


def a_view() -> dict[str, object]:
    """A seat's view while the seat to move holds a card drawn from the draw pile."""
    state = gr.new_game(STANDARD, 3)
    state = gr.apply(STANDARD, state, gr.sample_chance(STANDARD, state, random.Random(8)))
    for seat in range(3):
        for slot in (0, 1):
            state = gr.apply(STANDARD, state, gr.Reveal(seat, slot))
    return observation_to_dict(observe(gr.apply(STANDARD, state, gr.Draw(0)), 1))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "gnoming-state/1"}, "format: must be 'gnoming-observation/1'"),
        ({"seat": 3}, "seat: must be 0 to 2, got 3"),
        ({"phase": 3}, "phase: must be one of deal, reveal, draw"),
        ({"layouts": [[None] * 9, [None] * 9, ["?"] * 9]}, "layouts[2][0]: not a card"),
        ({"actor": 1}, "actor: must be 0 in the place phase"),
        ({"held": 7}, "held: must be null when held_hidden is true"),
        ({"held_hidden": False}, "held: a card must be held in the place phase"),
        ({"seat": 0}, "held_hidden: must be false: seat 0 can see the card seat 0 holds"),
        ({"draw_pile_size": True}, "draw_pile_size: must be an integer, got true"),
        ({"extra": 1}, "extra: unknown field"),
        ({"layouts": [[5] * 9] * 3}, "layouts: the deck does not hold the cards shown: [5, 5"),
        ({"draw_pile_size": 3}, "layouts: 34 cards in play, hidden ones included; the deck"),
    ],
)
def test_a_view_that_is_no_view_is_refused_with_the_field(
    change: dict[str, object], message: str
) -> None:
    data = {**a_view(), **change}
    with pytest.raises(StateError) as refused:
        observation_from_dict(data, STANDARD)
    assert refused.value.code == "bad-observation"
    assert refused.value.message.startswith(message), refused.value.message


def test_without_the_ruleset_only_the_view_itself_is_checked() -> None:
    data = {**a_view(), "layouts": [[5] * 9] * 3}
    assert observation_from_dict(data).layouts[0] == (5,) * 9
    with pytest.raises(StateError, match="missing"):
        observation_from_dict({key: value for key, value in a_view().items() if key != "chain"})


# --- deciding from a view ----------------------------------------------------------------------


def decides_like_the_full_state(ruleset: gr.Ruleset, state: gr.State) -> None:
    """The moves open now, as every viewer that sees what they depend on finds them."""
    full = gr.legal_moves(ruleset, state)
    for seat in viewers(state):
        view = observe(state, seat)
        if view.held_hidden and state.phase is gr.Phase.PLACE:
            with pytest.raises(gr.GnomingError) as hidden:
                gr.legal_moves(ruleset, view)
            assert hidden.value.code == "hidden-card"
            assert seat != state.actor  # the seat to move always sees what it holds
            continue
        assert gr.legal_moves(ruleset, view) == full


@pytest.mark.parametrize("name", gr.bundled_rulesets())
def test_every_bundled_variant_decides_from_the_view_in_a_whole_game(name: str) -> None:
    rules = gr.load_ruleset(name)
    rng = random.Random(name)
    state = gr.new_game(rules, rules.players.min + 1)
    while not state.is_over:
        decides_like_the_full_state(rules, state)
        move: gr.Move = (
            gr.sample_chance(rules, state, rng)
            if state.is_chance
            else rng.choice(gr.legal_moves(rules, state))
        )
        state = gr.apply(rules, state, move)
    decides_like_the_full_state(rules, state)


@given(played_games(game_setups(SOME_RULES), complete=None))
def test_legal_moves_from_the_view_are_those_of_the_full_state(game: PlayedGame) -> None:
    for state in spread(game):
        decides_like_the_full_state(game.ruleset, state)


@given(played_games(game_setups(SOME_RULES), complete=False))
def test_explain_and_is_legal_from_the_view_answer_as_on_the_full_state(game: PlayedGame) -> None:
    """Every candidate move (legal or not, chance events too), judged from the view of the
    seat to move (or the spectator's, between turns), gets the full state's answer."""
    rules, state = game.ruleset, game.final
    view = observe(state, state.actor)
    for move in candidate_moves(rules, state):
        expected = refusal(gr.explain(rules, state, move))
        assert refusal(gr.explain(rules, view, move)) == expected, move
        assert gr.is_legal(rules, view, move) is (expected is None)


def test_a_view_that_hides_the_held_card_cannot_decide_for_the_drawer() -> None:
    view = observation_from_dict(a_view(), STANDARD)
    with pytest.raises(gr.GnomingError) as hidden:
        gr.explain(STANDARD, view, gr.Discard(0, 1))
    assert hidden.value.code == "hidden-card"
    assert hidden.value.message.startswith("seat 1 cannot see the card seat 0 drew")


def test_the_stand_in_shows_what_the_view_shows_and_nothing_else() -> None:
    view = observation_from_dict({**a_view(), "seat": 0, "held": 7, "held_hidden": False})
    state = stand_in(view)
    assert observe(state, 0) == view
    hidden = [card for layout in state.cards for card in layout if card == HIDDEN]
    assert len(hidden) == 3 * 7 and set(state.draw_pile) == {HIDDEN}
    assert not is_face(HIDDEN)


# --- fair bots ----------------------------------------------------------------------------------


@given(played_games(game_setups(SOME_RULES), complete=False), st.integers(0, 2**32 - 1))
def test_a_bots_choice_cannot_depend_on_hidden_cards(game: PlayedGame, seed: int) -> None:
    """Deal every card the seat to move cannot see again at random: each bot, in the same
    frame of mind, makes the same choice. (A bot is given the seat's observation, which
    the reshuffle leaves equal, and nothing else.)"""
    rules, state = game.ruleset, game.final
    if state.is_chance or state.is_over:
        return
    seat = state.to_move
    other = reshuffle_hidden(state, seat, random.Random(seed))
    assert other != state or not state.draw_pile  # something hidden did change
    for kind in ("random", "greedy"):
        here = make_bot(kind, random.Random(seed)).choose(rules, observe(state, seat))
        there = make_bot(kind, random.Random(seed)).choose(rules, observe(other, seat))
        assert here == there
        assert gr.is_legal(rules, state, here) and gr.is_legal(rules, other, there)


def test_a_bot_plays_a_whole_game_from_json_views_alone() -> None:
    """The server keeps the full state; each bot gets its seat's view as JSON text and
    answers with a move entry as JSON text (docs/recipes.md serves a game this way)."""
    rules = gr.load_ruleset("standard")
    chance = random.Random(5)
    seats: list[Bot] = [
        GreedyBot(random.Random(1)),
        RandomBot(random.Random(2)),
        GreedyBot(random.Random(3)),
    ]
    state = gr.new_game(rules, 3)
    turns = 0
    while not state.is_over:
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, chance))
            continue
        seat = state.to_move
        sent = json.dumps(observation_to_dict(observe(state, seat)))
        view = observation_from_dict(json.loads(sent), rules)
        answer = json.dumps(move_to_entry(seats[seat].choose(rules, view)))
        state = gr.apply(rules, state, move_from_entry(json.loads(answer), players=3))
        turns += 1
    assert len(state.scores) == rules.rounds and state.winners and turns > 100
