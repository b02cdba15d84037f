"""Public records under ``play.placed: down`` (RECORD.md, rule 11.3): the public replay
follows the cards whose face not every seat saw. A card drawn from a reshuffled draw pile
is named only when it is discarded or turned up, and must be one that pile held; a card
whose face the whole table saw keeps it wherever a swap (rule 11.4) moves it. Each record
is written as the table would write it, each tampered copy is refused at the move where
it goes wrong, with its code; and the game played out in full redacts to the record."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from builders import Slots, arranged_deal, deck_patch, played_game, variant

import gnoming_rules as gr
from gnoming_rules.core.cards import HIDDEN
from gnoming_rules.formats.record import dump_record, parse_record
from gnoming_rules.referee import Verdict, replay_bytes, replay_record
from gnoming_rules.referee.redact import redact
from gnoming_rules.testing import record_game


def table_rules(**changes: Any) -> dict[str, Any]:
    """A small table of rule 11.3, as the changes to ``standard``: two seats, 2x2 layouts
    dealt face down, one discard pile, a draw pile reshuffled when it runs out, and
    knocking (11.5) to end the game's one round; ``changes`` on top."""
    return {
        "players": {"min": 2, "max": 2},
        "rounds": 1,
        "layout": {"rows": 2, "cols": 2, "face_up_at_start": 0},
        "discard": {"piles": 1},
        "play": {"placed": "down"},
        "round_end": {"knock": True},
        "bounce": False,
        "mulligan": {"max_face_up": 0},
        "empty_draw_pile": "reshuffle",
        **changes,
    }


def public_record(
    rules: Mapping[str, Any],
    start: int,
    moves: list[dict[str, Any]],
    final: list[list[int]],
    scores: list[int],
) -> dict[str, Any]:
    """A public record of one round, as written at the table: the discard pile started
    with ``start``, then ``moves``; the layouts as the round ended and the scores claimed."""
    return {
        "format": "gnoming-record/1",
        "information": "public",
        "ruleset": {"extends": "standard", **rules},
        "players": ["Ana", "Bo"],
        "first_player": 0,
        "rounds": [{"start": {"piles": [start]}, "moves": moves, "scores": scores, "final": final}],
    }


DELETE = object()


def edited(data: dict[str, Any], path: Sequence[str | int], value: object) -> dict[str, Any]:
    """A copy of the record ``data`` with the field at ``path`` (below its first round) set
    to ``value`` (``DELETE`` removes it)."""
    copied = copy.deepcopy(data)
    node: Any = copied["rounds"][0]
    for part in path[:-1]:
        node = node[part]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return copied


def verdict_of(data: dict[str, Any]) -> Verdict:
    return replay_bytes(json.dumps(data).encode()).verdict


def state_before(data: dict[str, Any], move: int) -> gr.State:
    """The public replay's state before ``move`` of the first round: stand-ins
    (``HIDDEN``) where the table has not seen the card."""
    state = replay_record(parse_record(json.dumps(data)), until=(0, move)).state
    assert state is not None
    return state


def redacted(
    rules: Mapping[str, Any],
    layouts: Mapping[int, Slots],
    start: int,
    draw: Slots,
    moves: Sequence[gr.Move],
) -> dict[str, Any]:
    """The first round of the public form that ``redact`` writes for the game dealt as
    arranged and played with ``moves`` (its full record claims no card)."""
    ruleset = variant(**rules)
    deal = arranged_deal(ruleset, 2, layouts=layouts, discards=[start], draw=draw)
    game = played_game(ruleset, 2, [deal, *moves])
    full = record_game(game, claims=False, ruleset_ref={"extends": "standard", **rules}).record
    round_: dict[str, Any] = json.loads(dump_record(redact(full)))["rounds"][0]
    return round_


# --- deck draws from a reshuffled draw pile --------------------------------------------------

RESHUFFLE_RULES = table_rules(deck=deck_patch({1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 1}))
"""Fourteen cards: eight dealt, one to start the discard pile, five to draw."""

