"""The HTML replay of a record (gnoming_rules.pictures): its positions, its verdict, its size.

The page is checked here as data; tests/test_browser.py opens it in a real browser.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from kit import EXAMPLES, ILLEGAL

import gnoming_rules as gr
from gnoming_rules.formats.record import PublicRecord
from gnoming_rules.pictures.cards import face_label
from gnoming_rules.pictures.frames import record_frames
from gnoming_rules.pictures.replay import replay_html, write_replay
from gnoming_rules.play import play_game
from gnoming_rules.referee.validate import replay_file, replay_record


def page_data(page: str) -> dict[str, Any]:
    """The positions a page steps through: its JSON data."""
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_every_position_is_the_state_the_validator_reaches_there() -> None:
    path = EXAMPLES / "demo-game.json"
    replay = replay_file(path)
    assert replay.record is not None
    frames = record_frames(replay.record, replay, base_dir=path.parent)
    moves = sum(len(round_.moves) for round_ in replay.record.rounds)
    assert len(frames) == moves + len(replay.record.rounds)
    assert frames[-1].state == replay.state
    for frame in frames[::17]:
        paused = replay_record(replay.record, base_dir=path.parent, until=(frame.round, frame.move))
        assert paused.state == frame.state, (frame.round, frame.move)


def test_a_valid_game_opens_at_its_first_position_with_its_verdict(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    written = write_replay(EXAMPLES / "demo-game.json", out)
    replay = written.replay
    page = out.read_text(encoding="utf-8")
    assert written.size == len(page.encode("utf-8"))
    data = page_data(page)
    assert data["start"] == 0
    assert len(data["frames"]) == written.positions
    assert written.positions == len(record_frames(replay.record, replay))  # type: ignore[arg-type]
    verdict = replay.verdict
    assert verdict.valid and verdict.complete
    winner = replay.record.players[verdict.winners[0]]  # type: ignore[union-attr]
    assert f"Winner: {winner}." in page
    last = [data["parts"][number] for number in data["frames"][-1]]
    scores = last[-1]
    assert "&#9733; winner" in scores
    for total in verdict.totals:
        assert f'<td class="total">{face_label(total)}</td>' in scores


def test_a_public_record_steps_through_the_table_s_view_with_backs_for_unknown_cards() -> None:
    path = EXAMPLES / "public" / "tiny-game.json"
    replay = replay_file(path)
    assert replay.verdict.valid and isinstance(replay.record, PublicRecord)
    page = replay_html(replay, title=path.name, base_dir=path.parent)
    data = page_data(page)
    moves = sum(len(round_.moves) for round_ in replay.record.rounds)
    assert len(data["frames"]) == moves + len(replay.record.rounds)
    first = "".join(data["parts"][number] for number in data["frames"][0])
    assert "as the table saw it" in first and "referee&#x27;s view" not in page
    assert "after the start" in first and ">the start</li>" in page
    # At the start every layout card is a plain back (#cb), never a back that names its card.
    assert 'href="#cb"' in first and not re.search(r'href="#cb[^"]', first)


@pytest.mark.parametrize("name", sorted(path.stem for path in ILLEGAL.glob("*.json")))
def test_a_refused_record_opens_at_its_error(name: str) -> None:
    path = ILLEGAL / f"{name}.json"
    replay = replay_file(path)
    page = replay_html(replay, title=path.name, base_dir=path.parent)
    error = replay.verdict.error
    assert error is not None
    verdict = re.search(r'<section id="verdict" class="bad">(.*?)</section>', page, re.S)
    assert verdict is not None
    text = verdict.group(1)
    assert f">{error.code}</code>" in text
    assert (f"rule {error.rule}" in text) == (error.rule is not None)
    assert html.escape(error.message) in text
    data = page_data(page)
    if replay.state is None or (isinstance(replay.record, PublicRecord) and error.move is None):
        # nothing to draw: refused before a deal, or a public round's start
        assert data["frames"] == [] and "no position to show" in page
        return
    assert data["start"] == len(data["frames"]) - 1
    shown = data["parts"][data["frames"][-1][-2]]
    if error.move is not None:
        refused = re.search(r'<li class="refused"><span class="n">(\d+)</span>', page)
        assert refused is not None and int(refused.group(1)) == error.move
        assert f'data-move="{error.move}"' in shown
    entry = replay.entry
    if entry is not None and "slot" in entry and 0 <= entry["slot"] < 9:
        assert 'class="marked"' in "".join(data["parts"][n] for n in data["frames"][-1])


class _Links(HTMLParser):
    """Collects every attribute that could load something: src, href, @import, url()."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key in ("src", "href", "xlink:href", "action", "data") and value is not None:
                self.loads.append(value)


def test_the_page_needs_no_network_and_a_seven_player_game_stays_small() -> None:
    rules = gr.load_ruleset("standard")
    record, _ = play_game(rules, 7, seed=7)
    replay = replay_record(record)
    page = replay_html(replay)
    links = _Links()
    links.feed(page)
    assert links.loads and all(link.startswith("#") for link in links.loads)
    assert "url(http" not in page and "@import" not in page
    assert "<script src" not in page
    size = len(page.encode("utf-8"))
    assert size < 2_000_000, f"{size} bytes"


@pytest.mark.parametrize("name", gr.bundled_rulesets())
def test_every_bundled_variant_replays(name: str) -> None:
    rules = gr.load_ruleset(name)
    record, final = play_game(rules, rules.players.min, seed=5)
    replay = replay_record(record)
    assert replay.verdict.valid
    page = replay_html(replay)
    data = page_data(page)
    moves = sum(len(round_.moves) for round_ in record.rounds)
    assert len(data["frames"]) == moves + len(record.rounds)
    piles = len(final.discard_piles) + 3  # the draw pile, each discard pile, held, removed
    seats = len(data["frames"][0]) - 1 - piles - 2  # the heading; the status, the scores
    assert seats == rules.players.min
    slots = rules.layout.rows * rules.layout.cols
    first_seat = data["parts"][data["frames"][0][1 + piles]]
    assert first_seat.count("<use ") == slots
    assert final.is_over


def test_names_and_messages_are_escaped_in_the_page() -> None:
    rules = gr.load_ruleset("standard")
    record, _ = play_game(rules, 3, seed=1, names=["</script><b>", "Bo", "Cy"])
    page = replay_html(replay_record(record))
    assert "</script><b>" not in page
    assert page.count("</script>") == 2  # the data's and the script's own
