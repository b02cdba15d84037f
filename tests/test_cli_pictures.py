"""``gnoming show --svg`` and ``gnoming replay``: the files they write and their exit statuses."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from kit import EXAMPLES, ILLEGAL, gnoming


def test_show_svg_writes_a_picture_and_a_seat_sees_less(tmp_path: Path) -> None:
    referee, seat = tmp_path / "referee.svg", tmp_path / "seat.svg"
    record = str(EXAMPLES / "demo-game.json")
    done = gnoming("show", record, "--round", "0", "--move", "20", "--svg", "-o", str(referee))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    other = gnoming("show", record, "--round", "0", "--move", "20", "--svg", "--seat", "1",
                    "-o", str(seat))  # fmt: skip
    assert other.returncode == 0, other.stderr
    for path in (referee, seat):
        assert ET.parse(path).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    drawn, seen = referee.read_text(encoding="utf-8"), seat.read_text(encoding="utf-8")
    assert '<use href="#cb5"' in drawn  # the referee sees under the backs
    assert "as seat 1 (Bo) sees it" in seen and '<use href="#cb5"' not in seen
    to_stdout = gnoming("show", record, "--round", "0", "--move", "20", "--svg")
    assert to_stdout.stdout.strip() == drawn.strip()


def test_show_svg_outlines_the_slot_of_a_refused_move(tmp_path: Path) -> None:
    done = gnoming("show", str(ILLEGAL / "mulligan-limit.json"), "--svg")
    assert done.returncode == 0, done.stderr
    assert 'class="marked"' in done.stdout


def test_show_svg_usage_errors_are_one_line(tmp_path: Path) -> None:
    record = str(EXAMPLES / "demo-game.json")
    cases = [
        (["-o", str(tmp_path / "seat.svg")], "--out goes with --svg"),
        (["--svg", "--spectator"], "not a spectator"),
        (["--svg", "--json"], "give one of them"),
        (["--svg", "-o", record], "is the record itself"),
        (["--svg", "-o", str(tmp_path / "no" / "such.svg")], "does not exist"),
        (["--svg", "--seat", "9"], "--seat 9: the record has seats 0 to 3"),
    ]
    for extra, said in cases:
        done = gnoming("show", record, *extra)
        assert done.returncode == 2, extra
        assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    assert (EXAMPLES / "demo-game.json").read_text(encoding="utf-8").startswith("{")


def test_replay_writes_the_page_and_exits_as_validate(tmp_path: Path) -> None:
    page = tmp_path / "game.html"
    done = gnoming("replay", str(EXAMPLES / "demo-game.json"), "-o", str(page))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{page}: ") and "(valid, complete)" in done.stdout
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    for name, status in (("mulligan-limit", 1), ("bad-deal", 2)):
        out = tmp_path / f"{name}.html"
        done = gnoming("replay", str(ILLEGAL / f"{name}.json"), "-o", str(out), "--json")
        assert done.returncode == status, done.stderr
        document = json.loads(done.stdout)
        assert document["out"] == str(out) and document["bytes"] == out.stat().st_size
        assert document["error"]["code"] == name and document["valid"] is False
        assert (document["positions"] > 0) == (status == 1)


def test_replay_never_writes_over_its_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_bytes((EXAMPLES / "tiny-game.json").read_bytes())
    (tmp_path / "tiny.yaml").write_bytes((EXAMPLES / "tiny.yaml").read_bytes())
    before = record.read_bytes()
    done = gnoming("replay", str(record), "-o", str(record))
    assert done.returncode == 2 and "is the record itself" in done.stderr
    assert record.read_bytes() == before


def test_replay_seat_writes_the_game_as_that_seat_saw_it(tmp_path: Path) -> None:
    """``--seat N``: the page draws the cards seat N peeked at as known (rule 11.1) and has
    no box that shows the face-down cards; the referee's page has the box and no known
    card; a seat not at the table is one line, ``bad-seat``, exit status 2."""
    record = tmp_path / "cabo.json"
    played = gnoming("play", "--ruleset", "cabo-like", "--players", "2", "--seed", "3",
                     "--out", str(record))  # fmt: skip
    assert played.returncode == 0, played.stderr
    referee, seat = tmp_path / "referee.html", tmp_path / "seat.html"
    assert gnoming("replay", str(record), "-o", str(referee)).returncode == 0
    done = gnoming("replay", str(record), "-o", str(seat), "--seat", "0")
    assert done.returncode == 0, done.stderr
    page, mine = referee.read_text(encoding="utf-8"), seat.read_text(encoding="utf-8")
    assert 'id="peek"' in page and "known to this seat" not in page
    assert 'id="peek"' not in mine and "known to this seat" in mine
    wrong = gnoming("replay", str(record), "-o", str(seat), "--seat", "2")
    assert wrong.returncode == 2
    assert wrong.stderr.strip().splitlines() == [
        "gnoming: bad-seat: seat 2 is not at the table (seats 0 to 1)"
    ]
