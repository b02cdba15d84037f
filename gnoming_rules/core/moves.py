"""Moves: small immutable values, one class per action of the record format, plus chance events.

Player moves name the seat that makes them. Chance events (:class:`Deal`,
:class:`Reshuffle`) carry the random outcome itself, so the engine has no randomness of
its own and a replay is exact. Moves compare and hash by value; the engine hands out
shared instances from :func:`gnoming_rules.legal_moves`, so bots need not build any.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from .cards import Face, face_text


@dataclass(frozen=True, slots=True)
class Reveal:
    """Setup: ``player`` turns up one of their face-down cards (rule 3.5)."""

    action: ClassVar[str] = "reveal"
    player: int
    slot: int

    def __str__(self) -> str:
        return f"seat {self.player} reveals slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Draw:
    """``player`` draws from the draw pile (``pile=None``) or discard ``pile`` 0, 1, ... (4.1)."""

    action: ClassVar[str] = "draw"
    player: int
    pile: int | None = None

    @property
    def source(self) -> str:
        """``"deck"`` or ``"discard"``, as in a record."""
        return "deck" if self.pile is None else "discard"

    def __str__(self) -> str:
        where = "the draw pile" if self.pile is None else f"discard pile {self.pile}"
        return f"seat {self.player} draws from {where}"


@dataclass(frozen=True, slots=True)
class Place:
    """``player`` plays the held card into ``slot``; the card there becomes held (4.2)."""

    action: ClassVar[str] = "place"
    player: int
    slot: int

    def __str__(self) -> str:
        return f"seat {self.player} plays the held card into slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Bounce:
    """``player`` bounces the held card into ``slot``, displacing the card there (5.3)."""

    action: ClassVar[str] = "bounce"
    player: int
    slot: int

    def __str__(self) -> str:
        return f"seat {self.player} bounces the held card into slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Discard:
    """``player`` discards the held card on ``pile``; a hazard names no pile (4.4, 6.1)."""

    action: ClassVar[str] = "discard"
    player: int
    pile: int | None = None

    def __str__(self) -> str:
        where = "out of the game (hazard)" if self.pile is None else f"on discard pile {self.pile}"
        return f"seat {self.player} discards {where}"


@dataclass(frozen=True, slots=True)
class Flip:
    """After a hazard, ``player`` turns up one of their face-down cards (6.1)."""

    action: ClassVar[str] = "flip"
    player: int
    slot: int

    def __str__(self) -> str:
        return f"seat {self.player} flips slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Peek:
    """``player`` looks at a face-down card without turning it up: their own ``slot``
    (``target`` ``None``, a setup peek of rule 11.2 or the power ``peek_own``), or seat
    ``target``'s (the power ``peek_other``, or the look of ``look_and_swap``, 11.4)."""

    action: ClassVar[str] = "peek"
    player: int
    slot: int
    target: int | None = None

    def __post_init__(self) -> None:
        """``Peek(p, s, p)`` is ``Peek(p, s)``: one's own card has one spelling."""
        target: object = self.target
        if type(target) is int and type(self.player) is int and target == self.player:
            object.__setattr__(self, "target", None)

    @property
    def seat(self) -> int:
        """The seat whose card is looked at."""
        return self.player if self.target is None else self.target

    def __str__(self) -> str:
        whose = "their" if self.target is None else f"seat {self.target}'s"
        return f"seat {self.player} peeks at {whose} slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Swap:
    """``player`` exchanges their ``slot`` with seat ``target``'s ``target_slot`` (the power
    ``swap_blind``, or the swap after ``look_and_swap``'s look, rule 11.4): each card keeps
    its face-up state and the seats that know it."""

    action: ClassVar[str] = "swap"
    player: int
    slot: int
    target: int
    target_slot: int

    def __str__(self) -> str:
        return (
            f"seat {self.player} swaps their slot {self.slot} with seat {self.target}'s "
            f"slot {self.target_slot}"
        )


@dataclass(frozen=True, slots=True)
class Pass:
    """``player`` declines the power open to them, or the swap after a look (rule 11.4)."""

    action: ClassVar[str] = "pass"
    player: int

    def __str__(self) -> str:
        return f"seat {self.player} passes"


@dataclass(frozen=True, slots=True)
class Knock:
    """``player`` knocks instead of drawing: every other seat takes one more turn, then the
    round ends (rule 11.5)."""

    action: ClassVar[str] = "knock"
    player: int

    def __str__(self) -> str:
        return f"seat {self.player} knocks"


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the round's shuffled deck, top card first (rule 3.1)."""

    action: ClassVar[str] = "deal"
    cards: tuple[Face, ...]

    def __str__(self) -> str:
        return f"deal of {len(self.cards)} cards"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance: the new draw pile after the draw pile ran out, top card first (rule 8.7)."""

    action: ClassVar[str] = "reshuffle"
    cards: tuple[Face, ...]

    def __str__(self) -> str:
        return f"reshuffle into {' '.join(face_text(c) for c in self.cards)}"


PlayerMove: TypeAlias = Reveal | Draw | Place | Bounce | Discard | Flip | Peek | Swap | Pass | Knock
"""A decision by a seat."""
ChanceEvent: TypeAlias = Deal | Reshuffle
"""A random outcome, supplied from outside the engine."""
Move: TypeAlias = PlayerMove | ChanceEvent
"""Anything :func:`gnoming_rules.apply` takes."""

PLAYER_MOVE_TYPES: tuple[type[PlayerMove], ...] = (
    Reveal,
    Draw,
    Place,
    Bounce,
    Discard,
    Flip,
    Peek,
    Swap,
    Pass,
    Knock,
)


def piles_text(piles: int) -> str:
    """The discard piles that exist, as a message names them: ``0 or 1``, ``0``, ``0 to 3``."""
    last = piles - 1
    return "0" if not last else "0 or 1" if last == 1 else f"0 to {last}"


__all__ = [
    "Bounce",
    "ChanceEvent",
    "Deal",
    "Discard",
    "Draw",
    "Flip",
    "Knock",
    "Move",
    "Pass",
    "Peek",
    "Place",
    "PlayerMove",
    "Reshuffle",
    "Reveal",
    "Swap",
]
