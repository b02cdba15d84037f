"""The stateful machine that plays games move by move, legal and illegal.

Each step either plays chosen legal moves, plays on at random for a while or until a rare
phase comes (flips owed, a reshuffle due, a round over), tries one move that may be illegal
(wrong seat, wrong phase, bad slot, ineligible bounce, second mulligan, a taken card
discarded, malformed fields...), or tries every candidate move at once. After every
accepted move the :class:`~invariants.Watch` checks every property in ``PROPERTIES``;
every attempt checks "legal moves <=> apply" and purity.
"""

from __future__ import annotations

import random
from typing import ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from invariants import (
    DECK_CONSERVATION,
    HAZARDS_LEAVE,
    PROPERTIES,
    Watch,
    check_deck_conservation,
    check_hazards_off_piles,
)
from strategies import GameSetup, game_setups, moves_to_try

import gnoming_rules as gr


class GameMachine(RuleBasedStateMachine):
    """One game per run; ``properties`` is what the watch checks (all, unless narrowed)."""

    properties: ClassVar[frozenset[str]] = frozenset(PROPERTIES)

    def __init__(self) -> None:
        super().__init__()
        self.watch: Watch | None = None
        self.rng = random.Random(0)

    @initialize(setup=game_setups(), seed=st.integers(0, 2**32 - 1))
    def sit_down(self, setup: GameSetup, seed: int) -> None:
        self.watch = Watch(setup.ruleset, setup.new_game(), self.properties)
        self.rng = random.Random(seed)

    @property
    def game(self) -> Watch:
        assert self.watch is not None
        return self.watch

    def _step(self, pick: int) -> None:
        watch = self.game
        if watch.state.is_chance:
            watch.play(gr.sample_chance(watch.ruleset, watch.state, self.rng))
        else:
            legal = watch.legal()
            watch.play(legal[pick % len(legal)])

    @precondition(lambda self: not self.game.state.is_over)
    @rule(picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=12))
    def play_chosen_moves(self, picks: list[int]) -> None:
        for pick in picks:
            if self.game.state.is_over:
                break
            self._step(pick)

    @precondition(lambda self: not self.game.state.is_over)
    @rule(count=st.integers(1, 400))
    def play_on_at_random(self, count: int) -> None:
        for _ in range(count):
            if self.game.state.is_over:
                break
            self._step(self.rng.randrange(2**16))

    @precondition(lambda self: not self.game.state.is_over)
    @rule(phase=st.sampled_from([gr.Phase.FLIP, gr.Phase.RESHUFFLE, gr.Phase.DEAL]))
    def play_until(self, phase: gr.Phase) -> None:
        """Play on at random until a rare phase comes (flips owed, a reshuffle due, a round
        over), so that the illegal moves are tried there too."""
        for _ in range(2_000):
            if self.game.state.is_over or self.game.state.phase is phase:
                break
            self._step(self.rng.randrange(2**16))

    @rule(data=st.data())
    def try_a_move(self, data: st.DataObject) -> None:
        watch = self.game
        watch.attempt(data.draw(moves_to_try(watch.ruleset, watch.state), label="move"))

    @rule()
    def try_every_candidate(self) -> None:
        self.game.attempt_all()

    @invariant()
    def cards_are_all_there(self) -> None:
        if self.watch is None:
            return
        if DECK_CONSERVATION in self.properties:
            check_deck_conservation(self.watch.ruleset, self.watch.state)
        if HAZARDS_LEAVE in self.properties:
            check_hazards_off_piles(self.watch.state)
