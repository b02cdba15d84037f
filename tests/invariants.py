"""The referee's invariants as plain checks, and a :class:`Watch` that runs them on every step.

Each property has a stable name (``PROPERTIES``) and fails with :class:`PropertyViolation`
naming it, so a test can tell *which* property caught a planted bug. The checks are
written from RULES.md, not from the engine's code: they never call the engine's private
helpers, and they read the ruleset's own fields rather than its compiled tables.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Final

from builders import deck_of

import gnoming_rules as gr
from gnoming_rules import (
    HAZARD,
    MULLIGAN,
    Bounce,
    Deal,
    Discard,
    Face,
    Flip,
    IllegalMove,
    Knock,
    Move,
    Phase,
    Place,
    Reshuffle,
    Ruleset,
    State,
    Swap,
)
from gnoming_rules.core.cards import EMPTY
from gnoming_rules.core.engine import ENGINE_CODES
from gnoming_rules.core.state import below_tops
from gnoming_rules.testing import candidate_moves

DECK_CONSERVATION: Final = "deck-conservation"
MULLIGAN_LIMIT: Final = "mulligan-limit"
FACE_UP_STAYS_UP: Final = "face-up-stays-up"
LEGAL_IFF_APPLY: Final = "legal-iff-apply"
PURITY: Final = "purity"
ONE_DISCARD_PER_TURN: Final = "one-discard-per-turn"
HAZARDS_LEAVE: Final = "hazards-leave"
FLIPS_OWED: Final = "flips-owed"
BOUNCE_RULES: Final = "bounce-rules"
ROUND_END: Final = "round-end"

PROPERTIES: Final = (
    DECK_CONSERVATION,
    MULLIGAN_LIMIT,
    FACE_UP_STAYS_UP,
    LEGAL_IFF_APPLY,
    PURITY,
    ONE_DISCARD_PER_TURN,
    HAZARDS_LEAVE,
    FLIPS_OWED,
    BOUNCE_RULES,
    ROUND_END,
)
"""Every property the watch checks on a game, by name."""

_TURN_PHASES = frozenset({Phase.DRAW, Phase.PLACE, Phase.BOUNCE, Phase.FLIP, Phase.RESHUFFLE})
_RULE_NUMBER = re.compile(r"\d+(\.\d+)?")


class PropertyViolation(AssertionError):  # noqa: N818 (it is not an error of the code under test)
    """A property of the referee does not hold; ``prop`` names it."""

    def __init__(self, prop: str, message: str) -> None:
        super().__init__(f"[{prop}] {message}")
        self.prop = prop


# --- small readings of a state, from the rules ------------------------------------------------


def cards_in_play(state: State) -> Counter[Face]:
    """Every card the state holds: layouts, draw pile, discard piles, the hand and removed."""
    counts: Counter[Face] = Counter()
    for layout in state.cards:
        counts.update(card for card in layout if card != EMPTY)  # an empty slot: no card (10.6)
    counts.update(state.draw_pile)
    for pile in state.discard_piles:
        counts.update(pile)
    counts.update(state.removed)
    if state.held is not None:
        counts[state.held] += 1
    return counts


def face_up_mulligans(state: State, seat: int) -> int:
    """How many mulligans lie face up in ``seat``'s layout."""
    return sum(
        1
        for slot, card in enumerate(state.cards[seat])
        if card == MULLIGAN and state.face_up[seat] >> slot & 1
    )


def move_key(move: Move) -> tuple[object, ...]:
    """A move's identity, field types included: ``Flip(1.0, 3)`` is not ``Flip(1, 3)``."""
    values = tuple(getattr(move, name) for name in move.__dataclass_fields__)
    return (type(move), *((type(value), value) for value in values))


# --- state properties ----------------------------------------------------------------------


