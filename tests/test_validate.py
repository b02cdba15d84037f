"""The validator: RECORD.md's verdict, its order of checks, every claim, and the readings."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kit import EXAMPLES, ILLEGAL, examples, verdict_of, where

import gnoming_rules as gr
from gnoming_rules.core.errors import INPUT_ERROR_CODES
from gnoming_rules.formats import dump_record
from gnoming_rules.formats.record import parse_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee import RulesetResolver, Verdict, VerdictError
from gnoming_rules.referee.validate import (
    replay_file,
    replay_record,
    validate_file,
    validate_record,
)

ex = examples
SETUP = ex.SETUP


def standard(moves: list[dict[str, Any]], **arranged: Any) -> dict[str, Any]:
    data: dict[str, Any] = ex.record_data([ex.standard_round(moves, **arranged)])
    return data


def tiny(seed: int = 1, **options: Any) -> dict[str, Any]:
    data: dict[str, Any] = ex.tiny_game(seed, **options)
    return data


# --- the verdict object ---------------------------------------------------------------------


def test_a_valid_complete_game_has_scores_totals_and_winners() -> None:
    data = tiny(2)
    verdict = verdict_of(data)
    assert verdict.valid and verdict.complete and verdict.error is None
    assert verdict.exit_status == 0
    assert [list(s) for s in verdict.scores] == [r["scores"] for r in data["rounds"]]
    assert list(verdict.totals) == data["result"]["totals"]
    assert list(verdict.winners) == data["result"]["winners"]


def test_the_verdict_object_is_exactly_record_md_s() -> None:
    verdict = verdict_of(standard([*SETUP, ex.place(0, 2)]))
    as_dict = json.loads(verdict.to_json())
    assert list(as_dict) == ["valid", "complete", "error", "scores", "totals", "winners"]
    assert list(as_dict["error"]) == ["round", "move", "code", "rule", "message"]
    assert as_dict == {
        "valid": False,
        "complete": False,
        "error": {
            "round": 0,
            "move": 6,
            "code": "wrong-phase",
            "rule": "4.1",
            "message": "place refused: seat 0 must draw first",
        },
        "scores": [],
        "totals": [0, 0, 0],
        "winners": [],
    }
    assert "\n" not in verdict.to_json()


def test_a_record_that_stops_is_valid_and_incomplete() -> None:
    data = tiny(3)
    data["rounds"][1]["moves"] = data["rounds"][1]["moves"][:5]
    del data["rounds"][1]["scores"]
    verdict = verdict_of(data)
    assert verdict.valid and not verdict.complete
    assert len(verdict.scores) == 1 and verdict.totals == verdict.scores[0]
    assert verdict.winners == ()


def test_a_record_with_no_rounds_is_valid_with_zero_totals() -> None:
    verdict = verdict_of(ex.record_data([]))
    assert (verdict.valid, verdict.complete, verdict.scores, verdict.totals) == (
        True,
        False,
        (),
        (0, 0, 0),
    )


def test_input_that_is_not_a_record_has_empty_totals(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "gnoming-record/1"', encoding="utf-8")
    verdict = validate_file(path)
    assert where(verdict) == ("bad-record", None, None)
    assert (verdict.totals, verdict.exit_status, verdict.error and verdict.error.rule) == (
        (),
        2,
        None,
    )


# --- order of checks: input errors anywhere win ------------------------------------------------


def test_a_bad_deal_in_a_later_round_wins_over_an_earlier_violation() -> None:
    data = standard([ex.reveal(1, 0)])  # not-your-turn at (0, 0)
    second = ex.standard_round([])
    second["deal"] = second["deal"][1:]
    data["rounds"].append(second)
    verdict = verdict_of(data)
    assert where(verdict) == ("bad-deal", 1, None)
    assert verdict.error is not None and verdict.error.rule == "3.1"
    assert verdict.totals == (0, 0, 0) and verdict.exit_status == 2


def test_a_seat_out_of_range_anywhere_wins_over_an_earlier_violation() -> None:
    data = standard([ex.reveal(1, 0), ex.reveal(0, 0), ex.draw(3)])
    verdict = verdict_of(data)
    assert where(verdict) == ("bad-record", 0, 2)
    assert verdict.error is not None
    assert verdict.error.message.startswith("rounds[0].moves[2].player: seat 3 does not exist")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"ruleset": "nonesuch"}, ("unknown-ruleset", None, None)),
        ({"ruleset_sha256": "0" * 64}, ("ruleset-mismatch", None, None)),
        ({"players": ["Ana", "Bo"]}, ("bad-record", None, None)),
        ({"players": ["P"] * 8}, ("bad-record", None, None)),
        ({"first_player": 3}, ("bad-record", None, None)),
    ],
)
def test_ruleset_and_table_errors_win_over_violations(
    change: dict[str, Any], expected: tuple[str, None, None]
) -> None:
    data = standard([ex.reveal(0, 9)])  # bad-slot at (0, 0)
    data.update(change)
    verdict = verdict_of(data)
    assert where(verdict) == expected
    assert verdict.exit_status == 2
    assert verdict.error is not None and verdict.error.rule is None


@pytest.mark.parametrize(
    ("change", "totals"),
    [
        ({"ruleset": "nonesuch"}, (0, 0, 0)),  # unknown-ruleset
        ({"ruleset_sha256": "0" * 64}, (0, 0, 0)),  # ruleset-mismatch
        ({"players": ["Ana", "Bo"]}, (0, 0)),  # the player count: a record, two seats
        ({"players": ["P"] * 8}, (0,) * 8),
        ({"first_player": 3}, ()),  # a seat that does not exist: the structure
        ({"players": []}, ()),
    ],
)
def test_totals_are_empty_only_when_the_input_is_no_record(
    change: dict[str, Any], totals: tuple[int, ...], tmp_path: Path
) -> None:
    """RECORD.md: totals are zeros when no round finished, [] when the input is not a
    record. A record whose player count its ruleset refuses is a record (checked after
    the ruleset, like a bad deal): a zero a seat, as for unknown-ruleset and bad-deal."""
    data = standard([ex.reveal(0, 9)])
    data.update(change)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    verdict = validate_file(path)
    assert verdict.error is not None and verdict.exit_status == 2
    assert verdict.totals == totals and verdict.scores == ()


def test_the_structure_is_checked_before_the_ruleset() -> None:
    data = standard([{"action": "reveal", "player": 0, "slot": None}])
    data["ruleset"] = "nonesuch"
    with pytest.raises(gr.RecordError) as caught:
        parse_record(json.dumps(data))
    assert (caught.value.round, caught.value.move) == (0, 0)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"ruleset": "nonesuch"}, "unknown-ruleset"),
        ({"ruleset": "one-pile"}, "ruleset-mismatch"),  # the record's hash is standard's
        ({}, "bad-record"),  # pile 3 under the record's own two piles
    ],
)
def test_a_pile_is_bounded_by_the_records_own_rules_only(change: dict[str, Any], code: str) -> None:
    """A ``pile`` past the last of rules that are not the record's (unknown, or another
    hash) is no fault of the record's structure: the ruleset's fault is reported."""
    data = standard([*SETUP, {"action": "draw", "player": 0, "source": "discard", "pile": 3}])
    data["ruleset_sha256"] = gr.load_ruleset("standard").sha256
    data.update(change)
    verdict = verdict_of(data)
    assert verdict.error is not None and verdict.error.code == code, verdict.error


@pytest.mark.parametrize(
    ("entry", "path"),
    [
        ({"action": "draw", "player": 0, "source": "deck", "pile": 1}, "pile"),
        ({"action": "draw", "player": 0, "source": "discard"}, "pile"),
        ({"action": "flip", "player": 5, "slot": 0}, "player"),
    ],
)
def test_move_fields_that_contradict_each_other_are_bad_records(
    entry: dict[str, Any], path: str
) -> None:
    verdict = verdict_of(standard([*SETUP, entry]))
    assert where(verdict) == ("bad-record", 0, 6)
    assert verdict.error is not None
    assert verdict.error.message.startswith(f"rounds[0].moves[6].{path}: ")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("scores", [1, 2], "rounds[0].scores: 2 scores for 3 players"),
        ("totals", [1], "result.totals: 1 totals for 3 players"),
        ("winners", [3], "result.winners: seat 3 does not exist"),
    ],
)
def test_claims_of_the_wrong_size_are_bad_records(
    field: str, value: list[int], message: str
) -> None:
    data = standard(SETUP)
    if field == "scores":
        data["rounds"][0]["scores"] = value
    else:
        data["result"] = {field: value}
    verdict = verdict_of(data)
    assert where(verdict) == ("bad-record", None, None)
    assert verdict.error is not None and verdict.error.message.startswith(message)


# --- the replay --------------------------------------------------------------------------------


def test_a_bounce_before_any_play_of_the_turn_is_the_wrong_phase_at_that_move() -> None:
    """The drawn 7 could bounce (Ana shows a 7), but no play has started a chain yet."""
    moves = [*SETUP, ex.draw(0), ex.bounce(0, 2)]
    data = standard(moves, layouts={0: {0: 7, 1: 3}}, draw=[7])
    verdict = verdict_of(data)
    assert where(verdict) == ("wrong-phase", 0, len(SETUP) + 1)
    assert verdict.error is not None and verdict.error.rule == "4.2"


def test_a_round_beyond_the_rulesets_count_is_a_move_after_the_end() -> None:
    data = tiny(2)
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    verdict = verdict_of(data)
    assert where(verdict) == ("moves-after-end", 2, None)
    assert verdict.error is not None and verdict.error.rule == "2.2"
    assert verdict.complete and verdict.winners  # every round of the game finished
    assert verdict.exit_status == 1


def test_a_round_that_stops_early_followed_by_another_is_the_wrong_phase() -> None:
    data = tiny(2)
    data["rounds"][0]["moves"] = data["rounds"][0]["moves"][:10]
    verdict = verdict_of(data)
    assert where(verdict) == ("wrong-phase", 0, 10)
    assert verdict.error is not None and "yet round 1 follows" in verdict.error.message


def test_a_hazard_discarded_with_a_pile_is_tolerated_and_the_pile_dropped() -> None:
    moves = [*SETUP, ex.draw(0, 0), ex.place(0, 2), ex.discard(0, 1), ex.flip(1, 2)]
    data = standard(moves, layouts={0: {2: gr.HAZARD}})
    verdict = verdict_of(data)
    assert verdict.valid, verdict
    replay = replay_record(parse_record(json.dumps(data)))
    assert replay.state is not None
    assert replay.state.removed == (gr.HAZARD,) and replay.state.flips_owed == (2,)
    assert replay.state.discard_piles[1] == (data["rounds"][0]["deal"][28],)


def test_the_engine_itself_refuses_a_pile_for_a_hazard() -> None:
    data = standard([*SETUP, ex.draw(0, 0), ex.place(0, 2)], layouts={0: {2: gr.HAZARD}})
    replay = replay_record(parse_record(json.dumps(data)))
    rules = gr.load_ruleset("standard")
    assert replay.state is not None and replay.state.held == gr.HAZARD
    refusal = gr.explain(rules, replay.state, gr.Discard(0, 1))
    assert refusal is not None and (refusal.code, refusal.rule) == ("wrong-pile", "6.1")


def test_a_non_hazard_discard_without_a_pile_is_a_bad_record_at_that_move() -> None:
    data = standard([ex.reveal(0, 0), *SETUP[1:], ex.draw(0), ex.discard(0)])
    verdict = verdict_of(data)
    assert where(verdict) == ("bad-record", 0, 7)
    assert verdict.error is not None and verdict.error.rule is None
    assert verdict.exit_status == 2 and verdict.totals == (0, 0, 0)


def test_a_reshuffle_after_the_round_ended_is_a_move_after_the_end() -> None:
    data = tiny(1, rounds=1)
    data["rounds"][0]["moves"].append({"action": "reshuffle", "cards": [1, 2]})
    assert where(verdict_of(data)) == ("moves-after-end", 0, len(data["rounds"][0]["moves"]) - 1)


def test_a_move_where_a_reshuffle_is_due_is_the_wrong_phase() -> None:
    data = tiny(3)
    round_index, move_index = ex.first_reshuffle(data)
    moves = data["rounds"][round_index]["moves"]
    del moves[move_index]
    assert where(verdict_of(data)) == ("wrong-phase", round_index, move_index)


# --- claims ------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["reveal", "draw", "place", "bounce", "flip"])
def test_a_false_card_claim_on_each_kind_of_move_is_caught(action: str) -> None:
    rules = gr.load_ruleset("standard")
    for seed in range(40):
        record, _ = play_game(rules, 4, seed=seed)
        data = record.model_dump(exclude_none=True)
        for round_index, round_ in enumerate(data["rounds"]):
            for move_index, move in enumerate(round_["moves"]):
                if move["action"] == action:
                    move["card"] = "M" if move["card"] != "M" else 1
                    verdict = verdict_of(data)
                    assert where(verdict) == ("card-mismatch", round_index, move_index)
                    assert verdict.error is not None and verdict.error.rule is None
                    return
    pytest.fail(f"no {action} in 40 games")


def test_claims_on_an_unfinished_round_and_game_are_not_checked() -> None:
    data = standard(SETUP)
    data["rounds"][0]["scores"] = [99, 99, 99]
    data["result"] = {"totals": [1, 2, 3], "winners": [2]}
    assert verdict_of(data).valid


def test_a_false_score_claim_still_counts_its_round_as_finished() -> None:
    data = tiny(1)
    data["rounds"][0]["scores"][1] += 3
    verdict = verdict_of(data)
    assert where(verdict) == ("score-mismatch", 0, None)
    assert verdict.error is not None and verdict.error.rule == "8"
    assert len(verdict.scores) == 1 and not verdict.complete


def test_a_false_result_on_a_complete_game_keeps_it_complete() -> None:
    data = tiny(2)
    data["result"]["winners"] = [seat for seat in range(3) if seat not in data["result"]["winners"]]
    verdict = verdict_of(data)
    assert where(verdict) == ("result-mismatch", None, None)
    assert verdict.complete and verdict.winners and verdict.error is not None
    assert verdict.error.rule == "9.1"


def test_winners_are_compared_as_a_set() -> None:
    data = tiny(2)
    winners = data["result"]["winners"]
    data["result"]["winners"] = list(reversed(winners)) + winners
    assert verdict_of(data).valid


def test_a_false_final_score_claim_leaves_the_game_complete() -> None:
    data = tiny(2)
    data["rounds"][1]["scores"][0] -= 1
    verdict = verdict_of(data)
    assert where(verdict) == ("score-mismatch", 1, None)
    assert verdict.complete and len(verdict.scores) == 2 and verdict.winners


# --- rulesets ------------------------------------------------------------------------------------


def test_a_relative_ruleset_path_is_read_from_the_records_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert validate_file(EXAMPLES / "tiny-game.json").valid


def test_an_inline_ruleset_record_is_valid() -> None:
    assert validate_file(EXAMPLES / "inline-ruleset.json").valid


@pytest.mark.parametrize(
    ("ruleset", "words"),
    [
        ("missing.yaml", "no such ruleset file"),
        ("nonesuch", "no bundled ruleset named 'nonesuch'"),
        ({"extends": "standard", "rounds": 0}, "rounds"),
        ({"extends": "nonesuch"}, "no bundled ruleset"),
        # A name the file system refuses to look up (OSError "File name too long") or cannot
        # hold (a null byte): the ruleset cannot be found.
        ("a" * 300, "cannot be looked up: File name too long"),
        ("a" * 300 + ".yaml", "cannot be looked up: File name too long"),
        ({"extends": "b" * 300}, "cannot be looked up: File name too long"),
        ("a\x00b.yaml", "cannot be looked up: embedded null byte"),
    ],
)
def test_a_ruleset_that_cannot_be_used_is_an_unknown_ruleset_saying_why(
    ruleset: Any, words: str
) -> None:
    data = standard(SETUP)
    data["ruleset"] = ruleset
    del data["ruleset_sha256"]
    verdict = verdict_of(data)
    assert where(verdict) == ("unknown-ruleset", None, None)
    assert verdict.error is not None and words in verdict.error.message


def test_a_hash_that_does_not_match_the_named_ruleset_is_refused() -> None:
    data = tiny(2)
    data["ruleset"] = {"extends": "tiny.yaml", "going_out": {"bonus": -6}}
    verdict = verdict_of(data, EXAMPLES)
    assert where(verdict) == ("ruleset-mismatch", None, None)
    del data["ruleset_sha256"]
    assert verdict_of(data, EXAMPLES).valid  # no hash: checked as usual (the bonus never applied)


def test_an_override_ruleset_must_still_match_the_hash() -> None:
    record = parse_record((EXAMPLES / "tiny-game.json").read_bytes())
    tiny_rules = gr.load_ruleset(EXAMPLES / "tiny.yaml")
    assert validate_record(record, ruleset=tiny_rules).valid
    renamed = gr.load_ruleset({"extends": str(EXAMPLES / "tiny.yaml"), "name": "other"})
    assert validate_record(record, ruleset=renamed).valid  # labels are not rules
    verdict = validate_record(record, ruleset="standard")
    assert where(verdict) == ("ruleset-mismatch", None, None)
    assert verdict.error is not None and "the ruleset given" in verdict.error.message
    unhashed = record.model_copy(update={"ruleset_sha256": None})
    assert where(validate_record(unhashed, ruleset="standard")) == ("bad-deal", 0, None)


# --- many games, every ruleset kind ---------------------------------------------------------------

VARIANTS: list[dict[str, Any]] = [
    {"extends": "standard"},
    {"extends": "standard", "empty_draw_pile": "end_round", "bounce": False},
    {"extends": "standard", "hazard": {"flips": "next", "spare_last_card": False}},
    {"extends": "standard", "hazard": {"flips": "none"}, "first_player": "fixed"},
    {"extends": "standard", "discard": {"taken_must_be_played": False}, "rounds": 1},
    {"extends": "standard", "layout": {"rows": 2, "cols": 4, "face_up_at_start": 0}},
    {"extends": "standard", "layout": {"rows": 4, "cols": 3, "face_up_at_start": 3}},
    {"extends": "standard", "mulligan": {"max_face_up": 2}, "players": {"min": 2, "max": 4}},
]


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_bot_games_under_every_variant_validate_to_their_own_result(variant: int) -> None:
    inline = VARIANTS[variant]
    rules = gr.load_ruleset(inline)
    for seed in range(6):
        players = rules.players.min + seed % (rules.players.max - rules.players.min + 1)
        record, state = play_game(
            rules, players, seed=seed, bot="random" if seed % 2 else "greedy", ruleset_ref=inline
        )
        verdict = validate_record(record)
        assert verdict.valid and verdict.complete, verdict
        assert verdict.scores == state.scores and verdict.winners == state.winners


# --- robustness -----------------------------------------------------------------------------------

_BASE = tiny(4)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0),
    st.sampled_from(["player", "slot", "pile", "card", "source", "action", "cards"]),
    st.one_of(
        st.integers(min_value=-3, max_value=12),
        st.integers(),
        st.sampled_from(["H", "M", "deck", "discard", "draw", "flip", "x", None, True, 1.5]),
        st.lists(st.integers(min_value=-2, max_value=5), max_size=3),
    ),
)
def test_any_single_field_change_gets_a_verdict_never_a_crash(
    position: int, field: str, value: object
) -> None:
    data = copy.deepcopy(_BASE)
    moves = [(r, m) for r, round_ in enumerate(data["rounds"]) for m in range(len(round_["moves"]))]
    round_index, move_index = moves[position % len(moves)]
    data["rounds"][round_index]["moves"][move_index][field] = value
    try:
        record = parse_record(json.dumps(data))
    except gr.RecordError as error:
        assert (error.round, error.move) in ((round_index, move_index), (None, None))
        return
    verdict = validate_record(record, base_dir=ILLEGAL)
    if verdict.error is not None:
        assert verdict.error.code in gr.ERROR_CODES
        assert verdict.exit_status == (2 if verdict.error.code in INPUT_ERROR_CODES else 1)
        if verdict.error.move is not None:  # the moves before the change are still legal
            assert (verdict.error.round, verdict.error.move) >= (round_index, move_index)


def test_truncating_a_record_anywhere_leaves_it_valid() -> None:
    rng = random.Random(9)
    data = tiny(5)
    data.pop("result")
    for round_ in data["rounds"]:
        round_.pop("scores")
    for _ in range(30):
        cut = copy.deepcopy(data)
        round_index = rng.randrange(len(cut["rounds"]))
        cut["rounds"] = cut["rounds"][: round_index + 1]
        moves = cut["rounds"][round_index]["moves"]
        cut["rounds"][round_index]["moves"] = moves[: rng.randrange(len(moves) + 1)]
        assert verdict_of(cut).valid


def test_the_replay_keeps_the_state_and_the_failing_entry_for_reports() -> None:
    replay = replay_file(ILLEGAL / "mulligan-limit.json")
    assert replay.entry == {"action": "place", "player": 0, "slot": 2}
    assert replay.state is not None and replay.state.held == gr.MULLIGAN
    assert replay.ruleset is not None and replay.ruleset.name == "standard"


def test_until_pauses_the_replay_before_a_move() -> None:
    replay = replay_file(EXAMPLES / "tiny-game.json", until=(1, 3))
    assert replay.verdict.valid and replay.state is not None
    assert replay.state.round == 1 and replay.entry is not None
    assert (
        replay.entry == parse_record((EXAMPLES / "tiny-game.json").read_bytes()).rounds[1].moves[3]
    )


def test_entries_that_differ_only_in_which_optional_field_is_given_are_told_apart() -> None:
    card_claim = {"action": "draw", "player": 0, "source": "deck", "card": 1}
    pile_given = {"action": "draw", "player": 0, "source": "deck", "pile": 1}
    for _ in range(2):  # in both orders: the second lookup hits the step cache
        assert verdict_of(standard([*SETUP, card_claim], draw=[1])).valid
        assert where(verdict_of(standard([*SETUP, pile_given], draw=[1]))) == ("bad-record", 0, 6)


@pytest.mark.parametrize(
    ("inline", "words"),
    [
        ({"extends": "standard", "deck": {"numbers": {"1": 10**9}}}, "deck.numbers.1"),
        ({"extends": "standard", "deck": {"numbers": {"1": 9000, "2": 9000}}}, "10000"),
        ({"extends": "standard", "players": {"max": 10**6}}, "players.max"),
    ],
)
def test_a_record_cannot_ask_for_a_ruleset_too_large_to_replay(
    inline: dict[str, Any], words: str
) -> None:
    data = standard(SETUP)
    data["ruleset"] = inline
    del data["ruleset_sha256"]
    verdict = verdict_of(data)
    assert where(verdict) == ("unknown-ruleset", None, None)
    assert verdict.error is not None and words in verdict.error.message


def test_a_ruleset_file_with_aliases_is_an_unknown_ruleset_at_once(tmp_path: Path) -> None:
    """A billion-laughs ruleset file named by a record once hung the validator."""
    lines = ['a0: ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    (tmp_path / "laughs.yaml").write_text("\n".join([*lines, "rounds: *a9", ""]))
    data = standard(SETUP)
    data["ruleset"] = "laughs.yaml"
    del data["ruleset_sha256"]
    verdict = verdict_of(data, base_dir=tmp_path)
    assert where(verdict) == ("unknown-ruleset", None, None)
    assert verdict.error is not None and "aliases (*name) are not allowed" in verdict.error.message


def test_a_resolver_can_limit_the_ruleset_files_a_record_makes_it_read(tmp_path: Path) -> None:
    house = tmp_path / "house"
    house.mkdir()
    (house / "quick3.yaml").write_text("extends: quick\nbounce: false\n", encoding="utf-8")
    (house / "escape.yaml").write_text("extends: ../secret.yaml\n", encoding="utf-8")
    (tmp_path / "secret.yaml").write_text("extends: standard\n", encoding="utf-8")
    rules = gr.load_ruleset(house / "quick3.yaml")
    record, _ = play_game(rules, 3, seed=1)

    def verdict(ruleset: Any, files: Any) -> Verdict:
        data = json.loads(dump_record(record))
        data.pop("ruleset_sha256")
        data["ruleset"] = ruleset
        folder = tmp_path / "records"
        folder.mkdir(exist_ok=True)
        path = folder / "game.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return validate_file(path, resolver=RulesetResolver(files=files))

    inside, outside = "../house/quick3.yaml", str(tmp_path / "secret.yaml")
    assert verdict(inside, "any").valid and verdict(inside, house).valid
    bundled = verdict("quick", "none").error  # bundled names are always allowed
    assert bundled is None or bundled.code != "unknown-ruleset", bundled
    refused = "not a bundled ruleset, and ruleset files may be read only from"
    refusals: list[tuple[Any, Any, str]] = [
        (inside, "none", f'"{inside}": {refused}'),
        (outside, house, f'"{outside}": {refused}'),
        ("../house/escape.yaml", house, f'extends: "../secret.yaml": {refused}'),
        ({"extends": outside}, "none", f'"{outside}": {refused}'),
        (inside, "record", f'"{inside}": {refused}'),  # the default: the record's own folder
    ]
    for ruleset, files, why in refusals:
        error = verdict(ruleset, files).error
        assert error is not None and error.code == "unknown-ruleset", (ruleset, error)
        assert why in error.message and "\n" not in error.message


def test_a_table_the_ruleset_cannot_seat_is_a_bad_record_with_zero_totals() -> None:
    record, _ = play_game(gr.load_ruleset("standard"), 3, seed=2)
    data = json.loads(dump_record(record))
    data.pop("ruleset_sha256")
    data["ruleset"] = {"extends": "standard", "players": {"min": 4}}  # 3 seats: too few
    verdict = validate_record(parse_record(json.dumps(data)))
    assert verdict.error is not None and verdict.error.code == "bad-record"
    assert "outside this ruleset's 4 to 7" in verdict.error.message
    # RECORD.md: zeros when no round finished; [] only when the input is not a record.
    assert (verdict.scores, verdict.totals, verdict.exit_status) == ((), (0, 0, 0), 2)


def test_a_json_verdict_is_one_line_even_for_readers_that_break_at_u2028(
    tmp_path: Path,
) -> None:
    # Messages quote odd input with escapes already; to_json holds even if one did not.
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({"format": "gnoming\u2028record\x85/1\u2029"}), encoding="utf-8")
    quoted = validate_file(path)
    assert quoted.error is not None and "\\u2028" in quoted.error.message
    raw = VerdictError(None, None, "bad-record", None, "a\u2028b\x85c\u2029d")
    for verdict in (quoted, Verdict(False, False, raw, (), (), ())):
        line = verdict.to_json()
        assert len(line.splitlines()) == 1, line
        assert json.loads(line) == verdict.to_dict()


def test_a_discard_moved_to_the_other_pile_can_pass_unnoticed() -> None:
    """docs/cli.md says what a fully claimed record catches: an edit that breaks a rule or
    a claim. A discard carries no claim, so moving one to the other pile can keep the
    record valid: in the demo game, many such edits pass (and some do not)."""
    data = json.loads((EXAMPLES / "demo-game.json").read_text(encoding="utf-8"))
    verdicts = []
    for index, move in enumerate(data["rounds"][0]["moves"]):
        if move["action"] == "discard" and "pile" in move:
            edited = copy.deepcopy(data)
            edited["rounds"][0]["moves"][index]["pile"] = 1 - move["pile"]
            verdicts.append(validate_record(parse_record(json.dumps(edited))).valid)
    assert any(verdicts) and not all(verdicts)
    page = (EXAMPLES.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "catches any later edit" not in page and "a `discard` carries no claim" in page


def test_a_verdict_is_one_line_even_for_str_splitlines() -> None:
    """JSON allows U+0085, U+2028 and U+2029 raw in a string; str.splitlines() (and many
    JSON Lines readers) break lines there, so the verdict escapes them."""
    message = "name\u2028with\x85breaks\u2029é"
    error = VerdictError(None, None, "bad-record", None, message)
    line = Verdict(False, False, error, (), (), ()).to_json()
    assert len(line.splitlines()) == 1 and "é" in line
    assert json.loads(line)["error"]["message"] == message


def test_a_table_of_one_is_counted_in_the_singular() -> None:
    data = standard(SETUP)
    data["players"], data["first_player"] = ["Ana"], 1
    verdict = verdict_of(data)
    assert verdict.error is not None
    first = "first_player: seat 1 does not exist (1 player: seat 0)"
    assert verdict.error.message.startswith(f"{first} (and ")  # the moves' seats too
    assert verdict.error.problems[0].message == first
