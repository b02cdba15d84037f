"""The PettingZoo AEC environment passes PettingZoo's own tests, and plays the referee's game.

``api_test`` and ``seed_test`` run on the standard rules and four variants, three seats
and short runs, to keep the suite fast.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import gnoming_rules as gr
from gnoming_rules.adapters.encoding import Encoder
from gnoming_rules.adapters.pettingzoo_env import GnomingEnv, env, raw_env
from gnoming_rules.play.observation import observe

VARIANTS = ["standard", "quick", "no-bounce", "gentle-hazards", "end-on-empty-deck"]


@pytest.mark.parametrize("name", VARIANTS)
def test_pettingzoos_api_test_passes(name: str) -> None:
    with warnings.catch_warnings():
        # api_test warns that a dict observation is "not a NumPy array": the classic
        # games' {"observation", "action_mask"} convention, which it expects.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        api_test(env(name, 3), num_cycles=150)


@pytest.mark.parametrize("name", VARIANTS)
def test_pettingzoos_seed_test_passes(name: str) -> None:
    seed_test(lambda: env(name, 3), num_cycles=100)


def random_game(game: GnomingEnv, seed: int) -> dict[str, float]:
    """Play a whole game with uniformly random legal actions; each agent's return."""
    rng = random.Random(seed)
    game.reset(seed=seed)
    returns = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        returns[agent] += reward
        assert observation is not None
        if terminated or truncated:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(legal[rng.randrange(len(legal))]))
    return returns


def test_a_game_returns_minus_each_seats_total() -> None:
    game = raw_env("standard", 4)
    returns = random_game(game, seed=3)
    final = game.table.state
    assert final.is_over and len(final.scores) == 3
    assert returns == {f"player_{seat}": -total for seat, total in enumerate(final.totals)}


def test_rewards_come_when_a_round_ends() -> None:
    game = raw_env("standard", 3)
    game.reset(seed=1)
    rng = random.Random(1)
    rounds = 0
    for agent in game.agent_iter():
        _, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        mask = game.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask)
        game.step(int(legal[rng.randrange(len(legal))]))
        state = game.table.state
        if len(state.scores) > rounds:
            rounds = len(state.scores)
            scores = state.scores[-1]
            assert game.rewards == {f"player_{s}": float(-scores[s]) for s in range(3)}
        else:
            assert set(game.rewards.values()) <= {0.0}
    assert rounds == 3


def test_the_observation_is_the_seats_view_and_the_mask_the_actors() -> None:
    game = raw_env("standard", 3)
    game.reset(seed=7)
    state = game.table.state
    encoder = Encoder(game.ruleset, 3)
    for seat, agent in enumerate(game.possible_agents):
        seen = game.observe(agent)
        assert np.array_equal(seen["observation"], encoder.encode(observe(state, seat)))
        if seat == state.actor:
            assert np.array_equal(seen["action_mask"], game.space.mask(state))
        else:
            assert not seen["action_mask"].any()
    assert game.agent_selection == f"player_{state.actor}"


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    first, second = raw_env("quick", 3), raw_env("quick", 3)
    first.reset(seed=11)
    second.reset(seed=11)
    assert first.table.state == second.table.state
    second.reset(seed=12)
    assert first.table.state != second.table.state
    second.reset(seed=12, options={"first_player": 2})
    assert second.table.state.turn == 2


def test_a_long_game_is_truncated_at_the_move_limit() -> None:
    game = raw_env("standard", 3, move_limit=20)
    random_game(game, seed=2)
    assert game.table.moves == 20 and not game.table.state.is_over
    assert game.agents == []


def test_render_draws_the_table_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    game = raw_env("quick", 3, render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    assert text is not None
    assert text.splitlines()[0].split() == ["seat", "0", "seat", "1", "seat", "2"]
    assert text.endswith("to reveal a face-down card (setup)")
    shown = raw_env("quick", 3, render_mode="human")
    shown.reset(seed=4)
    assert shown.render() is None
    assert capsys.readouterr().out.rstrip("\n") == text
    assert raw_env("quick", 3).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("quick", 3, render_mode="rgb_array")


def test_an_illegal_action_is_refused_by_the_referee() -> None:
    game = env("standard", 3)
    game.reset(seed=5)
    with pytest.raises(gr.IllegalMove) as refused:
        game.step(game.unwrapped.space.draw)  # setup: a card must be revealed first
    assert refused.value.code == "wrong-phase"
