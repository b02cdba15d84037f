"""Gymnasium's episode is truncated exactly at ``move_limit`` player moves (the agent's and
the bots' together): never before, and the table stops there, the game unfinished."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gnoming_rules.adapters.gymnasium_env import GnomingGymEnv


def truncated_exactly_at_the_limit(limit: int, seed: int, seat: int) -> None:
    env = GnomingGymEnv("standard", 3, seat=seat, bots="random", move_limit=limit)
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    table = env.table
    assert table.moves < limit
    while True:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            break
        assert table.moves < limit, table.moves
    assert truncated and not terminated
    assert table.moves == limit and not table.state.is_over
    assert not observation["action_mask"].any()


def test_an_episode_is_truncated_at_the_move_limit() -> None:
    for limit in (10, 11, 25, 60):
        truncated_exactly_at_the_limit(limit, seed=3, seat=0)


@settings(max_examples=max(5, settings().max_examples // 10))
@given(st.integers(8, 120), st.integers(0, 2**16), st.integers(0, 2))
def test_truncation_is_exactly_at_the_move_limit(limit: int, seed: int, seat: int) -> None:
    truncated_exactly_at_the_limit(limit, seed, seat)
