"""Build exact game situations through the public API: the suite's one situation builder.

A test names the cards that matter (a layout, the discard starters, the top of the draw
pile); :func:`arranged_deal` fills in the rest of the ruleset's deck so that the result is
a real :class:`~gnoming_rules.Deal`, and the game is then played forward with real moves
(:func:`play` checks that every move is one :func:`~gnoming_rules.legal_moves` offers).
Variants are made with :func:`variant`, and a ruleset's whole deck is :func:`deck_of`.

Filler cards are chosen predictably. By default (``fill="spread"``): number cards dealt
round-robin over the faces in ascending order (so a filled stretch of up to one card per
face holds no two equal cards, and no accidental set or bounce), and the deck's hazards
and mulligans left over go to the bottom of the draw pile (mulligans, then hazards last).
With ``fill="sorted"`` the rest of the deck follows in sorted order (numbers ascending,
then hazards, then mulligans), so a test knows every card the engine will hand out; the
variant tests deal that way (:func:`after_setup`) and play on with simple policies
(:func:`eager`, :func:`passive`, :func:`play_until`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import pytest

import gnoming_rules as gr
from gnoming_rules import HAZARD, MULLIGAN, Face
from gnoming_rules.core.cards import sorted_faces
from gnoming_rules.testing import GameSetup, PlayedGame

H: Face = HAZARD
M: Face = MULLIGAN

Slots = Sequence[Face | None]
"""A layout as a test writes it, row-major; ``None`` leaves a slot to the filler."""

STANDARD = gr.load_ruleset("standard")
STANDARD_FACES: tuple[int, ...] = tuple(STANDARD.deck.numbers)


def variant(**changes: Any) -> gr.Ruleset:
    """An inline ruleset that extends ``standard`` and changes the given fields."""
    return gr.load_ruleset({"extends": "standard", **changes})


def refused_variant(override: Mapping[str, Any], field: str, fragment: str) -> None:
    """Load ``standard`` with ``override`` and check the refusal at load: ``bad-ruleset``,
    one line starting with where the ruleset came from and the dotted ``field``, saying
    ``fragment``."""
    with pytest.raises(gr.RulesetError) as caught:
        gr.load_ruleset({"extends": "standard", **override})
    error = caught.value
    assert error.code == "bad-ruleset"
    assert error.message.startswith(f"inline ruleset: {field}: "), error.message
    assert fragment in error.message
    assert "\n" not in str(error)


def deck_patch(numbers: Mapping[int, int], hazards: int = 0, mulligans: int = 0) -> dict[str, Any]:
    """A ``deck`` patch that *replaces* standard's number cards (the others set to null)."""
    faces: dict[int, int | None] = dict.fromkeys(STANDARD_FACES)
    faces.update(numbers)
    return {"numbers": faces, "hazards": hazards, "mulligans": mulligans}


def deck_of(ruleset: gr.Ruleset) -> Counter[Face]:
    """The ruleset's whole deck as a multiset of faces, counted from its own ``deck``
    fields (RULES 1.1-1.2); faces with no card are left out."""
    counts: Counter[Face] = Counter()
    for face, copies in ruleset.deck.numbers.items():
        counts[face] += copies
    for name, copies in ruleset.deck.named.items():  # named faces (RULES 10.1)
        counts[name] += copies
    counts[HAZARD] += ruleset.deck.hazards
    counts[MULLIGAN] += ruleset.deck.mulligans
    return +counts


class _Pool:
    """The cards of a deck not placed yet; hands out named cards and filler cards."""

    def __init__(self, ruleset: gr.Ruleset) -> None:
        self.left = deck_of(ruleset)
        self._turn = 0

    def take(self, card: Face) -> Face:
        if self.left[card] <= 0:
            raise ValueError(f"the deck has no card {card!r} left to place")
        self.left[card] -= 1
        return card

    def filler(self) -> Face:
        """The next number card, round-robin over the faces in ascending order."""
        faces = sorted(face for face, n in self.left.items() if isinstance(face, int) and n > 0)
        if not faces:
            raise ValueError("no number cards left to fill with")
        above = [face for face in faces if face > self._turn]
        face = above[0] if above else faces[0]
        self._turn = face
        return self.take(face)

    def rest(self) -> list[Face]:
        """Everything still left: number cards round-robin, then mulligans, then hazards."""
        cards: list[Face] = []
        while any(isinstance(face, int) and n > 0 for face, n in self.left.items()):
            cards.append(self.filler())
        cards += [M] * self.left[MULLIGAN] + [H] * self.left[HAZARD]
        return cards


