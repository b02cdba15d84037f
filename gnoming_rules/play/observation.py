"""What one seat can see of the table: :func:`observe` and the :class:`Observation` it gives.

A :class:`~gnoming_rules.core.state.State` is the referee's view: every card, the face-down
ones and the draw pile's order included. A fair bot, or a server that sends each player
their view, needs only what that seat could know at the table. By the rules:

- **Face-down cards are hidden**, in every layout, the seat's own included (nobody looks
  at their own face-down cards: rule 3.2, 3.5), except the ones this seat *knows* (rule
  11.1: it peeked at them, placed them face down, or saw them on a discard pile): those
  are shown to it, and :attr:`Observation.known` says they still lie face down. A
  face-up card is public: it was turned up in front of everyone, and at the end of a
  round every card is (8.1).
- **Who knows which face-down card is public** (every peek, placement and swap is made
  in front of the table, 11.2-11.4); what the card is, only its knowers see.
- **The draw pile's order is hidden**; its size is public (the pile lies on the table).
- **The discard piles are public, whole.** Every card on them went there face up (3.3,
  4.4), so a player who remembers knows each pile from bottom to top, not only its top.
- **The removed cards are public.** They are hazards, each turned up where a discard pile
  starts (3.3) or discarded face up (4.4, 6.1).
- **The held card** is public when it came from a discard pile (it lay face up) or was
  displaced from a layout (it is turned face up, 4.2, 5.3). A card drawn from the draw
  pile is seen only by the player who drew it, until it is played or discarded: the
  rules never show it to the others, so the observation hides it from them.
- Everything else is the game's public course: the phase, whose turn it is, the slots
  filled this turn, who owes a flip, who went out, the scores of finished rounds.

A spectator (``observe(state)``, no seat) sees what the whole table sees: the same, with
the card drawn from the draw pile hidden whoever drew it, and no face-down card (a
spectator knows only face-up cards, 11.7).

Two states that differ only in what a seat cannot see give that seat equal observations
(the test suite checks it). The observation holds no ruleset: read the rules from the
:class:`~gnoming_rules.core.ruleset.Ruleset` you already have.

Deciding from a view: :func:`stand_in` turns an observation back into a
:class:`~gnoming_rules.core.state.State` that shows the same and holds
:data:`~gnoming_rules.core.cards.HIDDEN` (``"?"``, which is no card) wherever a card is
hidden, and the cards the seat knows face down as they are, with who knows them. The
engine decides legality without reading a hidden card, so
:func:`~gnoming_rules.core.engine.legal_moves`, :func:`~gnoming_rules.core.engine.is_legal`
and :func:`~gnoming_rules.core.engine.explain` accept an observation and answer exactly
as on the full state. This module is the one place that says what a seat can see:
:func:`stand_in` only fills in what :func:`observe` left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import HIDDEN, Face
from ..core.errors import UsageError
from ..core.state import Phase, State

__all__ = ["Observation", "observe"]


@dataclass(frozen=True, slots=True)
class Observation:
    """The table as one seat sees it (see the module's notes for what is hidden and why).

    Fields mirror :class:`~gnoming_rules.core.state.State` where they are public.
    """

    seat: int | None
    """The seat whose view this is; ``None`` for a spectator (what the whole table sees)."""
    first_player: int
    round: int
    phase: Phase
    turn: int
    """The seat whose turn it is (in setup, the seat revealing); -1 while dealing or over."""
    actor: int | None
    """The seat to move next (``State.actor``); ``None`` while chance decides or after the game."""
    layouts: tuple[tuple[Face | None, ...], ...]
    """Each seat's layout, row-major, ``None`` for a face-down card this seat does not know
    (``EMPTY`` for an empty slot, rule 10.6). A face-down card it knows is shown: see
    :attr:`known` to tell it from a face-up one."""
    draw_pile_size: int
    """How many cards the draw pile holds (their order is hidden)."""
    discard_piles: tuple[tuple[Face, ...], ...]
    """The discard piles (as many as the ruleset's ``discard.piles``), each bottom first."""
    removed: tuple[Face, ...]
    """Cards out of the game this round (hazards)."""
    held: Face | None
    """The card in the active player's hand, when this seat can see it; else ``None``."""
    held_hidden: bool
    """True when a card is held that this seat cannot see (drawn from the draw pile by
    another seat, not yet played)."""
    taken_from_discard: bool
    filled: int
    """Bit mask of the slots filled this turn in the active seat's layout."""
    chain: bool
    flips_owed: tuple[int, ...]
    went_out: int | None
    scores: tuple[tuple[int, ...], ...]
    known: tuple[tuple[int, ...], ...] = ()
    """Who knows each face-down card (rule 11.1), as ``State.known``: ``known[p][s]`` is a
    bit mask of the seats that know seat ``p``'s face-down slot ``s``; 0 for a face-up
    slot. Public: the table saw every peek, placement and swap. ``()`` under rules where
    nobody can know a face-down card (§1-10)."""
    peeks: int = 0
    """Setup: the peeks the seat in ``turn`` has made (rule 11.2)."""
    power: str | None = None
    """The power open to the seat in ``turn`` (phase ``POWER``, rule 11.4)."""
    looked: tuple[int, int] | None = None
    """The card ``look_and_swap`` looked at, as ``(seat, slot)`` (rule 11.8)."""
    turns: int = 0
    """Turns completed in this round, counted under ``round_end.knock`` (rule 11.5)."""

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.layouts)

    def is_known(self, seat: int, slot: int) -> bool:
        """True when ``seat``'s ``slot`` is face down and the observing seat knows it (the
        layout shows its card, rule 11.1); a spectator knows no face-down card."""
        known = self.known
        viewer = self.seat
        return bool(known) and viewer is not None and bool(known[seat][slot] >> viewer & 1)

    def is_face_up(self, seat: int, slot: int) -> bool:
        """True when ``seat``'s ``slot`` is face up (an empty slot counts as face up,
        10.6): the layout shows a card that the observing seat does not merely know."""
        return self.layouts[seat][slot] is not None and not self.is_known(seat, slot)

    def face_up_mask(self, seat: int) -> int:
        """``seat``'s face-up slots as a bit mask, as ``State.face_up[seat]``."""
        shown = sum(1 << slot for slot, card in enumerate(self.layouts[seat]) if card is not None)
        viewer = self.seat
        if not self.known or viewer is None:
            return shown
        for slot, mask in enumerate(self.known[seat]):
            if mask >> viewer & 1:
                shown &= ~(1 << slot)
        return shown

    def decision_state(self) -> State:
        """:func:`decision_state` of this view: what the engine decides the open moves on
        when given the observation itself."""
        return decision_state(self)

    @property
    def own_layout(self) -> tuple[Face | None, ...]:
        """The observing seat's layout (``None`` for its face-down cards).

        Raises :class:`~gnoming_rules.core.errors.GnomingError` (``bad-seat``) for a spectator's
        observation, which has no layout of its own.
        """
        if self.seat is None:
            raise UsageError("bad-seat", "a spectator's observation has no layout of its own")
        return self.layouts[self.seat]


def observe(state: State, seat: int | None = None) -> Observation:
    """What ``seat`` can see of ``state``; with no seat, what the whole table sees (a
    spectator: the card drawn from the draw pile stays hidden until it is played).

    Raises :class:`~gnoming_rules.core.errors.UsageError` (``bad-seat``) when ``seat`` is not
    at the table.

    Example::

        >>> import random
        >>> import gnoming_rules as gr
        >>> from gnoming_rules.play import observe
        >>> rules = gr.load_ruleset("standard")
        >>> start = gr.new_game(rules, players=3, first_player=1)
        >>> state = gr.apply(rules, start, gr.sample_chance(rules, start, random.Random(7)))
        >>> state = gr.apply(rules, state, gr.Reveal(1, 4))
        >>> seen = observe(state, seat=2)
        >>> seen.layouts[1]  # seat 1's layout: the card it revealed, the rest face down
        (None, None, None, None, 5, None, None, None, None)
        >>> seen.draw_pile_size, seen.actor
        (81, 1)
    """
    players = state.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise UsageError(
            "bad-seat", f"seat {seat!r} is not at the table (seats 0 to {players - 1})"
        )
    hidden = held_is_hidden(state, seat)
    known = state.known
    return Observation(
        **{name: getattr(state, name) for name in _PUBLIC},
        seat=seat,
        actor=state.actor,
        layouts=tuple(state.visible_layout(other) for other in range(players))
        if not known
        else tuple(_known_layout(state, other, seat) for other in range(players)),
        known=tuple(
            tuple(0 if up >> slot & 1 else mask for slot, mask in enumerate(masks))
            for up, masks in zip(state.face_up, known, strict=True)
        )
        if known
        else (),
        draw_pile_size=len(state.draw_pile),
        held=None if hidden else state.held,
        held_hidden=hidden,
    )


def _known_layout(state: State, seat: int, viewer: int | None) -> tuple[Face | None, ...]:
    """``seat``'s layout as ``viewer`` sees it: the face-up cards and the face-down cards it
    knows (rule 11.1); a spectator (``None``) sees only the face-up ones."""
    if viewer is None:
        return state.visible_layout(seat)
    up, masks, bit = state.face_up[seat], state.known[seat], 1 << viewer
    return tuple(
        card if up >> slot & 1 or masks[slot] & bit else None
        for slot, card in enumerate(state.cards[seat])
    )


_PUBLIC = (
    "first_player",
    "round",
    "phase",
    "turn",
    "discard_piles",
    "removed",
    "taken_from_discard",
    "filled",
    "chain",
    "flips_owed",
    "went_out",
    "scores",
    "peeks",
    "power",
    "looked",
    "turns",
)
"""The fields of a :class:`~gnoming_rules.core.state.State` that every seat sees as they
are (an :class:`Observation` has them under the same names)."""


def held_is_hidden(state: State, seat: int | None) -> bool:
    """Whether a card is held that ``seat`` (``None``: a spectator) cannot see: drawn from
    the draw pile by another seat and not yet played (it stays hidden while a reshuffle is
    due). One of the module's rule steps (not in ``__all__``)."""
    return (
        state.held is not None
        and seat != state.turn
        and not state.taken_from_discard
        and (state.phase is Phase.PLACE or state.phase is Phase.RESHUFFLE)
    )


def stand_in(observation: Observation) -> State:
    """A :class:`~gnoming_rules.core.state.State` that shows exactly what ``observation``
    shows, with :data:`~gnoming_rules.core.cards.HIDDEN` for every card it hides (face-down
    cards it does not know, the draw pile, a held card drawn by another seat); the
    face-down cards it knows lie face down with their faces, and every seat's knowledge
    is the observation's :attr:`~Observation.known`.

    The engine's answers about the moves open now (``legal_moves``, ``is_legal``,
    ``explain``, and ``apply``'s refusals) are the same on it as on the real state, except
    while the seat to move holds a card the observation hides: then they depend on that
    card (``legal_moves`` given the observation itself refuses with ``hidden-card``).
    Look ahead with ``apply`` on it if you like; the hidden cards it deals out are
    stand-ins, not the game's, and so is any score computed from them.
    """
    layouts = observation.layouts
    return State(
        **{name: getattr(observation, name) for name in _PUBLIC},
        cards=tuple(
            tuple(HIDDEN if card is None else card for card in layout) for layout in layouts
        ),
        face_up=tuple(observation.face_up_mask(seat) for seat in range(len(layouts))),
        draw_pile=(HIDDEN,) * observation.draw_pile_size,
        held=HIDDEN if observation.held_hidden else observation.held,
        known=observation.known,
    )


def decision_state(observation: Observation) -> State:
    """:func:`stand_in`, for deciding the moves open now: raises
    :class:`~gnoming_rules.core.errors.UsageError` (``hidden-card``) when they depend on a card
    the observation hides (the seat to move holds a card drawn by it from the draw pile,
    and this is another seat's or a spectator's view)."""
    if observation.held_hidden and observation.phase is Phase.PLACE:
        who = "a spectator" if observation.seat is None else f"seat {observation.seat}"
        raise UsageError(
            "hidden-card",
            f"{who} cannot see the card seat {observation.turn} drew, and the moves open to "
            "that seat depend on it: decide from the drawing seat's own observation",
        )
    return stand_in(observation)
