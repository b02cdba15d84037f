"""One game driven by integer actions, with chance drawn from a seeded generator.

The PettingZoo and Gymnasium environments share this table: take a seat's action,
apply its move, then deal and reshuffle from the table's own ``random.Random`` until a
seat must move again (the one game loop, :func:`~gnoming_rules.play.loop.play_out`),
and report the scores of a round that just ended. Rewards come
from round scores: lower is better in this game, so a seat's reward for a round is
**minus its score** that round (the going-out bonus included, rule 8.6), paid when the
round ends; a whole game's return is minus the seat's total (docs/decisions.md).
"""

from __future__ import annotations

import random

import numpy as np

from ..core.engine import apply, new_game
from ..core.errors import UsageError
from ..core.ruleset import Ruleset
from ..core.state import State
from ..formats.rulesets import load_ruleset
from ..play.loop import play_out
from .actions import ActionSpace, action_space

__all__ = ["DEFAULT_MOVE_LIMIT", "Table", "action_number", "resolve_ruleset"]

DEFAULT_MOVE_LIMIT = 10_000
"""Player moves after which an environment truncates a game (random play needs about 500
for four seats under the standard rules; a game can in principle go on for ever)."""


def resolve_ruleset(ruleset: Ruleset | str) -> Ruleset:
    """``ruleset`` itself, or the bundled ruleset (or file) it names."""
    return ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)


def action_number(action: object, size: int) -> int | None:
    """``action`` as an ``int`` when it is an action of ``Discrete(size)``: a Python int
    (not a bool), a NumPy integer or a 0-d array of integers, from 0 to ``size - 1``;
    ``None`` for anything else (a float, a string, bytes, a bool, an array of floats).

    The one check of the environments: a learner's action is taken as it is, never
    converted (``int("8")`` or ``int(8.5)`` would make up an action it did not choose).
    """
    integer = (isinstance(action, int) and not isinstance(action, bool)) or (
        isinstance(action, np.integer | np.ndarray)
        and action.shape == ()
        and action.dtype.kind in "iu"
    )
    if not integer:
        return None
    number = int(action)  # type: ignore[call-overload]
    return number if 0 <= number < size else None


class Table:
    """A game in progress: its state, its chance generator and its move count."""

    def __init__(self, ruleset: Ruleset, players: int, move_limit: int) -> None:
        self.ruleset = ruleset
        self.players = players
        self.move_limit = move_limit
        self.space: ActionSpace = action_space(ruleset)
        new_game(ruleset, players)  # refuses a player count the ruleset does not seat
        self._seat_moves = tuple(self.space.seat_moves(seat) for seat in range(players))
        self.rng = random.Random()
        self.state: State = new_game(ruleset, players)
        self.moves = 0

    def reset(self, seed: int | None = None, first_player: int | None = None) -> State:
        """A new game, dealt: ``seed`` reseeds the generator (``None`` goes on with it).

        The first seat is drawn from the generator unless given (rule 2.2).
        """
        if seed is not None:
            self.rng = random.Random(seed)
        start = self.rng.randrange(self.players) if first_player is None else first_player
        self.moves = 0
        self.state = self._settle(new_game(self.ruleset, self.players, start))
        return self.state

    @property
    def truncated(self) -> bool:
        """The game reached the move limit before its end."""
        return self.moves >= self.move_limit and not self.state.is_over

    def play(self, action: object) -> tuple[int, ...] | None:
        """Apply the seat to move's ``action``; the scores of the round it ended, else ``None``.

        Raises ``bad-action`` for anything but an integer of the space
        (:func:`action_number`) and
        :class:`~gnoming_rules.errors.IllegalMove` for an illegal one.
        """
        state = self.state
        seat = state.actor
        if seat is None:
            raise UsageError("bad-action", "no seat moves: the game is over")
        rounds = len(state.scores)
        moves = self._seat_moves[seat]
        if type(action) is int and 0 <= action < len(moves):  # the fast path
            move = moves[action]
        else:
            number = action_number(action, len(moves))
            if number is None:
                raise UsageError(
                    "bad-action",
                    f"action {action!r} ({type(action).__name__}) is not an integer "
                    f"from 0 to {len(moves) - 1}",
                )
            move = moves[number]
        state = apply(self.ruleset, state, move)
        if state.is_chance:
            state = self._settle(state)
        self.state = state
        self.moves += 1
        if len(state.scores) == rounds:
            return None
        ended = state.scores[rounds:]
        return tuple(sum(scores[other] for scores in ended) for other in range(self.players))

    def _settle(self, state: State) -> State:
        """Apply chance events (deals, reshuffles) until a seat moves or the game is over:
        the one game loop, whose decisions here are the learners' (none of its own)."""
        return play_out(self.ruleset, state, self.rng, _learners, limit=None)


def _learners(_state: State) -> None:
    """A seat's move is the learner's action, which :meth:`Table.play` takes: declined."""
    return None
