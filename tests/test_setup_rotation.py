"""Setup reveals in every round (rules 2.2, 3.5): each round's reveals start with that
round's first player (one seat further on each round when the first player rotates, the
same seat when it is fixed), go round the table seat by seat, each seat revealing its
cards in a row, and that seat then takes the round's first turn."""

from __future__ import annotations

import random

from builders import STANDARD, arranged_deal, play, variant
from hypothesis import given
from strategies import GameSetup, PlayedGame, multi_round_setups, play_randomly, played_games

import gnoming_rules as gr


def setup_actors(game: PlayedGame) -> list[tuple[int, list[int], int | None]]:
    """For each round: (round, the seats of its reveals in order, the first turn's seat)."""
    found: list[tuple[int, list[int], int | None]] = []
    for move, before, after in zip(game.moves, game.states[:-1], game.states[1:], strict=True):
        if isinstance(move, gr.Deal):
            found.append((before.round, [], None))
        elif isinstance(move, gr.Reveal):
            found[-1][1].append(move.player)
        if found and found[-1][2] is None and after.phase is gr.Phase.DRAW:
            found[-1] = (found[-1][0], found[-1][1], after.actor)
    return found


def expected_reveals(rules: gr.Ruleset, players: int, starter: int) -> list[int]:
    per_seat = rules.layout.face_up_at_start
    return [(starter + seat) % players for seat in range(players) for _ in range(per_seat)]


def reveals_start_with_the_rounds_first_player(game: PlayedGame) -> None:
    rules, setup = game.ruleset, game.setup
    rotate = rules.first_player == "rotate"
    for round_, reveals, first_turn in setup_actors(game):
        starter = (setup.first_player + round_) % setup.players if rotate else setup.first_player
        assert reveals == expected_reveals(rules, setup.players, starter)[: len(reveals)], round_
        if first_turn is not None:
            assert len(reveals) == setup.players * rules.layout.face_up_at_start
            assert first_turn == starter, round_


def test_round_1_reveals_start_one_seat_further_on() -> None:
    rng = random.Random(2)
    state = play(STANDARD, gr.new_game(STANDARD, 3, first_player=2), arranged_deal(STANDARD, 3))
    while state.round == 0:  # finish round 0 at random
        move = (
            gr.sample_chance(STANDARD, state, rng)
            if state.is_chance
            else rng.choice(gr.legal_moves(STANDARD, state))
        )
        state = gr.apply(STANDARD, state, move)
    state = play(STANDARD, state, arranged_deal(STANDARD, 3))
    assert state.round == 1 and state.actor == 0  # 2 started round 0
    for seat in (0, 0, 1, 1, 2, 2):
        assert state.phase is gr.Phase.REVEAL and state.actor == seat
        slot = next(s for s in range(9) if not state.is_face_up(seat, s))
        assert gr.Reveal((seat + 1) % 3, slot) not in gr.legal_moves(STANDARD, state)
        state = play(STANDARD, state, gr.Reveal(seat, slot))
    assert state.phase is gr.Phase.DRAW and state.actor == 0


def test_with_a_fixed_first_player_every_round_reveals_from_the_same_seat() -> None:
    fixed = variant(first_player="fixed", rounds=2)
    game = played_games_of(fixed, players=4, first_player=3, seed=8)
    rounds = setup_actors(game)
    assert [r for r, _, _ in rounds] == [0, 1]
    for _, reveals, first_turn in rounds:
        assert reveals == expected_reveals(fixed, 4, 3) and first_turn == 3


def played_games_of(rules: gr.Ruleset, players: int, first_player: int, seed: int) -> PlayedGame:
    game = play_randomly(GameSetup(rules, players, first_player), random.Random(seed))
    assert game.complete
    return game


@given(played_games(multi_round_setups(), complete=True))
def test_reveals_start_with_the_rounds_first_player(game: PlayedGame) -> None:
    reveals_start_with_the_rounds_first_player(game)
