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

``env()`` makes the checks of PettingZoo's usual wrappers itself (:class:`CheckedGnomingEnv`);
``raw_env()`` skips them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from ..extras import missing_extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.env import AECIterable, AECIterator
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as missing:  # a clear missing-extra error, not a bare ModuleNotFoundError
    raise missing_extra(missing, "rl") from None

from ..core.ruleset import Ruleset
from ..play.render import describe_turn, draw_table
from .encoding import Encoder
from .table import DEFAULT_MOVE_LIMIT, Table, action_number, resolve_ruleset

__all__ = ["CheckedGnomingEnv", "GnomingEnv", "env", "raw_env"]

Observation = dict[str, np.ndarray[Any, Any]]


class GnomingEnv(AECEnv):  # type: ignore[misc]
    """Gnoming A Round as a PettingZoo AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "gnoming_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }
    _ready_before_reset: ClassVar[bool] = True
    """The raw environment has agents, rewards and a selected agent from the start."""

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
        self._view_bytes = self.encoder.fast.encode
        self.space = self.table.space
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
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
        self._cumulative_rewards = dict.fromkeys(self.possible_agents, 0.0)
        if self._ready_before_reset:
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
        view = np.frombuffer(self._view_bytes(state, seat), np.float32)  # encode_state's
        mask = self.space.mask(state) if state.actor == seat else self._no_moves.copy()
        return {"observation": view, "action_mask": mask}

    def action_masks(self, agent: str | None = None) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions of ``agent`` (default: the selected one) as booleans: the
        observation's ``"action_mask"``, for learners that ask the environment for it."""
        return self.observe(agent or self.agent_selection)["action_mask"].astype(bool)

    def step(self, action: int | None) -> None:
        """The selected agent plays ``action`` (``None`` once it is terminated or truncated):
        an integer of the action space (a Python or NumPy integer; a bool, a float, a
        string or bytes is refused with ``bad-action``, never read as a number)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        ended = table.play(action)
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


_SET_BY_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)
"""What ``OrderEnforcingWrapper`` refuses to read before ``reset``."""


class CheckedGnomingEnv(GnomingEnv):
    """What :func:`env` returns: the environment making the checks of PettingZoo's
    ``OrderEnforcingWrapper`` and ``AssertOutOfBoundsWrapper`` itself, with their errors
    and messages (the test suite compares the two).

    Those wrappers reach the environment through a ``__getattr__`` of each at every read
    of an attribute, which about doubled the time of a step: here a step reads two flags.
    Before ``reset``, reading an attribute that ``reset`` sets raises ``AttributeError``,
    and ``step``, ``observe``, ``render``, ``state`` and ``agent_iter`` raise
    ``AssertionError``; an action outside the space raises ``AssertionError``; a step
    once every agent is done is logged as a warning and ignored; and a loop over
    ``agent_iter`` must step (or reset) at each agent.
    """

    _ready_before_reset: ClassVar[bool] = False
    _has_reset: bool = False
    """``reset`` was called (set on the instance from then on)."""
    _has_updated: bool = False
    """The environment stepped or was reset since ``agent_iter`` last gave an agent."""

    def __getattr__(self, name: str) -> Any:
        """Reached only for a missing attribute: before ``reset``, those it sets."""
        if name in _SET_BY_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """As :meth:`GnomingEnv.reset`; from now on the environment may be used."""
        self._has_reset = True
        self._has_updated = True
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> Observation:
        """As :meth:`GnomingEnv.observe`, once reset."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return super().observe(agent)

    def step(self, action: int | None) -> None:
        """As :meth:`GnomingEnv.step`, once reset, for an action of the space (or ``None``
        for a finished agent)."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        if not (type(action) is int and 0 <= action < self.space.size):  # else as the wrapper
            agent = self.agent_selection
            finished = self.terminations[agent] or self.truncations[agent]
            if not (action is None and finished) and action_number(action, self.space.size) is None:
                raise AssertionError("action is not in action space")
        super().step(action)

    def render(self) -> str | None:
        """As :meth:`GnomingEnv.render`, once reset."""
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> np.ndarray[Any, Any]:
        """PettingZoo's global state, which this environment does not define (a seat's
        view is all an agent gets)."""
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """As :meth:`GnomingEnv.agent_iter`, once reset; each agent must step (or the
        environment reset) before the next one comes."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _CheckedAgentIterable(self, max_iter)


class _CheckedAgentIterable(AECIterable):  # type: ignore[misc]
    def __iter__(self) -> Iterator[str]:
        return _CheckedAgentIterator(self.env, self.max_iter)


class _CheckedAgentIterator(AECIterator):  # type: ignore[misc]
    """``AECOrderEnforcingIterator``'s loop (a class, not a generator: as it, it raises
    again at the next call after a missed step, and does not stop)."""

    def __next__(self) -> str:
        game: CheckedGnomingEnv = self.env
        if not game.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        agent = game.agent_selection
        if not game._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        game._has_updated = False
        return agent


def raw_env(
    ruleset: Ruleset | str = "standard",
    players: int = 4,
    *,
    render_mode: str | None = None,
    move_limit: int = DEFAULT_MOVE_LIMIT,
) -> GnomingEnv:
    """The environment without PettingZoo's checks (the fastest): usable before
    ``reset`` (a game not yet dealt) and trusting its caller."""
    return GnomingEnv(ruleset, players, render_mode=render_mode, move_limit=move_limit)


def env(
    ruleset: Ruleset | str = "standard",
    players: int = 4,
    *,
    render_mode: str | None = None,
    move_limit: int = DEFAULT_MOVE_LIMIT,
) -> CheckedGnomingEnv:
    """The environment with the checks of PettingZoo's usual wrappers for classic games.

    It refuses an action outside the space and steps out of order, as
    ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(raw_env(...)))`` would, without their
    cost (:class:`CheckedGnomingEnv`); an illegal action still raises the referee's
    :class:`~gnoming_rules.errors.IllegalMove`.
    """
    return CheckedGnomingEnv(ruleset, players, render_mode=render_mode, move_limit=move_limit)
