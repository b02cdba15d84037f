"""A person at the terminal playing one seat of ``gnoming play --human SEAT``.

At each of the seat's turns, :class:`TerminalPlayer` draws the table as the seat sees it
(the face-down cards of every layout hidden, the draw pile's order too), lists the moves
the rules allow, and reads one line. A move is typed in words, slots and piles counted
from 0 as everywhere: ``reveal 4``, ``draw`` (from the deck), ``draw discard 1``,
``place 4``, ``bounce 2``, ``discard``, ``discard 0``, ``flip 7``, and under the
rules of 11 ``peek 2`` (one's own slot 2), ``peek 3 1`` (seat 1's slot 3), ``swap 0 1 3``
(one's slot 0 with seat 1's slot 3), ``pass`` and ``knock``; an action may be shortened
to a prefix that names one (``pl 4``, ``dr``, ``di 1``). The referee judges
the move: a refusal is printed with its code, rule and reason, and the seat types again.
``?`` lists the moves again, ``help`` says what each move does; ``quit`` (or the end of
the input) ends the game, whose record so far is kept.

The table shows a key of slot numbers beside the layouts, a face-down card the seat
knows (rule 11.1: a peek, a card it placed face down) in brackets with its face,
``(7)``, and under each layout the score of its face-up cards
(:func:`~gnoming_rules.core.scoring.score_visible`).

This is not a command: ``gnoming play`` uses it (so it is not in ``COMMANDS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..core.cards import face_text
from ..core.engine import apply, legal_moves
from ..core.entries import move_from_entry, move_to_entry
from ..core.entry_forms import ACTIONS as RECORD_ACTIONS
from ..core.errors import GnomingError, IllegalMove
from ..core.moves import PlayerMove, Reshuffle
from ..core.ruleset import Ruleset
from ..core.scoring import score_visible
from ..core.state import State
from ..play.bots import StopGame
from ..play.observation import Observation, stand_in
from ..play.render import (
    describe_turn,
    draw_layout,
    draw_slot_numbers,
    seat_name,
    side_by_side,
)

PROMPT: Final = "your move (or ?, help or quit):"
"""The line printed before each line is read."""

ACTIONS: Final = tuple(action for action in RECORD_ACTIONS if action != "reshuffle")
"""What a seat can do, as typed: the record's action names, less the chance event
``reshuffle``. A prefix that names one of the first six (rules 1-10) and moves of rule 11
too names the first six's (``p``: ``place``)."""

HELP: Final = """\
moves, slots and piles counted from 0 (the slot key is beside the layouts):
  reveal N         turn up your face-down card in slot N (at the start of a round)
  draw             take the top card of the draw pile
  draw discard P   take the top card of discard pile P (draw P for short)
  place N          put the card you hold into slot N; you then hold the card it replaces
  bounce N         put the card you hold, which matches a face-up card of yours, into
                   slot N (not filled this turn); you then hold the card it replaces
  discard P        put the card you hold face up on discard pile P (a hazard: discard)
  flip N           turn up one of your face-down cards, slot N (after a hazard)
  peek N [S]       look at your face-down card in slot N, or at seat S's slot N (setup
                   peeks and the powers of rule 11.4); a card you know shows as (7)
  swap N S M       exchange your slot N with seat S's slot M (a swap power)
  pass             decline a power, or keep your cards after a look (rule 11.4)
  knock            end the round instead of drawing: every other seat has one more turn
an action may be shortened (p 4, dr, di 1); ? lists the moves open now; quit stops"""
"""What ``help`` prints: every move in words."""


def move_words(move: PlayerMove) -> str:
    """``place 4``, ``draw discard 1``, ``discard``: a move as a person types it."""
    entry = move_to_entry(move)
    words = [entry["action"]]
    if entry["action"] == "draw" and entry["source"] == "discard":
        words.append("discard")
    words += [str(entry[key]) for key in ("pile", "slot") if key in entry]
    if entry["action"] == "peek" and entry.get("target", entry["player"]) != entry["player"]:
        words.append(str(entry["target"]))
    if entry["action"] == "swap":
        words += [str(entry["target"]), str(entry["target_slot"])]
    return " ".join(words)


