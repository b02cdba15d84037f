"""Tables derived once from a :class:`~gnoming_rules.core.ruleset.Ruleset` for the hot path.

The engine runs millions of moves; reading nested pydantic fields, recomputing grid
lines or building a new move object per legal move would dominate the cost. A
:class:`CompiledRules` holds those answers flat, and the move values that
:func:`~gnoming_rules.legal_moves` hands out (shared, immutable). Get it through
``ruleset.compiled``; it is built on first use and kept with the ruleset.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import HAZARD, MULLIGAN, Face, sorted_faces
from .moves import Bounce, Discard, Draw, Flip, Place, PlayerMove, Reveal

if TYPE_CHECKING:
    from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Line:
    """A full row or column of the grid: a candidate set (rule 8.2)."""

    name: str
    slots: tuple[int, ...]
    mask: int


@dataclass(frozen=True, slots=True, eq=False)
class CompiledRules:
    """Flat, precomputed view of a ruleset. Field names follow the ruleset's."""

    rows: int
    cols: int
    slots: int
    full_mask: int
    lines: tuple[Line, ...]
    deck: tuple[Face, ...]
    deck_counts: Counter[Face]
    min_players: int
    max_players: int
    state_shapes: frozenset[tuple[int, int]]
    """``(seats, cards per layout)`` of the states this ruleset makes (0 cards before a deal)."""
    rounds: int
    rotate_first_player: bool
    face_up_at_start: int
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
    reveal_moves: tuple[tuple[Reveal, ...], ...]
    flip_moves: tuple[tuple[Flip, ...], ...]
    place_moves: tuple[tuple[Place, ...], ...]
    bounce_moves: tuple[tuple[Bounce, ...], ...]
    draw_moves: tuple[tuple[Draw, Draw, Draw], ...]
    discard_moves: tuple[tuple[Discard, Discard, Discard], ...]
    draw_options: tuple[tuple[tuple[Draw, ...], ...], ...]
    """Per seat, indexed by ``draw pile?<<2 | pile 0?<<1 | pile 1?``: the legal draws."""
    discard_options: tuple[tuple[tuple[Discard, ...], ...], ...]
    """Per seat, indexed by a discard variant (see ``engine._discard_variant``)."""
    place_options: tuple[tuple[tuple[PlayerMove, ...], ...], ...]
    """Per seat: every place followed by ``discard_options[variant]``; index 4: places only."""
    memo: dict[tuple[int, ...], tuple[PlayerMove, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Legal-move tuples computed on demand, keyed by what they depend on."""

    @classmethod
    def build(cls, ruleset: Ruleset) -> CompiledRules:
        """Derive every table from ``ruleset``."""
        rows, cols = ruleset.layout.rows, ruleset.layout.cols
        slots = rows * cols
        lines = tuple(
            Line(f"row {r}", tuple(range(r * cols, (r + 1) * cols)), 0) for r in range(rows)
        ) + tuple(Line(f"column {c}", tuple(range(c, slots, cols)), 0) for c in range(cols))
        lines = tuple(Line(x.name, x.slots, sum(1 << s for s in x.slots)) for x in lines)
        deck: list[Face] = []
        for face, copies in ruleset.deck.numbers.items():
            deck += [face] * copies
        deck += [HAZARD] * ruleset.deck.hazards
        deck += [MULLIGAN] * ruleset.deck.mulligans
        seats = range(ruleset.players.max)
        every = range(slots)
        draws = tuple((Draw(p), Draw(p, 0), Draw(p, 1)) for p in seats)
        discards = tuple((Discard(p, 0), Discard(p, 1), Discard(p)) for p in seats)
        places = tuple(tuple(Place(p, s) for s in every) for p in seats)
        discard_options = tuple(((d[0], d[1]), (d[0],), (d[1],), (d[2],)) for d in discards)
        draw_options = tuple(
            tuple(
                tuple(
                    m for m, present in zip(d, (key & 4, key & 2, key & 1), strict=True) if present
                )
                for key in range(8)
            )
            for d in draws
        )
        place_options = tuple(
            (*(places[p] + variant for variant in discard_options[p]), places[p]) for p in seats
        )
        return cls(
            rows=rows,
            cols=cols,
            slots=slots,
            full_mask=(1 << slots) - 1,
            lines=lines,
            deck=tuple(sorted_faces(deck)),
            deck_counts=Counter(deck),
            min_players=ruleset.players.min,
            max_players=ruleset.players.max,
            state_shapes=frozenset(
                (players, size)
                for players in range(ruleset.players.min, ruleset.players.max + 1)
                for size in (0, slots)
            ),
            rounds=ruleset.rounds,
            rotate_first_player=ruleset.first_player == "rotate",
            face_up_at_start=ruleset.layout.face_up_at_start,
            taken_must_be_played=ruleset.discard.taken_must_be_played,
            bounce=ruleset.bounce,
            hazard_flips=ruleset.hazard.flips,
            spare_last_card=ruleset.hazard.spare_last_card,
            hazard_penalty=ruleset.hazard.penalty,
            max_mulligans=ruleset.mulligan.max_face_up,
            unmatched_mulligan=ruleset.mulligan.unmatched_value,
            going_out_bonus=ruleset.going_out.bonus,
            going_out_penalty=ruleset.going_out.penalty,
            ties_count_as_lowest=ruleset.going_out.ties_count_as_lowest,
            reshuffle=ruleset.empty_draw_pile == "reshuffle",
            reveal_moves=tuple(tuple(Reveal(p, s) for s in every) for p in seats),
            flip_moves=tuple(tuple(Flip(p, s) for s in every) for p in seats),
            place_moves=places,
            bounce_moves=tuple(tuple(Bounce(p, s) for s in every) for p in seats),
            draw_moves=draws,
            discard_moves=discards,
            draw_options=draw_options,
            discard_options=discard_options,
            place_options=place_options,
        )

    def first_player_of_round(self, first_player: int, round_index: int, players: int) -> int:
        """The seat that starts round ``round_index`` (rule 2.2)."""
        if self.rotate_first_player:
            return (first_player + round_index) % players
        return first_player
