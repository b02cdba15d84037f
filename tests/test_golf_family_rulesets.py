"""The bundled rulesets of the Golf family (issues 19 and 30, rules 10-11): golf-6, golf-9,
skyjo-like, four-card-golf and cabo-like play, validate, redact and replay (the two that
place cards face down, rule 11.3, included: their public form names only what the whole
table saw); a six-card Golf record and a Cabo-like one written at the table validate, and a
copy of each with one changed claim is refused at that move."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from kit import EXAMPLES

import gnoming_rules as gr
from gnoming_rules.cli import main
from gnoming_rules.core.cards import EMPTY
from gnoming_rules.formats import state_from_dict, state_to_dict
from gnoming_rules.formats.record import Record, dump_record, parse_record, write_record
from gnoming_rules.pictures.table import table_svg
from gnoming_rules.play.bots import play_game
from gnoming_rules.play.observation import observe
from gnoming_rules.play.render import draw_table
from gnoming_rules.referee import validate_record
from gnoming_rules.referee.redact import redact
from gnoming_rules.testing import variant

FAMILY = ["golf-6", "golf-9", "skyjo-like", "four-card-golf", "cabo-like", "golf-6-house"]
PLACED_DOWN = {"four-card-golf", "cabo-like"}
"""The rulesets that place cards face down (rule 11.3): their public form names a card
drawn from the deck only when it is discarded unplayed or turned up at the round's end."""
GOLF = EXAMPLES / "golf"
"""Records written by hand at a table (public information: no deal)."""


def test_golf_6_is_classic_six_card_golf() -> None:
    golf = gr.load_ruleset("golf-6")
    assert golf.deck.size == 52 and golf.slots == 6
    assert (golf.players.min, golf.players.max, golf.rounds) == (2, 8, 9)
    # A=1, 2=-2, J/Q=10, K=0; a pair of equal cards in a column scores 0, twos included.
    assert gr.score_layout(golf, ["A", 2, "J", "Q", "K", 5]) == 1 - 2 + 10 + 10 + 0 + 5
    assert gr.score_layout(golf, [2, "J", 7, 2, "J", 3]) == 10
    assert gr.score_layout(golf, ["J", 9, 4, "Q", 9, 4]) == 20  # a J and a Q do not pair
    assert "Pagat" in golf.description


def test_golf_9_scores_three_of_a_kind_in_a_row_or_column_as_0() -> None:
    golf = gr.load_ruleset("golf-9")
    assert golf.slots == 9 and (golf.players.min, golf.players.max) == (2, 5)
    assert gr.score_layout(golf, [7, 7, 7, "A", 3, 4, "K", 5, 6]) == 1 + 3 + 4 + 5 + 6
    assert gr.score_layout(golf, [7, 3, 4, 7, 5, 6, 7, "A", "K"]) == 3 + 4 + 5 + 6 + 1


@pytest.mark.parametrize("name", FAMILY)
def test_a_family_game_plays_validates_redacts_and_replays(name: str) -> None:
    rules = gr.load_ruleset(name)
    assert rules.compiled.placed_down == (name in PLACED_DOWN)
    record, final = play_game(rules, players=3, seed=7, ruleset_ref=name)
    verdict = validate_record(parse_record(dump_record(record)))
    assert verdict.valid and verdict.complete and verdict.totals == final.totals
    public = redact(record)
    public_verdict = validate_record(parse_record(dump_record(public)))
    assert public_verdict.valid and public_verdict.totals == final.totals
    assert public_verdict.scores == verdict.scores and public_verdict.complete
    if name in PLACED_DOWN:  # rule 11.3: a deck draw names no card, its unplayed discard does
        moves = [move for round_ in public.rounds for move in round_.moves]
        deck_draws = [
            move for move in moves if move["action"] == "draw" and move["source"] == "deck"
        ]
        assert deck_draws and all("card" not in move for move in deck_draws)
        assert any("card" in move for move in moves if move["action"] == "discard")


