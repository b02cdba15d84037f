"""A fast model of the rest of a round, for the search bot's look-ahead: :func:`playout`.

The search bot (:mod:`gnoming_rules.play.search`) values a move by playing the round
out, many times, in worlds its observation cannot rule out. The engine's ``apply`` is
exact and checks every move; a look-ahead needs thousands of turns a decision, so this
module plays them on plain lists instead, every seat by the greedy bot's habit
(:class:`~gnoming_rules.play.simple.GreedyBot`): take a discard pile's top when playing it
gains more than a point, else draw; keep the card where it lowers the layout's estimate
most (a face-down card counted at the average unseen card), else discard it on a random
pile (an empty one first, rule 4.4). It is a model, not the referee: nobody bounces
(bouncing is optional, 5.3) and a flip turns a random face-down card. The rest follows
the rules: the mulligan limit (7.2), a taken card is played (4.5), hazards leave the
game and make the others flip (6.1, 6.2), the flip after a discarded draw (10.7), going
out and the last lap (8.1), the empty draw pile (8.7). The round is scored by the
engine's own :func:`~gnoming_rules.core.rules.round_end.round_scores`, so sets, wild
mulligans and the going-out bonus count exactly as the rules say.

Three rule steps are copied here for speed, and say so: the flips a hazard owes
(``rules.hazards.owed_flips``), the mulligan limit (``rules.mulligans.mulligan_slots``)
and whether a turn may begin (``rules.round_end``'s 8.7 check, the reshuffle done in
place). The engine's steps read a ``State``; the model keeps the table in plain lists
that it changes in place, and building a ``State`` for each would cost more than the
step itself, thousands of times a decision. A change to one of those rules changes its
copy here too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.cards import HAZARD, MULLIGAN, Face
from ..core.compiled import Line
from ..core.engine import shuffle
from ..core.rules.round_end import round_scores
from ..core.ruleset import Ruleset
from ..core.scoring import card_points, keyed_set, set_value
from ..core.state import Phase, State
from .simple import GreedyBot, worst_unknown

__all__ = ["Playout"]

TURN_LIMIT = 400
"""Turns after which a playout stops and scores the layouts as they lie (a model whose
seats never go out must still end)."""

TAKE_MARGIN = GreedyBot.take_margin
"""The gain a discard pile's top must promise to be taken (the greedy bot's margin)."""

PATIENCE = 8
"""Turns per seat after which a playout counts a face-down card a little worse each lap
(the greedy bot's ``impatience``, up to its ``worst_unknown``), as the greedy bot does,
so that its seats turn their cards up and the round ends whatever the deck's values."""

IMPATIENCE = GreedyBot.impatience


class Playout:
    """The round model of one ruleset: ``Playout(ruleset).run(state, unknown, rng)``."""

    def __init__(self, ruleset: Ruleset) -> None:
        rules = ruleset.compiled
        self.rules = rules
        faces = set(rules.deck) | {HAZARD, MULLIGAN}
        self.points: dict[Face, int] = {face: card_points(rules, face) for face in faces}
        self.through: list[list[tuple[Line, int]]] = [
            [(line, line.mask & ~(1 << slot)) for line in rules.lines if line.mask >> slot & 1]
            for slot in range(rules.slots)
        ]
        self.plain = rules.plain_sets
        self.worst = worst_unknown(ruleset)
        """A worth for a face-down card above any card's (the greedy bot's last resort)."""
        self.others: list[list[tuple[int, tuple[int, ...], int]]] = [
            [
                (others, tuple(s for s in line.slots if s != slot), len(line.slots) + 1)
                for line, others in lines
            ]
            for slot, lines in enumerate(self.through)
        ]

    # -- the greedy estimate, slot by slot --------------------------------------------------

    def _line_bonus(self, line: Line, shown: Sequence[Face]) -> int:
        """How much lower ``line`` scores as a set than card by card (0: no set)."""
        rules = self.rules
        if rules.plain_sets:
            value = set_value(line, shown, 0)
            if not value:
                return 0
            return sum(self.points[shown[slot]] for slot in line.slots) + value
        card = keyed_set(rules, line, shown, 0)
        if card is None:
            return 0
        points = self.points
        total = sum(points[shown[slot]] for slot in line.slots)
        return total if rules.zero_sets else total + points[card]

    def gain(self, layout: list[Face], up: int, slot: int, card: Face, unknown: float) -> float:
        """How much putting ``card`` in ``slot`` lowers the layout's estimate (face-down
        cards at ``unknown``; a line is a set only when all of it shows)."""
        bit = 1 << slot
        points = self.points
        before = float(points[layout[slot]]) if up & bit else unknown
        change = before - points[card]
        if self.plain:  # sets of one positive number: checked without building lines
            old = layout[slot] if up & bit else None
            for others, rest, weight in self.others[slot]:
                if up & others != others:
                    continue
                first = layout[rest[0]]
                if type(first) is not int or first <= 0 or any(layout[s] != first for s in rest):
                    continue
                if old == first:
                    change -= weight * first
                if card == first:
                    change += weight * first
            return change
        for line, others in self.through[slot]:
            if up & others != others:
                continue
            shown = list(layout)
            if up & bit:
                change -= self._line_bonus(line, shown)
            shown[slot] = card
            change += self._line_bonus(line, shown)
        return change

    def best_play(
        self, layout: list[Face], up: int, card: Face, unknown: float
    ) -> tuple[float, int]:
        """(gain, slot) of the best legal place for ``card`` (slot -1: none is legal); the
        first such slot on a tie."""
        rules = self.rules
        best, where = -1e9, -1
        if card == MULLIGAN:
            count = sum(1 for s, c in enumerate(layout) if c == MULLIGAN and up >> s & 1)
            if count + 1 > rules.max_mulligans:  # only onto a face-up mulligan (rule 7.2)
                for slot, old in enumerate(layout):
                    if up >> slot & 1 and old == MULLIGAN:
                        value = self.gain(layout, up, slot, card, unknown)
                        if value > best:
                            best, where = value, slot
                return best, where
        if not self.plain:
            for slot in range(rules.slots):
                value = self.gain(layout, up, slot, card, unknown)
                if value > best:
                    best, where = value, slot
            return best, where
        return self._best_plain(layout, up, card, unknown)

    def _best_plain(
        self, layout: list[Face], up: int, card: Face, unknown: float
    ) -> tuple[float, int]:
        """:meth:`best_play` under plain sets, :meth:`gain` inlined: the playouts' hot loop."""
        points = self.points
        cost = points[card]
        positive = type(card) is int and card > 0
        best, where = -1e9, -1
        nothing: tuple[tuple[int, tuple[int, ...], int], ...] = ()
        for slot, lines in enumerate(self.others):
            old: Face | None = None
            change: float
            if up >> slot & 1:
                old = layout[slot]
                change = float(points[old] - cost)
                paired = positive or (type(old) is int and old > 0)
            else:
                change = unknown - cost
                paired = positive
            for others, rest, weight in lines if paired else nothing:
                if up & others != others:
                    continue
                first = layout[rest[0]]
                if first not in (old, card) or type(first) is not int or first <= 0:
                    continue
                if card != old and all(layout[s] == first for s in rest):
                    change += weight * first if card == first else -weight * first
            if change > best:
                best, where = change, slot
        return best, where

    def ceiling(
        self, layout: list[Face], up: int, unknown: float
    ) -> tuple[float, frozenset[Face] | None]:
        """The most a card's play can gain without making a set (the layout's highest
        slot value: a face-down one at ``unknown``), and the face-up positive cards a
        set could grow from (``None``: any card might make one, under other set rules).
        A card whose points are not below the ceiling, and that is not among those faces,
        gains nothing anywhere: the playouts skip its slot by slot look."""
        points = self.points
        high = unknown if up != self.rules.full_mask else -1e9
        shown = set()
        for slot, card in enumerate(layout):
            if up >> slot & 1:
                value = float(points[card])
                high = max(high, value)
                if type(card) is int and card > 0:
                    shown.add(card)
        return high, (frozenset(shown) if self.plain else None)

    # -- a round -----------------------------------------------------------------------------

    def run(self, state: State, unknown: float, rng: random.Random) -> tuple[int, ...]:
        """The round's scores (rule 8.6 included) once ``state``'s round is played out by
        the model. ``state`` is in play: a seat to draw, play, discard or flip."""
        rules = self.rules
        layouts = [list(layout) for layout in state.cards]
        ups = list(state.face_up)
        deck = list(reversed(state.draw_pile))  # top last, to pop
        piles = [list(pile) for pile in state.discard_piles]
        players = len(ups)
        went_out = state.went_out
        seat = state.turn
        phase = state.phase
        game = _Round(
            self, layouts=layouts, ups=ups, deck=deck, piles=piles, unknown=unknown, rng=rng
        )
        if phase is not Phase.DRAW:  # finish the turn under way
            if phase is Phase.FLIP:
                for flipper in state.flips_owed:
                    game.flip(flipper)
            elif phase is Phase.PLACE:
                assert state.held is not None
                game.play(seat, state.held, from_deck=not state.taken_from_discard)
            else:  # after a play (bounce or discard): the held card is discarded
                assert state.held is not None
                game.discard(seat, state.held, from_deck=False)
            if went_out is None and ups[seat] == rules.full_mask:
                went_out = seat
            seat = (seat + 1) % players
        patience, worst = PATIENCE * players, self.worst
        for turn in range(TURN_LIMIT):
            if turn >= patience:  # the greedy bot's impatience: face-down cards look worse
                game.unknown = min(worst, unknown + IMPATIENCE * (turn - patience) / players)
            if seat == went_out or not game.turn(seat):
                break
            if went_out is None and ups[seat] == rules.full_mask:
                went_out = seat
            seat = (seat + 1) % players
        return round_scores(rules, layouts, went_out)

    def unseen_worth(self, hidden: Sequence[Face]) -> float:
        """The average worth of the cards ``hidden`` (those a seat cannot see), counted for
        each face-down card it does not know; the deck's average when it sees every card."""
        if hidden:
            return sum(self.points[card] for card in hidden) / len(hidden)
        deck = self.rules.deck
        return sum(card_points(self.rules, card) for card in deck) / len(deck)


class _Round:
    """The mutable table of one playout and the greedy habit of its seats."""

    def __init__(
        self,
        model: Playout,
        *,
        layouts: list[list[Face]],
        ups: list[int],
        deck: list[Face],
        piles: list[list[Face]],
        unknown: float,
        rng: random.Random,
    ) -> None:
        self.model = model
        self.layouts = layouts
        self.ups = ups
        self.deck = deck
        self.piles = piles
        self.unknown = unknown
        self.rng = rng

    def can_draw(self) -> bool:
        """Whether a turn may begin (rule 8.7), reshuffling the piles' cards below their
        tops into a new draw pile when the draw pile is empty."""
        if self.deck:
            return True
        rules = self.model.rules
        if not rules.reshuffle:
            return False
        below = [card for pile in self.piles for card in pile[:-1]]
        if below:
            shuffle(below, self.rng)
            self.deck[:] = below
            self.piles[:] = [pile[-1:] for pile in self.piles]
            return True
        return any(self.piles)

    def turn(self, seat: int) -> bool:
        """One whole turn of ``seat``; False when no turn can begin."""
        if not self.deck and not self.can_draw():
            return False
        model, layout, up, unknown = self.model, self.layouts[seat], self.ups[seat], self.unknown
        high, growing = model.ceiling(layout, up, unknown)
        points = model.points
        bar = high - TAKE_MARGIN if self.deck else 1e9
        best_gain, best_pile = -1e9, -1
        for index, pile in enumerate(self.piles):
            if pile:
                top = pile[-1]
                if growing is not None and points[top] >= bar and top not in growing:
                    continue  # it cannot gain the margin: not worth a look
                gain, slot = model.best_play(layout, up, top, unknown)
                if slot >= 0 and gain > best_gain:
                    best_gain, best_pile = gain, index
        if best_pile >= 0 and (best_gain > TAKE_MARGIN or not self.deck):
            card = self.piles[best_pile].pop()
            self.play(seat, card, from_deck=False)
        elif self.deck:
            card = self.deck.pop()
            if growing is not None and points[card] >= high and card not in growing:
                self.discard(seat, card, from_deck=True)  # it gains nothing anywhere
            else:
                self.play(seat, card, from_deck=True)
        else:
            return False
        return True

    def play(self, seat: int, card: Face, *, from_deck: bool) -> None:
        """Keep ``card`` where it gains most (a card taken from a pile always), else
        discard it."""
        layout, up = self.layouts[seat], self.ups[seat]
        gain, slot = self.model.best_play(layout, up, card, self.unknown)
        if slot >= 0 and (gain > 0 or not from_deck):
            displaced = layout[slot]
            layout[slot] = card
            self.ups[seat] = up | 1 << slot
            self.discard(seat, displaced, from_deck=False)
        else:
            self.discard(seat, card, from_deck=from_deck)

    def discard(self, seat: int, card: Face, *, from_deck: bool) -> None:
        """Discard ``card`` (a hazard leaves the game, and the others flip), then the
        flip owed for a discarded draw (rule 10.7)."""
        rules = self.model.rules
        owed: list[int] = []
        if card == HAZARD:
            players = len(self.ups)
            if rules.hazard_flips != "none":
                count = players if rules.hazard_flips == "others" else min(players, 2)
                least = 2 if rules.spare_last_card else 1
                owed = [
                    other
                    for other in ((seat + step) % players for step in range(1, count))
                    if rules.slots - self.ups[other].bit_count() >= least
                ]
        else:
            empty = [pile for pile in self.piles if not pile]
            (self.rng.choice(empty) if empty else self.rng.choice(self.piles)).append(card)
        if from_deck and rules.flip_after_deck_discard:
            owed.insert(0, seat)
        for flipper in owed:
            self.flip(flipper)

    def flip(self, seat: int) -> None:
        """``seat`` turns a random face-down card up."""
        up = self.ups[seat]
        down = [slot for slot in range(self.model.rules.slots) if not up >> slot & 1]
        if down:
            self.ups[seat] = up | 1 << self.rng.choice(down)
