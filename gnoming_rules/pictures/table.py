"""An SVG picture of a position: every layout, the piles, the held card, whose move it is.

:func:`table_svg` draws a state as the referee sees it (face-down cards as backs that name
their card small at the foot, see :mod:`.cards`) or, with ``seat=``, as that seat sees it:
the picture is then drawn from :func:`~gnoming_rules.observation.observe`, the one place
that says what a seat can see, so it shows exactly the backs that seat cannot look under,
and a face-down card it knows (rule 11.1) as a *known* back: the face drawn small on the
back, never as face up, nor counted in the score of the face-up cards. A public view
(``public=``) names no face-down card, whoever knows it.
After a round the scoring module's breakdown marks each set (an outlined row or column and
its ``-v``) and the wild mulligans, and each layout shows its round score, the going-out
bonus apart.

The picture is made of parts that do not depend on where they stand (a seat's panel, the
piles, the heading), each placed by a ``<g transform>``: the HTML replay reuses the parts
and swaps only those that change from one move to the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cards import EMPTY, Face, is_face
from ..core.ruleset import Ruleset
from ..core.scoring import ScoreBreakdown, score_breakdown, score_visible
from ..core.state import WAITING_FOR, Phase, State
from ..markup import markup
from ..play.observation import observe
from ..play.render import describe_turn, seat_name
from .cards import CARD_H, CARD_W, card_defs, card_ref, face_label

__all__ = ["Layout", "Picture", "SeatView", "TableView", "picture", "table_svg", "table_view"]

Slot = tuple[Face | None, bool]
"""A slot as a picture shows it: (the card, or ``None`` when the viewer cannot know it; face up)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's layout and marks, as the picture draws them."""

    name: str
    cards: tuple[Slot, ...]
    doing: str | None
    """What the seat must do when it is to move (``"to draw"``), else ``None``."""
    owes_flip: bool
    went_out: bool
    filled: int
    """Bit mask of the slots filled this turn (the active seat's play and bounces)."""
    marked: int | None
    """A slot to mark (the slot a refused move names)."""
    shows: int | None
    """During a round: the score of the face-up cards (``score_visible``)."""
    breakdown: ScoreBreakdown | None
    """After a round: the layout's score and its sets."""
    final: int | None
    """After a round: the round score, the going-out bonus included."""
    note: str = ""
    """Anything more to say under the name (a picture's caption: ``holding 5``)."""
    known: int = 0
    """Bit mask of the face-down slots whose card the viewing seat knows (rule 11.1): drawn
    as known backs, their faces shown small (their :attr:`cards` say face down)."""


@dataclass(frozen=True, slots=True)
class TableView:
    """A position as one viewer sees it: the input of every picture of this module."""

    rows: int
    cols: int
    heading: str
    viewer: str
    seats: tuple[SeatView, ...]
    draw_pile: int
    discard_piles: tuple[tuple[Face, ...], ...]
    held: Slot | None
    """The held card: face up when the viewer sees it, else a back (a peek back for the
    referee, who sees a card the table does not)."""
    holder: str
    """Who holds it and how it came to be held, in words."""
    removed: tuple[Face, ...]
    faces: tuple[Face, ...]
    """Every face of the ruleset's deck (the cards a picture may need to draw)."""


