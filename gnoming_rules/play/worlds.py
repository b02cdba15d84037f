"""Worlds a seat cannot tell apart: the places its observation hides, and sampling them.

A seat's :class:`~gnoming_rules.play.observation.Observation` hides three kinds of card
(see that module): every face-down layout card the seat does not know (rule 11.1), the
draw pile (its size is public, its cards are not) and a card another seat drew from the
draw pile and still holds. Those are the :func:`hidden_places`; the cards that can lie
there are the :func:`unseen` ones, the deck less every card the seat can see or knows. A
face-down card the seat knows is no hidden place: every world keeps it where it lies,
with who knows it. Under §1-10 nobody ever decides on a card that is still hidden
(nobody looks at their own face-down cards, rule 3.2, and a drawn card is shown when it
is played or discarded), so every way of spreading the unseen cards over the hidden
places is equally likely: :func:`sample_world` draws one uniformly. Under §11 another
seat may have decided on a card it knows and this seat does not (kept it, swapped it):
a uniform world is then still one the observation cannot rule out, not the exact odds.

This module is the one home of that sampling: the information-set search bot
(:mod:`gnoming_rules.play.search`) plays out the worlds of :func:`sample_world`, and the
OpenSpiel game's ``resample_from_infostate`` spreads the same places with
:func:`spread` (it knows more than one observation: which cards a reshuffle put in the
draw pile, so it spreads them among themselves).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Literal, NamedTuple

from ..core.cards import EMPTY, Face
from ..core.engine import shuffle
from ..core.errors import UsageError
from ..core.ruleset import Ruleset
from ..core.state import State
from .observation import Observation, stand_in

__all__ = ["Spot", "cards_at", "hidden_places", "sample_world", "spread", "unseen"]


class Spot(NamedTuple):
    """Where a hidden card lies: a face-down ``slot`` of ``seat``'s layout, position
    ``index`` of the draw pile (top first), or the held card."""

    kind: Literal["slot", "draw", "held"]
    seat: int
    """The layout's seat (``-1`` for the draw pile and the held card)."""
    at: int
    """The slot, or the draw pile position (``0`` for the held card)."""


def hidden_places(observation: Observation) -> tuple[Spot, ...]:
    """The places whose card ``observation`` hides: face-down slots the seat does not know,
    seat by seat, the draw pile top first, then the held card when the observing seat
    cannot see it."""
    places = [
        Spot("slot", seat, slot)
        for seat, layout in enumerate(observation.layouts)
        for slot, card in enumerate(layout)
        if card is None
    ]
    places += [Spot("draw", -1, position) for position in range(observation.draw_pile_size)]
    if observation.held_hidden:
        places.append(Spot("held", -1, 0))
    return tuple(places)


def unseen(ruleset: Ruleset, observation: Observation) -> list[Face]:
    """The cards ``observation`` does not show (the deck less its face-up and known layout
    cards, discard piles, removed cards and visible held card), in the deck's face order.

    Raises ``bad-observation`` when the observation shows cards the deck does not hold
    (an observation of another ruleset's game).
    """
    left = Counter(ruleset.compiled.deck_counts)
    shown: list[Face] = [
        card
        for layout in observation.layouts
        for card in layout
        if card is not None and card != EMPTY  # an empty slot holds no card (10.6)
    ]
    shown += [card for pile in observation.discard_piles for card in pile]
    shown += observation.removed
    if observation.held is not None:
        shown.append(observation.held)
    left.subtract(shown)
    if any(count < 0 for count in left.values()):
        raise UsageError(
            "bad-observation", "the observation shows cards the ruleset's deck does not hold"
        )
    return list(left.elements())


def cards_at(state: State, places: Sequence[Spot]) -> list[Face]:
    """The card ``state`` has at each of ``places``."""
    found: list[Face] = []
    for place in places:
        if place.kind == "slot":
            found.append(state.cards[place.seat][place.at])
        elif place.kind == "draw":
            found.append(state.draw_pile[place.at])
        else:
            assert state.held is not None
            found.append(state.held)
    return found


def spread(state: State, places: Sequence[Spot], cards: Sequence[Face]) -> State:
    """``state`` with ``cards[i]`` at ``places[i]`` (the rest as it is)."""
    layouts = [list(layout) for layout in state.cards]
    pile = list(state.draw_pile)
    held = state.held
    for place, card in zip(places, cards, strict=True):
        if place.kind == "slot":
            layouts[place.seat][place.at] = card
        elif place.kind == "draw":
            pile[place.at] = card
        else:
            held = card
    return state.replace(
        cards=tuple(tuple(layout) for layout in layouts), draw_pile=tuple(pile), held=held
    )


def sample_world(ruleset: Ruleset, observation: Observation, rng: random.Random) -> State:
    """A referee :class:`~gnoming_rules.core.state.State` drawn uniformly among those that
    give ``observation``: the unseen cards shuffled over the hidden places.

    After a reshuffle a seat that remembered the discard piles would know which cards
    the draw pile holds; the observation alone does not say, so they are spread with
    the rest (the world is still one the observation cannot rule out).

    Example::

        >>> import random
        >>> import gnoming_rules as gr
        >>> from gnoming_rules.play import observe
        >>> rules = gr.load_ruleset("standard")
        >>> start = gr.new_game(rules, players=3)
        >>> state = gr.apply(rules, start, gr.sample_chance(rules, start, random.Random(1)))
        >>> world = sample_world(rules, observe(state, 0), random.Random(2))
        >>> observe(world, 0) == observe(state, 0), world == state
        (True, False)
    """
    places = hidden_places(observation)
    cards = unseen(ruleset, observation)
    if len(cards) != len(places):
        raise UsageError(
            "bad-observation",
            f"the observation hides {len(places)} cards but {len(cards)} are unseen",
        )
    shuffle(cards, rng)
    return spread(stand_in(observation), places, cards)
