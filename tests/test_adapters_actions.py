"""The integer action space of gnoming_rules.adapters: numbering, both mappings, the mask.

The mask must be exactly ``legal_moves``: checked over random games of random variants,
and, on a sample of their states, against what ``apply`` itself accepts for every action.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gnoming_rules as gr
from gnoming_rules.adapters.actions import action_space, extra_blocks, pile_count
from gnoming_rules.core.engine import is_legal
from gnoming_rules.testing import PlayedGame, played_games


def test_the_standard_space_numbers_every_move_once() -> None:
    rules = gr.load_ruleset("standard")
    space = action_space(rules)
    assert pile_count(rules) == 2
    assert space.size == 4 * 9 + 2 * 2 + 2 == len(space.names) == 42
    assert space.names[4] == "reveal slot 4"
    assert space.names[space.flip] == "flip slot 0"
    assert space.names[space.place + 8] == "place slot 8"
    assert space.names[space.bounce] == "bounce slot 0"
    assert space.names[space.draw : space.draw + 3] == (
        "draw draw pile",
        "draw discard pile 0",
        "draw discard pile 1",
    )
    assert space.names[space.discard + 1] == "discard on pile 1"
    assert space.names[space.hazard] == "discard hazard"
    moves = [space.move(2, action) for action in range(space.size)]
    assert len(set(moves)) == space.size
    assert all(move.player == 2 for move in moves)
    assert [space.action(move) for move in moves] == list(range(space.size))
    assert space.move(0, space.draw) == gr.Draw(0)
    assert space.move(0, space.draw + 2) == gr.Draw(0, 1)
    assert space.move(1, space.hazard) == gr.Discard(1)
    assert space.seat_moves(2) == tuple(moves)
    assert action_space(gr.load_ruleset("standard")) is space  # built once per ruleset


def test_the_space_follows_the_layout_size() -> None:
    space = action_space(gr.load_ruleset("big-grid"))
    assert space.slots == 16
    assert space.size == 4 * 16 + 2 * 2 + 2
    assert space.move(0, space.bounce + 15) == gr.Bounce(0, 15)


def test_numbers_outside_the_space_are_refused_with_a_code() -> None:
    space = action_space(gr.load_ruleset("standard"))
    for seat, action in ((0, 42), (0, -1), (7, 0), (-1, 0)):
        with pytest.raises(gr.GnomingError) as refused:
            space.move(seat, action)
        assert refused.value.code == "bad-action"
    with pytest.raises(gr.GnomingError, match="bad-action"):
        space.move(0, True)
    with pytest.raises(gr.GnomingError, match="bad-action"):
        space.action(gr.Place(0, 9))
    with pytest.raises(gr.GnomingError, match="bad-action"):
        space.action(gr.Draw(0, 2))
    assert space.move(0, np.int64(5)) == gr.Reveal(0, 5)


def check_mask(game: PlayedGame, every: int) -> None:
    rules = game.ruleset
    space = action_space(rules)
    for index, state in enumerate(game.states):
        mask = space.mask(state)
        legal = gr.legal_moves(rules, state)
        assert mask.dtype == np.int8 and mask.shape == (space.size,)
        assert sorted(space.action(move) for move in legal) == list(np.flatnonzero(mask))
        assert list(space.legal_actions(state)) == list(np.flatnonzero(mask))
        if not legal:
            assert state.is_chance or state.is_over
            continue
        seat = state.to_move
        assert {space.move(seat, action) for action in space.legal_actions(state)} == set(legal)
        if index % every == 0:
            accepted = [is_legal(rules, state, space.move(seat, a)) for a in range(space.size)]
            assert accepted == [bool(bit) for bit in mask]


@settings(max_examples=40)
@given(played_games(complete=False))
def test_the_mask_is_legal_moves_in_random_games_of_random_variants(game: PlayedGame) -> None:
    check_mask(game, every=5)


@pytest.mark.parametrize("name", gr.bundled_rulesets())
def test_the_mask_is_legal_moves_in_each_bundled_ruleset(name: str) -> None:
    from gnoming_rules.testing import GameSetup, play_randomly

    rules = gr.load_ruleset(name)
    game = play_randomly(GameSetup(rules, rules.players.min, 0), random.Random(len(name)))
    check_mask(game, every=25)


def test_a_mask_is_a_fresh_array() -> None:
    rules = gr.load_ruleset("standard")
    space = action_space(rules)
    state = gr.apply(
        rules,
        gr.new_game(rules, 3),
        gr.sample_chance(rules, gr.new_game(rules, 3), random.Random(0)),
    )
    first = space.mask(state)
    first[:] = 0
    assert space.mask(state).sum() == 9


@given(st.sampled_from(gr.bundled_rulesets()))
def test_every_bundled_ruleset_has_a_space_of_the_formula(name: str) -> None:
    rules = gr.load_ruleset(name)
    space = action_space(rules)
    slots, seats = rules.slots, rules.players.max
    block_sizes = {  # the module's table of the blocks of rule 11
        "peek": slots,
        "peek_at": seats * slots,
        "swap": slots * seats * slots,
        "pass": 1,
        "knock": 1,
    }
    extra = sum(block_sizes[block] for block in extra_blocks(rules))
    assert space.size == 4 * slots + 2 * pile_count(rules) + 2 + extra
    if not (rules.compiled.knowledge or rules.compiled.knock or rules.compiled.powers):
        assert extra == 0  # a ruleset of rules 1-10 keeps its space