def table_view(
    ruleset: Ruleset,
    state: State,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    marked: tuple[int, int] | None = None,
    public: bool = False,
) -> TableView:
    """What a picture of ``state`` shows: the referee's view, or ``seat``'s (from ``observe``).

    ``marked`` is a (seat, slot) to outline, such as the slot of a refused move.
    ``public``: ``state`` is a public-information record's replay, whose face-down cards
    are stand-ins nobody saw, or cards the table cannot see any more (all drawn as backs;
    the picture says whose view it is).
    Raises :class:`~gnoming_rules.errors.GnomingError` (``bad-seat``) for a seat not at the
    table.
    """
    players = state.players
    seen = observe(state, seat) if seat is not None else None
    table = _table_sees_held(state)
    known = [0] * players
    if seen is not None:
        layouts = [
            tuple((card, seen.is_face_up(other, slot)) for slot, card in enumerate(row))
            for other, row in enumerate(seen.layouts)
        ]
        known = [
            sum(1 << slot for slot in range(len(row)) if seen.is_known(other, slot))
            for other, row in enumerate(seen.layouts)
        ]
        held: Slot | None = None
        if state.held is not None:
            held = (None, False) if seen.held_hidden else (seen.held, True)
        viewer = (
            "as the table sees it"
            if seen.seat is None
            else f"as {seat_name(seen.seat, names)} sees it"
        )
    else:
        layouts = [  # a public view: what the table sees (no face-down card named)
            tuple(
                (card, state.is_face_up(other, slot))
                for slot, card in enumerate(state.visible_layout(other) if public else row)
            )
            for other, row in enumerate(state.cards)
        ]
        held = None if state.held is None else (state.held, table)
        viewer = (
            "as the table saw it: a public record names no face-down card"
            if public
            else "referee's view: face-down cards named at their foot"
        )
    ended = state.phase in (Phase.DEAL, Phase.OVER) and bool(state.scores) and bool(state.cards[0])
    actor = state.actor
    seats = []
    for other in range(players):
        cards = layouts[other] if state.cards[other] else ()
        breakdown = final = shows = None
        faces = [card for card, up in cards if up and is_face(card)]
        if ended and len(faces) == len(cards):
            breakdown = score_breakdown(ruleset, faces)
            final = state.scores[-1][other]
        elif cards:
            visible = [card if up and is_face(card) else None for card, up in cards]
            shows = score_visible(ruleset, visible)
        seats.append(
            SeatView(
                name=names[other] if names is not None and other < len(names) else f"seat {other}",
                cards=cards,
                doing=WAITING_FOR[state.phase].short if other == actor else None,
                owes_flip=other in state.flips_owed,
                went_out=state.went_out == other,
                filled=state.filled if other == state.turn else 0,
                marked=marked[1] if marked is not None and marked[0] == other else None,
                shows=shows,
                breakdown=breakdown,
                final=final,
                known=known[other],
            )
        )
    return TableView(
        rows=ruleset.compiled.rows,
        cols=ruleset.compiled.cols,
        heading=_heading(ruleset, state, names),
        viewer=viewer,
        seats=tuple(seats),
        draw_pile=len(state.draw_pile),
        discard_piles=state.discard_piles,
        held=held,
        holder=_holder(state, names),
        removed=state.removed,
        faces=tuple(ruleset.compiled.deck_counts),
    )


def _table_sees_held(state: State) -> bool:
    """Whether the whole table sees the held card: what a spectator's ``observe`` says (a
    card drawn from the draw pile stays hidden until it is played)."""
    return not observe(state).held_hidden


def _heading(ruleset: Ruleset, state: State, names: Sequence[str] | None) -> str:
    rounds = ruleset.compiled.rounds
    if state.phase is Phase.OVER:  # (fewer than ``rounds`` when an end score ended it)
        return f"Game over after {state.round} round{'s' if state.round > 1 else ''}"
    if state.phase is Phase.DEAL and state.scores and state.cards[0]:
        return f"End of {_round_name(state.round - 1, rounds).lower()}: scored"
    return f"{_round_name(state.round, rounds)}: {describe_turn(state, names)}"


def _round_name(index: int, rounds: int) -> str:
    """``Round 0 (1st of 3)``: the record's count from 0, and the ordinal a player says."""
    place = index + 1
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"Round {index} ({place}{suffix} of {rounds})"


def _holder(state: State, names: Sequence[str] | None) -> str:
    if state.held is None:
        return ""
    who = names[state.turn] if names is not None and state.turn < len(names) else None
    holder = who or f"seat {state.turn}"
    if state.phase is Phase.BOUNCE:
        return f"picked up by {holder}"
    if state.taken_from_discard:
        return f"taken by {holder}"
    return f"drawn by {holder}"


# --- geometry ------------------------------------------------------------------------------

