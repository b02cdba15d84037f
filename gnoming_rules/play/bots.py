"""Bots that play whole games, and :func:`play_game`, which records what they play.

A bot picks one of :func:`~gnoming_rules.core.engine.legal_moves`, so it can never make an
illegal move. :class:`RandomBot` picks uniformly. :class:`GreedyBot` keeps a card when
that lowers its *estimated* score: the score of its layout with every face-down card
counted at the deck's average value and kept out of sets. Neither looks ahead; they
exist to produce realistic records, not to play well.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal, Protocol

from ..core.cards import Face
from ..core.engine import apply, legal_moves, new_game, sample_chance
from ..core.errors import GnomingError
from ..core.moves import Bounce, Discard, Draw, Move, Place, PlayerMove
from ..core.ruleset import Ruleset
from ..core.scoring import score_visible
from ..core.state import Phase, State
from ..formats.record import Record
from .recorder import Recorder

BotKind = Literal["random", "greedy"]

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus")
"""Default player names (labels only)."""

MOVE_LIMIT = 100_000
"""A game that runs longer than this many moves is stopped as an error (no bot loops forever)."""


class Bot(Protocol):
    """Anything that picks a legal move for the seat to act."""

    def choose(self, ruleset: Ruleset, state: State) -> PlayerMove:
        """One of ``legal_moves(ruleset, state)``."""
        ...


class RandomBot:
    """Picks uniformly among the legal moves."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, ruleset: Ruleset, state: State) -> PlayerMove:
        """A uniformly random legal move."""
        return self.rng.choice(legal_moves(ruleset, state))


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

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._round = -1
        self._turns = 0
        self._unknown = 0.0

    def choose(self, ruleset: Ruleset, state: State) -> PlayerMove:
        """The move that lowers the estimated score most; ties go to the first found."""
        moves = legal_moves(ruleset, state)
        phase = state.phase
        if phase is Phase.DRAW:
            self._count_turn(ruleset, state)
            return self._draw(ruleset, state, moves)
        if phase is Phase.PLACE or phase is Phase.BOUNCE:
            return self._keep_or_discard(ruleset, state, moves)
        return self.rng.choice(moves)

    def _count_turn(self, ruleset: Ruleset, state: State) -> None:
        if state.round != self._round:
            self._round, self._turns = state.round, 0
        self._turns += 1
        overdue = max(0, self._turns - 8 * state.players)
        self._unknown = average_card(ruleset) + self.impatience * overdue

    def _estimate(self, ruleset: Ruleset, cards: Sequence[Face], face_up: int) -> float:
        return estimate(ruleset, cards, face_up, unknown=self._unknown)

    def _draw(self, ruleset: Ruleset, state: State, moves: Sequence[PlayerMove]) -> PlayerMove:
        """Take a discard pile's top when its best *legal* play gains more than the margin.

        What the taken card may do is asked of the engine (the state after the draw and
        its legal moves), so a mulligan at the limit of rule 7.2, which may only replace
        a face-up mulligan, is worth nothing here; valuing it as if it could go anywhere
        made two bots hand a mulligan back and forth for ever. With no draw pile to fall
        back on, the best discard draw is taken whatever it gains.
        """
        seat = state.turn
        now = self._estimate(ruleset, state.cards[seat], state.face_up[seat])
        from_deck: PlayerMove | None = None
        best: tuple[float, PlayerMove] | None = None
        for move in moves:
            if not isinstance(move, Draw):
                continue
            if move.pile is None:
                from_deck = move
                continue
            gain = now - self._best_play(ruleset, apply(ruleset, state, move))
            if best is None or gain > best[0]:
                best = (gain, move)
        if from_deck is not None and (best is None or best[0] <= self.take_margin):
            return from_deck
        assert best is not None  # a turn begins only with something to draw (rule 8.7)
        return best[1]

    def _best_play(self, ruleset: Ruleset, state: State) -> float:
        """The lowest estimate the held card reaches by one legal play (or a legal discard)."""
        seat = state.turn
        layout, up = state.cards[seat], state.face_up[seat]
        held = state.held
        assert held is not None
        best = float("inf")
        for move in legal_moves(ruleset, state):
            if isinstance(move, Place):
                slot = move.slot
                best = min(
                    best, self._estimate(ruleset, _placed(layout, slot, held), up | 1 << slot)
                )
            elif isinstance(move, Discard):
                best = min(best, self._estimate(ruleset, layout, up))
        return best

    def _keep_or_discard(
        self, ruleset: Ruleset, state: State, moves: Sequence[PlayerMove]
    ) -> PlayerMove:
        seat = state.turn
        layout, up = state.cards[seat], state.face_up[seat]
        held = state.held
        assert held is not None
        discards = [move for move in moves if isinstance(move, Discard)]
        best_score = self._estimate(ruleset, layout, up) if discards else float("inf")
        best: PlayerMove | None = self.rng.choice(discards) if discards else None
        for move in moves:
            if isinstance(move, Place | Bounce):
                slot = move.slot
                score = self._estimate(ruleset, _placed(layout, slot, held), up | 1 << slot)
                if score < best_score:
                    best_score, best = score, move
        assert best is not None
        return best


