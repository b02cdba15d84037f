"""The immutable game state that :func:`gnoming_rules.apply` maps to the next one.

A :class:`State` holds tuples and ints: nothing in it can be changed in place, and it
compares, hashes, pickles and copies by its fields. It holds what a referee sees (every
card, including face-down ones and the draw pile's order), nothing derivable from the
ruleset, and nothing derivable from its own fields (who reveals next, for instance, is
read off the face-up masks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import IntEnum
from types import MappingProxyType
from typing import Any, ClassVar, Final, NamedTuple, Protocol, TypeVar

from .cards import Face
from .errors import UsageError

_Class = TypeVar("_Class")

try:  # (mypyc reads the decorator when it compiles; run as Python it changes nothing)
    from mypy_extensions import mypyc_attr
except ImportError:  # installed without mypy, which brings mypy_extensions

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_Class], _Class]:
        return lambda cls: cls


class Phase(IntEnum):
    """What the game waits for next."""

    DEAL = 0
    """The round's deal, a chance event (rule 3.1)."""
    REVEAL = 1
    """Setup: the player in ``turn`` reveals a face-down card (3.5)."""
    DRAW = 2
    """The player in ``turn`` draws (4.1)."""
    PLACE = 3
    """The player holds the drawn card: play it into a slot or discard it (4.2, 4.4)."""
    BOUNCE = 4
    """The player holds a displaced card: bounce it or discard it (§5, 4.4)."""
    FLIP = 5
    """After a hazard, the players in ``flips_owed`` each flip a card, in order (6.1)."""
    RESHUFFLE = 6
    """The draw pile ran out: the new order of the discards is due, a chance event (8.7)."""
    OVER = 7
    """The last round is scored; the game is over (§9)."""
    PEEK = 8
    """Setup: the player in ``turn`` looks at one of their face-down cards (rule 11.2)."""
    POWER = 9
    """The player in ``turn`` may use the power of the card they discarded, or decline it
    (``state.power`` says which; rule 11.4)."""


CHANCE_PHASES = frozenset({Phase.DEAL, Phase.RESHUFFLE})

_DEAL: Final = Phase.DEAL
_FLIP: Final = Phase.FLIP
_RESHUFFLE: Final = Phase.RESHUFFLE
_OVER: Final = Phase.OVER
"""The phases as plain names: reading ``Phase.OVER`` goes through the enum's class, about
70 ns, paid at every step of a playout that asks :attr:`State.is_over` (Final: compiled,
a C static rather than a lookup in the module's dict)."""


class Waiting(NamedTuple):
    """What the game waits for in one phase (a row of :data:`WAITING_FOR`)."""

    rule: str
    """The rule that says so (``4.1``)."""
    words: str
    """The words after ``seat 2 must`` or ``waiting for`` (``draw``, ``the deal``)."""
    short: str | None
    """The pictures' label beside the seat to move (``to draw``); ``None`` where no seat
    moves (a chance event, the game over)."""


WAITING_FOR: Final[Mapping[Phase, Waiting]] = MappingProxyType(
    {
        Phase.DEAL: Waiting("3.1", "the deal", None),
        Phase.REVEAL: Waiting("3.5", "reveal a face-down card (setup)", "to reveal a card"),
        Phase.DRAW: Waiting("4.1", "draw", "to draw"),
        Phase.PLACE: Waiting(
            "4.2", "play the held card into a slot or discard it", "to play or discard"
        ),
        Phase.BOUNCE: Waiting("4.4", "bounce the held card or discard it", "to bounce or discard"),
        Phase.FLIP: Waiting("6.1", "flip a face-down card after the hazard", "to flip a card"),
        Phase.RESHUFFLE: Waiting("8.7", "the reshuffle of the discard piles", None),
        Phase.OVER: Waiting("9.1", "nothing: the game is over", None),
        Phase.PEEK: Waiting("11.2", "look at a face-down card (setup)", "to peek at a card"),
        Phase.POWER: Waiting(
            "11.4", "use the discarded card's power or pass", "to use a power or pass"
        ),
    }
)
"""What the game waits for in each phase: the rule, the words (``seat 2 must draw``,
``waiting for the deal``) and the pictures' short label (``to draw``). The one table; the
engine's refusals, the validator and the drawings all read it."""


