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
"""

from __future__ import annotations

from array import array
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
from ..play.observation import Observation, held_is_hidden

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
        lengths = [
            ("layouts", n * slots * (f + 1), 1.0),
            ("pile_cards", piles * f, deck),
            ("held", f + 2, 1.0),
            ("pile_tops", piles * (f + 1), 1.0),
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
        tail = self._start["held"]
        self._tail_start = {name: begin - tail for name, begin, _ in segments if begin >= tail}
        self._tail_size = self.size - tail
        self._block = slots * (f + 1)
        self._rotations = [np.array([(s + k) % n for k in range(n)]) for s in range(n)]
        self._layout_blocks: dict[tuple[Face | None, ...], Vector] = {}
        self._pile_counts: dict[tuple[Face, ...], Vector] = {}
        self._totals_cache: dict[tuple[tuple[int, ...], ...], Vector] = {}
        # The fast path (encode_state) joins ready float32 bytes, one piece per segment
        # (or per seat and pile), into the vector's buffer: each piece is a tuple index
        # or a memo's, where writing the entries one by one costs a numpy call each.
        self._orders = tuple(tuple((s + k) % n for k in range(n)) for s in range(n))
        self._held_bytes = _one_hots(f + 2)
        """Nothing held, a hidden card held, then each face."""
        self._phase_bytes = _one_hots(len(Phase))
        self._no_seat = bytes(4 * n)
        relative = _one_hots(n)
        self._seen_from = tuple(
            (*(relative[(other - s) % n] for other in range(n)), self._no_seat) for s in range(n)
        )
        """For each observing seat: each seat one-hot, counted from it, then "nobody"."""
        self._round_bytes = _one_hots(rounds + 1)
        self._count_bytes = tuple(np.float32(k).tobytes() for k in range(len(rules.deck) + 1))
        """A count of cards (a whole deck at most): the removed cards, the draw pile."""
        self._flag_bytes = tuple(
            np.array([chain, taken], dtype=np.float32).tobytes()
            for chain in (0, 1)
            for taken in (0, 1)
        )
        """``chain`` and ``taken_from_discard``, adjacent, at ``2 * chain + taken``."""
        self._filled_bytes: dict[int, bytes] = {}
        self._owed_bytes: dict[tuple[tuple[int, ...], int], bytes] = {}
        cells = _one_hots(f + 1)
        self._cells = (
            cells[f],
            {EMPTY: bytes(4 * (f + 1)), **{face: cells[i] for i, face in enumerate(self.faces)}},
        )
        """A slot's one-hot cell face down, and face up by face."""
        self._top_bytes = cells
        """A pile's top face, one-hot, or "empty" at ``f``."""
        # Memos of the last value seen, by absolute seat or pile index: from one step to
        # the next at most a layout or two and a pile change, so one entry each is enough,
        # and it holds what it was made from (an identity check cannot be fooled).
        self._layout_memos: list[_LayoutMemo] = [((), 0, bytes(4 * self._block))] * n
        self._pile_memos: list[_PileMemo] = [
            ((), array("f", bytes(4 * f)), bytes(4 * f), cells[f])
        ] * piles
        self._totals_memo: tuple[tuple[tuple[int, ...], ...], tuple[bytes, ...]] = ((), ())

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
        return np.concatenate(parts)

    def encode_state(self, state: State, seat: int) -> Vector:
        """``encode(observe(state, seat))``, read from the state without building the
        observation: the fast path of the environments (the test suite checks that the two
        agree on every seat of every state of random games). ``seat`` must be at the table.

        Each layout, pile and the totals are encoded when they change and remembered
        (by seat or pile, with the tuple they were made from); every other segment takes
        one of a few values, so the vector is one join of ready bytes.
        """
        cards, face_up = state.cards, state.face_up
        layout_memos, pile_memos = self._layout_memos, self._pile_memos
        pieces: list[bytes] = []
        for other in self._orders[seat]:
            layout, up = cards[other], face_up[other]
            memo = layout_memos[other]
            if memo[0] is not layout or memo[1] != up:
                memo = layout_memos[other] = self._layout_memo(layout, up)
            pieces.append(memo[2])
        tops: list[bytes] = []
        for index, pile in enumerate(state.discard_piles):
            found = pile_memos[index]
            if found[0] is not pile:
                found = pile_memos[index] = self._pile_memo(found, pile)
            pieces.append(found[2])
            tops.append(found[3])
        held = state.held
        if held is None:
            pieces.append(self._held_bytes[0])
        elif held_is_hidden(state, seat):
            pieces.append(self._held_bytes[1])
        else:
            pieces.append(self._held_bytes[2 + self._index[held]])
        pieces += tops
        seen_from, count = self._seen_from[seat], self._count_bytes
        actor, owed, filled, scores = state.actor, state.flips_owed, state.filled, state.scores
        found_filled = self._filled_bytes.get(filled)
        totals = self._totals_memo
        if totals[0] is not scores and scores:
            totals = self._totals_memo = self._seat_totals(scores)
        pieces += (
            count[len(state.removed)],
            count[len(state.draw_pile)],
            self._phase_bytes[state.phase],
            seen_from[state.turn],  # -1 (nobody's turn) is the last entry: all zeros
            seen_from[-1 if actor is None else actor],
            self._filled(filled) if found_filled is None else found_filled,
            self._flag_bytes[2 * state.chain + state.taken_from_discard],
            self._owed(owed, seat) if owed else self._no_seat,
            seen_from[-1 if state.went_out is None else state.went_out],
            self._round_bytes[state.round],
            totals[1][seat] if scores else self._no_seat,
        )
        return np.frombuffer(_join(pieces), np.float32)  # dtype as a keyword costs 0.15 us

    def _layout_memo(self, layout: tuple[Face, ...], up: int) -> _LayoutMemo:
        """One seat's one-hot block as bytes, joined from ready one-hot cells (a new
        layout or face-up mask is seldom one seen before)."""
        if not layout:  # before the first deal
            return (layout, up, bytes(4 * self._block))
        down, face_up = self._cells
        block = [face_up[card] if up >> slot & 1 else down for slot, card in enumerate(layout)]
        return (layout, up, b"".join(block))

    def _pile_memo(self, memo: _PileMemo, pile: tuple[Face, ...]) -> _PileMemo:
        """A discard pile's counts and one-hot top as bytes, from the pile ``memo`` held
        before: a pile mostly changes by one card on top (a discard, or a draw from it),
        so its counts are the previous ones changed in one entry."""
        previous, counts = memo[0], memo[1]
        size, before = len(pile), len(previous)
        if size == before + 1 and pile[:-1] == previous:
            counts = array("f", counts)
            counts[self._index[pile[-1]]] += 1.0
        elif size == before - 1 and previous[:-1] == pile:
            counts = array("f", counts)
            counts[self._index[previous[-1]]] -= 1.0
        elif pile != previous:
            found = self._pile_counts.get(pile)
            counts = array("f", (self._pile_count(pile) if found is None else found).tobytes())
        top = self._top_bytes[self._index[pile[-1]] if pile else len(self.faces)]
        return (pile, counts, counts.tobytes(), top)

    def _seat_totals(
        self, scores: tuple[tuple[int, ...], ...]
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[bytes, ...]]:
        """The ``totals`` segment seen from each seat."""
        totals = self._totals(scores)
        return (scores, tuple(totals[order].tobytes() for order in self._rotations))

    def _filled(self, filled: int) -> bytes:
        """The ``filled`` segment of one bit mask, remembered."""
        bits = np.zeros(self.ruleset.compiled.slots, dtype=np.float32)
        bits[[slot for slot in range(len(bits)) if filled >> slot & 1]] = 1.0
        return _keep(self._filled_bytes, filled, bits.tobytes())

    def _owed(self, owed: tuple[int, ...], seat: int) -> bytes:
        """The ``flips_owed`` segment seen from ``seat``, remembered."""
        found = self._owed_bytes.get((owed, seat))
        if found is None:
            hot = np.zeros(self.players, dtype=np.float32)
            hot[[(other - seat) % self.players for other in owed]] = 1.0
            found = _keep(self._owed_bytes, (owed, seat), hot.tobytes())
        return found

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
_LayoutMemo = tuple[tuple[Face, ...], int, bytes]
"""A seat's layout, its face-up mask, and their block of the vector."""
_PileMemo = tuple[tuple[Face, ...], "array[float]", bytes, bytes]
"""A discard pile, its counts (never changed in place), and the counts and top as bytes."""

_join = bytearray().join
"""Joins bytes into a fresh ``bytearray``: the vector's own writable buffer, in one copy."""

_CACHE_LIMIT = 20_000
"""Most entries one cache of an :class:`Encoder` keeps; when full it starts afresh."""


def _one_hots(length: int) -> tuple[bytes, ...]:
    """Each one-hot ``float32`` vector of ``length`` entries, as bytes, by its hot entry."""
    return tuple(np.eye(length, dtype=np.float32)[hot].tobytes() for hot in range(length))


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
