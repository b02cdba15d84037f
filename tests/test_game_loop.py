"""The one game loop (``play.loop``) that every driver of a game runs through: where it stops."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from strategies import GameSetup, game_setups

import gnoming_rules as gr
from gnoming_rules.play.bots import RandomBot
from gnoming_rules.play.loop import Decide, StopGame, play_out, seat_bots, step


def _random_moves(rules: gr.Ruleset, rng: random.Random) -> Decide:
    return lambda state: rng.choice(gr.legal_moves(rules, state))


@given(game_setups())
def test_the_loop_plays_as_a_hand_written_loop_and_tells_every_move(setup: GameSetup) -> None:
    """Chance from the generator, decisions from the callable, in the engine's order: the
    same game as a loop written out by hand from the same seed, every move told once."""
    rules, seed = setup.ruleset, 3
    told: list[tuple[gr.State, gr.Move, gr.State]] = []
    rng = random.Random(seed)
    final = play_out(
        rules,
        setup.new_game(),
        rng,
        lambda state: rng.choice(gr.legal_moves(rules, state)),
        hook=lambda before, move, after: told.append((before, move, after)),
        limit=400,
    )
    state, hand = setup.new_game(), random.Random(seed)
    by_hand: list[tuple[gr.State, gr.Move, gr.State]] = []
    while not state.is_over and len(by_hand) < 400:
        if state.is_chance:
            move: gr.Move = gr.sample_chance(rules, state, hand)
        else:
            move = hand.choice(gr.legal_moves(rules, state))
        after = gr.apply(rules, state, move)
        by_hand.append((state, move, after))
        state = after
    assert told == by_hand
    assert final == state


def test_a_step_draws_chance_from_the_generator_the_state_names() -> None:
    """``chance`` may be a function of the state: a paired game's deal comes from its round's
    stream; the same generator gives the same deal."""
    rules = gr.load_ruleset("standard")
    start = gr.new_game(rules, 3, 0)
    asked: list[gr.State] = []

    def chance(state: gr.State) -> random.Random:
        asked.append(state)
        return random.Random(f"deal/{state.round}")

    stepped = step(rules, start, chance, lambda _state: None)
    assert stepped is not None and isinstance(stepped[0], gr.Deal)
    assert asked == [start]
    assert stepped[0] == gr.sample_chance(rules, start, random.Random("deal/0"))
    assert stepped[1] == gr.apply(rules, start, stepped[0])


def test_a_declined_decision_stops_the_loop_at_that_seat() -> None:
    """A seat the loop does not play (a person at a server, a learner) ends the run there;
    chance events before it are made."""
    rules = gr.load_ruleset("standard")
    state = play_out(rules, gr.new_game(rules, 3, 1), random.Random(1), lambda _state: None)
    assert not state.is_chance and state.to_move == 1 and state.round == 0


def test_bots_play_their_seats_and_leave_the_others() -> None:
    rules = gr.load_ruleset("standard")
    decide = seat_bots(rules, {0: RandomBot(random.Random(2))})
    state = play_out(rules, gr.new_game(rules, 3, 0), random.Random(2), decide)
    assert state.to_move != 0 and not state.is_over


def test_a_stop_game_ends_the_run_before_that_decision() -> None:
    rules = gr.load_ruleset("standard")
    told: list[gr.Move] = []

    def quit_at_once(_state: gr.State) -> gr.PlayerMove:
        raise StopGame

    new = gr.new_game(rules, 3, 0)
    start = gr.apply(rules, new, gr.sample_chance(rules, new, random.Random(4)))
    state = play_out(
        rules, start, random.Random(4), quit_at_once, hook=lambda b, move, a: told.append(move)
    )
    assert state == start and told == []


def test_until_is_asked_before_each_move_and_limit_counts_moves() -> None:
    rules = gr.load_ruleset("standard")
    rng = random.Random(5)
    decide = _random_moves(rules, rng)
    at_round_1 = play_out(
        rules, gr.new_game(rules, 3, 0), rng, decide, until=lambda state: state.round >= 1
    )
    assert at_round_1.round == 1 and at_round_1.phase is gr.Phase.DEAL
    told: list[gr.Move] = []
    cut = play_out(
        rules,
        gr.new_game(rules, 3, 0),
        random.Random(5),
        _random_moves(rules, random.Random(6)),
        hook=lambda b, move, a: told.append(move),
        limit=7,
    )
    assert len(told) == 7 and not cut.is_over


def test_a_game_past_the_limit_raises_what_its_driver_says() -> None:
    rules = gr.load_ruleset("standard")
    with pytest.raises(gr.UsageError, match=r"^bot-stuck: at round 0$"):
        play_out(
            rules,
            gr.new_game(rules, 3, 0),
            random.Random(7),
            _random_moves(rules, random.Random(7)),
            limit=5,
            too_long=lambda state: gr.UsageError("bot-stuck", f"at round {state.round}"),
        )