@mypyc_attr(acyclic=True)
class Extras:
    """The fields of rule 11 in a :class:`State` (``known``, ``peeks``, ``power``,
    ``looked``, ``turns``), held in one slot of it: the engine passes them on in one
    reference at each step, and a state of rules 1-10 holds :data:`NO_EXTRAS`, their
    defaults (docs/decisions.md, "The fields of rule 11 in one slot"). Immutable, and
    acyclic like the state (ints, ``None``, a string and tuples of them)."""

    __slots__ = ("known", "looked", "peeks", "power", "turns")

    def __init__(
        self,
        known: tuple[tuple[int, ...], ...],
        peeks: int,
        power: str | None,
        looked: tuple[int, int] | None,
        turns: int,
    ) -> None:
        self.known: Final = known
        self.peeks: Final = peeks
        self.power: Final = power
        self.looked: Final = looked
        self.turns: Final = turns

    def _values(self) -> tuple[object, ...]:
        return (self.known, self.peeks, self.power, self.looked, self.turns)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Extras:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        known, peeks, power, looked, turns = self._values()
        return f"Extras({known!r}, {peeks!r}, {power!r}, {looked!r}, {turns!r})"

    def __reduce__(self) -> tuple[type[Extras], tuple[object, ...]]:
        return (Extras, self._values())


NO_EXTRAS: Final = Extras((), 0, None, None, 0)
"""The fields of rule 11 at their defaults: what every state of rules 1-10 holds."""


