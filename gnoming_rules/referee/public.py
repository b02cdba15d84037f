"""Replaying a public-information record: what the table has seen of a round, card by card.

A public record (``information: public``, docs/record-format.md) holds no deal. The validator
replays it on a state whose unseen cards are :data:`~gnoming_rules.core.cards.HIDDEN`
stand-ins, as a seat's view does (:func:`~gnoming_rules.play.observation.stand_in`): the
engine decides every move without reading a hidden card, so its refusals, in their
order, are those of the full game. Each card the record names where one becomes visible
replaces its stand-in, and :class:`Seen` counts it (rule 1.1: no face may be known more
often than the deck holds it). After a reshuffle (8.7) the draw pile's cards are known as
a set, not in order: a card drawn from it must be one of them. A finished round's
``final`` layouts fill in what was never turned up, and the round is scored from them.

Each check raises :class:`~gnoming_rules.core.errors.IllegalMove` with its stable code
(``impossible-card``, ``card-mismatch``, ``bad-record``); the validator says where.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from ..core.cards import EMPTY, HAZARD, HIDDEN, Face, a_card, face_text
from ..core.engine import apply
from ..core.errors import IllegalMove
from ..core.moves import Bounce, Deal, Discard, Draw, Place, Reshuffle, Swap
from ..core.rules.round_end import end_round
from ..core.ruleset import Ruleset
from ..core.state import State, below_tops
from ..formats.record import Start

IMPOSSIBLE: Final = "impossible-card"


def start_problem(ruleset: Ruleset, start: Start) -> str | None:
    """Why ``start`` cannot begin a round under ``ruleset`` (rule 3.3), or ``None``: one
    non-hazard per discard pile, and only hazards removed. (How many copies it names is
    counted in the replay: :meth:`Seen.begin`.)"""
    piles = ruleset.compiled.piles
    if len(start.piles) != piles:
        return f"start.piles: one card per discard pile ({piles}), got {len(start.piles)}"
    for index, card in enumerate(start.piles):
        if card == HAZARD:
            return f"start.piles[{index}]: a hazard never starts a pile: it is removed (3.3)"
    for index, card in enumerate(start.removed):
        if card != HAZARD:
            return f"start.removed[{index}]: only hazards are removed (3.3), got {a_card(card)}"
    return None


def final_problem(
    ruleset: Ruleset, players: int, final: Sequence[Sequence[Face | None]]
) -> str | None:
    """Why ``final`` is no list of every seat's layout (one face per slot), or ``None``."""
    if len(final) != players:
        return f"final: {len(final)} layouts for {players} players"
    slots = ruleset.compiled.slots
    for seat, layout in enumerate(final):
        if len(layout) != slots:
            return f"final[{seat}]: {len(layout)} cards; a layout has {slots}"
    return None


def _take(pile: Counter[Face], card: Face, how: str, none: str) -> None:
    """Take ``card`` from ``pile``, the cards of a reshuffled draw pile that nobody has seen
    since; when it holds none, ``impossible-card`` (rule 1.1): ``how`` the card was seen,
    ``none`` why it cannot be, and what the pile holds."""
    if pile[card] <= 0:
        left = ", ".join(face_text(face) for face in sorted(pile.elements(), key=str))
        raise IllegalMove(
            IMPOSSIBLE, "1.1", f"{how} {a_card(card)}, {none} (it holds {left or 'nothing'})"
        )
    pile[card] -= 1


