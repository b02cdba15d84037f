"""``gnoming serve`` over real sockets: whole games in which no connection learns a card
its seat cannot see, and every bad request refused without changing anything.

Each test runs uvicorn on 127.0.0.1 (an ephemeral port) and talks to it over HTTP and
WebSockets, against SQLite and against PostgreSQL (see ``server_kit``).
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from server_kit import STORAGES, Client, Live, live_server, storage_url
from websockets.exceptions import ConnectionClosed

import gnoming_rules as gr
from gnoming_rules.core.engine import explain
from gnoming_rules.core.entries import move_from_entry, move_to_entry
from gnoming_rules.core.moves import Deal, Move
from gnoming_rules.formats.record import PublicRecord, Record, parse_record
from gnoming_rules.play.observation import observe, stand_in
from gnoming_rules.play.observation_json import observation_from_dict, observation_to_dict
from gnoming_rules.referee.validate import validate_record
from gnoming_rules.server.app import Limits
from gnoming_rules.server.storage import SqliteStorage, Step


@pytest.fixture(params=STORAGES)
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    fast = Limits(rate=10_000, burst=10_000)  # the test's clients move faster than people
    with live_server(storage_url(request.param, tmp_path), fast) as server:
        yield server


def until_over(live: Live, table: str, seconds: float = 60) -> dict[str, Any]:
    """The summary of ``table`` once its game is over (a table of bots plays on its own)."""
    deadline = time.monotonic() + seconds
    while not (summary := live.summary(table))["over"]:
        assert time.monotonic() < deadline, summary
        time.sleep(0.05)
    return summary


def truth_states(record: Record) -> list[gr.State]:
    """The referee's state after each step (deals and reshuffles included): states[k]
    is the state once k steps were made."""
    rules = gr.load_ruleset(
        record.ruleset if isinstance(record.ruleset, str) else dict(record.ruleset)
    )
    state = gr.new_game(rules, len(record.players), record.first_player)
    states = [state]
    for round_ in record.rounds:
        moves: list[Move] = [Deal(tuple(round_.deal))]
        moves += [move_from_entry(entry) for entry in round_.moves]
        for move in moves:
            state = gr.apply(rules, state, move)
            states.append(state)
    return states


def play_out(live: Live, table: str, clients: dict[int, Client], rng: random.Random) -> list[Any]:
    """Play the people's seats to the end with random legal moves, trying a wrong move
    and a resend now and then; returns what was asked of the record mid-game."""
    seqs = dict.fromkeys(clients, 0)
    records: list[Any] = []
    step = live.summary(table)["steps"]
    for _ in range(5_000):
        views = {seat: client.view_at(step) for seat, client in clients.items()}
        first = next(iter(views.values()))
        if first["over"]:
            return records
        seat = first["observation"]["actor"]
        client, view = clients[seat], views[seat]
        if rng.random() < 0.1:  # someone else's move
            players = len(view["observation"]["layouts"])
            other = {**view["legal"][0], "player": (seat + 1) % players}
            client.send({"type": "move", "seq": seqs[seat] + 1, "move": other})
            assert client.until("error")["code"] == "wrong-seat"
        if rng.random() < 0.1:
            records.append(live.http.get(f"/tables/{table}/record"))
        seqs[seat] += 1
        move = rng.choice(view["legal"])
        client.send({"type": "move", "seq": seqs[seat], "move": move})
        ack = client.until("ack")
        assert ack["seq"] == seqs[seat] and not ack["duplicate"]
        step = ack["step"]
        if rng.random() < 0.1:  # a resend: acknowledged again, applied once
            client.send({"type": "move", "seq": seqs[seat], "move": move})
            again = client.until("ack")
            assert again["duplicate"] and again["step"] == step
        others = [other for other in view["legal"] if other != move]
        if others and rng.random() < 0.1:  # the number again with another move: refused
            client.send({"type": "move", "seq": seqs[seat], "move": others[0]})
            reused = client.until("error")
            assert (reused["code"], reused["seq"]) == ("sequence-reused", seqs[seat])
    raise AssertionError("the game did not end")


def check_views(
    client: Client, seat: int | None, states: list[gr.State], rules: gr.Ruleset | None = None
) -> int:
    """Every view ``client`` received is exactly what ``seat`` saw at that step (under
    ``rules``, standard by default)."""
    views = [message for message in client.received if message["type"] == "view"]
    rules = rules or gr.load_ruleset("standard")
    for view in views:
        seen = observe(states[view["step"]], seat)
        assert view["observation"] == observation_to_dict(seen)
        mine = seat is not None and seen.actor == seat
        legal = [move_to_entry(move) for move in gr.legal_moves(rules, seen)] if mine else []
        assert view["legal"] == legal
        assert view["last"] is None or "card" not in view["last"]
        assert "cards" not in json.dumps(view)
    return len(views)


def test_whole_games_leak_nothing(live: Live, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    rng = random.Random(21)
    for _ in range(2):
        table = live.create(
            ruleset="standard", seats=[{"name": "Ana"}, {"name": "Bo"}, {"bot": "greedy"}]
        )["table"]
        tokens = {seat: live.seat(table, seat) for seat in (0, 1)}
        with (
            live.socket(table, tokens[0]) as ana,
            live.socket(table, tokens[1]) as bo,
            live.socket(table) as watcher,
        ):
            for client in (ana, bo, watcher):
                assert client.until("welcome")["table"] == table
            records = play_out(live, table, {0: ana, 1: bo}, rng)
            watcher.latest_view(0.3)
        final = live.http.get(f"/tables/{table}/record")
        assert final.headers["x-gnoming-information"] == "full"
        full = parse_record(final.content)
        assert isinstance(full, Record)
        verdict = validate_record(full)
        assert verdict.valid and verdict.complete, verdict
        states = truth_states(full)
        for seat, client in ((0, ana), (1, bo), (None, watcher)):
            assert check_views(client, seat, states) > 50
            for message in client.received:
                if message["type"] == "error":
                    assert message["code"] in {"wrong-seat", "sequence-reused"}
                    assert set(message) == {"type", "code", "rule", "message", "seq"}
        # the record read mid-game: public, valid, and only what the whole table had seen
        assert records
        truth = [entry for round_ in full.rounds for entry in round_.moves]
        for response in records:
            assert response.headers["x-gnoming-information"] == "public"
            public = parse_record(response.content)
            assert isinstance(public, PublicRecord)
            assert validate_record(public).valid
            entries = [entry for round_ in public.rounds for entry in round_.moves]
            for seen, true in zip(entries, truth, strict=False):
                assert seen["action"] == true["action"] and seen.get(
                    "card", true.get("card")
                ) == true.get("card")
            last = entries[-1] if entries else None
            steps = sum(len(round_.moves) + 1 for round_ in public.rounds)
            after = states[steps]
            if last is not None and last["action"] == "draw":
                assert not observe(after).held_hidden  # a drawn card still hidden is left out
            assert b"deal" not in response.content
        # nothing secret in the logs: no token, no deal
        text = "\n".join(record.getMessage() for record in caplog.records)
        for token in tokens.values():
            assert token not in text
        assert json.dumps(full.rounds[0].deal) not in text


BAD_MESSAGES = [
    ("{not json", "bad-json"),
    ("[1, 2]", "bad-message"),
    ('{"type": "shout"}', "bad-message"),
    ('{"type": "move", "seq": 1, "move": {"action": "jump", "player": 0}}', "bad-move"),
    ('{"type": "move", "seq": 1, "move": "draw"}', "bad-move"),
    ('{"type": "move", "seq": "1", "move": {}}', "bad-sequence"),
    ('{"type": "move", "seq": 7, "move": {}}', "bad-sequence"),
    (
        '{"type": "move", "seq": 1, "move": {"action": "reveal", "player": 1, "slot": 0}}',
        "wrong-seat",
    ),
    ('{"type": "move", "seq": 1, "move": {"action": "reshuffle", "cards": []}}', "bad-move"),
    ('{"type": "hello"}', "bad-message"),
    ("x" * 9000, "too-large"),
]


def test_bad_socket_messages_change_nothing(live: Live) -> None:
    table = live.create(seats=[{"name": "Ana"}, {"name": "Bo"}, {"bot": "greedy"}])["table"]
    token = live.seat(table, 0)
    before = live.summary(table)
    with live.socket(table, token) as ana:
        ana.until("view")
        for text, code in BAD_MESSAGES:
            ana.send(text)
            error = ana.until("error")
            assert error["code"] == code, (text[:60], error)
            assert error["message"]
        ana.send(b"\x00binary")
        assert ana.until("error")["code"] == "bad-message"
    with live.socket(table, token) as ana:  # a frame past 64 KiB closes the connection
        ana.until("view")
        ana.send("x" * 70_000)
        with pytest.raises(ConnectionClosed) as closed:
            ana.until("error")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert live.summary(table) == before


def test_bad_hellos_are_refused(live: Live) -> None:
    table = live.create(seats=[{"name": "Ana"}, {"name": "Bo"}, {"bot": "greedy"}])["table"]
    with live.socket(table, "not-a-token") as stranger:
        assert stranger.until("error")["code"] == "bad-token"
    with live.socket("no-such-table") as lost:
        assert lost.until("error")["code"] == "unknown-table"
    with live.socket(table) as watcher:  # a spectator's moves are refused
        watcher.until("view")
        watcher.send(
            {"type": "move", "seq": 1, "move": {"action": "reveal", "player": 0, "slot": 0}}
        )
        assert watcher.until("error")["code"] == "spectator"
        view = watcher.latest_view()
        assert view["legal"] == []


def test_bad_http_requests_change_nothing(live: Live) -> None:
    http = live.http
    table = live.create(seats=[{"name": "Ana"}, {"name": "Bo"}, {"bot": "greedy"}])["table"]
    before = live.summary(table)
    cases = [
        (http.post("/tables", content=b"{nope"), 400, "bad-json"),
        (http.post("/tables", json={"seats": "three"}), 400, "bad-request"),
        (http.post("/tables", json={"seats": [{}], "colour": 1}), 400, "bad-request"),
        (http.post("/tables", json={"seats": [{}, {}]}), 400, "bad-request"),  # standard: 3-7
        (
            http.post("/tables", json={"ruleset": "/etc/passwd", "seats": [{}] * 3}),
            400,
            "unknown-ruleset",
        ),
        (
            http.post(
                "/tables", json={"ruleset": {"extends": "standard", "rounds": 0}, "seats": [{}] * 3}
            ),
            400,
            "bad-ruleset",
        ),
        (http.post("/tables", content=b"[" * 300_000), 413, "too-large"),
        (http.get("/tables/nope"), 404, "unknown-table"),
        (http.get("/tables/nope/record"), 404, "unknown-table"),
        (http.post("/tables/nope/seats/0"), 404, "unknown-table"),
        (http.post(f"/tables/{table}/seats/9"), 400, "bad-seat"),
        (http.post(f"/tables/{table}/seats/x"), 400, "bad-seat"),
        (http.post(f"/tables/{table}/seats/2"), 409, "seat-taken"),  # a bot's
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.json()["error"]["code"] == code, response.text
    live.seat(table, 0)
    again = http.post(f"/tables/{table}/seats/0")
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat-taken"
    after = live.summary(table)
    assert after["steps"] == before["steps"]
    assert [seat["taken"] for seat in after["seats"]] == [True, False, True]


def test_a_flood_is_refused_then_cut_off(tmp_path: Path) -> None:
    limits = Limits(rate=5.0, burst=5.0, strikes=10)
    with live_server(storage_url("sqlite", tmp_path), limits) as live:
        table = live.create(seats=[{"name": "Ana"}, {"name": "Bo"}, {"bot": "greedy"}])["table"]
        token = live.seat(table, 0)
        before = live.summary(table)["steps"]
        with live.socket(table, token) as ana:
            ana.until("view")
            flood = {"type": "move", "seq": 1, "move": {"action": "reveal", "player": 0, "slot": 0}}
            codes = []
            with pytest.raises(Exception, match=r"1008|close"):
                for _ in range(40):
                    try:
                        ana.send(flood)
                    except Exception as closed:  # cut off while still sending: read what came
                        assert "1008" in str(closed)
                        break
                while True:
                    message = ana.next(5)
                    codes.append(message.get("code"))
            assert codes.count("flood") >= 10
        assert live.summary(table)["steps"] - before <= 1  # one reveal at most went through


def test_reconnecting_with_the_token_gives_the_current_view(live: Live) -> None:
    table = live.create(seats=[{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}])["table"]
    token = live.seat(table, 0)
    with live.socket(table, token) as ana:
        view = ana.latest_view()
        ana.send({"type": "move", "seq": 1, "move": view["legal"][0]})
        ana.until("ack")
        last = ana.latest_view()
    with live.socket(table, token) as again:
        welcome = again.until("welcome")
        assert welcome["seat"] == 0 and welcome["next_seq"] == 2
        now = again.until("view")
        assert now["observation"] == last["observation"] and now["legal"] == last["legal"]
        again.send({"type": "move", "seq": 2, "move": now["legal"][0]})
        assert again.until("ack")["seq"] == 2


def test_time_control_lets_the_default_bot_move(live: Live) -> None:
    table = live.create(
        seats=[{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}], move_seconds=0.2
    )["table"]
    start = live.summary(table)["steps"]
    token = live.seat(table, 0)
    with live.socket(table, token) as ana:
        ana.until("view")
        timed = ana.until("view", timeout=5)
        assert timed["last"]["timed_out"] is True and timed["last"]["player"] == 0
    summary = live.summary(table)
    assert summary["steps"] > start
    assert summary["timeouts"][0]["seat"] == 0
    record = parse_record(live.http.get(f"/tables/{table}/record").content)
    first = summary["timeouts"][0]
    assert record.rounds[first["round"]].moves[first["move"]]["player"] == 0


def test_a_refused_move_is_explained_from_the_movers_view(live: Live) -> None:
    """A rule's refusal is the engine's, decided on the seat's own view: a flip nobody
    owes, a move out of turn."""
    seats = [{"name": "Ana"}, {"name": "Bo"}, {"bot": "random"}]
    table = live.create(seats=seats, first_player=0)["table"]
    rules = gr.load_ruleset("standard")
    for seat in (0, 1):
        with live.socket(table, live.seat(table, seat)) as client:
            view = client.latest_view()
            wrong = {"action": "flip" if seat == 0 else "reveal", "player": seat, "slot": 0}
            client.send({"type": "move", "seq": 1, "move": wrong})
            error = client.until("error")
            seen = stand_in(observation_from_dict(view["observation"]))
            expected = explain(rules, seen, move_from_entry(wrong))
            assert expected is not None
            assert expected.code == ("no-flip-owed" if seat == 0 else "not-your-turn")
            got = (error["code"], error["rule"], error["message"])
            assert got == (expected.code, expected.rule, expected.message)


def test_an_inline_ruleset_and_a_table_of_bots_give_a_valid_record(live: Live) -> None:
    short = {"extends": "standard", "name": "short", "rounds": 1}
    created = live.create(
        ruleset=short, seats=[{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]
    )
    assert created["ruleset"]["name"] == "short"
    table = until_over(live, created["table"])  # the bots play it in the background
    response = live.http.get(f"/tables/{table['table']}/record")
    record = parse_record(response.content)
    assert isinstance(record, Record) and record.ruleset == short and len(record.rounds) == 1
    verdict = validate_record(record)
    assert verdict.valid and verdict.complete and list(verdict.totals) == table["totals"]


class FailingStorage(SqliteStorage):
    """SQLite that refuses to store steps while ``failing`` is set."""

    failing = False

    def append_many(self, batches: Sequence[tuple[str, int, Sequence[Step]]]) -> None:
        if self.failing:
            raise OSError("disk full")
        super().append_many(batches)


def test_a_move_not_stored_is_not_acknowledged_nor_applied(tmp_path: Path) -> None:
    storage = FailingStorage(tmp_path / "tables.sqlite")
    with live_server(storage) as live:
        table = live.create(seats=[{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}])["table"]
        token = live.seat(table, 0)
        with live.socket(table, token) as ana:
            view = ana.latest_view()
            before = live.summary(table)["steps"]
            storage.failing = True
            ana.send({"type": "move", "seq": 1, "move": view["legal"][0]})
            error = ana.until("error")
            assert (error["code"], error["seq"]) == ("not-stored", 1)
            assert live.summary(table)["steps"] == before
            assert ana.latest_view(0.3)["step"] == before  # nobody was shown the move
            storage.failing = False
            ana.send({"type": "move", "seq": 1, "move": view["legal"][0]})
            ack = ana.until("ack")
            assert ack["seq"] == 1 and not ack["duplicate"] and ack["step"] > before


def _refusal_codes() -> set[str]:
    """The codes written in the server's ``Refusal(...)`` calls (read from the source)."""
    import ast

    codes: set[str] = set()
    for file in (Path(gr.__file__).parent / "server").glob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Refusal"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                codes.add(node.args[0].value)
    return codes


