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

The handler of each move type and the rule steps they take live in
:mod:`gnoming_rules.core.rules`, one module per part of the rule book; this module keeps
the public API and the dispatch table :data:`HANDLERS`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, get_args

from .cards import EMPTY, HAZARD, MULLIGAN, Face
from .compiled import CompiledRules, filled_piles
from .errors import ErrorCode, IllegalMove, RuleCode, UsageError
from .moves import (
    Bounce,
    ChanceEvent,
    Deal,
    Discard,
    Draw,
    Flip,
    Knock,
    Move,
    Pass,
    Peek,
    Place,
    PlayerMove,
    Reshuffle,
    Reveal,
    Swap,
)
from .rules.bouncing import _bounce, bounce_block
from .rules.checks import _BOUNCE, _DEAL, _DRAW, _FLIP, _PEEK, _PLACE, _POWER, _RESHUFFLE, _REVEAL
from .rules.hazards import _flip
from .rules.knocking import _knock, knock_draws
from .rules.lines import _all_empty, empty_mask
from .rules.mulligans import mulligan_slots
from .rules.powers import _pass, _peek, _swap, knowledge_moves
from .rules.round_end import _reshuffle
from .rules.setup import _deal, _reveal
from .rules.turn import _discard, _draw, _place
from .ruleset import Ruleset
from .state import State, View, below_tops, initial_state

ENGINE_CODES: Final[tuple[ErrorCode, ...]] = (*get_args(RuleCode), "not-the-deck", "wrong-pile")
"""Every code an :class:`~gnoming_rules.core.errors.IllegalMove` from :func:`apply` can carry:
the rule refusals, a deal that is not the deck (a
:class:`~gnoming_rules.core.errors.DealError`), and a pile that does not fit the move (a
:class:`~gnoming_rules.core.errors.PileError`). None is a record's own code: the record
layer decides those."""


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
        if rules.knock:  # rule 11.5: the knock after the draws, when allowed
            return knock_draws(rules, state, rules.draw_options[state.turn][sources], sources)
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
        if held == MULLIGAN and not rules.placed_down:  # (11.3: a face-down play adds none)
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
    if phase is _PEEK or phase is _POWER:  # rules 11.2, 11.4
        return knowledge_moves(rules, state)
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


def _discard_variant(
    rules: CompiledRules, held: Face | None, piles: tuple[tuple[Face, ...], ...]
) -> int:
    """The piles a discard may go on, as a bit mask (rule 4.4: any empty one if a pile is
    empty, else any); 0 for a hazard, which goes on none."""
    if held == HAZARD:
        return 0
    return rules.discard_variants[filled_piles(piles)]


HANDLERS: Final[dict[type, Callable[[CompiledRules, State, object], State]]] = {
    Reveal: _reveal,  # type: ignore[dict-item]
    Draw: _draw,  # type: ignore[dict-item]
    Place: _place,  # type: ignore[dict-item]
    Bounce: _bounce,  # type: ignore[dict-item]
    Discard: _discard,  # type: ignore[dict-item]
    Flip: _flip,  # type: ignore[dict-item]
    Deal: _deal,  # type: ignore[dict-item]
    Reshuffle: _reshuffle,  # type: ignore[dict-item]
    Peek: _peek,  # type: ignore[dict-item]
    Swap: _swap,  # type: ignore[dict-item]
    Pass: _pass,  # type: ignore[dict-item]
    Knock: _knock,  # type: ignore[dict-item]
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
