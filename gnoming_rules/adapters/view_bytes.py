"""A seat's view of the table as the ``float32`` bytes of the encoder's vector: its hot path.

:meth:`~gnoming_rules.adapters.encoding.Encoder.encode_state` is this module's
:meth:`ViewBytes.encode` wrapped in a NumPy array. It is kept apart, free of NumPy (the
standard library's ``array`` writes the ``float32`` bytes), so that the wheel compiles it
with mypyc like the core (docs/architecture.md): every step of the PettingZoo and
Gymnasium environments encodes an observation. The segments and their order are the
encoder's (:attr:`~gnoming_rules.adapters.encoding.Encoder.segments`); the segments of
rules 11.1-11.8 (who knows which face-down card, the power open, the peeks and turns) are
written by :func:`knowledge_floats` for both paths.
"""

from __future__ import annotations

from array import array
from typing import Final

from ..core.cards import EMPTY, Face
from ..core.ruleset import POWER_STATES
from ..core.state import Phase, State
from ..play.observation import held_is_hidden

__all__ = ["ViewBytes", "knowledge_floats"]

POWER_NAMES: Final = POWER_STATES
"""The powers of ``State.power`` (rule 11.4), in the ``power`` segment's order (adding a
power lengthens the segment, and with it every observation vector of rulesets with
powers: agents trained before must be trained again)."""
CLASSIC_PHASES: Final = 8
"""The phases of §1-10 (``DEAL`` to ``OVER``): the ``phase`` segment's length for a
ruleset without §11 options, so its vectors are those of before §11."""


def knowledge_floats(  # noqa: PLR0917 (one argument per field of the view)
    players: int,
    slots: int,
    seat: int,
    face_up: tuple[int, ...],
    known: tuple[tuple[int, ...], ...],
    power: str | None,
    looked: tuple[int, int] | None,
    peeks: int,
    turns: int,
) -> list[float]:
    """The segments of rules 11.1-11.8, seats counted from ``seat``: ``known`` (n x S: a
    face-down card this seat knows, shown in its layout block by its face), ``knowers``
    (n x S x n: who knows each face-down card), ``looked`` (n x S), ``power`` (5,
    one-hot), ``peeks`` (the setup peeks made) and ``turns`` (the turns completed,
    counted up to n: a knock waits for n, rule 11.5)."""
    n = players
    mine = [0.0] * (n * slots)
    knowers = [0.0] * (n * slots * n)
    spot = [0.0] * (n * slots)
    if known:
        for offset in range(n):
            other = (seat + offset) % n
            up, masks = face_up[other], known[other]
            for slot, mask in enumerate(masks):
                if not mask or up >> slot & 1:
                    continue
                cell = offset * slots + slot
                if mask >> seat & 1:
                    mine[cell] = 1.0
                for by in range(n):
                    if mask >> by & 1:
                        knowers[cell * n + (by - seat) % n] = 1.0
    if looked is not None:
        spot[((looked[0] - seat) % n) * slots + looked[1]] = 1.0
    open_power = [1.0 if power == name else 0.0 for name in POWER_NAMES]
    return [*mine, *knowers, *spot, *open_power, float(peeks), float(min(turns, n))]


CACHE_LIMIT: Final = 20_000
"""Most entries one cache of a :class:`ViewBytes` keeps; when full it starts afresh."""

LayoutMemo = tuple[tuple[Face, ...], int, bytes]
PileMemo = tuple[tuple[Face, ...], tuple[float, ...], bytes, bytes]
TotalsMemo = tuple[tuple[tuple[int, ...], ...], tuple[bytes, ...]]

_JOIN: Final = bytearray().join
"""Joins bytes into a fresh ``bytearray``: the vector's own writable buffer, in one copy."""


def floats(values: list[float]) -> bytes:
    """``values`` as ``float32`` bytes (the machine's order, as NumPy's ``float32``)."""
    return array("f", values).tobytes()


def one_hots(length: int) -> tuple[bytes, ...]:
    """Each one-hot ``float32`` vector of ``length`` entries, as bytes, by its hot entry."""
    return tuple(
        floats([1.0 if entry == hot else 0.0 for entry in range(length)]) for hot in range(length)
    )


