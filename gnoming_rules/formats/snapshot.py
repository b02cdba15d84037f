"""Saving a :class:`~gnoming_rules.core.state.State` as JSON data and restoring it exactly.

A server that keeps games between requests, or a tool that stores a position, writes
``state_to_dict(state)`` with ``json.dumps`` and gets the same state back with
``state_from_dict(json.loads(text), ruleset)``: equal to the original, field for field
(the phase a :class:`~gnoming_rules.core.state.Phase` again, tuples as tuples). The form is
versioned (``"format": "gnoming-state/1"``) and holds every card, the face-down ones and
the draw pile's order included: it is the referee's view, not a player's (for that, see
:func:`~gnoming_rules.play.observation.observe`).

The fields are the state's own, in JSON terms: cards by face (rule 1.3), the phase by
its name in lower case (``"draw"``), the face-up and filled masks as lists of slots.
Restoring checks everything before building the state, so the engine never sees a
state it could not have reached by its own moves in shape: a missing or unknown field, a
value of the wrong type, a seat or slot that does not exist, or fields that contradict
each other raise :class:`~gnoming_rules.core.errors.StateError` (``bad-state``) with the
field's path. Given the ruleset, it also checks that the state fits it: the player
count, the layout size, the round count, and that the cards are exactly the deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ..core.cards import EMPTY, HIDDEN, Face, sorted_faces
from ..core.errors import StateError
from ..core.fields import FieldReader
from ..core.rules.round_end import game_over
from ..core.ruleset import MAX_PILES, MAX_PLAYERS, MAX_ROUNDS, POWER_STATES, Ruleset
from ..core.state import Phase, State

STATE_FORMAT: Final = "gnoming-state/1"
"""The value of a saved state's ``format`` field."""

MAX_SLOTS: Final = 25
"""The largest layout a ruleset allows (5x5)."""

_KNOWLEDGE: Final = ("known", "peeks", "power", "looked", "turns")
"""The state's fields of rules 11.1-11.8, optional in a saved state: one saved before them
holds none, and reads as a state of §1-10 rules (their defaults)."""
_FIELDS: Final = ("format", *(name for name in State._fields if name not in _KNOWLEDGE))
PHASES: Final = {phase.name.lower(): phase for phase in Phase}
"""A saved state's phase names and the :class:`Phase` each reads as: one of the reader's
steps (not in ``__all__``)."""
_HOLDING: Final = frozenset({Phase.PLACE, Phase.BOUNCE, Phase.RESHUFFLE})
"""The phases in which a card is held: drawn (and a reshuffle due), or displaced."""


def state_to_dict(state: State) -> dict[str, Any]:
    """``state`` as JSON data (lists, ints, strings, booleans, ``None``), format
    ``gnoming-state/1``; :func:`state_from_dict` gives the same state back.

    Example::

        >>> import random
        >>> import gnoming_rules as gr
        >>> from gnoming_rules.formats import state_from_dict, state_to_dict
        >>> rules = gr.load_ruleset("standard")
        >>> start = gr.new_game(rules, players=3, first_player=1)
        >>> state = gr.apply(rules, start, gr.sample_chance(rules, start, random.Random(7)))
        >>> state = gr.apply(rules, state, gr.Reveal(1, 4))
        >>> data = state_to_dict(state)
        >>> data["format"], data["phase"], data["face_up"]
        ('gnoming-state/1', 'reveal', [[], [4], []])
        >>> state_from_dict(data, rules) == state
        True
    """
    return {
        "format": STATE_FORMAT,
        "first_player": state.first_player,
        "round": state.round,
        "phase": state.phase.name.lower(),
        "turn": state.turn,
        "cards": [[None if card == EMPTY else card for card in layout] for layout in state.cards],
        "face_up": [
            _slots(mask, len(layout))
            for mask, layout in zip(state.face_up, state.cards, strict=True)
        ],
        "draw_pile": list(state.draw_pile),
        "discard_piles": [list(pile) for pile in state.discard_piles],
        "removed": list(state.removed),
        "held": state.held,
        "taken_from_discard": state.taken_from_discard,
        "filled": _slots(state.filled, MAX_SLOTS),
        "chain": state.chain,
        "flips_owed": list(state.flips_owed),
        "went_out": state.went_out,
        "scores": [list(scores) for scores in state.scores],
        "known": [[_slots(mask, len(state.face_up)) for mask in layout] for layout in state.known],
        "peeks": state.peeks,
        "power": state.power,
        "looked": None if state.looked is None else list(state.looked),
        "turns": state.turns,
    }


