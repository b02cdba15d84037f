"""The one view of a ruleset that the game reads: flat toggles and derived tables.

The engine runs millions of moves; reading nested pydantic fields, recomputing grid
lines or building a new move object per legal move would dominate the cost. A
:class:`CompiledRules` holds those answers flat, and the move values that
:func:`~gnoming_rules.core.engine.legal_moves` hands out (shared, immutable). Every reader
of the rules during play -- the engine, the scorer, the bots, the drawings, the report --
reaches it the same way, as ``ruleset.compiled``: built on first use, kept with the
ruleset. (The pydantic :class:`~gnoming_rules.core.ruleset.Ruleset` is the input form: it
checks a file and names its fields; this module does not know it, so the two do not
import each other.)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .cards import Face
from .moves import Bounce, Discard, Draw, Flip, Place, PlayerMove, Reveal

__all__ = [
    "MEMO_LIMIT",
    "CompiledRules",
    "Line",
    "MoveMemo",
    "PatternRule",
    "discard_variants",
    "filled_piles",
    "grid_lines",
    "move_tables",
    "pattern_instances",
    "set_pile",
]


@dataclass(frozen=True, slots=True)
class Line:
    """A full row or column of the grid: a candidate set (rule 8.2)."""

    name: str
    slots: tuple[int, ...]
    mask: int

    @property
    def kind(self) -> int:
        """0 for a row, 1 for a column, 2 for a diagonal (the order of rule 10.13)."""
        return ("row", "column", "diagonal").index(self.name.split(" ")[0])


@dataclass(frozen=True, slots=True)
class PatternRule:
    """A scored pattern of ``scoring.patterns`` (rule 11.6), ready for the scorer."""

    name: str
    """How a breakdown names it: ``4 of a kind``, ``square``, ``adjacent columns``."""
    size: int
    """Cards in one instance (N of ``of_a_kind``; 4 for a square; two lines' worth)."""
    instances: tuple[int, ...] | None
    """The slot masks where an instance can lie (the 2x2 blocks of ``square``, the pairs
    of adjacent full lines of ``adjacent_lines``), or ``None`` for ``of_a_kind``, whose N
    cards may lie anywhere."""
    score: str
    """``points``, ``zero`` or ``minus_value``."""
    points: int = 0
    """What an instance scores under ``points``."""


MEMO_LIMIT = 50_000
"""Most legal-move tuples a ruleset's :class:`MoveMemo` keeps (a few MB at most). On a 3x3
grid a few thousand keys cover every game; a 5x5 grid has millions of them."""


class MoveMemo:
    """The compiled view's cache of legal-move tuples, keyed by what a tuple depends on
    (the phase, the seat, the masks of its face-up or filled slots, the discard variant).

    Bounded: it holds at most ``limit`` tuples (:data:`MEMO_LIMIT` by default), and when it
    is full it forgets them all and fills again. A playout asks it twice a step, so a hit
    must cost one dict lookup: an LRU's bookkeeping would cost more than the rare refill.
    The tuples are immutable and derived from the rules alone, so forgetting one changes
    no answer, only the time it takes.
    """

    __slots__ = ("entries", "limit")

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.entries: dict[tuple[int, ...], tuple[PlayerMove, ...]] = {}
        self.limit = limit

    def get(self, key: tuple[int, ...]) -> tuple[PlayerMove, ...] | None:
        """The tuple remembered for ``key``, or ``None``."""
        return self.entries.get(key)

    def remember(
        self, key: tuple[int, ...], moves: tuple[PlayerMove, ...]
    ) -> tuple[PlayerMove, ...]:
        """Keep ``moves`` for ``key`` (forgetting every tuple first when full); returns it."""
        entries = self.entries
        if len(entries) >= self.limit:
            entries.clear()
        entries[key] = moves
        return moves

    def __len__(self) -> int:
        return len(self.entries)


@dataclass(frozen=True, slots=True, eq=False)
class CompiledRules:
    """Flat, precomputed view of a ruleset. Toggle names follow the ruleset's fields."""

    rows: int
    cols: int
    slots: int
    full_mask: int
    lines: tuple[Line, ...]
    deck: tuple[Face, ...]
    """Every card of the deck, in the order of their faces' text."""
    deck_counts: Counter[Face]
    min_players: int
    max_players: int
    state_shapes: frozenset[tuple[int, int, int]]
    """``(seats, cards per layout, discard piles)`` of the states this ruleset makes (0 cards
    before a deal)."""
    rounds: int
    rotate_first_player: bool
    went_out_starts: bool
    """``first_player: went_out`` (rule 10.10): ``State.first_player`` then holds the seat
    that started the current round, set at each deal."""
    face_up_at_start: int
    piles: int
    """Discard piles (rule 3.3)."""
    taken_must_be_played: bool
    bounce: bool
    hazard_flips: str
    spare_last_card: bool
    hazard_penalty: int
    max_mulligans: int
    unmatched_mulligan: int
    going_out_bonus: int
    going_out_penalty: int
    ties_count_as_lowest: bool
    reshuffle: bool
    plain_sets: bool
    """Sets as rule 8.2 states them: integer faces that score themselves, matched by face,
    positive cards only, scoring minus their value. The scorer's fast path; any rule-10
    option of sets or faces takes the general one."""
    values: dict[Face, int]
    """Every number and named face of the deck -> the points it scores in no set (10.1)."""
    set_keys: dict[Face, object]
    """Every face that can stand in a set without being wild -> what it matches by (its
    face, or its value under ``sets.match: value``, rule 10.2; a mulligan matches only
    mulligans, 10.13): positive cards, or any non-hazard card under ``sets.cards: any``."""
    bounce_keys: dict[Face, object]
    """Every positive face -> what it matches by: the cards that bounce (5.2, 10.13)."""
    flip_after_deck_discard: bool
    """A card drawn from the draw pile and discarded unplayed owes its player a flip (10.7)."""
    end_score: int | None
    """The game ends after a round at whose end some total reaches it (rule 10.8)."""
    double_if_not_lowest: bool
    """The score of the player who went out doubles when above 0 and not lowest (10.9)."""
    zero_sets: bool
    """``sets.score: zero`` or ``remove``: every card of a set scores 0, and the set nothing
    more (10.5; under ``remove`` a set still in the layout is one the final turning-up
    completed, whose cards leave it, 10.6)."""
    remove_lines: bool
    """``sets.score: remove`` (rule 10.6): a line all face up and matching, no mulligan
    wild, leaves the layout after the move that completed it. The engine checks this flag
    once per move; off, it pays nothing more."""
    removal_order: tuple[Line, ...]
    """The lines that can be sets, in the order lines completed at once leave (10.13): by
    lowest slot, then row before column before diagonal."""
    slot_moves: dict[str, tuple[tuple[PlayerMove, ...], ...]]
    """Per action with a slot (``reveal``, ``place``, ``bounce``, ``flip``), per seat, per slot:
    the shared move."""
    draw_moves: tuple[tuple[Draw, ...], ...]
    """Per seat: the draws from discard pile 0, 1, ..., then the draw from the draw pile."""
    discard_moves: tuple[tuple[Discard, ...], ...]
    """Per seat: the discards on pile 0, 1, ..., then a hazard's (no pile)."""
    draw_options: tuple[tuple[tuple[Draw, ...], ...], ...]
    """Per seat, indexed by a bit mask of the sources that hold cards (bit ``k``: discard
    pile ``k``; bit ``piles``: the draw pile): the legal draws, draw pile first."""
    discard_options: tuple[tuple[tuple[Discard, ...], ...], ...]
    """Per seat, indexed by the bit mask of the piles a discard may go on (rule 4.4; bit
    ``k``: pile ``k``): the legal discards, piles ascending; index 0: a hazard's (no pile)."""
    place_options: tuple[tuple[tuple[PlayerMove, ...], ...], ...]
    """Per seat: every place followed by ``discard_options[mask]``; the last: places only."""
    discard_variants: tuple[int, ...]
    """Indexed by :func:`filled_piles`' mask: the piles a non-hazard discard may go on, as
    a mask (rule 4.4: any empty one if a pile is empty, else any)."""
    peek_at_start: int = 0
    """Face-down cards each player peeks at after the setup reveals (rule 11.2)."""
    placed_down: bool = False
    """``play.placed: down`` (rule 11.3): a played card lies face down, known to its placer;
    nobody goes out by turning every card up."""
    powers: dict[Face, str] = field(default_factory=dict)
    """Face -> its power (rule 11.4): ``peek_own``, ``peek_other``, ``swap_blind``,
    ``look_and_swap``."""
    powers_optional: bool = True
    """A power may be declined (``pass``, rule 11.4)."""
    knock: bool = False
    """``round_end.knock`` (rule 11.5): a player may knock instead of drawing."""
    knowledge: bool = False
    """Some seat can know a face-down card (peeks, cards placed face down, powers: rule
    11.1): states then carry ``known``; off, the engine keeps it ``()`` and pays nothing."""
    patterns: tuple[PatternRule, ...] = ()
    """``scoring.patterns`` (rule 11.6), in their order. Empty (every ruleset of §1-10),
    the scorer takes its path of sets alone and pays nothing more."""
    known: list[object] = field(default_factory=lambda: [None], compare=False, repr=False)
    """The last state known to be one of this ruleset's (checked, or made by ``apply``
    from one that was): the engine skips the shape check for it, which a playout would
    otherwise pay twice a step (``legal_moves``, then ``apply``, on the same state)."""
    memo: MoveMemo = field(default_factory=MoveMemo, compare=False, repr=False)
    """Legal-move tuples computed on demand, keyed by what they depend on: a bounded cache
    (:class:`MoveMemo`)."""

    @property
    def reveal_moves(self) -> tuple[tuple[Reveal, ...], ...]:
        """Per seat, per slot: the shared reveal."""
        return self.slot_moves["reveal"]  # type: ignore[return-value]

    @property
    def flip_moves(self) -> tuple[tuple[Flip, ...], ...]:
        """Per seat, per slot: the shared flip."""
        return self.slot_moves["flip"]  # type: ignore[return-value]

    @property
    def place_moves(self) -> tuple[tuple[Place, ...], ...]:
        """Per seat, per slot: the shared place."""
        return self.slot_moves["place"]  # type: ignore[return-value]

    @property
    def bounce_moves(self) -> tuple[tuple[Bounce, ...], ...]:
        """Per seat, per slot: the shared bounce."""
        return self.slot_moves["bounce"]  # type: ignore[return-value]

    def first_player_of_round(self, first_player: int, round_index: int, players: int) -> int:
        """The seat that starts round ``round_index`` (rule 2.2; under rule 10.10, the
        ``first_player`` given, the state's record of the current round's first player)."""
        if self.rotate_first_player:
            return (first_player + round_index) % players
        return first_player


Piles = tuple[tuple[Face, ...], ...]


def filled_piles(piles: Piles) -> int:
    """The bit mask of the discard piles that hold cards (bit ``k``: pile ``k``): asked at
    every draw and discard. Two piles, the common case, are written out. A module function
    rather than a table of functions: compiled, the engine calls it directly, where a
    function kept in a field is called as a Python object (about 150 instructions more)."""
    if len(piles) == 2:
        return (1 if piles[0] else 0) | (2 if piles[1] else 0)
    mask = 0
    for index, pile in enumerate(piles):
        if pile:
            mask |= 1 << index
    return mask


def set_pile(piles: Piles, index: int, pile: tuple[Face, ...]) -> Piles:
    """The discard piles with pile ``index`` replaced by ``pile`` (a draw or a discard makes
    one per turn; two piles, the common case, without slicing)."""
    if len(piles) == 2:
        return (pile, piles[1]) if index == 0 else (piles[0], pile)
    return (*piles[:index], pile, *piles[index + 1 :])


def discard_variants(piles: int) -> tuple[int, ...]:
    """For each mask of the piles that hold cards, the piles a discard may go on (4.4)."""
    every = (1 << piles) - 1
    return tuple(every & ~filled or every for filled in range(1 << piles))


def grid_lines(
    rows: int, cols: int, kinds: tuple[str, ...] = ("rows", "columns")
) -> tuple[Line, ...]:
    """The lines of a ``rows`` x ``cols`` grid (slots row-major) that can be sets (rule
    10.4): the rows, then the columns, then the two main diagonals of a square grid, as
    ``kinds`` names them."""
    slots = rows * cols
    lines: list[tuple[str, tuple[int, ...]]] = []
    if "rows" in kinds:
        lines += [(f"row {r}", tuple(range(r * cols, (r + 1) * cols))) for r in range(rows)]
    if "columns" in kinds:
        lines += [(f"column {c}", tuple(range(c, slots, cols))) for c in range(cols)]
    if "diagonals" in kinds and rows == cols:
        lines.append(("diagonal 0", tuple(r * cols + r for r in range(rows))))
        lines.append(("diagonal 1", tuple(r * cols + cols - 1 - r for r in range(rows))))
    return tuple(Line(name, members, sum(1 << s for s in members)) for name, members in lines)


def pattern_instances(rows: int, cols: int, shape: str) -> tuple[int, ...]:
    """The slot masks where a pattern of ``shape`` can lie in a ``rows`` x ``cols`` grid
    (slots row-major): ``square``, every 2x2 block of adjacent slots; ``rows`` or
    ``columns``, every pair of adjacent full lines of that kind. Top-left first."""
    masks: list[int] = []
    if shape == "square":
        for row in range(rows - 1):
            for col in range(cols - 1):
                top = row * cols + col
                masks.append(sum(1 << slot for slot in (top, top + 1, top + cols, top + cols + 1)))
    elif shape == "rows":
        line = (1 << cols) - 1
        masks += [(line << row * cols) | (line << (row + 1) * cols) for row in range(rows - 1)]
    elif shape == "columns":
        column = sum(1 << row * cols for row in range(rows))
        masks += [(column << col) | (column << col + 1) for col in range(cols - 1)]
    else:  # a new shape must say where it lies, never be placed as another
        raise ValueError(f"no places for a pattern of shape {shape!r}")
    return tuple(masks)


def move_tables(
    seats: int, slots: int, piles: int
) -> tuple[
    dict[str, tuple[tuple[PlayerMove, ...], ...]],
    tuple[tuple[Draw, ...], ...],
    tuple[tuple[Discard, ...], ...],
    tuple[tuple[tuple[Draw, ...], ...], ...],
    tuple[tuple[tuple[Discard, ...], ...], ...],
    tuple[tuple[tuple[PlayerMove, ...], ...], ...],
]:
    """The shared moves of ``seats`` seats on ``slots`` slots with ``piles`` discard piles,
    and the legal-move tuples built from them (see :class:`CompiledRules`)."""
    every = range(slots)
    slot_moves: dict[str, tuple[tuple[PlayerMove, ...], ...]] = {
        kind.action: tuple(tuple(kind(p, s) for s in every) for p in range(seats))
        for kind in (Reveal, Place, Bounce, Flip)
    }
    draws = tuple((*(Draw(p, k) for k in range(piles)), Draw(p)) for p in range(seats))
    discards = tuple((*(Discard(p, k) for k in range(piles)), Discard(p)) for p in range(seats))
    deck_bit = 1 << piles
    draw_options = tuple(
        tuple(
            ((d[-1],) if key & deck_bit else ()) + tuple(d[k] for k in range(piles) if key >> k & 1)
            for key in range(deck_bit << 1)
        )
        for d in draws
    )
    discard_options = tuple(
        (
            (d[-1],),
            *(tuple(d[k] for k in range(piles) if mask >> k & 1) for mask in range(1, deck_bit)),
        )
        for d in discards
    )
    places = slot_moves["place"]
    place_options = tuple(
        (*(places[p] + variant for variant in discard_options[p]), places[p]) for p in range(seats)
    )
    return slot_moves, draws, discards, draw_options, discard_options, place_options
