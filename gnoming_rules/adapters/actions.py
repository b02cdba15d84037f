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

A ruleset with options of rules 11.1-11.8 has more blocks after these, each only where the
ruleset has such moves (so a ruleset of §1-10 keeps its space), P = ``players.max``:

=============  ==========================  ===========================================
peek           ``Peek(slot)``              own slot: setup peeks, ``peek_own`` (11.2)
peek_at        ``Peek(slot, target)``      P x S, by target seat then slot
                                           (``peek_other``, ``look_and_swap``'s look)
swap           ``Swap(slot, t, t_slot)``   S x P x S (``swap_blind``, ``look_and_swap``)
pass           ``Pass()``                  decline a power (11.4)
knock          ``Knock()``                 ``round_end.knock`` (11.5)
=============  ==========================  ===========================================

Seats in ``peek_at`` and ``swap`` are absolute (a move names its target seat); the
actions aimed at the mover's own seat are never legal: a ``swap`` with oneself is refused
as it stands, and a ``peek_at`` of oneself, which would be the plain ``peek`` again,
names a seat past the table instead, so that the engine refuses it too (``bad-slot``) and
each legal move has exactly one action.

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
from ..core.moves import (
    Bounce,
    Discard,
    Draw,
    Flip,
    Knock,
    Pass,
    Peek,
    Place,
    PlayerMove,
    Reveal,
    Swap,
)
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
    """Number of actions: ``4 * slots + 2 * piles + 2``, and the blocks of §11."""
    names: tuple[str, ...]
    """Each action in words (``"place slot 4"``, ``"draw discard pile 1"``)."""
    _moves: tuple[tuple[PlayerMove, ...], ...] = field(repr=False)
    seats: int = 0
    """Seats the §11 blocks count (``players.max``)."""
    blocks: tuple[tuple[str, int], ...] = ()
    """The §11 blocks there are, as ``(name, first action)`` (see the module's table)."""
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
        return 4 * self.slots + 1 + 2 * self.piles

    def block(self, name: str) -> int | None:
        """The first action of the §11 block ``name`` (``peek``, ``peek_at``, ``swap``,
        ``pass``, ``knock``), or ``None`` where the ruleset has no such move."""
        return dict(self.blocks).get(name)

    def action(self, move: PlayerMove) -> int:
        """The number of ``move`` (any seat's); raises ``bad-action`` if it has none here."""
        kind = type(move)
        if kind in _EXTRA:
            found = self._extra_action(move)
            if found is not None:
                return found
        elif kind is Draw or kind is Discard:
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

    def _extra_action(self, move: PlayerMove) -> int | None:
        """The number of a move of §11, or ``None`` where this space has none for it."""
        slots, seats = self.slots, self.seats
        if isinstance(move, Pass | Knock):
            return self.block(move.action)
        if isinstance(move, Peek):
            if not _within(move.slot, slots):
                return None
            if move.target is None or move.target == move.player:
                base = self.block("peek")
                return None if base is None else base + move.slot
            base = self.block("peek_at")
            if base is None or not _within(move.target, seats):
                return None
            return base + move.target * slots + move.slot
        if isinstance(move, Swap):
            base = self.block("swap")
            if (
                base is None
                or not _within(move.slot, slots)
                or not _within(move.target, seats)
                or not _within(move.target_slot, slots)
            ):
                return None
            return base + (move.slot * seats + move.target) * slots + move.target_slot
        return None

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
_EXTRA: frozenset[type] = frozenset({Peek, Swap, Pass, Knock})


def _within(value: object, size: int) -> bool:
    return type(value) is int and 0 <= value < size


def extra_blocks(ruleset: Ruleset) -> tuple[str, ...]:
    """The §11 blocks ``ruleset``'s moves need, in the module's order."""
    rules = ruleset.compiled
    powers = set(rules.powers.values())
    wanted = {
        "peek": rules.peek_at_start > 0 or "peek_own" in powers,
        "peek_at": bool(powers & {"peek_other", "look_and_swap"}),
        "swap": bool(powers & {"swap_blind", "look_and_swap"}),
        "pass": bool(powers),
        "knock": rules.knock,
    }
    return tuple(name for name, needed in wanted.items() if needed)


def _extra_names(blocks: Sequence[str], slots: int, seats: int) -> list[str]:
    named: list[str] = []
    for name in blocks:
        if name == "peek":
            named += [f"peek at slot {slot}" for slot in range(slots)]
        elif name == "peek_at":
            named += [
                f"peek at seat {seat} slot {slot}" for seat in range(seats) for slot in range(slots)
            ]
        elif name == "swap":
            named += [
                f"swap slot {slot} with seat {seat} slot {theirs}"
                for slot in range(slots)
                for seat in range(seats)
                for theirs in range(slots)
            ]
        else:
            named.append(name)
    return named


def _extra_moves(seat: int, blocks: Sequence[str], slots: int, seats: int) -> list[PlayerMove]:
    moves: list[PlayerMove] = []
    for name in blocks:
        if name == "peek":
            moves += [Peek(seat, slot) for slot in range(slots)]
        elif name == "peek_at":
            moves += [  # (oneself: a seat past the table, see the module's notes)
                Peek(seat, slot, seats if target == seat else target)
                for target in range(seats)
                for slot in range(slots)
            ]
        elif name == "swap":
            moves += [
                Swap(seat, slot, target, theirs)
                for slot in range(slots)
                for target in range(seats)
                for theirs in range(slots)
            ]
        elif name == "pass":
            moves.append(Pass(seat))
        else:
            moves.append(Knock(seat))
    return moves


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
    slots, piles, seats = rules.slots, rules.piles, rules.max_players
    extra = extra_blocks(ruleset)
    classic = _names(slots, piles)
    names = (*classic, *_extra_names(extra, slots, seats))
    starts: list[tuple[str, int]] = []
    at = len(classic)
    for name in extra:
        starts.append((name, at))
        at += {"peek": slots, "peek_at": seats * slots, "swap": slots * seats * slots}.get(name, 1)
    space = ActionSpace(
        ruleset=ruleset,
        slots=slots,
        piles=piles,
        size=len(names),
        names=names,
        _moves=tuple(
            (*_seat_moves(seat, slots, piles), *_extra_moves(seat, extra, slots, seats))
            for seat in range(seats)
        ),
        seats=seats,
        blocks=tuple(starts),
    )
    if len(_SPACES) >= 1_000:
        _SPACES.clear()
    _SPACES[key] = space
    return space
