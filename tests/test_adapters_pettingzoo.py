"""The PettingZoo AEC environment passes PettingZoo's own tests, and plays the referee's game.

``api_test`` and ``seed_test`` run on the standard rules and four variants, three seats
and short runs, to keep the suite fast.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import gnoming_rules as gr
from gnoming_rules.adapters.encoding import Encoder
from gnoming_rules.adapters.pettingzoo_env import GnomingEnv, env, raw_env
from gnoming_rules.play.observation import observe

VARIANTS = ["standard", "quick", "no-bounce", "gentle-hazards", "end-on-empty-deck"]
VARIANTS += ["four-card-golf", "cabo-like", "golf-6-house"]  # rule 11: peeks, powers, knocks


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


def test_every_observation_of_a_game_is_that_seats_view_of_that_state() -> None:
    """At every step of whole games, each agent's observation is the seat's own view of
    the state now (the encoder's slow path from ``observe``), the mask the legal actions
    of the seat to move only; an observation handed out earlier stays as it was."""
    game = raw_env("quick", 3)
    encoder = Encoder(game.ruleset, 3)
    rng = random.Random(4)
    kept: list[tuple[dict[str, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]] = []
    for seed in (1, 2):
        game.reset(seed=seed)
        for agent in game.agent_iter():
            state = game.table.state
            assert state.is_over or agent == f"player_{state.actor}"
            for seat, other in enumerate(game.possible_agents):
                seen = game.observe(other)
                assert np.array_equal(seen["observation"], encoder.encode(observe(state, seat)))
                mask = np.zeros(game.space.size, np.int8)
                if seat == state.actor:
                    mask[list(game.space.legal_actions(state))] = 1
                assert np.array_equal(seen["action_mask"], mask)
                if len(kept) < 300:
                    kept.append((seen, seen["observation"].copy(), mask))
            _, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            game.step(int(rng.choice(game.space.legal_actions(state))))
    for seen, view, mask in kept:
        assert np.array_equal(seen["observation"], view)
        assert np.array_equal(seen["action_mask"], mask)


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


def pettingzoos_wrappers(name: str, players: int) -> Any:
    """The raw environment inside the wrappers that ``env()`` stands in for."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(raw_env(name, players, render_mode="ansi"))
    )


def outcome(call: Callable[[], object]) -> tuple[str, str]:
    """What a call did: its error's type and message, or its result's type."""
    try:
        result = call()
    except (AttributeError, AssertionError, ValueError, NotImplementedError, gr.GnomingError) as e:
        return type(e).__name__, str(e)
    return "returned", type(result).__name__


# Each scenario drives one environment and says what each call did, in order.
Scenario = Callable[[Any], list[tuple[str, str]]]


def before_reset(game: Any) -> list[tuple[str, str]]:
    reads = [outcome(partial(getattr, game, name)) for name in sorted(READ_AFTER_RESET)]
    calls = [
        outcome(lambda: game.step(0)),
        outcome(lambda: game.observe("player_0")),
        outcome(game.render),
        outcome(game.state),
        outcome(game.agent_iter),
        outcome(game.last),
    ]
    return [*reads, *calls, outcome(lambda: game.possible_agents)]


def out_of_bounds(game: Any) -> list[tuple[str, str]]:
    game.reset(seed=3)
    size = game.unwrapped.space.size
    refused = [
        outcome(partial(game.step, action))
        for action in (size, -1, None, 1.5, "4", np.int64(size), np.array([4]))
    ]
    legal = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0])
    accepted = [outcome(lambda: game.step(np.int64(legal)))]
    illegal = [outcome(lambda: game.step(game.unwrapped.space.hazard))]  # not in setup
    return [*refused, *accepted, *illegal, outcome(game.state), outcome(game.render)]


def out_of_order(game: Any) -> list[tuple[str, str]]:
    game.reset(seed=4)
    agents = iter(game.agent_iter())
    said = [outcome(lambda: next(agents)), outcome(lambda: next(agents))]
    said.append(outcome(lambda: next(agents)))  # still refused: nothing stepped
    game.step(int(np.flatnonzero(game.last()[0]["action_mask"])[0]))
    return [*said, outcome(lambda: next(agents)), outcome(lambda: next(agents))]


def after_the_end(game: Any) -> list[tuple[str, str]]:
    from pettingzoo.utils.env_logger import EnvLogger

    game.reset(seed=5)
    rng = random.Random(5)
    for _ in game.agent_iter():
        _, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        legal = np.flatnonzero(game.last()[0]["action_mask"])
        game.step(int(legal[rng.randrange(len(legal))]))
    EnvLogger.flush()
    said = [outcome(lambda: game.step(None)), outcome(lambda: game.step(3))]
    warned = list(EnvLogger.mqueue)
    EnvLogger.flush()
    finished = outcome(lambda: list(game.agent_iter()))
    return [*said, *(("warned", message) for message in warned), finished]