def state_from_dict(data: object, ruleset: Ruleset | None = None) -> State:
    """The state that :func:`state_to_dict` wrote as ``data``.

    Raises :class:`~gnoming_rules.core.errors.StateError` (``bad-state``) naming the field at
    fault when ``data`` is not a saved state; with ``ruleset``, also when the state does
    not fit those rules (players, layout size, rounds, the deck's cards).

    Example::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.formats import state_from_dict, state_to_dict
        >>> rules = gr.load_ruleset("standard")
        >>> data = state_to_dict(gr.new_game(rules, players=4))
        >>> state_from_dict(data, rules) == gr.new_game(rules, players=4)
        True
        >>> try:
        ...     state_from_dict({**data, "format": "gnoming-state/0"})
        ... except gr.StateError as error:
        ...     print(error.code)
        bad-state
    """
    read = FieldReader(lambda message: StateError("bad-state", message))
    fields = read.mapping(data, "", _FIELDS, _KNOWLEDGE)
    if fields["format"] != STATE_FORMAT:
        read.fail("format", f"must be {STATE_FORMAT!r}, got {fields['format']!r}")

    cards: tuple[tuple[Face, ...], ...] = _layouts(
        read, fields["cards"], "cards", lambda value, path: _slot(read, value, path)
    )
    players, size = len(cards), len(cards[0])
    face_up = tuple(
        read_mask(read, slots, f"face_up[{seat}]", size)
        for seat, slots in enumerate(read.items(fields["face_up"], "face_up", players))
    )
    state = State(
        **_course(read, fields, players, size),
        **_knowledge(read, fields, players, size),
        cards=cards,
        face_up=face_up,
        draw_pile=read.faces(fields["draw_pile"], "draw_pile"),
    )
    _check_consistent(read, state)
    if ruleset is not None:
        _check_fits(read, state, ruleset)
    return state


def _slot(read: FieldReader, value: object, path: str) -> Face:
    """A layout's slot in a saved state: a face, or ``null`` for an empty slot (rule 10.6)."""
    return EMPTY if value is None else read.face(value, path)


def _layouts(
    read: FieldReader, value: object, path: str, cell: Callable[[object, str], Any]
) -> tuple[tuple[Any, ...], ...]:
    """One layout per seat (1 to ``MAX_PLAYERS`` seats), all of one size (at most
    ``MAX_SLOTS``); ``cell(value, path)`` reads a slot (a face, or a view's ``None``)."""
    rows = read.items(value, path)
    players = len(rows)
    if not 1 <= players <= MAX_PLAYERS:
        read.fail(path, f"must hold one layout per seat (1 to {MAX_PLAYERS}), got {players}")
    layouts = tuple(
        tuple(cell(card, f"{path}[{seat}][{slot}]") for slot, card in enumerate(cards))
        for seat, cards in (
            (seat, read.items(row, f"{path}[{seat}]")) for seat, row in enumerate(rows)
        )
    )
    size = len(layouts[0])
    for seat, layout in enumerate(layouts):
        if len(layout) != size:
            read.fail(f"{path}[{seat}]", f"has {len(layout)} cards, but {path}[0] has {size}")
    if size > MAX_SLOTS:
        read.fail(f"{path}[0]", f"has {size} cards; a layout has at most {MAX_SLOTS}")
    return layouts


