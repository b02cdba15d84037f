"""An HTML replay of a record: one self-contained file that steps through the game.

:func:`replay_html` writes a page that needs no network: the table is inline SVG, drawn by
:mod:`.table`, with the page's CSS and a little JavaScript (``replay.css``,
``replay.js`` next to this module) inside the file. Each position is cut into parts (the
heading, the piles, one panel a seat, the status line, the score table); a part is stored
once however many positions show it, and a position is a list of part numbers, so a
seven-player game stays well under a megabyte. The script only swaps parts: all drawing
is done here, in Python.

The page opens at the first position, or at the refused move of a refused record, with
the verdict (code, rule, message) above the table. Buttons, the arrow keys (Home and End
too), a slider and the move list step through the positions.

The page is the referee's view, or with ``seat=`` what that seat saw at each position
(:func:`~gnoming_rules.pictures.table.table_view`): its known face-down cards drawn as
known backs (rule 11.1), every other face-down card a plain back, and the moves told in
the words that seat heard.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import NamedTuple

from ..core.ruleset import Ruleset
from ..core.state import State
from ..formats.record import AnyRecord, PublicRecord
from ..markup import markup
from ..referee.validate import Replay, Verdict, engine_moves, replay_file
from .cards import face_label
from .frames import Frame, describe_move, record_frames
from .table import MARGIN, STYLE, Picture, picture, table_view

__all__ = ["WrittenReplay", "replay_html", "write_replay"]


class WrittenReplay(NamedTuple):
    """What :func:`write_replay` did."""

    replay: Replay
    """The validator's replay of the record (its verdict says whether it was refused)."""
    positions: int
    """How many positions the page steps through (0: the record has none to show)."""
    size: int
    """The page's size in bytes."""


def write_replay(
    path: str | Path,
    out: str | Path,
    *,
    ruleset: Ruleset | str | None = None,
    seat: int | None = None,
) -> WrittenReplay:
    """Replay the record file ``path`` and write its HTML replay to ``out`` (``seat``: as
    that seat saw the game, see :func:`replay_html`)."""
    source = Path(path)
    replay = replay_file(source, ruleset=ruleset)
    page, positions = _build(replay, source.name, source.parent, seat)
    data = page.encode("utf-8")
    Path(out).write_bytes(data)
    return WrittenReplay(replay, positions, len(data))


def replay_html(
    replay: Replay,
    *,
    title: str = "game record",
    base_dir: Path | None = None,
    seat: int | None = None,
) -> str:
    """The HTML replay of a validator ``replay`` (from ``replay_file`` or ``replay_record``);
    ``base_dir`` is the record's folder, for a ruleset it names by a relative path;
    ``seat``: the page shows only what that seat saw (``None``: the referee's view).

    Raises :class:`~gnoming_rules.core.errors.UsageError` (``bad-seat``, from ``observe``)
    for a seat not at the record's table, once there is a position to draw."""
    return _build(replay, title, base_dir, seat)[0]


def _build(
    replay: Replay, title: str, base_dir: Path | None, seat: int | None = None
) -> tuple[str, int]:
    """The page and the number of positions it steps through."""
    record, rules = replay.record, replay.ruleset
    frames = (
        []
        if record is None or rules is None
        else record_frames(record, replay, base_dir=base_dir, seat=seat)
    )
    if record is None or rules is None or not frames:
        return _page(title, replay, _NOTHING, {"parts": [], "frames": [], "start": 0}), 0
    names = record.players
    parts: dict[str, int] = {}
    rows: list[list[int]] = []
    marked = _marked(replay)
    first: Picture | None = None
    public = isinstance(record, PublicRecord)
    for index, frame in enumerate(frames):
        mark = marked if index == len(frames) - 1 else None
        view = table_view(rules, frame.state, seat=seat, names=names, marked=mark, public=public)
        shot = picture(view, peeks=seat is None, known=seat is not None)
        first = first or shot
        texts = [
            shot.heading,
            *shot.piles,
            *shot.seats,
            _status(frame, _opening(record)),
            _scores(frame.state, names),
        ]
        rows.append([parts.setdefault(text, len(parts)) for text in texts])
    assert first is not None
    start = len(frames) - 1 if replay.verdict.error is not None else 0
    shown = [list(parts)[number] for number in rows[start]]
    moves = _moves(record, replay, frames)
    main = _main(first, shown, moves, len(frames), start, peeks=seat is None)
    data = {"parts": list(parts), "frames": rows, "start": start}
    return _page(title, replay, main, data), len(frames)


