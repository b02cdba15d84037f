"""The Gymnasium environment passes Gymnasium's environment checker and plays whole games."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gnoming_rules as gr
from gnoming_rules.adapters.gymnasium_env import ENV_ID, GnomingGymEnv


@pytest.mark.parametrize(("name", "bots"), [("quick", "greedy"), ("no-bounce", "random")])
def test_gymnasiums_env_checker_passes(name: str, bots: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures here
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(GnomingGymEnv(name, 3, seat=1, bots=bots, render_mode="ansi"))  # type: ignore[arg-type]


def test_the_registered_id_makes_the_environment() -> None:
    env = gymnasium.make(ENV_ID, ruleset="quick", players=3, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    assert isinstance(env.unwrapped, GnomingGymEnv)


def test_an_episode_is_a_game_and_returns_minus_the_seats_total() -> None:
    env = GnomingGymEnv("standard", 4, seat=2)
    observation, info = env.reset(seed=9)
    rng = np.random.default_rng(9)
    total = info["reward_before_first_move"]
    while True:
        assert env.table.state.actor == 2
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, _ = env.step(rng.choice(legal))
        total += float(reward)
        if terminated or truncated:
            break
    assert terminated and env.table.state.is_over
    assert total == -env.table.state.totals[2]
    assert not observation["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = GnomingGymEnv("quick", 3, illegal_reward=-50.0)
    env.reset(seed=1)
    before = env.table.state
    _, reward, terminated, truncated, info = env.step(env.table.space.draw)  # setup: reveal
    assert (reward, terminated, truncated) == (-50.0, True, False)
    assert info["illegal_action"] and "wrong-phase" in info["refusal"]
    assert env.table.state == before


def test_the_same_seed_plays_the_same_bots_and_cards() -> None:
    first, second = GnomingGymEnv("quick", 3), GnomingGymEnv("quick", 3)
    a, _ = first.reset(seed=3)
    b, _ = second.reset(seed=3)
    assert np.array_equal(a["observation"], b["observation"])
    assert first.table.state == second.table.state
    second.reset(seed=4)
    assert first.table.state != second.table.state


def test_a_seat_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="seat 3"):
        GnomingGymEnv("quick", 3, seat=3)
    with pytest.raises(gr.GnomingError, match="bad-setup"):
        GnomingGymEnv("quick", 2)
