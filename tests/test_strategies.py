"""The strategies of ``gnoming_rules.testing`` give what they promise."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import deck_of
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import (
    GameSetup,
    PlayedGame,
    RecordedGame,
    candidate_moves,
    deals,
    game_setups,
    invalid_rulesets,
    layouts,
    moves_to_try,
    played_games,
    record_texts,
    recorded_games,
    records,
    ruleset_overrides,
    rulesets,
    variant,
)

import gnoming_rules as gr
from gnoming_rules.formats import Record, parse_record
from gnoming_rules.formats.record import RecordFormat
from gnoming_rules.referee import validate_record


@given(ruleset_overrides())
def test_overrides_extend_the_standard_and_load(overrides: dict[str, object]) -> None:
    assert overrides["extends"] == "standard"
    ruleset = gr.load_ruleset(overrides)
    needed = ruleset.players.max * ruleset.slots + ruleset.discard.piles + ruleset.deck.hazards
    assert ruleset.deck.size >= needed
    assert 2 <= ruleset.layout.rows <= 5 and 2 <= ruleset.layout.cols <= 5
    assert ruleset.players.min >= 2


@given(invalid_rulesets())
def test_invalid_rulesets_are_refused_naming_the_field(case: tuple[dict[str, object], str]) -> None:
    mapping, field = case
    with pytest.raises(gr.RulesetError) as refused:
        gr.load_ruleset(mapping)
    assert refused.value.code == "bad-ruleset"
    assert field in refused.value.message
    assert "\n" not in refused.value.message


@given(game_setups())
def test_setups_seat_a_table_the_ruleset_allows(setup: GameSetup) -> None:
    rules = setup.ruleset
    assert rules.players.min <= setup.players <= rules.players.max
    assert 0 <= setup.first_player < setup.players
    assert setup.new_game().phase is gr.Phase.DEAL


@given(st.data())
def test_deals_are_shuffles_of_the_whole_deck(data: st.DataObject) -> None:
    ruleset = data.draw(rulesets())
    deal = data.draw(deals(ruleset))
    assert Counter(deal.cards) == deck_of(ruleset)
    state = gr.apply(ruleset, gr.new_game(ruleset, ruleset.players.min), deal)
    after_deal = (gr.Phase.REVEAL, gr.Phase.PEEK, gr.Phase.DRAW, gr.Phase.DEAL, gr.Phase.OVER)
    assert state.phase in after_deal  # PEEK: the setup peeks of rule 11.2


@given(st.data())
def test_layouts_fill_the_grid_with_cards_of_the_deck(data: st.DataObject) -> None:
    ruleset = data.draw(rulesets())
    layout = data.draw(layouts(ruleset))
    assert len(layout) == ruleset.slots
    assert not Counter(layout) - deck_of(ruleset)


@given(played_games())
def test_played_games_are_legal_replays(game: PlayedGame) -> None:
    assert len(game.states) == len(game.moves) + 1
    assert game.states[0] == game.setup.new_game()
    state = game.states[0]
    for move, recorded in zip(game.moves, game.states[1:], strict=True):
        state = gr.apply(game.ruleset, state, move)
        assert state == recorded
    assert game.complete == game.final.is_over


@given(played_games(complete=True))
def test_complete_games_end(game: PlayedGame) -> None:
    assert game.final.is_over
    rounds = len(game.final.scores)
    end = game.ruleset.game.end_score  # rule 10.8 may end the game sooner
    assert rounds == game.ruleset.rounds or (end is not None and max(game.final.totals) >= end)


@given(played_games(complete=False))
def test_partial_games_stop_before_the_end(game: PlayedGame) -> None:
    assert not game.final.is_over
    assert game.prefix(len(game.moves)) == game


@given(played_games(complete=False))
def test_candidates_include_every_legal_move(game: PlayedGame) -> None:
    candidates = candidate_moves(game.ruleset, game.final)
    for move in gr.legal_moves(game.ruleset, game.final):
        assert any(type(c) is type(move) and repr(c) == repr(move) for c in candidates)


@given(st.data())
def test_moves_to_try_are_candidates(data: st.DataObject) -> None:
    game = data.draw(played_games(complete=False))
    move = data.draw(moves_to_try(game.ruleset, game.final))
    assert any(repr(move) == repr(c) for c in candidate_moves(game.ruleset, game.final))


@given(rulesets())
def test_variant_changes_only_what_it_patches(ruleset: gr.Ruleset) -> None:
    rows, cols = ruleset.layout.rows, ruleset.layout.cols
    turned = variant(ruleset, {"layout": {"rows": cols, "cols": rows}})
    assert (turned.layout.rows, turned.layout.cols) == (cols, rows)
    assert variant(turned, {"layout": {"rows": rows, "cols": cols}}).sha256 == ruleset.sha256


def claims_of(record: Record) -> tuple[bool, bool, bool]:
    """Whether the record claims any card, any round's scores, the result."""
    cards = any("card" in move for round_ in record.rounds for move in round_.moves)
    scores = any(round_.scores is not None for round_ in record.rounds)
    return cards, scores, record.result is not None


@given(recorded_games())
def test_recorded_games_are_valid_records_of_their_games(recorded: RecordedGame) -> None:
    game, record = recorded.game, recorded.record
    verdict = validate_record(record)
    assert verdict.valid and verdict.complete == game.complete
    assert verdict.scores == game.final.scores
    assert len(record.players) == game.setup.players
    assert record.first_player == game.setup.first_player
    assert record.ruleset_sha256 == game.ruleset.sha256
    deals = [move for move in game.moves if isinstance(move, gr.Deal)]
    assert [list(deal.cards) for deal in deals] == [round_.deal for round_ in record.rounds]
    assert sum(len(round_.moves) for round_ in record.rounds) == len(game.moves) - len(deals)
    cards, scores, result = claims_of(record)
    if not recorded.claims:
        assert not (cards or scores or result)
    else:
        assert scores == bool(game.final.scores) and result == game.complete


@given(records(complete=True, claims=True))
def test_complete_records_with_claims_claim_every_score_and_the_result(record: Record) -> None:
    assert all(round_.scores is not None for round_ in record.rounds)
    verdict = validate_record(record)
    assert verdict.complete and record.result is not None
    assert tuple(record.result.totals or ()) == verdict.totals


@settings(max_examples=max(4, settings().max_examples // 4))  # YAML is read slowly
@given(record_texts(records(complete=False, claims=False)))
def test_record_texts_read_back_as_partial_records_without_claims(
    written: tuple[str, RecordFormat],
) -> None:
    text, fmt = written
    record = parse_record(text, format=fmt)
    assert isinstance(record, Record)
    assert not any(claims_of(record))
    verdict = validate_record(record)
    assert verdict.valid and not verdict.complete
