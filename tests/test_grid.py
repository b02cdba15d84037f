"""Grid generality: every layout from 2x2 to 5x5 plays by the same rules.

For each of the 16 shapes: the deck check bounds the player count, dealing gives
rows x cols cards per seat, sets are exactly the full rows and columns (worked examples
whose scores are counted by hand below), the score breakdown names its lines, going out
needs every card of the grid face up, and random games finish.
"""

from __future__ import annotations

import random

import pytest
from builders import after_setup, deck_of, random_game, variant

import gnoming_rules as gr
from gnoming_rules.core.cards import sorted_faces

SHAPES = [(rows, cols) for rows in range(2, 6) for cols in range(2, 6)]
DECK = 110
SET_ASIDE = 2 + 3  # two discard starts and the three hazards that may be skipped there
M = gr.MULLIGAN


def most_players(rows: int, cols: int) -> int:
    """The most seats the 110-card deck deals to, capped at standard's 7."""
    return min(7, (DECK - SET_ASIDE) // (rows * cols))


def grid_rules(rows: int, cols: int, **layout: int) -> gr.Ruleset:
    return variant(
        layout={"rows": rows, "cols": cols, **layout},
        players={"max": most_players(rows, cols)},
    )


def row_slots(rows: int, cols: int, row: int) -> tuple[int, ...]:
    return tuple(row * cols + col for col in range(cols))


def column_slots(rows: int, cols: int, col: int) -> tuple[int, ...]:
    return tuple(row * cols + col for row in range(rows))


def shape_id(shape: tuple[int, int]) -> str:
    return f"{shape[0]}x{shape[1]}"


@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=map(shape_id, SHAPES))
def test_the_deck_bounds_the_player_count(rows: int, cols: int) -> None:
    slots = rows * cols
    fits = most_players(rows, cols)
    assert fits * slots + SET_ASIDE <= DECK
    if fits < 7:
        assert (fits + 1) * slots + SET_ASIDE > DECK
        with pytest.raises(gr.RulesetError) as refused:
            gr.load_ruleset(
                {"extends": "standard", "layout": {"rows": rows, "cols": cols}},
            )
        assert refused.value.message.startswith("inline ruleset: deck: ")
        assert f"at most {fits} players" in refused.value.message
    assert grid_rules(rows, cols).players.max == fits


@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=map(shape_id, SHAPES))
def test_dealing_follows_the_grid(rows: int, cols: int) -> None:
    rules = grid_rules(rows, cols)
    slots, players = rows * cols, rules.players.max
    cards = sorted_faces(deck_of(rules).elements())
    random.Random(rows * 10 + cols).shuffle(cards)
    cards.remove(gr.HAZARD)
    cards.insert(players * slots, gr.HAZARD)  # a hazard where discard pile 0 would start
    state = gr.apply(rules, gr.new_game(rules, players), gr.Deal(tuple(cards)))
    for seat in range(players):
        assert state.cards[seat] == tuple(cards[seat * slots : (seat + 1) * slots])
        assert state.face_up[seat] == 0
    rest = cards[players * slots :]
    starts: list[gr.Face] = []
    used = 0
    while len(starts) < 2:  # RULES 3.3: a hazard met here leaves the game
        if rest[used] != gr.HAZARD:
            starts.append(rest[used])
        used += 1
    assert state.discard_piles == ((starts[0],), (starts[1],))
    assert state.removed == (gr.HAZARD,) * (used - 2)
    assert state.draw_pile == tuple(rest[used:])

    # Setup: each seat reveals two cards, then the first player draws.
    while state.phase is gr.Phase.REVEAL:
        state = gr.apply(rules, state, gr.legal_moves(rules, state)[-1])
    assert [state.face_down_count(seat) for seat in range(players)] == [slots - 2] * players
    assert state.phase is gr.Phase.DRAW and state.turn == 0


