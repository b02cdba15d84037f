"""The Gymnasium environment passes Gymnasium's environment checker and plays whole games."""

from __future__ import annotations

import warnings
from collections.abc import Callable

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


@pytest.mark.parametrize(
    "action",
    [8.5, float("inf"), "8", b"8", True, np.bool_(True), np.array(8.0), np.array([8])],
    ids=repr,
)
def test_only_integers_of_the_space_are_actions(action: object) -> None:
    env = GnomingGymEnv("quick", 3)
    env.reset(seed=2)
    before = env.table.state
    with pytest.raises(AssertionError, match="invalid"):
        env.step(action)  # type: ignore[arg-type]
    assert env.table.state is before


@pytest.mark.parametrize("kind", [int, np.int64, np.int32, np.array])
def test_python_and_numpy_integers_are_actions(kind: Callable[[int], object]) -> None:
    env = GnomingGymEnv("quick", 3)
    env.reset(seed=2)
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, _, terminated, _, info = env.step(kind(legal))  # type: ignore[arg-type]
    assert not terminated and "illegal_action" not in info


def test_action_masks_follows_the_agents_turns() -> None:
    env = GnomingGymEnv("quick", 3, seat=1)
    observation, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    while True:
        mask = env.action_masks()
        assert mask.dtype == np.bool_
        assert np.array_equal(mask, observation["action_mask"].astype(bool)) and mask.any()
        observation, _, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(mask)))
        if terminated or truncated:
            break
    assert not env.action_masks().any()