RESHUFFLED = public_record(
    RESHUFFLE_RULES,
    1,
    [
        {"action": "draw", "player": 0, "source": "deck"},  # only Ana sees it (11.3)
        {"action": "discard", "player": 0, "pile": 0, "card": 2},  # now everyone does
        {"action": "draw", "player": 1, "source": "deck"},
        {"action": "discard", "player": 1, "pile": 0, "card": 3},
        {"action": "draw", "player": 0, "source": "deck"},
        {"action": "discard", "player": 0, "pile": 0, "card": 6},
        {"action": "draw", "player": 1, "source": "deck"},
        {"action": "discard", "player": 1, "pile": 0, "card": 1},
        {"action": "draw", "player": 0, "source": "deck"},  # the last card: the pile ran out
        # 9: the pile's 1, 2, 3 and 6 below its top 1 become the draw pile, in an order
        # nobody saw (8.7): the cards drawn from it are known only as one of those four
        {"action": "reshuffle"},
        {"action": "discard", "player": 0, "pile": 0, "card": 5},  # 10: drawn before it
        {"action": "draw", "player": 1, "source": "deck"},  # 11: unnamed, from the four
        {"action": "place", "player": 1, "slot": 0, "card": 2},  # 12: Bo's slot 0, unseen
        {"action": "discard", "player": 1, "pile": 0},  # the 2 it displaced
        {"action": "draw", "player": 0, "source": "deck"},
        {"action": "discard", "player": 0, "pile": 0, "card": 2},  # 15: one of the four
        {"action": "draw", "player": 1, "source": "deck"},
        {"action": "place", "player": 1, "slot": 0, "card": 6},  # 17: move 11's card turned up
        {"action": "discard", "player": 1, "pile": 0, "card": 6},  # 18: and named again
        {"action": "knock", "player": 0},
        {"action": "draw", "player": 1, "source": "discard", "pile": 0, "card": 6},
        {"action": "place", "player": 1, "slot": 1, "card": 3},
        {"action": "discard", "player": 1, "pile": 0},
    ],
    [[1, 2, 3, 4], [3, 6, 4, 5]],  # Bo's slot 0 holds move 16's card: one of the four
    [5, 18],  # Ana knocked with the lowest score, 10, less the bonus of 5 (rule 8.6)
)
"""A round in which the draw pile runs out: after the reshuffle, deck draws are placed face
down unseen and turned up later, by a place that displaces one and by the layouts at the
end, and one is discarded unplayed; each must be a card the reshuffled pile held."""


def test_draws_from_a_reshuffled_pile_are_followed_until_they_are_named() -> None:
    verdict = verdict_of(RESHUFFLED)
    assert verdict.valid and verdict.complete, verdict.to_json()
    assert verdict.information == "public" and verdict.scores == ((5, 18),)
    # the card placed at move 12 is one of the four nobody saw, until move 17 turns it up
    assert state_before(RESHUFFLED, 17).cards[1][0] == HIDDEN


NONE_LEFT = "drawn from the reshuffled draw pile, which held none that nobody has seen since"