def check_deck_conservation(ruleset: Ruleset, state: State) -> None:
    """The cards in layouts, piles, hand and out of the game are exactly the deck (1.1)."""
    if not any(state.cards):
        return  # no deal yet
    seen, deck = cards_in_play(state), deck_of(ruleset)
    if seen != deck:
        raise PropertyViolation(
            DECK_CONSERVATION,
            f"cards missing {dict(deck - seen)}, cards extra {dict(seen - deck)} "
            f"(round {state.round}, phase {state.phase.name})",
        )


def complete_lines(ruleset: Ruleset, layout: Sequence[Face], up: int) -> list[tuple[int, ...]]:
    """The lines of ``layout`` that RULES 10.6 removes: all face up, no empty slot, a set
    by 10.2/10.3 with no wild mulligan (a mulligan matches mulligans only; hazards never)."""
    rows, cols = ruleset.layout.rows, ruleset.layout.cols
    kinds = ruleset.sets.lines
    lines: list[tuple[int, ...]] = []
    if "rows" in kinds:
        lines += [tuple(r * cols + c for c in range(cols)) for r in range(rows)]
    if "columns" in kinds:
        lines += [tuple(r * cols + c for r in range(rows)) for c in range(cols)]
    if "diagonals" in kinds and rows == cols:
        lines += [tuple(r * cols + r for r in range(rows))]
        lines += [tuple(r * cols + cols - 1 - r for r in range(rows))]

    def key(card: Face) -> object:
        if card == MULLIGAN:
            return MULLIGAN if ruleset.sets.cards == "any" else None
        if card in (HAZARD, EMPTY):
            return None
        value = ruleset.deck.value(card)
        if ruleset.sets.cards == "positive" and value <= 0:
            return None
        return value if ruleset.sets.match == "value" else card

    found = []
    for line in lines:
        keys = {key(layout[slot]) for slot in line}
        if all(up >> slot & 1 for slot in line) and len(keys) == 1 and None not in keys:
            found.append(line)
    return found


def check_lines_left(ruleset: Ruleset, before: State, move: Move, after: State) -> None:
    """Under ``sets.score: remove`` (RULES 10.6): while a round runs no layout holds a
    complete line, and the cards that left a layout lie on top of discard pile 0."""
    if ruleset.sets.score != "remove" or isinstance(move, Deal) or not any(before.cards):
        return
    if len(after.scores) == len(before.scores):  # (the final turning-up leaves its lines)
        for seat, layout in enumerate(after.cards):
            left = complete_lines(ruleset, layout, after.face_up[seat])
            if left:
                raise PropertyViolation(
                    DECK_CONSERVATION, f"{move}: seat {seat}'s complete lines {left} stayed"
                )
    gone: Counter[Face] = Counter()
    layouts = [list(layout) for layout in before.cards]
    if isinstance(move, Swap):  # (rule 11.4: the swapped cards are in place before lines leave)
        mine, theirs = (move.player, move.slot), (move.target, move.target_slot)
        layouts[mine[0]][mine[1]], layouts[theirs[0]][theirs[1]] = (
            before.cards[theirs[0]][theirs[1]],
            before.cards[mine[0]][mine[1]],
        )
    for seat, (was, now) in enumerate(zip(layouts, after.cards, strict=True)):
        for slot, (old, new) in enumerate(zip(was, now, strict=True)):
            if new == EMPTY and old != EMPTY:
                played = isinstance(move, Place | Bounce) and (seat, slot) == (
                    move.player,
                    move.slot,
                )
                gone[before.held if played and before.held is not None else old] += 1
            elif old == EMPTY and new != EMPTY:
                raise PropertyViolation(
                    DECK_CONSERVATION, f"{move}: seat {seat}'s empty slot {slot} filled again"
                )
    if gone:
        pile, grown = before.discard_piles[0], after.discard_piles[0]
        if grown[: len(pile)] != pile or Counter(grown[len(pile) :]) != gone:
            raise PropertyViolation(
                DECK_CONSERVATION,
                f"{move}: the cards {dict(gone)} left, pile 0 went from {pile} to {grown}",
            )


