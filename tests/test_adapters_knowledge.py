"""The learning adapters on rules of RULES §11: the action space numbers peek, swap, pass
and knock where a ruleset has them (and only there), the observation vector encodes the
cards a seat knows (both paths alike), and PettingZoo's ``api_test`` passes."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given
from test_adapters_encoding import check_view, segment
from test_observation_knowledge import KNOWING, dealt, knowing, knowing_states

import gnoming_rules as gr
from gnoming_rules.adapters.actions import action_space
from gnoming_rules.adapters.encoding import Encoder
from gnoming_rules.adapters.pettingzoo_env import env
from gnoming_rules.play.observation import observe
from gnoming_rules.testing import variant

STANDARD = gr.load_ruleset("standard")
ELEVEN = variant(
    STANDARD,
    {
        "layout": {"peek_at_start": 2},
        "round_end": {"knock": True},
        "powers": {"7": "peek_own", "8": "peek_other", "9": "swap_blind", "10": "look_and_swap"},
    },
)
"""A ruleset with every option of §11 that adds a move."""
CLASSIC = [name for name in gr.bundled_rulesets() if not gr.load_ruleset(name).compiled.knowledge]


@pytest.mark.parametrize("name", CLASSIC)
def test_rule_11_a_ruleset_without_the_new_moves_keeps_its_action_space(name: str) -> None:
    rules = gr.load_ruleset(name)
    space = action_space(rules)
    if rules.compiled.knock or rules.compiled.powers:
        pytest.skip("a knock or powers without knowledge: not §1-10")
    slots, piles = rules.compiled.slots, rules.compiled.piles
    assert space.size == 4 * slots + 2 * piles + 2 and space.blocks == ()
    assert space.hazard == space.size - 1


def test_rule_11_every_new_move_has_one_action_and_back() -> None:
    space = action_space(ELEVEN)
    slots, seats = ELEVEN.compiled.slots, ELEVEN.compiled.max_players
    assert [name for name, _ in space.blocks] == ["peek", "peek_at", "swap", "pass", "knock"]
    assert space.size == 42 + slots + seats * slots + slots * seats * slots + 2
    moves: list[gr.PlayerMove] = [
        gr.Peek(1, 4),
        gr.Peek(1, 3, 2),
        gr.Swap(1, 0, 2, 8),
        gr.Pass(1),
        gr.Knock(1),
    ]
    actions = [space.action(move) for move in moves]
    assert len(set(actions)) == len(actions)
    assert [space.move(1, action) for action in actions] == moves
    assert space.action(gr.Peek(1, 4, 1)) == space.action(gr.Peek(1, 4))  # oneself: own peek
    assert space.names[space.action(gr.Knock(0))] == "knock"
    for seat in (0, 2):
        for action in range(space.size):
            move = space.move(seat, action)
            if space.names[action].startswith(f"peek at seat {seat} "):
                # a peek at oneself is the plain peek: this action names a seat past the
                # table, which the engine refuses, so each legal move has one action
                assert isinstance(move, gr.Peek) and move.target == seats
                with pytest.raises(gr.GnomingError, match="bad-action"):
                    space.action(move)
            else:
                assert space.action(move) == action


def test_rule_11_a_ruleset_has_only_the_blocks_its_moves_need() -> None:
    knock_only = action_space(variant(STANDARD, {"round_end": {"knock": True}}))
    assert knock_only.blocks == (("knock", 42),) and knock_only.size == 43
    peeking = action_space(KNOWING[0])
    assert [name for name, _ in peeking.blocks] == ["peek"]
    with pytest.raises(gr.GnomingError) as refused:
        peeking.action(gr.Knock(0))
    assert refused.value.code == "bad-action"


@given(knowing_states())
def test_rule_11_1_the_vector_says_what_the_view_knows_on_both_paths(
    drawn: tuple[gr.Ruleset, gr.State],
) -> None:
    ruleset, state = drawn
    encoder = Encoder(ruleset, state.players)
    n = state.players
    for seat in range(n):
        view = observe(state, seat)
        vector = encoder.encode(view)
        check_view(encoder, view, vector)
        assert np.array_equal(encoder.encode_state(state, seat), vector)
        known = segment(encoder, vector, "known").reshape(n, -1)
        knowers = segment(encoder, vector, "knowers").reshape(n, -1, n)
        for offset in range(n):
            other = (seat + offset) % n
            for slot in range(len(state.cards[other])):
                assert known[offset][slot] == view.is_known(other, slot)
                mask = view.known[other][slot] if view.known else 0
                assert [int(x) for x in knowers[offset][slot]] == [
                    mask >> ((seat + k) % n) & 1 for k in range(n)
                ]


def test_rule_11_1_a_known_card_shows_its_face_and_is_marked_known() -> None:
    state = knowing(dealt(), 0, 2, 0b001)
    encoder = Encoder(KNOWING[0], 3)
    mine, theirs = encoder.encode_state(state, 0), encoder.encode_state(state, 1)
    f = len(encoder.faces)
    cells = segment(encoder, mine, "layouts").reshape(3, -1, f + 1)
    assert encoder.faces[cells[0][2].argmax()] == state.cards[0][2]
    assert segment(encoder, mine, "known").reshape(3, -1)[0][2] == 1
    other = segment(encoder, theirs, "layouts").reshape(3, -1, f + 1)
    assert other[2][2].argmax() == f  # seat 1 sees seat 0 (two seats on) face down
    assert segment(encoder, theirs, "knowers").reshape(3, -1, 3)[2][2].tolist() == [0, 0, 1]


def test_rule_11_the_phase_segment_of_rules_without_section_11_is_as_before() -> None:
    assert dict((name, n) for name, _, n in Encoder(STANDARD, 3).segments)["phase"] == 8
    assert dict((name, n) for name, _, n in Encoder(ELEVEN, 3).segments)["phase"] == 10


def test_rule_11_pettingzoos_api_test_passes_on_a_ruleset_of_section_11() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        from pettingzoo.test import api_test

        api_test(env(ELEVEN, 3), num_cycles=150)
    game = env(ELEVEN, 3)
    game.reset(seed=random.Random(4).getrandbits(32))
    observation = game.observe(game.agent_selection)
    assert observation["action_mask"].shape == (action_space(ELEVEN).size,)
