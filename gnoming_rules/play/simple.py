"""The simple bots: :class:`RandomBot`, :class:`GreedyBot` and the greedy estimate.

A bot sees what its seat sees and nothing more: it is handed the seat's
:class:`~gnoming_rules.play.observation.Observation` (``choose(ruleset, observation)``), never
the referee's state, so no bot can peek at a face-down card or the draw pile. It picks
one of ``legal_moves(ruleset, observation)`` (the same moves as on the full state), so it
can never make an illegal move either. :class:`RandomBot` picks uniformly.
:class:`GreedyBot` keeps a card when that lowers its *estimated* score: the score of its
layout with every face-down card counted at the deck's average value and kept out of sets.
Neither looks ahead; they exist to produce realistic records, not to play well. The
search bot's playout model (:mod:`~gnoming_rules.play.playout`) plays by the greedy
bot's habit, so this module imports neither it nor the registry of bots
(:data:`~gnoming_rules.play.bots.BOTS`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.cards import Face
from ..core.engine import apply, legal_moves
from ..core.moves import Bounce, Discard, Draw, Knock, Pass, Peek, Place, PlayerMove
from ..core.ruleset import Ruleset
from ..core.scoring import card_points, score_visible
from ..core.state import Phase, State
from .observation import Observation, stand_in

__all__ = ["GreedyBot", "RandomBot", "average_card", "estimate", "worst_unknown"]


class RandomBot:
    """Picks uniformly among the legal moves."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """A uniformly random legal move."""
        return self.rng.choice(legal_moves(ruleset, observation))


class GreedyBot:
    """Keeps a card when it lowers the estimated score of the layout; else discards it.

    Draws a discard pile's top card when its best legal play (as the engine's
    ``legal_moves`` offers it after the draw) would lower the estimate by more than
    :attr:`take_margin`; otherwise draws from the draw pile. Reveals and flips at
    random (it cannot know what lies face down). As a round drags on, a face-down card
    is counted a little higher each turn (:attr:`impatience`), so that the bots end up
    turning their cards up and going out rather than swapping high cards forever.
    """

    take_margin = 1.0
    impatience = 0.25
    """Added to a face-down card's estimate per turn beyond 8 turns per player."""
    patience_limit = 24
    """Turns per player after which a face-down card is counted worse than any card, so
    that every keepable card goes face down's way and the round ends, whatever the deck's
    values (house rules with huge negative penalties make the average card worth less than
    any impatience could add)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._round = -1
        self._turns = 0
        self._unknown = 0.0
        self._overdue = False

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """The move that lowers the estimated score most; ties go to the first found."""
        moves = legal_moves(ruleset, observation)
        phase = observation.phase
        if phase is Phase.DRAW:
            self._count_turn(ruleset, observation)
            knock = next((move for move in moves if isinstance(move, Knock)), None)
            if knock is not None and self._knocks(ruleset, observation):
                return knock
            return self._draw(ruleset, stand_in(observation), self._layout(observation), moves)
        if phase is Phase.PLACE or phase is Phase.BOUNCE:
            return self._keep_or_discard(ruleset, observation, moves)
        if phase is Phase.POWER:
            return self._use_power(moves)
        return self.rng.choice(moves)

    def _knocks(self, ruleset: Ruleset, observation: Observation) -> bool:
        """Knock (rule 11.5) when the layout as this seat knows it is worth less than a
        third of an average hand, or once the round has gone on for eight laps."""
        hand = observation.own_layout
        average = average_card(ruleset) * len(hand)
        mine = estimate(ruleset, hand)
        return mine <= average / 3 or self._turns > 8

    def _use_power(self, moves: Sequence[PlayerMove]) -> PlayerMove:
        """A power (rule 11.4): a peek, at random among those offered; a swap, never blind
        (pass where passing is allowed, else the first swap offered)."""
        peeks = [move for move in moves if isinstance(move, Peek)]
        if peeks:
            return self.rng.choice(peeks)
        passes = [move for move in moves if isinstance(move, Pass)]
        return passes[0] if passes else moves[0]

    def _layout(self, observation: Observation) -> tuple[Face | None, ...]:
        """The seat's layout as the estimate counts it: a face-down card the seat knows
        (rule 11.1) at its value until the round is overdue, then as face down, so that
        impatience turns it up too (a round without a knock ends only when every card is
        face up, and a known low card would otherwise stay face down for ever)."""
        layout = observation.own_layout
        if not self._overdue:
            return layout
        seat = observation.seat
        assert seat is not None  # own_layout refuses a spectator's observation
        return tuple(
            None if observation.is_known(seat, slot) else card for slot, card in enumerate(layout)
        )

    def _count_turn(self, ruleset: Ruleset, observation: Observation) -> None:
        if observation.round != self._round:
            self._round, self._turns = observation.round, 0
        self._turns += 1
        overdue = max(0, self._turns - 8 * observation.players)
        self._overdue = overdue > 0
        self._unknown = average_card(ruleset) + self.impatience * overdue
        if self._turns > self.patience_limit * observation.players:
            self._unknown = max(self._unknown, worst_unknown(ruleset))

    def _estimate(self, ruleset: Ruleset, shown: Sequence[Face | None]) -> float:
        return estimate(ruleset, shown, unknown=self._unknown)

    def _draw(
        self,
        ruleset: Ruleset,
        seen: State,
        layout: tuple[Face | None, ...],
        moves: Sequence[PlayerMove],
    ) -> PlayerMove:
        """Take a discard pile's top when its best *legal* play gains more than the margin.

        What the taken card may do is asked of the engine (the state after the draw and
        its legal moves), so a mulligan at the limit of rule 7.2, which may only replace
        a face-up mulligan, is worth nothing here; valuing it as if it could go anywhere
        made two bots hand a mulligan back and forth for ever. With no draw pile to fall
        back on, the best discard draw is taken whatever it gains. ``seen`` is the
        observation's :func:`~gnoming_rules.play.observation.stand_in`: a card taken from a
        discard pile is public, so the engine can say what it may do.
        """
        now = self._estimate(ruleset, layout)
        from_deck: PlayerMove | None = None
        best: tuple[float, PlayerMove] | None = None
        for move in moves:
            if not isinstance(move, Draw):
                continue
            if move.pile is None:
                from_deck = move
                continue
            gain = now - self._best_play(ruleset, apply(ruleset, seen, move), layout)
            if best is None or gain > best[0]:
                best = (gain, move)
        if from_deck is not None and (best is None or best[0] <= self.take_margin):
            return from_deck
        assert best is not None  # a turn begins only with something to draw (rule 8.7)
        return best[1]

    def _best_play(self, ruleset: Ruleset, seen: State, layout: tuple[Face | None, ...]) -> float:
        """The lowest estimate the held card reaches by one legal play (or a legal discard)
        on ``layout``, the seat's layout as :meth:`_layout` counts it."""
        held = seen.held
        assert held is not None
        best = float("inf")
        for move in legal_moves(ruleset, seen):
            if isinstance(move, Place):
                best = min(best, self._estimate(ruleset, _placed(layout, move.slot, held)))
            elif isinstance(move, Discard):
                best = min(best, self._estimate(ruleset, layout))
        return best

    def _keep_or_discard(
        self, ruleset: Ruleset, observation: Observation, moves: Sequence[PlayerMove]
    ) -> PlayerMove:
        layout = self._layout(observation)
        held = observation.held
        assert held is not None
        discards = [move for move in moves if isinstance(move, Discard)]
        best_score = self._estimate(ruleset, layout) if discards else float("inf")
        best: PlayerMove | None = self.rng.choice(discards) if discards else None
        for move in moves:
            if isinstance(move, Place | Bounce):
                score = self._estimate(ruleset, _placed(layout, move.slot, held))
                if score < best_score:
                    best_score, best = score, move
        assert best is not None
        return best


