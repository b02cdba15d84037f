"""The one game loop: chance events from a generator, a decision per seat, each step told.

Every driver of a game runs through here: :func:`~gnoming_rules.play.bots.play_game`, the
Hypothesis games of :mod:`gnoming_rules.testing`, the paired games of
:mod:`gnoming_rules.corpus.impact`, a server table's bots and deals, and the RL
environments' table. :func:`step` makes one move: the chance event due (a deal or a
reshuffle, :func:`~gnoming_rules.core.engine.sample_chance` from the generator that
``chance`` gives), or the decision of the seat to move (``decide``; ``None`` when the loop
is not that seat's to play: a person, a learner). :func:`play_out` repeats it until the
game is over, a decision is declined or :class:`StopGame` is raised, ``until`` says stop,
or ``limit`` moves were made, telling ``hook(before, move, after)`` each move (a recorder,
a log). :func:`seat_bots` is the decision of bots seeing only their seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Protocol, TypeAlias

from ..core.engine import apply, sample_chance
from ..core.moves import Move, PlayerMove
from ..core.ruleset import Ruleset
from ..core.state import State
from .observation import Observation, observe

__all__ = [
    "MOVE_LIMIT",
    "Bot",
    "Chance",
    "Decide",
    "Hook",
    "StopGame",
    "play_out",
    "seat_bots",
    "step",
]

MOVE_LIMIT = 100_000
"""A game that runs longer than this many moves is stopped as an error (no bot loops forever)."""


class Bot(Protocol):
    """Anything that picks a legal move for the seat to act, from what that seat sees."""

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """One of ``legal_moves(ruleset, observation)``; ``observation`` is the seat to
        move's own (``observe(state, state.to_move)``)."""
        ...


class StopGame(Exception):  # noqa: N818 (a request to stop, not an error)
    """Raised by a seat's player (a person who quits) to end the game where it stands:
    :func:`play_out` returns the state before that decision (and
    :func:`~gnoming_rules.play.bots.play_game` the record so far, valid and incomplete)."""


Chance: TypeAlias = random.Random | Callable[[State], random.Random]
"""Where chance events come from: one generator, or the generator for the state at hand
(paired games draw each round's deal and reshuffles from streams of their own)."""
Decide: TypeAlias = Callable[[State], PlayerMove | None]
"""The move of the seat to move in a state, or ``None`` when the loop does not play it."""
Hook: TypeAlias = Callable[[State, Move, State], None]
"""Told every move made: the state before, the move, the state after."""


def step(
    ruleset: Ruleset, state: State, chance: Chance, decide: Decide
) -> tuple[Move, State] | None:
    """One move and the state after it: the chance event due, drawn from ``chance``, or
    the seat to move's ``decide``; ``None`` when the game is over or ``decide`` declines."""
    if state.is_over:
        return None
    move: Move | None
    if state.is_chance:
        rng = chance if isinstance(chance, random.Random) else chance(state)
        move = sample_chance(ruleset, state, rng)
    else:
        move = decide(state)
        if move is None:
            return None
    return move, apply(ruleset, state, move)


def play_out(
    ruleset: Ruleset,
    state: State,
    chance: Chance,
    decide: Decide,
    *,
    hook: Hook | None = None,
    until: Callable[[State], bool] | None = None,
    limit: int | None = MOVE_LIMIT,
    too_long: Callable[[State], Exception] | None = None,
) -> State:
    """Play from ``state`` with :func:`step` and return where it stopped: the end, a
    declined decision or a :class:`StopGame`, a state that ``until`` accepts (asked before
    each move), or after ``limit`` moves (``None``: no limit), where ``too_long(state)``,
    when given, is raised instead."""
    made = 0
    while limit is None or made < limit:
        if until is not None and until(state):
            return state
        try:
            stepped = step(ruleset, state, chance, decide)
        except StopGame:
            return state
        if stepped is None:
            return state
        move, after = stepped
        if hook is not None:
            hook(state, move, after)
        state = after
        made += 1
    if too_long is not None:
        raise too_long(state)
    return state


def seat_bots(ruleset: Ruleset, bots: Mapping[int, Bot], default: Bot | None = None) -> Decide:
    """The decision of the seat to move's bot (``bots[seat]``, else ``default``) from its
    own observation; declined for a seat with neither."""

    def decide(state: State) -> PlayerMove | None:
        seat = state.to_move
        bot = bots.get(seat, default)
        if bot is None:
            return None
        return bot.choose(ruleset, observe(state, seat))

    return decide