class ViewBytes:
    """The vector of one ruleset at one player count, as bytes, from a state and a seat.

    Each layout, discard pile and the totals are encoded when they change and remembered
    (by seat or pile, with the tuple they were made from: an identity check cannot be
    fooled, the memo holds the tuple alive); every other segment takes one of a few
    values, ready as bytes, so the vector is one join.
    """

    def __init__(  # noqa: PLR0917 (the ruleset's dimensions)
        self,
        faces: tuple[Face, ...],
        players: int,
        slots: int,
        piles: int,
        rounds: int,
        deck: int,
        knowledge: bool = False,
    ) -> None:
        n, f = players, len(faces)
        self.knowledge = knowledge
        """The ruleset has §11 options: the vector ends with :func:`knowledge_floats`'s
        segments, and a face-down card the seat knows shows its face."""
        self.cache_limit = CACHE_LIMIT
        """Most entries each of :attr:`filled_bytes` and :attr:`owed_bytes` keeps."""
        self.players = players
        self.slots = slots
        self.index: dict[Face, int] = {face: i for i, face in enumerate(faces)}
        self.orders: tuple[tuple[int, ...], ...] = tuple(
            tuple((s + k) % n for k in range(n)) for s in range(n)
        )
        """For each observing seat, the seats in the vector's order (itself first)."""
        self.held_bytes = one_hots(f + 2)
        """Nothing held, a hidden card held, then each face."""
        self.phase_bytes = one_hots(len(Phase) if knowledge else CLASSIC_PHASES)
        self.no_seat = bytes(4 * n)
        relative = one_hots(n)
        self.seen_from: tuple[tuple[bytes, ...], ...] = tuple(
            (*(relative[(other - s) % n] for other in range(n)), self.no_seat) for s in range(n)
        )
        """For each observing seat: each seat one-hot, counted from it, then "nobody"."""
        self.round_bytes = one_hots(rounds + 1)
        self.count_bytes = tuple(floats([float(k)]) for k in range(deck + 1))
        """A count of cards (a whole deck at most): the removed cards, the draw pile."""
        self.flag_bytes = tuple(
            floats([float(chain), float(taken)]) for chain in (0, 1) for taken in (0, 1)
        )
        """``chain`` and ``taken_from_discard``, adjacent, at ``2 * chain + taken``."""
        cells = one_hots(f + 1)
        self.down_cell = cells[f]
        """A face-down slot's one-hot cell."""
        self.up_cells: dict[Face, bytes] = {EMPTY: bytes(4 * (f + 1))}
        """A face-up slot's one-hot cell by face (all zeros for an empty slot, rule 10.6)."""
        for i, face in enumerate(faces):
            self.up_cells[face] = cells[i]
        self.top_bytes = cells
        """A pile's top face, one-hot, or "empty" at ``f``."""
        self.filled_bytes: dict[int, bytes] = {}
        self.owed_bytes: dict[tuple[tuple[int, ...], int], bytes] = {}
        # The memos of the last value seen, by absolute seat or pile: from one step to
        # the next at most a layout or two and a pile change, so one entry each is enough.
        # Each is a tuple, replaced whole, never changed: a reader sees one consistent
        # entry even if another thread encodes with the same encoder meanwhile.
        empty_block = bytes(4 * slots * (f + 1))
        no_cards: tuple[Face, ...] = ()
        self.layouts: list[LayoutMemo] = [(no_cards, 0, empty_block)] * n
        """Per seat: its layout, its face-up mask and their block of the vector."""
        self.piles: list[PileMemo] = [(no_cards, (0.0,) * f, bytes(4 * f), cells[f])] * piles
        """Per pile: the pile, its counts by face, and the counts and the top as bytes."""
        self.totals: TotalsMemo = ((), ())
        """The scores and, per observing seat, the ``totals`` segment they make."""

    def encode(self, state: State, seat: int) -> bytearray:
        """The vector of ``seat``'s view of ``state`` as bytes (``seat`` at the table)."""
        cards, face_up = state.cards, state.face_up
        layouts = self.layouts
        pieces: list[bytes] = []
        known = state.known
        for other in self.orders[seat]:
            layout, up = cards[other], face_up[other]
            if known:  # the face-down cards this seat knows show their faces (11.1)
                for slot, mask in enumerate(known[other]):
                    if mask >> seat & 1:
                        up |= 1 << slot
            memo = layouts[other]
            if memo[0] is not layout or memo[1] != up:
                memo = layouts[other] = (layout, up, self.layout_block(layout, up))
            pieces.append(memo[2])
        piles = self.piles
        tops: list[bytes] = []
        for index, pile in enumerate(state.discard_piles):
            found = piles[index]
            if found[0] is not pile:
                found = piles[index] = self.pile_memo(found, pile)
            pieces.append(found[2])
            tops.append(found[3])
        held = state.held
        if held is None:
            pieces.append(self.held_bytes[0])
        elif held_is_hidden(state, seat):
            pieces.append(self.held_bytes[1])
        else:
            pieces.append(self.held_bytes[2 + self.index[held]])
        pieces.extend(tops)
        seen_from, count = self.seen_from[seat], self.count_bytes
        actor, owed, scores = state.actor, state.flips_owed, state.scores
        went_out = state.went_out
        filled = self.filled_bytes.get(state.filled)
        if filled is None:
            filled = self.filled_segment(state.filled)
        pieces.append(count[len(state.removed)])
        pieces.append(count[len(state.draw_pile)])
        pieces.append(self.phase_bytes[int(state.phase)])
        pieces.append(seen_from[state.turn])  # -1 (nobody's turn) is the last: all zeros
        pieces.append(seen_from[-1 if actor is None else actor])
        pieces.append(filled)
        flags = (2 if state.chain else 0) + (1 if state.taken_from_discard else 0)
        pieces.append(self.flag_bytes[flags])
        pieces.append(self.owed_segment(owed, seat) if owed else self.no_seat)
        pieces.append(seen_from[-1 if went_out is None else went_out])
        pieces.append(self.round_bytes[state.round])
        if scores:
            totals = self.totals
            if totals[0] is not scores:
                totals = self.totals = (scores, self.seat_totals(scores))
            pieces.append(totals[1][seat])
        else:
            pieces.append(self.no_seat)
        if self.knowledge:
            pieces.append(
                floats(
                    knowledge_floats(
                        self.players,
                        self.slots,
                        seat,
                        face_up,
                        known,
                        state.power,
                        state.looked,
                        state.peeks,
                        state.turns,
                    )
                )
            )
        return _JOIN(pieces)

    def layout_block(self, layout: tuple[Face, ...], up: int) -> bytes:
        """One seat's one-hot block (all zeros before the first deal)."""
        if not layout:
            return bytes(self.slots * len(self.down_cell))
        down, up_cells = self.down_cell, self.up_cells
        block: list[bytes] = []
        for slot, card in enumerate(layout):
            block.append(up_cells[card] if up >> slot & 1 else down)
        return b"".join(block)

    def pile_memo(self, memo: PileMemo, pile: tuple[Face, ...]) -> PileMemo:
        """A discard pile's memo, from the memo of the pile before: a pile mostly changes
        by one card on top (a discard, or a draw from it), so its counts are the previous
        ones changed in one entry."""
        previous, before = memo[0], memo[1]
        index = self.index
        counts = list(before)
        if len(pile) == len(previous) + 1 and pile[:-1] == previous:
            counts[index[pile[-1]]] += 1.0
        elif len(pile) == len(previous) - 1 and previous[:-1] == pile:
            counts[index[previous[-1]]] -= 1.0
        elif pile != previous:
            counts = [0.0] * len(before)
            for card in pile:
                counts[index[card]] += 1.0
        top = self.top_bytes[index[pile[-1]] if pile else len(counts)]
        return (pile, tuple(counts), floats(counts), top)

    def seat_totals(self, scores: tuple[tuple[int, ...], ...]) -> tuple[bytes, ...]:
        """The ``totals`` segment seen from each seat: each seat's total over ``scores``."""
        n = self.players
        totals = [0.0] * n
        for round_scores in scores:
            for other in range(n):
                totals[other] += round_scores[other]
        return tuple(floats([totals[other] for other in order]) for order in self.orders)

    def filled_segment(self, filled: int) -> bytes:
        """The ``filled`` segment of one bit mask, remembered."""
        found = floats([1.0 if filled >> slot & 1 else 0.0 for slot in range(self.slots)])
        if len(self.filled_bytes) >= self.cache_limit:
            self.filled_bytes.clear()
        self.filled_bytes[filled] = found
        return found

    def owed_segment(self, owed: tuple[int, ...], seat: int) -> bytes:
        """The ``flips_owed`` segment seen from ``seat``, remembered."""
        key = (owed, seat)
        found = self.owed_bytes.get(key)
        if found is None:
            n = self.players
            hot = [0.0] * n
            for other in owed:
                hot[(other - seat) % n] = 1.0
            found = floats(hot)
            if len(self.owed_bytes) >= self.cache_limit:
                self.owed_bytes.clear()
            self.owed_bytes[key] = found
        return found
