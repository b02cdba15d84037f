"""What happened in one game, read off the engine's own transitions: how often each rule fired.

An :class:`EventLog` is given every ``(before, move, after)`` step of a replay (the
validator's, through its ``observe`` argument, or a game being played) and counts what
the engine did: the rules themselves are never applied here, only recognised in the
states the engine returned. One replay gives the verdict and the events together.

What is counted, per round (:class:`RoundEvents`):

- turns (each turn starts with a draw, rule 4.1) and player moves;
- bounces, and the bounce chains they form: a chain is the bounces of one turn (§5);
- hazards left out at setup (3.3), hazards discarded (6.1) and the flips they caused;
- reshuffles of the discard piles (8.7);
- a round that ended early: with nothing to draw, rather than when the lap after a
  player went out came round (8.1, 8.7);
- who went out and whether the going-out rule gave a bonus or a penalty (8.6);
- layouts that ended the round with more mulligans than the limit (7.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..core.cards import HAZARD, MULLIGAN
from ..core.engine import round_first_player
from ..core.moves import Bounce, Deal, Discard, Draw, Flip, Move, Place, Reshuffle
from ..core.ruleset import Ruleset
from ..core.scoring import score_layout
from ..core.state import State

BONUS: Final = "bonus"
PENALTY: Final = "penalty"


@dataclass(slots=True)
class RoundEvents:
    """The events of one round; ``scores`` and the going-out fields once it has ended."""

    round: int
    starter: int
    """The seat that started the round (rule 2.2)."""
    turns: int = 0
    moves: int = 0
    """Player moves (deals and reshuffles not included)."""
    bounces: int = 0
    chains: list[int] = field(default_factory=list)
    """The length of every bounce chain, in bounces, in the order they ran."""
    hazards_at_setup: int = 0
    hazards: int = 0
    """Hazards discarded (each one leaves the game and calls for flips, 6.1)."""
    flips: int = 0
    reshuffles: int = 0
    ended: bool = False
    ended_early: bool = False
    """The round ended because a turn had nothing to draw (8.7), not after a last lap."""
    went_out: int | None = None
    going_out: str = ""
    """``bonus``, ``penalty``, or empty: nobody went out, or the rule gave nothing."""
    mulligans_over: int = 0
    """Seats whose final layout holds more mulligans than the limit (7.3)."""
    scores: tuple[int, ...] = ()

    @property
    def longest_chain(self) -> int:
        """The longest bounce chain of the round (0 without any)."""
        return max(self.chains, default=0)


class EventLog:
    """Collects the :class:`RoundEvents` of a game from the steps of its replay.

    Call it with every step, in order, deals included: ``log(ruleset, before, move, after)``
    (the validator's ``observe`` argument).
    """

    def __init__(self) -> None:
        self.rounds: list[RoundEvents] = []
        self._chain = 0

    def __call__(self, ruleset: Ruleset, before: State, move: Move, after: State) -> None:
        kind = type(move)
        if kind is Deal:
            self.rounds.append(
                RoundEvents(
                    round=before.round,
                    starter=round_first_player(ruleset, before),
                    hazards_at_setup=len(after.removed),
                )
            )
        elif not self.rounds:
            return  # a step before any deal: the engine would have refused it
        current = self.rounds[-1]
        if kind is Reshuffle:
            current.reshuffles += 1
        elif kind is not Deal:
            current.moves += 1
            if kind is Draw:
                current.turns += 1
            elif kind is Place:
                self._chain = 0
            elif kind is Bounce:
                current.bounces += 1
                self._chain += 1
            elif kind is Discard:
                if self._chain:
                    current.chains.append(self._chain)
                    self._chain = 0
                if before.held == HAZARD:
                    current.hazards += 1
            elif kind is Flip:
                current.flips += 1
        if len(after.scores) > len(before.scores):
            self._end_round(ruleset, current, before, after)

    def _end_round(
        self, ruleset: Ruleset, current: RoundEvents, before: State, after: State
    ) -> None:
        """The round just ended: how it ended, the going-out rule, the mulligans (7.3)."""
        players = after.players
        out = after.went_out
        current.ended = True
        current.went_out = out
        current.scores = after.scores[-1]
        last_lap_done = out is not None and before.turn >= 0 and (before.turn + 1) % players == out
        current.ended_early = not last_lap_done
        if out is not None:
            change = current.scores[out] - score_layout(ruleset, after.cards[out])
            current.going_out = BONUS if change < 0 else PENALTY if change > 0 else ""
        limit = ruleset.compiled.max_mulligans
        current.mulligans_over = sum(
            1 for layout in after.cards if sum(1 for card in layout if card == MULLIGAN) > limit
        )


COUNTERS: Final = (
    "turns",
    "moves",
    "bounces",
    "chains",
    "hazards_at_setup",
    "hazards",
    "flips",
    "reshuffles",
    "ended_early",
    "went_out",
    "bonus",
    "penalty",
    "mulligans_over",
)
"""The per-game counts of :func:`game_counts`, in the order reports show them."""


def game_counts(rounds: Sequence[RoundEvents]) -> dict[str, int]:
    """Each of :data:`COUNTERS` summed over a game's rounds (``chains``: how many chains)."""
    counts = dict.fromkeys(COUNTERS, 0)
    for events in rounds:
        counts["turns"] += events.turns
        counts["moves"] += events.moves
        counts["bounces"] += events.bounces
        counts["chains"] += len(events.chains)
        counts["hazards_at_setup"] += events.hazards_at_setup
        counts["hazards"] += events.hazards
        counts["flips"] += events.flips
        counts["reshuffles"] += events.reshuffles
        counts["ended_early"] += events.ended and events.ended_early
        counts["went_out"] += events.went_out is not None
        counts["bonus"] += events.going_out == BONUS
        counts["penalty"] += events.going_out == PENALTY
        counts["mulligans_over"] += events.mulligans_over
    return counts


def round_row(events: RoundEvents) -> dict[str, Any]:
    """One round as a flat row (``scores`` a list; ``went_out`` -1 for nobody)."""
    return {
        "round": events.round,
        "starter": events.starter,
        "ended": events.ended,
        "turns": events.turns,
        "moves": events.moves,
        "bounces": events.bounces,
        "chains": len(events.chains),
        "longest_chain": events.longest_chain,
        "hazards_at_setup": events.hazards_at_setup,
        "hazards": events.hazards,
        "flips": events.flips,
        "reshuffles": events.reshuffles,
        "ended_early": events.ended and events.ended_early,
        "went_out": -1 if events.went_out is None else events.went_out,
        "going_out": events.going_out,
        "mulligans_over": events.mulligans_over,
        "scores": list(events.scores),
    }


__all__ = [
    "BONUS",
    "COUNTERS",
    "PENALTY",
    "EventLog",
    "RoundEvents",
    "game_counts",
    "round_row",
]
