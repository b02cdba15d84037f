"""A bot that plans with information-set Monte Carlo tree search, :class:`IsmctsBot`.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over the deciding
seat's information sets, its edges the moves as that seat sees them (a draw from the
deck is one edge, whatever card it turns up). Each iteration samples one world the
observation cannot rule out (:func:`~gnoming_rules.play.worlds.sample_world`), walks the
tree down it (every seat's moves, chance events drawn as they come), choosing among the
moves legal in that world by UCB1 with availability counts, adds one node (a node
expands once it has :data:`EXPAND_AFTER` visits), and plays the round out with the
greedy habit (:class:`~gnoming_rules.play.playout.Playout`). A round's value for a seat
is the others' average score less its own (in the game's last round, its total's lead on
the best other total), scaled by :data:`SCALE`; every node on the path is credited with
the value of the seat that moved into it. The move played is the root's most visited.

The budget is ``iterations`` a decision: a bot built with the same ``seed`` makes the
same choices. As the determinized search does, it picks a reveal or a flip at random (a
card nobody has seen: nothing to plan) and plays a lone legal move without a search.
"""

from __future__ import annotations

import math
import random

from ..core.engine import apply, legal_moves, sample_chance
from ..core.errors import UsageError
from ..core.moves import PlayerMove
from ..core.ruleset import Ruleset
from ..core.state import Phase, State
from .observation import Observation
from .playout import Playout
from .worlds import sample_world, unseen

__all__ = ["EXPAND_AFTER", "SCALE", "IsmctsBot"]

EXPAND_AFTER = 10
"""Visits a node (other than the root) has before its moves are tried in the tree: until
then the playout plays on from it by the greedy habit, so that a move is first judged by
sensible play after it, not by random moves."""

SCALE = 20.0
"""Points of a round's value that count as 1 in UCB1 (a round's spread is about that)."""


class _Node:
    """A node of the tree: the seat that moved into it, its visits, availability, value."""

    __slots__ = ("available", "children", "mover", "value", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.available = 1
        self.value = 0.0
        self.children: dict[PlayerMove, _Node] = {}


class IsmctsBot:
    """Single-observer ISMCTS over the round (see the module).

    ``IsmctsBot(seed=1, iterations=200)``: ``iterations`` sampled worlds a decision;
    ``exploration`` is UCB1's constant.
    """

    def __init__(
        self, seed: int | None = None, *, iterations: int = 200, exploration: float = 0.25
    ) -> None:
        if iterations < 1 or exploration < 0:
            raise UsageError("bad-setup", "an ISMCTS bot needs iterations >= 1, exploration >= 0")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.exploration = exploration
        self._models: dict[int, Playout] = {}

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """The root's most visited move after :attr:`iterations` iterations."""
        moves = legal_moves(ruleset, observation)
        seat = observation.actor
        if len(moves) == 1 or seat is None:
            return moves[0]
        if observation.phase is Phase.REVEAL or observation.phase is Phase.FLIP:
            return self.rng.choice(moves)
        rules = ruleset.compiled
        model = self._models.get(id(rules))
        if model is None:
            model = self._models[id(rules)] = Playout(ruleset)
        unknown = model.unseen_worth(unseen(ruleset, observation))
        scores = observation.scores
        rounds = len(scores)
        totals = tuple(sum(column) for column in zip(*scores, strict=True)) or (0,) * len(
            observation.layouts
        )
        last = rounds + 1 >= rules.rounds
        root = _Node(seat)
        rng = self.rng
        for _ in range(self.iterations):
            state = sample_world(ruleset, observation, rng)
            node, path = root, [root]
            while True:
                if state.is_over or len(state.scores) > rounds:
                    break  # the round is scored
                if state.is_chance:
                    if state.phase is Phase.DEAL:
                        break
                    state = apply(ruleset, state, sample_chance(ruleset, state, rng))
                    continue
                if node is not root and node.visits < EXPAND_AFTER:
                    break  # too few visits to tell its moves apart: the playout's habit
                legal = legal_moves(ruleset, state)
                mover = state.to_move
                untried = [move for move in legal if move not in node.children]
                if untried:
                    move = rng.choice(untried)
                    child = node.children[move] = _Node(mover)
                    state = apply(ruleset, state, move)
                    path.append(child)
                    break
                best, best_score = legal[0], -math.inf
                for move in legal:
                    child = node.children[move]
                    child.available += 1
                    score = child.value / child.visits + self.exploration * math.sqrt(
                        math.log(child.available) / child.visits
                    )
                    if score > best_score:
                        best, best_score = move, score
                node = node.children[best]
                state = apply(ruleset, state, best)
                path.append(node)
            values = self._values(ruleset, model, state, rounds, unknown, totals, last, rng)
            for visited in path[1:]:
                visited.visits += 1
                visited.value += values[visited.mover]
        return max(root.children.items(), key=lambda item: item[1].visits)[0]

    @staticmethod
    def _values(  # noqa: PLR0917 (one decision's shared values, passed on)
        ruleset: Ruleset,
        model: Playout,
        state: State,
        rounds: int,
        unknown: float,
        totals: tuple[int, ...],
        last: bool,
        rng: random.Random,
    ) -> list[float]:
        """Every seat's value of the round played out from ``state``, over :data:`SCALE`."""
        while state.is_chance and not state.is_over and len(state.scores) == rounds:
            state = apply(ruleset, state, sample_chance(ruleset, state, rng))  # a reshuffle
        if len(state.scores) > rounds:
            scores = state.scores[rounds]
        else:
            scores = model.run(state, unknown, rng)
        players = len(scores)
        if last:
            ends = [total + score for total, score in zip(totals, scores, strict=True)]
            return [
                (min(ends[:seat] + ends[seat + 1 :]) - ends[seat]) / SCALE
                for seat in range(players)
            ]
        whole = sum(scores)
        return [
            ((whole - scores[seat]) / (players - 1) - scores[seat]) / SCALE
            for seat in range(players)
        ]
