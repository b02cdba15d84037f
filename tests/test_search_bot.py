"""The search bot, the worlds it samples and the playouts it runs: only what the seat
sees, whole legal games, repeatable for a seed, and reachable by name from the bot
registry and the CLI. How strong it is: benchmarks/bots.py (docs/decisions.md)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import gnoming_rules as gr
from gnoming_rules.formats import parse_record
from gnoming_rules.play import observe
from gnoming_rules.play.bots import BOTS, make_bot, play_game
from gnoming_rules.play.search import SearchBot
from gnoming_rules.play.worlds import hidden_places, sample_world, unseen
from gnoming_rules.referee import validate_record


def dealt(players: int = 3, seed: int = 1, moves: int = 12) -> tuple[gr.Ruleset, gr.State]:
    """A standard game at the first draw at least ``moves`` random player moves after its
    deal (a choice of several moves)."""
    rules = gr.load_ruleset("standard")
    rng = random.Random(seed)
    state = gr.new_game(rules, players)
    for _ in range(10_000):
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
        elif moves > 0 or state.phase is not gr.Phase.DRAW:
            state = gr.apply(rules, state, rng.choice(gr.legal_moves(rules, state)))
            moves -= 1
        else:
            break
    return rules, state


# -- worlds -------------------------------------------------------------------------------


@pytest.mark.parametrize("moves", [0, 7, 30])
def test_a_sampled_world_shows_the_seat_what_it_saw(moves: int) -> None:
    rules, state = dealt(moves=moves)
    for seat in (None, 0, 1, 2):
        view = observe(state, seat)
        places = hidden_places(view)
        assert len(places) == len(unseen(rules, view))
        world = sample_world(rules, view, random.Random(seat))
        assert observe(world, seat) == view
        assert Counter(c for layout in world.cards for c in layout) + Counter(
            world.draw_pile
        ) + Counter(c for pile in world.discard_piles for c in pile) + Counter(
            world.removed
        ) + Counter([] if world.held is None else [world.held]) == Counter(rules.compiled.deck)


def test_sampled_worlds_spread_the_unseen_cards_uniformly() -> None:
    rules, state = dealt(moves=4)
    view = observe(state, 0)
    expected = Counter(unseen(rules, view))
    total = sum(expected.values())
    rng = random.Random(5)
    draws = 3000
    seen = Counter(sample_world(rules, view, rng).draw_pile[0] for _ in range(draws))
    for face, count in expected.items():
        mean = draws * count / total
        assert abs(seen[face] - mean) <= 5 * (mean * (1 - count / total)) ** 0.5 + 2, face
    assert set(seen) <= set(expected)


def test_an_observation_of_another_deck_is_refused() -> None:
    _, state = dealt()
    tiny = gr.load_ruleset("examples/tiny.yaml")
    with pytest.raises(gr.UsageError, match="bad-observation"):
        sample_world(tiny, observe(state, 0), random.Random(1))


# -- the search bot -----------------------------------------------------------------------


def test_search_bots_play_whole_games_whose_records_validate() -> None:
    rules = gr.load_ruleset("quick")
    searcher = SearchBot(seed=3, simulations=20)
    record, final = play_game(rules, 3, seed=4, agents={1: searcher})
    assert final.is_over and validate_record(record).valid
    assert searcher.last_simulations == 0 or searcher.last_simulations >= 20


def test_the_same_seed_makes_the_same_choices() -> None:
    rules = gr.load_ruleset("quick")
    games = [
        play_game(rules, 3, seed=8, agents={0: SearchBot(seed=2, simulations=15)})[0]
        for _ in range(2)
    ]
    assert games[0] == games[1]
    other = play_game(rules, 3, seed=8, agents={0: SearchBot(seed=3, simulations=15)})[0]
    assert other != games[0]  # another seed searches other worlds


def test_a_search_decides_among_the_legal_moves_from_the_observation_alone() -> None:
    rules, state = dealt(moves=20)
    seat = state.to_move
    view = observe(state, seat)
    twin = sample_world(rules, view, random.Random(9))  # the same view, other hidden cards
    assert twin != state and observe(twin, seat) == view
    first = SearchBot(seed=4, simulations=40).choose(rules, view)
    second = SearchBot(seed=4, simulations=40).choose(rules, observe(twin, seat))
    assert first == second and first in gr.legal_moves(rules, state)


def test_a_time_budget_runs_at_least_one_simulation() -> None:
    rules, state = dealt(moves=20)
    bot = SearchBot(seed=1, simulations=None, milliseconds=0.001)
    move = bot.choose(rules, observe(state, state.to_move))
    assert move in gr.legal_moves(rules, state) and bot.last_simulations >= 1


@pytest.mark.parametrize(
    "budget",
    [{"simulations": None}, {"simulations": 0}, {"milliseconds": -1.0}],
    ids=["none", "zero simulations", "negative time"],
)
def test_a_search_bot_needs_a_positive_budget(budget: dict[str, float | None]) -> None:
    with pytest.raises(gr.UsageError, match="bad-setup"):
        SearchBot(seed=1, **budget)  # type: ignore[arg-type]


def test_the_registry_names_every_bot_and_the_cli_offers_them() -> None:
    from gnoming_rules.play.bot_spec import parse_bot  # gnoming impact/tournament/serve's

    assert set(BOTS) == {"random", "greedy", "search", "ismcts"}
    assert all(parse_bot(name).builtin == name for name in BOTS)
    assert isinstance(make_bot("search", random.Random(1)), SearchBot)
    with pytest.raises(ValueError, match="random, greedy, search, ismcts"):
        make_bot("clever", random.Random(1))


def test_gnoming_play_and_impact_take_the_search_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gnoming_rules.cli import main

    out = tmp_path / "game.json"
    assert main(["play", "--players", "2", "--seed", "2", "--ruleset", "examples/tiny.yaml",
                 "--bot", "search", "--out", str(out)]) == 0  # fmt: skip
    assert validate_record(parse_record(out.read_bytes())).valid
    assert "search bots" in capsys.readouterr().out
    tiny = "examples/tiny.yaml"
    code = main(["impact", tiny, tiny, "--games", "2", "--players", "2",
                 "--bots", "search,greedy", "--jobs", "1"])  # fmt: skip
    assert code == 0


# -- the playout model --------------------------------------------------------------------


def test_the_playouts_fast_gain_is_the_general_gain() -> None:
    """Under plain sets the playouts' inlined best play is the general one, slot for slot."""
    from gnoming_rules.play.playout import Playout

    model = Playout(gr.load_ruleset("standard"))
    rng = random.Random(4)
    faces: list[gr.Face] = [5, 5, 5, 7, 7, 3, "M", "H", -2, 12]
    for _ in range(3000):
        layout = [rng.choice(faces) for _ in range(9)]
        up = rng.getrandbits(9) | rng.getrandbits(9)
        card = rng.choice([*faces, -1])
        fast = model.best_play(layout, up, card, 4.5)
        model.plain = False
        general = model.best_play(layout, up, card, 4.5)
        model.plain = True
        assert fast == pytest.approx(general), (layout, bin(up), card)


@pytest.mark.parametrize(
    "name", ["standard", "quick", "golf-9", "end-on-empty-deck", "one-pile", "big-grid"]
)
def test_playouts_end_the_round_with_a_score_for_every_seat(name: str) -> None:
    from gnoming_rules.play.playout import Playout

    rules = gr.load_ruleset(name)
    model = Playout(rules)
    players = min(3, rules.compiled.max_players)
    rng = random.Random(2)
    state = gr.new_game(rules, players)
    runs = 0
    while not state.is_over and runs < 40:
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
            continue
        if state.phase is not gr.Phase.REVEAL:
            scores = model.run(state, 4.0, random.Random(runs))
            assert scores == model.run(state, 4.0, random.Random(runs))  # seeded: repeatable
            assert len(scores) == players and all(type(score) is int for score in scores)
            runs += 1
        state = gr.apply(rules, state, rng.choice(gr.legal_moves(rules, state)))
    assert runs == 40 or state.is_over