def check_hazards_off_piles(state: State) -> None:
    """No hazard ever lies on a discard pile (3.3, 4.4, 6.1)."""
    for index, pile in enumerate(state.discard_piles):
        if HAZARD in pile:
            raise PropertyViolation(HAZARDS_LEAVE, f"a hazard lies on discard pile {index}: {pile}")


# --- transition properties ---------------------------------------------------------------------


def check_face_up_stays_up(ruleset: Ruleset, before: State, move: Move, after: State) -> None:
    """Within a round no face-up slot turns face down, so face-down counts only fall (4.2),
    except where rule 11 moves a face-down card in: the slot a card is played into under
    ``play.placed: down`` (11.3: the card played lies face down, whatever lay there), and
    the two slots a swap exchanges (11.4: each card keeps its face-up state), whose states
    must then be exchanged exactly."""
    if isinstance(move, Deal) or not any(before.cards):
        return
    spared: set[tuple[int, int]] = set()
    if ruleset.compiled.placed_down and isinstance(move, Place | Bounce):
        spared.add((move.player, move.slot))
    if isinstance(move, Swap) and after.round == before.round:  # (a round's end turns all up)
        mine, theirs = (move.player, move.slot), (move.target, move.target_slot)
        for here, there in ((mine, theirs), (theirs, mine)):
            if after.is_face_up(*here) != before.is_face_up(*there):
                raise PropertyViolation(
                    FACE_UP_STAYS_UP, f"{move}: the card now in {here} changed its face-up state"
                )
        spared |= {mine, theirs}
    for seat in range(before.players):
        lost = before.face_up[seat] & ~after.face_up[seat]
        for owner, slot in spared:
            if owner == seat:
                lost &= ~(1 << slot)
        if lost:
            slots = [s for s in range(len(before.cards[seat])) if lost >> s & 1]
            raise PropertyViolation(
                FACE_UP_STAYS_UP, f"{move}: seat {seat}'s face-up slots {slots} turned face down"
            )
        if not spared and after.face_down_count(seat) > before.face_down_count(seat):
            raise PropertyViolation(
                FACE_UP_STAYS_UP, f"{move}: seat {seat} has more face-down cards than before"
            )


def check_mulligan_limit_on_play(ruleset: Ruleset, before: State, move: Move, after: State) -> None:
    """A play never raises the face-up mulligans of a layout above the limit (7.2)."""
    if not isinstance(move, Place | Bounce):
        return
    seat, limit = before.turn, ruleset.mulligan.max_face_up
    was, now = face_up_mulligans(before, seat), face_up_mulligans(after, seat)
    if now > limit and now > was:
        raise PropertyViolation(
            MULLIGAN_LIMIT,
            f"{move}: seat {seat}'s face-up mulligans went from {was} to {now}; limit {limit}",
        )


def check_wild_mulligans(ruleset: Ruleset, layout: Sequence[Face]) -> None:
    """Scoring makes at most the limit's number of mulligans wild (7.3, 8.2)."""
    wild = gr.score_breakdown(ruleset, layout).wild
    limit = ruleset.mulligan.max_face_up
    if len(wild) > limit or any(layout[slot] != MULLIGAN for slot in wild):
        raise PropertyViolation(
            MULLIGAN_LIMIT, f"layout {layout}: wild slots {wild} (limit {limit} mulligans)"
        )