@pytest.mark.parametrize("scenario", [before_reset, out_of_bounds, out_of_order, after_the_end])
def test_env_checks_as_pettingzoos_wrappers_do(scenario: Scenario) -> None:
    expected = scenario(pettingzoos_wrappers("quick", 3))
    assert scenario(env("quick", 3, render_mode="ansi")) == expected
    assert any(kind == "AssertionError" for kind, _ in expected) or scenario is after_the_end


def test_env_plays_as_the_wrapped_raw_env() -> None:
    """Step for step, the same observations, rewards and ends as the wrappers give."""
    native, wrapped = env("standard", 3), pettingzoos_wrappers("standard", 3)
    for game in (native, wrapped):
        game.reset(seed=8)
    rng = random.Random(8)
    steps = 0
    for agent, other in zip(native.agent_iter(), wrapped.agent_iter(), strict=True):
        assert agent == other
        mine, theirs = native.last(), wrapped.last()
        assert np.array_equal(mine[0]["observation"], theirs[0]["observation"])
        assert np.array_equal(mine[0]["action_mask"], theirs[0]["action_mask"])
        assert mine[1:] == theirs[1:]
        if mine[2] or mine[3]:
            action = None
        else:
            legal = np.flatnonzero(mine[0]["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
        native.step(action)
        wrapped.step(action)
        steps += 1
    assert native.agents == wrapped.agents == [] and steps > 100


def test_the_raw_env_is_usable_before_reset_and_the_checked_one_is_not() -> None:
    raw = raw_env("quick", 3)
    assert raw.agents == raw.possible_agents and raw.num_agents == 3
    checked = env("quick", 3)
    with pytest.raises(AttributeError, match="num_agents cannot be accessed before reset"):
        _ = checked.num_agents
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        _ = checked.nonsense
    checked.reset(seed=1)
    assert checked.num_agents == 3 and checked.unwrapped is checked
    assert str(checked) == str(pettingzoos_wrappers("quick", 3)) == "gnoming_v0"


def test_agent_iter_stops_after_max_iter_and_starts_again() -> None:
    """As PettingZoo's ``AECIterable``: each loop over it counts ``max_iter`` afresh."""
    for game in (raw_env("quick", 3), env("quick", 3)):
        game.reset(seed=2)
        agents = game.agent_iter(max_iter=2)
        for _ in range(2):
            seen = []
            for agent in agents:
                seen.append(agent)
                legal = np.flatnonzero(game.observe(agent)["action_mask"])
                game.step(int(legal[0]))
            assert len(seen) == 2


READ_AFTER_RESET = (
    "agents",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "agent_selection",
    "num_agents",
    "_cumulative_rewards",
)


def test_the_raw_env_refuses_numbers_outside_the_space_with_a_code() -> None:
    """``raw_env`` makes no wrapper's check, but the table still refuses what is no action."""
    game = raw_env("standard", 3)
    game.reset(seed=6)
    before = game.table.state
    for action in (42, -1, 10**20):
        with pytest.raises(gr.GnomingError) as refused:
            game.step(action)
        assert refused.value.code == "bad-action"
    assert game.table.state is before and game.table.moves == 0
    legal = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0])
    game.step(np.int64(legal))  # type: ignore[arg-type]
    assert game.table.moves == 1


NOT_ACTIONS: list[object] = [
    8.5,
    8.0,
    float("inf"),
    "8",
    b"8",
    True,
    False,
    np.bool_(True),
    np.float64(8.0),
    np.array(8.0),
    np.array("8"),
    np.array([8]),
]
"""Values a careless learner might pass that are no integer of the space: each refused,
never read as the number it looks like."""


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_only_integers_of_the_space_are_actions(action: object) -> None:
    raw, checked = raw_env("standard", 3), env("standard", 3)
    for game in (raw, checked):
        game.reset(seed=6)
    with pytest.raises(gr.GnomingError, match="bad-action") as refused:
        raw.step(action)  # type: ignore[arg-type]
    assert type(action).__name__ in str(refused.value)
    with pytest.raises(AssertionError, match="action is not in action space"):
        checked.step(action)  # type: ignore[arg-type]
    assert raw.table.moves == checked.table.moves == 0


@pytest.mark.parametrize("kind", [int, np.int64, np.int32, np.uint8, np.array])
def test_python_and_numpy_integers_are_actions(kind: Callable[[int], object]) -> None:
    for game in (raw_env("standard", 3), env("standard", 3)):
        game.reset(seed=6)
        legal = int(np.flatnonzero(game.action_masks())[0])
        game.step(kind(legal))  # type: ignore[arg-type]
        assert game.table.moves == 1


def test_action_masks_is_the_observations_mask_as_booleans() -> None:
    game = env("quick", 3)
    game.reset(seed=3)
    for agent in game.possible_agents:
        mask = game.action_masks(agent)
        assert mask.dtype == np.bool_
        assert np.array_equal(mask, game.observe(agent)["action_mask"].astype(bool))
    assert game.action_masks().any()  # the selected agent's
