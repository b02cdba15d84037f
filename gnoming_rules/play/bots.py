"""Bots that play whole games, and :func:`play_game`, which records what they play.

A bot sees what its seat sees and nothing more: it is handed the seat's
:class:`~gnoming_rules.play.observation.Observation` (``choose(ruleset, observation)``), never
the referee's state, so no bot can peek at a face-down card or the draw pile. It picks
one of ``legal_moves(ruleset, observation)`` (the same moves as on the full state), so it
can never make an illegal move either. :class:`RandomBot` picks uniformly.
:class:`GreedyBot` keeps a card when that lowers its *estimated* score: the score of its
layout with every face-down card counted at the deck's average value and kept out of sets.
Neither looks ahead; they exist to produce realistic records, not to play well.
:class:`~gnoming_rules.play.search.SearchBot` plans (determinized Monte Carlo search
over the round, from its observation alone). :data:`BOTS` names them all.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Literal, Protocol

from ..core.cards import Face
from ..core.engine import apply, legal_moves, new_game, sample_chance
from ..core.errors import UsageError
from ..core.moves import Bounce, Discard, Draw, Move, Place, PlayerMove
from ..core.ruleset import Ruleset
from ..core.scoring import card_points, score_visible
from ..core.state import Phase, State
from ..formats.record import Record
from .observation import Observation, observe, stand_in
from .recorder import Recorder

BotKind = Literal["random", "greedy", "search"]

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus")
"""Default player names (labels only)."""

MOVE_LIMIT = 100_000
"""A game that runs longer than this many moves is stopped as an error (no bot loops forever)."""


class Bot(Protocol):
    """Anything that picks a legal move for the seat to act, from what that seat sees."""

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """One of ``legal_moves(ruleset, observation)``; ``observation`` is the seat to
        move's own (``observe(state, state.to_move)``)."""
        ...


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

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """The move that lowers the estimated score most; ties go to the first found."""
        moves = legal_moves(ruleset, observation)
        phase = observation.phase
        if phase is Phase.DRAW:
            self._count_turn(ruleset, observation)
            return self._draw(ruleset, stand_in(observation), moves)
        if phase is Phase.PLACE or phase is Phase.BOUNCE:
            return self._keep_or_discard(ruleset, observation, moves)
        return self.rng.choice(moves)

    def _count_turn(self, ruleset: Ruleset, observation: Observation) -> None:
        if observation.round != self._round:
            self._round, self._turns = observation.round, 0
        self._turns += 1
        overdue = max(0, self._turns - 8 * observation.players)
        self._unknown = average_card(ruleset) + self.impatience * overdue
        if self._turns > self.patience_limit * observation.players:
            self._unknown = max(self._unknown, worst_unknown(ruleset))

    def _estimate(self, ruleset: Ruleset, shown: Sequence[Face | None]) -> float:
        return estimate(ruleset, shown, unknown=self._unknown)

    def _draw(self, ruleset: Ruleset, seen: State, moves: Sequence[PlayerMove]) -> PlayerMove:
        """Take a discard pile's top when its best *legal* play gains more than the margin.

        What the taken card may do is asked of the engine (the state after the draw and
        its legal moves), so a mulligan at the limit of rule 7.2, which may only replace
        a face-up mulligan, is worth nothing here; valuing it as if it could go anywhere
        made two bots hand a mulligan back and forth for ever. With no draw pile to fall
        back on, the best discard draw is taken whatever it gains. ``seen`` is the
        observation's :func:`~gnoming_rules.play.observation.stand_in`: a card taken from a
        discard pile is public, so the engine can say what it may do.
        """
        now = self._estimate(ruleset, seen.visible_layout(seen.turn))
        from_deck: PlayerMove | None = None
        best: tuple[float, PlayerMove] | None = None
        for move in moves:
            if not isinstance(move, Draw):
                continue
            if move.pile is None:
                from_deck = move
                continue
            gain = now - self._best_play(ruleset, apply(ruleset, seen, move))
            if best is None or gain > best[0]:
                best = (gain, move)
        if from_deck is not None and (best is None or best[0] <= self.take_margin):
            return from_deck
        assert best is not None  # a turn begins only with something to draw (rule 8.7)
        return best[1]

    def _best_play(self, ruleset: Ruleset, seen: State) -> float:
        """The lowest estimate the held card reaches by one legal play (or a legal discard)."""
        layout = seen.visible_layout(seen.turn)
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
        layout = observation.own_layout
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


