"""The flat observation vector: it says what the seat's view says, and nothing else.

``Encoder.encode`` is checked segment by segment against the observation it encodes;
``Encoder.encode_state`` (the environments' fast path, read from the state) must give
the very same vector on every state of random games of random variants.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import gnoming_rules as gr
from gnoming_rules.adapters import encoding
from gnoming_rules.adapters.encoding import Encoder, total_bound
from gnoming_rules.core.cards import EMPTY
from gnoming_rules.play.observation import Observation, observe
from gnoming_rules.testing import PlayedGame, played_games


def segment(encoder: Encoder, vector: np.ndarray, name: str) -> np.ndarray:
    start, length = next((s, n) for key, s, n in encoder.segments if key == name)
    return vector[start : start + length]


def decoded_layouts(encoder: Encoder, vector: np.ndarray) -> list[tuple[gr.Face | None, ...]]:
    """Each seat's layout read back from the one-hot block (seats relative to the viewer)."""
    f = len(encoder.faces)
    cells = segment(encoder, vector, "layouts").reshape(encoder.players, -1, f + 1)
    layouts: list[tuple[gr.Face | None, ...]] = []
    for seat_cells in cells:
        if not seat_cells.any():
            layouts.append(())
            continue
        sums = seat_cells.sum(axis=1)
        assert ((sums == 1) | (sums == 0)).all()  # an empty slot (10.6) is all zeros
        hot = seat_cells.argmax(axis=1)
        layouts.append(
            tuple(
                EMPTY if not total else None if i == f else encoder.faces[i]
                for i, total in zip(hot, sums, strict=True)
            )
        )
    return layouts


def check_view(encoder: Encoder, view: Observation, vector: np.ndarray) -> None:
    n, seat = encoder.players, view.seat
    assert seat is not None
    assert vector.dtype == np.float32 and vector.shape == (encoder.size,)
    assert (encoder.low <= vector).all() and (vector <= encoder.high).all()
    relative = [view.layouts[(seat + k) % n] for k in range(n)]
    assert decoded_layouts(encoder, vector) == relative
    f = len(encoder.faces)
    held = segment(encoder, vector, "held")
    assert held.sum() == 1
    if view.held is not None:
        assert encoder.faces[held.argmax() - 2] == view.held
    else:
        assert held.argmax() == int(view.held_hidden)
    tops = segment(encoder, vector, "pile_tops").reshape(-1, f + 1)
    counts = segment(encoder, vector, "pile_cards").reshape(-1, f)
    for pile, top, count in zip(view.discard_piles, tops, counts, strict=True):
        assert top.argmax() == (encoder.faces.index(pile[-1]) if pile else f)
        assert list(count) == [pile.count(face) for face in encoder.faces]
    assert segment(encoder, vector, "removed")[0] == len(view.removed)
    assert segment(encoder, vector, "draw_pile")[0] == view.draw_pile_size
    assert segment(encoder, vector, "phase").argmax() == view.phase
    for name, who in (("turn", view.turn), ("actor", view.actor), ("went_out", view.went_out)):
        hot = segment(encoder, vector, name)
        if who is None or who < 0:
            assert not hot.any()
        else:
            assert list(np.flatnonzero(hot)) == [(who - seat) % n]
    bits = segment(encoder, vector, "filled")
    assert [s for s in range(len(bits)) if view.filled >> s & 1] == list(np.flatnonzero(bits))
    assert segment(encoder, vector, "chain")[0] == view.chain
    assert segment(encoder, vector, "taken_from_discard")[0] == view.taken_from_discard
    owed = segment(encoder, vector, "flips_owed")
    assert sorted(np.flatnonzero(owed)) == sorted((s - seat) % n for s in view.flips_owed)
    assert segment(encoder, vector, "round").argmax() == view.round
    totals = [sum(r[s] for r in view.scores) for s in range(n)]
    assert list(segment(encoder, vector, "totals")) == [totals[(seat + k) % n] for k in range(n)]


