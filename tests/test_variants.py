"""The bundled variants: each one's difference from standard, shown in play.

Every test plays one arranged situation through the public engine API (``new_game``,
``apply`` with an arranged ``Deal``, ``legal_moves``) under standard and under the
variant, and asserts both outcomes. Three players, seat 0 first; with 3x3 layouts the
deal's cards 0-8 are seat 0's layout, 9-17 seat 1's, 18-26 seat 2's, 27 and 28 start
discard piles 0 and 1, and 29 is the top of the draw pile. Setup reveals slots 0 and 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from builders import after_setup, eager, passive, play_until, random_game, variant

import gnoming_rules as gr
from gnoming_rules.formats.record import dump_record, parse_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.validate import validate_record

STANDARD = gr.load_ruleset("standard")
VARIANTS = [
    "no-bounce",
    "gentle-hazards",
    "open-discards",
    "two-mulligans",
    "quick",
    "big-grid",
    "end-on-empty-deck",
    "one-pile",
]
SEAT_1 = [1, 2, 3, 4, 6, 7, 8, 9, 10]
SEAT_2 = [10, 9, 8, 7, 6, 4, 3, 2, 1]
M, H = gr.MULLIGAN, gr.HAZARD


def table(
    seat_0: list[gr.Face], discards: tuple[gr.Face, gr.Face], *draw: gr.Face
) -> list[gr.Face]:
    """The front of a 3-player 3x3 deal: the layouts, the discard starts, the draw pile top."""
    return [*seat_0, *SEAT_1, *SEAT_2, *discards, *draw]


def test_every_bundled_variant_is_tested_and_extends_standard() -> None:
    family = ["golf-6", "golf-9", "skyjo-like", "four-card-golf", "cabo-like", "golf-6-house"]
    # see tests/test_golf_family_rulesets.py
    assert sorted(gr.bundled_rulesets()) == sorted(["standard", *VARIANTS, *family])
    folder = Path(__file__).resolve().parent.parent / "rulesets"
    for name in VARIANTS:
        text = (folder / f"{name}.yaml").read_text(encoding="utf-8")
        assert text.splitlines()[0] == (
            "# yaml-language-server: $schema=../schemas/ruleset.schema.json"
        )
        document = yaml.safe_load(text)
        assert document["name"] == name
        assert document["extends"] == "standard"
        assert document["description"].strip()
        rules = gr.load_ruleset(name)
        assert rules.name == name
        assert rules.sha256 != STANDARD.sha256


def test_no_bounce_discards_a_matching_displaced_card() -> None:
    rules = gr.load_ruleset("no-bounce")
    front = table([5, 11, 5, 1, 2, 3, 4, 6, 7], (9, 9), 12)
    outcomes = {}
    for ruleset in (STANDARD, rules):
        state = after_setup(ruleset, 3, front)
        state = gr.apply(ruleset, state, gr.Draw(0))
        state = gr.apply(ruleset, state, gr.Place(0, 2))  # turns up the 5 in slot 2
        assert state.held == 5
        outcomes[ruleset.name] = state
    standard, variant = outcomes["standard"], outcomes["no-bounce"]

    # Standard: the 5 matches the face-up 5 in slot 0 and may bounce into any slot but 2.
    bounces = {m for m in gr.legal_moves(STANDARD, standard) if isinstance(m, gr.Bounce)}
    assert bounces == {gr.Bounce(0, slot) for slot in range(9) if slot != 2}
    bounced = gr.apply(STANDARD, standard, gr.Bounce(0, 3))
    assert bounced.cards[0][:4] == (5, 11, 12, 5)
    assert bounced.held == 1

    # no-bounce: only the discards are offered, and a bounce is refused under rule 5.3.
    assert gr.legal_moves(rules, variant) == (gr.Discard(0, 0), gr.Discard(0, 1))
    with pytest.raises(gr.IllegalMove) as refused:
        gr.apply(rules, variant, gr.Bounce(0, 3))
    assert (refused.value.code, refused.value.rule) == ("cannot-bounce", "5.3")
    discarded = gr.apply(rules, variant, gr.Discard(0, 0))
    assert discarded.cards[0][:4] == (5, 11, 12, 1)
    assert discarded.discard_piles[0][-1] == 5


@pytest.mark.parametrize(("flips", "owed"), [("others", (1, 2)), ("next", (1,)), ("none", ())])
def test_who_flips_after_a_hazard(flips: str, owed: tuple[int, ...]) -> None:
    rules = (
        gr.load_ruleset("gentle-hazards") if flips == "none" else variant(hazard={"flips": flips})
    )
    state = after_setup(rules, 3, table([1, 2, 3, 4, 5, 6, 7, 8, 9], (11, 12), H))
    state = gr.apply(rules, state, gr.Draw(0))
    assert state.held == H
    after = gr.apply(rules, state, gr.Discard(0))
    assert after.removed == (H,)
    assert after.flips_owed == owed
    if owed:
        assert after.phase is gr.Phase.FLIP
        assert after.actor == owed[0]
        for seat in owed:
            after = gr.apply(rules, after, gr.Flip(seat, 8))
    assert after.phase is gr.Phase.DRAW
    assert after.turn == 1
    assert [after.face_down_count(seat) for seat in range(3)] == [
        7 - (seat in owed) for seat in range(3)
    ]


def test_open_discards_lets_a_taken_card_go_straight_back() -> None:
    rules = gr.load_ruleset("open-discards")
    front = table([1, 2, 3, 4, 5, 6, 7, 8, 9], (12, 11))
    before = after_setup(STANDARD, 3, front)
    assert before == after_setup(rules, 3, front)
    taken = gr.apply(STANDARD, before, gr.Draw(0, 0))
    assert taken.held == 12
    assert taken == gr.apply(rules, before, gr.Draw(0, 0))

    # Standard: the taken 12 must be played (4.5); only plays are offered.
    assert gr.legal_moves(STANDARD, taken) == tuple(gr.Place(0, slot) for slot in range(9))
    with pytest.raises(gr.IllegalMove) as refused:
        gr.apply(STANDARD, taken, gr.Discard(0, 0))
    assert (refused.value.code, refused.value.rule) == ("must-play-taken-card", "4.5")

    # open-discards: it may go back. Pile 0 is empty now, so it must go back on pile 0
    # (4.4), and the turn then changed nothing but whose turn it is.
    assert gr.legal_moves(rules, taken) == (
        *(gr.Place(0, slot) for slot in range(9)),
        gr.Discard(0, 0),
    )
    back = gr.apply(rules, taken, gr.Discard(0, 0))
    assert back == before.replace(turn=1)


@pytest.mark.parametrize("name", ["standard", "open-discards"])
def test_no_ruleset_forces_a_round_to_end(name: str) -> None:
    """A table that wants to stall can: the same state comes back, turn after turn.

    Under standard each player takes the top of discard pile 0, plays it over their
    face-up slot 0 and discards what it displaced on pile 0; under open-discards each
    simply puts the taken card back. Neither consumes the draw pile or turns a card up.
    """
    rules = gr.load_ruleset(name)
    start = after_setup(rules, 3, table([5, 2, 3, 4, 6, 7, 8, 9, 1], (12, 11)))
    state = start
    turns = 0
    while turns == 0 or (state != start and turns < 100):
        seat = state.turn
        state = gr.apply(rules, state, gr.Draw(seat, 0))
        if name == "standard":
            state = gr.apply(rules, state, gr.Place(seat, 0))
        state = gr.apply(rules, state, gr.Discard(seat, 0))
        turns += 1
        assert state.draw_pile == start.draw_pile
        assert state.face_up == start.face_up
    # Standard: the pile top and the three slots 0 (12, 5, 1, 10) rotate as a 4-cycle
    # each lap, so the start comes back after 4 laps; open-discards: after one lap.
    assert state == start
    assert turns == (12 if name == "standard" else 3)


def test_two_mulligans_allows_a_second_face_up_mulligan() -> None:
    rules = gr.load_ruleset("two-mulligans")
    front = table([M, 5, 9, 1, 2, 3, 4, 6, 7], (11, 12), M)
    placed = {}
    for ruleset in (STANDARD, rules):
        state = after_setup(ruleset, 3, front)
        assert state.is_face_up(0, 0)
        state = gr.apply(ruleset, state, gr.Draw(0))
        assert state.held == M
        placed[ruleset.name] = state
    standard, variant = placed["standard"], placed["two-mulligans"]

    # Standard (limit 1): only onto the face-up mulligan itself.
    plays = [m for m in gr.legal_moves(STANDARD, standard) if isinstance(m, gr.Place)]
    assert plays == [gr.Place(0, 0)]
    with pytest.raises(gr.IllegalMove) as refused:
        gr.apply(STANDARD, standard, gr.Place(0, 4))
    assert (refused.value.code, refused.value.rule) == ("mulligan-limit", "7.2")

    # two-mulligans: any slot; the layout then shows two mulligans.
    plays = [m for m in gr.legal_moves(rules, variant) if isinstance(m, gr.Place)]
    assert plays == [gr.Place(0, slot) for slot in range(9)]
    after = gr.apply(rules, variant, gr.Place(0, 4))
    shown = after.visible_layout(0)
    assert [slot for slot, card in enumerate(shown) if card == M] == [0, 4]


def test_two_mulligans_are_both_wild_in_scoring() -> None:
    # RULES worked example: 7 7 M / 4 4 M / 2 3 6. Limit 1: 12 (see RULES 8.2).
    # Limit 2: row 0 is a set of 7s, row 1 of 4s, column 2 (M M 6) of 6s: -17 + 2 + 3 = -12.
    layout: list[gr.Face] = [7, 7, M, 4, 4, M, 2, 3, 6]
    assert gr.score_layout(STANDARD, layout) == 12
    rules = gr.load_ruleset("two-mulligans")
    assert gr.score_layout(rules, layout) == -12
    breakdown = gr.score_breakdown(rules, layout)
    assert [(s.name, s.value) for s in breakdown.sets] == [
        ("row 0", 7),
        ("row 1", 4),
        ("column 2", 6),
    ]
    assert breakdown.wild == (2, 5)


def test_quick_is_over_after_one_round() -> None:
    rules = gr.load_ruleset("quick")
    front = table([1, 2, 3, 4, 5, 6, 7, 8, 9], (11, 12))
    ended = {}
    for ruleset in (STANDARD, rules):
        state = after_setup(ruleset, 3, front)
        ended[ruleset.name] = play_until(ruleset, state, eager, lambda s: s.round == 1)
    standard, quick = ended["standard"], ended["quick"]
    assert standard.scores == quick.scores
    assert len(quick.scores) == 1
    assert standard.phase is gr.Phase.DEAL and not standard.is_over
    assert standard.winners == ()
    assert quick.is_over
    assert quick.totals == quick.scores[0]
    assert quick.winners
    assert all(quick.totals[w] == min(quick.totals) for w in quick.winners)
    with pytest.raises(gr.IllegalMove) as refused:
        gr.apply(rules, quick, gr.Draw(0))
    assert refused.value.code == "moves-after-end"


def test_big_grid_deals_sixteen_cards_and_seats_at_most_six() -> None:
    rules = gr.load_ruleset("big-grid")
    assert (rules.players.min, rules.players.max) == (3, 6)
    gr.new_game(STANDARD, 7)
    with pytest.raises(gr.GnomingError) as refused:
        gr.new_game(rules, 7)
    assert refused.value.code == "bad-setup"

    row_of_fives: list[gr.Face] = [5, 5, 5, 5, -1, -2, -3, -4, 1, 2, 3, 4, 6, 7, 8, 9]
    seat_1: list[gr.Face] = [*range(1, 11), 11, 11, 12, 12, -1, -1]
    seat_2: list[gr.Face] = [*range(10, 0, -1), 11, 11, 12, 12, -2, -2]
    front = [*row_of_fives, *seat_1, *seat_2, 11, 12]
    standard = after_setup(STANDARD, 3, front)
    big = after_setup(rules, 3, front)
    assert standard.cards[0] == tuple(front[:9])
    assert standard.cards[1] == tuple(front[9:18])
    assert big.cards[0] == tuple(front[:16])
    assert big.cards[1] == tuple(front[16:32])
    assert big.cards[2] == tuple(front[32:48])
    assert big.discard_piles == ((11,), (12,))
    assert standard.discard_piles == ((front[27],), (front[28],))
    assert len(big.draw_pile) == 110 - 50

    # The four 5s of row 0 are one set: -5, not +20; the rest counts as it is.
    assert gr.score_layout(rules, row_of_fives) == -5 + (-1 - 2 - 3 - 4) + (1 + 2 + 3 + 4) + 30
    assert [s.name for s in gr.score_breakdown(rules, row_of_fives).sets] == ["row 0"]


@pytest.mark.parametrize(("name", "turns"), [("standard", 7), ("big-grid", 14)])
def test_going_out_needs_the_whole_grid_face_up(name: str, turns: int) -> None:
    rules = gr.load_ruleset(name)
    state = after_setup(rules, 3, list(range(1, 11)) * 4)
    draws = 0
    while state.went_out is None:
        move = eager(rules, state)
        draws += isinstance(move, gr.Draw) and move.player == 0
        state = gr.apply(rules, state, move)
    assert state.went_out == 0
    assert state.face_up[0] == (1 << rules.slots) - 1
    assert len(state.cards[0]) == rules.slots
    # One draw per face-down card: no hazard reached anyone (they lie deep in the sorted
    # draw pile). Seats 1 and 2 now take their last turn.
    assert draws == turns == rules.slots - rules.layout.face_up_at_start
    assert state.turn == 1 and state.phase is gr.Phase.DRAW
    assert all(state.face_down_count(seat) > 0 for seat in (1, 2))


def test_end_on_empty_deck_ends_the_round_instead_of_reshuffling() -> None:
    rules = gr.load_ruleset("end-on-empty-deck")
    front = table([1, 2, 3, 4, 5, 6, 7, 8, 9], (11, 12))
    last = {}
    for ruleset in (STANDARD, rules):
        state = after_setup(ruleset, 3, front)
        assert len(state.draw_pile) == 110 - 29
        # Everybody draws from the draw pile and discards the card until one is left.
        state = play_until(
            ruleset,
            state,
            passive,
            lambda s: len(s.draw_pile) == 1 and s.phase is gr.Phase.DRAW,
        )
        last[ruleset.name] = gr.apply(ruleset, state, gr.Draw(state.turn))
    standard, variant = last["standard"], last["end-on-empty-deck"]
    assert standard.draw_pile == variant.draw_pile == ()

    # Standard: the discards below the two tops are shuffled into a new draw pile now.
    assert standard.phase is gr.Phase.RESHUFFLE and standard.is_chance
    below = [*standard.discard_piles[0][:-1], *standard.discard_piles[1][:-1]]
    refilled = gr.apply(STANDARD, standard, gr.Reshuffle(tuple(below)))
    assert refilled.draw_pile == tuple(below)
    assert refilled.phase is gr.Phase.PLACE

    # end-on-empty-deck: the turn goes on; after its discard no turn can begin.
    assert variant.phase is gr.Phase.PLACE
    ended = gr.apply(rules, variant, gr.legal_moves(rules, variant)[-1])
    assert ended.round == 1 and ended.phase is gr.Phase.DEAL
    assert ended.went_out is None
    assert ended.scores[0] == tuple(gr.score_layout(rules, layout) for layout in ended.cards)
    assert ended.face_up == (0b111111111,) * 3
    assert not ended.is_over


@pytest.mark.parametrize("name", VARIANTS)
def test_random_games_under_each_variant_finish(name: str) -> None:
    rules = gr.load_ruleset(name)
    low, high = rules.players.min, rules.players.max
    for seed in range(12):
        players = low + seed % (high - low + 1)
        state = random_game(rules, players, seed)
        assert state.is_over
        assert len(state.scores) == rules.rounds
        assert all(len(scores) == players for scores in state.scores)
        assert state.totals == tuple(sum(r[p] for r in state.scores) for p in range(players))
        assert state.winners
        best = min(state.totals)
        assert all(state.totals[w] == best for w in state.winners)
        last = min(state.scores[-1][p] for p in range(players) if state.totals[p] == best)
        assert set(state.winners) == {
            p for p in range(players) if state.totals[p] == best and state.scores[-1][p] == last
        }


# --- readings made for the toggles (docs/decisions.md, "Readings made for the variants") ---


def test_flips_next_does_not_pass_on_when_the_next_player_is_spared() -> None:
    front = table([1, 2, 3, 4, 5, 6, 7, 8, 9], (11, 12), 10, 10, H)
    owed = {}
    for flips in ("next", "others"):
        rules = variant(hazard={"flips": flips}, layout={"face_up_at_start": 7})
        state = after_setup(rules, 3, front)
        state = gr.apply(rules, state, gr.Draw(0))
        state = gr.apply(rules, state, gr.Place(0, 7))  # seat 0 keeps one face-down card
        state = gr.apply(rules, state, gr.Discard(0, 0))
        state = gr.apply(rules, state, gr.Draw(1))
        state = gr.apply(rules, state, gr.Discard(1, 0))
        state = gr.apply(rules, state, gr.Draw(2))
        assert state.held == H
        state = gr.apply(rules, state, gr.Discard(2))
        assert [state.face_down_count(seat) for seat in range(3)] == [1, 2, 2]
        owed[flips] = state.flips_owed
    # Seat 0 comes next after seat 2 but is spared (6.2); under "next" seat 1 does not
    # flip in its place.
    assert owed == {"next": (), "others": (1,)}


SMALL_DECK = {
    "deck": {
        "numbers": {face: None for face in [*range(4, 13), *range(-5, 0)]} | {1: 5, 2: 5, 3: 5},
        "hazards": 0,
        "mulligans": 0,
    },
    "players": {"min": 3, "max": 3},
    "layout": {"rows": 2, "cols": 2},
}
"""15 cards: three 2x2 layouts, two discard starts and a draw pile of one card."""


def test_a_draw_pile_not_refilled_stays_empty_for_the_rest_of_the_round() -> None:
    rules = variant(**SMALL_DECK)
    assert rules.deck.size == 15
    state = after_setup(rules, 3, [])
    assert len(state.draw_pile) == 1
    state = gr.apply(rules, state, gr.Draw(0))
    # The piles hold only their tops: nothing to reshuffle, so no reshuffle is due.
    assert state.draw_pile == () and state.phase is gr.Phase.PLACE
    state = gr.apply(rules, state, gr.Discard(0, 0))
    for _ in range(6):  # two laps: take pile 0's top, play it over slot 0, discard
        seat = state.turn
        assert gr.Draw(seat) not in gr.legal_moves(rules, state)
        state = gr.apply(rules, state, gr.Draw(seat, 0))
        state = gr.apply(rules, state, gr.Place(seat, 0))
        state = gr.apply(rules, state, gr.legal_moves(rules, state)[-1])
        assert state.phase is gr.Phase.DRAW and state.draw_pile == ()
    # Cards lie below a top now, yet the draw pile stays empty (RULES 8.7).
    assert max(len(pile) for pile in state.discard_piles) >= 2


@pytest.mark.parametrize("empty_draw_pile", ["end_round", "reshuffle"])
def test_the_player_who_draws_the_last_card_can_still_go_out(empty_draw_pile: str) -> None:
    rules = variant(
        **{
            **SMALL_DECK,
            "layout": {"rows": 2, "cols": 2, "face_up_at_start": 3},
            "empty_draw_pile": empty_draw_pile,
        }
    )
    state = after_setup(rules, 3, [])
    state = gr.apply(rules, state, gr.Draw(0))  # the only card of the draw pile
    state = gr.apply(rules, state, gr.Place(0, 3))  # seat 0's last face-down card
    state = gr.apply(rules, state, gr.Discard(0, 0))
    assert state.went_out == 0
    if empty_draw_pile == "reshuffle":
        # Play goes on from the discard piles: the others take their last turns.
        assert state.phase is gr.Phase.DRAW and state.turn == 1
        return
    # end_round: no turn can begin; the round is scored with seat 0's bonus or penalty.
    assert state.round == 1 and state.phase is gr.Phase.DEAL
    base = [gr.score_layout(rules, layout) for layout in state.cards]
    assert state.scores[0][1:] == tuple(base[1:])
    assert state.scores[0][0] == base[0] + (-5 if base[0] <= min(base[1:]) else 5)


def test_a_layout_turned_up_by_a_flip_goes_out_at_the_end_of_its_owners_turn() -> None:
    front = table([1, 2, 3, 4, 5, 6, 7, 8, 9], (11, 12), H)
    spared = variant(layout={"face_up_at_start": 8})
    state = after_setup(spared, 3, front)
    state = gr.apply(spared, state, gr.Draw(0))
    state = gr.apply(spared, state, gr.Discard(0))
    assert state.flips_owed == ()  # standard 6.2: a last card is never flipped

    rules = variant(layout={"face_up_at_start": 8}, hazard={"spare_last_card": False})
    state = after_setup(rules, 3, front)
    state = gr.apply(rules, state, gr.Draw(0))
    state = gr.apply(rules, state, gr.Discard(0))
    assert state.flips_owed == (1, 2)
    state = gr.apply(rules, state, gr.Flip(1, 8))
    state = gr.apply(rules, state, gr.Flip(2, 8))
    assert state.face_down_count(1) == state.face_down_count(2) == 0
    assert state.went_out is None  # not at once: at the end of seat 1's own turn
    assert state.turn == 1 and state.phase is gr.Phase.DRAW
    state = gr.apply(rules, state, gr.Draw(1))
    state = gr.apply(rules, state, gr.Discard(1, 0))
    assert state.went_out == 1


# --- one-pile: the number of discard piles is a toggle (RULES 3.3) ------------------------------


ONE_PILE = gr.load_ruleset("one-pile")


def test_one_pile_starts_a_single_discard_pile_and_keeps_the_standard_rules_otherwise() -> None:
    assert ONE_PILE.discard.piles == 1 and STANDARD.discard.piles == 2
    assert ONE_PILE.rules_dict() == STANDARD.rules_dict() | {
        "discard": {"piles": 1, "taken_must_be_played": True}
    }
    state = after_setup(ONE_PILE, 3, table([*SEAT_2], (H, 5), 7))
    assert state.discard_piles == ((5,),) and state.removed == (H,)  # a hazard is skipped (3.3)
    assert state.draw_pile[0] == 7


def test_one_pile_draws_and_discards_name_pile_0_only() -> None:
    state = after_setup(ONE_PILE, 3, table([*SEAT_2], (5, 9), 7))
    assert state.discard_piles == ((5,),) and state.draw_pile[0] == 9
    assert gr.legal_moves(ONE_PILE, state) == (gr.Draw(0), gr.Draw(0, 0))
    refusal = gr.explain(ONE_PILE, state, gr.Draw(0, 1))
    assert refusal is not None and refusal.code == "wrong-pile"
    assert refusal.message == "pile 1 does not exist (0)"
    state = gr.apply(ONE_PILE, state, gr.Draw(0))
    discards = [move for move in gr.legal_moves(ONE_PILE, state) if isinstance(move, gr.Discard)]
    assert discards == [gr.Discard(0, 0)]
    state = gr.apply(ONE_PILE, state, gr.Discard(0, 0))
    assert state.discard_piles == ((5, 9),)


@pytest.mark.parametrize("seed", range(6))
def test_one_pile_games_play_to_the_end_and_validate(seed: int) -> None:
    record, final = play_game(ONE_PILE, 3 + seed % 4, seed=seed, ruleset_ref="one-pile")
    assert final.is_over and all(len(pile) <= 1 for pile in final.discard_piles[1:])
    assert {entry.get("pile") for round_ in record.rounds for entry in round_.moves} <= {None, 0}
    verdict = validate_record(record)
    assert verdict.valid and verdict.complete, verdict.to_json()
    assert verdict.totals == final.totals


def test_a_record_naming_pile_1_under_one_pile_is_a_bad_record() -> None:
    record, _ = play_game(ONE_PILE, 3, seed=1, ruleset_ref="one-pile")
    data = json.loads(dump_record(record))
    moves = data["rounds"][0]["moves"]
    index = next(i for i, entry in enumerate(moves) if entry.get("pile") == 0)
    moves[index]["pile"] = 1
    verdict = validate_record(parse_record(json.dumps(data)))
    assert verdict.error is not None
    assert (verdict.error.code, verdict.error.round, verdict.error.move) == ("bad-record", 0, index)
    assert verdict.error.message == f"rounds[0].moves[{index}].pile: must be 0, got 1"
    assert validate_record(parse_record(dump_record(play_game(STANDARD, 3, seed=1)[0]))).valid
