"""A bot that plans: determinized Monte Carlo search from its seat's view, :class:`SearchBot`.

:class:`SearchBot` decides from what its seat sees and nothing more. For a decision it
draws worlds the observation cannot rule out
(:func:`~gnoming_rules.play.worlds.sample_world`: the unseen cards spread over the
face-down slots and the draw pile) and, in each world, tries every candidate move: the
engine applies the move, then :class:`~gnoming_rules.play.playout.Playout` plays the rest
of the round out, every seat by the greedy bot's habit, and the engine's scoring scores
it. A move's value is the round's score seen from the seat: the others' average score
less its own (the points it gains on the table), or in the game's last round how far it
ends ahead of the best other total. Every candidate is tried on the same worlds with the
same chance afterwards (common random numbers), so two moves are compared on the same
cards and the noise of the deal cancels out. The greedy bot's own move stands unless
another leads it, world by world, by more than ``confidence`` standard errors (a few
noisy playouts do not overturn it); a choice of discard pile, where the greedy bot has
no preference, goes to the best average.

Candidates: every legal draw and discard; of the plays and bounces, the ``candidates``
that gain most on the greedy estimate, none more than :data:`SPAN` points below the best
(the others are rarely best, and each costs a playout a world). A reveal or a flip turns
a card nobody has seen, so the bot picks one at random, as the greedy bot does. A
decision with one candidate left runs no playout.

The budget is ``simulations`` playouts per decision, or ``milliseconds`` per decision
(whichever ends first when both are given; at least one world is always searched, and
under a time budget no world is begun that would likely end after it). With
a budget of simulations alone, a bot built with the same ``seed`` makes the same
choices; a time budget depends on the machine's speed and load. Strength, measured by
``benchmarks/bots.py``: docs/decisions.md.
"""

from __future__ import annotations

import math
import random
import time
from typing import NamedTuple

from ..core.engine import apply, legal_moves, sample_chance
from ..core.errors import UsageError
from ..core.moves import Bounce, Draw, Place, PlayerMove
from ..core.ruleset import Ruleset
from ..core.state import Phase, State
from .observation import Observation, stand_in
from .playout import TAKE_MARGIN, Playout
from .worlds import sample_world, unseen

__all__ = ["SearchBot"]

SPAN = 6.0
"""Plays whose gain on the greedy estimate is more than this many points below the best
play's are not tried (placing a 12 over a face-up 1 is never the best move)."""


