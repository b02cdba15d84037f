"""Record entries and moves (``move_to_entry`` / ``move_from_entry`` / ``card_claim``): the
Recorder's entries read back as the game's moves, and malformed entries get ``bad-record``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Final

import pytest
from hypothesis import given
from hypothesis.strategies import SearchStrategy
from strategies import PlayedGame, RecordedGame, played_games, recorded_games

import gnoming_rules as gr
from gnoming_rules.core import card_claim, move_from_entry, move_to_entry
from gnoming_rules.core.entries import step_from_entry, step_to_entry
from gnoming_rules.formats import dump_record
from gnoming_rules.play import play_game
from gnoming_rules.referee import replay_bytes

ENTRY_ROUND_TRIP: Final = "entry-round-trip"


def every_entry_reads_back_as_the_move_played(recorded: RecordedGame) -> None:
    """Each move entry of a record the Recorder wrote (as JSON) reads back as the move
    played, is what ``move_to_entry`` writes (with the card claim, when the record has
    claims), and survives a JSON round trip; no entry of such a record is refused."""
    game = recorded.game
    players, piles = game.setup.players, game.setup.ruleset.compiled.piles
    entries = iter(
        entry for round_ in json.loads(recorded.text())["rounds"] for entry in round_["moves"]
    )
    for move, before, after in zip(game.moves, game.states[:-1], game.states[1:], strict=True):
        if isinstance(move, gr.Deal):
            continue
        entry = next(entries)
        try:
            assert move_from_entry(entry, players, piles=piles) == move
            claim = card_claim(move, after, before) if recorded.claims else None
            assert move_to_entry(move, claim) == entry
            assert move_from_entry(json.loads(json.dumps(move_to_entry(move))), piles=piles) == move
        except gr.RecordError as error:
            raise AssertionError(f"the entry {entry} was refused: {error}") from error
    assert next(entries, None) is None


ENTRY_PROPERTIES: dict[str, tuple[Callable[..., None], tuple[SearchStrategy[Any], ...]]] = {
    ENTRY_ROUND_TRIP: (every_entry_reads_back_as_the_move_played, (recorded_games(),)),
}
"""Property name -> (check, strategies for its arguments), for the planted-bug tests."""


@given(recorded_games())
def test_every_entry_of_a_record_reads_back_as_the_move_played(recorded: RecordedGame) -> None:
    every_entry_reads_back_as_the_move_played(recorded)


def test_entries_as_record_md_writes_them() -> None:
    assert move_to_entry(gr.Draw(2, 1), card=7) == {
        "action": "draw",
        "player": 2,
        "source": "discard",
        "pile": 1,
        "card": 7,
    }
    assert move_to_entry(gr.Draw(0)) == {"action": "draw", "player": 0, "source": "deck"}
    assert move_to_entry(gr.Discard(1)) == {"action": "discard", "player": 1}
    assert move_to_entry(gr.Flip(1, 3), "M") == {
        "action": "flip",
        "player": 1,
        "slot": 3,
        "card": "M",
    }
    assert move_to_entry(gr.Reshuffle((3, "H"))) == {"action": "reshuffle", "cards": [3, "H"]}
    with pytest.raises(ValueError, match="a discard carries no card claim"):
        move_to_entry(gr.Discard(1, 0), card=5)
    with pytest.raises(ValueError, match="a deal is written as its round's deal field"):
        move_to_entry(gr.Deal((1, 2)))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a move"):
        move_to_entry("draw")  # type: ignore[arg-type]


def test_a_card_claim_or_a_pile_named_for_a_hazard_is_read_as_records_allow() -> None:
    entry = {"action": "place", "player": 0, "slot": 4, "card": None}
    assert move_from_entry(entry) == gr.Place(0, 4)  # optional fields may be null
    assert move_from_entry({"action": "discard", "player": 0, "pile": None}) == gr.Discard(0)
    assert move_from_entry({"action": "reveal", "player": 1, "slot": 99}) == gr.Reveal(1, 99)
    draw = {"action": "draw", "player": 1, "source": "discard", "pile": 0, "card": -3}
    assert move_from_entry(draw) == gr.Draw(1, 0)


NOT_A_CARD = 'not a card: write an integer, "H", "M" or a face name (K), got'

MALFORMED: Final = [
    ([], "must be a mapping, got []"),
    ({"player": 0}, "action: missing field"),
    ({"action": "skip", "player": 0}, 'action: unknown action "skip" (one of reveal, draw,'),
    ({"action": "deal", "cards": []}, 'action: unknown action "deal"'),
    ({"action": "place", "player": 0}, "slot: missing field"),
    ({"action": "place", "player": 0, "slot": 1, "pile": 0}, "pile: unknown field"),
    ({"action": "discard", "player": 0, "card": 5}, "card: unknown field"),
    ({"action": "place", "player": True, "slot": 1}, "player: must be an integer, got true"),
    ({"action": "place", "player": -1, "slot": 1}, "player: must be at least 0, got -1"),
    ({"action": "place", "player": 0, "slot": "4"}, 'slot: must be an integer, got "4"'),
    ({"action": "place", "player": 0, "slot": 4.0}, "slot: must be an integer, got 4.0"),
    ({"action": "flip", "player": 0, "slot": 1, "card": 1.5}, f"card: {NOT_A_CARD} 1.5"),
    ({"action": "draw", "player": 0, "source": "hand"}, "source: must be 'deck' or 'discard'"),
    (
        {"action": "draw", "player": 0, "source": "deck", "pile": 1},
        "pile: a draw from the deck names no pile",
    ),
    (
        {"action": "draw", "player": 0, "source": "discard"},
        "pile: a draw from the discard must name its pile, 0 or 1",
    ),
    ({"action": "discard", "player": 0, "pile": 2}, "pile: must be 0 or 1, got 2"),
    ({"action": "discard", "player": 0, "pile": -1}, "pile: must be a discard pile (0, 1, ...)"),
    ({"action": "reveal", "player": 3, "slot": 0}, "player: seat 3 does not exist (3 players"),
    ({"action": "reshuffle", "cards": [3, "x"]}, f'cards[1]: {NOT_A_CARD} "x"'),
    ({"action": "reshuffle", "cards": "3 4"}, 'cards: must be a list, got "3 4"'),
]
"""Malformed entries, and the words of the problem (after the field's path)."""


@pytest.mark.parametrize(("entry", "message"), MALFORMED)
def test_a_malformed_entry_gets_bad_record_naming_the_field(entry: Any, message: str) -> None:
    with pytest.raises(gr.RecordError) as refused:
        move_from_entry(entry, players=3)
    assert refused.value.code == "bad-record"
    assert refused.value.message.startswith(message)


def _record_holding(entry: object) -> dict[str, Any]:
    """A three-seat standard record whose first round's first move is ``entry``."""
    record, _ = play_game(gr.load_ruleset("standard"), players=3, seed=1)
    data: dict[str, Any] = json.loads(dump_record(record))
    data["rounds"] = data["rounds"][:1]
    data["rounds"][0]["moves"] = [entry]
    data.pop("result", None)
    data["rounds"][0].pop("scores", None)
    return data


@pytest.mark.parametrize(("entry", "message"), MALFORMED)
def test_an_entry_alone_and_in_a_record_get_the_same_words(entry: Any, message: str) -> None:
    """One wording per problem: the record's verdict says what ``move_from_entry`` says,
    after the move's path (the entry forms and their reading have one owner)."""
    with pytest.raises(gr.RecordError) as alone:
        move_from_entry(entry, players=3)
    verdict = replay_bytes(json.dumps(_record_holding(entry)).encode()).verdict
    assert verdict.error is not None
    assert (verdict.error.code, verdict.error.round, verdict.error.move) == ("bad-record", 0, 0)
    first = alone.value.message.split(" (and ")[0]
    field = re.match(r"^[a-z_]+[\[:]", first)  # the message starts with the field's path
    expected = f"rounds[0].moves[0]{'.' if field else ': '}{first}"
    assert verdict.error.message.split(" (and ")[0] == expected


def test_players_bounds_the_seat() -> None:
    entry = {"action": "reveal", "player": 3, "slot": 0}
    assert move_from_entry(entry) == gr.Reveal(3, 0)
    with pytest.raises(
        gr.RecordError,
        match=r"^bad-record: player: seat 3 does not exist \(3 players: seats 0 to 2\)$",
    ):
        move_from_entry(entry, players=3)


@given(played_games())
def test_every_step_of_a_game_deals_included_reads_back_from_its_one_notation(
    game: PlayedGame,
) -> None:
    """``step_to_entry`` writes every move of a game, its deals and reshuffles too (the
    server stores its steps so), and ``step_from_entry`` reads each back from JSON; the
    public form of a chance event names no card."""
    players, piles = game.setup.players, game.ruleset.compiled.piles
    for move in game.moves:
        entry = json.loads(json.dumps(step_to_entry(move)))
        assert step_from_entry(entry, players, piles=piles) == move
        if isinstance(move, gr.Deal | gr.Reshuffle):
            assert entry == {"action": move.action, "cards": list(move.cards)}
            assert step_to_entry(move, public=True) == {"action": move.action}
        else:
            assert entry == move_to_entry(move)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"action": "deal"}, "cards: a deal's entry lists its cards"),
        ({"action": "deal", "cards": 7}, "cards: a deal's entry lists its cards"),
        ({"action": "deal", "cards": [], "player": 0}, "player: a deal's entry has no such field"),
    ],
)
def test_a_malformed_deal_entry_gets_bad_record_naming_the_field(
    entry: dict[str, Any], message: str
) -> None:
    with pytest.raises(gr.RecordError) as refused:
        step_from_entry(entry)
    assert (refused.value.code, refused.value.message) == ("bad-record", message)
