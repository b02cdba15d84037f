"""A Gymnasium environment: one seat plays against the library's bots.

``GnomingGymEnv(ruleset="standard", players=4, seat=0, bots="greedy")`` is a
single-agent ``gymnasium.Env``. The agent plays ``seat``; every other seat is a bundled
bot (a name of :data:`gnoming_rules.play.bots.BOTS`: ``"greedy"``, ``"random"`` or
``"search"``) drawing its choices from the environment's generator, as do the deals and
reshuffles. Observations, actions and
rewards are those of the PettingZoo environment for that seat: a dictionary with the
flat ``"observation"`` and the ``"action_mask"``; ``Discrete(n)`` actions; minus the
seat's round score when a round ends. An episode ends with the game (``terminated``) or
at ``move_limit`` player moves (``truncated``). An illegal action ends the episode at
once with ``illegal_reward`` and ``info["illegal_action"]`` set, as PettingZoo's
classic games do.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

from ..extras import missing_extra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as missing:  # a clear missing-extra error, not a bare ModuleNotFoundError
    raise missing_extra(missing, "rl") from None

from ..core.errors import IllegalMove
from ..core.ruleset import Ruleset
from ..play.bots import Bot, BotKind, make_bot
from ..play.observation import observe
from ..play.render import describe_turn, draw_table
from .encoding import Encoder
from .table import DEFAULT_MOVE_LIMIT, Table, action_number, resolve_ruleset

__all__ = ["ENV_ID", "GnomingGymEnv"]

Observation = dict[str, np.ndarray[Any, Any]]


class GnomingGymEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of Gnoming A Round against bots (see the module)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        ruleset: Ruleset | str = "standard",
        players: int = 4,
        *,
        seat: int = 0,
        bots: BotKind = "greedy",
        render_mode: str | None = None,
        move_limit: int = DEFAULT_MOVE_LIMIT,
        illegal_reward: float = -100.0,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: use 'ansi', 'human' or None")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        self.render_mode = render_mode
        self.ruleset = resolve_ruleset(ruleset)
        self.table = Table(self.ruleset, players, move_limit)
        self.encoder = Encoder(self.ruleset, players)
        self.seat = seat
        self.bot_kind: BotKind = bots
        self.illegal_reward = illegal_reward
        size = self.table.space.size
        self.observation_space: spaces.Dict = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        self.action_space: spaces.Discrete = spaces.Discrete(size)
        self._bots: list[Bot] = []
        self._over = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game, played by the bots up to the agent's first move."""
        super().reset(seed=seed)
        if seed is not None or not self._bots:
            self.table.rng = random.Random(int(self.np_random.integers(2**63)))
        choices = random.Random(self.table.rng.getrandbits(64))
        self._bots = [make_bot(self.bot_kind, choices) for _ in range(self.table.players)]
        first = None if options is None else options.get("first_player")
        self.table.reset(None, first)
        self._over = False
        reward = self._bots_play()
        return self._observation(), {"reward_before_first_move": reward}

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's ``action``, then the bots' moves until the agent's next turn.

        ``action`` must be an integer of the space (a Python or NumPy integer); anything
        else (a bool, a float, a string) raises ``AssertionError``, as Gymnasium's own
        environments do."""
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        table = self.table
        number = action_number(action, table.space.size)
        if number is None:  # as Gymnasium's own environments refuse an action
            raise AssertionError(f"{action!r} ({type(action)}) invalid")
        try:
            ended = table.play(number)
        except IllegalMove as refusal:
            self._over = True
            info = {"illegal_action": True, "refusal": str(refusal)}
            return self._observation(), self.illegal_reward, True, False, info
        reward = 0.0 if ended is None else float(-ended[self.seat])
        reward += self._bots_play()
        terminated, truncated = table.state.is_over, table.truncated
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, {}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The agent's legal actions now, as booleans (all false once the episode is over):
        what sb3-contrib's ``MaskablePPO`` asks the environment for."""
        state = self.table.state
        if state.actor != self.seat or self._over:
            return np.zeros(self.table.space.size, dtype=bool)
        return self.table.space.mask(state).astype(bool)

    def _bots_play(self) -> float:
        """Let the bots move until the agent's turn or the end; the agent's reward meanwhile."""
        table, space, seat = self.table, self.table.space, self.seat
        reward = 0.0
        while not table.state.is_over and not table.truncated:
            actor = table.state.actor
            if actor == seat:
                break
            assert actor is not None
            move = self._bots[actor].choose(self.ruleset, observe(table.state, actor))
            ended = table.play(space.action(move))
            if ended is not None:
                reward -= ended[seat]
        return reward

    def _observation(self) -> Observation:
        state = self.table.state
        view = self.encoder.encode_state(state, self.seat)
        if state.actor == self.seat and not self._over:
            mask = self.table.space.mask(state)
        else:
            mask = np.zeros(self.table.space.size, dtype=np.int8)
        return {"observation": view, "action_mask": mask}

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


ENV_ID = "gnoming_rules/Gnoming-v0"
"""The id under which the environment is registered: ``gymnasium.make(ENV_ID, ...)``."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:GnomingGymEnv")