def parse_move(text: str, seat: int, players: int, piles: int = 2) -> PlayerMove:
    """The move that ``text`` types for ``seat`` at a table of ``players`` seats and
    ``piles`` discard piles (the ruleset's ``discard.piles``); ``ValueError`` says why it
    is none."""
    words = text.split()
    if not words:
        raise ValueError("nothing typed")
    typed = words[0].lower()
    matching = [action for action in ACTIONS if action.startswith(typed)]
    if len(matching) > 1 and len(set(matching) & set(ACTIONS[:6])) == 1:
        matching = [action for action in matching if action in ACTIONS[:6]]  # p: place
    if len(matching) != 1:
        named = f"{words[0]!r} names {' or '.join(matching)}" if matching else "no such action"
        raise ValueError(f"{named}: type one of {', '.join(ACTIONS)}")
    action, rest = matching[0], words[1:]
    entry: dict[str, object] = {"action": action, "player": seat}
    if action == "draw":
        if rest and rest[0].lower() in ("deck", "discard"):
            source, rest = rest[0].lower(), rest[1:]
        else:
            source = "discard" if rest else "deck"
        entry["source"] = source
        if rest:
            entry["pile"] = _number(rest.pop(0), "pile")
    elif action == "discard":
        if rest:
            entry["pile"] = _number(rest.pop(0), "pile")
    elif action in ("pass", "knock"):
        pass
    elif action == "peek":
        if not rest:
            raise ValueError("peek at which slot? e.g. peek 2, or peek 2 1 for seat 1's slot 2")
        entry["slot"] = _number(rest.pop(0), "slot")
        if rest:
            entry["target"] = _number(rest.pop(0), "seat")
    elif action == "swap":
        if len(rest) < 3:
            raise ValueError("swap your slot N with seat S's slot M: swap N S M, e.g. swap 0 1 3")
        entry["slot"] = _number(rest.pop(0), "slot")
        entry["target"] = _number(rest.pop(0), "seat")
        entry["target_slot"] = _number(rest.pop(0), "slot")
    else:
        if not rest:
            raise ValueError(f"{action} which slot? e.g. {action} 0")
        entry["slot"] = _number(rest.pop(0), "slot")
    if rest:
        raise ValueError(f"too many words: {' '.join(rest)!r}")
    try:
        move = move_from_entry(entry, players, piles=piles)
    except GnomingError as error:
        raise ValueError(error.message) from None
    if isinstance(move, Reshuffle):  # not an action a seat types
        raise ValueError("a reshuffle is the table's, not a seat's")
    return move


def _number(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"the {what} is a number, got {word!r}") from None


class TerminalPlayer:
    """One seat played by a person: it reads lines and writes text (see the module)."""

    def __init__(
        self,
        seat: int,
        names: Sequence[str],
        read: Callable[[], str | None],
        write: Callable[[str], None],
    ) -> None:
        """``read`` gives the next line typed (``None`` at the end of the input)."""
        self.seat = seat
        self.names = list(names)
        self.read = read
        self.write = write

    def choose(self, ruleset: Ruleset, seen: Observation) -> PlayerMove:
        """Show the table, read moves until the referee accepts one; :class:`StopGame`
        when the person quits or the input ends. The referee judges on the table as the
        seat sees it (:func:`~gnoming_rules.play.observation.stand_in`): its answers about
        the moves open now are those of the real table."""
        state = stand_in(seen)
        allowed = legal_moves(ruleset, state)
        self.write("\n".join(self.table(ruleset, seen)))
        self.write(self.menu(ruleset, state, allowed))
        while True:
            self.write(PROMPT)
            line = self.read()
            if line is None or line.strip().lower() in ("quit", "exit", "q"):
                raise StopGame
            text = line.strip()
            if text in ("", "?"):
                self.write(self.menu(ruleset, state, allowed))
                continue
            if text.lower() == "help":
                self.write(HELP)
                continue
            try:
                move = parse_move(text, self.seat, state.players, ruleset.compiled.piles)
            except ValueError as problem:
                self.write(f"not a move: {problem} (? lists your moves)")
                continue
            try:
                apply(ruleset, state, move)
            except IllegalMove as refusal:
                rule = f" (rule {refusal.rule})" if refusal.rule else ""
                self.write(f"refused: {refusal.code}{rule}: {refusal.message}")
                continue
            return move

    def menu(self, ruleset: Ruleset, state: State, allowed: Sequence[PlayerMove]) -> str:
        """Whose turn and what it waits for, and the moves allowed."""
        moves = ", ".join(move_words(move) for move in allowed)
        return f"round {state.round}: {describe_turn(state, self.names, ruleset)}\nmoves: {moves}"

    def table(self, ruleset: Ruleset, seen: Observation) -> list[str]:
        """The table as this seat sees it: the slot numbers, every layout (face down as
        ``(?)``) with the score of its face-up cards, and the piles."""
        rows, cols = ruleset.compiled.rows, ruleset.compiled.cols
        blocks = [["slots", *draw_slot_numbers(rows, cols)]]
        for seat, layout in enumerate(seen.layouts):
            face_up = seen.face_up_mask(seat)  # a card known face down is drawn (7)
            title = seat_name(seat, self.names) + (" (you)" if seat == self.seat else "")
            shown = [card if face_up >> slot & 1 else None for slot, card in enumerate(layout)]
            score = f"face up: {score_visible(ruleset, shown)}"  # a known card is not face up
            blocks.append([title, *draw_layout(layout, face_up, rows, cols), score])
        lines = ["", *side_by_side(blocks)]
        lines.append(f"draw pile: {seen.draw_pile_size} cards")
        for index, pile in enumerate(seen.discard_piles):
            count = f"{len(pile)} card{'' if len(pile) == 1 else 's'}"
            top = f"top {face_text(pile[-1])} ({count})" if pile else "empty"
            lines.append(f"discard pile {index}: {top}")
        if seen.held is not None:
            lines.append(f"held: {face_text(seen.held)}")
        if seen.scores:
            lines += [f"round {i} scores: {list(scores)}" for i, scores in enumerate(seen.scores)]
        return lines


__all__ = ["ACTIONS", "HELP", "TerminalPlayer", "move_words", "parse_move"]