@pytest.mark.parametrize("name", sorted(PLACED_DOWN))
def test_a_family_game_placing_face_up_redacts_without_a_peeked_card(name: str) -> None:
    """Peeks, powers and knocking (rules 11.2, 11.4, 11.5) with cards placed face up: the
    public form validates with the full record's verdict, and no ``peek`` names a card."""
    rules = variant(gr.load_ruleset(name), {"play": {"placed": "up"}})
    record, final = play_game(rules, players=3, seed=7)
    peeks = [move for round_ in record.rounds for move in round_.moves if move["action"] == "peek"]
    assert peeks and all("card" in move for move in peeks)  # the full record names them
    public = redact(record)
    public_verdict = validate_record(parse_record(dump_record(public)))
    assert public_verdict.valid and public_verdict.complete
    assert public_verdict.totals == final.totals
    public_peeks = [
        move for round_ in public.rounds for move in round_.moves if move["action"] == "peek"
    ]
    assert len(public_peeks) == len(peeks)
    assert all(move.get("card") is None for move in public_peeks)


def test_a_six_card_golf_record_written_at_the_table_validates() -> None:
    verdict = validate_record(parse_record((GOLF / "six-card-round.yaml").read_bytes()))
    assert verdict.valid and not verdict.complete
    assert verdict.information == "public" and verdict.scores == ((23, 5),)


def test_the_same_record_with_one_claim_changed_is_refused_at_that_move() -> None:
    text = (GOLF / "six-card-round-tampered.yaml").read_bytes()
    verdict = validate_record(parse_record(text))
    assert verdict.error is not None
    assert (verdict.error.round, verdict.error.move, verdict.error.code) == (
        0,
        7,
        "card-mismatch",
    )


@pytest.mark.parametrize("name", FAMILY)
def test_pettingzoos_api_test_passes_on_each_family_ruleset(name: str) -> None:
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    from gnoming_rules.adapters.pettingzoo_env import env

    with warnings.catch_warnings():  # as tests/test_adapters_pettingzoo.py says why
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        pettingzoo_test.api_test(env(name, 3), num_cycles=150)


# --- four-card-golf and cabo-like (rule 11) -------------------------------------------------------


def test_four_card_golf_is_the_published_deck_peek_and_knock() -> None:
    golf = gr.load_ruleset("four-card-golf")
    assert golf.deck.size == 52 and (golf.layout.rows, golf.layout.cols) == (2, 2)
    assert (golf.layout.face_up_at_start, golf.layout.peek_at_start) == (0, 2)
    assert golf.play.placed == "down" and golf.round_end.knock and not golf.powers
    assert (golf.players.min, golf.players.max, golf.rounds) == (2, 4, 9)
    assert (golf.deck.hazards, golf.deck.mulligans, golf.bounce) == (0, 0, False)
    # A=1, 2-10 their number, J/Q=10, K=0; a pair of equal cards in a column scores 0
    assert gr.score_layout(golf, ["A", "J", "Q", "K"]) == 1 + 10 + 10 + 0
    assert gr.score_layout(golf, [7, 2, 7, 9]) == 2 + 9
    assert gr.score_layout(golf, ["J", 3, "Q", 4]) == 10 + 3 + 10 + 4  # J and Q do not pair
    assert "ourpastimes" in golf.description


def test_cabo_like_is_the_published_deck_powers_and_call() -> None:
    cabo = gr.load_ruleset("cabo-like")
    numbers = dict(cabo.deck.numbers)
    assert cabo.deck.size == 52 and sorted(numbers) == list(range(14))
    assert (numbers[0], numbers[13]) == (2, 2)
    assert all(numbers[face] == 4 for face in range(1, 13))
    assert (cabo.layout.rows, cabo.layout.cols, cabo.layout.peek_at_start) == (2, 2, 2)
    assert cabo.play.placed == "down" and cabo.round_end.knock and cabo.powers_optional
    assert dict(cabo.powers) == {
        7: "peek_own",
        8: "peek_own",
        9: "peek_other",
        10: "peek_other",
        11: "swap_blind",
        12: "swap_blind",
    }
    assert (cabo.going_out.bonus, cabo.going_out.penalty) == (0, 10)
    assert cabo.going_out.ties_count_as_lowest and cabo.empty_draw_pile == "end_round"
    assert (cabo.players.min, cabo.players.max, cabo.game.end_score) == (2, 4, 101)
    # each card scores its number
    assert gr.score_layout(cabo, [0, 13, 12, 7]) == 0 + 13 + 12 + 7
    for unwritable in ("Kamikaze", "exactly 100", "Bezier"):
        assert unwritable in cabo.description


# --- skyjo-like (rules 10.6-10.10) -------------------------------------------------------------