@mypyc_attr(acyclic=True, free_list_len=1)
class State:
    """A whole game at one moment, from the referee's side of the table.

    Seats are ``0..players-1``; slots are row-major. ``face_up[p]`` is a bit mask: bit
    ``s`` is set when player ``p``'s slot ``s`` is face up. Piles are tuples: the draw
    pile top first, each discard pile bottom first (its top is the last card).

    Immutable: :meth:`replace` makes a changed copy. Compares, hashes, pickles and copies
    by its fields (:attr:`_fields`, in the constructor's order). Compiled, a native class
    (docs/decisions.md, "A native State"): built in a few dozen instructions, its fields
    read from a C struct, and assigning to one raises ``AttributeError``. It holds
    only ints, ``None``, a :class:`Phase` and tuples of them, so it is in no reference
    cycle: compiled, the garbage collector does not track it (``acyclic``), and the
    last state freed is kept to build the next one (``free_list_len``).

    The five fields of rule 11 (``known``, ``peeks``, ``power``, ``looked``, ``turns``)
    are properties read from one slot, :attr:`extras` (an :class:`Extras`), which the
    constructor takes 17th, before them: the engine passes the last state's on in one
    argument, and builds a new one only at a step of rule 11. ``State(*values)`` takes
    the values of :attr:`_fields` with ``None`` inserted 17th; by keyword, ``extras`` is
    left out (docs/decisions.md, "The fields of rule 11 in one slot").
    """

    _fields: ClassVar[tuple[str, ...]] = (
        "first_player",
        "round",
        "phase",
        "turn",
        "cards",
        "face_up",
        "draw_pile",
        "discard_piles",
        "removed",
        "held",
        "taken_from_discard",
        "filled",
        "chain",
        "flips_owed",
        "went_out",
        "scores",
        "known",
        "peeks",
        "power",
        "looked",
        "turns",
    )
    """The fields' names, in the constructor's order (as a ``NamedTuple`` named them),
    except that the constructor takes ``extras``, which holds the last five, before them:
    ``State(*values[:16], None, *values[16:])`` builds a state from its fields' values."""

    __slots__ = (
        "cards",
        "chain",
        "discard_piles",
        "draw_pile",
        "extras",
        "face_up",
        "filled",
        "first_player",
        "flips_owed",
        "held",
        "phase",
        "removed",
        "round",
        "scores",
        "taken_from_discard",
        "turn",
        "went_out",
    )
    """The first 16 fields, then the five of rule 11 in one slot (:class:`Extras`)."""

    def __init__(  # noqa: PLR0917 (positional: the engine builds a state at every step)
        self,
        first_player: int,
        round: int,
        phase: Phase,
        turn: int,
        cards: tuple[tuple[Face, ...], ...],
        face_up: tuple[int, ...],
        draw_pile: tuple[Face, ...],
        discard_piles: tuple[tuple[Face, ...], ...],
        removed: tuple[Face, ...],
        held: Face | None,
        taken_from_discard: bool,
        filled: int,
        chain: bool,
        flips_owed: tuple[int, ...],
        went_out: int | None,
        scores: tuple[tuple[int, ...], ...],
        extras: Extras | None = None,
        known: tuple[tuple[int, ...], ...] = (),
        peeks: int = 0,
        power: str | None = None,
        looked: tuple[int, int] | None = None,
        turns: int = 0,
    ) -> None:
        self.first_player: Final = first_player
        """The seat that started round 0 (the youngest player, rule 2.2); under
        ``first_player: went_out`` (rule 10.10), the seat that started the current round."""
        self.round: Final = round
        """Index of the current round, 0-based; equals the number of rounds once the game is
        over."""
        self.phase: Final = phase
        """What the game waits for next."""
        self.turn: Final = turn
        """The seat whose turn it is (in setup, the seat revealing); -1 while dealing or over."""
        self.cards: Final = cards
        """Each seat's layout, row-major; empty before the first deal."""
        self.face_up: Final = face_up
        """Each seat's face-up bit mask."""
        self.draw_pile: Final = draw_pile
        """The draw pile, top first."""
        self.discard_piles: Final = discard_piles
        """The discard piles (two unless the ruleset says otherwise, rule 3.3), each bottom
        first."""
        self.removed: Final = removed
        """Cards out of the game this round (discarded hazards, hazards skipped at setup)."""
        self.held: Final = held
        """The card in the active player's hand, if any."""
        self.taken_from_discard: Final = taken_from_discard
        """The held card was taken from a discard pile and not yet played (rule 4.5)."""
        self.filled: Final = filled
        """Bit mask of the slots filled this turn: the play and every bounce (rule 5.3)."""
        self.chain: Final = chain
        """A bounce chain may run: the play displaced a face-down card (rule 5.1)."""
        self.flips_owed: Final = flips_owed
        """Seats that still owe a flip after a hazard, in the order they flip (rule 6.1)."""
        self.went_out: Final = went_out
        """The seat that went out this round (rule 8.1), if any."""
        self.scores: Final = scores
        """Each finished round's scores per seat, the going-out bonus included (8.6)."""
        if extras is None:  # (the engine passes the last state's, or a new one under §11)
            extras = (
                NO_EXTRAS
                if not known and not peeks and power is None and looked is None and not turns
                else Extras(known, peeks, power, looked, turns)
            )
        self.extras: Final[Extras] = extras
        """The fields of rule 11 (:attr:`known`, :attr:`peeks`, :attr:`power`,
        :attr:`looked`, :attr:`turns`) in one slot, the constructor's 17th argument: given,
        it stands for the five, whose arguments are then not read; ``None`` (its default),
        it is built from them (:data:`NO_EXTRAS` where all five are at their defaults)."""

    def _values(self) -> tuple[object, ...]:
        """The fields' values, in the order of :attr:`_fields`."""
        extras = self.extras
        return (
            self.first_player,
            self.round,
            self.phase,
            self.turn,
            self.cards,
            self.face_up,
            self.draw_pile,
            self.discard_piles,
            self.removed,
            self.held,
            self.taken_from_discard,
            self.filled,
            self.chain,
            self.flips_owed,
            self.went_out,
            self.scores,
            extras.known,
            extras.peeks,
            extras.power,
            extras.looked,
            extras.turns,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not State:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={value!r}" for name, value in zip(self._fields, self._values(), strict=True)
        )
        return f"State({shown})"

    def __reduce__(self) -> tuple[type[State], tuple[object, ...]]:
        """Pickled and copied as the class and its fields' values (``extras`` ``None``)."""
        values = self._values()
        return (State, (*values[:16], None, *values[16:]))

    def replace(self, **changes: Any) -> State:
        """A copy of this state with the fields named in ``changes`` set to their values;
        ``TypeError`` for a name that is not a field.

        Example::

            >>> import gnoming_rules as gr
            >>> start = gr.new_game(gr.load_ruleset("standard"), players=3)
            >>> start.replace(turn=2).turn, start.turn
            (2, -1)
        """
        # map over the names and the values, each field's change popped in C: about half
        # the time of a loop in Python, which the replay of a public record pays per card.
        pop, fields, values = changes.pop, self._fields, self._values()
        # (extras, the 17th argument, None: built from the five that follow it)
        args: list[Any] = [*map(pop, fields[:16], values[:16]), None]
        args += map(pop, fields[16:], values[16:])
        changed = State(*args)
        if changes:
            raise TypeError(f"State has no field {sorted(changes)[0]!r}")
        return changed

    def __replace__(self, **changes: Any) -> State:
        """``copy.replace(state, ...)`` (Python 3.13): :meth:`replace`."""
        return self.replace(**changes)

    def _replace(self, **changes: Any) -> State:
        """:meth:`replace`, under the name it had when ``State`` was a ``NamedTuple``."""
        return self.replace(**changes)

    @property
    def known(self) -> tuple[tuple[int, ...], ...]:
        """Who knows each face-down card (rule 11.1): ``known[p][s]`` is a bit mask of the
        seats that know player ``p``'s slot ``s`` (bit ``v`` set: seat ``v`` knows it).
        ``()`` under rules where no seat can know a face-down card (§1-10); a face-up
        slot's mask means nothing (every seat sees the card)."""
        return self.extras.known

    @property
    def peeks(self) -> int:
        """Setup: how many peeks the seat in ``turn`` has made (rule 11.2)."""
        return self.extras.peeks

    @property
    def power(self) -> str | None:
        """The power open to the seat in ``turn`` (phase ``POWER``, rule 11.4):
        ``peek_own``, ``peek_other``, ``swap_blind``, ``look_and_swap``, or ``swap`` for
        the swap that may follow ``look_and_swap``'s look; else ``None``."""
        return self.extras.power

    @property
    def looked(self) -> tuple[int, int] | None:
        """The card ``look_and_swap`` looked at, as ``(seat, slot)``: the only card its
        swap may take (rule 11.8); else ``None``."""
        return self.extras.looked

    @property
    def turns(self) -> int:
        """Turns completed in this round, counted under ``round_end.knock`` (rule 11.5: a
        knock waits until every player has had a turn); 0 otherwise."""
        return self.extras.turns

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.face_up)

    @property
    def actor(self) -> int | None:
        """The seat to move next; ``None`` while a chance event is due or after the game."""
        phase = self.phase
        if phase is _FLIP:
            return self.flips_owed[0]
        if phase is _DEAL or phase is _RESHUFFLE or phase is _OVER:
            return None
        return self.turn

    @property
    def to_move(self) -> int:
        """The seat to move next, for code that expects a player's move: :attr:`actor` as an
        ``int``, so that ``bots[state.to_move]`` type-checks.

        Raises :class:`~gnoming_rules.core.errors.UsageError` (``no-player-to-move``) while a
        chance event is due (check :attr:`is_chance` first) or after the game.
        """
        actor = self.actor
        if actor is None:
            why = "a deal or a reshuffle is due" if self.is_chance else "the game is over"
            raise UsageError(
                "no-player-to-move", f"no seat moves in phase {self.phase.name.lower()}: {why}"
            )
        return actor

    @property
    def is_chance(self) -> bool:
        """True when the next step is a chance event (a deal or a reshuffle)."""
        phase = self.phase
        return phase is _DEAL or phase is _RESHUFFLE

    @property
    def is_over(self) -> bool:
        """True once the last round is scored."""
        return self.phase is _OVER

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the finished rounds (zeros before any round ends)."""
        return tuple(sum(column) for column in zip(*self.scores, strict=True)) or (
            (0,) * self.players
        )

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (rule 9.1), else ``()``.

        Lowest total wins; a tie goes to the lowest last-round score; a tie on both is shared.
        """
        if self.phase is not Phase.OVER or not self.scores:
            return ()
        totals, last = self.totals, self.scores[-1]
        best = min(zip(totals, last, strict=True))
        return tuple(seat for seat, key in enumerate(zip(totals, last, strict=True)) if key == best)

    @property
    def waiting(self) -> str:
        """What the game waits for, in words: ``seat 2 must draw``, ``waiting for the deal``."""
        what = WAITING_FOR[self.phase].words
        actor = self.actor
        return f"waiting for {what}" if actor is None else f"seat {actor} must {what}"

    def face_down_count(self, seat: int) -> int:
        """How many of ``seat``'s cards are face down."""
        return len(self.cards[seat]) - self.face_up[seat].bit_count()

    def knows(self, viewer: int, seat: int, slot: int) -> bool:
        """True when seat ``viewer`` knows the card in ``seat``'s ``slot``: it is face up,
        or face down and known to ``viewer`` (rule 11.1)."""
        if self.face_up[seat] >> slot & 1:
            return True
        known = self.extras.known
        return bool(known) and bool(known[seat][slot] >> viewer & 1)

    def is_face_up(self, seat: int, slot: int) -> bool:
        """True when ``seat``'s ``slot`` is face up."""
        return bool(self.face_up[seat] >> slot & 1)

    def visible_layout(self, seat: int) -> tuple[Face | None, ...]:
        """``seat``'s layout as the table sees it: face-down cards are ``None``."""
        mask = self.face_up[seat]
        return tuple(
            card if mask >> slot & 1 else None for slot, card in enumerate(self.cards[seat])
        )