def test_a_refusal_joins_the_error_tree_and_its_codes_are_listed_once() -> None:
    """The server's refusals are ``GnomingError`` s; each code it writes is listed once in
    ``core.errors`` (its own in ``ServerCode``), and docs/server.md names each of its own."""
    from gnoming_rules.core.errors import LIBRARY_CODES, SERVER_CODES, Refusal
    from gnoming_rules.server.table import Refusal as TableRefusal

    assert TableRefusal is Refusal and issubclass(Refusal, gr.GnomingError)
    refusal = Refusal("not-your-turn", "seat 1 is to move", "4.1")
    assert (str(refusal), refusal.code, refusal.rule) == (
        "not-your-turn: seat 1 is to move",
        "not-your-turn",
        "4.1",
    )
    written = _refusal_codes()
    assert {"unknown-table", "too-large", "bad-json", "flood", "bad-seat"} <= written
    assert written <= set(SERVER_CODES) | set(LIBRARY_CODES)
    listed = [*gr.ERROR_CODES, *LIBRARY_CODES, *SERVER_CODES]
    assert len(listed) == len(set(listed))
    page = (Path(__file__).resolve().parents[1] / "docs" / "server.md").read_text(encoding="utf-8")
    assert [code for code in SERVER_CODES if f"`{code}`" not in page] == []