def estimate(
    ruleset: Ruleset, shown: Sequence[Face | None], *, unknown: float | None = None
) -> float:
    """The score of a layout as a seat shows it (``None`` for a face-down card), with each
    face-down card counted at ``unknown`` (default: the deck's average card).

    The face-up cards score as :func:`~gnoming_rules.core.scoring.score_visible` scores them
    (a line with a face-down card is no set: a set can only form from cards one sees),
    and each face-down card adds ``unknown``.
    """
    down = sum(1 for card in shown if card is None)
    worth = average_card(ruleset) if unknown is None else unknown
    return score_visible(ruleset, shown) + down * worth


def average_card(ruleset: Ruleset) -> float:
    """The average score of one card of the deck, alone in a layout (no sets)."""
    rules = ruleset.compiled
    return sum(card_points(rules, card) for card in rules.deck) / len(rules.deck)


def worst_unknown(ruleset: Ruleset) -> float:
    """A worth for a face-down card above any card's: replacing it with any card, or any
    face-up card with it, always looks like a gain (the card values' spread above the
    highest card, so sets cannot outweigh it)."""
    points = [card_points(ruleset.compiled, card) for card in ruleset.compiled.deck]
    high, low = max(points), min(points)
    return float(high + 2 * (high - low) + 1)


def _placed(layout: Sequence[Face | None], slot: int, card: Face) -> tuple[Face | None, ...]:
    return (*layout[:slot], card, *layout[slot + 1 :])