_NOTHING = (
    '<div class="board"><p class="nothing">The record was refused before its first deal: '
    "there is no position to show.</p></div>"
)


# --- the page's parts ----------------------------------------------------------------------


def _marked(replay: Replay) -> tuple[int, int] | None:
    """The (seat, slot) the refused move names, to outline in the last position."""
    entry = replay.entry
    if entry is None:
        return None
    player, slot = entry.get("player"), entry.get("slot")
    if isinstance(player, int) and isinstance(slot, int):
        return player, slot
    return None


def _main(
    first: Picture, shown: Sequence[str], moves: str, count: int, start: int, *, peeks: bool
) -> str:
    """The table (showing the opening position, so that it reads without the script too),
    the controls, the score table and the move list. ``peeks``: the referee's view, whose
    face-down cards are named (a box shows or hides them); a seat's view has none to name,
    and says how its known cards look instead."""
    where = first.layout
    spots = [(MARGIN, MARGIN), *where.piles, *where.seats]
    groups = "".join(
        f'<g data-part="{index}" transform="translate({x},{y})">{text}</g>'
        for index, ((x, y), text) in enumerate(zip(spots, shown, strict=False))
    )
    board = (
        f'<svg id="table" xmlns="http://www.w3.org/2000/svg" class="gnoming-table" '
        f'viewBox="0 0 {where.width} {where.height}" role="img" aria-label="the table">'
        f"{first.defs}"
        f'<rect class="felt" width="{where.width}" height="{where.height}" rx="12"/>'
        f"{groups}</svg>"
    )
    controls = (
        '<nav class="controls" aria-label="step through the game">'
        f'<button id="first" title="first position (Home)" aria-label="first">{_ICON_FIRST}'
        "</button>"
        '<button id="prev" title="previous move (left arrow)">&#9664; back</button>'
        '<button id="next" title="next move (right arrow)">next &#9654;</button>'
        f'<button id="last" title="last position (End)" aria-label="last">{_ICON_LAST}</button>'
        f'<input id="slider" type="range" min="0" max="{count - 1}" value="{start}" '
        'aria-label="position in the game">'
        + (
            '<label class="peek"><input id="peek" type="checkbox" checked> show face-down cards'
            "</label>"
            if peeks
            else ""
        )
        + "</nav>"
    )
    known = (
        ""
        if peeks
        else " A card drawn small on its back, in a dashed gold outline, lies face down and"
        " is known to this seat."
    )
    status, scores = shown[-2], shown[-1]
    return (
        f'<div class="board"><div id="status">{status}</div>{board}{controls}'
        '<p class="hint">&#8592; &#8594; step through the moves, Home and End jump; '
        f"click a move to go there.{known}</p></div>"
        f'<aside><h2>Scores</h2><div id="scores">{scores}</div>'
        f'<h2>Moves</h2><div id="moves">{moves}</div></aside>'
    )


def _opening(record: AnyRecord) -> str:
    """What starts a round: the deal, or what the table saw of it in a public record."""
    return "the start" if isinstance(record, PublicRecord) else "the deal"


def _status(frame: Frame, opening: str = "the deal") -> str:
    """The status line of a position: where it is in the record and the move that led there
    (``opening``: what starts a round, the deal, or a public record's start)."""
    where = (
        f"round {frame.round}, after {opening}"
        if frame.move == 0
        else f"round {frame.round}, after move {frame.move - 1}"
    )
    return (
        f'<span class="where" data-round="{frame.round}" data-move="{frame.move}">'
        f"{markup(where)}</span>"
        f'<span class="played">{markup(frame.played)}</span>'
    )


def _scores(state: State, names: Sequence[str]) -> str:
    """The score table: each finished round, the totals, the winners once the game is over."""
    rounds = len(state.scores)
    head = "".join(f"<th>R{index}</th>" for index in range(rounds))  # rounds from 0
    winners = set(state.winners)
    lines = []
    for seat, name in enumerate(names):
        cells = "".join(f"<td>{face_label(scores[seat])}</td>" for scores in state.scores)
        total = state.totals[seat] if rounds else 0
        crown = ' <span class="winner">&#9733; winner</span>' if seat in winners else ""
        won = ' class="won"' if seat in winners else ""
        lines.append(
            f'<tr{won}><th scope="row">{markup(name)}{crown}</th>{cells}'
            f'<td class="total">{face_label(total)}</td></tr>'
        )
    return (
        f'<table class="scores"><thead><tr><th>player</th>{head}<th>total</th></tr></thead>'
        f"<tbody>{''.join(lines)}</tbody></table>"
    )