GAP = 6
"""Space between two cards of a layout."""
PAD = 12
TITLE = 46
LABELS = 28
"""Room right of and below the grid for the sets' values."""
FOOT = 20
MARGIN = 14
HEAD = 44
PILES = CARD_H + 46
MAX_WIDTH = 920


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the parts of a picture stand: the same for every position of one game."""

    width: int
    height: int
    piles: tuple[tuple[int, int], ...]
    """The draw pile, each discard pile, the held card, the removed cards."""
    seats: tuple[tuple[int, int], ...]
    panel: tuple[int, int]


def arrange(rows: int, cols: int, players: int, piles: int) -> Layout:
    """The positions of the heading, the piles and each seat's panel."""
    panel_w = PAD * 2 + cols * CARD_W + (cols - 1) * GAP + LABELS
    panel_h = TITLE + rows * CARD_H + (rows - 1) * GAP + LABELS + FOOT
    columns = max(1, min(players, (MAX_WIDTH - 2 * MARGIN + GAP) // (panel_w + GAP)))
    seats = []
    top = MARGIN + HEAD + PILES
    for seat in range(players):
        row, col = divmod(seat, columns)
        seats.append((MARGIN + col * (panel_w + GAP), top + row * (panel_h + GAP)))
    lines = -(-players // columns)
    width = max(MARGIN * 2 + columns * (panel_w + GAP) - GAP, _piles_width(piles) + 2 * MARGIN)
    height = top + lines * (panel_h + GAP) - GAP + MARGIN
    step, top = PILE_STEP, MARGIN + HEAD
    spots = [(MARGIN + index * step, top) for index in range(piles + 1)]
    spots += [(MARGIN + (piles + 1) * step + 20, top), (MARGIN + (piles + 2) * step + 50, top)]
    return Layout(width, height, tuple(spots), tuple(seats), (panel_w, panel_h))


PILE_STEP = CARD_W + 56
"""From one pile to the next."""


def _piles_width(piles: int) -> int:
    return (piles + 3) * PILE_STEP + 160


# --- parts ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Picture:
    """A position cut into parts, each drawn at its own origin (see the module's notes)."""

    layout: Layout
    title: str
    """The heading's text, for the picture's accessible name."""
    defs: str
    heading: str
    piles: tuple[str, ...]
    """The parts of :func:`pile_parts`, placed at ``layout.piles``."""
    seats: tuple[str, ...]

    def svg(self) -> str:
        """The whole picture as one standalone SVG document."""
        where = self.layout
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {where.width} {where.height}" '
            f'width="{where.width}" height="{where.height}" class="gnoming-table" role="img" '
            f'aria-label="{markup(self.title)}">',
            STYLE,
            self.defs,
            f'<rect class="felt" width="{where.width}" height="{where.height}" rx="12"/>',
            f'<g transform="translate({MARGIN},{MARGIN})">{self.heading}</g>',
        ]
        for (x, y), part in zip(where.piles, self.piles, strict=True):
            if part:
                parts.append(f'<g transform="translate({x},{y})">{part}</g>')
        for (x, y), part in zip(where.seats, self.seats, strict=True):
            parts.append(f'<g transform="translate({x},{y})">{part}</g>')
        parts.append("</svg>")
        return "".join(parts)


STYLE = (
    "<style>"
    ".gnoming-table{font-family:'DejaVu Sans','Liberation Sans',Verdana,Arial,sans-serif}"
    ".gnoming-table .felt{fill:#1e5b3f}"
    ".gnoming-table .panel{fill:#2a6c4d;stroke:#17412d;stroke-width:1}"
    ".gnoming-table .panel.active{fill:#33805b;stroke:#f2c14e;stroke-width:3}"
    ".gnoming-table .name{fill:#fff;font-size:15px;font-weight:700}"
    ".gnoming-table .note{fill:#d7eadf;font-size:11px}"
    ".gnoming-table .doing{fill:#ffe08a;font-size:11px;font-weight:700}"
    ".gnoming-table .head{fill:#fff;font-size:16px;font-weight:700}"
    ".gnoming-table .viewer{fill:#bcd8c8;font-size:11px}"
    ".gnoming-table .label{fill:#e8f3ec;font-size:11px}"
    ".gnoming-table .strong{font-weight:700}"
    ".gnoming-table .set{fill:none;stroke:#f2c14e;stroke-width:3}"
    ".gnoming-table .setv{fill:#f2c14e}"
    ".gnoming-table .setv-text{fill:#1b2a41;font-size:11px;font-weight:700}"
    ".gnoming-table .filled{fill:#f2c14e}"
    ".gnoming-table .marked{fill:none;stroke:#ff5a4f;stroke-width:3;stroke-dasharray:6 3}"
    ".gnoming-table .empty{fill:none;stroke:#bcd8c8;stroke-width:1.5;stroke-dasharray:4 3}"
    ".gnoming-table .badge{fill:#17412d}"
    "</style>"
)
"""The picture's stylesheet (kept inside the SVG, so a standalone file looks the same)."""


def picture(
    view: TableView, *, peeks: bool = True, every_face: bool = True, known: bool = False
) -> Picture:
    """Cut ``view`` into the parts of a picture. ``peeks``: define the peek backs;
    ``known``: define the known backs (a seat's view); ``every_face``: define every face
    of the deck (for a replay, whose parts change), else only the faces this view shows."""
    where = arrange(view.rows, view.cols, len(view.seats), len(view.discard_piles))
    faces = view.faces if every_face else shown_faces(view)
    return Picture(
        layout=where,
        title=view.heading,
        defs=card_defs(faces, peeks=peeks, known=known),
        heading=heading_part(view, where.width - 2 * MARGIN),
        piles=pile_parts(view),
        seats=tuple(seat_part(seat, view.rows, view.cols, where.panel) for seat in view.seats),
    )


def table_svg(
    ruleset: Ruleset,
    state: State,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    marked: tuple[int, int] | None = None,
    public: bool = False,
) -> str:
    """``state`` as one standalone SVG document (see :func:`table_view` for the options)."""
    view = table_view(ruleset, state, seat=seat, names=names, marked=marked, public=public)
    known = any(panel.known for panel in view.seats)
    return picture(view, peeks=seat is None, every_face=False, known=known).svg()


def scored_layout(ruleset: Ruleset, cards: Sequence[Face], name: str) -> SeatView:
    """A full layout, face up and scored: its sets outlined, its score at the foot."""
    breakdown = score_breakdown(ruleset, cards)
    return SeatView(
        name=name,
        cards=tuple((card, True) for card in cards),
        doing=None,
        owes_flip=False,
        went_out=False,
        filled=0,
        marked=None,
        shows=None,
        breakdown=breakdown,
        final=breakdown.total,
    )


def strip_svg(ruleset: Ruleset, panels: Sequence[SeatView]) -> str:
    """Seat panels side by side and nothing else: one layout at several moments, or several
    layouts (the pictures of the rules page). Face-down cards are drawn as the panels say."""
    rows, cols = ruleset.compiled.rows, ruleset.compiled.cols
    where = arrange(rows, cols, 1, 0)
    width, height = where.panel
    total = MARGIN * 2 + len(panels) * (width + GAP) - GAP
    faces = {card for panel in panels for card, _ in panel.cards if is_face(card)}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total} {height + 2 * MARGIN}" '
        f'width="{total}" height="{height + 2 * MARGIN}" class="gnoming-table" role="img" '
        f'aria-label="{markup(", ".join(panel.name for panel in panels))}">',
        STYLE,
        card_defs(faces, known=any(panel.known for panel in panels)),
        f'<rect class="felt" width="{total}" height="{height + 2 * MARGIN}" rx="12"/>',
    ]
    for index, panel in enumerate(panels):
        x = MARGIN + index * (width + GAP)
        drawn = seat_part(panel, rows, cols, where.panel)
        parts.append(f'<g transform="translate({x},{MARGIN})">{drawn}</g>')
    parts.append("</svg>")
    return "".join(parts)


