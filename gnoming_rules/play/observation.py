"""What one seat can see of the table: :func:`observe` and the :class:`Observation` it gives.

A :class:`~gnoming_rules.core.state.State` is the referee's view: every card, the face-down
ones and the draw pile's order included. A fair bot, or a server that sends each player
their view, needs only what that seat could know at the table. By the rules:

- **Face-down cards are hidden**, in every layout, the seat's own included (nobody looks
  at their own face-down cards: rule 3.2, 3.5). A face-up card is public: it was turned
  up in front of everyone, and at the end of a round every card is (8.1).
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

Two states that differ only in what a seat cannot see give that seat equal observations
(the test suite checks it). The observation holds no ruleset: read the rules from the
:class:`~gnoming_rules.core.ruleset.Ruleset` you already have.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import Face
from ..core.errors import GnomingError
from ..core.state import Phase, State

__all__ = ["Observation", "observe"]


@dataclass(frozen=True, slots=True)
class Observation:
    """The table as one seat sees it (see the module's notes for what is hidden and why).

    Fields mirror :class:`~gnoming_rules.core.state.State` where they are public.
    """

    seat: int
    """The seat whose view this is."""
    first_player: int
    round: int
    phase: Phase
    turn: int
    """The seat whose turn it is (in setup, the seat revealing); -1 while dealing or over."""
    actor: int | None
    """The seat to move next (``State.actor``); ``None`` while chance decides or after the game."""
    layouts: tuple[tuple[Face | None, ...], ...]
    """Each seat's layout, row-major, ``None`` for a face-down card."""
    draw_pile_size: int
    """How many cards the draw pile holds (their order is hidden)."""
    discard_piles: tuple[tuple[Face, ...], ...]
    """The two discard piles, each bottom first."""
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

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.layouts)

    @property
    def own_layout(self) -> tuple[Face | None, ...]:
        """The observing seat's layout (``None`` for its face-down cards)."""
        return self.layouts[self.seat]


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` can see of ``state``.

    Raises :class:`~gnoming_rules.core.errors.GnomingError` (``bad-seat``) when ``seat`` is not
    at the table.
    """
    players = state.players
    if type(seat) is not int or not 0 <= seat < players:
        raise GnomingError(
            "bad-seat", f"seat {seat!r} is not at the table (seats 0 to {players - 1})"
        )
    held = state.held
    hidden = _held_hidden(state, seat)
    return Observation(
        seat=seat,
        first_player=state.first_player,
        round=state.round,
        phase=state.phase,
        turn=state.turn,
        actor=state.actor,
        layouts=tuple(state.visible_layout(other) for other in range(players)),
        draw_pile_size=len(state.draw_pile),
        discard_piles=state.discard_piles,
        removed=state.removed,
        held=None if hidden else held,
        held_hidden=hidden,
        taken_from_discard=state.taken_from_discard,
        filled=state.filled,
        chain=state.chain,
        flips_owed=state.flips_owed,
        went_out=state.went_out,
        scores=state.scores,
    )


def _held_hidden(state: State, seat: int) -> bool:
    """Whether a card is held that ``seat`` cannot see: drawn from the draw pile by another
    seat and not yet played (it stays hidden while a reshuffle is due)."""
    return (
        state.held is not None
        and seat != state.turn
        and not state.taken_from_discard
        and (state.phase is Phase.PLACE or state.phase is Phase.RESHUFFLE)
    )