def test_skyjo_like_is_the_published_skyjo_deck_layout_and_end() -> None:
    skyjo = gr.load_ruleset("skyjo-like")
    assert skyjo.deck.size == 150 and (skyjo.layout.rows, skyjo.layout.cols) == (3, 4)
    numbers = dict(skyjo.deck.numbers)
    assert (numbers[-2], numbers[-1], numbers[0]) == (5, 10, 15)
    assert all(numbers[face] == 10 for face in range(1, 13))
    assert (skyjo.players.min, skyjo.players.max, skyjo.game.end_score) == (2, 8, 100)
    assert skyjo.sets.score == "remove" and skyjo.sets.lines == ("columns",)
    assert skyjo.turn.flip_after_deck_discard == "must" and skyjo.first_player == "went_out"
    assert skyjo.going_out.double_if_not_lowest and "Skyjo" in skyjo.description
    # a column of three matching cards, -2s included, is a set that leaves: 0 points
    assert gr.score_layout(skyjo, [-2, 5, 5, 7, -2, 5, 6, 8, -2, 5, 1, 9]) == 5 + 6 + 1 + 7 + 8 + 9


def _skyjo_game_with_a_removal() -> tuple[Record, gr.State]:
    rules = gr.load_ruleset("skyjo-like")
    record, final = play_game(rules, players=3, seed=2, ruleset_ref="skyjo-like")
    return record, final  # (seed 2: the greedy bots complete a column in round 1)


def test_skyjo_like_plays_validates_redacts_and_validates_in_public_with_emptied_slots() -> None:
    record, final = _skyjo_game_with_a_removal()
    verdict = validate_record(parse_record(dump_record(record)))
    assert verdict.valid and verdict.complete and verdict.totals == final.totals
    assert final.is_over and max(final.totals) >= 100  # rule 10.8 ended it
    public = json.loads(dump_record(redact(record)))
    nulls = [
        (index, seat, slot)
        for index, round_ in enumerate(public["rounds"])
        for seat, layout in enumerate(round_["final"])
        for slot, card in enumerate(layout)
        if card is None
    ]
    assert nulls, "this game removes a column during play"
    public_verdict = validate_record(parse_record(json.dumps(public)))
    assert public_verdict.valid and public_verdict.totals == final.totals
    # a null where the slot is not empty, and a face where it is: card-mismatch at (round, null)
    index, seat, slot = nulls[0]
    layout = public["rounds"][index]["final"][seat]
    wrong_face = json.loads(json.dumps(public))
    wrong_face["rounds"][index]["final"][seat][slot] = 5
    filled = [s for s, card in enumerate(layout) if card is not None]
    wrong_null = json.loads(json.dumps(public))
    wrong_null["rounds"][index]["final"][seat][filled[0]] = None
    for tampered in (wrong_face, wrong_null):
        bad = validate_record(parse_record(json.dumps(tampered)))
        assert bad.error is not None
        assert (bad.error.round, bad.error.move, bad.error.code) == (
            index,
            None,
            "card-mismatch",
        )