@pytest.mark.parametrize("name", ["cabo-like", "four-card-golf", "golf-6-house"])
def test_rule_11_a_table_of_a_new_ruleset_serves_each_seat_what_it_knows(
    live: Live, name: str
) -> None:
    """A person and two bots play a round of a bundled ruleset of rule 11 through the
    server: every view is the seat's own observation (a peeked or placed card shown to the
    seats that know it, rule 11.1, and to no other), the legal moves are the referee's, and
    the record is valid."""
    rules = gr.load_ruleset({"extends": name, "name": f"short-{name}", "rounds": 1})
    ruleset = {"extends": name, "name": f"short-{name}", "rounds": 1}
    table = live.create(
        ruleset=ruleset, seats=[{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}]
    )["table"]
    token = live.seat(table, 0)
    with live.socket(table, token) as ana, live.socket(table) as watcher:
        for client in (ana, watcher):
            assert client.until("welcome")["table"] == table
        play_out(live, table, {0: ana}, random.Random(len(name)))
        watcher.latest_view(0.3)
    record = parse_record(live.http.get(f"/tables/{table}/record").content)
    assert isinstance(record, Record)
    verdict = validate_record(record)
    assert verdict.valid and verdict.complete, verdict
    states = truth_states(record)
    assert check_views(ana, 0, states, rules) > 5
    assert check_views(watcher, None, states, rules) > 5
    if rules.compiled.knowledge:  # a peek made by seat 0 shows that card to seat 0 alone
        views = [m["observation"] for m in ana.received if m["type"] == "view"]
        assert any(v["known"] for v in views)