def arranged_deal(
    ruleset: gr.Ruleset,
    players: int,
    *,
    layouts: Mapping[int, Slots] | None = None,
    discards: Slots | None = None,
    draw: Slots = (),
    front: Slots | None = None,
    fill: Literal["spread", "sorted"] = "spread",
) -> gr.Deal:
    """A full deal of ``ruleset``'s deck with the given cards where asked (RULES 3.1-3.4).

    ``layouts[seat]`` is that seat's layout (row-major, ``None`` = filler); ``discards``
    are the cards dealt right after the layouts, in order: normally the two discard
    starters, but a hazard may be listed among them to be set aside (RULES 3.3);
    ``draw`` is the top of the draw pile, top first. Instead of those three, ``front``
    gives the first cards of the deal as one sequence. The rest is filled from what
    remains, as ``fill`` says (see the module docstring).
    """
    if front is not None:
        if layouts is not None or discards is not None or draw:
            raise ValueError("give either front or layouts/discards/draw, not both")
        chosen: list[Face | None] = list(front)
    else:
        size = ruleset.layout.rows * ruleset.layout.cols
        given = layouts or {}
        chosen = []
        for seat in range(players):
            layout = list(given.get(seat, [None] * size))
            if len(layout) != size:
                raise ValueError(f"seat {seat}: a layout has {size} cards, got {len(layout)}")
            chosen += layout
        chosen += list(discards) if discards is not None else [None, None]
        chosen += list(draw)
    pool = _Pool(ruleset)
    for card in chosen:
        if card is not None:
            pool.take(card)
    if fill == "sorted":
        rest = iter(sorted_faces(pool.left.elements()))
        cards = [card if card is not None else next(rest) for card in chosen]
        cards += rest
    else:
        cards = [card if card is not None else pool.filler() for card in chosen]
        cards += pool.rest()
    deal = gr.Deal(tuple(cards))
    assert Counter(deal.cards) == deck_of(ruleset)
    return deal


def play(ruleset: gr.Ruleset, state: gr.State, *moves: gr.Move) -> gr.State:
    """Apply ``moves`` in order, checking that each player move is offered by legal_moves."""
    for move in moves:
        if not state.is_chance:
            offered = gr.legal_moves(ruleset, state)
            assert move in offered, f"{move} is not among the legal moves {offered}"
        assert gr.explain(ruleset, state, move) is None
        state = gr.apply(ruleset, state, move)
    return state


def reveal_all(
    ruleset: gr.Ruleset, state: gr.State, reveals: Mapping[int, Sequence[int]] | None = None
) -> gr.State:
    """Play the setup reveals (RULES 3.5): each seat its ``reveals[seat]`` slots, in order.

    Seats not named reveal their first slots (0, 1, ... as many as the ruleset asks).
    """
    default = tuple(range(ruleset.layout.face_up_at_start))
    chosen = reveals or {}
    while state.phase is gr.Phase.REVEAL:
        seat = state.turn
        slots = chosen.get(seat, default)
        slot = next(s for s in slots if not state.is_face_up(seat, s))
        state = play(ruleset, state, gr.Reveal(seat, slot))
    return state


def start_round(
    ruleset: gr.Ruleset,
    state: gr.State,
    *,
    layouts: Mapping[int, Slots] | None = None,
    discards: Slots | None = None,
    draw: Slots = (),
    reveals: Mapping[int, Sequence[int]] | None = None,
) -> gr.State:
    """Deal an :func:`arranged_deal` to a state waiting for a deal, then play the reveals."""
    deal = arranged_deal(ruleset, state.players, layouts=layouts, discards=discards, draw=draw)
    return reveal_all(ruleset, play(ruleset, state, deal), reveals)