WRONG_CARDS: list[tuple[str, tuple[str | int, ...], object, tuple[str, int, int | None], str]] = [
    (  # the discard of an unplayed draw from the reshuffled pile names one of its cards
        "unplayed draw, not from the pile",
        ("moves", 15, "card"),
        5,
        ("impossible-card", 0, 15),
        f"seat 0 discarded a 5, {NONE_LEFT} (it holds 1, 2, 3, 6)",
    ),
    (  # the discard of a card named when it was displaced names it again
        "displaced card, renamed",
        ("moves", 18, "card"),
        2,
        ("card-mismatch", 0, 18),
        "seat 1 discarded a 6, but the record says a 2",
    ),
    (  # a displaced card drawn from the reshuffled pile is one of its cards too
        "displaced draw, not from the pile",
        ("moves", 17, "card"),
        4,
        ("impossible-card", 0, 17),
        f"seat 1 displaced a 4, {NONE_LEFT} (it holds 1, 3, 6)",
    ),
    (  # one the pile held, but its only 6 is the one move 11 drew: 17 names a second
        "the pile's card named twice",
        ("moves", 15, "card"),
        6,
        ("impossible-card", 0, 17),
        f"seat 1 displaced a 6, {NONE_LEFT} (it holds 1, 2, 3)",
    ),
    (  # the layouts as the round ended: the card move 16 drew, still in Bo's slot 0
        "final draw, not from the pile",
        ("final", 1, 0),
        4,
        ("impossible-card", 0, None),
        f"final[1][0] names a 4, {NONE_LEFT} (it holds 1, 3)",
    ),
    (  # the card Ana drew before the reshuffle, discarded unplayed after it, is named
        "unplayed draw across the reshuffle, unnamed",
        ("moves", 10, "card"),
        DELETE,
        ("bad-record", 0, 10),
        "rounds[0].moves[10].card: missing: the discard turns up the card drawn from the "
        "deck, which a public record names (rule 11.3)",
    ),
]
"""Each a wrong copy of :data:`RESHUFFLED`: its name, the field changed, the new value,
the refusal (code, round, move) and its message."""


@pytest.mark.parametrize(
    ("path", "card", "expected", "message"),
    [case[1:] for case in WRONG_CARDS],
    ids=[case[0] for case in WRONG_CARDS],
)
def test_a_wrong_card_for_a_reshuffled_draw_is_refused_where_it_is_named(
    path: tuple[str | int, ...],
    card: object,
    expected: tuple[str, int | None, int | None],
    message: str,
) -> None:
    verdict = verdict_of(edited(RESHUFFLED, path, card))
    error = verdict.error
    assert error is not None, verdict.to_json()
    assert (error.code, error.round, error.move) == expected
    assert error.message == message


def test_the_reshuffled_game_in_its_full_form_redacts_to_what_the_table_wrote() -> None:
    moves: list[gr.Move] = []
    for seat in (0, 1, 0, 1):
        moves += [gr.Draw(seat), gr.Discard(seat, 0)]
    moves += [gr.Draw(0), gr.Reshuffle((6, 2, 3, 1)), gr.Discard(0, 0)]
    moves += [gr.Draw(1), gr.Place(1, 0), gr.Discard(1, 0), gr.Draw(0), gr.Discard(0, 0)]
    moves += [gr.Draw(1), gr.Place(1, 0), gr.Discard(1, 0), gr.Knock(0)]
    moves += [gr.Draw(1, 0), gr.Place(1, 1), gr.Discard(1, 0)]
    layouts = {0: [1, 2, 3, 4], 1: [2, 3, 4, 5]}
    written = redacted(RESHUFFLE_RULES, layouts, 1, [2, 3, 6, 1, 5], moves)
    table = RESHUFFLED["rounds"][0]
    assert written["final"] == table["final"]
    # redact names only the cards a public record needs: not the discard of move 18
    assert (
        written["moves"] == edited(RESHUFFLED, ("moves", 18, "card"), DELETE)["rounds"][0]["moves"]
    )


# --- a swap moves a card the whole table saw ----------------------------------------------------


def swap_rules(power: str) -> dict[str, Any]:
    """Fifteen cards (six to draw); a 6 drawn and discarded unplayed gives ``power``."""
    return table_rules(deck=deck_patch({1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}), powers={6: power})


