"""A PettingZoo AEC environment: one agent per seat, in PettingZoo's classic-games style.

``env(ruleset="standard", players=4)`` plays one game of Gnoming A Round. The agents are
``player_0`` ... ``player_{n-1}``, one per seat. Each observation is a dictionary, as
in PettingZoo's classic games: ``"observation"``, the seat's view of the table as a flat
vector (:class:`~gnoming_rules.adapters.encoding.Encoder`, built from
:func:`~gnoming_rules.observation.observe`: nothing a player could not see), and
``"action_mask"``, 1 for each legal action of the
:class:`~gnoming_rules.adapters.actions.ActionSpace` (all zeros for a seat not to move).

Rewards come from round scores: when a round ends, each seat gets minus its score for
the round, so a game's return is minus the seat's total and the winner has the highest
return. Deals and reshuffles are drawn from the environment's generator, seeded by
``reset(seed=...)``; the first seat is drawn from it too. A game longer than
``move_limit`` player moves is truncated. ``render()`` draws the referee's table as text
(``render_mode="ansi"`` returns it, ``"human"`` prints it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from ..core.ruleset import Ruleset
from ..play.render import describe_turn, draw_table
from .encoding import Encoder
from .table import DEFAULT_MOVE_LIMIT, Table, resolve_ruleset

__all__ = ["GnomingEnv", "env", "raw_env"]

Observation = dict[str, np.ndarray[Any, Any]]


class GnomingEnv(AECEnv):  # type: ignore[misc]
    """Gnoming A Round as a PettingZoo AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "gnoming_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        ruleset: Ruleset | str = "standard",
        players: int = 4,
        *,
        render_mode: str | None = None,
        move_limit: int = DEFAULT_MOVE_LIMIT,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: use 'human', 'ansi' or None")
        self.render_mode = render_mode
        self.ruleset = resolve_ruleset(ruleset)
        self.table = Table(self.ruleset, players, move_limit)
        self.encoder = Encoder(self.ruleset, players)
        self.space = self.table.space
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        view = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        mask = spaces.Box(0, 1, (self.space.size,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": view, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.space.size) for agent in self.possible_agents
        }
        self._no_moves = np.zeros(self.space.size, dtype=np.int8)
        self._begin()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same dictionary space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(n)``: the ruleset's actions (``ActionSpace.names`` says what each is)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds every deal, reshuffle and the first seat.

        ``options={"first_player": k}`` fixes the seat that starts instead.
        """
        first = None if options is None else options.get("first_player")
        self.table.reset(seed, first)
        self._begin()

    def _begin(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        actor = self.table.state.actor
        self.agent_selection = self.possible_agents[0 if actor is None else actor]

    def observe(self, agent: str) -> Observation:
        """``agent``'s view: the flat vector and the legal-action mask."""
        seat = self._seats[agent]
        state = self.table.state
        view = self.encoder.encode_state(state, seat)
        mask = self.space.mask(state) if state.actor == seat else self._no_moves.copy()
        return {"observation": view, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent plays ``action`` (``None`` once it is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        ended = table.play(action if type(action) is int else int(action))
        if ended is not None:
            rewards = self.rewards
            for other, seat in self._seats.items():
                rewards[other] = float(-ended[seat])
            self._accumulate_rewards()
            self._rewarded = True
        elif self._rewarded:  # last step paid a round's scores: this one pays nothing
            rewards = self.rewards
            for other in rewards:
                rewards[other] = 0.0
            self._rewarded = False
        state = table.state
        actor = state.actor
        if actor is not None:  # a seat moves, so the game is not over
            self.agent_selection = self.possible_agents[actor]
            if table.moves >= table.move_limit:  # table.truncated
                self.truncations = dict.fromkeys(self.agents, True)
        elif state.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif table.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        if self.render_mode == "human":
            self.render()

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """Yields the selected agent while any is left, as ``AECEnv.agent_iter``; its
        iterator is a generator, cheaper at each step than PettingZoo's iterator class."""
        return _AgentIterable(self, max_iter)

    def render(self) -> str | None:
        """The referee's table as text (face-down cards in parentheses)."""
        if self.render_mode is None:
            return None
        state = self.table.state
        text = "\n".join([*draw_table(self.ruleset, state), describe_turn(state)])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class _AgentIterable(AECIterable):  # type: ignore[misc]
    """PettingZoo's ``AECIterable``, each iteration a generator (see ``agent_iter``)."""

    def __iter__(self) -> Iterator[str]:
        return _agents(self.env, self.max_iter)


def _agents(game: GnomingEnv, remaining: int) -> Iterator[str]:
    """``AECIterator``'s loop: stop when no agent is left or after ``remaining`` steps."""
    while game.agents and remaining > 0:
        remaining -= 1
        yield game.agent_selection


def raw_env(
    ruleset: Ruleset | str = "standard",
    players: int = 4,
    *,
    render_mode: str | None = None,
    move_limit: int = DEFAULT_MOVE_LIMIT,
) -> GnomingEnv:
    """The environment without PettingZoo's checking wrappers (the fastest)."""
    return GnomingEnv(ruleset, players, render_mode=render_mode, move_limit=move_limit)


def env(
    ruleset: Ruleset | str = "standard",
    players: int = 4,
    *,
    render_mode: str | None = None,
    move_limit: int = DEFAULT_MOVE_LIMIT,
) -> AECEnv:
    """The environment inside PettingZoo's usual wrappers for classic games.

    They refuse an action outside the space and steps out of order; an illegal action
    still raises the referee's :class:`~gnoming_rules.errors.IllegalMove`.
    """
    from pettingzoo.utils import wrappers

    wrapped = wrappers.AssertOutOfBoundsWrapper(
        raw_env(ruleset, players, render_mode=render_mode, move_limit=move_limit)
    )
    return wrappers.OrderEnforcingWrapper(wrapped)
