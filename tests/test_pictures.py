"""SVG pictures of a position (gnoming_rules.pictures.table): what each view shows and hides."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from kit import EXAMPLES

import gnoming_rules as gr
from gnoming_rules.core.cards import HIDDEN
from gnoming_rules.core.state import Phase
from gnoming_rules.pictures.cards import card_defs, card_ref, face_label
from gnoming_rules.pictures.table import table_svg, table_view
from gnoming_rules.play.observation import observe
from gnoming_rules.referee.validate import replay_file

SVG = "{http://www.w3.org/2000/svg}"


def play_to(rules: gr.Ruleset, players: int, seed: int, stop: Phase | None) -> gr.State:
    """A random game played until the phase ``stop`` first comes up (``DEAL``: the end of
    the first round; None: the end of the game)."""
    rng = random.Random(seed)
    state = gr.new_game(rules, players)
    while not state.is_over:
        if state.phase is stop and (stop is not Phase.DEAL or state.scores):
            return state
        if state.is_chance:
            state = gr.apply(rules, state, gr.sample_chance(rules, state, rng))
        else:
            state = gr.apply(rules, state, rng.choice(gr.legal_moves(rules, state)))
    return state


def uses(svg: str) -> list[str]:
    """The card drawings a picture places, in order (heading piles, then seat by seat)."""
    return re.findall(r'<use href="#(c[^"]*)"', svg)


def seat_uses(svg: str, seat: int) -> list[str]:
    """The card drawings placed in ``seat``'s panel (the ``seat``-th panel group)."""
    panels = re.findall(r'<g transform="translate\(\d+,\d+\)"><rect class="panel.*?</g>', svg)
    return re.findall(r'<use href="#(c[^"]*)"', panels[seat])


@pytest.mark.parametrize("name", gr.bundled_rulesets())
def test_every_bundled_variant_draws_as_well_formed_svg(name: str) -> None:
    rules = gr.load_ruleset(name)
    players = rules.players.min
    for stop in (Phase.PLACE, Phase.DEAL, None):
        state = play_to(rules, players, 3, stop)
        for seat in (None, 0):
            svg = table_svg(rules, state, seat=seat)
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg"
            defined = {element.get("id") for element in root.iter() if element.get("id")}
            placed = set(uses(svg))
            assert placed <= defined, placed - defined
            slots = rules.layout.rows * rules.layout.cols
            for other in range(players):
                assert len(seat_uses(svg, other)) == slots


def test_the_referee_sees_every_card_and_a_seat_only_what_observe_shows() -> None:
    rules = gr.load_ruleset("standard")
    state = play_to(rules, 3, 5, Phase.PLACE)
    assert state.held is not None and not state.taken_from_discard  # drawn from the deck
    referee = table_svg(rules, state)
    for seat in range(3):
        expected = [
            card_ref(card, state.is_face_up(seat, slot))
            for slot, card in enumerate(state.cards[seat])
        ]
        assert seat_uses(referee, seat) == expected
    holder = state.turn
    for seat in range(3):
        seen = observe(state, seat)
        svg = table_svg(rules, state, seat=seat)
        for other in range(3):
            assert seat_uses(svg, other) == [
                card_ref(card, card is not None) for card in seen.layouts[other]
            ]
        # A seat's picture names no face-down card: only plain backs and faces.
        assert not [ref for ref in uses(svg) if ref.startswith("cb") and ref != "cb"]
        held = re.search(r'<use href="#(c[^"]*)" x="[\d.]+" y="0"/><text class="label strong" '
                         r'x="[\d.]+" text-anchor="middle" y="\d+">held<', svg)  # fmt: skip
        assert held is not None
        shown = held.group(1)
        assert shown == ("cb" if seat != holder else card_ref(state.held, True))
    assert "as seat 1 sees it" in table_svg(rules, state, seat=1)


def test_a_seat_not_at_the_table_is_refused() -> None:
    rules = gr.load_ruleset("standard")
    state = play_to(rules, 3, 5, Phase.PLACE)
    with pytest.raises(gr.GnomingError) as refused:
        table_view(rules, state, seat=3)
    assert refused.value.code == "bad-seat"


def test_after_a_round_each_set_is_outlined_with_its_value_and_the_scores_shown() -> None:
    replay = replay_file(EXAMPLES / "tiny-game.yaml", until=(0, None))
    assert replay.state is not None and replay.ruleset is not None
    rules, state = replay.ruleset, replay.state
    assert state.scores and state.phase in (Phase.DEAL, Phase.OVER)
    svg = table_svg(rules, state)
    breakdowns = [gr.score_breakdown(rules, layout) for layout in state.cards]
    sets = sum(len(breakdown.sets) for breakdown in breakdowns)
    assert svg.count('class="set"') == sets
    for breakdown in breakdowns:
        for line in breakdown.sets:
            assert f">{face_label(-line.value)}</text>" in svg
    assert svg.count(">wild</text>") == sum(len(breakdown.wild) for breakdown in breakdowns)
    for seat, breakdown in enumerate(breakdowns):
        final = state.scores[-1][seat]
        if final == breakdown.total:
            assert f"round score {face_label(final)}<" in svg
        else:
            assert f"round score {face_label(breakdown.total)} " in svg
            assert f"going out = {face_label(final)}<" in svg