def swapped(power: str) -> dict[str, Any]:
    """Ana takes the 5 from the discard pile and places it face down: every seat saw it.
    Bo's 6 gives him ``power``, and he swaps his slot 1 with Ana's slot 0 (after looking at
    it, under look_and_swap): the 5 is his now, and when he displaces it the record must
    name it. Ana's slot 0 holds Bo's old card, which nobody but Bo has seen."""
    look = [{"action": "peek", "player": 1, "slot": 0, "target": 0}]
    return public_record(
        swap_rules(power),
        5,
        [
            {"action": "draw", "player": 0, "source": "discard", "pile": 0, "card": 5},
            {"action": "place", "player": 0, "slot": 0, "card": 1},
            {"action": "discard", "player": 0, "pile": 0},
            {"action": "draw", "player": 1, "source": "deck"},
            {"action": "discard", "player": 1, "pile": 0, "card": 6},
            *(look if power == "look_and_swap" else []),
            {"action": "swap", "player": 1, "slot": 1, "target": 0, "target_slot": 0},
            {"action": "draw", "player": 0, "source": "deck"},
            {"action": "discard", "player": 0, "pile": 0, "card": 1},
            {"action": "draw", "player": 1, "source": "deck"},
            {"action": "place", "player": 1, "slot": 1, "card": 5},  # the claim
            {"action": "discard", "player": 1, "pile": 0},
            {"action": "knock", "player": 0},
            {"action": "draw", "player": 1, "source": "deck"},
            {"action": "discard", "player": 1, "pile": 0, "card": 3},
        ],
        [[3, 2, 3, 4], [2, 2, 4, 1]],
        [-2, 3],
    )


def claim_at(data: dict[str, Any]) -> int:
    """The index of the move that displaces the swapped 5: Bo's place."""
    moves = data["rounds"][0]["moves"]
    return next(
        i for i, move in enumerate(moves) if move["action"] == "place" and move["player"] == 1
    )


POWERS = ["swap_blind", "look_and_swap"]


@pytest.mark.parametrize("power", POWERS)
def test_a_swap_moves_the_face_the_table_saw_with_its_card(power: str) -> None:
    data = swapped(power)
    verdict = verdict_of(data)
    assert verdict.valid and verdict.complete, verdict.to_json()
    assert verdict.scores == ((-2, 3),)
    swap = next(i for i, move in enumerate(data["rounds"][0]["moves"]) if move["action"] == "swap")
    before = state_before(data, swap)
    assert (before.cards[0][0], before.cards[1][1]) == (5, HIDDEN)
    after = state_before(data, claim_at(data))
    assert (after.cards[0][0], after.cards[1][1]) == (HIDDEN, 5)  # the 5 went with its card


@pytest.mark.parametrize("power", POWERS)
@pytest.mark.parametrize("card", [4, 3])  # 3: the card the swap took from Bo's slot 1
def test_a_claim_naming_the_swapped_card_wrongly_is_refused_at_the_claim(
    power: str, card: int
) -> None:
    data = swapped(power)
    claim = claim_at(data)
    error = verdict_of(edited(data, ("moves", claim, "card"), card)).error
    assert error is not None
    assert (error.code, error.round, error.move) == ("card-mismatch", 0, claim)
    assert error.message == f"seat 1 displaced a 5, but the record says a {card}"


@pytest.mark.parametrize("power", POWERS)
def test_the_swapped_game_in_its_full_form_redacts_to_what_the_table_wrote(power: str) -> None:
    moves: list[gr.Move] = [gr.Draw(0, 0), gr.Place(0, 0), gr.Discard(0, 0)]
    moves += [gr.Draw(1), gr.Discard(1, 0)]
    moves += [gr.Peek(1, 0, 0)] if power == "look_and_swap" else []
    moves += [gr.Swap(1, 1, 0, 0), gr.Draw(0), gr.Discard(0, 0)]
    moves += [gr.Draw(1), gr.Place(1, 1), gr.Discard(1, 0), gr.Knock(0)]
    moves += [gr.Draw(1), gr.Discard(1, 0)]
    layouts = {0: [1, 2, 3, 4], 1: [2, 3, 4, 1]}
    written = redacted(swap_rules(power), layouts, 5, [6, 1, 2, 3, 5, 6], moves)
    table = swapped(power)["rounds"][0]
    assert (written["moves"], written["final"]) == (table["moves"], table["final"])
