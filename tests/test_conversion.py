"""Full records and their public form: the verdict on ``redact(full)``
agrees with the verdict on ``full`` as RECORD.md's last bullet says, over random games of
every bundled variant (and random variants), valid and broken by a rule.

Records under ``play.placed: down`` (rule 11.3: four-card-golf, cabo-like) convert too:
their public form names a card drawn from the deck only when it is discarded unplayed or
turned up at the round's end. The same rulesets with cards placed face up (peeks, powers
and knocks, rules 11.2, 11.4, 11.5) convert like any other."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from strategies import (
    PlayedGame,
    bundled_variants,
    candidate_moves,
    game_setups,
    played_games,
    record_game,
    removing_rulesets,
    rulesets,
    variant,
)

import gnoming_rules as gr
from gnoming_rules.core import move_from_entry
from gnoming_rules.core.entries import move_to_entry
from gnoming_rules.core.errors import INPUT_ERROR_CODES
from gnoming_rules.formats.record import PublicRecord, Record, dump_record, parse_record
from gnoming_rules.formats.rulesets import bundled_rulesets
from gnoming_rules.referee import validate_record
from gnoming_rules.referee.redact import redact
from gnoming_rules.referee.validate import Verdict, replay_record

PLACED_UP = [
    variant(gr.load_ruleset(name), {"play": {"placed": "up"}})
    for name in bundled_rulesets()
    if gr.load_ruleset(name).compiled.placed_down
]
"""The bundled rulesets of rule 11.3 with cards placed face up: setup peeks, powers and
knocking (rules 11.2, 11.4, 11.5) in records that have a public form."""

SOME_RULES = bundled_variants() | rulesets() | removing_rulesets() | st.sampled_from(PLACED_UP)
NOT_A_RULE = INPUT_ERROR_CODES | {
    "card-mismatch",
    "bad-reshuffle",
    "score-mismatch",
    "result-mismatch",
}
"""Refusals the conversion does not keep: the structure, the deal, a reshuffle's cards and
the claims (RECORD.md: only a record refused for a rule converts to one refused alike)."""

CONVERSIONS = settings(max_examples=max(10, settings().max_examples // 4))
"""A quarter of the profile's examples: each plays, writes, redacts and replays a game
twice (50 under ci, 1,250 under thorough)."""


def public_form(full: Record) -> PublicRecord:
    """``redact(full)``, written as text and read back, as ``gnoming redact`` hands it on."""
    public = redact(full)
    text = dump_record(public, "json")
    back = parse_record(text)
    assert back == public and isinstance(back, PublicRecord)
    assert json.loads(text)["information"] == "public"
    assert all("deal" not in round_ for round_ in json.loads(text)["rounds"])
    return back


def has_no_public_form(full: Record) -> bool:
    """False: every record has a public form, under ``play.placed: down`` too (rule 11.3,
    RECORD.md: a deck draw names no card there). Such records, drawn on purpose among the
    bundled rulesets, are counted as an event, and their public form names no card drawn
    from the deck."""
    rules = replay_record(full).ruleset
    if rules is not None and rules.compiled.placed_down:
        public = redact(full)
        for round_ in public.rounds:
            for move in round_.moves:
                if move["action"] == "draw" and move["source"] == "deck":
                    assert move.get("card") is None, move
        event("placed: down")
    return False


def same_game(full: Verdict, public: Verdict) -> None:
    assert public.information == "public" and full.information == "full"
    assert public.to_dict()["information"] == "public" and "information" not in full.to_dict()
    assert (public.valid, public.complete) == (full.valid, full.complete)
    assert (public.scores, public.totals, public.winners) == (
        full.scores,
        full.totals,
        full.winners,
    )


@CONVERSIONS
@given(played_games(game_setups(SOME_RULES)), st.booleans())
def test_a_valid_full_record_converts_to_a_valid_public_one(game: PlayedGame, claims: bool) -> None:
    full = record_game(game, claims=claims).record
    verdict = validate_record(full)
    assert verdict.valid
    if has_no_public_form(full):
        return
    same_game(verdict, validate_record(public_form(full)))
    event("complete" if verdict.complete else "stops early")


@st.composite
def broken_records(draw: st.DrawFn) -> Record:
    """A record of random play that then breaks a rule: a move the engine refuses at that
    point, a round after the game's last, or a round that stops unfinished and is
    followed by another."""
    game = draw(played_games(game_setups(SOME_RULES), complete=draw(st.booleans()) and None))
    data: dict[str, Any] = json.loads(
        dump_record(record_game(game, claims=draw(st.booleans())).record)
    )
    rules, state = game.ruleset, game.final
    how = draw(st.sampled_from(["move", "move", "move", "round"]))
    if how == "round" or state.phase is gr.Phase.DEAL:
        deal = gr.sample_chance(
            rules, gr.new_game(rules, game.setup.players), random.Random(draw(st.integers(0, 99)))
        )
        data["rounds"].append({"deal": list(deal.cards), "moves": []})
        data.pop("result", None)
    else:
        by_code: dict[str, list[dict[str, Any]]] = {}
        for move in candidate_moves(rules, state):
            found = None if isinstance(move, gr.Deal) else gr.explain(rules, state, move)
            entry = None if found is None or found.code in NOT_A_RULE else _entry_of(move)
            if found is not None and entry is not None:
                by_code.setdefault(found.code, []).append(entry)
        assume(by_code)
        code = draw(st.sampled_from(sorted(by_code)))  # every refusal as likely as another
        entry = draw(st.sampled_from(by_code[code]))
        data["rounds"][-1]["moves"].append(entry)
    record = parse_record(json.dumps(data))
    assert isinstance(record, Record)
    return record


def _entry_of(move: gr.Move) -> dict[str, Any] | None:
    """The record entry of a refused move, when a record can write it at all."""
    try:
        entry = move_to_entry(move)  # type: ignore[arg-type]
        move_from_entry(entry, players=7)
    except (gr.GnomingError, TypeError, ValueError):
        return None
    return entry


@CONVERSIONS
@given(broken_records())
def test_a_record_refused_for_a_rule_converts_to_one_refused_alike(full: Record) -> None:
    verdict = validate_record(full)
    assume(verdict.error is not None and verdict.error.code not in NOT_A_RULE)
    assert verdict.error is not None
    if has_no_public_form(full):
        return
    public = validate_record(public_form(full))
    assert public.error is not None, verdict.error
    assert (public.error.code, public.error.round, public.error.move) == (
        verdict.error.code,
        verdict.error.round,
        verdict.error.move,
    ), (verdict.error, public.error)
    assert public.error.message == verdict.error.message
    same_game(verdict, public)
    event(verdict.error.code)