def estimate(
    ruleset: Ruleset, cards: Sequence[Face], face_up: int, *, unknown: float | None = None
) -> float:
    """The layout's score with each face-down card counted at ``unknown`` (default: the
    deck's average card).

    The face-up cards score as :func:`~gnoming_rules.core.scoring.score_visible` scores them
    (a line with a face-down card is no set: a set can only form from cards one sees),
    and each face-down card adds ``unknown``.
    """
    shown = [card if face_up >> slot & 1 else None for slot, card in enumerate(cards)]
    down = len(cards) - face_up.bit_count()
    worth = average_card(ruleset) if unknown is None else unknown
    return score_visible(ruleset, shown) + down * worth


def average_card(ruleset: Ruleset) -> float:
    """The average score of one card of the deck, alone in a layout (no sets)."""
    deck = ruleset.deck
    total = sum(face * copies for face, copies in deck.numbers.items())
    total += deck.hazards * ruleset.hazard.penalty
    total += deck.mulligans * ruleset.mulligan.unmatched_value
    return total / deck.size


def _placed(layout: Sequence[Face], slot: int, card: Face) -> tuple[Face, ...]:
    return (*layout[:slot], card, *layout[slot + 1 :])


def make_bot(kind: BotKind, rng: random.Random) -> Bot:
    """A bot of ``kind`` (``random`` or ``greedy``) drawing its choices from ``rng``."""
    if kind == "random":
        return RandomBot(rng)
    if kind == "greedy":
        return GreedyBot(rng)
    raise ValueError(f"unknown bot {kind!r}: random or greedy")


def play_game(
    ruleset: Ruleset,
    players: int,
    *,
    seed: int,
    bot: BotKind = "greedy",
    names: Sequence[str] | None = None,
    first_player: int | None = None,
    ruleset_ref: str | dict[str, object] | None = None,
    claims: bool = True,
    rounds: int | None = None,
) -> tuple[Record, State]:
    """Play a whole game with bots and return its record and the final state.

    Everything follows from ``seed``: the seat that starts (unless ``first_player`` is
    given), every deal and reshuffle and every bot choice. ``rounds`` stops after that
    many rounds (an incomplete record); by default the game is played to the end.
    """
    chance = random.Random(seed)
    choices = random.Random(chance.getrandbits(64))
    seats = list(names) if names is not None else default_names(players)
    start = first_player if first_player is not None else chance.randrange(players)
    state = new_game(ruleset, players, start)
    recorder = Recorder(ruleset, seats, start, ruleset_ref=ruleset_ref, claims=claims)
    agent = make_bot(bot, choices)
    stop_after = ruleset.rounds if rounds is None else rounds
    for _ in range(MOVE_LIMIT):
        if state.is_over or (state.phase is Phase.DEAL and state.round >= stop_after):
            return recorder.record(), state
        move: Move = (
            sample_chance(ruleset, state, chance)
            if state.is_chance
            else agent.choose(ruleset, state)
        )
        state = apply(ruleset, state, move)
        recorder.add(move, state)
    raise GnomingError(
        "bot-stuck",
        f"seed {seed}: the game did not end within {MOVE_LIMIT} moves (stopped in round "
        f"{state.round}; some variants allow a round that no legal move can end)",
    )


def default_names(players: int) -> list[str]:
    """``Ana``, ``Bo``, ... for the first seven seats, then ``P8``, ``P9``, ..."""
    return [NAMES[seat] if seat < len(NAMES) else f"P{seat + 1}" for seat in range(players)]


__all__ = [
    "Bot",
    "BotKind",
    "GreedyBot",
    "RandomBot",
    "play_game",
]