def check_bounce_rules(ruleset: Ruleset, before: State, move: Move, after: State) -> None:
    """An accepted bounce obeys §5: chain started face down, a positive match, a fresh slot."""
    if not isinstance(move, Bounce):
        return
    seat, held = before.turn, before.held
    layout, up = before.cards[seat], before.face_up[seat]
    problems = []
    if not ruleset.bounce:
        problems.append("bouncing is off (5.3)")
    if before.phase is not Phase.BOUNCE or not before.chain:
        problems.append("no chain: the play displaced a face-up card (5.1)")

    def positive(card: object) -> bool:  # RULES 10.1: a value above 0, never H or M
        return card not in (HAZARD, MULLIGAN, EMPTY) and ruleset.deck.value(card) > 0  # type: ignore[arg-type]

    def matches(card: object) -> bool:  # RULES 10.2: by face, or by value
        if ruleset.sets.match == "face":
            return card == held
        return ruleset.deck.value(card) == ruleset.deck.value(held)  # type: ignore[arg-type]

    if held is None or not positive(held):
        problems.append(f"the held {held} is not a positive card (5.4)")
    elif not any(positive(card) and matches(card) and up >> s & 1 for s, card in enumerate(layout)):
        problems.append(f"no face-up {held} to match (5.2)")
    if before.filled >> move.slot & 1:
        problems.append(f"slot {move.slot} was already filled this turn (5.3)")
    if after.cards[seat][move.slot] not in (held, EMPTY) or after.held != layout[move.slot]:
        problems.append("the held card and the slot's card did not swap (5.3)")
    if problems:
        raise PropertyViolation(BOUNCE_RULES, f"{move} accepted: {'; '.join(problems)}")


def flips_due(ruleset: Ruleset, state: State, discarder: int) -> tuple[int, ...]:
    """Who owes a flip when ``discarder`` discards a hazard in ``state`` (RULES 6.1-6.2)."""
    players = state.players
    after_discarder = [(discarder + step) % players for step in range(1, players)]
    flips = ruleset.hazard.flips
    owing = [] if flips == "none" else after_discarder[:1] if flips == "next" else after_discarder
    least = 2 if ruleset.hazard.spare_last_card else 1
    return tuple(seat for seat in owing if state.face_down_count(seat) >= least)


def own_flip_due(ruleset: Ruleset, before: State, move: Move) -> tuple[int, ...]:
    """The flip RULES 10.7 owes: a card drawn from the draw pile discarded unplayed, by a
    player with a face-down card."""
    if (
        ruleset.turn.flip_after_deck_discard == "must"
        and isinstance(move, Discard)
        and before.phase is Phase.PLACE
        and not before.taken_from_discard
        and before.face_down_count(before.turn) >= 1
    ):
        return (before.turn,)
    return ()


def own_flip_owed(ruleset: Ruleset, state: State) -> bool:
    """Whether the flip the player in turn owes is 10.7's (theirs, first in line)."""
    return (
        ruleset.turn.flip_after_deck_discard == "must"
        and bool(state.flips_owed)
        and state.flips_owed[0] == state.turn
    )


def check_hazard_transition(ruleset: Ruleset, before: State, move: Move, after: State) -> None:
    """A discarded hazard leaves the game (6.1); flips are owed after it (the discarder's
    own first under 10.7) or after a drawn card discarded unplayed (10.7), and only then."""
    least = 2 if ruleset.hazard.spare_last_card else 1
    own = own_flip_due(ruleset, before, move)
    if isinstance(move, Discard) and before.held == HAZARD:
        gained = after.removed.count(HAZARD) - before.removed.count(HAZARD)
        if gained != 1 or after.held is not None:
            raise PropertyViolation(HAZARDS_LEAVE, f"{move}: the hazard did not leave the game")
        due = own + flips_due(ruleset, before, before.turn)
        if after.flips_owed != due or (due and after.phase is not Phase.FLIP):
            raise PropertyViolation(
                FLIPS_OWED,
                f"{move}: flips owed {after.flips_owed} in phase {after.phase.name}, the rules "
                f"say {due} (face down: "
                f"{[before.face_down_count(s) for s in range(before.players)]})",
            )
        return
    if own and after.phase is Phase.POWER:
        return  # rule 11.4: a power comes first, and 10.7's flip is owed after it
    if before.phase is Phase.POWER and after.phase is not Phase.POWER:
        # the power used or passed: 10.7's flip now, if the player has a face-down card
        must = ruleset.turn.flip_after_deck_discard == "must"
        due = (before.turn,) if must and after.face_down_count(before.turn) else ()
        if after.round == before.round and after.flips_owed != due:
            raise PropertyViolation(
                FLIPS_OWED, f"{move}: after a power, flips owed {after.flips_owed}, not {due}"
            )
        return
    if isinstance(move, Flip):
        needed = 1 if move.player == before.turn and own_flip_owed(ruleset, before) else least
        if (
            before.face_down_count(move.player) < needed
            or after.flips_owed != before.flips_owed[1:]
        ):
            raise PropertyViolation(FLIPS_OWED, f"{move}: flips owed {before.flips_owed} before")
        return
    if own:
        if after.flips_owed != own or after.phase is not Phase.FLIP:
            raise PropertyViolation(FLIPS_OWED, f"{move}: rule 10.7 owes {own}, got {after}")
        return
    if after.flips_owed:
        raise PropertyViolation(FLIPS_OWED, f"{move}: flips owed {after.flips_owed} with no hazard")


