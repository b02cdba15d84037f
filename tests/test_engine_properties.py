"""Engine properties over games no one wrote by hand.

The stateful machine (``test_engine_machine.py``) mixes legal and illegal moves; here each
example is a whole game played at random, checked step by step, plus the exhaustive
"legal moves <=> apply" check on states reached by play, and replay determinism.
"""

from __future__ import annotations

import random

from builders import variant
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import LEGAL_IFF_APPLY, PROPERTIES, PURITY, Watch
from strategies import (
    GameSetup,
    PlayedGame,
    game_setups,
    move_cap,
    play_randomly,
    played_games,
    removing_rulesets,
    standard_ruleset,
)

import gnoming_rules as gr
from gnoming_rules.core.engine import ENGINE_CODES, shuffle


def replay_with_all_checks(game: PlayedGame, properties: frozenset[str] | None = None) -> None:
    """Replay ``game`` move by move through a :class:`Watch` checking ``properties``."""
    watch = Watch(game.ruleset, game.states[0], properties or PROPERTIES)
    for move, recorded in zip(game.moves, game.states[1:], strict=True):
        assert watch.play(move) == recorded


def every_candidate_is_judged_right(ruleset: gr.Ruleset, state: gr.State) -> None:
    """Exactly the legal moves (and the due chance event) are accepted in ``state``, every
    refusal is an IllegalMove with a known code, and nothing is left changed."""
    Watch(ruleset, state, {LEGAL_IFF_APPLY, PURITY}).attempt_all()


def replay(game: PlayedGame, noise: int) -> list[gr.State]:
    """The states of ``game`` replayed from its moves, the global ``random`` stirred between
    every two steps; fails if the replay diverges so far that a recorded move is refused."""
    random.seed(noise)
    state = game.states[0]
    states = [state]
    for index, move in enumerate(game.moves):
        random.random()
        random.shuffle(list(range(10)))
        try:
            state = gr.apply(game.ruleset, state, move)
        except gr.IllegalMove as refusal:
            message = f"the replay diverged: move {index} ({move}) refused: {refusal}"
            raise AssertionError(message) from None
        states.append(state)
    return states


def replays_are_identical(game: PlayedGame, noise: int) -> None:
    """Replaying a game twice, with the global ``random`` stirred in between, gives the same
    states every step, and those of the game (no hidden global randomness in the engine)."""
    first, second = replay(game, noise), replay(game, noise + 1)
    assert first == second
    assert tuple(first) == game.states


@given(played_games(complete=True))
def test_every_step_of_a_random_game_keeps_every_property(game: PlayedGame) -> None:
    replay_with_all_checks(game)


REMOVING = settings(max_examples=max(10, settings().max_examples // 4))
"""A quarter of the profile's examples (50 under ci, 1,250 under thorough): the rulesets of
rule 10.6, where most random rulesets' games remove no line."""


@REMOVING
@given(played_games(game_setups(removing_rulesets()), complete=True))
def test_every_step_keeps_every_property_when_lines_leave_the_layout(game: PlayedGame) -> None:
    replay_with_all_checks(game)


@REMOVING
@given(played_games(game_setups(removing_rulesets())), st.data())
def test_exactly_the_legal_moves_are_accepted_when_lines_leave_the_layout(
    game: PlayedGame, data: st.DataObject
) -> None:
    phases = sorted({state.phase for state in game.states})
    phase = data.draw(st.sampled_from(phases), label="phase")
    state = data.draw(st.sampled_from([s for s in game.states if s.phase is phase]), label="state")
    every_candidate_is_judged_right(game.ruleset, state)


@given(played_games(), st.data())
def test_exactly_the_legal_moves_are_accepted(game: PlayedGame, data: st.DataObject) -> None:
    # Pick the phase first, so that rare ones (flips, reshuffles) are tried as often as turns.
    phases = sorted({state.phase for state in game.states})
    phase = data.draw(st.sampled_from(phases), label="phase")
    state = data.draw(st.sampled_from([s for s in game.states if s.phase is phase]), label="state")
    every_candidate_is_judged_right(game.ruleset, state)


@given(played_games(), st.integers())
def test_replay_is_deterministic(game: PlayedGame, noise: int) -> None:
    replays_are_identical(game, noise)


ENGINE_REFUSAL_CODES = set(ENGINE_CODES)
"""The codes ``apply`` itself can raise (the others belong to records and claims)."""


def test_candidate_moves_reach_every_refusal_the_engine_has() -> None:
    """The illegal moves tried are broad enough to provoke every engine refusal code."""
    small_deck = variant(
        players={"max": 4},
        deck={
            "numbers": dict.fromkeys(range(-5, 13)) | dict.fromkeys(range(5, 10), 6),
            "mulligans": 8,
        },
    )  # many mulligans, a short draw pile: reshuffles and empty piles are common
    rare = {gr.Phase.DEAL, gr.Phase.FLIP, gr.Phase.RESHUFFLE, gr.Phase.OVER}
    seen: set[str] = set()
    for seed in range(4):
        rules = standard_ruleset() if seed % 2 else small_deck
        setup = GameSetup(rules, 3 + seed % 2, seed % 3)
        game = play_randomly(setup, random.Random(seed), max_moves=move_cap(setup))
        for index, state in enumerate(game.states):
            empty_pile = not (state.draw_pile and all(state.discard_piles))
            if state.phase in rare or empty_pile or index % 20 == 0:
                watch = Watch(rules, state, {LEGAL_IFF_APPLY})
                watch.attempt_all()
                seen |= set(watch.refusals)
    assert seen == ENGINE_REFUSAL_CODES


class _OwnShuffle(random.Random):
    """A generator with a shuffle of its own, which ``sample_chance`` must use."""

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        x.reverse()


@given(seed=st.integers(0, 2**64), size=st.integers(0, 130))
def test_the_chance_shuffle_is_the_generators_own(seed: int, size: int) -> None:
    """``sample_chance`` writes out ``random.Random.shuffle`` for speed: the same permutation
    from the same seed, and the generator left in the same state (so a seeded game is the
    game it always was)."""
    cards: list[gr.Face] = [card % 13 for card in range(size)]
    by_random, written_out = random.Random(seed), random.Random(seed)
    expected = list(cards)
    by_random.shuffle(expected)
    shuffle(cards, written_out)
    assert cards == expected
    assert written_out.getstate() == by_random.getstate()
    own = list(range(size))
    shuffle(own, _OwnShuffle(seed))  # type: ignore[arg-type]
    assert own == list(range(size))[::-1]