def below_tops(piles: Sequence[Sequence[Face]]) -> list[Face]:
    """The discard piles' cards except each top card, pile by pile, bottom first: what a
    reshuffle shuffles into a new draw pile (rule 8.7)."""
    return [card for pile in piles for card in pile[:-1]]


class View(Protocol):
    """Something the engine can decide the open moves from without being a state: a seat's
    observation (``gnoming_rules.play.observation.Observation``) gives the state that
    stands in for it, the cards it hides replaced by stand-ins."""

    def decision_state(self) -> State:
        """The state whose legal moves and refusals are the viewed state's."""
        ...


def initial_state(players: int, first_player: int, piles: int = 2) -> State:
    """A game before its first deal: ``players`` empty seats and ``piles`` empty discard
    piles, waiting for round 0's deal."""
    return State(
        first_player=first_player,
        round=0,
        phase=Phase.DEAL,
        turn=-1,
        cards=((),) * players,
        face_up=(0,) * players,
        draw_pile=(),
        discard_piles=((),) * piles,
        removed=(),
        held=None,
        taken_from_discard=False,
        filled=0,
        chain=False,
        flips_owed=(),
        went_out=None,
        scores=(),
    )


__all__ = [
    "Phase",
    "State",
]
# View is documented here but not exported: callers pass an observation, never name it.