def going_out_adjustment(ruleset: Ruleset, base: Sequence[int], went_out: int | None) -> int:
    """What RULES 8.6 (and 10.9's doubling) adds to the round score of the player who went
    out."""
    if went_out is None:
        return 0
    mine = base[went_out]
    others = [score for seat, score in enumerate(base) if seat != went_out]
    rules = ruleset.going_out
    if not others:
        return rules.bonus
    lowest = mine <= min(others) if rules.ties_count_as_lowest else mine < min(others)
    doubled = mine if rules.double_if_not_lowest and mine > 0 and not lowest else 0
    return doubled + (rules.bonus if lowest else rules.penalty)


def check_round_end(ruleset: Ruleset, before: State, after: State) -> None:
    """At a round's end every card is face up and scored (8.1-8.6); at the end, 9.1 winners."""
    if len(after.scores) == len(before.scores):
        return
    full = (1 << ruleset.slots) - 1
    if any(mask != full for mask in after.face_up):
        raise PropertyViolation(ROUND_END, "a round ended with cards still face down")
    base = [gr.score_layout(ruleset, layout) for layout in after.cards]
    expected = list(base)
    if after.went_out is not None:
        expected[after.went_out] += going_out_adjustment(ruleset, base, after.went_out)
    if list(after.scores[-1]) != expected:
        raise PropertyViolation(
            ROUND_END,
            f"round {before.round} scored {after.scores[-1]}, layouts say {base} "
            f"(went out: {after.went_out}) so {expected}",
        )
    totals = [sum(r[seat] for r in after.scores) for seat in range(after.players)]
    end = ruleset.game.end_score
    over = len(after.scores) >= ruleset.rounds or (end is not None and max(totals) >= end)
    if after.is_over != over:  # RULES 2.2, 10.8
        raise PropertyViolation(
            ROUND_END, f"after round {before.round} totals {totals}: over is {after.is_over}"
        )
    if after.is_over:
        best = min(zip(totals, after.scores[-1], strict=True))
        winners = tuple(
            seat for seat in range(after.players) if (totals[seat], after.scores[-1][seat]) == best
        )
        if after.winners != winners:
            raise PropertyViolation(ROUND_END, f"winners {after.winners}, RULES 9.1 says {winners}")


def check_refusal(refusal: IllegalMove, move: Move) -> None:
    """A refusal has a known code, a rule number or None, and a one-line message."""
    if refusal.code not in ENGINE_CODES:
        raise PropertyViolation(
            LEGAL_IFF_APPLY, f"{move!r} refused with unknown code {refusal.code}"
        )
    if refusal.rule is not None and not _RULE_NUMBER.fullmatch(refusal.rule):
        raise PropertyViolation(LEGAL_IFF_APPLY, f"{move!r} refused citing rule {refusal.rule!r}")
    if not refusal.message or "\n" in refusal.message:
        raise PropertyViolation(LEGAL_IFF_APPLY, f"{move!r} refused with {refusal.message!r}")


# --- turns -------------------------------------------------------------------------------------


