"""A verdict told to a person: the failing move, the rule and its text, the layout at fault.

:func:`describe` turns a :class:`~gnoming_rules.referee.validate.Replay` into the text
``gnoming validate`` prints: one line for a valid record or an input error found before
the replay, and for a rule violation, a false claim or a ``bad-record`` found during the
replay (a discard that names no pile) a short block: the move as the record wrote it,
the rule number and text, the reason, and the player's layout (face-down cards in
parentheses, the slot at fault starred) as it was just before the move.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.cards import HAZARD, Face, face_text, is_positive, sorted_faces
from ..core.errors import printable
from ..core.scoring import score_breakdown
from ..core.state import State, below_tops
from ..play.render import draw_layout, draw_piles, seat_name
from .rulebook import rule_text
from .validate import Replay

__all__ = ["CARD_CLAIM", "INDENT", "SHOWN_CARDS", "WIDTH", "describe"]

CARD_CLAIM = (
    'a move\'s "card" is the card drawn (draw), picked up from the slot (place, bounce) '
    "or turned up (reveal, flip): what the table saw"
)
INDENT = "  "
WIDTH = 100


def describe(label: str, replay: Replay) -> str:
    """The report on one record file named ``label`` (escaped if it does not print as it
    is: a file name with a newline cannot forge a line of the report)."""
    label = printable(label)
    verdict = replay.verdict
    error = verdict.error
    if error is None:
        return f"{label}: {_valid_summary(replay)}"
    where = _where(error.round, error.move)
    headline = f"{label}: {'INVALID' if verdict.exit_status == 1 else 'NOT PLAYABLE'}"
    headline += f"{where}: {error.code}"
    if replay.state is None or replay.ruleset is None:
        others = error.problems[1:]  # every fault of the structure, the first in the headline
        return "\n".join([f"{headline}: {error.message}",
                          *(f"{INDENT}{problem.message}" for problem in others)])  # fmt: skip
    lines = [headline]
    if replay.entry is not None and error.move is not None:
        lines.append(f"{INDENT}move {error.move}: {_entry_text(replay.entry)}")
    if error.rule is not None:
        text = rule_text(error.rule, error.code)
        lines += _wrapped(f"rule {error.rule}: {text}" if text else f"rule {error.rule}")
        if error.code == "score-mismatch":  # "8" is the section: quote its scoring rules
            for number in _scoring_rules(replay):
                lines += _wrapped(f"rule {number}: {rule_text(number)}")
    elif error.code == "card-mismatch":
        lines += _wrapped(f"claim: {CARD_CLAIM}")
    lines += _wrapped(f"reason: {error.message}")
    lines += _picture(replay)
    return "\n".join(lines)


def _valid_summary(replay: Replay) -> str:
    verdict = replay.verdict
    names = replay.record.players if replay.record is not None else None
    if verdict.complete:
        winners = ", ".join(seat_name(seat, names) for seat in verdict.winners)
        label = "winner" if len(verdict.winners) == 1 else "winners"
        return f"valid, complete: totals {list(verdict.totals)}, {label} {winners}"
    record = replay.record
    rounds = len(record.rounds) if record is not None else 0
    if not rounds:
        return "valid, incomplete: no round played yet"
    moves = len(record.rounds[-1].moves) if record is not None else 0
    finished = len(verdict.scores)
    where = (
        f"stops after round {rounds - 1}"
        if finished == rounds
        else f"stops in round {rounds - 1} after {moves} moves"
    )
    return (
        f"valid, incomplete: {where} ({finished} round{'' if finished == 1 else 's'} "
        f"finished, totals {list(verdict.totals)})"
    )


def _where(round_: int | None, move: int | None) -> str:
    if round_ is None:
        return ""
    return f" at round {round_}" + ("" if move is None else f", move {move}")


def _entry_text(entry: Mapping[str, Any]) -> str:
    return json.dumps({key: value for key, value in entry.items() if value is not None})


def _wrapped(text: str) -> list[str]:
    return textwrap.wrap(
        text, WIDTH, initial_indent=INDENT, subsequent_indent=INDENT * 2, break_on_hyphens=False
    )


def _picture(replay: Replay) -> list[str]:
    """The layout(s) the failure is about, as grids."""
    state, rules, verdict = replay.state, replay.ruleset, replay.verdict
    assert state is not None and rules is not None and verdict.error is not None
    names = replay.record.players if replay.record is not None else None
    rows, cols = rules.compiled.rows, rules.compiled.cols
    error = verdict.error
    if error.code == "score-mismatch":
        return _score_pictures(replay)
    if error.code == "result-mismatch" or not state.cards[0]:
        return []
    if error.code == "bad-reshuffle":
        return _reshuffle_picture(state)
    entry = replay.entry or {}
    seat = entry.get("player", state.actor)
    if not isinstance(seat, int) or not 0 <= seat < len(state.cards):
        return []
    slot = entry.get("slot")
    marked = slot if isinstance(slot, int) and 0 <= slot < rows * cols else None
    caption = f"{seat_name(seat, names)} before the move"
    if state.held is not None and seat == state.turn:
        caption += f", holding {state.held}"
    caption += ":" if marked is None else f" (* slot {marked}; (x) face down):"
    lines = [INDENT + caption]
    grid = draw_layout(state.cards[seat], state.face_up[seat], rows, cols, marked=marked)
    lines += [INDENT * 2 + line for line in grid]
    piles = entry.get("action") in ("draw", "discard") or error.code == "wrong-phase"
    if error.code == "impossible-card":  # the evidence: wherever the known copies lie
        card = entry.get("card")
        for other, layout in enumerate(state.cards):
            if other != seat and card in layout:
                lines.append(f"{INDENT}{seat_name(other, names)}, which shows {face_text(card)}:")
                grid = draw_layout(layout, state.face_up[other], rows, cols)
                lines += [INDENT * 2 + line for line in grid]
        piles = piles or card == state.held or card in state.removed
        piles = piles or any(card in pile for pile in state.discard_piles)
    if piles:
        lines += [INDENT + line for line in draw_piles(state)]
    return lines


def _scoring_rules(replay: Replay) -> list[str]:
    """The rules of scoring (8.2 to 8.6) that the disputed seats' scores rest on."""
    state, rules, record, error = replay.state, replay.ruleset, replay.record, replay.verdict.error
    assert state is not None and rules is not None and record is not None and error is not None
    assert error.round is not None
    claimed = record.rounds[error.round].scores or []
    actual = state.scores[error.round]
    used: set[str] = set()
    for seat, (score, claim) in enumerate(zip(actual, claimed, strict=True)):
        if score == claim:
            continue
        breakdown = score_breakdown(rules, state.cards[seat])
        if breakdown.sets:
            used.add("8.2")
        in_sets = [slot for line in breakdown.sets for slot in line.slots]
        if len(in_sets) > len(set(in_sets)):  # a card in two sets
            used.add("8.3")
        for card in breakdown.cards:
            if is_positive(card.card) and not card.in_set:
                used.add("8.3")
            elif card.card == HAZARD:
                used.add("8.5")
            elif not card.in_set:  # a negative card, or a mulligan in no set
                used.add("8.4")
        if score != breakdown.total:
            used.add("8.6")
    return sorted(used)


