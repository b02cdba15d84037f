"""A bot that searches its turn: information-set Monte Carlo tree search from its view.

:class:`SearchBot` decides from what its seat sees and nothing more. Each simulation
draws a world the observation cannot rule out (:func:`~gnoming_rules.play.worlds.sample_world`:
the unseen cards spread over the face-down slots and the draw pile) and walks the tree
of the seat's own choices for the rest of its turn in that world: the draw, the play,
each bounce, the discard, a flip. The tree's nodes are the seat's information sets
within the turn (its moves and the cards they showed it: the card it drew, the card a
play turned up), so no node depends on a card the seat has not seen; each move's
statistics count the simulations in which it was legal (ISMCTS's availability counts),
and moves are picked by UCB. The move played is the root's most visited one.

Where the turn ends, the layout is scored as the seat sees it:
:func:`~gnoming_rules.play.bots.estimate` with each face-down card counted at the average
of the cards the seat has not seen (so the bot counts cards: a draw pile known to be
rich in high cards makes a face-down card worth more), and the going-out bonus or
penalty (rule 8.6) when the turn goes out, against the others' estimates. A round that
ends within the turn scores as the rules score it.

Strength, measured by ``benchmarks/bots.py`` (docs/decisions.md): it wins every game
against random bots, and loses to the greedy bot (a win rate of about 0.22 at three
seats, where an equal seat wins 0.33): searching one turn with this evaluation does not
yet make up for the greedy bot's habit of ending rounds.

The budget is ``simulations`` per move, or ``milliseconds`` per move (whichever ends
first when both are given). With a budget of simulations alone, a bot built with the
same ``seed`` makes the same choices; a time budget depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..core.cards import Face
from ..core.engine import apply, legal_moves, sample_chance
from ..core.errors import UsageError
from ..core.moves import Flip, PlayerMove, Reveal
from ..core.ruleset import Ruleset
from ..core.scoring import card_points
from ..core.state import State
from .bots import estimate
from .observation import Observation
from .worlds import sample_world, unseen

__all__ = ["SearchBot"]


class _Edge:
    """One move of a node: its visits, summed value, availability, and the nodes it led
    to, by the card it showed."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[Face | None, _Node] = {}


class _Node:
    """An information set of the searching seat within its turn: its moves so far and
    the cards they showed it."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[PlayerMove, _Edge] = {}


class SearchBot:
    """Information-set MCTS over the seat's turn (see the module).

    ``SearchBot(seed=1, simulations=100)``. ``exploration`` is the UCB constant;
    ``spread`` the points of score that make one unit of value (a move's value is the
    points it gains on the seat's estimate before it).
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        simulations: int | None = 100,
        milliseconds: float | None = None,
        exploration: float = 0.5,
        spread: float = 10.0,
    ) -> None:
        if simulations is None and milliseconds is None:
            raise UsageError(
                "bad-setup", "a search bot needs a budget: simulations or milliseconds"
            )
        if (simulations is not None and simulations < 1) or (
            milliseconds is not None and milliseconds <= 0
        ):
            raise UsageError("bad-setup", "a search bot's budget must be positive")
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.milliseconds = milliseconds
        self.exploration = exploration
        self.spread = spread
        self.last_simulations = 0
        """How many simulations the last decision ran (0: a forced move, no search)."""
        self._unknown = 0.0
        self._base = 0.0

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """The root's most visited move after the budget's simulations."""
        moves = legal_moves(ruleset, observation)
        seat = observation.actor
        if len(moves) == 1 or seat is None:
            self.last_simulations = 0
            return moves[0]
        limit = self.milliseconds
        deadline = None if limit is None else time.perf_counter() + limit / 1000
        rules = ruleset.compiled
        hidden = unseen(ruleset, observation)
        self._unknown = (
            sum(card_points(rules, card) for card in hidden) / len(hidden) if hidden else 0.0
        )
        self._base = estimate(ruleset, observation.layouts[seat], unknown=self._unknown)
        root = _Node()
        done = 0
        while self.simulations is None or done < self.simulations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            world = sample_world(ruleset, observation, self.rng)
            self._simulate(ruleset, root, world, seat)
            done += 1
        self.last_simulations = done
        edges = root.edges
        return max(moves, key=lambda move: (edges[move].visits, edges[move].total))

    def _simulate(self, ruleset: Ruleset, root: _Node, world: State, seat: int) -> None:
        """One simulation: down the tree for the rest of the seat's turn, one new node."""
        rng, rounds = self.rng, len(world.scores)
        path: list[_Edge] = []
        node: _Node | None = root
        state = world
        while node is not None and state.actor == seat:
            edge, move = self._select(node, legal_moves(ruleset, state), rng)
            path.append(edge)
            state = apply(ruleset, state, move)
            while state.is_chance and len(state.scores) == rounds:  # a reshuffle
                state = apply(ruleset, state, sample_chance(ruleset, state, rng))
            if len(state.scores) > rounds:
                break
            shown = _shown(state, move, seat)
            node = edge.children.get(shown)
            if node is None:  # expand one node per simulation
                edge.children[shown] = _Node()
        if len(state.scores) > rounds:
            value = self._value(state.scores[rounds], seat)
        else:
            value = self._value(self._marks(ruleset, state, seat), seat)
        for edge in path:
            edge.visits += 1
            edge.total += value

    def _select(
        self, node: _Node, moves: Sequence[PlayerMove], rng: random.Random
    ) -> tuple[_Edge, PlayerMove]:
        """UCB over the moves legal in this world, each counted as available; a move not
        yet tried first."""
        edges = node.edges
        fresh: list[PlayerMove] = []
        for move in moves:
            edge = edges.get(move)
            if edge is None:
                edge = edges[move] = _Edge()
            edge.available += 1
            if not edge.visits:
                fresh.append(move)
        if fresh:
            move = rng.choice(fresh)
            return edges[move], move
        c = self.exploration
        best, chosen = -math.inf, moves[0]
        for move in moves:
            edge = edges[move]
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best:
                best, chosen = score, move
        return edges[chosen], chosen

    def _marks(self, ruleset: Ruleset, state: State, seat: int) -> list[float]:
        """The seat's estimated score where its turn ends, beside the others' (only the
        seat's own and, when someone went out, every seat's are needed)."""
        unknown = self._unknown
        if state.went_out is None:
            marks = [0.0] * state.players
            marks[seat] = estimate(ruleset, state.visible_layout(seat), unknown=unknown)
            return marks
        marks = [
            estimate(ruleset, state.visible_layout(other), unknown=unknown)
            for other in range(state.players)
        ]
        out, rules = state.went_out, ruleset.compiled
        if out == seat:
            rest = [mark for other, mark in enumerate(marks) if other != out]
            lowest = marks[out] <= min(rest) if rest else True
            marks[out] += rules.going_out_bonus if lowest else rules.going_out_penalty
        return marks

    def _value(self, marks: Sequence[float], seat: int) -> float:
        """The seat's score (lower better) as a value, higher better: the points it gains
        on its estimate before the move, ``spread`` points to one unit."""
        return (self._base - marks[seat]) / self.spread


def _shown(state: State, move: PlayerMove, seat: int) -> Face | None:
    """The card ``move`` showed its seat: the card now held (drawn or displaced), or the
    card a reveal or flip turned up."""
    if isinstance(move, Reveal | Flip):
        return state.cards[seat][move.slot]
    return state.held