class TurnLedger:
    """Counts discards per turn: a turn starts at DRAW and ends when ``turn`` moves on or the
    round ends; it must hold exactly one discard (rule 4.6), or none when the seat knocked
    instead of drawing (rule 11.5)."""

    def __init__(self, state: State) -> None:
        self.seat: int | None = state.turn if state.phase is Phase.DRAW else None
        self.discards = 0
        self.knocked = False
        self.known = state.phase is Phase.DRAW or state.phase not in _TURN_PHASES

    def see(self, before: State, move: Move, after: State) -> None:
        """Account for one accepted move."""
        if isinstance(move, Discard):
            if self.seat is None and self.known:
                raise PropertyViolation(ONE_DISCARD_PER_TURN, f"{move} outside any turn")
            self.discards += 1
            if self.known and self.discards > 1:
                raise PropertyViolation(
                    ONE_DISCARD_PER_TURN, f"{move}: a second discard in seat {self.seat}'s turn"
                )
        if isinstance(move, Knock):
            self.knocked = True  # the knock is the turn's whole play
        if self.seat is not None and (after.round != before.round or after.turn != self.seat):
            if self.known and self.discards != (0 if self.knocked else 1):
                raise PropertyViolation(
                    ONE_DISCARD_PER_TURN,
                    f"seat {self.seat}'s turn ended after {self.discards} discards ({move})",
                )
            self.seat = None
        if self.seat is None and after.phase is Phase.DRAW:
            self.seat, self.discards, self.known, self.knocked = after.turn, 0, True, False


# --- the watch ---------------------------------------------------------------------------------


