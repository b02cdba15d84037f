"""The OpenSpiel game passes OpenSpiel's random-simulation test and agrees with the referee.

``pyspiel.random_sim_test`` (serialization on) checks clones, serialization, legal
actions, chance outcomes, tensors and returns along random games; a uniform-random
playthrough, written down as a game record, is replayed by the referee move for move.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import gnoming_rules as gr
from gnoming_rules.adapters import openspiel_game
from gnoming_rules.adapters.encoding import Encoder
from gnoming_rules.adapters.openspiel_game import GAME_NAME, GnomingState, to_record
from gnoming_rules.core.cards import face_text
from gnoming_rules.play.observation import observe
from gnoming_rules.referee.validate import engine_moves, validate_record


def load(ruleset: str = "quick", players: int = 3, **more: int) -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, {"ruleset": ruleset, "players": players, **more})


@pytest.mark.parametrize(
    "ruleset", ["quick", "one-round-no-bounce", "four-card-golf", "cabo-like", "golf-6-house"]
)
def test_openspiels_random_simulation_test_passes(ruleset: str, tmp_path: Path) -> None:
    if ruleset == "one-round-no-bounce":
        path = tmp_path / "variant.yaml"
        path.write_text("extends: no-bounce\nrounds: 1\nhazard: {flips: next}\n")
        ruleset = str(path)
    pyspiel.random_sim_test(load(ruleset), num_sims=1, serialize=True, verbose=False)


def sample(state: pyspiel.State, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(actions, probabilities)[0])
    return int(rng.choice(state.legal_actions()))


def test_a_random_playthrough_agrees_with_the_referee_move_for_move() -> None:
    game = load("big-grid", 4, first_player=2)  # 4x4 layouts: draw piles run out
    rules = gr.load_ruleset("big-grid")
    rng = random.Random(8)
    state = game.new_initial_state()
    seen: list[tuple[gr.PlayerMove, gr.State]] = []  # each player move, the state after it
    deals: list[list[gr.Face]] = []
    while not state.is_terminal():
        action = sample(state, rng)
        player = state.current_player()
        if state.is_chance_node() and state.referee_state.phase is gr.Phase.DEAL:
            if not deals or len(deals[-1]) == len(rules.compiled.deck):
                deals.append([])
            deals[-1].append(game.tables.faces[action])
        state.apply_action(action)
        if player >= 0:
            seen.append((game.tables.space.move(player, action), state.referee_state))
    record = to_record(state)
    verdict = validate_record(record)
    assert verdict.valid and verdict.complete
    assert list(verdict.totals) == [-r for r in state.returns()]
    assert [list(round_.deal) for round_ in record.rounds] == deals
    referee = gr.new_game(rules, 4, 2)
    reshuffles = 0
    replayed: list[tuple[gr.PlayerMove, gr.State]] = []
    for deal, moves in zip(deals, engine_moves(record), strict=True):
        referee = gr.apply(rules, referee, gr.Deal(tuple(deal)))
        for move in moves:
            referee = gr.apply(rules, referee, move)
            if isinstance(move, gr.Deal | gr.Reshuffle):
                reshuffles += 1
            else:
                replayed.append((move, referee))
    assert replayed == seen
    assert reshuffles
    assert referee == state.referee_state


def test_chance_deals_one_card_at_a_time_by_face() -> None:
    game = load("standard", 4)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    faces = game.tables.faces
    assert len(outcomes) == len(faces) == game.max_chance_outcomes() == 19
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict(outcomes)[faces.index(gr.HAZARD)] == pytest.approx(3 / 110)
    for _ in range(109):
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0
    assert state.legal_actions() == list(range(9))  # seat 0 reveals


def openspiels_answers(state: pyspiel.State, players: int) -> list[object]:
    """What OpenSpiel's own C++ methods say of ``state`` (the base class's, which ask the
    state's ``current_player``, ``is_terminal`` and ``_legal_actions``)."""
    base = pyspiel.State
    return [
        base.is_chance_node(state),
        base.is_player_node(state),
        base.legal_actions(state),
        *(base.legal_actions(state, seat) for seat in range(players)),
        *(base.legal_actions_mask(state, seat) for seat in range(players)),
    ]