def _course(
    read: FieldReader, fields: Mapping[str, object], players: int, size: int
) -> dict[str, Any]:
    """The fields a saved state and a seat's view share (whose turn, the discard piles, the
    removed cards, the held card, the turn's course, the scores), read alike for both."""
    seat_high = players - 1
    return {
        "first_player": read.integer(fields["first_player"], "first_player", 0, seat_high),
        "round": read.integer(fields["round"], "round", 0, MAX_ROUNDS),
        "phase": PHASES[read.choice(fields["phase"], "phase", tuple(PHASES))],
        "turn": read.integer(fields["turn"], "turn", -1, seat_high),
        "discard_piles": tuple(
            read.faces(pile, f"discard_piles[{index}]")
            for index, pile in enumerate(_piles(read, fields["discard_piles"]))
        ),
        "removed": read.faces(fields["removed"], "removed"),
        "held": read.optional_face(fields["held"], "held"),
        "taken_from_discard": read.boolean(fields["taken_from_discard"], "taken_from_discard"),
        "filled": read_mask(read, fields["filled"], "filled", size),
        "chain": read.boolean(fields["chain"], "chain"),
        "flips_owed": tuple(
            read.integer(seat, f"flips_owed[{index}]", 0, seat_high)
            for index, seat in enumerate(read.items(fields["flips_owed"], "flips_owed"))
        ),
        "went_out": read.optional_integer(fields["went_out"], "went_out", 0, seat_high),
        "scores": tuple(
            tuple(
                read.integer(score, f"scores[{index}][{seat}]")
                for seat, score in enumerate(read.items(row, f"scores[{index}]", players))
            )
            for index, row in enumerate(read.items(fields["scores"], "scores"))
        ),
    }


def _knowledge(
    read: FieldReader, fields: Mapping[str, object], players: int, size: int
) -> dict[str, Any]:
    """The fields of rules 11.1-11.8, each at its default when absent: who knows each face-down
    card (per seat, per slot, the knowing seats), the setup peeks made, the power open,
    the card ``look_and_swap`` looked at, the turns completed."""
    found: dict[str, Any] = {}
    if "known" in fields:
        rows = read.items(fields["known"], "known")
        if rows and len(rows) != players:
            read.fail("known", f"must be empty or hold one layout per seat ({players})")
        found["known"] = tuple(
            tuple(
                read_mask(read, seats, f"known[{seat}][{slot}]", players)
                for slot, seats in enumerate(read.items(row, f"known[{seat}]", size))
            )
            for seat, row in enumerate(rows)
        )
    if "peeks" in fields:
        found["peeks"] = read.integer(fields["peeks"], "peeks", 0, MAX_SLOTS * 10)
    if fields.get("power") is not None:
        found["power"] = read.choice(fields["power"], "power", POWER_STATES)
    if fields.get("looked") is not None:
        pair = read.items(fields["looked"], "looked", 2)
        found["looked"] = (
            read.integer(pair[0], "looked[0]", 0, players - 1),
            read.integer(pair[1], "looked[1]", 0, max(size - 1, 0)),
        )
    if "turns" in fields:
        found["turns"] = read.integer(fields["turns"], "turns", 0)
    return found


# --- checks ----------------------------------------------------------------------------------