class Watch:
    """Plays a game through :func:`gnoming_rules.apply` and checks the properties on every step.

    ``properties`` selects which are checked (all by default): a planted-bug test checks one
    alone, so that it is that one which must catch the bug.
    """

    def __init__(
        self, ruleset: Ruleset, state: State, properties: Collection[str] = PROPERTIES
    ) -> None:
        self.ruleset = ruleset
        self.state = state
        self.properties = frozenset(properties)
        self.ledger = TurnLedger(state)
        self.refusals: Counter[str] = Counter()
        self._snapshot: tuple[State, State, int] | None = None

    def legal(self) -> tuple[gr.PlayerMove, ...]:
        """The legal moves of the current state (checked to be empty when no player moves)."""
        moves = gr.legal_moves(self.ruleset, self.state)
        if LEGAL_IFF_APPLY in self.properties:
            if (self.state.is_chance or self.state.is_over) and moves:
                raise PropertyViolation(LEGAL_IFF_APPLY, f"legal moves {moves} in a chance phase")
            if len(set(moves)) != len(moves):
                raise PropertyViolation(LEGAL_IFF_APPLY, f"legal moves repeat: {moves}")
        return moves

    def expects(self, move: Move, legal: Collection[tuple[object, ...]]) -> bool:
        """Whether the rules accept ``move`` now: listed as legal (``legal`` holds the legal
        moves' :func:`move_key`), or the chance event that is due."""
        state = self.state
        if isinstance(move, Deal):
            return state.phase is Phase.DEAL and Counter(move.cards) == deck_of(self.ruleset)
        if isinstance(move, Reshuffle):
            below = below_tops(state.discard_piles)
            return state.phase is Phase.RESHUFFLE and Counter(move.cards) == Counter(below)
        return move_key(move) in legal

    def play(self, move: Move) -> State:
        """Apply a move the caller believes legal; checks everything and moves on.

        A refusal fails "legal moves <=> apply" when that property is checked; otherwise
        the move is skipped and the state stays as it was.
        """
        after = self.attempt(move, advance=True)
        if after is None:
            if LEGAL_IFF_APPLY in self.properties:
                raise PropertyViolation(LEGAL_IFF_APPLY, f"{move!r} was refused")
            return self.state
        return after

    def attempt(
        self,
        move: Move,
        *,
        advance: bool = True,
        legal: Collection[tuple[object, ...]] | None = None,
    ) -> State | None:
        """Try any move: it must be accepted exactly when the rules allow it, leave no trace
        when refused, and leave its input untouched either way. Moves on if ``advance``."""
        before = self.state
        if legal is None:
            legal = {move_key(m) for m in self.legal()}
        expected = self.expects(move, legal)
        pure = PURITY in self.properties
        snapshot, state_hash = self._snapshot_of(before) if pure else (before, 0)
        move_before = move_key(move)
        after: State | None = None
        try:
            after = gr.apply(self.ruleset, before, move)
        except IllegalMove as refusal:
            self.refusals[refusal.code] += 1
            if LEGAL_IFF_APPLY in self.properties:
                check_refusal(refusal, move)
        except Exception as error:
            if LEGAL_IFF_APPLY not in self.properties:
                raise
            raise PropertyViolation(
                LEGAL_IFF_APPLY, f"{move!r} raised {type(error).__name__}: {error}"
            ) from error
        if pure:
            self._check_untouched(before, snapshot, state_hash, move, move_before)
        if LEGAL_IFF_APPLY in self.properties and (after is not None) != expected:
            verdict = "accepted" if after is not None else "refused"
            raise PropertyViolation(
                LEGAL_IFF_APPLY,
                f"{move!r} {verdict} in phase {before.phase.name}; "
                f"legal moves: {gr.legal_moves(self.ruleset, before)}",
            )
        if after is not None and advance:
            self._advance(before, move, after)
        return after

    def attempt_all(self) -> None:
        """Try every candidate move on the current state without moving on."""
        legal = {move_key(m) for m in self.legal()}
        for move in candidate_moves(self.ruleset, self.state):
            self.attempt(move, advance=False, legal=legal)

    def _snapshot_of(self, state: State) -> tuple[State, int]:
        if self._snapshot is None or self._snapshot[0] is not state:
            try:
                state_hash = hash(state)
            except TypeError as error:
                raise PropertyViolation(PURITY, f"the state is not hashable: {error}") from None
            self._snapshot = (state, copy.deepcopy(state), state_hash)
        return self._snapshot[1], self._snapshot[2]

    def _check_untouched(
        self,
        state: State,
        snapshot: State,
        state_hash: int,
        move: Move,
        move_before: tuple[object, ...],
    ) -> None:
        try:
            changed = state != snapshot or hash(state) != state_hash
        except TypeError as error:
            raise PropertyViolation(
                PURITY, f"after {move!r} the state is unhashable: {error}"
            ) from None
        if changed:
            raise PropertyViolation(PURITY, f"applying {move!r} changed its input state")
        if move_key(move) != move_before:
            raise PropertyViolation(PURITY, f"applying {move!r} changed the move")

    def _advance(self, before: State, move: Move, after: State) -> None:
        ruleset, checks = self.ruleset, self.properties
        if DECK_CONSERVATION in checks:
            check_deck_conservation(ruleset, after)
            check_lines_left(ruleset, before, move, after)
        if FACE_UP_STAYS_UP in checks:
            check_face_up_stays_up(self.ruleset, before, move, after)
        if MULLIGAN_LIMIT in checks:
            check_mulligan_limit_on_play(ruleset, before, move, after)
            if len(after.scores) > len(before.scores):
                for layout in after.cards:
                    check_wild_mulligans(ruleset, layout)
        if BOUNCE_RULES in checks:
            check_bounce_rules(ruleset, before, move, after)
        if HAZARDS_LEAVE in checks:
            check_hazards_off_piles(after)
        if HAZARDS_LEAVE in checks or FLIPS_OWED in checks:
            try:
                check_hazard_transition(ruleset, before, move, after)
            except PropertyViolation as failure:
                if failure.prop in checks:
                    raise
        if ONE_DISCARD_PER_TURN in checks:
            self.ledger.see(before, move, after)
        if ROUND_END in checks:
            check_round_end(ruleset, before, after)
        self.state = after
