"""The positions of a record, one per move: what the HTML replay steps through.

:func:`record_frames` replays a record once with the validator (for its verdict) and then
walks the engine through the same moves, keeping the state before every move: frame
``(round, move)`` is the position ``gnoming show --round R --move M`` draws. The walk stops
where the validator's replay stopped, so a refused record ends at the refused move. A move
that the engine alone refuses but the validator accepts (a hazard's discard that names a
pile, docs/decisions.md) is taken from the validator's own replay, so the two never differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.cards import HAZARD, Face, is_face
from ..core.engine import apply, new_game
from ..core.errors import IllegalMove
from ..core.moves import Bounce, Deal, Discard, Draw, Flip, Move, Place, Reshuffle, Reveal
from ..core.ruleset import Ruleset
from ..core.state import Phase, State
from ..formats.record import Record
from ..play.render import seat_name
from ..referee.validate import Replay, engine_moves, replay_record
from .cards import face_label

__all__ = ["Frame", "describe_move", "record_frames"]


@dataclass(frozen=True, slots=True)
class Frame:
    """The position before move ``move`` of round ``round`` (``move`` moves played)."""

    round: int
    move: int
    state: State
    played: str
    """The move that led here, in words (the deal, for a round's first frame)."""


def record_frames(record: Record, replay: Replay, *, base_dir: Path | None = None) -> list[Frame]:
    """Every position of ``record`` up to where ``replay`` (its validator replay) stopped.

    Empty when the replay refused the record before its first deal (no position to show).
    """
    rules = replay.ruleset
    if rules is None or replay.state is None:
        return []
    error = replay.verdict.error
    stop = (error.round, error.move) if error is not None else (None, None)
    names = record.players
    moves = engine_moves(record)
    state = new_game(rules, len(names), record.first_player)
    frames: list[Frame] = []
    for index, round_ in enumerate(record.rounds):
        if state.phase is not Phase.DEAL:  # the game is over, or a round stopped early
            break
        state = apply(rules, state, Deal(tuple(round_.deal)))
        frames.append(Frame(index, 0, state, f"the deal of round {index}"))
        for number, move in enumerate(moves[index]):
            if stop == (index, number):
                return frames
            try:
                after = apply(rules, state, move)
            except IllegalMove:
                after = _validator_state(record, rules, base_dir, (index, number + 1))
            frames.append(Frame(index, number + 1, after, describe_move(move, state, after, names)))
            state = after
        if stop == (index, None):  # a false score claim: the round is shown scored, then stop
            break
    return frames


def _validator_state(
    record: Record, rules: Ruleset, base_dir: Path | None, until: tuple[int, int]
) -> State:
    """The state the validator reaches at ``until`` (for a move it reads its own way)."""
    state = replay_record(record, ruleset=rules, base_dir=base_dir, until=until).state
    assert state is not None, "the validator replayed this move"
    return state


def describe_move(
    move: Move, before: State, after: State | None, names: Sequence[str] | None = None
) -> str:
    """A move in words, with the cards it showed: ``Ana plays 12 into slot 1, picks up 5``.

    ``after`` is ``None`` for a move that was not played (a refused one): then only what
    the move says is told.
    """
    if type(move) is Reshuffle:
        return f"the discards are shuffled into a new draw pile of {len(move.cards)} cards"
    if type(move) is Deal:
        return "the deal"
    player = getattr(move, "player", None)
    who = _who(player, names) if isinstance(player, int) else "?"
    if after is None:
        text = str(move)
        return text.replace(f"seat {player}", who, 1) if text.startswith("seat ") else text
    held = after.held
    if type(move) is Reveal or type(move) is Flip:
        verb = "reveals" if type(move) is Reveal else "flips"
        return f"{who} {verb} slot {move.slot}: {_card(_at(after, move.player, move.slot))}"
    if type(move) is Draw:
        if move.pile is None:
            return f"{who} draws {_card(held)} from the draw pile"
        return f"{who} takes {_card(held)} from discard pile {move.pile}"
    if type(move) is Place or type(move) is Bounce:
        verb = "plays" if type(move) is Place else "bounces"
        return f"{who} {verb} {_card(before.held)} into slot {move.slot}, picks up {_card(held)}"
    if type(move) is Discard:
        if before.held == HAZARD:
            return f"{who} discards a hazard: it leaves the game"
        return f"{who} discards {_card(before.held)} on pile {move.pile}"
    return str(move)


def _who(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return seat_name(seat)


def _at(state: State, seat: int, slot: int) -> Face | None:
    row = state.cards[seat]
    return row[slot] if 0 <= slot < len(row) else None


def _card(card: Face | None) -> str:
    """A card as the move list writes it; one that is no face (``None``, the stand-in ``0``)
    is a card nobody knows."""
    if not is_face(card):
        return "a card"
    if card == HAZARD:
        return "a hazard"
    return "a mulligan" if isinstance(card, str) else face_label(card)