def test_skyjo_like_stats_and_impact_read_a_small_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = gr.load_ruleset("skyjo-like")
    for seed in range(3):
        record, _ = play_game(rules, 2 + seed, seed=seed, ruleset_ref="skyjo-like", rounds=1)
        write_record(record, tmp_path / f"game-{seed}.json")
    assert main(["stats", str(tmp_path), "--json", "--jobs", "1"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == summary["valid"] == 3
    variant = tmp_path / "zero.yaml"
    variant.write_text("extends: skyjo-like\nname: skyjo-zero\nsets: {score: zero}\n")
    status = main(
        [
            "impact",
            "skyjo-like",
            str(variant),
            "--corpus",
            str(tmp_path),
            "--jobs",
            "1",
            "--json",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    assert status == 0 and document["records"] == 3
    status = main(
        [
            "impact",
            "skyjo-like",
            str(variant),
            "--games",
            "2",
            "--players",
            "3",
            "--json",
        ]
    )
    assert status == 0 and json.loads(capsys.readouterr().out)["games"] == 2


def _state_with_an_empty_slot() -> gr.State:
    rules = gr.load_ruleset("skyjo-like")
    found: list[gr.State] = []

    def watch(move: gr.Move, state: gr.State) -> None:
        if (
            not found
            and state.phase is gr.Phase.DRAW
            and any(EMPTY in cards for cards in state.cards)
        ):
            found.append(state)

    play_game(rules, players=3, seed=2, watch=watch)
    return found[0]


def test_views_drawings_snapshots_and_encodings_show_an_empty_slot_as_empty() -> None:
    rules = gr.load_ruleset("skyjo-like")
    state = _state_with_an_empty_slot()
    seat = next(s for s, layout in enumerate(state.cards) if EMPTY in layout)
    slot = state.cards[seat].index(EMPTY)
    # a snapshot writes it null and reads it back
    data = state_to_dict(state)
    assert data["cards"][seat][slot] is None
    assert state_from_dict(json.loads(json.dumps(data)), rules) == state
    # every seat's view shows the empty slot, and decides the same moves as the referee
    for viewer in range(state.players):
        view = observe(state, viewer)
        assert view.layouts[seat][slot] == EMPTY
        assert gr.legal_moves(rules, view) == gr.legal_moves(rules, state)
    # the text drawing shows "." and the SVG an empty outline, not a card
    assert "  .   " in "\n".join(draw_table(rules, state))
    svg = table_svg(rules, state)
    assert svg.count('class="empty"') >= state.cards[seat].count(EMPTY)
    # the learning encoder: an all-zero cell
    pytest.importorskip("numpy")
    from gnoming_rules.adapters.encoding import Encoder

    encoder = Encoder(rules, state.players)
    vector = encoder.encode(observe(state, seat))
    faces = len(encoder.faces) + 1
    first = encoder.start("layouts") + slot * faces
    cell = vector[first : first + faces]
    assert not cell.any()


# --- a Cabo-like record written at the table (rule 11.3: cards placed face down) -----------


def _cabo_round() -> dict[str, object]:
    import yaml

    data: dict[str, object] = yaml.safe_load((GOLF / "cabo-round.yaml").read_text())
    return data


def _moves(data: dict[str, object]) -> list[dict[str, object]]:
    return data["rounds"][0]["moves"]  # type: ignore[index,no-any-return]


def _refusal(data: dict[str, object]) -> tuple[int | None, int | None, str]:
    verdict = validate_record(parse_record(json.dumps(data)))
    assert verdict.error is not None
    return verdict.error.round, verdict.error.move, verdict.error.code


def test_a_cabo_like_record_written_at_the_table_validates() -> None:
    record = parse_record((GOLF / "cabo-round.yaml").read_bytes())
    verdict = validate_record(record)
    assert verdict.valid and verdict.information == "public"
    assert verdict.scores == ((32, 9),)
    moves = _moves(_cabo_round())
    assert all("card" not in move for move in moves if move["action"] == "peek")
    assert all("card" not in move for move in moves if move.get("source") == "deck")


def test_the_cabo_like_record_with_a_final_card_changed_is_refused_at_the_rounds_end() -> None:
    """Ana's slot 2 holds, face down, the 4 everyone saw her take from the discard pile."""
    verdict = validate_record(parse_record((GOLF / "cabo-round-tampered.yaml").read_bytes()))
    assert verdict.error is not None
    assert (verdict.error.round, verdict.error.move, verdict.error.code) == (
        0,
        None,
        "card-mismatch",
    )


def test_the_cabo_like_record_names_an_unplayed_deck_draw_where_it_is_discarded() -> None:
    data = _cabo_round()
    del _moves(data)[11]["card"]  # the 9 drawn from the deck and discarded unplayed
    assert _refusal(data) == (0, 11, "bad-record")
    data = _cabo_round()
    _moves(data)[11]["card"] = 7  # a 7's power peeks at one's own card: move 12 is no such peek
    assert _refusal(data) == (0, 12, "bad-slot")
    data = _cabo_round()
    _moves(data)[6]["card"] = 12  # the 11 displaced at move 5 is what move 6 discards
    assert _refusal(data) == (0, 6, "card-mismatch")


def test_the_cabo_like_record_names_no_card_drawn_from_the_deck() -> None:
    data = _cabo_round()
    _moves(data)[7]["card"] = 4
    assert _refusal(data) == (0, 7, "bad-record")
    data = _cabo_round()
    del _moves(data)[4]["card"]  # a draw from the discard pile names its card
    assert _refusal(data) == (0, 4, "bad-record")


def test_a_record_whose_ruleset_cannot_be_resolved_is_read_as_placing_face_up() -> None:
    data = _cabo_round()
    data["ruleset"] = "no-such-ruleset"
    assert _refusal(data) == (0, 7, "bad-record")  # the deck draw names no card
