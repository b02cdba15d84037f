"""A seat's view of the table as one flat ``float32`` vector, for learning agents.

:class:`Encoder` turns an :class:`~gnoming_rules.observation.Observation` (what one seat
can see: :func:`~gnoming_rules.observation.observe`) into a fixed-size vector, so an
agent fed with it sees no more than a player at the table. Seats are *relative*: block
0 is the observing seat, block 1 the next seat in play order, and so on, so one network
can play any seat. The segments, in order (F = the deck's distinct faces, S = slots,
K = discard piles, n = players, R = rounds), are listed in :attr:`Encoder.segments`:

- ``layouts`` (n x S x (F+1)): one-hot face of each slot; the last entry is "face down";
  an empty slot (rule 10.6: its line left the layout) is all zeros.
- ``pile_cards`` (K x F): how many of each face each discard pile holds (piles are public
  whole, rule 3.3 and 4.4).
- ``held`` (F+2): nothing held, a card held that this seat cannot see, or its face.
- ``pile_tops`` (K x (F+1)): each discard pile's top face, or "empty".
- ``removed``, ``draw_pile``: how many cards are out of the game, and in the draw pile.
- ``phase`` (8), ``turn`` (n), ``actor`` (n): one-hot; all zero when nobody.
- ``filled`` (S), ``chain``, ``taken_from_discard``: the turn's bounce state (rule 4.5, 5).
- ``flips_owed`` (n), ``went_out`` (n): who owes a flip, who went out.
- ``round`` (R+1): one-hot round index (R once the game is over).
- ``totals`` (n): each seat's total over the finished rounds.

A ruleset with options of rules 11.1-11.8 (``compiled.knowledge``, ``knock`` or powers) has
two more phases (``phase`` is 10 long, else 8) and six more segments, at the end: a
face-down card this seat knows shows its face in ``layouts`` and is marked in ``known``
(n x S); ``knowers`` (n x S x n) says who knows each face-down card (public: the table
saw every peek and swap); ``looked`` (n x S), the card ``look_and_swap`` looked at;
``power`` (5), the power open; ``peeks`` and ``turns`` (up to n), the setup peeks made
and the turns completed (a knock waits for n, rule 11.5).
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..extras import missing_extra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # a clear missing-extra error, not a bare ModuleNotFoundError
    raise missing_extra(missing, "rl") from None

from ..core.cards import EMPTY, Face
from ..core.errors import UsageError
from ..core.ruleset import Ruleset
from ..core.state import Phase, State
from ..play.observation import Observation
from .view_bytes import CLASSIC_PHASES, POWER_NAMES, ViewBytes, knowledge_floats

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
        rules = ruleset.compiled
        slots, piles, rounds = rules.slots, rules.piles, rules.rounds
        deck = float(len(rules.deck))
        self.knowledge = rules.knowledge or rules.knock or bool(rules.powers)
        """The ruleset has options of rules 11.1-11.8: the vector has their segments."""
        lengths = [
            ("layouts", n * slots * (f + 1), 1.0),
            ("pile_cards", piles * f, deck),
            ("held", f + 2, 1.0),
            ("pile_tops", piles * (f + 1), 1.0),
            ("removed", 1, deck),
            ("draw_pile", 1, deck),
            ("phase", len(Phase) if self.knowledge else CLASSIC_PHASES, 1.0),
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
        if self.knowledge:
            lengths += [
                ("known", n * slots, 1.0),
                ("knowers", n * slots * n, 1.0),
                ("looked", n * slots, 1.0),
                ("power", len(POWER_NAMES), 1.0),
                ("peeks", 1, float(max(rules.peek_at_start, 1))),
                ("turns", 1, float(n)),
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
        totals = self._start_of(segments, "totals")
        self.low[totals : totals + n] = -self.high[totals : totals + n]
        self._start = {name: begin for name, begin, _ in segments}
        self._index = {face: i for i, face in enumerate(self.faces)}
        tail = self._start["held"]
        self._tail_start = {name: begin - tail for name, begin, _ in segments if begin >= tail}
        self._tail_size = (self._start["known"] if self.knowledge else self.size) - tail
        self._block = slots * (f + 1)
        self._rotations = [np.array([(s + k) % n for k in range(n)]) for s in range(n)]
        self._layout_blocks: dict[tuple[Face | None, ...], Vector] = {}
        self._pile_counts: dict[tuple[Face, ...], Vector] = {}
        self._totals_cache: dict[tuple[tuple[int, ...], ...], Vector] = {}
        self.fast = ViewBytes(
            self.faces, n, slots, piles, rounds, len(rules.deck), knowledge=self.knowledge
        )
        """The fast path's bytes (:meth:`encode_state`; compiled with the core when the
        wheel is built)."""

    @staticmethod
    def _start_of(segments: list[tuple[str, int, int]], name: str) -> int:
        return next(begin for segment, begin, _ in segments if segment == name)

    def start(self, name: str) -> int:
        """Where segment ``name`` begins in the vector."""
        return self._start[name]

    def encode(self, view: Observation) -> Vector:
        """A fresh vector of ``view``, seats counted from ``view.seat``.

        Layout blocks and pile counts repeat from step to step, so each distinct one is
        built once and kept (up to a bound); a vector is then one concatenation.
        """
        seat, n = view.seat, self.players
        if seat is None:
            raise UsageError(
                "bad-seat", "the encoder encodes a seat's own observation, not a spectator's"
            )
        layouts, blocks = view.layouts, self._layout_blocks
        parts = []
        for offset in range(n):
            layout = layouts[(seat + offset) % n]
            block = blocks.get(layout)
            if block is None:
                block = self._layout_block(layout)
            parts.append(block)
        counts = self._pile_counts
        for pile in view.discard_piles:
            found = counts.get(pile)
            if found is None:
                found = self._pile_count(pile)
            parts.append(found)
        parts.append(
            self._tail(
                seat,
                view.held,
                view.held_hidden,
                view.phase,
                view.round,
                view.discard_piles,
                view.turn,
                view.actor,
                view.filled,
                view.chain,
                view.taken_from_discard,
                view.flips_owed,
                view.went_out,
                len(view.removed),
                view.draw_pile_size,
                view.scores,
            )
        )
        if self.knowledge:
            face_up = tuple(view.face_up_mask(other) for other in range(n)) if view.known else ()
            floats = knowledge_floats(
                n,
                self.fast.slots,
                seat,
                face_up,
                view.known,
                view.power,
                view.looked,
                view.peeks,
                view.turns,
            )
            parts.append(np.array(floats, dtype=np.float32))
        return np.concatenate(parts)

    def encode_state(self, state: State, seat: int) -> Vector:
        """``encode(observe(state, seat))``, read from the state without building the
        observation: the fast path of the environments (the test suite checks that the two
        agree on every seat of every state of random games). ``seat`` must be at the table.

        The bytes come from :class:`~gnoming_rules.adapters.view_bytes.ViewBytes`, which
        encodes each layout, pile and the totals when they change and joins ready bytes.
        """
        return np.frombuffer(self.fast.encode(state, seat), np.float32)  # (no dtype=: 0.15 us)

    def _layout_block(self, layout: tuple[Face | None, ...]) -> Vector:
        """One seat's one-hot block (all zeros before a deal), remembered."""
        f, index = len(self.faces), self._index
        block = np.zeros(self._block, dtype=np.float32)
        for slot, card in enumerate(layout):
            if card != EMPTY:  # an empty slot (rule 10.6) stays all zeros
                block[slot * (f + 1) + (f if card is None else index[card])] = 1.0
        return _remember(self._layout_blocks, layout, block)

    def _pile_count(self, pile: tuple[Face, ...]) -> Vector:
        """How many of each face one discard pile holds, remembered."""
        counts = np.zeros(len(self.faces), dtype=np.float32)
        index = self._index
        for card in pile:
            counts[index[card]] += 1.0
        return _remember(self._pile_counts, pile, counts)

    def _tail(  # noqa: PLR0917 (one argument per field of the view)
        self,
        seat: int,
        held: Face | None,
        held_hidden: bool,
        phase: Phase,
        round_index: int,
        piles: tuple[tuple[Face, ...], ...],
        turn: int,
        actor: int | None,
        filled: int,
        chain: bool,
        taken: bool,
        owed: tuple[int, ...],
        went_out: int | None,
        removed: int,
        draw_pile: int,
        scores: tuple[tuple[int, ...], ...],
    ) -> Vector:
        """Every segment after the pile counts, from the seat's view of these fields."""
        starts, index, n = self._tail_start, self._index, self.players
        tail = np.zeros(self._tail_size, dtype=np.float32)
        ones = [
            starts["held"] + (2 + index[held] if held is not None else int(held_hidden)),
            starts["phase"] + phase,
            starts["round"] + round_index,
        ]
        top, f = starts["pile_tops"], len(self.faces)
        for pile in piles:
            ones.append(top + (index[pile[-1]] if pile else f))
            top += f + 1
        if turn >= 0:
            ones.append(starts["turn"] + (turn - seat) % n)
        if actor is not None:
            ones.append(starts["actor"] + (actor - seat) % n)
        base = starts["filled"]
        while filled:
            low = filled & -filled
            ones.append(base + low.bit_length() - 1)
            filled ^= low
        if chain:
            ones.append(starts["chain"])
        if taken:
            ones.append(starts["taken_from_discard"])
        base = starts["flips_owed"]
        ones += [base + (other - seat) % n for other in owed]
        if went_out is not None:
            ones.append(starts["went_out"] + (went_out - seat) % n)
        tail[ones] = 1.0
        tail[starts["removed"]] = removed
        tail[starts["draw_pile"]] = draw_pile
        if scores:
            base = starts["totals"]
            tail[base : base + n] = self._totals(scores)[self._rotations[seat]]
        return tail

    def _totals(self, scores: tuple[tuple[int, ...], ...]) -> Vector:
        """Each seat's total over ``scores`` (by absolute seat), remembered."""
        found = self._totals_cache.get(scores)
        if found is None:
            totals = np.array([sum(column) for column in zip(*scores, strict=True)], np.float32)
            found = _remember(self._totals_cache, scores, totals)
        return found


_Kept = TypeVar("_Kept")

_CACHE_LIMIT = 20_000
"""Most entries one cache of an :class:`Encoder` keeps; when full it starts afresh."""


def _keep(cache: dict[Any, _Kept], key: Any, value: _Kept) -> _Kept:
    """Store ``value`` under ``key`` (emptying a full cache first) and return it."""
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _remember(cache: dict[Any, Vector], key: Any, value: Vector) -> Vector:
    """:func:`_keep` for a vector, made read-only first: the cache hands it out shared."""
    value.flags.writeable = False
    return _keep(cache, key, value)
