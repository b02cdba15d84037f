"""The SVG pictures of the docs: the worked examples of the rules page and the refused
records of the record-format page, drawn by ``gnoming_rules.pictures``.

``make pictures`` runs ``python docs/_ext/pictures.py docs/pictures``; a test fails when a
committed picture differs from what this draws (tests/test_docs_pictures.py). Each
position is played through the engine from an arranged deal (the chosen cards first, the
rest of the deck sorted), or replayed from an example record, so a picture can only show
what the referee would.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import gnoming_rules as gr
from gnoming_rules.core.cards import sorted_faces
from gnoming_rules.pictures.cards import face_label
from gnoming_rules.pictures.table import SeatView, scored_layout, strip_svg, table_svg, table_view
from gnoming_rules.referee.validate import replay_file

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = gr.load_ruleset("standard")


def arranged(front: Sequence[gr.Face], reveals: Sequence[tuple[int, int]]) -> gr.State:
    """A three-player game dealt ``front`` first (then the rest of the deck, sorted), with
    the setup reveals played."""
    rest: Counter[gr.Face] = Counter(RULES.compiled.deck_counts)
    rest.subtract(front)
    state = gr.apply(
        RULES, gr.new_game(RULES, 3), gr.Deal((*front, *sorted_faces(rest.elements())))
    )
    for seat, slot in reveals:
        state = gr.apply(RULES, state, gr.Reveal(seat, slot))
    return state


def seat_zero(state: gr.State, caption: str) -> SeatView:
    """Seat 0's panel as seat 0 sees it, captioned, with the card it holds."""
    view = table_view(RULES, state, seat=0).seats[0]
    holding = f"holding {face_label(state.held)}" if state.held is not None else ""
    return replace(view, name=caption, doing=None, note=holding)


def steps(state: gr.State, moves: Sequence[tuple[gr.Move, str]], first: str) -> list[SeatView]:
    """Seat 0's panel before ``moves`` and after each of them."""
    panels = [seat_zero(state, first)]
    for move, caption in moves:
        state = gr.apply(RULES, state, move)
        panels.append(seat_zero(state, caption))
    return panels


OTHERS = [9, -1, 7, 10, 6, 3, 2, 11, 4, 6, 1, 9, 4, 3, 7, 10, -3, 5]
"""Seats 1 and 2 of the arranged deals (their cards do not matter to the pictures)."""
SETUP = [(0, 0), (0, 4), (1, 0), (1, 4), (2, 0), (2, 6)]


def turn() -> str:
    """Rule 4: seat 0 draws a 9 and plays it over its face-up 3, then discards the 3."""
    state = arranged([7, 1, 2, 4, 3, 6, 10, 11, 12, *OTHERS, 5, 8, 9], SETUP)
    moves: list[tuple[gr.Move, str]] = [
        (gr.Draw(0), "draws a 9"),
        (gr.Place(0, 4), "plays 9 on slot 4"),
    ]
    moves.append((gr.Discard(0, 0), "discards the 3"))
    return strip_svg(RULES, steps(state, moves, "before"))


def bounce_chain() -> str:
    """Rule 5: the chain of the rules page (and of the recipes page)."""
    seat_0: list[gr.Face] = [5, 5, -2, 1, 8, 2, 3, 4, 8]
    state = arranged([*seat_0, *OTHERS, 11, -2, 12], SETUP)
    state = gr.apply(RULES, state, gr.Draw(0))
    moves: list[tuple[gr.Move, str]] = [
        (gr.Place(0, 1), "play 12 into 1"),
        (gr.Bounce(0, 8), "bounce 5 into 8"),
        (gr.Bounce(0, 2), "bounce 8 into 2"),
        (gr.Discard(0, 0), "discard \u22122"),
    ]
    first = replace(seat_zero(state, "after setup"), note="")
    return strip_svg(RULES, [first, *steps(state, moves, "")[1:]])


def mulligan_limit() -> str:
    """Rule 7.2: holding a mulligan beside a face-up one: only slot 0 takes it."""
    state = arranged(["M", 5, 1, 2, 3, 4, 6, 7, 8, *OTHERS, 10, 11, "M"], SETUP)
    state = gr.apply(RULES, state, gr.Draw(0))
    panel = seat_zero(state, "holding M")
    return strip_svg(RULES, [replace(panel, note="slot 0 or discard; slots 1-8 refused")])


def scoring() -> str:
    """Rule 8: the worked examples' four layouts, scored."""
    layouts: list[tuple[str, list[gr.Face]]] = [
        ("a row of 5s", [5, 5, 5, 1, 2, 3, 4, 6, 7]),
        ("M wild in row 0", [5, 5, "M", 3, -2, 9, 5, "H", 1]),
        ("two sets of 5s", [5, 5, 5, 5, 1, 2, 5, 3, 4]),
        ("one M wild", [7, 7, "M", 4, 4, "M", 2, 3, 6]),
    ]
    return strip_svg(RULES, [scored_layout(RULES, cards, name) for name, cards in layouts])


def record_at(path: str, until: tuple[int, int | None] | None = None) -> str:
    """The table of an example record where its replay stops (or at ``until``), the slot a
    refused move names outlined."""
    replay = replay_file(ROOT / path, until=until)
    assert replay.state is not None and replay.ruleset is not None and replay.record is not None
    entry = replay.entry if replay.verdict.error is not None else None
    marked = None
    if entry is not None and "slot" in entry:
        marked = (entry["player"], entry["slot"])
    return table_svg(replay.ruleset, replay.state, names=replay.record.players, marked=marked)


PICTURES: dict[str, Callable[[], str]] = {
    "turn.svg": turn,
    "bounce-chain.svg": bounce_chain,
    "mulligan-limit.svg": mulligan_limit,
    "scoring.svg": scoring,
    "score-mismatch.svg": lambda: record_at("examples/illegal/score-mismatch.json"),
    "refused-mulligan.svg": lambda: record_at("examples/illegal/mulligan-limit.json"),
}
"""Every picture of the docs, by file name, and what draws it."""


def main(argv: Sequence[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "docs" / "pictures"
    folder.mkdir(parents=True, exist_ok=True)
    for name, draw in PICTURES.items():
        (folder / name).write_text(draw() + "\n", encoding="utf-8")
        print(f"wrote {folder / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
