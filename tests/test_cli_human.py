"""``gnoming play --human SEAT``: a person plays against bots through standard input.

The tests drive the real program through a pipe, as a person at a terminal would: they
read what it prints and answer each prompt, and check that the referee's refusals come
back as feedback and that the record written is a game the validator accepts."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from builders import variant
from kit import ROOT

import gnoming_rules as gr
from gnoming_rules.cli.human import HELP, TerminalPlayer, move_words, parse_move
from gnoming_rules.core.cards import face_text
from gnoming_rules.core.moves import Bounce, Discard, Draw, Knock, Pass, Peek, Place, Reveal, Swap
from gnoming_rules.core.scoring import score_visible
from gnoming_rules.play.observation import observe
from gnoming_rules.referee.validate import validate_file


def play(out: Path, answers: list[str], *extra: str) -> tuple[int, list[str]]:
    """Run ``gnoming play --human 0``; at each prompt, the next of ``answers`` is typed,
    then the first move listed (so the game goes on to its end). Returns the exit status
    and every line printed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gnoming_rules", "play", "--players", "3", "--seed", "11",
         "--ruleset", "quick", "--human", "0", "--out", str(out), *extra],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    printed, pending, listed = [], list(answers), ""
    for line in process.stdout:
        printed.append(line.rstrip("\n"))
        if line.startswith("moves: "):
            listed = line.removeprefix("moves: ").split(", ")[0].strip()
        if line.startswith("your move"):
            answer = pending.pop(0) if pending else listed
            if answer is None:
                process.stdin.close()  # the end of the input
                continue
            process.stdin.write(answer + "\n")
            process.stdin.flush()
    status = process.wait(timeout=300)
    assert process.stderr is not None and "Traceback" not in process.stderr.read()
    return status, printed


