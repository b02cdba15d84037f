"""Public-information records (RECORD.md, ``information: public``): a game as a person at
the table writes it validates, and each way of getting it wrong is refused at the right
place with the right code."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from kit import EXAMPLES, ROOT

import gnoming_rules as gr
from gnoming_rules.formats.record import PublicRecord, Record, dump_record, parse_record
from gnoming_rules.play import play_game
from gnoming_rules.referee import Verdict, replay_bytes, replay_record, validate_record
from gnoming_rules.referee.redact import redact

TINY = "examples/tiny.yaml"

TABLE: dict[str, Any] = {
    "format": "gnoming-record/1",
    "information": "public",
    "ruleset": TINY,
    "players": ["Ana", "Bo"],
    "first_player": 1,
    "rounds": [
        {
            "start": {"piles": [1, 3]},
            "moves": [
                {"action": "reveal", "player": 1, "slot": 0, "card": -2},
                {"action": "reveal", "player": 0, "slot": 2, "card": "H"},
                {"action": "draw", "player": 1, "source": "discard", "pile": 0, "card": 1},
                {"action": "place", "player": 1, "slot": 1, "card": "M"},
                {"action": "discard", "player": 1, "pile": 0},
                {"action": "draw", "player": 0, "source": "discard", "pile": 0, "card": "M"},
                {"action": "place", "player": 0, "slot": 2, "card": "H"},
                {"action": "discard", "player": 0},
                {"action": "flip", "player": 1, "slot": 3, "card": -1},
                {"action": "draw", "player": 1, "source": "deck", "card": 1},
                {"action": "place", "player": 1, "slot": 2, "card": 3},
                {"action": "discard", "player": 1, "pile": 0},
                {"action": "draw", "player": 0, "source": "discard", "pile": 0, "card": 3},
                {"action": "place", "player": 0, "slot": 0, "card": 3},
                {"action": "bounce", "player": 0, "slot": 1, "card": 4},
                {"action": "discard", "player": 0, "pile": 0},
            ],
            "scores": [-10, 4],
            "final": [[3, 3, "M", 4], [-2, 1, 1, -1]],
        }
    ],
}
"""The game of the record-format page's example (two players, one round of the tiny
variant, a hazard and a bounce), as JSON data."""


def verdict_of(data: dict[str, Any]) -> Verdict:
    return replay_bytes(json.dumps(data).encode(), base_dir=ROOT).verdict


def changed(**edits: Any) -> dict[str, Any]:
    """A copy of ``TABLE`` with edits: ``0__moves__8__card=-2`` sets ``rounds[0].moves[8].card``
    (``DELETE`` removes the field)."""
    data = copy.deepcopy(TABLE)
    for path, value in edits.items():
        *parents, last = path.split("__")
        node: Any = data["rounds"]
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        key: Any = int(last) if last.isdigit() else last
        if value is DELETE:
            del node[key]
        elif isinstance(node, list) and key == len(node):
            node.append(value)
        else:
            node[key] = value
    return data


DELETE = object()


def error_of(data: dict[str, Any]) -> tuple[str, int | None, int | None]:
    verdict = verdict_of(data)
    assert verdict.error is not None and verdict.information == "public", verdict.to_json()
    return verdict.error.code, verdict.error.round, verdict.error.move


def test_a_game_written_at_the_table_validates() -> None:
    verdict = verdict_of(TABLE)
    assert verdict.valid and not verdict.complete  # the tiny variant plays two rounds
    assert verdict.scores == ((-10, 4),) and verdict.to_dict()["information"] == "public"
    assert verdict.exit_status == 0


def test_the_same_game_in_its_full_form_redacts_to_what_the_table_wrote() -> None:
    rules = gr.load_ruleset(ROOT / TINY)
    full, _ = play_game(rules, 2, seed=0, rounds=1, ruleset_ref=TINY)
    public = redact(full, base_dir=ROOT)
    assert public.model_dump(exclude_none=True, exclude={"ruleset_sha256"}) == {
        **TABLE,
        "rounds": [{**TABLE["rounds"][0], "start": {"piles": [1, 3], "removed": []}}],
    }


@pytest.mark.parametrize(
    ("edits", "expected", "message"),
    [
        # a card the deck cannot hold: the tiny deck has one -2, one mulligan, one hazard
        ({"0__moves__8__card": -2}, ("impossible-card", 0, 8), "seat 1 flipped a -2, but"),
        ({"0__moves__9__card": "M"}, ("impossible-card", 0, 9), "seat 1 drew a mulligan"),
        ({"0__start__removed": ["H", "H"]}, ("impossible-card", 0, None), "the start names"),
        ({"0__final__0__3": -2}, ("impossible-card", 0, None), "final[0][3] names a -2"),
        # what the table saw, written otherwise
        ({"0__moves__2__card": 3}, ("card-mismatch", 0, 2), "seat 1 drew a 1, but the rec"),
        ({"0__final__1__0": 5}, ("card-mismatch", 0, None), "final[1][0] is a 5, but seat"),
        # what a public record must say
        ({"0__moves__3__card": DELETE}, ("bad-record", 0, 3), "rounds[0].moves[3].card: mi"),
        ({"0__moves__0__card": DELETE}, ("bad-record", 0, 0), "rounds[0].moves[0].card: mi"),
        ({"0__final": DELETE}, ("bad-record", 0, None), "rounds[0].final: missing: the r"),
        ({"0__final": [[3, 3, "M"], [-2, 1, 1, -1]]}, ("bad-record", None, None), "rounds[0]"),
        ({"0__start": {"piles": [1, "H"]}}, ("bad-deal", 0, None), "rounds[0].start.piles[1]"),
        ({"0__start": {"piles": [1]}}, ("bad-deal", 0, None), "rounds[0].start.piles: one"),
        ({"0__deal": [1, 2]}, ("bad-record", None, None), "rounds[0].deal: unknown field"),
        # rules, found as in a full record
        ({"0__moves__1__player": 1}, ("not-your-turn", 0, 1), "reveal by seat 1 refused"),
        ({"0__scores": [-10, 5]}, ("score-mismatch", 0, None), "round 0 scores [-10, 4]"),
    ],
)
def test_each_mistake_is_refused_where_it_is_made(
    edits: dict[str, Any], expected: tuple[str, int | None, int | None], message: str
) -> None:
    data = changed(**edits)
    assert error_of(data) == expected
    error = verdict_of(data).error
    assert error is not None
    assert error.message.startswith(message), error.message


def test_an_earlier_rule_violation_wins_over_a_missing_final() -> None:
    data = changed(**{"0__final": DELETE, "0__moves__1__player": 1})
    assert error_of(data) == ("not-your-turn", 0, 1)


def test_moves_after_the_end_of_a_round_come_after_its_final() -> None:
    extra = {"action": "draw", "player": 1, "source": "deck", "card": 2}
    data = changed(**{"0__moves__16": extra})
    assert error_of(data) == ("moves-after-end", 0, 16)
    data = changed(**{"0__moves__16": extra, "0__final": DELETE})
    assert error_of(data) == ("bad-record", 0, None)  # found when the round ends


def test_a_public_record_reads_and_writes_in_json_and_yaml() -> None:
    record = parse_record(json.dumps(TABLE))
    assert isinstance(record, PublicRecord)
    for kind in ("json", "yaml"):
        text = dump_record(record, kind)
        assert parse_record(text) == record
        assert ("information: public" if kind == "yaml" else '"information": "public"') in text
    assert "removed" not in dump_record(record)  # none removed: left out, as people write it


def test_information_must_be_full_or_public() -> None:
    error = verdict_of({**TABLE, "information": "secret"}).error
    assert error is not None and error.code == "bad-record"
    assert error.message.startswith('information: must be full or public, got "secret"')
    full = json.loads((EXAMPLES / "demo-game.json").read_text(encoding="utf-8"))
    assert isinstance(parse_record(json.dumps({**full, "information": "full"})), Record)


# --- reshuffles --------------------------------------------------------------------------------


def reshuffled_game() -> tuple[Record, PublicRecord]:
    """A tiny game with a reshuffle, in both forms."""
    rules = gr.load_ruleset(ROOT / TINY)
    for seed in range(200):
        full, _ = play_game(rules, 3, seed=seed, bot="random", ruleset_ref=TINY)
        if any(m["action"] == "reshuffle" for r in full.rounds for m in r.moves):
            return full, redact(full, base_dir=ROOT)
    raise AssertionError("no reshuffle in 200 games")


def test_a_reshuffle_names_no_cards_and_the_draws_after_it_come_from_its_cards() -> None:
    full, public = reshuffled_game()
    assert validate_record(public, base_dir=ROOT).scores == (
        validate_record(full, base_dir=ROOT).scores
    )
    data = json.loads(dump_record(public))
    r, m = next(
        (r, m)
        for r, round_ in enumerate(data["rounds"])
        for m, move in enumerate(round_["moves"])
        if move["action"] == "reshuffle"
    )
    assert data["rounds"][r]["moves"][m] == {"action": "reshuffle"}
    before = replay_record(full, base_dir=ROOT, until=(r, m)).state
    assert before is not None and before.phase is gr.Phase.RESHUFFLE
    below = {card for pile in before.discard_piles for card in pile[:-1]}
    draws = data["rounds"][r]["moves"]
    index = next(
        i
        for i in range(m + 1, len(draws))
        if draws[i]["action"] == "draw" and draws[i]["source"] == "deck"
    )
    outside = next(face for face in (1, 2, 3, 4, 5, -1, -2, "M", "H") if face not in below)
    tampered = copy.deepcopy(data)
    tampered["rounds"][r]["moves"][index]["card"] = outside
    assert error_of(tampered) == ("impossible-card", r, index)
    error = verdict_of(tampered).error
    assert error is not None and "the reshuffled draw pile holds no" in error.message
    early = copy.deepcopy(data)
    del early["rounds"][r]["moves"][m]  # the reshuffle left out: the next move comes too soon
    assert error_of(early) == ("wrong-phase", r, m)
    late = copy.deepcopy(data)
    late["rounds"][r]["moves"].insert(0, {"action": "reshuffle"})  # one that is not due
    assert error_of(late) == ("wrong-phase", r, 0)
