"""``gnoming score CARD...``: one layout's score, and why."""

from __future__ import annotations

import argparse

from typing_extensions import TypedDict

from ..core.cards import Face, face_from_text
from ..core.scoring import score_breakdown
from ..formats.rulesets import load_ruleset
from ..play.render import draw_layout
from .command import ArgsError, Command
from .output import Output


class SetDocument(TypedDict):
    """A row or column that scores as a set of ``value``s: ``-value`` points."""

    name: str
    slots: list[int]
    value: int


class CardDocument(TypedDict):
    """What one card counts (0 in a set: the set carries the points)."""

    slot: int
    card: Face
    points: int
    in_set: bool
    note: str


class ScoreDocument(TypedDict):
    """A layout's score (rules 8.2 to 8.5; the going-out bonus of 8.6 is not included)."""

    ruleset: str
    rows: int
    cols: int
    cards: list[Face]
    total: int
    sets: list[SetDocument]
    wild: list[int]
    """Slots of the mulligans that count as wild."""
    points: list[CardDocument]


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", nargs="+", metavar="CARD", help="row-major: 5 5 M 3 -2 9 5 H 1")
    parser.add_argument(
        "--ruleset", default="standard", metavar="R", help="name or path (default: %(default)s)"
    )


def run(args: argparse.Namespace, out: Output) -> int:
    rules = load_ruleset(args.ruleset)
    try:
        cards = [face_from_text(text) for text in args.cards]
    except ValueError as error:
        raise ArgsError(str(error)) from None
    rows, cols = rules.layout.rows, rules.layout.cols
    if len(cards) != rows * cols:
        raise ArgsError(
            f"a {rows}x{cols} layout has {rows * cols} cards, got {len(cards)} "
            "(give them row by row)"
        )
    breakdown = score_breakdown(rules, cards)
    if out.json:
        document: ScoreDocument = {
            "ruleset": rules.name,
            "rows": rows,
            "cols": cols,
            "cards": cards,
            "total": breakdown.total,
            "sets": [
                {"name": line.name, "slots": list(line.slots), "value": line.value}
                for line in breakdown.sets
            ],
            "wild": list(breakdown.wild),
            "points": [
                {
                    "slot": card.slot,
                    "card": card.card,
                    "points": card.points,
                    "in_set": card.in_set,
                    "note": card.note,
                }
                for card in breakdown.cards
            ],
        }
        out.data(document)
        return 0
    lines = draw_layout(cards, (1 << len(cards)) - 1, rows, cols)
    out.line("\n".join([*lines, str(breakdown)]))
    return 0


COMMAND = Command(
    name="score",
    summary="score one layout, with the breakdown",
    description="""\
Score one layout, all its cards face up, and explain the score: which rows and columns
are sets, which mulligans are wild, and what each other card counts (rules 8.2 to
8.5). The going-out bonus or penalty (8.6) depends on the other players, so it is not
included. Give the cards row by row: a number (7, -2), H for a hazard, M for a
mulligan. Slots count from 0, row by row.""",
    examples=("gnoming score 5 5 M 3 -2 9 5 H 1", "gnoming score --json 5 5 M 3 -2 9 5 H 1"),
    arguments=arguments,
    run=run,
    output=ScoreDocument,
)

__all__ = ["COMMAND", "CardDocument", "ScoreDocument", "SetDocument"]
