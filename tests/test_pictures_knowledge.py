"""Pictures of what a seat knows (rule 11.1): a face-down card the viewing seat knows is drawn
as known (its face small on its back), never as face up; no other view shows its face."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from kit import EXAMPLES
from rules_11_kit import dealt, peek_all

import gnoming_rules as gr
from gnoming_rules.core.moves import Draw
from gnoming_rules.pictures.cards import card_ref
from gnoming_rules.pictures.frames import record_frames
from gnoming_rules.pictures.replay import replay_html
from gnoming_rules.pictures.table import table_svg, table_view
from gnoming_rules.play import play_game
from gnoming_rules.play.observation import observe, stand_in
from gnoming_rules.referee.validate import engine_moves, replay_file, replay_record

SVG = "{http://www.w3.org/2000/svg}"
CABO = gr.load_ruleset("cabo-like")


def panels(svg: str) -> list[str]:
    """Each seat's panel of a picture, in seat order."""
    return re.findall(
        r'<rect class="panel.*?(?=<g transform="translate\(\d+,\d+\)"><rect class="panel|</svg>)',
        svg,
    )


def placed(part: str) -> list[str]:
    """The card drawings a part places, in order."""
    return re.findall(r'<use href="#(c[^"]*)" x=', part)


def drawn_faces(svg: str) -> set[int]:
    """The number faces a picture defines a drawing of (face up, peek or known back): it
    defines only the faces it shows."""
    return {int(number) for number in re.findall(r'<g id="c[bk]?(\d+)"', svg)}


def page_data(page: str) -> dict[str, Any]:
    """The positions a page steps through: its JSON data."""
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def peeked() -> gr.State:
    """Cabo-like, three seats past their setup peeks: seat 0 knows its 3 and 5 (slots 0 and
    1), seat 1 its 7 and 8 (slots 2 and 3), seat 2 its 9 and 10 (slots 0 and 2); no card
    lies face up, and none of those faces shows anywhere else."""
    state = dealt(
        CABO,
        3,
        layouts={0: (3, 5, 11, 12), 1: (6, 6, 7, 8), 2: (9, 1, 10, 2)},
        discards=(4,),
    )
    state = peek_all(CABO, state, {0: [0, 1], 1: [2, 3], 2: [0, 2]})
    assert state.phase is gr.Phase.DRAW and not any(state.face_up)
    return state


def test_a_seat_draws_the_cards_it_peeked_as_known_not_face_up() -> None:
    state = peeked()
    svg = table_svg(CABO, state, seat=0)
    root = ET.fromstring(svg)
    own = panels(svg)[0]
    assert placed(own) == ["ck3", "ck5", "cb", "cb"]
    assert "c3" not in placed(svg) and "c5" not in placed(svg)  # never as face up
    drawings = {element.get("id"): element for element in root.iter(f"{SVG}g")}
    known = drawings["ck3"]
    assert "known" in (known.get("class") or "").split()
    title = known.find(f"{SVG}title")
    assert title is not None and title.text == "3: lies face down, known to this seat"
    inner = [use.get("href") for use in known.iter(f"{SVG}use")]
    assert inner == ["#cb", "#c3"]  # the back, and the face drawn on it
    # Not counted as face up: no card of seat 0 lies face up.
    assert "face-up cards score 0<" in own
    view = table_view(CABO, state, seat=0)
    assert view.seats[0].known == 0b11 and view.seats[0].shows == 0
    assert [up for _, up in view.seats[0].cards] == [False] * 4


def test_another_seat_and_the_table_never_see_the_face_of_a_card_a_seat_knows() -> None:
    state = peeked()
    for seat in (1, 2):
        svg = table_svg(CABO, state, seat=seat)
        assert placed(panels(svg)[0]) == ["cb"] * 4
        assert not drawn_faces(svg) & {3, 5}  # seat 0's cards: not even defined
    spectator = table_svg(CABO, stand_in(observe(state)), public=True)  # as the server draws
    public = table_svg(CABO, state, public=True)
    for svg in (spectator, public):
        for panel in panels(svg):
            assert placed(panel) == ["cb"] * 4
        assert not drawn_faces(svg) & {3, 5, 7, 8, 9, 10}
    referee = table_svg(CABO, state)  # the referee still sees under every back
    assert placed(panels(referee)[0]) == ["cb3", "cb5", "cb11", "cb12"]


def test_a_card_placed_face_down_from_the_discard_pile_is_known_to_every_seat() -> None:
    """Cabo-round: Ana plays the 4 she took from the discard pile face down (rule 11.3):
    each seat's view draws it as known, the public view as a back."""
    path = EXAMPLES / "golf" / "cabo-round.yaml"
    replay = replay_file(path)
    assert replay.record is not None and replay.ruleset is not None
    frames = record_frames(replay.record, replay, base_dir=path.parent)
    state = next(frame.state for frame in frames if frame.state.cards[0][2] == 4)
    assert not state.is_face_up(0, 2)
    for seat in (0, 1):
        assert placed(panels(table_svg(replay.ruleset, state, seat=seat))[0])[2] == "ck4"
    public = table_svg(replay.ruleset, state, public=True)
    assert placed(panels(public)[0])[2] == "cb"
    page = replay_html(replay, title=path.name, base_dir=path.parent)
    parts = "".join(page_data(page)["parts"])
    assert "#cb4" not in parts and "#ck4" not in parts  # the public replay names none


@pytest.mark.parametrize("name", ["cabo-like", "four-card-golf"])
def test_a_seat_s_html_replay_draws_what_it_knows_as_known(name: str) -> None:
    rules = gr.load_ruleset(name)
    record, _ = play_game(rules, 3, seed=11)
    replay = replay_record(record)
    assert replay.verdict.valid and replay.state is not None
    frames = record_frames(record, replay)
    piles = len(replay.state.discard_piles) + 3  # the draw pile, each discard, held, removed
    assert 'id="peek"' in replay_html(replay)  # the referee's view names face-down cards
    with pytest.raises(gr.GnomingError) as refused:
        replay_html(replay, seat=3)
    assert refused.value.code == "bad-seat"
    for seat in range(3):
        page = replay_html(replay, seat=seat)
        assert 'id="peek"' not in page and "known to this seat" in page
        data = page_data(page)
        assert len(data["frames"]) == len(frames)
        drawn_known = 0
        for frame, row in zip(frames, data["frames"], strict=True):
            seen = observe(frame.state, seat)
            for other in range(3):
                part = data["parts"][row[1 + piles + other]]
                expected = [
                    card_ref(card, seen.is_face_up(other, slot), seen.is_known(other, slot))
                    for slot, card in enumerate(seen.layouts[other])
                ]
                assert placed(part) == expected, (frame.round, frame.move, other)
                assert not [ref for ref in placed(part) if ref.startswith("cb") and ref != "cb"]
                drawn_known += sum(ref.startswith("ck") for ref in placed(part))
        assert drawn_known  # every seat knew some face-down card at some point


def test_a_seat_s_replay_tells_another_seat_s_deck_draw_as_a_card() -> None:
    rules = gr.load_ruleset("cabo-like")
    record, _ = play_game(rules, 2, seed=3)
    replay = replay_record(record)
    moves = [move for round_ in engine_moves(record) for move in round_]
    frames = record_frames(record, replay, seat=1)
    told = [frame.played for frame in frames if frame.move]
    assert len(told) == len(moves)
    draws = [
        text
        for move, text in zip(moves, told, strict=True)
        if type(move) is Draw and move.pile is None and move.player == 0
    ]
    assert draws and all(" draws a card from the draw pile" in text for text in draws)