SEAT_URLS = [
    "%C2%B2",  # superscript two: str.isdigit() says yes, int() says no
    "%D9%A1",  # Arabic-Indic one
    "%EF%BC%91",  # full-width one
    "%F0%9D%9F%8F",  # mathematical bold one
    "00",  # seat 0 again, under another URL
    "01",
    "+1",
    "-1",
    "1.0",
    "1e0",
    "%201",
    "1%20",
    "0x1",
    "12345",
    "9999",  # a number, but no seat of the table
]


def test_a_seat_is_ascii_digits_with_one_url_each(live: Live) -> None:
    """Issue 31: a seat number that is not ASCII was a 500 with a traceback, and
    Arabic-Indic or full-width digits named seats (one seat, several URLs)."""
    table = live.create(seats=[{"name": "Ana"}, {"name": "Bo"}, {"bot": "greedy"}])["table"]
    before = live.summary(table)
    for text in SEAT_URLS:
        response = live.http.post(f"/tables/{table}/seats/{text}")
        assert response.status_code == 400, (text, response.text)
        assert response.json()["error"]["code"] == "bad-seat", text
    assert live.summary(table) == before
    bodies = [b"[]", b'{"seat": 1}', b"null"]
    for body in bodies:  # taking a seat takes no body
        response = live.http.post(f"/tables/{table}/seats/1", content=body)
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad-request"
    taken = live.http.post(f"/tables/{table}/seats/1", content=b"{}")
    assert taken.status_code == 201 and taken.json()["seat"] == 1
    assert taken.headers["cache-control"] == "no-store"


