"""An :class:`~gnoming_rules.play.observation.Observation` as JSON data, and back, exactly.

A server sends each seat its view as ``json.dumps(observation_to_dict(view))``; the
player's program reads it with ``observation_from_dict(json.loads(text))`` and gets an
observation equal to the one sent, field for field. The form is versioned
(``"format": "gnoming-observation/1"``) and follows the conventions of the saved state
(:func:`~gnoming_rules.formats.snapshot.state_to_dict`): the observation's own fields, cards by
face (rule 1.3), ``null`` for a face-down card the seat does not know, ``"."`` for an
empty slot (rule 10.6: ``null`` is taken), the phase by its name in lower case
(``"draw"``), the filled mask as a list of slots. The fields of rules 11.1-11.8 (``known``,
who knows each face-down card, as lists of seats; ``peeks``, ``power``, ``looked``,
``turns``) are written only when one of them is not at its default, so a view of a game
of §1-10 rules reads as it always has.

Reading checks everything before building the observation: a missing or unknown field,
a value of the wrong type, or fields that contradict each other (those of the saved
state, and a hidden card where the seat could see it or the reverse) raise
:class:`~gnoming_rules.core.errors.StateError` with code ``bad-observation`` and the field's
path. Given the ruleset, it also checks that the view fits it.
"""

from __future__ import annotations

from typing import Any, Final

from ..core.cards import EMPTY, Face
from ..core.errors import StateError
from ..core.fields import FieldReader
from ..core.ruleset import Ruleset
from ..formats.snapshot import (
    MAX_SLOTS,
    _check_consistent,
    _check_fits,
    _course,
    _knowledge,
    _layouts,
    _slots,
)
from .observation import Observation, held_is_hidden, stand_in

OBSERVATION_FORMAT: Final = "gnoming-observation/1"
"""The value of an observation's ``format`` field."""

_KNOWLEDGE: Final = ("known", "peeks", "power", "looked", "turns")
"""The fields of rules 11.1-11.8: optional, each at its default when absent."""
_FIELDS: Final = (
    "format",
    *(name for name in Observation.__dataclass_fields__ if name not in _KNOWLEDGE),
)


def observation_to_dict(observation: Observation) -> dict[str, Any]:
    """``observation`` as JSON data (lists, ints, strings, booleans, ``None``), format
    ``gnoming-observation/1``; :func:`observation_from_dict` gives it back."""
    return {
        "format": OBSERVATION_FORMAT,
        "seat": observation.seat,
        "first_player": observation.first_player,
        "round": observation.round,
        "phase": observation.phase.name.lower(),
        "turn": observation.turn,
        "actor": observation.actor,
        "layouts": [list(layout) for layout in observation.layouts],
        "draw_pile_size": observation.draw_pile_size,
        "discard_piles": [list(pile) for pile in observation.discard_piles],
        "removed": list(observation.removed),
        "held": observation.held,
        "held_hidden": observation.held_hidden,
        "taken_from_discard": observation.taken_from_discard,
        "filled": _slots(observation.filled, MAX_SLOTS),
        "chain": observation.chain,
        "flips_owed": list(observation.flips_owed),
        "went_out": observation.went_out,
        "scores": [list(scores) for scores in observation.scores],
        **_knowledge_fields(observation),
    }


def _knowledge_fields(observation: Observation) -> dict[str, Any]:
    """The fields of rules 11.1-11.8, when one of them is not at its default (else none)."""
    if not (
        observation.known
        or observation.peeks
        or observation.power is not None
        or observation.looked is not None
        or observation.turns
    ):
        return {}
    players = len(observation.layouts)
    return {
        "known": [[_slots(mask, players) for mask in masks] for masks in observation.known],
        "peeks": observation.peeks,
        "power": observation.power,
        "looked": None if observation.looked is None else list(observation.looked),
        "turns": observation.turns,
    }


def _cell(read: FieldReader, value: object, path: str) -> Face | None:
    """A slot of a view: a face, ``null`` (face down, not known) or ``"."`` (empty, 10.6)."""
    return EMPTY if value == EMPTY else read.optional_face(value, path)


def observation_from_dict(data: object, ruleset: Ruleset | None = None) -> Observation:
    """The observation that :func:`observation_to_dict` wrote as ``data``.

    Raises :class:`~gnoming_rules.core.errors.StateError` (``bad-observation``) naming the field
    at fault when ``data`` is not an observation; with ``ruleset``, also when the view does
    not fit those rules (players, layout size, rounds, cards the deck does not hold).
    """
    read = FieldReader(lambda message: StateError("bad-observation", message))
    fields = read.mapping(data, "", _FIELDS, _KNOWLEDGE)
    if fields["format"] != OBSERVATION_FORMAT:
        read.fail("format", f"must be {OBSERVATION_FORMAT!r}, got {fields['format']!r}")

    layouts: tuple[tuple[Face | None, ...], ...] = _layouts(
        read, fields["layouts"], "layouts", lambda value, path: _cell(read, value, path)
    )
    players, size = len(layouts), len(layouts[0])
    seat_high = players - 1
    observation = Observation(
        **_course(read, fields, players, size),
        **_knowledge(read, fields, players, size),
        seat=read.optional_integer(fields["seat"], "seat", 0, seat_high),
        actor=read.optional_integer(fields["actor"], "actor", 0, seat_high),
        layouts=layouts,
        draw_pile_size=read.integer(fields["draw_pile_size"], "draw_pile_size", 0),
        held_hidden=read.boolean(fields["held_hidden"], "held_hidden"),
    )
    if observation.held_hidden and observation.held is not None:
        read.fail("held", "must be null when held_hidden is true")
    _check_known(read, observation)
    # The saved state's checks, on the state the view stands for: one set of rules for both.
    state = stand_in(observation)
    _check_consistent(read, state, "layouts")
    if observation.actor != state.actor:
        read.fail("actor", f"must be {state.actor} in the {fields['phase']} phase")
    if state.held is not None and observation.held_hidden != held_is_hidden(
        state, observation.seat
    ):
        seen = "a spectator" if observation.seat is None else f"seat {observation.seat}"
        truth = "false" if observation.held_hidden else "true"
        verb = "can" if observation.held_hidden else "cannot"
        read.fail(
            "held_hidden", f"must be {truth}: {seen} {verb} see the card seat {state.turn} holds"
        )
    if ruleset is not None:
        _check_fits(read, state, ruleset, "layouts")
    return observation


def _check_known(read: FieldReader, observation: Observation) -> None:
    """A face-down card is shown exactly when the seat knows it: a slot some seat knows is
    face down, so it shows a card only to a seat among its knowers (rule 11.1)."""
    viewer = observation.seat
    for seat, masks in enumerate(observation.known):
        for slot, mask in enumerate(masks):
            card = observation.layouts[seat][slot]
            if not mask or card == EMPTY:
                continue  # an empty slot's mask is checked on the state (face up)
            mine = viewer is not None and mask >> viewer & 1
            if mine and card is None:
                read.fail(
                    f"layouts[{seat}][{slot}]",
                    f"must show the card: seat {viewer} knows it (known[{seat}][{slot}])",
                )
            if not mine and card is not None:
                who = "a spectator" if viewer is None else f"seat {viewer}"
                read.fail(
                    f"layouts[{seat}][{slot}]",
                    f"must be null: the card is face down (known[{seat}][{slot}]) and "
                    f"{who} does not know it",
                )


__all__ = [
    "OBSERVATION_FORMAT",
    "observation_from_dict",
    "observation_to_dict",
]
