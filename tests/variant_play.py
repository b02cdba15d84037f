"""Helpers for tests that play arranged situations through the public engine API.

A situation starts from an arranged deal: the cards a test names first (layouts in seat
order, the two discard starts, the top of the draw pile), then the rest of the deck in
sorted order (numbers ascending, then hazards, then mulligans), so a test knows every
card the engine will hand out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from builders import random_move

import gnoming_rules as gr
from gnoming_rules.core.cards import sorted_faces

Policy = Callable[[gr.Ruleset, gr.State], gr.PlayerMove]


def full_deck(rules: gr.Ruleset) -> list[gr.Face]:
    """Every card of the ruleset's deck, sorted."""
    cards: list[gr.Face] = []
    for face, copies in rules.deck.numbers.items():
        cards += [face] * copies
    cards += [gr.HAZARD] * rules.deck.hazards + [gr.MULLIGAN] * rules.deck.mulligans
    return sorted_faces(cards)


def arranged_deal(rules: gr.Ruleset, front: Sequence[gr.Face]) -> gr.Deal:
    """A deal that starts with ``front`` and goes on with the rest of the deck, sorted."""
    rest = Counter(full_deck(rules))
    rest.subtract(front)
    assert all(n >= 0 for n in rest.values()), f"front uses cards the deck lacks: {rest}"
    return gr.Deal((*front, *sorted_faces(rest.elements())))


def after_setup(
    rules: gr.Ruleset, players: int, front: Sequence[gr.Face], first_player: int = 0
) -> gr.State:
    """Deal ``front`` (then the sorted rest) and let every seat reveal its lowest slots."""
    state = gr.new_game(rules, players, first_player)
    state = gr.apply(rules, state, arranged_deal(rules, front))
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
    for move in moves:
        if isinstance(move, gr.Draw) and move.pile is None:
            return move
    for move in moves:
        if isinstance(move, gr.Discard):
            return move
    return moves[0]


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
    import random

    rng = random.Random(seed)
    state = gr.new_game(rules, players, first_player=seed % players)
    for _ in range(1_000_000):
        if state.is_over:
            return state
        move = random_move(rules, state, rng)
        state = gr.apply(rules, state, move)
    raise AssertionError("the game did not end")
