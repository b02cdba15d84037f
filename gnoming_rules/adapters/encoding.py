"""A seat's view of the table as one flat ``float32`` vector, for learning agents.

:class:`Encoder` turns an :class:`~gnoming_rules.observation.Observation` (what one seat
can see: :func:`~gnoming_rules.observation.observe`) into a fixed-size vector, so an
agent fed with it sees no more than a player at the table. Seats are *relative*: block
0 is the observing seat, block 1 the next seat in play order, and so on, so one network
can play any seat. The segments, in order (F = the deck's distinct faces, S = slots,
K = discard piles, n = players, R = rounds), are listed in :attr:`Encoder.segments`:

- ``layouts`` (n x S x (F+1)): one-hot face of each slot; the last entry is "face down".
- ``held`` (F+2): nothing held, a card held that this seat cannot see, or its face.
- ``pile_tops`` (K x (F+1)): each discard pile's top face, or "empty".
- ``pile_cards`` (K x F): how many of each face each discard pile holds (piles are public
  whole, RULES 3.3 and 4.4).
- ``removed``, ``draw_pile``: how many cards are out of the game, and in the draw pile.
- ``phase`` (8), ``turn`` (n), ``actor`` (n): one-hot; all zero when nobody.
- ``filled`` (S), ``chain``, ``taken_from_discard``: the turn's bounce state (RULES 4.5, 5).
- ``flips_owed`` (n), ``went_out`` (n): who owes a flip, who went out.
- ``round`` (R+1): one-hot round index (R once the game is over).
- ``totals`` (n): each seat's total over the finished rounds.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..cards import Face
from ..observation import Observation
from ..ruleset import Ruleset
from ..state import Phase
from .actions import pile_count

__all__ = ["Encoder", "total_bound"]

Vector = npt.NDArray[np.float32]


def total_bound(ruleset: Ruleset) -> int:
    """A bound on the size of a game total: per round, every card scoring alone and every
    line scoring as a set at the largest value the ruleset has, plus the going-out bonus."""
    rules = ruleset.compiled
    values = [abs(face) for face in rules.deck_counts if isinstance(face, int)]
    worst = max([*values, abs(rules.hazard_penalty), abs(rules.unmatched_mulligan), 1])
    bonus = max(abs(rules.going_out_bonus), abs(rules.going_out_penalty))
    return ((rules.slots + len(rules.lines)) * worst + bonus) * rules.rounds


class Encoder:
    """The flat observation vector of one ruleset at one player count (see the module)."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.ruleset = ruleset
        self.players = players
        self.faces: tuple[Face, ...] = tuple(dict.fromkeys(ruleset.compiled.deck))
        """The deck's distinct faces, in the library's face order: the one-hot positions."""
        n, f = players, len(self.faces)
        slots, piles, rounds = ruleset.slots, pile_count(ruleset), ruleset.rounds
        deck = float(len(ruleset.compiled.deck))
        lengths = [
            ("layouts", n * slots * (f + 1), 1.0),
            ("held", f + 2, 1.0),
            ("pile_tops", piles * (f + 1), 1.0),
            ("pile_cards", piles * f, deck),
            ("removed", 1, deck),
            ("draw_pile", 1, deck),
            ("phase", len(Phase), 1.0),
            ("turn", n, 1.0),
            ("actor", n, 1.0),
            ("filled", slots, 1.0),
            ("chain", 1, 1.0),
            ("taken_from_discard", 1, 1.0),
            ("flips_owed", n, 1.0),
            ("went_out", n, 1.0),
            ("round", rounds + 1, 1.0),
            ("totals", n, float(total_bound(ruleset))),
        ]
        segments: list[tuple[str, int, int]] = []
        start = 0
        for name, length, _ in lengths:
            segments.append((name, start, length))
            start += length
        self.segments: tuple[tuple[str, int, int], ...] = tuple(segments)
        """``(name, start, length)`` of each segment of the vector."""
        self.size: int = start
        self.high: Vector = np.concatenate(
            [np.full(length, top, dtype=np.float32) for _, length, top in lengths]
        )
        """The largest value of each entry."""
        self.low: Vector = np.zeros(self.size, dtype=np.float32)
        """The smallest value of each entry (minus :func:`total_bound` for the totals)."""
        self.low[-n:] = -self.high[-n:]
        self._start = {name: begin for name, begin, _ in segments}
        self._index = {face: i for i, face in enumerate(self.faces)}

    def start(self, name: str) -> int:
        """Where segment ``name`` begins in the vector."""
        return self._start[name]

    def encode(self, view: Observation) -> Vector:
        """A fresh vector of ``view``, seats counted from ``view.seat``."""
        starts = self._start
        index = self._index
        f = len(self.faces)
        n = self.players
        seat = view.seat
        slots = self.ruleset.compiled.slots
        vector = np.zeros(self.size, dtype=np.float32)
        ones: list[int] = []
        base = starts["layouts"]
        cell = f + 1
        block = slots * cell
        layouts = view.layouts
        for offset in range(n):
            layout = layouts[(seat + offset) % n]
            if not layout:
                continue
            at = base + offset * block
            for card in layout:
                ones.append(at + (f if card is None else index[card]))
                at += cell
        held = view.held
        base = starts["held"]
        if held is not None:
            ones.append(base + 2 + index[held])
        else:
            ones.append(base + (1 if view.held_hidden else 0))
        tops, cards = starts["pile_tops"], starts["pile_cards"]
        for pile_index, pile in enumerate(view.discard_piles):
            ones.append(tops + pile_index * cell + (index[pile[-1]] if pile else f))
            at = cards + pile_index * f
            for card in pile:
                vector[at + index[card]] += 1.0
        vector[starts["removed"]] = len(view.removed)
        vector[starts["draw_pile"]] = view.draw_pile_size
        ones.append(starts["phase"] + view.phase)
        if view.turn >= 0:
            ones.append(starts["turn"] + (view.turn - seat) % n)
        if view.actor is not None:
            ones.append(starts["actor"] + (view.actor - seat) % n)
        filled, base = view.filled, starts["filled"]
        while filled:
            low = filled & -filled
            ones.append(base + low.bit_length() - 1)
            filled ^= low
        if view.chain:
            ones.append(starts["chain"])
        if view.taken_from_discard:
            ones.append(starts["taken_from_discard"])
        base = starts["flips_owed"]
        ones += [base + (owed - seat) % n for owed in view.flips_owed]
        if view.went_out is not None:
            ones.append(starts["went_out"] + (view.went_out - seat) % n)
        ones.append(starts["round"] + view.round)
        vector[ones] = 1.0
        if view.scores:
            base = starts["totals"]
            for offset in range(n):
                other = (seat + offset) % n
                vector[base + offset] = sum(scores[other] for scores in view.scores)
        return vector
