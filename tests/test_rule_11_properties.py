"""The engine's, the referee's and the server's properties over games steered into rule 11.

Random play under random rulesets reaches rule 11 now and then (a sixth of the rulesets
:func:`~gnoming_rules.testing.ruleset_overrides` draws have some of it); here every game
is one of :func:`~gnoming_rules.testing.steered_games`: the bundled rulesets of rule 11 and
random variants with its options drawn on purpose, played into setup peeks, powers used
(peeks and swaps), cards placed face down and knocks. Each property is one the suite
checks elsewhere for rules 1-10, read again here: every step keeps the rules' invariants,
exactly the legal moves are accepted, a replay is exact, a record and its public form get
the same verdict, a view shows exactly what its seat knows, and no message of the server
tells a seat anything its seat does not know.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st
from strategies import PlayedGame, record_game, steered_games
from test_conversion import has_no_public_form, public_form, same_game
from test_engine_properties import (
    every_candidate_is_judged_right,
    replay_with_all_checks,
    replays_are_identical,
)
from test_observation import reshuffle_hidden
from test_observation_knowledge import view_shows_exactly_what_its_seat_knows

import gnoming_rules as gr
from gnoming_rules.referee import validate_record
from gnoming_rules.server.protocol import view_text
from gnoming_rules.server.spec import TableSpec
from gnoming_rules.server.table import Table


def _kinds(game: PlayedGame) -> None:
    """Label the example with the moves of rule 11 it holds (``--hypothesis-show-statistics``)."""
    for kind in sorted({type(move).__name__ for move in game.moves}):
        if kind in ("Peek", "Swap", "Pass", "Knock"):
            event(f"has {kind}")


@given(steered_games(complete=True))
def test_rule_11_every_step_of_a_steered_game_keeps_every_property(game: PlayedGame) -> None:
    _kinds(game)
    replay_with_all_checks(game)


@given(steered_games(), st.data())
def test_rule_11_exactly_the_legal_moves_are_accepted(
    game: PlayedGame, data: st.DataObject
) -> None:
    phases = sorted({state.phase for state in game.states})
    phase = data.draw(st.sampled_from(phases), label="phase")
    event(f"phase {phase.name}")
    state = data.draw(st.sampled_from([s for s in game.states if s.phase is phase]), label="state")
    every_candidate_is_judged_right(game.ruleset, state)


@given(steered_games(), st.integers())
def test_rule_11_a_replay_is_exact(game: PlayedGame, noise: int) -> None:
    replays_are_identical(game, noise)


@given(steered_games(), st.booleans())
def test_rule_11_a_record_and_its_public_form_get_the_same_verdict(
    game: PlayedGame, claims: bool
) -> None:
    full = record_game(game, claims=claims).record
    verdict = validate_record(full)
    assert verdict.valid, verdict
    assert not has_no_public_form(full)
    same_game(verdict, validate_record(public_form(full)))


@given(steered_games(complete=False))
def test_rule_11_every_view_shows_exactly_what_its_seat_knows(game: PlayedGame) -> None:
    for state in game.states[-12:]:
        view_shows_exactly_what_its_seat_knows(state)


def _table_at(game: PlayedGame, state: gr.State) -> Table:
    """A server table of ``game``'s seats holding ``state`` (never stored: only read)."""
    names = [f"seat {seat}" for seat in range(game.setup.players)]
    spec = TableSpec(
        ruleset_ref="inline",
        names=names,
        bots=[None] * len(names),
        move_seconds=None,
        default_bot="random",
        first_player=game.setup.first_player,
    )
    unused: Any = None  # a table only read needs no storage and no bots' pool
    table = Table("t", spec, game.ruleset, storage=unused, store=unused, pool=unused)
    table.state = state
    return table


@given(steered_games(complete=False), st.integers(0, 2**32 - 1))
def test_rule_11_no_server_message_tells_a_seat_a_card_it_does_not_know(
    game: PlayedGame, seed: int
) -> None:
    """Each seat's view message (its drawing included), and the spectator's, is the same
    text when every card that viewer does not know is dealt again at random: the message
    depends on nothing the viewer does not know."""
    rng = random.Random(seed)
    for index in range(max(1, len(game.moves) - 6), len(game.moves) + 1):
        state, last = game.states[index], game.moves[index - 1] if index else None
        for seat in [*range(state.players), None]:
            other = reshuffle_hidden(state, seat, rng)
            truth = view_text(_table_at(game, state), seat, last, svg=True)
            assert view_text(_table_at(game, other), seat, last, svg=True) == truth