def worked_examples(rows: int, cols: int) -> list[tuple[str, list[gr.Face], int, list[str]]]:
    """(what, layout, score by hand, names of the lines that are sets)."""
    slots = rows * cols
    last_row = row_slots(rows, cols, rows - 1)
    last_col = column_slots(rows, cols, cols - 1)
    first_row = row_slots(rows, cols, 0)

    def layout(fill: gr.Face, **cards: gr.Face) -> list[gr.Face]:
        grid = [fill] * slots
        for slot, card in cards.items():
            grid[int(slot[1:])] = card
        return grid

    examples: list[tuple[str, list[gr.Face], int, list[str]]] = [
        (
            "last row of 5s, -1 elsewhere",
            layout(-1, **{f"s{s}": 5 for s in last_row}),
            -5 - (slots - cols),
            [f"row {rows - 1}"],
        ),
        (
            "last column of 7s, -2 elsewhere",
            layout(-2, **{f"s{s}": 7 for s in last_col}),
            -7 - 2 * (slots - rows),
            [f"column {cols - 1}"],
        ),
        (
            "every card a 5: every line is a set, each card counts in two",
            [5] * slots,
            -5 * (rows + cols),
            [f"row {r}" for r in range(rows)] + [f"column {c}" for c in range(cols)],
        ),
        (
            "last row of 5s but its last card a 6: no set",
            layout(-1, **{f"s{s}": 5 for s in last_row[:-1]}, **{f"s{last_row[-1]}": 6}),
            5 * (cols - 1) + 6 - (slots - cols),
            [],
        ),
        (
            "first row: a mulligan and 5s (wild: a set)",
            layout(-1, **{f"s{s}": 5 for s in first_row[1:]}, s0=M),
            -5 - (slots - cols),
            ["row 0"],
        ),
        (
            "first row: two mulligans and 5s (only one can be wild: no set)",
            layout(-1, **{f"s{s}": 5 for s in first_row[2:]}, s0=M, s1=M),
            5 * (cols - 2) - (slots - cols),
            [],
        ),
        (
            "first row: 5s and a -1 (negatives break a set)",
            layout(-1, **{f"s{s}": 5 for s in first_row[1:]}),
            5 * (cols - 1) - (slots - cols + 1),
            [],
        ),
    ]
    if rows == cols:
        diagonal = {f"s{i * cols + i}": 5 for i in range(rows)}
        examples.append(
            (
                "diagonal of 5s (not a line)",
                layout(-1, **diagonal),
                5 * rows - (slots - rows),
                [],
            )
        )
    return examples


@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=map(shape_id, SHAPES))
def test_sets_are_full_rows_and_columns(rows: int, cols: int) -> None:
    rules = grid_rules(rows, cols)
    for what, layout, score, set_names in worked_examples(rows, cols):
        assert gr.score_layout(rules, layout) == score, what
        breakdown = gr.score_breakdown(rules, layout)
        assert breakdown.total == score, what
        assert [line.name for line in breakdown.sets] == set_names, what


@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=map(shape_id, SHAPES))
def test_breakdown_names_each_line_with_its_slots(rows: int, cols: int) -> None:
    rules = grid_rules(rows, cols)
    breakdown = gr.score_breakdown(rules, [5] * (rows * cols))
    expected = [(f"row {r}", row_slots(rows, cols, r)) for r in range(rows)]
    expected += [(f"column {c}", column_slots(rows, cols, c)) for c in range(cols)]
    assert [(line.name, line.slots, line.value) for line in breakdown.sets] == [
        (name, slots, 5) for name, slots in expected
    ]
    assert all(card.in_set and card.points == 0 for card in breakdown.cards)
    assert len(breakdown.cards) == rows * cols
    text = str(breakdown)
    for name, slots in expected:
        assert f"{name} (slots {', '.join(map(str, slots))}): set of 5s  -5" in text
    assert text.endswith(f"total {-5 * (rows + cols)}")


@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=map(shape_id, SHAPES))
def test_going_out_needs_every_card_of_the_grid(rows: int, cols: int) -> None:
    slots = rows * cols
    # Setup leaves one card face down (the last slot): playing into it goes out.
    rules = grid_rules(rows, cols, face_up_at_start=slots - 1)
    state = after_setup(rules, 3, [])
    assert [state.face_down_count(seat) for seat in range(3)] == [1, 1, 1]
    state = gr.apply(rules, state, gr.Draw(0))
    state = gr.apply(rules, state, gr.Place(0, slots - 1))
    state = gr.apply(rules, state, gr.Discard(0, 0))
    assert state.went_out == 0
    # The others take one more turn each (playing nothing), then the round is scored.
    for seat in (1, 2):
        state = gr.apply(rules, state, gr.Draw(seat))
        state = gr.apply(rules, state, gr.Discard(seat, 1))
    assert state.round == 1 and state.phase is gr.Phase.DEAL
    base = [gr.score_layout(rules, layout) for layout in state.cards]
    bonus = -5 if base[0] <= min(base[1:]) else 5
    assert state.scores[0] == (base[0] + bonus, base[1], base[2])

    # One more card face down: the same turn does not go out.
    rules = grid_rules(rows, cols, face_up_at_start=slots - 2)
    state = after_setup(rules, 3, [])
    state = gr.apply(rules, state, gr.Draw(0))
    state = gr.apply(rules, state, gr.Place(0, slots - 1))
    state = gr.apply(rules, state, gr.Discard(0, 0))
    assert state.went_out is None
    assert state.face_down_count(0) == 1
    assert state.turn == 1 and state.phase is gr.Phase.DRAW


@pytest.mark.parametrize(("rows", "cols"), SHAPES, ids=map(shape_id, SHAPES))
def test_random_games_finish_on_every_grid(rows: int, cols: int) -> None:
    rules = grid_rules(rows, cols)
    for seed in range(4):
        players = rules.players.min + seed % (rules.players.max - rules.players.min + 1)
        state = random_game(rules, players, seed)
        assert len(state.scores) == rules.rounds
        assert all(len(layout) == rows * cols for layout in state.cards)
        assert state.winners
        assert all(state.totals[w] == min(state.totals) for w in state.winners)
