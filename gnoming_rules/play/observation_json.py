"""An :class:`~gnoming_rules.play.observation.Observation` as JSON data, and back, exactly.

A server sends each seat its view as ``json.dumps(observation_to_dict(view))``; the
player's program reads it with ``observation_from_dict(json.loads(text))`` and gets an
observation equal to the one sent, field for field. The form is versioned
(``"format": "gnoming-observation/1"``) and follows the conventions of the saved state
(:func:`~gnoming_rules.formats.snapshot.state_to_dict`): the observation's own fields, cards by
face (rule 1.3), ``null`` for a face-down card, the phase by its name in lower case
(``"draw"``), the filled mask as a list of slots.

Reading checks everything before building the observation: a missing or unknown field,
a value of the wrong type, or fields that contradict each other (those of the saved
state, and a hidden card where the seat could see it or the reverse) raise
:class:`~gnoming_rules.core.errors.StateError` with code ``bad-observation`` and the field's
path. Given the ruleset, it also checks that the view fits it.
"""

from __future__ import annotations

from typing import Any, Final

from ..core.cards import Face
from ..core.errors import StateError
from ..core.fields import FieldReader
from ..core.ruleset import Ruleset
from ..formats.snapshot import MAX_SLOTS, _check_consistent, _check_fits, _course, _layouts, _slots
from .observation import Observation, held_is_hidden, stand_in

OBSERVATION_FORMAT: Final = "gnoming-observation/1"
"""The value of an observation's ``format`` field."""

_FIELDS: Final = ("format", *Observation.__dataclass_fields__)


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
    }


def observation_from_dict(data: object, ruleset: Ruleset | None = None) -> Observation:
    """The observation that :func:`observation_to_dict` wrote as ``data``.

    Raises :class:`~gnoming_rules.core.errors.StateError` (``bad-observation``) naming the field
    at fault when ``data`` is not an observation; with ``ruleset``, also when the view does
    not fit those rules (players, layout size, rounds, cards the deck does not hold).
    """
    read = FieldReader(lambda message: StateError("bad-observation", message))
    fields = read.mapping(data, "", _FIELDS)
    if fields["format"] != OBSERVATION_FORMAT:
        read.fail("format", f"must be {OBSERVATION_FORMAT!r}, got {fields['format']!r}")

    layouts: tuple[tuple[Face | None, ...], ...] = _layouts(
        read, fields["layouts"], "layouts", read.optional_face
    )
    players, size = len(layouts), len(layouts[0])
    seat_high = players - 1
    observation = Observation(
        **_course(read, fields, players, size),
        seat=read.optional_integer(fields["seat"], "seat", 0, seat_high),
        actor=read.optional_integer(fields["actor"], "actor", 0, seat_high),
        layouts=layouts,
        draw_pile_size=read.integer(fields["draw_pile_size"], "draw_pile_size", 0),
        held_hidden=read.boolean(fields["held_hidden"], "held_hidden"),
    )
    if observation.held_hidden and observation.held is not None:
        read.fail("held", "must be null when held_hidden is true")
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


__all__ = [
    "OBSERVATION_FORMAT",
    "observation_from_dict",
    "observation_to_dict",
]