SEARCH_SIMULATIONS = 200
"""The playouts a decision of the registry's ``search`` bot runs: a budget in playouts, so
that a seeded game replays exactly (about what 50 ms a decision ran on a loaded 2-core
machine with the compiled core: benchmarks/bots.py measures it)."""


def _search_bot(rng: random.Random) -> Bot:
    from .search import SearchBot  # the search module imports this one: loaded when used

    return SearchBot(seed=rng.getrandbits(64), simulations=SEARCH_SIMULATIONS)


BOTS: Mapping[str, Callable[[random.Random], Bot]] = MappingProxyType(
    {"random": RandomBot, "greedy": GreedyBot, "search": _search_bot}
)
"""The bots by name, each made from the generator it draws its choices from: the one
registry that ``gnoming play --bot``, ``gnoming impact --bots``, the Gymnasium
environment's ``bots`` and a server's bot seats read. ``search`` is
:class:`~gnoming_rules.play.search.SearchBot` with :data:`SEARCH_SIMULATIONS` a move."""


def make_bot(kind: BotKind, rng: random.Random) -> Bot:
    """A bot of ``kind`` (a name of :data:`BOTS`) drawing its choices from ``rng``."""
    maker = BOTS.get(kind)
    if maker is None:
        raise ValueError(f"unknown bot {kind!r}: {', '.join(BOTS)}")
    return maker(rng)


class StopGame(Exception):  # noqa: N818 (a request to stop, not an error)
    """Raised by a seat's player (a person who quits) to end the game where it stands:
    :func:`play_game` then returns the record so far, valid and incomplete."""


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
    agents: Mapping[int, Bot] | None = None,
    watch: Callable[[Move, State], None] | None = None,
) -> tuple[Record, State]:
    """Play a whole game with bots and return its record and the final state.

    Everything follows from ``seed``: the seat that starts (unless ``first_player`` is
    given), every deal and reshuffle and every bot choice. ``rounds`` stops after that
    many rounds (an incomplete record); by default the game is played to the end.
    ``agents`` gives some seats a player of their own (a person at the terminal, another
    bot) instead of ``bot``; one that raises :class:`StopGame` ends the game there.
    ``watch(move, after)`` is told every move as it is made (to show the game as it goes).

    Example::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.play import play_game
        >>> from gnoming_rules.referee import validate_record
        >>> rules = gr.load_ruleset("standard")
        >>> record, final = play_game(rules, players=3, seed=7)
        >>> record.players, len(record.rounds), final.is_over
        (['Ana', 'Bo', 'Cy'], 3, True)
        >>> verdict = validate_record(record)
        >>> verdict.valid, verdict.totals == final.totals
        (True, True)
    """
    chance = random.Random(seed)
    choices = random.Random(chance.getrandbits(64))
    seats = list(names) if names is not None else default_names(players)
    start = first_player if first_player is not None else chance.randrange(players)
    state = new_game(ruleset, players, start)
    recorder = Recorder(ruleset, seats, start, ruleset_ref=ruleset_ref, claims=claims)
    agent = make_bot(bot, choices)
    own = dict(agents or {})
    stop_after = ruleset.compiled.rounds if rounds is None else rounds
    for _ in range(MOVE_LIMIT):
        if state.is_over or (state.phase is Phase.DEAL and state.round >= stop_after):
            return recorder.record(), state
        move: Move
        if state.is_chance:
            move = sample_chance(ruleset, state, chance)
        else:
            seat = state.to_move
            try:
                move = own.get(seat, agent).choose(ruleset, observe(state, seat))
            except StopGame:
                return recorder.record(), state
        state = apply(ruleset, state, move)
        recorder.add(move, state)
        if watch is not None:
            watch(move, state)
    raise UsageError(
        "bot-stuck",
        f"seed {seed}: the game did not end within {MOVE_LIMIT} moves (stopped in round "
        f"{state.round}; some variants allow a round that no legal move can end)",
    )


def default_names(players: int) -> list[str]:
    """``Ana``, ``Bo``, ... for the first seven seats, then ``P8``, ``P9``, ..."""
    return [NAMES[seat] if seat < len(NAMES) else f"P{seat + 1}" for seat in range(players)]


__all__ = [
    "BOTS",
    "Bot",
    "BotKind",
    "GreedyBot",
    "RandomBot",
    "play_game",
]