class SearchBot:
    """Determinized Monte Carlo search over the round (see the module).

    ``SearchBot(seed=1, simulations=200)``: ``simulations`` playouts a decision (or
    ``milliseconds`` a decision); ``candidates`` the plays and bounces tried.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        simulations: int | None = 200,
        milliseconds: float | None = None,
        candidates: int = 4,
        confidence: float = 1.0,
    ) -> None:
        if simulations is None and milliseconds is None:
            raise UsageError(
                "bad-setup", "a search bot needs a budget: simulations or milliseconds"
            )
        if (
            (simulations is not None and simulations < 1)
            or (milliseconds is not None and milliseconds <= 0)
            or candidates < 1
        ):
            raise UsageError("bad-setup", "a search bot's budget must be positive")
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.milliseconds = milliseconds
        self.candidates = candidates
        self.confidence = confidence
        self.last_simulations = 0
        """How many playouts the last decision ran (0: no search)."""
        self._models: dict[int, Playout] = {}

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """The candidate move of the best average value over the sampled worlds."""
        moves = legal_moves(ruleset, observation)
        seat = observation.actor
        self.last_simulations = 0
        if len(moves) == 1 or seat is None:
            return moves[0]
        phase = observation.phase
        if phase is Phase.REVEAL or phase is Phase.FLIP:
            return self.rng.choice(moves)
        deadline = None
        if self.milliseconds is not None:
            deadline = time.perf_counter() + self.milliseconds / 1000
        rules = ruleset.compiled
        model = self._models.get(id(rules))
        if model is None:
            model = self._models[id(rules)] = Playout(ruleset)
        unknown = model.unseen_worth(unseen(ruleset, observation))
        options, default = self._shortlist(model, observation, moves, unknown)
        if len(options) == 1:
            return options[0]
        scores = observation.scores
        before = tuple(sum(column) for column in zip(*scores, strict=True))
        look = _Look(
            ruleset,
            model,
            seat,
            unknown,
            scores,
            before or (0,) * observation.players,
            len(scores) + 1 >= rules.rounds,
        )
        values: list[list[float]] = [[] for _ in options]
        done = worlds = 0
        rng = self.rng
        begin = time.perf_counter()
        while self.simulations is None or done < self.simulations:
            if deadline is not None and worlds:
                now = time.perf_counter()
                if now + (now - begin) / worlds > deadline:
                    break  # the next world would likely end after the deadline
            worlds += 1
            world = sample_world(ruleset, observation, rng)
            chance = rng.getrandbits(64)
            for index, move in enumerate(options):
                after = apply(ruleset, world, move)
                values[index].append(self._value(look, after, random.Random(chance)))
            done += len(options)
        self.last_simulations = done
        return options[self._pick(values, default)]

    def _pick(self, values: list[list[float]], default: int | None) -> int:
        """The option of the best average; with a ``default`` (the greedy habit's move),
        another only when its lead on the default, world by world, is more than
        :attr:`confidence` standard errors (a few noisy playouts do not overturn it)."""
        if default is None:
            return max(range(len(values)), key=lambda index: sum(values[index]))
        base = values[default]
        worlds = len(base)
        best, lead = default, 0.0
        for index, row in enumerate(values):
            if index == default or worlds < 2:
                continue
            diffs = [mine - theirs for mine, theirs in zip(row, base, strict=True)]
            mean = sum(diffs) / worlds
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (worlds - 1) / worlds)
            if mean > lead and mean > self.confidence * spread:
                best, lead = index, mean
        return best

    def _shortlist(
        self,
        model: Playout,
        observation: Observation,
        moves: tuple[PlayerMove, ...],
        unknown: float,
    ) -> tuple[list[PlayerMove], int | None]:
        """The candidates and which of them the greedy habit plays (``None``: no habit,
        a choice of discard pile). Every draw and discard; the plays and bounces that
        gain most on the greedy estimate, best first."""
        seen = stand_in(observation)
        seat = observation.turn
        layout, up = list(seen.cards[seat]), seen.face_up[seat]
        held = observation.held
        if observation.phase is Phase.DRAW:
            deck, best, most = None, None, -math.inf
            for index, move in enumerate(moves):
                if not isinstance(move, Draw):
                    continue
                if move.pile is None:
                    deck = index
                    continue
                top = observation.discard_piles[move.pile][-1]
                gain, slot = model.best_play(layout, up, top, unknown)
                if slot >= 0 and gain > most:
                    best, most = index, gain
            if best is not None and (deck is None or most > TAKE_MARGIN):
                return list(moves), best
            return list(moves), deck
        keep: list[PlayerMove] = [m for m in moves if not isinstance(m, Place | Bounce)]
        placed = [m for m in moves if isinstance(m, Place | Bounce)]
        if held is None or not placed:
            return keep, None
        gains = {move: model.gain(layout, up, move.slot, held, unknown) for move in placed}
        placed.sort(key=lambda move: -gains[move])
        first = gains[placed[0]]
        plays: list[PlayerMove] = [m for m in placed[: self.candidates] if gains[m] >= first - SPAN]
        if keep and first > SPAN:
            keep = []  # the card gains so much that discarding it is not worth a look
        if not keep or first > 0:
            return plays + keep, 0
        return plays + keep, len(plays)

    def _value(self, look: _Look, state: State, rng: random.Random) -> float:
        """The round played out from ``state`` as the seat values it: the others' average
        score less its own; in the game's last round, its total's lead on the best other
        total."""
        ruleset, seat, rounds = look.ruleset, look.seat, len(look.scores)
        while state.is_chance and len(state.scores) == rounds:  # a reshuffle
            state = apply(ruleset, state, sample_chance(ruleset, state, rng))
        if len(state.scores) > rounds:
            scores = state.scores[rounds]
        else:
            scores = look.model.run(state, look.unknown, rng)
        if look.last:
            totals = [total + score for total, score in zip(look.totals, scores, strict=True)]
            return float(min(totals[:seat] + totals[seat + 1 :]) - totals[seat])
        return (sum(scores) - scores[seat]) / (len(scores) - 1) - scores[seat]


class _Look(NamedTuple):
    """What one decision's playouts share."""

    ruleset: Ruleset
    model: Playout
    seat: int
    unknown: float
    scores: tuple[tuple[int, ...], ...]
    """The finished rounds' scores."""
    totals: tuple[int, ...]
    """Each seat's total before this round."""
    last: bool
    """This is the game's last round (rule 2.2)."""
