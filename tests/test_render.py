"""Text drawings: grids of any size 2x2 to 5x5, side-by-side layouts, piles, state digests."""

from __future__ import annotations

import pytest

import gnoming_rules as gr
from gnoming_rules.play.render import (
    cell_text,
    describe_turn,
    draw_layout,
    draw_piles,
    draw_slot_numbers,
    draw_table,
    side_by_side,
    state_summary,
)


def test_the_worked_example_layout_is_drawn_as_a_3x3_grid() -> None:
    lines = draw_layout([5, 5, "M", 3, -2, 9, 5, "H", 1], 0b111111111, 3, 3)
    assert lines == [
        "+------+------+------+",
        "|  5   |  5   |  M   |",
        "+------+------+------+",
        "|  3   |  -2  |  9   |",
        "+------+------+------+",
        "|  5   |  H   |  1   |",
        "+------+------+------+",
    ]


@pytest.mark.parametrize("rows", range(2, 6))
@pytest.mark.parametrize("cols", range(2, 6))
def test_every_grid_size_draws_each_slot_in_row_major_order(rows: int, cols: int) -> None:
    slots = rows * cols
    cards: list[gr.Face] = [slot + 1 if slot % 3 else -(slot + 1) for slot in range(slots)]
    face_up = sum(1 << slot for slot in range(0, slots, 2))
    lines = draw_layout(cards, face_up, rows, cols, marked=slots - 1)
    assert len(lines) == 2 * rows + 1
    assert all(len(line) == 7 * cols + 1 for line in lines)
    cells = [cell.strip() for line in lines[1::2] for cell in line.strip("|").split("|")]
    expected = [cell_text(card, bool(face_up >> slot & 1)) for slot, card in enumerate(cards)]
    expected[-1] += "*"
    assert cells == expected
    assert [cell.strip() for cell in draw_slot_numbers(rows, cols)[1].strip("|").split("|")] == [
        str(col) for col in range(cols)
    ]


def test_a_layout_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="2x2 layout has 4 cards"):
        draw_layout([1, 2, 3], 0, 2, 2)


def test_cells_show_face_down_unknown_and_marked_cards() -> None:
    assert [cell_text(7, True), cell_text(7, False), cell_text(None, True)] == ["7", "(7)", "?"]
    assert cell_text(-12, False, marked=True) == "(-12)*"


def test_blocks_wrap_into_bands_to_fit_the_width() -> None:
    block = ["x" * 30, "y" * 30]
    lines = side_by_side([block] * 4, gap=2, width=70)
    assert lines == ["x" * 30 + "  " + "x" * 30, "y" * 30 + "  " + "y" * 30] * 2


def test_the_table_shows_every_seat_piles_and_whose_move_it_is() -> None:
    rules = gr.load_ruleset("standard")
    state = gr.new_game(rules, 4, first_player=2)
    assert describe_turn(state) == "waiting for the deal"
    state = gr.apply(rules, state, gr.Deal(tuple(rules.compiled.deck)))
    names = ["Ana", "Bo", "Cy", "Dee"]
    assert describe_turn(state, names) == "seat 2 (Cy) to reveal a face-down card (setup)"
    lines = draw_table(rules, state, names, marked=(1, 4))
    text = "\n".join(lines)
    for seat, name in enumerate(names):
        assert f"seat {seat} ({name})" in text
    assert text.count("*") == 1
    assert max(len(line) for line in lines) <= 100
    assert (
        draw_piles(state)[0]
        == f"draw pile: {len(state.draw_pile)} cards, top ({state.draw_pile[0]})"
    )


def test_the_state_summary_changes_with_each_move() -> None:
    rules = gr.load_ruleset("standard")
    state = gr.apply(rules, gr.new_game(rules, 3), gr.Deal(tuple(rules.compiled.deck)))
    before = state_summary(state)
    after = state_summary(gr.apply(rules, state, gr.legal_moves(rules, state)[0]))
    assert before.startswith("r0 REVEAL t0 held=- draw=81:") and before != after


def test_the_words_for_the_turn_follow_the_ruleset() -> None:
    """No "bounce" where bouncing is off; no "discard" for a taken card that must be played."""
    for name, words in (
        ("standard", "bounce the held card or discard it"),
        ("no-bounce", "discard the held card (no bouncing under these rules)"),
    ):
        rules = gr.load_ruleset(name)
        state = gr.new_game(rules, 3).replace(phase=gr.Phase.BOUNCE, held=5, turn=0)
        assert describe_turn(state, ruleset=rules) == f"seat 0 to {words}"
    rules = gr.load_ruleset("standard")
    taken = gr.new_game(rules, 3).replace(
        phase=gr.Phase.PLACE, held=5, turn=0, taken_from_discard=True
    )
    assert "discard" not in describe_turn(taken, ruleset=rules).split(",")[0]
    assert describe_turn(taken, ruleset=gr.load_ruleset("open-discards")).endswith("discard it")
