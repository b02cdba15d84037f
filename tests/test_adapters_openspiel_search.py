"""OpenSpiel's own algorithms on the game: ISMCTS and MCTS play whole games, the world
resampler keeps the information state, observers honour the observation type, chance
refuses what it does not offer, and a generated playthrough replays exactly."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from absl import flags
from golden_cases import PLAYTHROUGH
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts
from open_spiel.python.observation import _Observation, make_observation

import gnoming_rules as gr
from gnoming_rules.adapters.encoding import Encoder
from gnoming_rules.adapters.openspiel_game import GAME_NAME, GnomingState, to_record
from gnoming_rules.core.cards import face_text
from gnoming_rules.play.observation import observe
from gnoming_rules.play.worlds import hidden_places, unseen
from gnoming_rules.referee.validate import validate_record

ROOT = Path(__file__).resolve().parent.parent


def load(ruleset: str = "quick", players: int = 3, **more: int) -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, {"ruleset": ruleset, "players": players, **more})


def sample(state: pyspiel.State, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(actions, probabilities)[0])
    return int(rng.choice(state.legal_actions()))


def sampler(seed: int) -> pyspiel.UniformProbabilitySampler:
    return pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)


def decision_states(game: pyspiel.Game, seed: int, every: int) -> list[GnomingState]:
    """Every ``every``-th player decision of a random game, cloned."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found: list[GnomingState] = []
    moves = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            moves += 1
            if moves % every == 0:
                found.append(state.clone())
        state.apply_action(sample(state, rng))
    return found


# -- resample_from_infostate ------------------------------------------------------------


def pile_and_hidden_held(state: GnomingState, seat: int) -> Counter[gr.Face]:
    """The draw pile's cards, and the held card when ``seat`` cannot see it."""
    referee = state.referee_state
    cards = Counter(referee.draw_pile)
    if observe(referee, seat).held_hidden and referee.held is not None:
        cards[referee.held] += 1
    return cards


def test_resampling_keeps_every_information_state_of_the_seat() -> None:
    game = load("big-grid", 4)  # 4x4 layouts: the draw pile runs out and is reshuffled
    states = decision_states(game, seed=3, every=9)
    reshuffled = [s for s in states if s._progress.reshuffled]
    assert states and reshuffled  # the test reaches worlds after a reshuffle
    changed = 0
    for index, state in enumerate(states):
        for seat in range(4):
            world = state.resample_from_infostate(seat, sampler(index * 4 + seat))
            assert isinstance(world, GnomingState)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert world.observation_string(seat) == state.observation_string(seat)
            assert world.current_player() == state.current_player()
            assert world.legal_actions() == state.legal_actions() or seat != state.current_player()
            changed += world.referee_state != state.referee_state
            if state._progress.reshuffled:  # a reshuffle's cards stay in the draw pile
                assert pile_and_hidden_held(world, seat) == pile_and_hidden_held(state, seat)
    assert changed > len(states)  # the hidden cards do move


def test_a_resampled_world_has_its_own_history_which_replays_as_a_valid_record() -> None:
    game = load("quick", 3)
    state = decision_states(game, seed=4, every=40)[1]
    world = state.resample_from_infostate(0, sampler(1))
    assert world.history() != state.history()
    assert validate_record(to_record(world)).valid
    while not world.is_terminal():  # and the game goes on from there
        world.apply_action(sample(world, random.Random(2)))


def test_resampled_hidden_cards_spread_as_the_deck_allows() -> None:
    game = load("quick", 3)
    state = decision_states(game, seed=6, every=10)[2]
    seat = state.current_player()
    view = observe(state.referee_state, seat)
    places = hidden_places(view)
    other = (seat + 1) % 3
    slot = next(p.at for p in places if p.kind == "slot" and p.seat == other)
    expected = Counter(unseen(game.tables.ruleset, view))
    total = sum(expected.values())
    draws = 1500
    seen = Counter(
        state.resample_from_infostate(seat, sampler(n)).referee_state.cards[other][slot]
        for n in range(draws)
    )
    assert set(seen) <= set(expected)
    for face, count in expected.items():  # each face about as often as its copies unseen
        mean = draws * count / total
        assert abs(seen[face] - mean) <= 5 * (mean * (1 - count / total)) ** 0.5 + 2, face


def test_resampling_refuses_a_seat_not_at_the_table_and_a_deal_under_way() -> None:
    game = load("quick", 3)
    state = decision_states(game, seed=1, every=5)[0]
    with pytest.raises(gr.UsageError, match="bad-seat"):
        state.resample_from_infostate(3, sampler(0))
    dealing = game.new_initial_state()
    dealing.apply_action(dealing.chance_outcomes()[0][0])
    with pytest.raises(gr.UsageError, match="hidden-card"):
        dealing.resample_from_infostate(0, sampler(0))


# -- observers ---------------------------------------------------------------------------


def observer(
    game: pyspiel.Game, public: bool, private: pyspiel.PrivateInfoType, recall: bool = False
) -> _Observation:
    kind = pyspiel.IIGObservationType(
        public_info=public, private_info=private, perfect_recall=recall
    )
    return make_observation(game, kind)