class Seen:
    """What the table has seen of the current round: every face known, each physical card
    once (the layouts' known cards, the discard piles, the held card, the removed cards,
    a reshuffled draw pile), and the reshuffled draw pile's cards still in it."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.deck: Counter[Face] = ruleset.compiled.deck_counts
        self.known: Counter[Face] = Counter()
        self.pile: Counter[Face] | None = None
        """The draw pile's cards as a set, after a reshuffle this round; else ``None``."""
        self.blind: set[tuple[int, int]] = set()
        """Under ``play.placed: down`` (rule 11.3): the layout slots (seat, slot) holding a
        card drawn unnamed from a reshuffled draw pile and never seen since: when it is
        named, it must be one the pile held."""
        self.held_blind = False
        """Whether the held card is such a card."""

    def begin(self, ruleset: Ruleset, state: State, start: Start) -> State:
        """The state after round ``state.round``'s start: the piles started as ``start``
        says, every other card a stand-in. Raises ``impossible-card`` (rule 1.1) when
        ``start`` names more copies of a face than the deck holds."""
        self.known, self.pile = Counter(), None
        self.blind, self.held_blind = set(), False
        for card in (*start.removed, *start.piles):
            self.learn(card, "the start names")
        rest = list((self.deck - self.known).elements())
        size = state.players * ruleset.compiled.slots
        order = (*rest[:size], *start.removed, *start.piles, *rest[size:])
        dealt = apply(ruleset, state, Deal(order))
        hidden = (HIDDEN,) * ruleset.compiled.slots
        return dealt.replace(
            cards=(hidden,) * state.players, draw_pile=(HIDDEN,) * len(dealt.draw_pile)
        )

    def learn(self, card: Face, how: str, state: State | None = None) -> None:
        """Count ``card``, seen for the first time this round; ``how`` says where, for the
        message. Raises ``impossible-card`` when the deck holds no more of that face,
        saying where the copies already known lie in ``state`` (the table before ``card``
        is put in its place), when it is given."""
        self.known[card] += 1
        if self.known[card] > self.deck[card]:
            copies = self.deck[card]
            held = f"holds {copies} cop{'y' if copies == 1 else 'ies'}" if copies else "holds none"
            places = [] if state is None else known_places(state, card)
            where = f": {', '.join(places)}" if places else ""
            raise IllegalMove(
                IMPOSSIBLE,
                "1.1",
                f"{how} {a_card(card)}, but the deck {held} and "
                f"{self.known[card] - 1} {'is' if self.known[card] == 2 else 'are'} already "
                f"known this round{where}",
            )

    def drawn(self, card: Face, seat: int, state: State | None = None) -> None:
        """Count ``card``, drawn by ``seat`` from the draw pile (``state``: as in
        :meth:`learn`)."""
        if self.pile is None:
            self.learn(card, f"seat {seat} drew", state)
        else:
            _take(self.pile, card, f"seat {seat} drew", "but the reshuffled draw pile holds none")

    def named(self, card: Face, how: str, state: State, blind: bool) -> None:
        """Count ``card``, a stand-in the record names now (``how``), as :meth:`learn`
        does; or, when ``blind`` (it was drawn unnamed from a reshuffled draw pile, rule
        11.3), take it from the pile's cards, which must hold it."""
        if not blind or self.pile is None:
            self.learn(card, how, state)
        else:
            _take(
                self.pile,
                card,
                how,
                "drawn from the reshuffled draw pile, which held none that nobody has seen since",
            )

    def track(self, move: object) -> None:
        """Follow the cards drawn unnamed from a reshuffled draw pile (:attr:`blind`)
        through ``move``, once it is replayed (under ``play.placed: down`` only)."""
        kind = type(move)
        if kind is Draw:
            draw: Draw = move  # type: ignore[assignment]
            self.held_blind = draw.pile is None and self.pile is not None
        elif kind is Place or kind is Bounce:
            play: Place = move  # type: ignore[assignment]
            spot = (play.player, play.slot)
            displaced = spot in self.blind
            if self.held_blind:
                self.blind.add(spot)
            else:
                self.blind.discard(spot)
            self.held_blind = displaced
        elif kind is Swap:
            swap: Swap = move  # type: ignore[assignment]
            mine, theirs = (swap.player, swap.slot), (swap.target, swap.target_slot)
            had_mine, had_theirs = mine in self.blind, theirs in self.blind
            for spot, blind in ((mine, had_theirs), (theirs, had_mine)):
                if blind:
                    self.blind.add(spot)
                else:
                    self.blind.discard(spot)
        elif kind is Discard:
            self.held_blind = False

    def reshuffle(self, ruleset: Ruleset, state: State) -> State:
        """The state after a reshuffle whose order nobody saw: the engine checks that one
        is due (``wrong-phase`` otherwise), and the new draw pile is known as a set."""
        below = tuple(below_tops(state.discard_piles))
        after = apply(ruleset, state, Reshuffle(below))
        # (under `down`, what an earlier reshuffled pile still holds was drawn unnamed)
        self.pile = Counter(below) + (self.pile or Counter())
        return after.replace(draw_pile=(HIDDEN,) * len(below))

    def finish(
        self, ruleset: Ruleset, after: State, final: Sequence[Sequence[Face | None]]
    ) -> State:
        """``after``, the state that ended a round, with ``final``'s cards in its layouts
        and the round scored from them (8.2-8.6). Raises ``card-mismatch`` for a face that
        differs from the card already seen in its slot, then ``impossible-card`` for one
        the deck cannot hold."""
        for seat, (layout, faces) in enumerate(zip(after.cards, final, strict=True)):
            for slot, (card, face) in enumerate(zip(layout, faces, strict=True)):
                # null marks exactly the slots emptied during play (10.6)
                if (card == EMPTY) != (face is None) or card not in (HIDDEN, EMPTY, face):
                    written = "null" if face is None else a_card(face)
                    raise IllegalMove(
                        "card-mismatch",
                        "10.6" if card == EMPTY or face is None else "8.1",
                        f"final[{seat}][{slot}] is {written}, but seat {seat}'s slot "
                        f"{slot} showed {a_card(card)}",
                    )
        for seat, (layout, faces) in enumerate(zip(after.cards, final, strict=True)):
            for slot, (card, face) in enumerate(zip(layout, faces, strict=True)):
                if card == HIDDEN and face is not None:
                    how = f"final[{seat}][{slot}] names"
                    self.named(face, how, after, (seat, slot) in self.blind)
        layouts = tuple(tuple(EMPTY if face is None else face for face in faces) for faces in final)
        # The engine's own round end (rules.round_end.end_round), run again on the true
        # layouts in place of the stand-ins it scored: the round's scores, and whether the
        # game is over (rule 10.8 reads the true totals).
        before = after.replace(round=after.round - 1, cards=layouts, scores=after.scores[:-1])
        return end_round(ruleset.compiled, before, after.went_out)


def known_places(state: State, card: Face) -> list[str]:
    """Where the table shows ``card`` in ``state`` (a public replay's state, which holds
    stand-ins for what nobody saw): ``seat 1's slot 4``, ``discard pile 0``, ``held by
    seat 2``, ``out of the game``, each once a copy. The evidence of an
    ``impossible-card`` refusal."""
    places = [
        f"seat {seat}'s slot {slot}"
        for seat, layout in enumerate(state.cards)
        for slot, shown in enumerate(layout)
        if shown == card
    ]
    for index, pile in enumerate(state.discard_piles):
        places += [f"discard pile {index}"] * pile.count(card)
    if state.held == card:
        places.append(f"held by seat {state.turn}")
    places += ["out of the game"] * state.removed.count(card)
    return places


__all__ = ["known_places"]
