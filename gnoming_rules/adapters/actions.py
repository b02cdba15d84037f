"""Player moves as integers: one fixed action space per ruleset, and the legal-action mask.

Learning frameworks want a fixed set of actions numbered ``0..n-1`` and, each step, a
mask of the legal ones. A :class:`ActionSpace` numbers every player move of a ruleset
once, whatever the seat (the seat is always the one to move), in blocks:

=============  ==========================  ===========================================
actions        move                        count (standard: 9 slots, 2 piles, 42 in all)
=============  ==========================  ===========================================
reveal         ``Reveal(slot)``            one per slot (rule 3.5)
flip           ``Flip(slot)``              one per slot (6.1)
place          ``Place(slot)``             one per slot (4.2)
bounce         ``Bounce(slot)``            one per slot (5.3)
draw           ``Draw()``, ``Draw(pile)``  the draw pile, then each discard pile (4.1)
discard        ``Discard(pile)``           each discard pile (4.4)
hazard         ``Discard()``               a hazard leaves the game (6.1)
=============  ==========================  ===========================================

:meth:`ActionSpace.legal_actions` and :meth:`ActionSpace.mask` are exactly
:func:`~gnoming_rules.engine.legal_moves`, numbered (the test suite checks it over random
games and variants). The tables are built once per ruleset (:func:`action_space`) and
the masks are cached per legal-move tuple, so a step allocates one small array.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..extras import missing_extra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # a clear missing-extra error, not a bare ModuleNotFoundError
    raise missing_extra(missing, "rl") from None

from ..core.engine import legal_moves
from ..core.errors import UsageError
from ..core.moves import Bounce, Discard, Draw, Flip, Place, PlayerMove, Reveal
from ..core.ruleset import Ruleset
from ..core.state import State

__all__ = ["ActionSpace", "action_space", "pile_count"]

Mask = npt.NDArray[np.int8]
"""A 0/1 vector, one entry per action of the space."""

_CACHE_LIMIT = 50_000
"""Most masks one space keeps (as the engine's legal-move memo, it forgets them all when full)."""


def pile_count(ruleset: Ruleset) -> int:
    """The number of discard piles the ruleset plays with (rule 3.3), from its compiled view."""
    return ruleset.compiled.piles


@dataclass(frozen=True, eq=False)
class ActionSpace:
    """The integer actions of one ruleset (see the module's table for the numbering)."""

    ruleset: Ruleset
    slots: int
    """Slots of a layout (rows x cols)."""
    piles: int
    """Discard piles."""
    size: int
    """Number of actions: ``4 * slots + 2 * piles + 2``."""
    names: tuple[str, ...]
    """Each action in words (``"place slot 4"``, ``"draw discard pile 1"``)."""
    _moves: tuple[tuple[PlayerMove, ...], ...] = field(repr=False)
    _masks: dict[int, tuple[tuple[PlayerMove, ...], Mask, tuple[int, ...]]] = field(
        default_factory=dict, repr=False
    )

    # Block offsets, in the order of the module's table.
    @property
    def reveal(self) -> int:
        """The first reveal action (slot 0)."""
        return 0

    @property
    def flip(self) -> int:
        """The first flip action (slot 0)."""
        return self.slots

    @property
    def place(self) -> int:
        """The first place action (slot 0)."""
        return 2 * self.slots

    @property
    def bounce(self) -> int:
        """The first bounce action (slot 0)."""
        return 3 * self.slots

    @property
    def draw(self) -> int:
        """The draw from the draw pile; ``draw + 1 + k`` draws from discard pile ``k``."""
        return 4 * self.slots

    @property
    def discard(self) -> int:
        """The discard on pile 0; ``discard + k`` discards on pile ``k``."""
        return 4 * self.slots + 1 + self.piles

    @property
    def hazard(self) -> int:
        """The discard of a hazard, out of the game."""
        return self.size - 1

    def action(self, move: PlayerMove) -> int:
        """The number of ``move`` (any seat's); raises ``bad-action`` if it has none here."""
        kind = type(move)
        if kind is Draw or kind is Discard:
            pile = move.pile  # type: ignore[union-attr]
            base = self.draw if kind is Draw else self.discard
            if pile is None:
                return base if kind is Draw else self.hazard
            if type(pile) is int and 0 <= pile < self.piles:
                return base + (1 if kind is Draw else 0) + pile
        else:
            slot = move.slot  # type: ignore[union-attr]
            if type(slot) is int and 0 <= slot < self.slots:
                return _SLOT_BLOCKS[kind] * self.slots + slot
        raise UsageError("bad-action", f"{move} has no action in this ruleset")

    def move(self, seat: int, action: int | np.integer[Any]) -> PlayerMove:
        """The move that ``action`` is when ``seat`` makes it; raises ``bad-action``."""
        if not 0 <= seat < len(self._moves):
            raise UsageError(
                "bad-action",
                f"seat {seat!r} is not at the table (seats 0 to {len(self._moves) - 1})",
            )
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise UsageError("bad-action", f"action {action!r} is not an integer")
        if not 0 <= action < self.size:
            raise UsageError("bad-action", f"action {action} is not in 0 to {self.size - 1}")
        return self._moves[seat][action]

    def seat_moves(self, seat: int) -> tuple[PlayerMove, ...]:
        """Every action's move when ``seat`` makes it, by number (a seat the ruleset seats)."""
        return self._moves[seat]

    def legal_actions(self, state: State) -> tuple[int, ...]:
        """The numbers of ``legal_moves(ruleset, state)``, ascending (empty while chance acts)."""
        moves = legal_moves(self.ruleset, state)
        found = self._masks.get(id(moves))  # _entry's look-up, written out: once a step
        if found is None or found[0] is not moves:
            found = self._entry(state)
        return found[2]

    def mask(self, state: State) -> Mask:
        """A fresh 0/1 ``int8`` vector: 1 for each legal action in ``state``."""
        moves = legal_moves(self.ruleset, state)
        found = self._masks.get(id(moves))  # _entry's look-up, written out: once a step
        if found is None or found[0] is not moves:
            found = self._entry(state)
        return found[1].copy()

    def _entry(self, state: State) -> tuple[tuple[PlayerMove, ...], Mask, tuple[int, ...]]:
        """The cached mask and actions of ``state``'s legal moves.

        ``legal_moves`` hands out shared tuples, so the tuple's identity is the key; the
        entry keeps the tuple alive, so its id cannot be reused by another one.
        """
        moves = legal_moves(self.ruleset, state)
        masks = self._masks
        found = masks.get(id(moves))
        if found is not None and found[0] is moves:
            return found
        actions = tuple(sorted(self.action(move) for move in moves))
        mask = np.zeros(self.size, dtype=np.int8)
        mask[list(actions)] = 1
        mask.flags.writeable = False
        if len(masks) >= _CACHE_LIMIT:
            masks.clear()
        entry = (moves, mask, actions)
        masks[id(moves)] = entry
        return entry


_SLOT_BLOCKS: dict[type, int] = {Reveal: 0, Flip: 1, Place: 2, Bounce: 3}


def _names(slots: int, piles: int) -> tuple[str, ...]:
    named: list[str] = []
    for verb in ("reveal", "flip", "place", "bounce"):
        named += [f"{verb} slot {slot}" for slot in range(slots)]
    named.append("draw draw pile")
    named += [f"draw discard pile {pile}" for pile in range(piles)]
    named += [f"discard on pile {pile}" for pile in range(piles)]
    named.append("discard hazard")
    return tuple(named)


def _seat_moves(seat: int, slots: int, piles: int) -> tuple[PlayerMove, ...]:
    kinds: Sequence[type[Reveal | Flip | Place | Bounce]] = (Reveal, Flip, Place, Bounce)
    moves: list[PlayerMove] = [kind(seat, slot) for kind in kinds for slot in range(slots)]
    moves.append(Draw(seat))
    moves += [Draw(seat, pile) for pile in range(piles)]
    moves += [Discard(seat, pile) for pile in range(piles)]
    moves.append(Discard(seat))
    return tuple(moves)


_SPACES: dict[str, ActionSpace] = {}


def action_space(ruleset: Ruleset) -> ActionSpace:
    """The action space of ``ruleset``, built once per distinct ruleset and then shared."""
    key = ruleset.sha256
    found = _SPACES.get(key)
    if found is not None:
        return found
    rules = ruleset.compiled
    slots, piles = rules.slots, rules.piles
    names = _names(slots, piles)
    space = ActionSpace(
        ruleset=ruleset,
        slots=slots,
        piles=piles,
        size=len(names),
        names=names,
        _moves=tuple(_seat_moves(seat, slots, piles) for seat in range(rules.max_players)),
    )
    if len(_SPACES) >= 1_000:
        _SPACES.clear()
    _SPACES[key] = space
    return space