def _check_consistent(read: FieldReader, state: State, cards: str = "cards") -> None:
    """The fields agree with each other as they do in every state the engine reaches
    (``cards``: the layouts' field, ``layouts`` in an observation)."""
    phase = state.phase
    name = phase.name.lower()
    finished = len(state.scores)
    if finished != state.round:
        read.fail("scores", f"one row per finished round ({state.round}), got {finished}")
    if not state.cards[0] and (phase is not Phase.DEAL or state.round):
        read.fail(cards, "the layouts are empty only before round 0's deal")
    if phase is Phase.OVER and not state.round:
        read.fail("round", "the game is over only after a round")
    waiting = phase in (Phase.DEAL, Phase.OVER)
    if waiting != (state.turn == -1):
        wanted = "-1" if waiting else "a seat"
        read.fail("turn", f"must be {wanted} in the {name} phase, got {state.turn}")
    holding = phase in _HOLDING
    if holding != (state.held is not None):
        read.fail(
            "held", f"{'a card must' if holding else 'no card may'} be held in the {name} phase"
        )
    if (phase is Phase.FLIP) != bool(state.flips_owed):
        wanted = "some seat must" if phase is Phase.FLIP else "no seat may"
        read.fail("flips_owed", f"{wanted} owe a flip in the {name} phase")
    if len(set(state.flips_owed)) != len(state.flips_owed):
        read.fail("flips_owed", "a seat owes one flip at most")
    if (phase is Phase.BOUNCE) != (state.filled != 0):
        wanted = "the play's slot must be" if phase is Phase.BOUNCE else "no slot may be"
        read.fail("filled", f"{wanted} filled in the {name} phase")
    for seat, layout in enumerate(state.cards):
        for slot, card in enumerate(layout):
            if card == EMPTY and not state.face_up[seat] >> slot & 1:
                read.fail(f"face_up[{seat}]", f"the empty slot {slot} counts as face up (10.6)")
    if (
        state.filled
        and not state.known  # (under play.placed: down the slot lies face down, 11.3)
        and state.face_up[state.turn] & state.filled != state.filled
    ):
        read.fail("filled", "every slot filled this turn is face up")
    if state.chain and phase is not Phase.BOUNCE:
        read.fail("chain", f"no bounce chain runs in the {name} phase")
    if state.taken_from_discard and phase is not Phase.PLACE:
        read.fail("taken_from_discard", f"must be false in the {name} phase")
    if phase is Phase.RESHUFFLE and state.draw_pile:
        pile = "draw_pile" if cards == "cards" else "draw_pile_size"
        read.fail(pile, "a reshuffle is due only when the draw pile is empty")
    _check_knowledge(read, state, name)


def _check_knowledge(read: FieldReader, state: State, name: str) -> None:
    """The fields of rules 11.1-11.8 agree with the rest: a known mask for each slot, set only
    on face-down slots (a face-up card is everyone's, 11.1); a power only in the power
    phase, ``swap`` only with the card looked at (11.4); setup peeks only in the peek
    phase (11.2)."""
    phase = state.phase
    if state.known:
        if len(state.known) != state.players:
            read.fail("known", f"must be empty or hold one layout per seat ({state.players})")
        for seat, masks in enumerate(state.known):
            if len(masks) != len(state.cards[seat]):
                read.fail(
                    f"known[{seat}]", f"must hold one entry per slot ({len(state.cards[seat])})"
                )
            for slot, mask in enumerate(masks):
                if mask and state.face_up[seat] >> slot & 1:
                    read.fail(
                        f"known[{seat}][{slot}]",
                        "a face-up (or empty) slot is known to every seat: list no seat",
                    )
    if (phase is Phase.POWER) != (state.power is not None):
        wanted = "a power must" if phase is Phase.POWER else "no power may"
        read.fail("power", f"{wanted} be open in the {name} phase")
    if (state.power == "swap") != (state.looked is not None):
        read.fail("looked", "names the card looked at exactly when the power is swap (11.4)")
    if state.looked is not None:
        target, slot = state.looked
        if target == state.turn or slot >= len(state.cards[target]):
            read.fail("looked", "must be a slot of another seat's layout (11.8)")
        if state.cards[target][slot] == EMPTY:
            read.fail("looked", "an empty slot cannot be looked at (11.8)")
    if state.peeks and phase is not Phase.PEEK:
        read.fail("peeks", f"must be 0 in the {name} phase")


def _piles(read: FieldReader, value: object) -> Sequence[object]:
    """The discard piles: one list per pile, 1 to :data:`MAX_PILES` of them."""
    piles = read.items(value, "discard_piles")
    if not 1 <= len(piles) <= MAX_PILES:
        read.fail("discard_piles", f"must hold 1 to {MAX_PILES} piles, got {len(piles)}")
    return piles


