"""The checks the handlers share, in the order RECORD fixes (round live, whose move, phase,
slot), and the small steps of building a layout that several rules take."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from ..cards import EMPTY, Face, face_text, is_face
from ..compiled import CompiledRules
from ..errors import DealError, ErrorCode, IllegalMove, quoted
from ..moves import PlayerMove
from ..state import WAITING_FOR, Phase, State

# The phases the checks and the engine's dispatch compare with, declared once (the engine
# imports them). Final: compiled, a Final name is a C static, not a lookup in the module's
# dict.
_DEAL: Final = Phase.DEAL
_REVEAL: Final = Phase.REVEAL
_DRAW: Final = Phase.DRAW
_PLACE: Final = Phase.PLACE
_BOUNCE: Final = Phase.BOUNCE
_FLIP: Final = Phase.FLIP
_RESHUFFLE: Final = Phase.RESHUFFLE
_OVER: Final = Phase.OVER
_PEEK: Final = Phase.PEEK
_POWER: Final = Phase.POWER


def _check_in_play(state: State) -> None:
    """RECORD order 2.1-2.2: the round is live and no reshuffle is due."""
    phase = state.phase
    if phase is _OVER:
        raise IllegalMove("moves-after-end", "9.1", "the game is over: no more moves")
    if phase is _DEAL:
        if state.round == 0:
            raise IllegalMove("wrong-phase", "3.1", "the game has not been dealt yet")
        raise IllegalMove(
            "moves-after-end",
            "8.1",
            f"round {state.round - 1} is over; round {state.round} waits for its deal",
        )
    if phase is _RESHUFFLE:
        raise IllegalMove(
            "wrong-phase",
            "8.7",
            "the draw pile ran out: the reshuffle of the discard piles must come first",
        )


def _check_actor(state: State, move: PlayerMove, *phases: Phase) -> None:
    """RECORD order 2.4: the right seat, then a move that fits the phase.

    Handlers test the common case inline and call this only when it fails, so this is
    the one authority on refusals and their order.
    """
    _check_in_play(state)
    actor = state.actor
    phase = state.phase
    rule, waiting, _ = WAITING_FOR[phase]
    loose: Any = move  # a field is any object until checked (see _reveal)
    if type(loose.player) is not int or loose.player != actor:
        raise IllegalMove(
            "not-your-turn",
            rule if phase in (_REVEAL, _FLIP, _PEEK) else "2.1",
            f"{move.action} by seat {quoted(loose.player)} refused: seat {actor} must {waiting}",
        )
    if phase not in phases:
        raise IllegalMove(
            "wrong-phase", rule, f"{move.action} refused: seat {actor} must {waiting} first"
        )


def check_slot(rules: CompiledRules, slot: object, rule: str) -> int:
    """``slot`` if it is a slot of the layout, else a ``bad-slot`` refusal citing ``rule``.

    One of the engine's rule steps (not in ``__all__``).
    """
    if type(slot) is not int or not 0 <= slot < rules.slots:
        raise IllegalMove(
            "bad-slot",
            rule,
            f"slot {quoted(slot)} is not in the {rules.rows}x{rules.cols} layout "
            f"(slots 0 to {rules.slots - 1})",
        )
    return slot


def _check_face_down(state: State, seat: int, slot: int, rule: str) -> None:
    if state.face_up[seat] >> slot & 1:
        if state.cards[seat][slot] == EMPTY:  # (its face-up bit is set: rule 10.6)
            raise IllegalMove("bad-slot", rule, f"seat {seat}'s slot {slot} is empty (10.6)")
        down = [s for s in range(len(state.cards[seat])) if not state.face_up[seat] >> s & 1]
        raise IllegalMove(
            "slot-face-up",
            rule,
            f"seat {seat}'s slot {slot} is already face up (face down: {down})",
        )


def _played(
    cards: tuple[tuple[Face, ...], ...], face_up: tuple[int, ...], seat: int, slot: int, card: Face
) -> tuple[tuple[tuple[Face, ...], ...], tuple[int, ...]]:
    """The layouts and face-up masks once ``card`` lies face up in ``seat``'s ``slot``: what
    a play and a bounce change. Built through list copies, each changed by one item: about
    twice as fast as joining tuple slices, and every turn plays a card."""
    row = list(cards[seat])
    row[slot] = card
    seats = list(cards)
    seats[seat] = tuple(row)
    ups = list(face_up)
    ups[seat] |= 1 << slot
    return tuple(seats), tuple(ups)


def _replace_item(items: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    changed = list(items)  # a list copy and one set: about twice as fast as tuple slices
    changed[index] = value
    return tuple(changed)


def _face_counts(cards: tuple[object, ...] | list[object]) -> dict[object, int] | None:
    """How many times each face occurs in ``cards``, or ``None`` when an item is not of a
    face's type (``int`` or ``str``: no ``True`` counted as a 1). One loop, compiled: about
    half the instructions of ``Counter`` (whose ``__init__`` runs as Python) after a
    ``set(map(type, ...))`` pass, and within a few microseconds of them in pure Python."""
    counts: dict[object, int] = {}
    for card in cards:
        kind = type(card)
        if kind is not int and kind is not str:
            return None
        counts[card] = counts.get(card, 0) + 1
    return counts


def _check_same_cards(
    cards: Sequence[object],
    expected: Counter[Face],
    *,
    code: ErrorCode,
    rule: str,
    what: str,
    whose: str,
) -> None:
    """Refuse ``cards`` unless they are exactly the multiset ``expected`` (``whose`` cards):
    a :class:`DealError` for a deal (``not-the-deck``), else an :class:`IllegalMove`."""
    kind = DealError if code == "not-the-deck" else IllegalMove
    if not isinstance(cards, (tuple, list)):
        plain = cards is None or isinstance(cards, (int, float, str))
        shown = repr(cards)[:40] if plain else f"a {type(cards).__name__}"
        raise kind(code, rule, f"{what} must be a list of cards, got {shown}")
    # Only faces (no True for 1): counting them is safe. The common case, compared as plain
    # dicts (in C, twice as fast as Counter's ==), which is the same here: neither holds zeros.
    counts = _face_counts(cards)
    if counts is not None and dict.__eq__(counts, expected):
        return
    faces: list[Face] = []
    for index, card in enumerate(cards):
        if not is_face(card):
            raise kind(code, rule, f"{what}: item {index} ({quoted(card)}) is not a card")
        faces.append(card)
    got = Counter(faces)
    if got == expected:
        return
    missing = expected - got
    extra = got - expected
    parts = [f"{what} must hold exactly {whose} ({sum(expected.values())} cards), got {len(cards)}"]
    if missing:
        parts.append("missing " + _count_text(missing))
    if extra:
        parts.append("not expected " + _count_text(extra))
    raise kind(code, rule, "; ".join(parts))


def _listed(items: Sequence[object]) -> str:
    """``0, 1 and 3``."""
    words = [str(item) for item in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _count_text(counts: Counter[Face], most: int = 12) -> str:
    """``2x 7, 1x H``, in the order of the faces' text; past ``most`` faces, how many more."""
    shown = sorted((face_text(card), n) for card, n in counts.items())
    text = ", ".join(f"{n}x {card}" for card, n in shown[:most])
    return text if len(shown) <= most else f"{text} and {len(shown) - most} other faces"


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