def shown_faces(view: TableView) -> set[Face]:
    """The faces a view draws as cards (face up, or as peek or known backs)."""
    faces = {card for seat in view.seats for card, _ in seat.cards if is_face(card)}
    faces.update(pile[-1] for pile in view.discard_piles if pile)
    if view.held is not None and is_face(view.held[0]):
        faces.add(view.held[0])
    return faces


HEAD_CHAR = 10
"""The width of a heading's character, at most (16 px bold sans serif), for fitting it."""


def heading_part(view: TableView, width: int | None = None) -> str:
    """The heading: the round and whose move it is, and under it whose view the picture is.

    A heading that may be wider than ``width`` (a small table's picture is narrow, and a
    turn's words can be long) is drawn pressed to that width, never cut at the edge."""
    fit = ""
    if width is not None and len(view.heading) * HEAD_CHAR > width - 4:
        fit = f' textLength="{width - 4}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<text class="head" x="2" y="17"{fit}>{markup(view.heading)}</text>'
        f'<text class="viewer" x="2" y="33">{markup(view.viewer)}</text>'
    )


def _use(card: Face | None, face_up: bool, x: float, y: float, known: bool = False) -> str:
    return f'<use href="#{card_ref(card, face_up, known)}" x="{x:g}" y="{y:g}"/>'


