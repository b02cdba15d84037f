"""The referee: a pure transition function over :class:`~gnoming_rules.core.state.State`.

``apply(ruleset, state, move)`` returns the next state or raises
:class:`~gnoming_rules.core.errors.IllegalMove`; it never changes its inputs and has no
randomness of its own: deals and reshuffles arrive as chance events
(:class:`~gnoming_rules.core.moves.Deal`, :class:`~gnoming_rules.core.moves.Reshuffle`), which
:func:`sample_chance` draws from a ``random.Random`` you own. ``legal_moves`` lists
exactly the player moves ``apply`` accepts. ``legal_moves``, ``is_legal`` and ``explain``
also take a seat's :class:`~gnoming_rules.play.observation.Observation` and answer from
it alone, as they would on the full state (see
:func:`~gnoming_rules.play.observation.stand_in`).

Refusals are checked in the order the record format fixes, so the first reason given is the one
a record validator reports: round over, reshuffle due, flips, whose move, phase, then
the move's own checks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, get_args

from .cards import EMPTY, HAZARD, MULLIGAN, Face, a_card, face_text, is_face
from .compiled import CompiledRules, filled_piles, set_pile
from .errors import DealError, ErrorCode, IllegalMove, PileError, RuleCode, UsageError, quoted
from .moves import (
    Bounce,
    ChanceEvent,
    Deal,
    Discard,
    Draw,
    Flip,
    Move,
    Place,
    PlayerMove,
    Reshuffle,
    Reveal,
    piles_text,
)
from .ruleset import Ruleset
from .scoring import keyed_set, layout_score
from .state import WAITING_FOR, Phase, State, View, below_tops, initial_state

ENGINE_CODES: Final[tuple[ErrorCode, ...]] = (*get_args(RuleCode), "not-the-deck", "wrong-pile")
"""Every code an :class:`~gnoming_rules.core.errors.IllegalMove` from :func:`apply` can carry:
the rule refusals, a deal that is not the deck (a
:class:`~gnoming_rules.core.errors.DealError`), and a pile that does not fit the move (a
:class:`~gnoming_rules.core.errors.PileError`). None is a record's own code: the record
layer decides those."""

# Final: compiled, a Final name is a C static, not a lookup in the module's dict.
_DEAL: Final = Phase.DEAL
_REVEAL: Final = Phase.REVEAL
_DRAW: Final = Phase.DRAW
_PLACE: Final = Phase.PLACE
_BOUNCE: Final = Phase.BOUNCE
_FLIP: Final = Phase.FLIP
_RESHUFFLE: Final = Phase.RESHUFFLE
_OVER: Final = Phase.OVER


# --- public API ----------------------------------------------------------------------------


def new_game(ruleset: Ruleset, players: int, first_player: int = 0) -> State:
    """A game of ``players`` seats whose round 0 starts at seat ``first_player``.

    The state waits for round 0's deal: pass ``sample_chance(ruleset, state, rng)`` or a
    recorded :class:`Deal` to :func:`apply`. Raises
    :class:`~gnoming_rules.core.errors.UsageError` (``bad-setup``) when the player count is
    outside the ruleset's bounds or the seat does not exist.

    Example::

        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> state = gr.new_game(rules, players=3, first_player=1)
        >>> state.players, state.phase.name, state.is_chance
        (3, 'DEAL', True)
    """
    rules = ruleset.compiled
    if type(players) is not int or not rules.min_players <= players <= rules.max_players:
        raise UsageError(
            "bad-setup",
            f"players: {players!r} is outside this ruleset's {rules.min_players} to "
            f"{rules.max_players}",
        )
    if type(first_player) is not int or not 0 <= first_player < players:
        raise UsageError(
            "bad-setup", f"first_player: {first_player!r} is not a seat (0 to {players - 1})"
        )
    return initial_state(players, first_player, rules.piles)


def apply(ruleset: Ruleset, state: State, move: Move) -> State:
    """The state after ``move``; raises :class:`IllegalMove` if the rules refuse it.

    Pure: ``state`` and ``move`` are left as they were, whatever happens. ``state`` must
    come from this ruleset (:func:`new_game` and ``apply`` with it): a state with other
    seat bounds or another layout size raises
    :class:`~gnoming_rules.core.errors.UsageError` (``state-mismatch``).

    Example::

        >>> import random
        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> start = gr.new_game(rules, players=3, first_player=1)
        >>> state = gr.apply(rules, start, gr.sample_chance(rules, start, random.Random(7)))
        >>> state.waiting
        'seat 1 must reveal a face-down card (setup)'
        >>> after = gr.apply(rules, state, gr.Reveal(1, 4))
        >>> after.visible_layout(1)
        (None, None, None, None, 5, None, None, None, None)
        >>> state.visible_layout(1)  # unchanged
        (None, None, None, None, None, None, None, None, None)
        >>> try:
        ...     gr.apply(rules, state, gr.Draw(1))
        ... except gr.IllegalMove as refusal:
        ...     print(refusal.code, "under rule", refusal.rule)
        wrong-phase under rule 3.5
    """
    try:
        handler = HANDLERS[type(move)]
    except KeyError:
        raise TypeError(f"not a move: {move!r}") from None
    last, rules = _LAST_VIEW[0]  # _view(ruleset), its common case written out
    if rules is None or last is not ruleset:
        rules = _view(ruleset)
    known = rules.known
    if (
        state is not known[0]
        and (
            len(state.face_up),
            len(state.cards[0]),
            len(state.discard_piles),
        )
        not in rules.state_shapes
    ):
        _refuse_foreign_state(rules, state)
    after = handler(rules, state, move)
    known[0] = after  # made by this ruleset from one of its states
    return after


def legal_moves(ruleset: Ruleset, state: State | View) -> tuple[PlayerMove, ...]:
    """Every player move :func:`apply` accepts in ``state`` (empty while a chance event is due).

    The moves are shared immutable values, in a fixed order: reveals, flips, places and
    bounces by slot ascending, then discards (pile 0, 1, ..., or none for a hazard); draws
    from the draw pile, then discard pile 0, 1, ... Given an observation, the same moves
    as on the full state; ``hidden-card`` (a :class:`UsageError`) when they depend on a
    card that observation hides (another seat's drawn card).

    Example::

        >>> import random
        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> start = gr.new_game(rules, players=3, first_player=1)
        >>> gr.legal_moves(rules, start)  # a deal is due: no player moves
        ()
        >>> state = gr.apply(rules, start, gr.sample_chance(rules, start, random.Random(7)))
        >>> moves = gr.legal_moves(rules, state)
        >>> len(moves), moves[0], moves[-1]
        (9, Reveal(player=1, slot=0), Reveal(player=1, slot=8))
    """
    last, rules = _LAST_VIEW[0]  # _view(ruleset), its common case written out
    if rules is None or last is not ruleset:
        rules = _view(ruleset)
    known = rules.known
    if state is not known[0]:  # (the last state apply made is a State of these rules)
        if not isinstance(state, State):  # a seat's observation: decide on its stand-in
            state = state.decision_state()
        if (len(state.face_up), len(state.cards[0]), len(state.discard_piles)) not in (
            rules.state_shapes
        ):
            _refuse_foreign_state(rules, state)
        known[0] = state
    if TYPE_CHECKING:  # known[0] is always a State
        assert isinstance(state, State)
    phase = state.phase
    if phase is _DRAW:
        sources = filled_piles(state.discard_piles)
        if state.draw_pile:
            sources |= 1 << rules.piles
        return rules.draw_options[state.turn][sources]
    if phase is _PLACE:
        seat = state.turn
        held = state.held
        must_play = state.taken_from_discard and rules.taken_must_be_played
        if must_play and rules.remove_lines and _all_empty(state.cards[seat]):
            must_play = False  # rule 10.6: no slot can take the card, so 4.5 cannot apply
        if must_play:
            variant = 1 << rules.piles  # the places alone
        elif held == HAZARD:
            variant = 0  # the places and the hazard's discard
        else:  # _discard_variant, written out: asked at every play
            variant = rules.discard_variants[filled_piles(state.discard_piles)]
        if held == MULLIGAN:
            limited = mulligan_slots(rules, state, seat)
            if limited is not None:
                places = tuple(rules.place_moves[seat][slot] for slot in limited)
                return places if must_play else places + rules.discard_options[seat][variant]
        if rules.remove_lines and EMPTY in state.cards[seat]:  # rule 10.6: not into a gap
            layout = state.cards[seat]
            options = rules.place_options[seat][variant]
            return tuple(m for m in options if type(m) is not Place or layout[m.slot] != EMPTY)
        return rules.place_options[seat][variant]
    if phase is _BOUNCE:
        seat = state.turn
        variant = _discard_variant(rules, state.held, state.discard_piles)
        discards = rules.discard_options[seat][variant]
        if bounce_block(rules, state) is not None:
            return discards
        filled = state.filled
        if rules.remove_lines:  # rule 10.6: an empty slot takes no bounce
            filled |= empty_mask(state.cards[seat])
        bounce_key = (_BOUNCE, seat, filled, variant)
        found = rules.memo.get(bounce_key)
        if found is None:
            bounces = tuple(m for m in rules.bounce_moves[seat] if not filled >> m.slot & 1)
            found = rules.memo.remember(bounce_key, bounces + discards)
        return found
    if phase is _REVEAL or phase is _FLIP:
        seat = state.turn if phase is _REVEAL else state.flips_owed[0]
        up = state.face_up[seat]
        slot_key = (phase, seat, up)
        found = rules.memo.get(slot_key)
        if found is None:
            table = rules.reveal_moves if phase is _REVEAL else rules.flip_moves
            found = rules.memo.remember(
                slot_key, tuple(m for m in table[seat] if not up >> m.slot & 1)
            )
        return found
    return ()


def explain(ruleset: Ruleset, state: State | View, move: Move) -> IllegalMove | None:
    """The :class:`IllegalMove` that :func:`apply` would raise for ``move``, or ``None``.

    Given an observation, the answer :func:`apply` gives on the full state (or
    ``hidden-card``, as for :func:`legal_moves`).

    Example::

        >>> import random
        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> start = gr.new_game(rules, players=3, first_player=1)
        >>> state = gr.apply(rules, start, gr.sample_chance(rules, start, random.Random(7)))
        >>> refusal = gr.explain(rules, state, gr.Draw(1))
        >>> refusal.code, refusal.rule
        ('wrong-phase', '3.5')
        >>> refusal.message
        'draw refused: seat 1 must reveal a face-down card (setup) first'
        >>> print(gr.explain(rules, state, gr.Reveal(1, 4)))
        None
    """
    if not isinstance(state, State):  # a seat's observation: decide on its stand-in
        state = state.decision_state()
    try:
        apply(ruleset, state, move)
    except IllegalMove as refusal:
        return refusal
    return None


def is_legal(ruleset: Ruleset, state: State | View, move: Move) -> bool:
    """True when :func:`apply` accepts ``move`` in ``state`` (or in the full state that an
    observation shows, as for :func:`explain`).

    Example::

        >>> import random
        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> start = gr.new_game(rules, players=3, first_player=1)
        >>> state = gr.apply(rules, start, gr.sample_chance(rules, start, random.Random(7)))
        >>> gr.is_legal(rules, state, gr.Reveal(1, 4)), gr.is_legal(rules, state, gr.Draw(1))
        (True, False)
    """
    return explain(ruleset, state, move) is None


def sample_chance(ruleset: Ruleset, state: State, rng: random.Random) -> ChanceEvent:
    """Draw the chance event due in ``state`` from ``rng``: a shuffled deal or reshuffle.

    All randomness of a game passes through here, from a generator you own: seed it for a
    repeatable game. Raises ``ValueError`` when no chance event is due.

    Example::

        >>> import random
        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> start = gr.new_game(rules, players=3)
        >>> deal = gr.sample_chance(rules, start, random.Random(7))
        >>> type(deal).__name__, len(deal.cards)
        ('Deal', 110)
        >>> deal == gr.sample_chance(rules, start, random.Random(7))  # the same seed, the same deal
        True
        >>> state = gr.apply(rules, start, deal)
        >>> gr.sample_chance(rules, state, random.Random(7))
        Traceback (most recent call last):
          ...
        ValueError: no chance event is due in phase REVEAL
    """
    if state.phase is _DEAL:
        cards = list(ruleset.compiled.deck)
        shuffle(cards, rng)
        return Deal(tuple(cards))
    if state.phase is _RESHUFFLE:
        below = below_tops(state.discard_piles)
        shuffle(below, rng)
        return Reshuffle(tuple(below))
    raise ValueError(f"no chance event is due in phase {state.phase.name}")


def shuffle(cards: list[Face], rng: random.Random) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does, faster.

    For a plain ``random.Random`` the per-card method calls of ``Random.shuffle`` (and of
    the ``_randbelow`` it calls) are written out here: the same draws of ``getrandbits``
    in the same order, so the same permutation, about four times faster on a 110-card
    deck. Any other generator (a subclass, ``SystemRandom``) shuffles its own way.
    """
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for top in range(len(cards) - 1, 0, -1):
        below = top + 1  # Random._randbelow(top + 1): retry until under the bound
        bits = below.bit_length()
        other = getrandbits(bits)
        while other >= below:
            other = getrandbits(bits)
        cards[top], cards[other] = cards[other], cards[top]


def round_first_player(ruleset: Ruleset, state: State) -> int:
    """The seat that starts the current round (rule 2.2)."""
    return ruleset.compiled.first_player_of_round(state.first_player, state.round, state.players)


# --- legal-move helpers ----------------------------------------------------------------------


_LAST_VIEW: Final[list[tuple[object, CompiledRules | None]]] = [(None, None)]
"""The last ruleset :func:`apply` or :func:`legal_moves` was given, and its compiled view:
reading ``ruleset.compiled`` goes through pydantic's attribute hook, about 70 ns, paid
twice a step of a playout. One tuple, replaced whole, so a thread never reads a ruleset
beside another ruleset's view."""


def _view(ruleset: Ruleset) -> CompiledRules:
    """``ruleset.compiled``, remembered as the last view asked for (:data:`_LAST_VIEW`)."""
    rules = ruleset.compiled
    _LAST_VIEW[0] = (ruleset, rules)
    return rules


def _refuse_foreign_state(rules: CompiledRules, state: State) -> None:
    """Refuse a state that another ruleset made (other seat bounds, layout size or number of
    discard piles): its slots, seats and piles would index this ruleset's tables wrongly.
    Raises ``state-mismatch``."""
    players, size, piles = len(state.face_up), len(state.cards[0]), len(state.discard_piles)
    if size and size != rules.slots:
        problem = f"its layouts have {size} cards, this ruleset's have {rules.slots}"
    elif piles != rules.piles:
        problem = f"it has {piles} discard piles, this ruleset has {rules.piles}"
    else:
        problem = (
            f"it has {players} seats, this ruleset seats {rules.min_players} to {rules.max_players}"
        )
    raise UsageError("state-mismatch", f"the state does not belong to this ruleset: {problem}")


def mulligan_slots(rules: CompiledRules, state: State, seat: int) -> list[int] | None:
    """Where a held mulligan may go when the limit is reached (rule 7.2), else ``None``.

    At the limit, a mulligan may only replace one of the layout's face-up mulligans.
    One of the engine's rule steps (not in ``__all__``).
    """
    layout, up = state.cards[seat], state.face_up[seat]
    up_mulligans = [s for s, card in enumerate(layout) if card == MULLIGAN and up >> s & 1]
    return up_mulligans if len(up_mulligans) >= rules.max_mulligans else None


def _discard_variant(
    rules: CompiledRules, held: Face | None, piles: tuple[tuple[Face, ...], ...]
) -> int:
    """The piles a discard may go on, as a bit mask (rule 4.4: any empty one if a pile is
    empty, else any); 0 for a hazard, which goes on none."""
    if held == HAZARD:
        return 0
    return rules.discard_variants[filled_piles(piles)]


def bounce_block(rules: CompiledRules, state: State) -> str | None:
    """The rule that stops the held card bouncing now (rule 5.1-5.4), or ``None`` if it may.

    One of the engine's rule steps (not in ``__all__``).
    """
    if not rules.bounce:
        return "5.3"
    if not state.chain:
        return "5.1"
    held = state.held
    seat = state.turn
    layout, up = state.cards[seat], state.face_up[seat]
    if not rules.plain_sets:  # face values or matching by value (10.1, 10.2)
        keys = rules.bounce_keys
        key = keys.get(held) if held is not None else None
        if key is None:
            return "5.4"
        for slot, card in enumerate(layout):
            if up >> slot & 1 and keys.get(card) == key:
                return None
        return "5.2"
    if type(held) is not int or held <= 0:  # (0 is a face, and not positive: rule 10.1)
        return "5.4"
    if held in layout:  # checked in C first: most held cards match no card of the layout
        for slot, card in enumerate(layout):
            if card == held and up >> slot & 1:
                return None
    return "5.2"


def _bounce_refusal(state: State, rule: str) -> IllegalMove:
    """The ``cannot-bounce`` refusal for the rule :func:`bounce_block` named."""
    held = face_text(state.held)
    reasons = {
        "5.3": "bouncing is off in this ruleset",
        "5.1": "a bounce chain starts only when the play displaced a face-down card; "
        "this play displaced a face-up one",
        "5.4": f"the held {held} cannot bounce: only positive cards do",
        "5.2": f"the held {held} matches no face-up {held} in seat {state.turn}'s layout",
    }
    return IllegalMove("cannot-bounce", rule, reasons[rule])


# --- checks shared by the handlers ------------------------------------------------------------


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
            rule if phase in (_REVEAL, _FLIP) else "2.1",
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


def empty_mask(layout: Sequence[Face]) -> int:
    """The slots of ``layout`` that are empty (rule 10.6), as a bit mask.

    One of the engine's rule steps (not in ``__all__``).
    """
    mask = 0
    for slot, card in enumerate(layout):
        if card == EMPTY:
            mask |= 1 << slot
    return mask


def _all_empty(layout: Sequence[Face]) -> bool:
    """Every slot of ``layout`` is empty (rule 10.6): no slot can take a card."""
    return all(card == EMPTY for card in layout)


def _empty_slot(seat: int, slot: int, rule: str) -> IllegalMove:
    return IllegalMove("bad-slot", rule, f"seat {seat}'s slot {slot} is empty (10.6)")


def remove_lines(
    rules: CompiledRules,
    cards: tuple[tuple[Face, ...], ...],
    face_up: tuple[int, ...],
    piles: tuple[tuple[Face, ...], ...],
    seat: int,
) -> tuple[tuple[tuple[Face, ...], ...], tuple[tuple[Face, ...], ...]]:
    """The layouts and discard piles once ``seat``'s complete lines have left (rules 10.6,
    10.13): every line all face up and a set with no mulligan wild is found first; then,
    by lowest slot (row, column, diagonal), each one's cards not yet gone go face up on
    discard pile 0 in slot order and their slots become empty. ``cards`` and ``piles``
    themselves when no line is complete.

    One of the engine's rule steps (not in ``__all__``).
    """
    layout = cards[seat]
    up = face_up[seat]
    complete = [
        line
        for line in rules.removal_order
        if up & line.mask == line.mask and keyed_set(rules, line, layout, 0) is not None
    ]
    if not complete:
        return cards, piles
    left = list(layout)
    pile = list(piles[0])
    for line in complete:
        for slot in line.slots:
            if left[slot] != EMPTY:  # a card in two complete lines leaves with the first
                pile.append(left[slot])
                left[slot] = EMPTY
    seats = list(cards)
    seats[seat] = tuple(left)
    return tuple(seats), set_pile(piles, 0, tuple(pile))


def _replace_item(items: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    changed = list(items)  # a list copy and one set: about twice as fast as tuple slices
    changed[index] = value
    return tuple(changed)


# --- handlers ----------------------------------------------------------------------------------
#
# The handlers and rule steps build the next State with its 16 fields passed by position
# (``State._fields`` gives their order): compiled, a direct call of the native class's
# constructor, where ``State.replace`` takes keywords and runs through a dict.


def _reveal(rules: CompiledRules, state: State, move: Reveal) -> State:
    # The handlers read a move's fields through ``loose`` until they are checked: compiled
    # by mypyc, reading ``move.player`` as the ``int`` it is declared would raise a
    # TypeError on a float or a string before the engine's own refusal could name it.
    # Each field is read once, and compared as an int once its type is checked.
    loose: Any = move
    player: object = loose.player
    if not (state.phase is _REVEAL and type(player) is int and player == state.turn):
        _check_actor(state, move, _REVEAL)
    seat = state.turn  # the player, checked above
    slot = check_slot(rules, loose.slot, "3.5")
    cards, face_up, piles = state.cards, state.face_up, state.discard_piles
    up = face_up[seat]
    if up >> slot & 1:
        _check_face_down(state, seat, slot, "3.5")
    up |= 1 << slot
    face_up = _replace_item(face_up, seat, up)
    if rules.remove_lines:
        cards, piles = remove_lines(rules, cards, face_up, piles, seat)
    turn = seat
    if up.bit_count() >= rules.face_up_at_start:  # this seat is done: the next one reveals
        players = len(face_up)
        turn = (seat + 1) % players
        first, rnd = state.first_player, state.round
        starter = rules.first_player_of_round(first, rnd, players)
        if turn == starter:
            revealed = State(
                first, rnd, state.phase, seat, cards, face_up,
                state.draw_pile, piles, state.removed, state.held, state.taken_from_discard,
                state.filled, state.chain, state.flips_owed, state.went_out, state.scores,
                state.known, state.peeks, state.power, state.looked, state.turns,
            )  # fmt: skip
            return _begin_turn(rules, revealed, starter)
    return State(
        state.first_player, state.round, state.phase, turn, cards, face_up, state.draw_pile,
        piles, state.removed, state.held, state.taken_from_discard, state.filled, state.chain,
        state.flips_owed, state.went_out, state.scores,
        state.known, state.peeks, state.power, state.looked, state.turns,
    )  # fmt: skip


def _draw(rules: CompiledRules, state: State, move: Draw) -> State:
    loose: Any = move  # see _reveal
    player: object = loose.player
    if not (state.phase is _DRAW and type(player) is int and player == state.turn):
        _check_actor(state, move, _DRAW)
    deck, piles = state.draw_pile, state.discard_piles
    pile: object = loose.pile
    if pile is None:
        if not deck:
            raise IllegalMove(
                "empty-pile", "4.1", "the draw pile is empty: take the top of a discard pile"
            )
        rest = deck[1:]
        phase = _PLACE
        if not rest and rules.reshuffle and any(len(below) > 1 for below in piles):
            phase = _RESHUFFLE
        return State(
            state.first_player, state.round, phase, state.turn, state.cards, state.face_up,
            rest, piles, state.removed, deck[0], False, 0, False, state.flips_owed,
            state.went_out, state.scores,
            state.known, state.peeks, state.power, state.looked, state.turns,
        )  # fmt: skip
    if type(pile) is not int or not 0 <= pile < rules.piles:
        raise PileError(
            "wrong-pile", "4.1", f"pile {quoted(pile)} does not exist ({piles_text(rules.piles)})"
        )
    source = piles[pile]
    if not source:
        raise IllegalMove("empty-pile", "4.1", f"discard pile {pile} is empty")
    piles = set_pile(piles, pile, source[:-1])
    return State(
        state.first_player, state.round, _PLACE, state.turn, state.cards, state.face_up, deck,
        piles, state.removed, source[-1], True, 0, False, state.flips_owed, state.went_out,
        state.scores,
        state.known, state.peeks, state.power, state.looked, state.turns,
    )  # fmt: skip


def _place(rules: CompiledRules, state: State, move: Place) -> State:
    loose: Any = move  # see _reveal
    player: object = loose.player
    if not (state.phase is _PLACE and type(player) is int and player == state.turn):
        _check_actor(state, move, _PLACE)
    seat = state.turn  # the player, checked above
    slot: object = loose.slot
    if type(slot) is not int or not 0 <= slot < rules.slots:
        slot = check_slot(rules, slot, "4.2")
    cards, face_up, piles, held = state.cards, state.face_up, state.discard_piles, state.held
    assert held is not None
    layout, up = cards[seat], face_up[seat]
    bit = 1 << slot
    remove = rules.remove_lines  # (read once: rule 10.6 off costs one read a move)
    if remove and layout[slot] == EMPTY:
        raise _empty_slot(seat, slot, "4.2")
    if held == MULLIGAN and not (up & bit and layout[slot] == MULLIGAN):
        count = sum(1 for s, card in enumerate(layout) if card == MULLIGAN and up >> s & 1)
        if count + 1 > rules.max_mulligans:
            raise IllegalMove(
                "mulligan-limit",
                "7.2",
                f"a mulligan in slot {slot} would make {count + 1} face-up mulligans in "
                f"seat {seat}'s layout; the limit is {rules.max_mulligans}",
            )
    cards, face_up = _played(cards, face_up, seat, slot, held)
    if remove:
        cards, piles = remove_lines(rules, cards, face_up, piles, seat)
    return State(
        state.first_player, state.round, _BOUNCE, seat, cards, face_up, state.draw_pile, piles,
        state.removed, layout[slot], False, bit, not (up & bit), state.flips_owed,
        state.went_out, state.scores,
        state.known, state.peeks, state.power, state.looked, state.turns,
    )  # fmt: skip


def _bounce(rules: CompiledRules, state: State, move: Bounce) -> State:
    loose: Any = move  # see _reveal
    player: object = loose.player
    if not (state.phase is _BOUNCE and type(player) is int and player == state.turn):
        _check_actor(state, move, _BOUNCE)
    blocked_by = bounce_block(rules, state)
    if blocked_by is not None:
        raise _bounce_refusal(state, blocked_by)
    seat = state.turn  # the player, checked above
    slot = check_slot(rules, loose.slot, "5.3")
    cards, face_up, piles, held, filled = (
        state.cards, state.face_up, state.discard_piles, state.held, state.filled
    )  # fmt: skip
    bit = 1 << slot
    remove = rules.remove_lines
    if remove and cards[seat][slot] == EMPTY:
        raise _empty_slot(seat, slot, "5.3")
    if filled & bit:
        raise IllegalMove(
            "slot-already-filled",
            "5.3",
            f"slot {slot} was already filled this turn; bounce into a slot not yet filled",
        )
    assert held is not None
    layout = cards[seat]
    displaced = layout[slot]
    cards, face_up = _played(cards, face_up, seat, slot, held)
    if remove:
        cards, piles = remove_lines(rules, cards, face_up, piles, seat)
    return State(
        state.first_player, state.round, state.phase, seat, cards, face_up, state.draw_pile,
        piles, state.removed, displaced, False, filled | bit, True, state.flips_owed,
        state.went_out, state.scores,
        state.known, state.peeks, state.power, state.looked, state.turns,
    )  # fmt: skip


def _discard(rules: CompiledRules, state: State, move: Discard) -> State:
    phase = state.phase
    loose: Any = move  # see _reveal
    player: object = loose.player
    if not ((phase is _BOUNCE or phase is _PLACE) and type(player) is int and player == state.turn):
        _check_actor(state, move, _PLACE, _BOUNCE)
    if (
        phase is _PLACE
        and state.taken_from_discard
        and rules.taken_must_be_played
        and not (rules.remove_lines and _all_empty(state.cards[state.turn]))  # (10.6)
    ):
        raise IllegalMove(
            "must-play-taken-card",
            "4.5",
            f"the {face_text(state.held)} taken from a discard pile must be played into a slot",
        )
    held = state.held
    pile: object = loose.pile
    piles = state.discard_piles
    if held == HAZARD:
        if pile is not None:
            raise PileError(
                "wrong-pile", "6.1", "a hazard leaves the game: its discard names no pile"
            )
        removed = (*state.removed, HAZARD)
        owed = owed_flips(rules, state, state.turn)
        if rules.flip_after_deck_discard and phase is _PLACE and not state.taken_from_discard:
            owed = _own_flip(state) + owed  # rule 10.7 and 10.13: the owner flips first
        if owed:
            return State(
                state.first_player, state.round, _FLIP, state.turn, state.cards, state.face_up,
                state.draw_pile, piles, removed, None, state.taken_from_discard, 0, False, owed,
                state.went_out, state.scores,
                state.known, state.peeks, state.power, state.looked, state.turns,
            )  # fmt: skip
        return finish_turn(rules, state, state.face_up, piles, removed)
    if type(pile) is not int or not 0 <= pile < rules.piles:
        if pile is None:
            raise PileError("wrong-pile", "4.4", f"the discard of {a_card(held)} must name a pile")
        raise PileError(
            "wrong-pile", "4.4", f"pile {quoted(pile)} does not exist ({piles_text(rules.piles)})"
        )
    top = piles[pile]
    if top and () in piles:  # some pile is empty (``all``, a builtin, is looked up per call)
        empty = [index for index, other in enumerate(piles) if not other]
        which = (
            f"discard pile {empty[0]} is empty: the discard must start it again"
            if len(empty) == 1
            else f"discard piles {_listed(empty)} are empty: the discard must start one again"
        )
        raise IllegalMove("must-use-empty-pile", "4.4", which)
    assert held is not None
    piles = set_pile(piles, pile, top + (held,))  # noqa: RUF005 (concatenation: faster)
    if rules.flip_after_deck_discard and phase is _PLACE and not state.taken_from_discard:
        own = _own_flip(state)  # rule 10.7: a drawn card discarded unplayed owes a flip
        if own:
            return State(
                state.first_player, state.round, _FLIP, state.turn, state.cards, state.face_up,
                state.draw_pile, piles, state.removed, None, state.taken_from_discard, 0, False,
                own, state.went_out, state.scores,
                state.known, state.peeks, state.power, state.looked, state.turns,
            )  # fmt: skip
    return finish_turn(rules, state, state.face_up, piles, state.removed)


def _own_flip(state: State) -> tuple[int, ...]:
    """The flip that rule 10.7 owes the player in turn: theirs, if a card of theirs is face
    down (6.2 does not spare a last card here)."""
    return (state.turn,) if state.face_down_count(state.turn) else ()


def _flip(rules: CompiledRules, state: State, move: Flip) -> State:
    owed = state.flips_owed if state.phase is _FLIP else ()
    loose: Any = move  # see _reveal
    if not owed or owed[0] != loose.player or type(loose.player) is not int:
        _check_in_play(state)
        if type(loose.player) is not int or loose.player not in owed:
            raise IllegalMove("no-flip-owed", "6.1", f"seat {quoted(loose.player)} owes no flip")
        raise IllegalMove(
            "not-your-turn", "6.1", f"seat {owed[0]} flips before seat {quoted(loose.player)}"
        )
    seat = move.player
    slot = check_slot(rules, loose.slot, "6.1")
    _check_face_down(state, seat, slot, "6.1")
    face_up = _replace_item(state.face_up, seat, state.face_up[seat] | 1 << slot)
    if rules.remove_lines:
        cards, piles = remove_lines(rules, state.cards, face_up, state.discard_piles, seat)
    else:
        cards, piles = state.cards, state.discard_piles
    if len(owed) > 1:
        return State(
            state.first_player, state.round, state.phase, state.turn, cards, face_up,
            state.draw_pile, piles, state.removed, state.held, state.taken_from_discard,
            state.filled, state.chain, owed[1:], state.went_out, state.scores,
            state.known, state.peeks, state.power, state.looked, state.turns,
        )  # fmt: skip
    if cards is not state.cards:
        state = State(
            state.first_player, state.round, state.phase, state.turn, cards, state.face_up,
            state.draw_pile, piles, state.removed, state.held, state.taken_from_discard,
            state.filled, state.chain, state.flips_owed, state.went_out, state.scores,
            state.known, state.peeks, state.power, state.looked, state.turns,
        )  # fmt: skip
    return finish_turn(rules, state, face_up, piles, state.removed)


def _deal(rules: CompiledRules, state: State, move: Deal) -> State:
    if state.phase is _OVER:
        raise IllegalMove(
            "moves-after-end", "2.2", f"the game is over: all {state.round} rounds were played"
        )
    if state.phase is not _DEAL:
        raise IllegalMove("wrong-phase", "3.1", "no deal is due: the round is under way")
    loose: Any = move  # see _reveal: the cards may be any object until checked
    cards: Sequence[Face] = loose.cards
    _check_same_cards(
        cards,
        rules.deck_counts,
        code="not-the-deck",
        rule="3.1",
        what="the deal",
        whose="the whole deck",
    )
    players, size = state.players, rules.slots
    layouts = tuple(tuple(cards[seat * size : (seat + 1) * size]) for seat in range(players))
    position = players * size
    starts: list[tuple[Face, ...]] = []
    removed: list[Face] = []
    while len(starts) < rules.piles:
        card = cards[position]
        position += 1
        if card == HAZARD:
            removed.append(card)
        else:
            starts.append((card,))
    starter = rules.first_player_of_round(state.first_player, state.round, players)
    if rules.went_out_starts and state.round:  # rule 10.10: who went out in the round before
        out = state.went_out
        starter = out if out is not None else (state.first_player + 1) % players
    dealt = State(
        starter if rules.went_out_starts else state.first_player,  # first_player
        state.round,
        _REVEAL,
        starter,  # turn
        layouts,  # cards
        (0,) * players,  # face_up
        tuple(cards[position:]),  # draw_pile
        tuple(starts),  # discard_piles
        tuple(removed),
        None,  # held
        False,  # taken_from_discard
        0,  # filled
        False,  # chain
        (),  # flips_owed
        None,  # went_out
        state.scores,
        state.known,
        state.peeks,
        state.power,
        state.looked,
        state.turns,
    )
    if rules.face_up_at_start == 0:
        return _begin_turn(rules, dealt, starter)
    return dealt


def _reshuffle(rules: CompiledRules, state: State, move: Reshuffle) -> State:
    if state.phase is not _RESHUFFLE:
        if state.phase is _OVER or (state.phase is _DEAL and state.round > 0):
            _check_in_play(state)  # RECORD order 2.1: after the round's end, moves-after-end
        raise IllegalMove(
            "wrong-phase",
            "8.7",
            "no reshuffle is due: one comes only right after a draw that empties the draw pile",
        )
    piles = state.discard_piles
    below = Counter(below_tops(piles))
    loose: Any = move  # see _reveal: the cards may be any object until checked
    cards: Sequence[Face] = loose.cards
    _check_same_cards(
        cards,
        below,
        code="bad-reshuffle",
        rule="8.7",
        what="the reshuffle",
        whose="the discard piles' cards below their tops",
    )
    return State(
        state.first_player, state.round, _PLACE, state.turn, state.cards, state.face_up,
        tuple(cards), tuple(p[-1:] for p in piles), state.removed, state.held,
        state.taken_from_discard, state.filled, state.chain, state.flips_owed, state.went_out,
        state.scores,
        state.known, state.peeks, state.power, state.looked, state.turns,
    )  # fmt: skip


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


# --- turn and round structure --------------------------------------------------------------


def owed_flips(rules: CompiledRules, state: State, seat: int) -> tuple[int, ...]:
    """Seats that flip after ``seat`` discards a hazard, fixed at the discard (rule 6.1-6.2).

    One of the engine's rule steps (not in ``__all__``).
    """
    players = state.players
    if rules.hazard_flips == "none":
        return ()
    count = players if rules.hazard_flips == "others" else min(players, 2)
    least = 2 if rules.spare_last_card else 1
    return tuple(
        other
        for other in ((seat + step) % players for step in range(1, count))
        if state.face_down_count(other) >= least
    )


def finish_turn(
    rules: CompiledRules,
    state: State,
    face_up: tuple[int, ...],
    piles: tuple[tuple[Face, ...], ...],
    removed: tuple[Face, ...],
) -> State:
    """End ``state.turn``'s turn after its discard and any flips (rule 4.6, 8.1, 8.7).

    ``face_up``, ``piles`` and ``removed`` are those fields after the discard and flips.
    The player goes out if every card is up and nobody has yet; the round ends once the
    final lap comes back round to them, or when the next turn would have nothing to draw.
    One of the engine's rule steps (not in ``__all__``).
    """
    seat, deck = state.turn, state.draw_pile
    went_out = state.went_out
    if went_out is None and face_up[seat] == rules.full_mask:
        went_out = seat
    following = (seat + 1) % len(face_up)
    if (went_out is not None and following == went_out) or (
        not deck and _nothing_to_draw(rules, deck, piles)
    ):
        ended = State(
            state.first_player, state.round, state.phase, seat, state.cards, face_up, deck,
            piles, removed, state.held, state.taken_from_discard, state.filled, state.chain,
            state.flips_owed, state.went_out, state.scores,
            state.known, state.peeks, state.power, state.looked, state.turns,
        )  # fmt: skip
        return end_round(rules, ended, went_out)
    return State(
        state.first_player, state.round, _DRAW, following, state.cards, face_up, deck, piles,
        removed, None, False, 0, False, (), went_out, state.scores,
        state.known, state.peeks, state.power, state.looked, state.turns,
    )  # fmt: skip


def _nothing_to_draw(
    rules: CompiledRules, deck: tuple[Face, ...], piles: tuple[tuple[Face, ...], ...]
) -> bool:
    """A turn may not begin (rule 8.7): the draw pile is empty and, under ``reshuffle``,
    every discard pile is too; under ``end_round`` an empty draw pile is enough."""
    return not deck and (not rules.reshuffle or not any(piles))


def _begin_turn(rules: CompiledRules, state: State, seat: int) -> State:
    """Start the round's first turn, at ``seat``, unless there is nothing to draw."""
    if _nothing_to_draw(rules, state.draw_pile, state.discard_piles):
        return end_round(rules, state, None)
    return State(
        state.first_player, state.round, _DRAW, seat, state.cards, state.face_up,
        state.draw_pile, state.discard_piles, state.removed, state.held,
        state.taken_from_discard, state.filled, state.chain, state.flips_owed, state.went_out,
        state.scores,
        state.known, state.peeks, state.power, state.looked, state.turns,
    )  # fmt: skip


def end_round(rules: CompiledRules, state: State, went_out: int | None) -> State:
    """Turn every card up, score the round (8.2-8.6) and wait for the next deal or stop.

    One of the engine's rule steps (not in ``__all__``).
    """
    final = round_scores(rules, state.cards, went_out)
    following = state.round + 1
    scores = (*state.scores, final)
    return State(
        state.first_player, following, _OVER if game_over(rules, scores) else _DEAL, -1,
        state.cards, (rules.full_mask,) * len(state.face_up), state.draw_pile,
        state.discard_piles, state.removed, None, False, 0, False, (), went_out, scores,
        state.known, state.peeks, state.power, state.looked, state.turns,
    )  # fmt: skip


def game_over(rules: CompiledRules, scores: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the game ends once these rounds are scored: ``rounds`` rounds were played
    (2.2), or some total reached the end score (10.8).

    One of the engine's rule steps (not in ``__all__``).
    """
    if len(scores) >= rules.rounds:
        return True
    if rules.end_score is None:
        return False
    highest = max(sum(seat_scores) for seat_scores in zip(*scores, strict=True))
    return bool(highest >= rules.end_score)


def round_scores(
    rules: CompiledRules, layouts: Sequence[Sequence[Face]], went_out: int | None
) -> tuple[int, ...]:
    """Each seat's score for a round that ended with ``layouts`` (every card, RULES
    8.2-8.5), the going-out bonus or penalty of 8.6 included for seat ``went_out``."""
    base = [layout_score(rules, layout) for layout in layouts]
    final = list(base)
    if went_out is not None:
        others = [score for seat, score in enumerate(base) if seat != went_out]
        mine = base[went_out]
        lowest = not others or (
            mine <= min(others) if rules.ties_count_as_lowest else mine < min(others)
        )
        if rules.double_if_not_lowest and mine > 0 and not lowest:  # rule 10.9
            final[went_out] = 2 * mine
        final[went_out] += rules.going_out_bonus if lowest else rules.going_out_penalty
    return tuple(final)


HANDLERS: Final[dict[type, Callable[[CompiledRules, State, object], State]]] = {
    Reveal: _reveal,  # type: ignore[dict-item]
    Draw: _draw,  # type: ignore[dict-item]
    Place: _place,  # type: ignore[dict-item]
    Bounce: _bounce,  # type: ignore[dict-item]
    Discard: _discard,  # type: ignore[dict-item]
    Flip: _flip,  # type: ignore[dict-item]
    Deal: _deal,  # type: ignore[dict-item]
    Reshuffle: _reshuffle,  # type: ignore[dict-item]
}
"""What :func:`apply` runs for each move type, on the ruleset's compiled view, once it has
checked that the move is a move and the state is this ruleset's. The validator steps its
moves through this table too (its moves and states are of the record's ruleset)."""


__all__ = [
    "apply",
    "explain",
    "is_legal",
    "legal_moves",
    "new_game",
    "round_first_player",
    "sample_chance",
]