def _moves(record: AnyRecord | None, replay: Replay, frames: Sequence[Frame]) -> str:
    """The move list: one item a position (the deal, then each move played), then the
    refused move and any moves that were not replayed after it."""
    if record is None:
        return ""
    items = []
    current = -1
    for index, frame in enumerate(frames):
        if frame.move == 0:
            if current >= 0:
                items.append("</ol>")
            items.append(f'<h3>Round {frame.round}</h3><ol class="round">')
            current = frame.round
            items.append(f'<li data-frame="{index}" class="deal">{_opening(record)}</li>')
            continue
        items.append(
            f'<li data-frame="{index}"><span class="n">{frame.move - 1}</span> '
            f"{markup(frame.played)}</li>"
        )
    error = replay.verdict.error
    if error is not None and error.round is not None and error.move is not None and frames:
        moves = engine_moves(record)
        round_moves = moves[error.round] if error.round < len(moves) else []
        rest = round_moves[error.move :]
        last = frames[-1].state
        for offset, move in enumerate(rest):
            number = error.move + offset
            css, note = ("refused", f" <strong>refused: {markup(error.code)}</strong>")
            if offset:
                css, note = "unplayed", ""
            text = describe_move(move, last, None, record.players)
            items.append(
                f'<li class="{css}"><span class="n">{number}</span> {markup(text)}{note}</li>'
            )
    if current >= 0:
        items.append("</ol>")
    return "".join(items)


def _verdict_html(verdict: Verdict, names: Sequence[str]) -> str:
    error = verdict.error
    if error is None:
        if verdict.complete:
            won = ", ".join(names[seat] for seat in verdict.winners if seat < len(names))
            totals = ", ".join(
                f"{name} {total}" for name, total in zip(names, verdict.totals, strict=False)
            )
            return (
                '<section id="verdict" class="ok"><span class="mark">&#10004;</span> '
                f"<strong>Valid record, game complete.</strong> Winner: {markup(won)}. "
                f"Totals: {markup(totals)}.</section>"
            )
        return (
            '<section id="verdict" class="ok"><span class="mark">&#10004;</span> '
            "<strong>Valid record</strong>, stopping before the game is over.</section>"
        )
    where = []
    if error.round is not None:
        where.append(f"round {error.round}")
    if error.move is not None:
        where.append(f"move {error.move}")
    place = f" at {', '.join(where)}" if where else ""
    rule = f", rule {error.rule}" if error.rule is not None else ""
    return (
        '<section id="verdict" class="bad"><span class="mark">&#10008;</span> '
        f'<strong>Refused{markup(place)}:</strong> <code class="code">{markup(error.code)}</code>'
        f'<span class="rule">{markup(rule)}</span>'
        f'<p class="message">{markup(error.message)}</p></section>'
    )


_ICON_FIRST = (
    '<svg width="14" height="12" viewBox="0 0 14 12" aria-hidden="true">'
    '<rect width="2.5" height="12" fill="currentColor"/><path d="M14 0V12L3.5 6Z" '
    'fill="currentColor"/></svg>'
)
_ICON_LAST = (
    '<svg width="14" height="12" viewBox="0 0 14 12" aria-hidden="true">'
    '<path d="M0 0V12L10.5 6Z" fill="currentColor"/><rect x="11.5" width="2.5" height="12" '
    'fill="currentColor"/></svg>'
)


def _resource(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def _page(title: str, replay: Replay, main: str, data: dict[str, object]) -> str:
    """The whole page: the heading, the verdict, ``main``, the data and the script."""
    record, rules = replay.record, replay.ruleset
    names: Sequence[str] = record.players if record is not None else ()
    about = [title]
    if rules is not None:
        about.append(f"ruleset {rules.name}")
    if record is not None:
        about.append(f"{len(names)} players: {', '.join(names)}")
    script = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        script = script.replace(raw, escaped)  # the data cannot end the script element
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{markup(title)}: Gnoming A Round replay</title>"
        f"<style>{_resource('replay.css')}</style>"
        f"{STYLE}</head><body>"
        f'<header><h1>Gnoming A Round</h1><p class="about">{markup(" · ".join(about))}</p>'
        "</header>"
        f"{_verdict_html(replay.verdict, names)}"
        f"<main>{main}</main>"
        f'<script type="application/json" id="data">{script}</script>'
        f"<script>{_resource('replay.js')}</script>"
        "</body></html>\n"
    )
