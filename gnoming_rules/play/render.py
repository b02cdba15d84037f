"""Text drawings of a game: layouts as grids (any size, 2x2 to 5x5), piles, whose move.

The referee sees every card, so a face-down card is drawn in parentheses, ``(7)``; in a
seat's or a spectator's view (a :func:`~gnoming_rules.play.observation.stand_in` state) a card
that view hides is ``(?)``. A marked slot (the one a refusal is about) carries a ``*``.
Drawings are plain ASCII lines, meant for a terminal and for test expectations alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import EMPTY, HIDDEN, Face, face_text
from ..core.errors import one_line
from ..core.ruleset import Ruleset
from ..core.state import WAITING_FOR, Phase, State

__all__ = [
    "CELL",
    "cell_text",
    "describe_turn",
    "draw_layout",
    "draw_piles",
    "draw_slot_numbers",
    "draw_table",
    "seat_name",
    "side_by_side",
    "state_summary",
]

CELL = 6
"""Width of one grid cell, enough for ``(-12)*``."""


def cell_text(card: Face | None, face_up: bool, marked: bool = False) -> str:
    """One cell's text: ``7``, ``(7)`` when face down, ``?`` for an unknown card (``None``,
    or :data:`~gnoming_rules.core.cards.HIDDEN` face down); ``*`` marks."""
    if card == EMPTY:  # its line left the layout (rule 10.6)
        return "." + ("*" if marked else "")
    text = "?" if card is None or (card == HIDDEN and not face_up) else face_text(card)
    if not face_up:
        text = f"({text})"
    return text + ("*" if marked else "")


def draw_layout(
    cards: Sequence[Face | None],
    face_up: int,
    rows: int,
    cols: int,
    *,
    marked: int | None = None,
) -> list[str]:
    """A layout as grid lines; ``face_up`` is the bit mask of face-up slots (row-major)."""
    if len(cards) != rows * cols:
        raise ValueError(f"a {rows}x{cols} layout has {rows * cols} cards, got {len(cards)}")
    border = "+" + "+".join("-" * CELL for _ in range(cols)) + "+"
    lines = [border]
    for row in range(rows):
        cells = []
        for col in range(cols):
            slot = row * cols + col
            text = cell_text(cards[slot], bool(face_up >> slot & 1), slot == marked)
            cells.append(text.center(CELL))
        lines.append("|" + "|".join(cells) + "|")
        lines.append(border)
    return lines


def draw_slot_numbers(rows: int, cols: int) -> list[str]:
    """The grid of slot numbers (row-major), as a key for the drawings."""
    return draw_layout(list(range(rows * cols)), (1 << rows * cols) - 1, rows, cols)


def side_by_side(blocks: Sequence[Sequence[str]], *, gap: int = 3, width: int = 100) -> list[str]:
    """Blocks of lines placed in columns, wrapping to new bands to stay within ``width``."""
    lines: list[str] = []
    band: list[Sequence[str]] = []
    used = 0
    for block in blocks:
        size = max((len(line) for line in block), default=0)
        if band and used + gap + size > width:
            lines += _join(band, gap)
            band, used = [], 0
        band.append(block)
        used += (gap if used else 0) + size
    if band:
        lines += _join(band, gap)
    return lines


def _join(band: Sequence[Sequence[str]], gap: int) -> list[str]:
    widths = [max((len(line) for line in block), default=0) for block in band]
    height = max(len(block) for block in band)
    rows = []
    for index in range(height):
        parts = [
            (block[index] if index < len(block) else "").ljust(size)
            for block, size in zip(band, widths, strict=True)
        ]
        rows.append((" " * gap).join(parts).rstrip())
    return rows


def describe_turn(
    state: State, names: Sequence[str] | None = None, ruleset: Ruleset | None = None
) -> str:
    """Whose move it is and what the game waits for, in words. Given the ``ruleset``, the
    words follow its rules: a displaced card is only discarded where bouncing is off
    (5.3), and a card taken from a discard pile that must be played (4.5) is not offered
    for discarding."""
    seat = state.actor
    waiting = WAITING_FOR[state.phase].words
    if ruleset is not None and state.phase is Phase.BOUNCE and not ruleset.compiled.bounce:
        waiting = "discard the held card (no bouncing under these rules)"
    elif (
        ruleset is not None
        and state.phase is Phase.PLACE
        and state.taken_from_discard
        and ruleset.compiled.taken_must_be_played
    ):
        waiting = "play the held card, taken from a discard pile, into a slot"
    if seat is None:
        return f"waiting for {waiting}"
    return f"{seat_name(seat, names)} to {waiting}"


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """``seat 2 (Cy)``, or ``seat 2`` without names. A name is input (a record's
    ``players``): one that does not print as it is (a newline, a terminal escape) is
    quoted with escapes, and a long one is cut."""
    if names is not None and 0 <= seat < len(names):
        return f"seat {seat} ({one_line(names[seat])})"
    return f"seat {seat}"


def draw_piles(state: State) -> list[str]:
    """The draw pile, every discard pile, the held card and the removed cards, one per line."""
    draw = state.draw_pile
    lines = [
        f"draw pile: {len(draw)} card{'' if len(draw) == 1 else 's'}"
        + (f", top ({face_text(draw[0])})" if draw and draw[0] != HIDDEN else ""),
    ]
    for index, pile in enumerate(state.discard_piles):
        shown = " ".join(face_text(card) for card in pile[-8:])
        more = "... " if len(pile) > 8 else ""
        lines.append(
            f"discard pile {index}: "
            + (f"{more}{shown}  (top {face_text(pile[-1])})" if pile else "empty")
        )
    if state.held is not None:
        lines.append(f"held: {'(hidden)' if state.held == HIDDEN else face_text(state.held)}")
    if state.removed:
        lines.append("out of the game: " + " ".join(face_text(card) for card in state.removed))
    if state.flips_owed:
        lines.append("flips owed: " + ", ".join(f"seat {seat}" for seat in state.flips_owed))
    return lines


def draw_table(
    ruleset: Ruleset,
    state: State,
    names: Sequence[str] | None = None,
    *,
    marked: tuple[int, int] | None = None,
) -> list[str]:
    """Every layout (titled by seat), then the piles; ``marked`` is a (seat, slot) to star."""
    rows, cols = ruleset.compiled.rows, ruleset.compiled.cols
    blocks = []
    for seat, layout in enumerate(state.cards):
        if not layout:
            continue
        slot = marked[1] if marked is not None and marked[0] == seat else None
        title = seat_name(seat, names)
        if state.went_out == seat:
            title += ", went out"
        blocks.append([title, *draw_layout(layout, state.face_up[seat], rows, cols, marked=slot)])
    return [*side_by_side(blocks), *draw_piles(state)]


def state_summary(state: State) -> str:
    """A one-line digest of a state, for golden files: phase, turn, piles, masks, scores."""
    held = face_text(state.held)
    top = face_text(state.draw_pile[0]) if state.draw_pile else "-"
    piles = "/".join(face_text(pile[-1]) if pile else "-" for pile in state.discard_piles)
    masks = ",".join(format(mask, "x") for mask in state.face_up)
    owed = ",".join(str(seat) for seat in state.flips_owed) or "-"
    out = "-" if state.went_out is None else str(state.went_out)
    scores = ";".join(",".join(str(score) for score in round_) for round_ in state.scores) or "-"
    return (
        f"r{state.round} {state.phase.name} t{state.turn} held={held} "
        f"draw={len(state.draw_pile)}:{top} piles={piles} "
        f"sizes={'/'.join(str(len(pile)) for pile in state.discard_piles)} up={masks} "
        f"owed={owed} out={out} filled={state.filled:x} chain={int(state.chain)} "
        f"taken={int(state.taken_from_discard)} scores={scores}"
    )