@settings(max_examples=30)
@given(played_games(complete=False))
def test_the_vector_says_what_the_view_says(game: PlayedGame) -> None:
    encoder = Encoder(game.ruleset, game.setup.players)
    for state in game.states[:: max(1, len(game.states) // 40)]:
        for seat in range(game.setup.players):
            view = observe(state, seat)
            check_view(encoder, view, encoder.encode(view))


@settings(max_examples=30)
@given(played_games())
def test_the_fast_path_gives_the_same_vector(game: PlayedGame) -> None:
    encoder = Encoder(game.ruleset, game.setup.players)
    for state in game.states:
        seat = state.actor if state.actor is not None else state.round % game.setup.players
        expected = encoder.encode(observe(state, seat))
        assert np.array_equal(encoder.encode_state(state, seat), expected)


def test_the_totals_bound_holds_over_random_games() -> None:
    import random

    rules = gr.load_ruleset("standard")
    bound = total_bound(rules)
    assert bound == (9 + 6) * 12 * 3 + 3 * 5
    for seed in range(10):
        rng = random.Random(seed)
        state = gr.new_game(rules, 3)
        while not state.is_over:
            if state.is_chance:
                state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
            else:
                state = gr.apply(rules, state, rng.choice(gr.legal_moves(rules, state)))
        assert all(-bound <= total <= bound for total in state.totals)


def seeded_states(name: str, players: int, seed: int) -> list[gr.State]:
    """Every state of one uniformly random game, chance states and the final one included."""
    import random

    rules = gr.load_ruleset(name)
    rng = random.Random(seed)
    state = gr.new_game(rules, players, seed % players)
    states = [state]
    while not state.is_over:
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
        else:
            state = gr.apply(rules, state, rng.choice(gr.legal_moves(rules, state)))
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("name", "players"), [("standard", 4), ("one-pile", 3), ("quick", 3), ("no-bounce", 5)]
)
def test_the_fast_path_agrees_for_every_seat_across_games(name: str, players: int) -> None:
    """One encoder over several games, as an environment keeps it: its memos (layouts and
    piles by identity, pile counts changed one card at a time) must never go stale."""
    encoder = Encoder(gr.load_ruleset(name), players)
    compared = 0
    for seed in range(4):
        for state in seeded_states(name, players, seed):
            for seat in range(players):
                expected = encoder.encode(observe(state, seat))
                assert np.array_equal(encoder.encode_state(state, seat), expected)
                compared += 1
    assert compared > 1_000


def test_the_fast_path_agrees_on_states_out_of_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """States of two games shuffled together: every memo of the last layout or pile seen
    misses or is stale, and the small caches overflow and start afresh."""
    import random

    monkeypatch.setattr(encoding, "_CACHE_LIMIT", 3)
    encoder = Encoder(gr.load_ruleset("standard"), 3)
    fast = encoder.fast
    fast.cache_limit = 3
    states = seeded_states("standard", 3, 9) + seeded_states("standard", 3, 10)
    random.Random(0).shuffle(states)
    for state in states[:400]:
        for seat in range(3):
            expected = encoder.encode(observe(state, seat))
            assert np.array_equal(encoder.encode_state(state, seat), expected)
    assert all(len(cache) <= 3 for cache in (fast.filled_bytes, fast.owed_bytes))


def test_the_fast_path_hands_out_a_fresh_writable_vector() -> None:
    encoder = Encoder(gr.load_ruleset("standard"), 4)
    state = seeded_states("standard", 4, 1)[60]
    first = encoder.encode_state(state, 2)
    assert first.dtype == np.float32 and first.shape == (encoder.size,)
    assert first.flags.writeable
    first[:] = 7.0
    again = encoder.encode_state(state, 2)
    assert np.array_equal(again, encoder.encode(observe(state, 2)))
    assert not np.shares_memory(first, again)