def pile_parts(view: TableView) -> tuple[str, ...]:
    """The draw pile (its size), each discard pile's top, the held card and the removed
    cards: one part each (they change at different moves), each drawn at its own origin."""
    count = view.draw_pile
    if count:
        draw = "".join(_use(None, False, offset, offset) for offset in (4, 2) if count > offset)
        draw += _use(None, False, 0, 0)
    else:
        draw = _empty()
    parts = [draw + _label("draw pile", f"{count} card{'' if count == 1 else 's'}")]
    for index, pile in enumerate(view.discard_piles):
        size = f"{len(pile)} card{'' if len(pile) == 1 else 's'}" if pile else "empty"
        top = _use(pile[-1], True, 0, 0) if pile else _empty()
        parts.append(top + _label(f"discard pile {index}", size))
    held = ""
    if view.held is not None:
        card, up = view.held
        held = (
            f'<rect class="filled" x="-4" y="-4" width="{CARD_W + 8}" height="{CARD_H + 8}" '
            f'rx="8" opacity=".35"/>{_use(card, up, 0, 0)}{_label("held", view.holder)}'
        )
    removed = ""
    if view.removed:
        shown = " ".join(face_label(card) for card in view.removed)
        removed = (
            '<text class="label" x="0" y="24">out of the game this round:</text>'
            f'<text class="name" x="0" y="44">{markup(shown)}</text>'
        )
    return (*parts, held, removed)


def _empty() -> str:
    return f'<rect class="empty" x="1" y="1" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="5"/>'


def _label(title: str, detail: str) -> str:
    """Two centred lines under a card: what it is, and a detail (a count, who holds it)."""
    middle = f'x="{CARD_W / 2:g}" text-anchor="middle"'
    return (
        f'<text class="label strong" {middle} y="{CARD_H + 15}">{markup(title)}</text>'
        f'<text class="label" {middle} y="{CARD_H + 29}">{markup(detail)}</text>'
    )


