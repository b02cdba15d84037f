"""The positions of a record, one per move: what the HTML replay steps through.

:func:`record_frames` keeps the state after every step that the validator's replay
accepts (its ``observe`` hook: each deal, each move whose claim holds), so frame
``(round, move)`` is the position ``gnoming show --round R --move M`` draws, and the
positions end where the verdict stops: a refused record ends before the refused move.
The validator is the one replay loop; nothing here applies a move itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.cards import HAZARD, Face, is_face
from ..core.moves import Bounce, Deal, Discard, Draw, Flip, Move, Place, Reshuffle, Reveal
from ..core.ruleset import Ruleset
from ..core.state import State
from ..formats.record import AnyRecord, PublicRecord
from ..play.render import seat_name
from ..referee.validate import Replay, replay_record
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


def record_frames(
    record: AnyRecord, replay: Replay, *, base_dir: Path | None = None
) -> list[Frame]:
    """Every position of ``record`` up to where ``replay`` (its validator replay) stopped.

    Empty when the replay refused the record before its first deal (no position to show).
    A public-information record's positions hold stand-ins for the cards nobody saw
    (drawn as backs): its deals are not known.
    """
    rules = replay.ruleset
    if rules is None or replay.state is None:
        return []
    names = record.players
    frames: list[Frame] = []

    def keep(ruleset: Ruleset, before: State, move: Move, after: State) -> None:
        if type(move) is Deal:
            dealt = "the start" if isinstance(record, PublicRecord) else "the deal"
            frames.append(Frame(after.round, 0, after, f"{dealt} of round {after.round}"))
            return
        last = frames[-1]
        played = describe_move(move, before, after, names)
        frames.append(Frame(last.round, last.move + 1, after, played))

    replay_record(record, ruleset=rules, base_dir=base_dir, observe=keep)
    return frames


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