def test_a_person_plays_a_whole_game_and_the_record_is_valid(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    status, printed = play(out, [])
    assert status == 0
    verdict = validate_file(out)
    assert verdict.valid and verdict.complete, verdict
    assert any(line.startswith("slots   ") and "seat 0 (Ana) (you)" in line for line in printed)
    assert any(line.startswith("|  0   |  1   |  2   |   |") for line in printed)  # slot key
    assert any(line.lstrip().startswith("face up: ") for line in printed)  # the scores shown
    bots = [line for line in printed if re.match(r"seat [12] \((Bo|Cy)\) ", line)]
    # The bots' moves in the replay page's words, with the cards the table saw:
    card = "(\u2212?\\d+|a mulligan|a hazard)"
    assert any(re.fullmatch(rf"seat [12] \(\w+\) reveals slot \d: {card}", b) for b in bots)
    assert any(" into slot " in line and ", picks up " in line for line in bots)
    assert any(re.search(rf" discards {card} on pile \d$", line) for line in bots)
    # ... but never the card a bot drew from the draw pile, which only that bot saw:
    drawn = [line for line in bots if line.endswith(" from the draw pile")]
    assert drawn and all(line.endswith(" draws a card from the draw pile") for line in drawn)
    assert any(line.startswith("round 0 is over: scores ") for line in printed)
    assert printed[-1].startswith(f"record written to {out} (")
    assert not any("(-" in line or "( " in line for line in printed if line.startswith("|"))


def test_the_referees_refusals_come_back_and_the_seat_types_again(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    status, printed = play(out, ["draw", "place nine", "fly 3", "?", "reveal 0", "reveal 0"])
    assert status == 0
    text = "\n".join(printed)
    assert "refused: wrong-phase (rule 3.5): draw refused: seat 0 must reveal" in text
    assert "not a move: the slot is a number, got 'nine' (? lists your moves)" in text
    assert "not a move: no such action: type one of reveal, draw, place" in text
    assert "refused: slot-face-up" in text  # slot 0 was revealed by the answer before
    assert validate_file(out).valid


def test_help_says_every_move_in_words(tmp_path: Path) -> None:
    status, printed = play(tmp_path / "game.json", ["help", None])  # type: ignore[list-item]
    assert status == 0
    text = "\n".join(printed)
    assert HELP in text
    for action in ("reveal N", "draw discard P", "place N", "bounce N", "discard P", "flip N"):
        assert f"  {action} " in HELP


def test_a_pile_past_the_second_is_read_under_a_ruleset_that_has_it() -> None:
    assert parse_move("draw discard 2", 0, 3, piles=3) == Draw(0, 2)
    assert parse_move("discard 3", 0, 3, piles=4) == Discard(0, 3)
    with pytest.raises(ValueError, match="pile"):
        parse_move("draw discard 3", 0, 3, piles=3)


def test_the_end_of_the_input_keeps_the_record_so_far(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    status, printed = play(out, ["reveal 4", None])  # type: ignore[list-item]
    assert status == 0
    assert "the game stopped in round 0: the record is incomplete" in printed
    verdict = validate_file(out)
    assert verdict.valid and not verdict.complete


def test_human_play_refuses_what_needs_standard_output(tmp_path: Path) -> None:
    for extra in (["--out", "-"], ["--json", "--out", str(tmp_path / "g.json")], ["--human", "3"]):
        done = subprocess.run(
            [sys.executable, "-m", "gnoming_rules", "play", "--players", "3", "--human", "0",
             *extra],
            cwd=ROOT, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert done.returncode == 2 and done.stderr.startswith("gnoming: usage: --human")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("reveal 4", Reveal(0, 4)),
        ("draw", Draw(0, None)),
        ("dr deck", Draw(0, None)),
        ("draw discard 1", Draw(0, 1)),
        ("draw 0", Draw(0, 0)),
        ("p 8", Place(0, 8)),
        ("Bounce 2", Bounce(0, 2)),
        ("discard", Discard(0, None)),
        ("di 1", Discard(0, 1)),
        ("peek 2", Peek(0, 2)),
        ("pe 3 1", Peek(0, 3, 1)),
        ("swap 0 2 3", Swap(0, 0, 2, 3)),
        ("pa", Pass(0)),
        ("knock", Knock(0)),
    ],
)
def test_typed_moves_read_as_the_record_writes_them(text: str, move: object) -> None:
    parsed = parse_move(text, 0, 3)
    assert parsed == move
    assert parse_move(move_words(parsed), 0, 3) == parsed


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("d 1", "'d' names draw or discard"),
        ("place", "place which slot?"),
        ("draw discard 2", "pile"),
        ("place 1 2", "too many words"),
        ("swap 0 1", "swap N S M"),
        ("peek", "peek at which slot"),
    ],
)
def test_a_line_that_is_no_move_says_why(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_move(text, 0, 3)


def test_the_terminal_player_reads_piles_by_the_rulesets_count() -> None:
    """A person typing ``draw discard 2`` at a three-pile table draws from pile 2: the seat's
    prompt reads moves with the ruleset's number of piles (and refuses pile 3)."""
    rules = variant(discard={"piles": 3})
    rng = random.Random(3)
    state = gr.new_game(rules, 3)
    while state.is_chance or state.phase is not gr.Phase.DRAW:
        chance = state.is_chance
        state = gr.apply(
            rules,
            state,
            gr.sample_chance(rules, state, rng) if chance else gr.legal_moves(rules, state)[0],
        )
    seat = state.turn
    typed = iter(["draw discard 3", "draw discard 2"])
    written: list[str] = []
    player = TerminalPlayer(seat, ["Ana", "Bo", "Cy"], lambda: next(typed), written.append)
    assert player.choose(rules, observe(state, seat)) == Draw(seat, 2)
    assert any(line.startswith("not a move: pile: must be 0 to 2, got 3") for line in written)


def test_rule_11_a_person_peeks_sees_the_peeked_cards_and_names_a_powers_targets(
    tmp_path: Path,
) -> None:
    """Under cabo-like (rules 11.2-11.5) the person types setup peeks, sees each peeked card
    in brackets in their own layout (known, still face down), and the moves listed include
    the powers' targets and the knock as typed; the record is valid."""
    out = tmp_path / "cabo.json"
    status, printed = play(out, ["peek 0", "peek 3"], "--ruleset", "cabo-like")
    assert status == 0
    verdict = validate_file(out)
    assert verdict.valid and verdict.complete, verdict
    record = json.loads(out.read_text(encoding="utf-8"))
    deal = record["rounds"][0]["deal"]
    slots = 4
    seen = {0: deal[0 * slots + 0], 3: deal[0 * slots + 3]}  # seat 0's dealt layout
    peeked_rows = [line for line in printed if line.startswith("|") and "(" in line]
    assert any(f"({seen[0]})" in line for line in peeked_rows)
    assert "knock" in "\n".join(line for line in printed if line.startswith("moves: "))
    moves = [move for move in record["rounds"][0]["moves"] if move["player"] == 0]
    assert [m["slot"] for m in moves if m["action"] == "peek"][:2] == [0, 3]


def test_rule_11_1_the_face_up_score_leaves_out_the_cards_a_person_knows_face_down() -> None:
    """The score under each layout counts its face-up cards only: a card the person peeked
    at is drawn as known, ``(7)``, and lies face down, so it is not in that score."""
    rules = gr.load_ruleset("four-card-golf")
    state = gr.new_game(rules, 2)
    state = gr.apply(rules, state, gr.sample_chance(rules, state, random.Random(5)))
    while state.phase is gr.Phase.PEEK:  # each seat peeks at its slots 0 and 1
        state = gr.apply(rules, state, Peek(state.turn, state.peeks))
    seen = observe(state, 0)
    known = [card for card in seen.own_layout if card is not None]
    assert len(known) == 2 and score_visible(rules, seen.own_layout) != 0  # peeked, not up
    player = TerminalPlayer(0, ["Ana", "Bo"], lambda: "", lambda _line: None)
    lines = player.table(rules, seen)
    assert any(f"({face_text(known[0])})" in line for line in lines)
    scores = [part for line in lines for part in line.split("  ") if "face up:" in part]
    assert [part.strip() for part in scores] == ["face up: 0", "face up: 0"]