def test_observers_honour_public_private_and_perfect_recall() -> None:
    game = load("quick", 3)
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance_node() or state.referee_state.phase is not gr.Phase.DRAW:
        state.apply_action(sample(state, rng))
    drawer = state.current_player()
    state.apply_action(game.tables.space.draw)  # the drawn card: the drawer's private info
    held = face_text(state.referee_state.held)
    none, single = pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER
    public = observer(game, True, none)
    private = observer(game, False, single)
    both = observer(game, True, single)
    public_recall = observer(game, True, none, recall=True)
    spectator = state._progress.state
    encoder = Encoder(game.tables.ruleset, 3)
    for seat in range(3):
        text = public.string_from(state, seat)
        assert text.startswith("spectator,") and "held hidden" in text
        assert text == public.string_from(state, 0)  # the same for every seat
        public.set_from(state, seat)
        assert np.array_equal(public.tensor, encoder.encode(replace(observe(spectator), seat=0)))
        assert both.string_from(state, seat) == state.observation_string(seat)
        mine = private.string_from(state, seat)
        private.set_from(state, seat)
        if seat == drawer:
            assert mine == f"seat {seat} holds {held}" and private.tensor.sum() == 1
        else:
            assert mine == f"seat {seat} holds nothing unseen by the table"
            assert private.tensor.sum() == 0
        recall = public_recall.string_from(state, seat)
        assert recall.endswith(text) and f"seat {drawer} draw draw pile\n" in recall
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        observer(game, True, pyspiel.PrivateInfoType.ALL_PLAYERS)


# -- chance outcomes and finished games -------------------------------------------------


def test_a_chance_node_refuses_any_outcome_it_does_not_offer() -> None:
    game = load("standard", 3)
    state = game.new_initial_state()
    faces = len(game.tables.faces)
    with pytest.raises(pyspiel.SpielError, match="kInvalidAction"):
        state.apply_action(-1)  # OpenSpiel's own "invalid action", refused before the game
    for bad in (-2, faces, faces + 5):
        with pytest.raises(gr.UsageError, match=f"bad-action: chance outcome {bad} is not a face"):
            state.apply_action(bad)
    hazard = game.tables.faces.index(gr.HAZARD)
    for _ in range(3):  # the standard deck's three hazards
        state.apply_action(hazard)
    assert hazard not in dict(state.chance_outcomes())
    with pytest.raises(gr.UsageError, match=r"no copy of .* is left to deal"):
        state.apply_action(hazard)
    assert all(p > 0 for _, p in state.chance_outcomes())
    assert len(state.history()) == 3  # the refusals left no trace


def test_a_finished_game_refuses_actions_without_naming_a_seat() -> None:
    game = load("quick", 3)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(sample(state, rng))
    with pytest.raises(gr.UsageError, match="no-player-to-move: the game is over") as caught:
        state.apply_action(0)
    assert "seat -" not in str(caught.value)


# -- OpenSpiel's own search bots ---------------------------------------------------------


def play_out(
    game: pyspiel.Game, seat: int, decide: Callable[[GnomingState], int], rng: random.Random
) -> tuple[GnomingState, int]:
    """A whole game in which ``decide`` chooses every action of ``seat`` (each checked to be
    legal) and the chance nodes and other seats play at random; the final state and how
    many decisions ``decide`` made."""
    state = game.new_initial_state()
    decided = 0
    while not state.is_terminal():
        if not state.is_chance_node() and state.current_player() == seat:
            action = decide(state)
            assert action in state.legal_actions()
            decided += 1
        else:
            action = sample(state, rng)
        state.apply_action(action)
    return state, decided


def test_openspiels_ismcts_bot_plays_whole_games_with_the_resampler() -> None:
    game = load("quick", 3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1))
    state, searched = play_out(game, 0, bot.step, random.Random(9))
    assert searched > 20 and state.referee_state.is_over
    assert validate_record(to_record(state)).valid


def test_openspiels_mcts_bot_plays_a_whole_game_on_resampled_worlds() -> None:
    """MCTS searches a perfect-information tree: it is handed a world resampled from the
    seat's information state, so it never sees the real hidden cards."""
    game = load("quick", 3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(2))
    decisions = 0

    def on_a_resampled_world(state: GnomingState) -> int:
        nonlocal decisions
        decisions += 1
        return int(bot.step(state.resample_from_infostate(1, sampler(decisions - 1))))

    state, searched = play_out(game, 1, on_a_resampled_world, random.Random(10))
    assert searched > 20 and state.referee_state.is_over


# -- the generated playthrough -----------------------------------------------------------


def test_the_generated_playthrough_replays_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the game string names the ruleset from the repository's root
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()  # generate_playthrough reads an absl flag
    original, replayed = generate_playthrough.replay(str(PLAYTHROUGH))
    assert original == replayed, "regenerate with make golden only if the change is intended"
    assert "IsTerminal() = True" in original