def start_game(
    ruleset: gr.Ruleset,
    players: int = 3,
    *,
    first_player: int = 0,
    layouts: Mapping[int, Slots] | None = None,
    discards: Slots | None = None,
    draw: Slots = (),
    reveals: Mapping[int, Sequence[int]] | None = None,
) -> gr.State:
    """A new game, dealt as arranged and past its setup reveals: the first turn is due."""
    state = gr.new_game(ruleset, players, first_player)
    return start_round(
        ruleset, state, layouts=layouts, discards=discards, draw=draw, reveals=reveals
    )


def flip_owed(ruleset: gr.Ruleset, state: gr.State) -> gr.State:
    """Every owed flip (RULES 6.1), each seat turning up its lowest face-down slot."""
    while state.phase is gr.Phase.FLIP:
        state = play(ruleset, state, gr.legal_moves(ruleset, state)[0])
    return state


def quiet_turn(ruleset: gr.Ruleset, state: gr.State) -> gr.State:
    """The active seat draws from the draw pile and discards that card (pile 0 if allowed).

    A drawn hazard is discarded and the flips it causes are played. Stops early, waiting
    for the reshuffle, when the draw empties the draw pile and one is due (RULES 8.7).
    """
    seat = state.turn
    state = play(ruleset, state, gr.Draw(seat))
    if state.is_chance:
        return state
    return finish_turn(ruleset, state)


def finish_turn(ruleset: gr.Ruleset, state: gr.State) -> gr.State:
    """Discard the held card (the first discard legal_moves offers) and play owed flips."""
    discard = next(m for m in gr.legal_moves(ruleset, state) if isinstance(m, gr.Discard))
    return flip_owed(ruleset, play(ruleset, state, discard))


def quiet_turns(ruleset: gr.Ruleset, state: gr.State, turns: int) -> gr.State:
    """``turns`` :func:`quiet_turn` in a row."""
    for _ in range(turns):
        state = quiet_turn(ruleset, state)
    return state


def chain(ruleset: gr.Ruleset, state: gr.State, slots: Sequence[int]) -> gr.State:
    """The active seat draws from the draw pile, plays into ``slots[0]``, bounces into the
    other ``slots`` in order, then discards the last displaced card (and flips, if owed)."""
    seat = state.turn
    first, *others = slots
    state = play(ruleset, state, gr.Draw(seat), gr.Place(seat, first))
    for slot in others:
        state = play(ruleset, state, gr.Bounce(seat, slot))
    return finish_turn(ruleset, state)


def chain_layout(a: Face, b: Face, value: int, last: Face) -> list[Face | None]:
    """A layout that goes out in one turn: ``a b`` (revealed) then six ``value`` and ``last``.

    With ``value`` on top of the draw pile, :func:`go_out` plays it into slot 2 and
    bounces through slots 3..8: every card turns face up and ``last`` is discarded.
    """
    return [a, b, value, value, value, value, value, value, last]


def go_out(ruleset: gr.Ruleset, state: gr.State) -> gr.State:
    """The active seat, dealt a :func:`chain_layout`, turns up slots 2..8 in one turn."""
    return chain(ruleset, state, range(2, 9))


def random_move(ruleset: gr.Ruleset, state: gr.State, rng: random.Random) -> gr.Move:
    """The next move of a random game: the chance event due, else a legal move chosen
    uniformly (``rng`` seeded, so the game replays)."""
    if state.is_chance:
        return gr.sample_chance(ruleset, state, rng)
    return rng.choice(gr.legal_moves(ruleset, state))


def finish_round_randomly(ruleset: gr.Ruleset, state: gr.State, rng: random.Random) -> gr.State:
    """Random legal play (a seeded ``rng``) until the current round is scored."""
    round_index = state.round
    while state.round == round_index and not state.is_over:
        move = random_move(ruleset, state, rng)
        state = gr.apply(ruleset, state, move)
    return state


def three_seat_rules(numbers: Mapping[int, int], **changes: Any) -> gr.Ruleset:
    """A variant for exactly three players with a small deck of number cards only.

    With ``sum(numbers) == 29`` the deal leaves the draw pile empty; with 30, one card.
    """
    return variant(players={"min": 3, "max": 3}, deck=deck_patch(numbers), **changes)