def _check_fits(read: FieldReader, state: State, ruleset: Ruleset, cards: str = "cards") -> None:
    """The state can be one of a game under ``ruleset`` (``cards`` as for
    :func:`_check_consistent`)."""
    rules = ruleset.compiled
    players = state.players
    if not rules.remove_lines and any(EMPTY in layout for layout in state.cards):
        read.fail(cards, "an empty slot needs sets.score remove (rule 10.6)")
    if state.known and not rules.knowledge:
        read.fail("known", "no seat can know a face-down card under these rules (rule 11.1)")
    if state.phase is Phase.PEEK and not rules.peek_at_start:
        read.fail("phase", "a peek phase needs layout.peek_at_start (rule 11.2)")
    if state.peeks and state.peeks >= rules.peek_at_start:
        read.fail("peeks", f"fewer than layout.peek_at_start ({rules.peek_at_start}) made")
    power = state.power
    offered = "look_and_swap" if power == "swap" else power  # swap: look_and_swap's 2nd move
    if offered is not None and offered not in rules.powers.values():
        read.fail("power", f"{power!r} is none of the ruleset's powers (rule 11.4)")
    if state.turns and not rules.knock:
        read.fail("turns", "turns are counted only under round_end.knock (rule 11.5)")
    if not rules.min_players <= players <= rules.max_players:
        read.fail(
            cards,
            f"{players} seats, but the ruleset seats {rules.min_players} to {rules.max_players}",
        )
    size = len(state.cards[0])
    if size and size != rules.slots:
        read.fail(
            f"{cards}[0]", f"has {size} cards; a {rules.rows}x{rules.cols} layout has {rules.slots}"
        )
    if len(state.discard_piles) != rules.piles:
        read.fail(
            "discard_piles",
            f"{len(state.discard_piles)} piles, but the ruleset has {rules.piles} (rule 3.3)",
        )
    ended = state.round == rules.rounds or (
        rules.end_score is not None
        and 0 < state.round == len(state.scores)
        and game_over(rules, state.scores)  # rule 10.8: a total reached the end score
    )
    if state.round > rules.rounds or (state.phase is Phase.OVER) != ended:
        read.fail(
            "round",
            f"round {state.round} in the {state.phase.name.lower()} phase does not fit a game "
            f"of {rules.rounds} rounds",
        )
    if not size:
        return
    found = Counter(_every_card(state))
    unseen = found.pop(HIDDEN, 0)  # an observation's stand-ins (play.observation.stand_in)
    if unseen:
        extra = sorted_faces((found - rules.deck_counts).elements())
        if extra:
            read.fail(cards, f"the deck does not hold the cards shown: {_listed(extra)}")
        shown, deck = found.total() + unseen, rules.deck_counts.total()
        if shown != deck:
            read.fail(cards, f"{shown} cards in play, hidden ones included; the deck has {deck}")
    elif found != rules.deck_counts:
        missing = sorted_faces((rules.deck_counts - found).elements())
        extra = sorted_faces((found - rules.deck_counts).elements())
        read.fail(
            cards,
            f"the cards in play are not the ruleset's deck: missing {_listed(missing)}, "
            f"not in the deck {_listed(extra)}",
        )


def _every_card(state: State) -> list[Face]:
    cards = [card for layout in state.cards for card in layout if card != EMPTY]
    cards += [*state.draw_pile, *(card for pile in state.discard_piles for card in pile)]
    cards += state.removed
    if state.held is not None:
        cards.append(state.held)
    return cards


def _listed(cards: Sequence[Face]) -> str:
    return "[" + ", ".join(map(str, cards[:10])) + (", ..." if len(cards) > 10 else "") + "]"


# --- masks -------------------------------------------------------------------------------------


def _slots(mask: int, size: int) -> list[int]:
    return [slot for slot in range(size) if mask >> slot & 1]


def read_mask(read: FieldReader, value: object, path: str, size: int) -> int:
    """A list of distinct slots of a ``size``-card layout, as a bit mask.

    One of the reader's steps (not in ``__all__``).
    """
    mask = 0
    for index, slot in enumerate(read.items(value, path)):
        if not size:
            read.fail(path, "must be empty while the layouts are")
        number = read.integer(slot, f"{path}[{index}]", 0, size - 1)
        if mask >> number & 1:
            read.fail(f"{path}[{index}]", f"slot {number} is listed twice")
        mask |= 1 << number
    return mask


__all__ = [
    "STATE_FORMAT",
    "state_from_dict",
    "state_to_dict",
]