def the_games_answers(state: pyspiel.State, players: int) -> list[object]:
    return [
        state.is_chance_node(),
        state.is_player_node(),
        state.legal_actions(),
        *(state.legal_actions(seat) for seat in range(players)),
        *(state.legal_actions_mask(seat) for seat in range(players)),
    ]


@pytest.mark.parametrize(("ruleset", "players"), [("quick", 3), ("big-grid", 4)])
def test_the_states_own_answers_are_openspiels_at_every_step(ruleset: str, players: int) -> None:
    """``is_chance_node``, ``is_player_node`` and ``legal_actions``, answered by the state
    itself (with the legal actions kept per referee state), say what OpenSpiel's C++
    path says at every node of random games, never an earlier state's answer: asked again
    after each action, after a clone steps on, and on the clone."""
    game = load(ruleset, players)
    space = game.tables.space
    rng = random.Random(11)
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            answers = the_games_answers(state, players)
            assert answers == openspiels_answers(state, players)
            if state.is_chance_node():  # each face still to come, by its copies left
                left, total = state._progress.left, state._progress.to_deal
                expected = [(face, n / total) for face, n in enumerate(left) if n]
                assert state.chance_outcomes() == expected
            if state.is_player_node():
                player = state.current_player()
                assert state.legal_actions() == list(space.legal_actions(state.referee_state))
                twin = state.clone()
                twin.apply_action(sample(twin, rng))
                assert the_games_answers(state, players) == answers  # the twin's step
                assert the_games_answers(twin, players) == openspiels_answers(twin, players)
                assert state.legal_actions(player) == answers[2]
            if state.is_terminal():
                break
            state.apply_action(sample(state, rng))
        assert state.legal_actions() == [] and not state.is_player_node()


def test_observations_are_the_seats_view_and_information_states_hide_others_draws() -> None:
    game = load("quick", 3)
    rng = random.Random(2)
    state = game.new_initial_state()
    encoder = Encoder(game.tables.ruleset, 3)
    while state.is_chance_node() or state.referee_state.phase is not gr.Phase.DRAW:
        state.apply_action(sample(state, rng))
    drawer = state.current_player()
    state.apply_action(game.tables.space.draw)  # from the draw pile: the card is private
    held = face_text(state.referee_state.held)
    for seat in range(3):
        view = observe(state.referee_state, seat)
        tensor = np.array(state.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(tensor, encoder.encode(view))
        info = state.information_state_string(seat)
        last = [line for line in info.splitlines() if line.startswith(f"seat {drawer} draw")][-1]
        assert last == f"seat {drawer} draw draw pile" + (f": {held}" if seat == drawer else "")
        assert len(state.information_state_tensor(seat)) == encoder.size + len(encoder.faces) + 1
    assert state.information_state_string(0) != state.information_state_string(1)
    assert state.observation_string(drawer).count(f"held {held}") == 1
    other = (drawer + 1) % 3
    assert "held hidden" in state.observation_string(other)


def test_the_move_limit_ends_the_game_with_the_finished_rounds_totals() -> None:
    game = load("standard", 3, move_limit=30)
    assert game.max_game_length() == 30
    state = game.new_initial_state()
    rng = random.Random(1)
    moves = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            moves += 1
        state.apply_action(sample(state, rng))
    assert moves == 30 and not state.referee_state.is_over
    assert state.returns() == [0.0, 0.0, 0.0]  # no round finished in 30 moves


def test_a_clone_is_independent_and_serialization_round_trips() -> None:
    game = load("quick", 3)
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(150):
        state.apply_action(sample(state, rng))
    twin = state.clone()
    assert isinstance(twin, GnomingState)
    assert str(twin) == str(state) and twin.history() == state.history()
    twin.apply_action(sample(twin, rng))
    assert twin.history() != state.history()
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(state)
    assert restored.information_state_string(1) == state.information_state_string(1)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(gr.GnomingError, match="bad-setup"):
        load("standard", 9)
    with pytest.raises(gr.RulesetError):
        load("no-such-ruleset")
    assert openspiel_game.GAME_NAME in [game.short_name for game in pyspiel.registered_games()]