def test_a_scored_set_is_drawn_from_the_scoring_breakdown() -> None:
    """A 3x3 round end whose seat 0 holds a row and a column of 5s: two outlines."""
    rules = gr.load_ruleset("standard")
    state = play_to(rules, 3, 11, Phase.DEAL)
    layout: tuple[gr.Face, ...] = (5, 5, 5, 5, 1, 2, 5, 3, 4)
    cards = (layout, *state.cards[1:])
    svg = table_svg(rules, state.replace(cards=cards))
    panel = re.findall(r'<rect class="panel.*?</g>', svg)[0]
    assert panel.count('class="set"') == 2
    assert panel.count(f">{face_label(-5)}</text>") == 2


def test_cards_are_told_apart_without_colour() -> None:
    """Each kind has its own shape or glyph: hazards a triangle between tapes, mulligans a
    star, negative numbers a minus sign and a striped foot, backs a lattice."""
    defs = card_defs([7, -3, gr.HAZARD, gr.MULLIGAN])
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{defs}</svg>')
    drawings = {element.get("id"): element for element in root.iter(f"{SVG}g")}
    hazard, mulligan = drawings["cH"], drawings["cM"]
    assert hazard.find(f"{SVG}title").text == "hazard"  # type: ignore[union-attr]
    assert mulligan.find(f"{SVG}title").text == "mulligan"  # type: ignore[union-attr]
    assert "url(#tape)" in ET.tostring(hazard, encoding="unicode")
    assert "Z" in (mulligan.find(f"{SVG}path").get("d") or "")  # type: ignore[union-attr]
    negative = ET.tostring(drawings["cn3"], encoding="unicode")
    assert "\u22123" in negative and "url(#minus)" in negative
    assert "url(#minus)" not in ET.tostring(drawings["c7"], encoding="unicode")
    assert "url(#lattice)" in ET.tostring(drawings["cb"], encoding="unicode")
    assert drawings["cb7"].find(f"{SVG}use") is not None  # a peek back: the back, named


def test_names_are_escaped() -> None:
    rules = gr.load_ruleset("standard")
    state = play_to(rules, 3, 2, Phase.DRAW)
    svg = table_svg(rules, state, names=["<b>&", "Bo", 'C"y'])
    ET.fromstring(svg)
    assert "&lt;b&gt;&amp;" in svg and "<b>" not in svg


def test_the_piles_show_the_draw_pile_size_each_discard_top_and_the_removed_cards() -> None:
    rules = gr.load_ruleset("standard")
    state = play_to(rules, 4, 8, Phase.DRAW)
    svg = table_svg(rules, state)
    count = len(state.draw_pile)
    assert f">{count} card{'' if count == 1 else 's'}</text>" in svg
    for index, pile in enumerate(state.discard_piles):
        assert f">discard pile {index}</text>" in svg
        if pile:
            assert f'<use href="#{card_ref(pile[-1], True)}"' in svg
    turn = state.turn
    assert f"seat {turn} to draw" in svg


def test_owed_flips_and_the_seat_to_move_are_marked() -> None:
    rules = gr.load_ruleset("standard")
    state = play_to(rules, 4, 1, Phase.FLIP)
    assert state.phase is Phase.FLIP
    svg = table_svg(rules, state)
    panels = re.findall(r'<rect class="panel.*?</g>', svg)
    first, *rest = state.flips_owed
    assert 'class="panel active"' in panels[first] and "to flip a card" in panels[first]
    for seat in rest:
        assert "owes a flip" in panels[seat]


def test_a_card_nobody_knows_is_a_plain_back_and_leaves_its_layout_unscored() -> None:
    """A public-information record's state holds the stand-in HIDDEN where a card is
    unknown."""
    rules = gr.load_ruleset("standard")
    state = play_to(rules, 3, 4, Phase.DEAL)
    unknown = (HIDDEN, *state.cards[1][1:])
    cards = (state.cards[0], unknown, state.cards[2])
    svg = table_svg(rules, state.replace(cards=cards))
    assert seat_uses(svg, 1)[0] == "cb"
    panels = re.findall(r'<rect class="panel.*?</g>', svg)
    assert "round score" not in panels[1] and "round score" in panels[0]
