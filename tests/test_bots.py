"""Bots: only legal moves, whole games, and a greedy bot that keeps cards that lower its score."""

from __future__ import annotations

import random
import statistics
from itertools import permutations
from typing import Any

import pytest
from builders import M, Slots, deck_patch, start_game, variant
from hypothesis import event, given
from hypothesis import strategies as st
from strategies import GameSetup, game_setups, move_cap, ruleset_overrides, rulesets

import gnoming_rules as gr
from gnoming_rules.core.state import below_tops
from gnoming_rules.play import bots, observe
from gnoming_rules.play.bots import GreedyBot, RandomBot, average_card, estimate, play_game


def test_the_estimate_counts_face_down_cards_at_the_average_and_out_of_sets() -> None:
    rules = gr.load_ruleset("standard")
    row_set: list[gr.Face | None] = [5, 5, 5, 1, 2, 3, 4, 6, 7]
    assert estimate(rules, row_set) == gr.score_layout(rules, [5, 5, 5, 1, 2, 3, 4, 6, 7])
    hidden_third = [5, 5, None, 1, 2, 3, 4, 6, 7]  # slot 2 face down: row 0 is no set
    assert estimate(rules, hidden_third) == pytest.approx(
        5 + 5 + average_card(rules) + 1 + 2 + 3 + 4 + 6 + 7
    )
    assert average_card(rules) == pytest.approx((385 + 138 - 50 + 30) / 110)


@pytest.mark.parametrize("players", range(3, 8))
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_finish_games_whose_records_validate(players: int, bot: str) -> None:
    rules = gr.load_ruleset("standard")
    for seed in range(4):
        record, state = play_game(rules, players, seed=seed, bot=bot)  # type: ignore[arg-type]
        assert state.is_over and len(record.rounds) == rules.rounds
        assert record.result is not None and record.result.totals == list(state.totals)


def test_greedy_bots_score_lower_than_random_ones() -> None:
    rules = gr.load_ruleset("standard")

    def mean_total(bot: str) -> float:
        totals: list[int] = []
        for seed in range(12):
            _, state = play_game(rules, 4, seed=seed, bot=bot)  # type: ignore[arg-type]
            totals += state.totals
        return float(statistics.mean(totals))

    assert mean_total("greedy") < mean_total("random") - 10


def test_a_greedy_play_never_raises_the_estimate() -> None:
    rules = gr.load_ruleset("standard")
    rng = random.Random(3)
    bot = GreedyBot(random.Random(4))
    state = gr.new_game(rules, 4)
    checked = 0
    while not state.is_over and checked < 400:
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
            continue
        move = bot.choose(rules, observe(state, state.to_move))
        assert move in gr.legal_moves(rules, state)
        if isinstance(move, gr.Place | gr.Bounce) and any(
            isinstance(option, gr.Discard) for option in gr.legal_moves(rules, state)
        ):
            seat = state.turn
            before = estimate(rules, state.visible_layout(seat), unknown=bot._unknown)
            after_state = gr.apply(rules, state, move)
            after = estimate(rules, after_state.visible_layout(seat), unknown=bot._unknown)
            assert after < before
            checked += 1
        state = gr.apply(rules, state, move)
    assert checked > 20


def test_the_same_seed_plays_the_same_game() -> None:
    rules = gr.load_ruleset("standard")
    first, _ = play_game(rules, 5, seed=77, bot="random")
    second, _ = play_game(rules, 5, seed=77, bot="random")
    assert first == second
    assert play_game(rules, 5, seed=78, bot="random")[0] != first


def test_a_random_bot_picks_among_legal_moves() -> None:
    rules = gr.load_ruleset("standard")
    state = gr.new_game(rules, 3)
    state = gr.apply(rules, state, gr.sample_chance(rules, state, random.Random(1)))
    seen = observe(state, state.to_move)
    assert RandomBot(random.Random(2)).choose(rules, seen) in gr.legal_moves(rules, state)


# --- every game ends (the greedy bot once handed a mulligan back and forth for ever) --------


def test_the_greedy_bot_values_only_the_plays_the_engine_allows() -> None:
    """A mulligan on a discard pile is worth taking into a face-down slot, but not when the
    layout already shows a mulligan: then RULES 7.2 lets it replace only that one."""
    rules = gr.load_ruleset("standard")
    shown = start_game(rules, layouts={0: [M, 3, None, None, None, None, None, None, None]},
                       discards=[M, 9])  # fmt: skip
    assert shown.actor == 0 and shown.discard_piles[0] == (M,)
    assert GreedyBot(random.Random(0)).choose(rules, observe(shown, 0)) == gr.Draw(0)
    hidden = start_game(rules, layouts={0: [2, 3, M, None, None, None, None, None, None]},
                        discards=[M, 9])  # fmt: skip
    assert GreedyBot(random.Random(0)).choose(rules, observe(hidden, 0)) == gr.Draw(0, 0)


@pytest.mark.parametrize(
    ("patch", "players", "seeds"),
    [
        ({"deck": {"mulligans": 15}}, 3, range(1, 7)),
        ({"layout": {"rows": 5, "cols": 5}, "players": {"min": 2, "max": 3}}, 2, range(1, 4)),
    ],
)
def test_greedy_games_end_where_they_used_to_loop(
    patch: dict[str, object], players: int, seeds: range
) -> None:
    rules = variant(**patch)
    for seed in seeds:
        record, state = play_game(rules, players, seed=seed)
        assert state.is_over and len(record.rounds) == rules.rounds