def hazard_after_near_outs(ruleset: gr.Ruleset) -> gr.State:
    """Three players; right after seat 2 discards a hazard drawn from the draw pile.

    Before it, seat 0 turned up all but two cards (slots 7, 8 stay face down) and seat 1
    all but one (slot 8), each by a bounce chain; then the hazard's flips are due (6.1-6.2).
    """
    state = start_game(
        ruleset,
        3,
        layouts={
            0: [1, 2, 5, 5, 5, 5, 9, 10, 11],
            1: [1, 2, 7, 7, 7, 7, 7, 9, 12],
        },
        draw=[5, 7, HAZARD],
    )
    state = chain(ruleset, state, range(2, 7))
    state = chain(ruleset, state, range(2, 8))
    assert state.face_down_count(0) == 2 and state.face_down_count(1) == 1
    return play(ruleset, state, gr.Draw(2), gr.Discard(2))


Policy = Callable[[gr.Ruleset, gr.State], gr.PlayerMove]
"""A simple player: the move it makes in a state where it is to move."""


def after_setup(
    rules: gr.Ruleset, players: int, front: Sequence[Face], first_player: int = 0
) -> gr.State:
    """Deal ``front`` (then the sorted rest) and let every seat reveal its lowest slots."""
    state = gr.new_game(rules, players, first_player)
    state = gr.apply(rules, state, arranged_deal(rules, players, front=front, fill="sorted"))
    while state.phase is gr.Phase.REVEAL:
        state = gr.apply(rules, state, gr.legal_moves(rules, state)[0])
    return state


def eager(rules: gr.Ruleset, state: gr.State) -> gr.PlayerMove:
    """Draw from the draw pile, play into the lowest face-down slot, never bounce."""
    moves = gr.legal_moves(rules, state)
    seat = state.actor
    assert seat is not None
    for move in moves:
        if isinstance(move, gr.Place) and not state.is_face_up(seat, move.slot):
            return move
    return passive(rules, state)


def passive(rules: gr.Ruleset, state: gr.State) -> gr.PlayerMove:
    """Draw from the draw pile and discard what was drawn: a turn that plays nothing."""
    moves = gr.legal_moves(rules, state)
    for move in moves:
        if isinstance(move, gr.Draw) and move.pile is None:
            return move
    for move in moves:
        if isinstance(move, gr.Discard):
            return move
    return moves[0]


def play_until(
    rules: gr.Ruleset,
    state: gr.State,
    policy: Policy,
    stop: Callable[[gr.State], bool],
    limit: int = 10_000,
) -> gr.State:
    """Apply ``policy``'s moves until ``stop(state)``; fails on a chance event or no end."""
    for _ in range(limit):
        if stop(state):
            return state
        assert not state.is_chance, f"unexpected chance event in phase {state.phase.name}"
        state = gr.apply(rules, state, policy(rules, state))
    raise AssertionError(f"no stop after {limit} moves")


def random_game(rules: gr.Ruleset, players: int, seed: int) -> gr.State:
    """A whole game of uniformly random legal moves, seeded."""
    rng = random.Random(seed)
    state = gr.new_game(rules, players, first_player=seed % players)
    for _ in range(1_000_000):
        if state.is_over:
            return state
        move = random_move(rules, state, rng)
        state = gr.apply(rules, state, move)
    raise AssertionError("the game did not end")


def played_game(
    ruleset: gr.Ruleset,
    players: int,
    moves: Sequence[gr.Move],
    *,
    first_player: int = 0,
) -> PlayedGame:
    """A :class:`~gnoming_rules.testing.PlayedGame` of exactly ``moves`` (each checked as
    :func:`play` does), ready for :func:`~gnoming_rules.testing.record_game`."""
    setup = GameSetup(ruleset, players, first_player)
    states = [setup.new_game()]
    for move in moves:
        states.append(play(ruleset, states[-1], move))
    return PlayedGame(setup, tuple(moves), tuple(states))


def setup_reveals(ruleset: gr.Ruleset, state: gr.State) -> list[gr.Move]:
    """The setup reveals :func:`reveal_all` plays by default, as moves (seat by seat, each
    its lowest face-down slots)."""
    moves: list[gr.Move] = []
    while state.phase is gr.Phase.REVEAL:
        seat = state.turn
        slot = next(s for s in range(ruleset.slots) if not state.is_face_up(seat, s))
        moves.append(gr.Reveal(seat, slot))
        state = play(ruleset, state, moves[-1])
    return moves