def seat_part(seat: SeatView, rows: int, cols: int, panel: tuple[int, int]) -> str:
    """One seat's panel: its name and state, its layout, its sets and score after a round."""
    width, height = panel
    active = seat.doing is not None
    parts = [
        f'<rect class="panel{" active" if active else ""}" width="{width}" height="{height}" '
        'rx="10"/>',
        f'<text class="name" x="{PAD}" y="{PAD + 10}">'
        f"{'&#9654; ' if active else ''}{markup(_short(seat.name, width))}</text>",
    ]
    notes = []
    if seat.doing is not None:
        notes.append(seat.doing)
    if seat.owes_flip and seat.doing != WAITING_FOR[Phase.FLIP].short:
        notes.append("owes a flip")
    if seat.went_out:
        notes.append("went out")
    if seat.note:
        notes.append(seat.note)
    if notes:
        css = "doing" if active else "note"
        parts.append(
            f'<text class="{css}" x="{PAD}" y="{PAD + 25}">{markup(" · ".join(notes))}</text>'
        )
    top = TITLE
    for slot, (card, up) in enumerate(seat.cards):
        row, col = divmod(slot, cols)
        x, y = PAD + col * (CARD_W + GAP), top + row * (CARD_H + GAP)
        if card == EMPTY:  # its line left the layout (rule 10.6): the slot's outline
            parts.append(f'<g transform="translate({x:g},{y:g})">{_empty()}</g>')
        else:
            parts.append(_use(card, up, x, y, bool(seat.known >> slot & 1)))
        if seat.filled >> slot & 1:
            parts.append(
                f'<rect class="filled" x="{x + 6}" y="{y + CARD_H + 1}" width="{CARD_W - 12}" '
                'height="3.5" rx="1.5"/>'
            )
        if slot == seat.marked:
            parts.append(
                f'<rect class="marked" x="{x - 3}" y="{y - 3}" width="{CARD_W + 6}" '
                f'height="{CARD_H + 6}" rx="7"/>'
            )
    grid_w = cols * CARD_W + (cols - 1) * GAP
    grid_h = rows * CARD_H + (rows - 1) * GAP
    if seat.breakdown is not None:
        parts.append(_sets(seat.breakdown, cols, top, grid_w, grid_h))
    foot = top + grid_h + LABELS + 8
    text = _score_text(seat)
    if text:
        parts.append(f'<text class="label" x="{PAD}" y="{foot}">{markup(text)}</text>')
    return "".join(parts)


def _short(name: str, width: int) -> str:
    """A name cut to what fits on a panel's first line."""
    most = max(4, (width - 2 * PAD - 18) // 9)
    return name if len(name) <= most else name[: most - 1] + "\u2026"


def _score_text(seat: SeatView) -> str:
    if seat.breakdown is not None and seat.final is not None:
        bonus = seat.final - seat.breakdown.total
        if bonus:
            base, final = face_label(seat.breakdown.total), face_label(seat.final)
            sign = "+" if bonus > 0 else "\u2212"
            return f"round score {base} {sign} {abs(bonus)} going out = {final}"
        return f"round score {face_label(seat.final)}"
    if seat.shows is not None:
        return f"face-up cards score {face_label(seat.shows)}"
    return ""


def _sets(breakdown: ScoreBreakdown, cols: int, top: int, grid_w: int, grid_h: int) -> str:
    """Each set outlined, its value in a disc at the row's end or the column's foot; each
    wild mulligan tagged."""
    parts = []
    for line in breakdown.sets:
        first, last = line.slots[0], line.slots[-1]
        (r0, c0), (r1, c1) = divmod(first, cols), divmod(last, cols)
        x0, y0 = PAD + c0 * (CARD_W + GAP) - 3, top + r0 * (CARD_H + GAP) - 3
        x1 = PAD + c1 * (CARD_W + GAP) + CARD_W + 3
        y1 = top + r1 * (CARD_H + GAP) + CARD_H + 3
        parts.append(
            f'<rect class="set" x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="8"/>'
        )
        if r0 == r1:  # a row: its value at the right end
            cx, cy = PAD + grid_w + LABELS / 2, (y0 + y1) / 2
        else:
            cx, cy = (x0 + x1) / 2, top + grid_h + LABELS / 2
        parts.append(
            f'<circle class="setv" cx="{cx:g}" cy="{cy:g}" r="12"/>'
            f'<text class="setv-text" x="{cx:g}" y="{cy + 4:g}" text-anchor="middle">'
            f"{markup(face_label(-line.value))}</text>"
        )
    for slot in breakdown.wild:
        row, col = divmod(slot, cols)
        x, y = PAD + col * (CARD_W + GAP), top + row * (CARD_H + GAP)
        parts.append(
            f'<rect class="badge" x="{x + 7}" y="{y + CARD_H - 17}" width="{CARD_W - 14}" '
            'height="13" rx="6"/>'
            f'<text class="note" x="{x + CARD_W / 2:g}" y="{y + CARD_H - 7}" '
            'text-anchor="middle">wild</text>'
        )
    return "".join(parts)