def test_a_stuck_game_names_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "MOVE_LIMIT", 30)
    with pytest.raises(gr.GnomingError) as stuck:
        play_game(gr.load_ruleset("standard"), 3, seed=41)
    assert stuck.value.code == "bot-stuck"
    assert stuck.value.message.startswith("seed 41: the game did not end within 30 moves")


@st.composite
def crowded_overrides(draw: st.DrawFn) -> dict[str, Any]:
    """Variants of every kind, half of them with 6 to 20 more mulligans in the deck."""
    patch = draw(ruleset_overrides())
    if draw(st.booleans()):
        deck = patch.get("deck", {})
        more = draw(st.integers(6, 20))  # added: a smaller deck might not deal to the table
        patch["deck"] = {**deck, "mulligans": deck.get("mulligans", 3) + more}
        if patch.get("mulligan", {}).get("max_face_up") == 0:
            patch["discard"] = {"taken_must_be_played": False}
    return patch


def round_never_ends(rules: gr.Ruleset, state: gr.State, limit: int = 20_000) -> bool:
    """True when no legal moves (and no reshuffle order) from ``state`` end its round: the
    rules themselves allow an endless round there, whoever plays (docs/decisions.md).

    Searches every state reachable within the round; False as soon as one ends it, or
    when the search grows beyond ``limit`` states or a reshuffle has too many orders.
    """
    start = state.round
    seen = {state}
    todo = [state]
    while todo:
        current = todo.pop()
        if current.round != start:
            return False
        if current.phase is gr.Phase.RESHUFFLE:
            piles = current.discard_piles
            below = below_tops(piles)
            if len(below) > 7:
                return False
            nexts: list[gr.Move] = [gr.Reshuffle(order) for order in set(permutations(below))]
        else:
            nexts = list(gr.legal_moves(rules, current))
        for move in nexts:
            after = gr.apply(rules, current, move)
            if after not in seen:
                if len(seen) >= limit:
                    return False
                seen.add(after)
                todo.append(after)
    return True


def test_some_variants_allow_a_round_that_no_move_can_end() -> None:
    """Twenty cards for two seats: no draw pile, both discard tops mulligans, and each seat
    shows a mulligan, so the limit of 7.2 lets a taken mulligan only replace that one."""
    rules = variant(players={"min": 2, "max": 2}, deck=deck_patch({1: 16}, mulligans=4))
    layouts: dict[int, Slots] = {0: [M, *[1] * 8], 1: [M, *[1] * 8]}
    endless = start_game(rules, 2, layouts=layouts, discards=[M, M], reveals={0: [0, 1], 1: [0, 1]})
    assert endless.draw_pile == () and endless.actor == 0
    assert round_never_ends(rules, endless)
    layouts = {0: [M, *[1] * 8], 1: [1, M, *[1] * 7]}
    ending = start_game(rules, 2, layouts=layouts, discards=[M, M], reveals={0: [0, 1], 1: [0, 2]})
    assert not round_never_ends(rules, ending)  # seat 1 shows no mulligan: it may play one


@pytest.mark.parametrize("kind", ["greedy", "random"])
@given(setup=game_setups(rulesets(crowded_overrides())), seed=st.integers(0, 2**32 - 1))
def test_bots_finish_games_under_every_variant(
    kind: bots.BotKind, setup: GameSetup, seed: int
) -> None:
    """Every game of the library's bots ends, unless the rules allow no end at all.

    Some variants allow a round that no legal move can end (the draw pile spent, both
    discard tops mulligans that every seat may only swap for its own face-up one):
    there the game is checked to be one of those.
    """
    rules = setup.ruleset
    chance = random.Random(seed)
    bot = bots.make_bot(kind, random.Random(seed + 1))
    state = setup.new_game()
    for _ in range(move_cap(setup)):
        if state.is_over:
            return
        move = (
            gr.sample_chance(rules, state, chance)
            if state.is_chance
            else bot.choose(rules, observe(state, state.to_move))
        )
        state = gr.apply(rules, state, move)
    assert round_never_ends(rules, state), f"the {kind} bot loops in a round that could end"
    event("an endless round: the rules allow no end")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("greedy", ("greedy", None)),
        ("search", ("search", None)),
        ("search:400", ("search", 400)),
        ("ismcts:1", ("ismcts", 1)),
        (f"ismcts:{bots.MAX_BUDGET}", ("ismcts", bots.MAX_BUDGET)),
        ("search:0", None),
        (f"search:{bots.MAX_BUDGET + 1}", None),
        ("search:-5", None),
        ("search:1e3", None),
        ("search:", None),
        ("greedy:3", None),
        ("Search:10", None),
        ("alphazero", None),
    ],
)
def test_a_built_in_bot_is_named_alone_or_with_a_budget(
    text: str, found: tuple[str, int | None] | None
) -> None:
    assert bots.builtin_bot(text) == found
    if found is None:
        with pytest.raises(ValueError, match="unknown bot"):
            bots.make_bot(text, random.Random(0))


def test_a_budget_sets_the_planners_steps_and_the_default_budget_plays_as_the_name() -> None:
    assert bots.make_bot("ismcts:37", random.Random(0)).iterations == 37  # type: ignore[attr-defined]
    assert bots.make_bot("search:41", random.Random(0)).simulations == 41  # type: ignore[attr-defined]
    rules = gr.load_ruleset("standard")
    named = play_game(rules, 3, seed=3, bot="search", rounds=1)[0]
    budgeted = play_game(rules, 3, seed=3, bot="search:200", rounds=1)[0]  # type: ignore[arg-type]
    assert budgeted == named
    other = play_game(rules, 3, seed=3, bot="search:3", rounds=1)[0]  # type: ignore[arg-type]
    assert other != named
