"""Redacting a record that stops mid-round (truncated, or cut at a refused move): the
unfinished round carries no ``final``, and the public form names no card nobody saw: each
``card`` is the one its move showed (docs/record-format.md, public-information records),
and a refused move names a card the whole table sees (docs/decisions.md, "Converting")."""

from __future__ import annotations

import json
from typing import Any

from builders import STANDARD, arranged_deal, play, played_game, setup_reveals
from hypothesis import event, given
from hypothesis import strategies as st
from strategies import PlayedGame, cut_mid_round, game_setups, record_game, variant

import gnoming_rules as gr
from gnoming_rules.core.cards import EMPTY
from gnoming_rules.core.entries import card_claim
from gnoming_rules.formats.record import PublicRecord, parse_record
from gnoming_rules.formats.rulesets import bundled_rulesets
from gnoming_rules.referee import validate_record
from gnoming_rules.referee.redact import redact

REQUIRED = ("reveal", "flip", "draw")


def visible_faces(state: gr.State) -> set[gr.Face]:
    """Every card the whole table sees in ``state``: face-up cards and discard tops."""
    faces = {pile[-1] for pile in state.discard_piles if pile}
    for seat in range(state.players):
        faces |= {face for face in state.visible_layout(seat) if face is not None}
    return faces


def public_names_only_what_was_seen(game: PlayedGame, claims: bool) -> None:
    """The public form of ``game``'s record, cut mid-round: no ``final`` for the unfinished
    round, a ``final`` for each finished one, and every ``card`` the one its move showed."""
    public = redact(record_game(game, claims=claims).record)
    final = game.final
    assert final.phase not in (gr.Phase.DEAL, gr.Phase.OVER)
    assert len(public.rounds) == final.round + 1
    assert public.rounds[-1].final is None
    entries = iter([entry for round_ in public.rounds for entry in round_.moves])
    down = game.ruleset.compiled.placed_down
    for move, before, after in zip(game.moves, game.states[:-1], game.states[1:], strict=True):
        if isinstance(move, gr.Deal):
            continue
        entry = {key: value for key, value in next(entries).items() if value is not None}
        if down and isinstance(move, gr.Draw) and move.pile is None:
            # placed face down (rule 11.3): a deck draw is seen by its drawer alone, and
            assert "card" not in entry, entry
            continue
        if down and isinstance(move, gr.Discard) and "card" in entry:
            # named when discarded unplayed (the card leaves the drawer's hand face up)
            assert entry["card"] == before.held, entry
            continue
        if entry["action"] in REQUIRED:
            assert "card" in entry, entry
        if "card" in entry:
            # (a card turned up that completed a line, 10.6, is read from before the move)
            assert entry["card"] == card_claim(move, after, before), (entry, move)
        if isinstance(move, gr.Place | gr.Bounce) and not before.is_face_up(move.player, move.slot):
            assert entry.get("card") == after.held, entry
        if isinstance(move, gr.Peek):  # only the peeking seat saw it (rule 11.1)
            assert "card" not in entry, entry
        if after.scores != before.scores:  # this move ended its round
            ended = public.rounds[before.round]
            # null for a slot emptied during play (10.6), as the public form writes it
            assert ended.final == [
                [None if card == EMPTY else card for card in layout] for layout in after.cards
            ]
    event(f"cut in round {final.round}, {final.phase.name}")
    verdict = validate_record(public)
    assert verdict.valid and not verdict.complete and verdict.scores == final.scores


@given(cut_mid_round(), st.booleans())
def test_a_record_cut_mid_round_names_only_what_was_seen(game: PlayedGame, claims: bool) -> None:
    public_names_only_what_was_seen(game, claims)


PLACED_UP = [
    variant(gr.load_ruleset(name), {"play": {"placed": "up"}})
    for name in bundled_rulesets()
    if gr.load_ruleset(name).compiled.placed_down
]
"""The bundled rulesets of rule 11.3 with cards placed face up: setup peeks, powers and
knocking (11.2, 11.4, 11.5), whose public form names every card the table saw."""


@given(cut_mid_round(game_setups(st.sampled_from(PLACED_UP))), st.booleans())
def test_a_record_with_peeks_cut_mid_round_names_only_what_was_seen(
    game: PlayedGame, claims: bool
) -> None:
    public_names_only_what_was_seen(game, claims)


# --- examples ---------------------------------------------------------------------------------

SECRET = 12
"""Dealt to seat 1's slot 8 and the draw pile's top; no other 12 is ever in sight."""


def _after_setup() -> tuple[PlayedGame, dict[str, Any]]:
    """Three seats past the setup reveals; seat 1's slot 8 and the draw pile's top are
    12s, which nobody has seen."""
    layouts = {seat: [1, 2, 3, 4, 5, 6, 7, 8, 9] for seat in range(3)}
    layouts[1] = [1, 2, 3, 4, 5, 6, 7, 8, SECRET]
    deal = arranged_deal(STANDARD, 3, layouts=layouts, discards=[10, 11], draw=[SECRET])
    moves: list[gr.Move] = [deal]
    moves += setup_reveals(STANDARD, play(STANDARD, gr.new_game(STANDARD, 3, 0), deal))
    game = played_game(STANDARD, 3, moves)
    assert SECRET not in visible_faces(game.final)
    return game, record_game(game, claims=True).data()


def _public(data: dict[str, Any]) -> PublicRecord:
    full = parse_record(json.dumps(data))
    assert not isinstance(full, PublicRecord)
    return redact(full)


def _last_card(public: PublicRecord) -> Any:
    entry: dict[str, Any] = dict(public.rounds[0].moves[-1])
    return entry.get("card")


def test_a_truncated_record_has_no_final_for_its_unfinished_round() -> None:
    _, data = _after_setup()
    public = _public(data)
    assert [round_.final for round_ in public.rounds] == [None]
    named = [entry.get("card") for entry in public.rounds[0].moves]
    assert SECRET not in [*named, *public.rounds[0].start.piles]


def test_a_move_refused_at_a_face_down_card_names_a_card_in_sight() -> None:
    game, data = _after_setup()
    refused = [
        {"action": "flip", "player": 1, "slot": 8},  # no flip owed
        {"action": "flip", "player": 1, "slot": 8, "card": SECRET},  # a true claim, refused
        {"action": "reveal", "player": 1, "slot": 8},  # setup is over
        {"action": "draw", "player": 2, "source": "deck"},  # not seat 2's turn
        {"action": "draw", "player": 2, "source": "deck", "card": SECRET},
    ]
    for entry in refused:
        changed = json.loads(json.dumps(data))
        changed["rounds"][0]["moves"].append(entry)
        full = validate_record(parse_record(json.dumps(changed)))
        assert full.error is not None and full.error.move == len(game.moves) - 1
        public = _public(changed)
        named = _last_card(public)
        assert named != SECRET and named in visible_faces(game.final), (entry, named)
        assert public.rounds[0].final is None
        verdict = validate_record(public).error
        assert verdict is not None and (verdict.code, verdict.move) == (
            full.error.code,
            full.error.move,
        )


def test_a_false_claim_keeps_its_card() -> None:
    _, data = _after_setup()
    data["rounds"][0]["moves"].append({"action": "draw", "player": 0, "source": "deck", "card": 3})
    public = _public(data)
    assert _last_card(public) == 3  # the claim refused, as it was made