def test_sequence_numbers_are_bounded_and_not_reused_for_another_move(live: Live) -> None:
    """Issue 31: a seq of 2**64 dropped the connection (the error echoed a number the JSON
    writer could not encode), and a seq reused with another move was acknowledged as a
    duplicate of the first."""
    seats = [{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}]
    table = live.create(seats=seats, first_player=0)["table"]
    token = live.seat(table, 0)
    with live.socket(table, token) as ana:
        view = ana.latest_view()
        move = view["legal"][0]
        for seq in [2**64, -(2**64), 2**31, 0, -1, 10**4000 // 10**3990, True, 1.0, "1", None]:
            ana.send(json.dumps({"type": "move", "seq": seq, "move": move}))
            error = ana.until("error")
            assert (error["code"], error["seq"]) == ("bad-sequence", None), seq
        ana.send('{"type": "move", "seq": 1' + "0" * 5000 + ', "move": {}}')  # past int()
        assert ana.until("error")["code"] == "bad-json"
        ana.send({"type": "move", "seq": 1, "move": move})
        ack = ana.until("ack")
        assert ack == {"type": "ack", "seq": 1, "step": ack["step"], "duplicate": False}
        ana.send({"type": "move", "seq": 1, "move": move})
        assert ana.until("ack")["duplicate"] is True
        other = {**move, "slot": (move.get("slot", 0) + 1) % 6} if "slot" in move else None
        others = [other] if other is not None else []
        others.append({"action": "reveal", "player": 0, "slot": 5})
        for wrong in others:
            if wrong == move:
                continue
            ana.send({"type": "move", "seq": 1, "move": wrong})
            error = ana.until("error")
            assert (error["code"], error["seq"]) == ("sequence-reused", 1), wrong
        steps = live.summary(table)["steps"]
        assert steps == ack["step"]
    assert live.summary(table)["steps"] == steps


STRICT_JSON = [
    ('{"type": "move", "type": "hello"}', "bad-json"),  # a key twice
    ('{"type": "move", "seq": NaN, "move": {}}', "bad-json"),
    ('{"type": "move", "seq": Infinity, "move": {}}', "bad-json"),
    ('{"type": "hello", "token": "\\ud800"}', "bad-json"),  # a lone surrogate
    ("[" * 40 + "]" * 40, "bad-json"),  # deeper than 32
    ('{"type": "move", "seq": 1, "move": {}, "also": 1}', "bad-message"),
    ('{"type": "move", "seq": 1, "move": ' + "[" * 5000 + "]" * 5000 + "}", "too-large"),
    ('{"type": "move", "seq": 1, "move": ' + "[" * 4000 + "]" * 4000 + "}", "bad-json"),
]


def test_messages_and_bodies_are_strict_json(live: Live) -> None:
    table = live.create(seats=[{"name": "Ana"}, {"name": "Bo"}, {"bot": "greedy"}])["table"]
    token = live.seat(table, 0)
    before = live.summary(table)
    with live.socket(table, token) as ana:
        ana.until("view")
        for text, code in STRICT_JSON:
            ana.send(text)
            error = ana.until("error")
            assert error["code"] == code, (text[:60], error)
    with live.socket(table) as stranger:  # a hello that does not fit
        stranger.send('{"type": "hello", "token": 7}')
        assert stranger.until("error")["code"] == "bad-hello"
        stranger.send('{"type": "hello", "svg": "yes"}')
        assert stranger.until("error")["code"] == "bad-hello"
        stranger.send('{"type": "hello", "token": "' + "x" * 200 + '"}')
        assert stranger.until("error")["code"] == "bad-hello"
    for body in (b'{"seats": [{}, {}, {}], "seats": []}', b'{"seats": [{"name": "\\udfff"}]}'):
        response = live.http.post("/tables", content=body)
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad-json"
    deep = b'{"seats": [{}, {}, {}], "ruleset": ' + b'{"a": ' * 40 + b"1" + b"}" * 41
    response = live.http.post("/tables", content=deep)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad-json"
    assert live.summary(table) == before


def test_every_answer_is_json_and_carries_the_security_headers(live: Live) -> None:
    from gnoming_rules.server.page import SECURITY_HEADERS

    table = live.create(seats=[{"name": "Ana"}, {"name": "Bo"}, {"bot": "greedy"}])["table"]
    answers = {
        "page": live.http.get("/"),
        "rulesets": live.http.get("/rulesets"),
        "summary": live.http.get(f"/tables/{table}"),
        "no-route": live.http.get("/nowhere"),
        "bad-method": live.http.delete(f"/tables/{table}"),
        "socket as HTTP": live.http.get(f"/tables/{table}/socket"),
        "unknown-table": live.http.get("/tables/%E2%80%AE"),
    }
    for name, response in answers.items():
        for header, value in SECURITY_HEADERS.items():
            assert response.headers.get(header) == value, (name, header)
        if name != "page":
            assert response.headers["content-type"] == "application/json", name
    codes = {name: answers[name].json()["error"]["code"] for name in list(answers)[3:]}
    assert codes == {
        "no-route": "no-route",
        "bad-method": "bad-method",
        "socket as HTTP": "no-route",
        "unknown-table": "unknown-table",
    }
    assert [answers[name].status_code for name in list(answers)[3:]] == [404, 405, 404, 404]
    assert "GET" in answers["bad-method"].headers["allow"]
    policy = SECURITY_HEADERS["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy


def test_a_table_of_bots_is_played_in_the_background(live: Live) -> None:
    """Issue 31: a table of bots only was played through inside the request that created
    it, on the event loop, and every other table waited. Now its creation answers before
    the game is played, the game goes on in the bots' pool, a batch of steps at a time,
    while the people's table next to it is served, and its record is valid."""
    eight = {"extends": "golf-6", "name": "golf-6-short", "rounds": 2}
    created = live.create(ruleset=eight, seats=[{"bot": "greedy"}] * 8)
    assert created["over"] is False and created["steps"] < 500, created
    people = live.create(seats=[{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}])["table"]
    token = live.seat(people, 0)
    seen: list[int] = []
    with live.socket(people, token) as ana:
        for seq in range(1, 6):
            view = ana.latest_view(0.2)
            while not view["legal"]:
                view = ana.until("view")
            ana.send({"type": "move", "seq": seq, "move": view["legal"][0]})
            assert ana.until("ack")["seq"] == seq
            seen.append(live.summary(created["table"])["steps"])
    assert seen == sorted(seen)
    summary = until_over(live, created["table"], 120)
    record = parse_record(live.http.get(f"/tables/{created['table']}/record").content)
    assert isinstance(record, Record) and len(record.rounds) == 2
    verdict = validate_record(record)
    assert verdict.valid and verdict.complete and list(verdict.totals) == summary["totals"]


def test_the_bots_pool_replaces_a_worker_that_died() -> None:
    """A worker killed (out of memory, say) fails the job under way, and only it: the
    pool starts again for the next one."""
    import asyncio
    import os
    import signal
    from concurrent.futures.process import BrokenProcessPool

    from gnoming_rules.play.bots import make_bot
    from gnoming_rules.server.pool import BotPool, Job, Played, ruleset_key

    rules = gr.load_ruleset("standard")
    bots = {seat: make_bot("random", random.Random(seat)) for seat in range(3)}
    state = gr.new_game(rules, 3, 0)
    job = Job(ruleset_key("standard"), rules.sha256, state, bots, limit=10)
    pool = BotPool(1)

    async def played() -> Played:
        return await pool.run(job)

    try:
        first = asyncio.run(played())
        assert len(first.moves) == len(first.entries) == len(first.texts) == 10
        executor = pool._executor
        assert executor is not None
        for process in list(executor._processes.values()):
            assert process.pid is not None
            os.kill(process.pid, signal.SIGKILL)
            process.join(10)
        with pytest.raises(BrokenProcessPool):
            asyncio.run(played())
        again = asyncio.run(played())
        assert len(again.moves) == 10
    finally:
        pool.close()