SHOWN_CARDS = 40
"""Most cards a report lists in one line."""


def _reshuffle_picture(state: State) -> list[str]:
    """For a wrong reshuffle: the discard piles it should have been made of, the cards
    below their tops that it should hold (in any order), the draw pile and the held card."""
    lines = [f"{INDENT}the discard piles before the reshuffle (bottom first; each top stays):"]
    for index, pile in enumerate(state.discard_piles):
        shown = _cards_text(pile, from_end=True)
        top = f"  (top {face_text(pile[-1])})" if pile else ""
        lines.append(f"{INDENT * 2}discard pile {index}: {shown or 'empty'}{top}")
    below = sorted_faces(below_tops(state.discard_piles))
    count = f"{len(below)} card{'' if len(below) == 1 else 's'}"
    lines.append(f"{INDENT}the reshuffle must hold, in any order ({count}): {_cards_text(below)}")
    draw = len(state.draw_pile)
    held = "" if state.held is None else f"; held: {face_text(state.held)}"
    lines.append(
        f"{INDENT}draw pile: {f'{draw} card' + 's' * (draw > 1) if draw else 'empty'}{held}"
    )
    return lines


def _cards_text(cards: Sequence[Face], *, from_end: bool = False) -> str:
    """Faces separated by spaces; past :data:`SHOWN_CARDS`, the first ones (or the last,
    ``from_end``) and how many more."""
    if len(cards) <= SHOWN_CARDS:
        return " ".join(face_text(card) for card in cards)
    more = len(cards) - SHOWN_CARDS
    if from_end:
        kept = " ".join(face_text(card) for card in cards[-SHOWN_CARDS:])
        return f"({more} more below) {kept}"
    kept = " ".join(face_text(card) for card in cards[:SHOWN_CARDS])
    return f"{kept} (and {more} more)"


def _score_pictures(replay: Replay) -> list[str]:
    """For a false ``scores`` claim: each disputed seat's final layout and its breakdown."""
    state, rules, record, error = replay.state, replay.ruleset, replay.record, replay.verdict.error
    assert state is not None and rules is not None and record is not None and error is not None
    assert error.round is not None
    claimed = record.rounds[error.round].scores or []
    actual = state.scores[error.round]
    lines: list[str] = []
    for seat, (score, claim) in enumerate(zip(actual, claimed, strict=True)):
        if score == claim:
            continue
        bonus = score - score_breakdown(rules, state.cards[seat]).total
        note = f" ({bonus:+d} for going out, 8.6)" if bonus else ""
        lines.append(f"{INDENT}{seat_name(seat, record.players)} scores {score}{note}:")
        grid = draw_layout(
            state.cards[seat], state.face_up[seat], rules.compiled.rows, rules.compiled.cols
        )
        lines += [INDENT * 2 + line for line in grid]
        lines += [
            INDENT * 2 + line
            for line in str(score_breakdown(rules, state.cards[seat])).splitlines()
        ]
    return lines
