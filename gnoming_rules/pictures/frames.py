"""The positions of a record, one per move: what the HTML replay steps through.

:func:`record_frames` keeps the state after every step that the validator's replay
accepts (its ``observe`` hook: each deal, each move whose claim holds), so frame
``(round, move)`` is the position ``gnoming show --round R --move M`` draws, and the
positions end where the verdict stops: a refused record ends before the refused move.
The validator is the one replay loop; nothing here applies a move itself. For one seat's
replay the moves are told from what that seat saw (its observations, rule 11.1): a card
another seat drew from the draw pile is "a card" until it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.cards import EMPTY, HAZARD, Face, is_face
from ..core.moves import Bounce, Deal, Discard, Draw, Flip, Move, Place, Reshuffle, Reveal
from ..core.ruleset import Ruleset
from ..core.state import State
from ..formats.record import AnyRecord, PublicRecord
from ..play.observation import observe, stand_in
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
    record: AnyRecord, replay: Replay, *, base_dir: Path | None = None, seat: int | None = None
) -> list[Frame]:
    """Every position of ``record`` up to where ``replay`` (its validator replay) stopped.

    Empty when the replay refused the record before its first deal (no position to show).
    A public-information record's positions hold stand-ins for the cards nobody saw
    (drawn as backs): its deals are not known. ``seat``: each move is told in the words
    that seat could say (the positions stay the referee's; a picture observes them).
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
        if seat is not None:
            before, after = _as_seen(move, before, after, seat)
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


def _as_seen(move: Move, before: State, after: State, seat: int) -> tuple[State, State]:
    """``before`` and ``after`` as ``seat`` saw them (stand-ins of its observations), for
    telling ``move``: a held card hidden from the seat is named once the move showed it (a
    discard lies face up; a card played lies face up, or face down known to the seat)."""
    seen = observe(before, seat)
    shown = stand_in(seen)
    if seen.held_hidden and _shows_played(move, after, seat):
        shown = shown.replace(held=before.held)
    return shown, stand_in(observe(after, seat))


def _shows_played(move: Move, after: State, seat: int) -> bool:
    """Whether ``seat`` saw the card ``move`` played: discarded, or lying where it went as
    a card the seat knows (face up or known face down, rule 11.1), or gone with its line
    (rule 10.6: a removed line goes face up on the discard pile)."""
    if type(move) is Discard:
        return True
    if type(move) is Place or type(move) is Bounce:
        return (
            after.knows(seat, move.player, move.slot) or _at(after, move.player, move.slot) == EMPTY
        )
    return False


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
