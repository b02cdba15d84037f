"""Fuzzing ``gnoming serve`` over loopback: random and mutated HTTP requests and socket
messages, from a client that means harm.

One server (uvicorn on 127.0.0.1, SQLite, in this process) holds two tables: a table of
three people whose seats are all taken, where seat 0 has made its first moves and seat 1,
whom nobody plays, is to move; and a finished table of bots. Hypothesis then sends
requests to any route with any method, path and body (seat numbers in Unicode digits and
with leading zeros, table ids that are almost right, bodies of random JSON, mutated
requests for a table, huge integers, deep nesting, repeated keys, lone surrogates, bytes
that are not UTF-8), and socket messages on seat 0's connection and a spectator's (moves
with sequence numbers huge, negative, fractional, in words, or already used, with the
same move or another; random JSON; binary frames; messages past the size limit), and new
connections whose first message is anything.

Whatever is sent: no answer is a 5xx, every refusal is JSON with a listed code (an
``error`` message on a socket, one for each message, the connection kept), nothing in the
server's log is an error or a traceback, and neither table changes: every move is
refused, or acknowledged as a duplicate of the one first sent under its number.

Bounded: the profile's examples (25 in ``dev``, 200 in ``ci``) and :data:`BUDGET` seconds,
past which the remaining examples send nothing.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_kit import Client, Live, live_server, storage_url
from websockets.exceptions import ConnectionClosed, InvalidStatus

from gnoming_rules.core.entries import move_from_entry
from gnoming_rules.core.errors import ERROR_CODES, LIBRARY_CODES, SERVER_CODES
from gnoming_rules.server.app import Limits

BUDGET = 40.0
"""Seconds of fuzzing at most, whatever the profile (the ``ci`` profile takes about 20)."""

CODES = {*ERROR_CODES, *LIBRARY_CODES, *SERVER_CODES}


class _Kept(logging.Handler):
    """Keeps every record of the server's loggers at WARNING or above, or with a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.levelno >= logging.WARNING or record.exc_info or "Traceback" in text:
            self.records.append(record)


@dataclass
class Stage:
    """The server, its two tables as they were, and seat 0's connection (with the moves it
    made, by sequence number)."""

    live: Live
    people: str
    bots: str
    tokens: dict[int, str]
    sent: dict[int, dict[str, Any]]
    before: dict[str, tuple[Any, bytes]] = field(default_factory=dict)
    started: float = 0.0
    clients: dict[str, Client] = field(default_factory=dict)
    exits: list[Any] = field(default_factory=list)

    def state(self, table: str) -> tuple[Any, bytes]:
        return self.live.summary(table), self.live.http.get(f"/tables/{table}/record").content

    def client(self, name: str) -> Client:
        """Seat 0's connection (``seat``) or a spectator's (``watcher``), connected again if
        a test closed it (a frame past 64 KiB does)."""
        client = self.clients.get(name)
        if client is None:
            opened = self.live.socket(self.people, self.tokens[0] if name == "seat" else None)
            client = opened.__enter__()
            self.exits.append(opened)
            assert client.until("welcome")["table"] == self.people
            client.until("view")
            self.clients[name] = client
        return client


@pytest.fixture(scope="module")
def stage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stage]:
    kept = _Kept()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error", "gnoming")]
    for logger in loggers:
        logger.addHandler(kept)
    fast = Limits(rate=100_000, burst=100_000)  # the fuzzer sends faster than people
    try:
        with live_server(storage_url("sqlite", tmp_path_factory.mktemp("fuzz")), fast) as live:
            people = live.create(seats=[{}, {}, {}], first_player=0)["table"]
            tokens = {seat: live.seat(people, seat) for seat in range(3)}
            bots = live.create(
                ruleset={"extends": "standard", "rounds": 1}, seats=[{"bot": "random"}] * 3
            )
            stage = Stage(live, people, bots["table"], tokens, {})
            deadline = time.monotonic() + 60
            while not live.summary(stage.bots)["over"]:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            seat = stage.client("seat")
            view = seat.latest_view(0.3)
            seq = 0
            while view["legal"]:  # seat 0 plays until seat 1 (nobody) is to move
                seq += 1
                stage.sent[seq] = view["legal"][0]
                seat.send({"type": "move", "seq": seq, "move": view["legal"][0]})
                seat.until("ack")
                view = seat.latest_view(0.3)
            assert stage.sent and live.summary(people)["waiting_for"] == 1
            stage.before = {table: stage.state(table) for table in (people, stage.bots)}
            stage.started = time.monotonic()
            yield stage
            for table, was in stage.before.items():
                assert stage.state(table) == was, f"table {table} changed"
            for opened in stage.exits:
                opened.__exit__(None, None, None)
    finally:
        for logger in loggers:
            logger.removeHandler(kept)
    bad = [f"{record.name}: {record.getMessage()}" for record in kept.records]
    assert bad == [], bad


# ----- what a hostile client sends ---------------------------------------------------

UNICODE_DIGITS = st.characters(categories=["Nd", "No", "Nl"]).filter(lambda c: not c.isascii())
HUGE = st.sampled_from([2**31, 2**63, 2**64, -(2**63) - 1, 10**100, 10**4000])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | HUGE
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def seat_texts() -> st.SearchStrategy[str]:
    """What a URL may give as a seat: Unicode digits, ASCII with leading zeros or signs,
    huge numbers, anything."""
    return st.one_of(
        st.lists(UNICODE_DIGITS, min_size=1, max_size=3).map("".join),
        st.integers(0, 20).map(lambda n: f"0{n}"),
        st.integers(-5, 10**30).map(str),
        st.sampled_from(
            ["+1", "1.0", "1e0", " 1", "1 ", "0x1", "", "\u00b2", "\u0663", "\uff13", "\U0001d7cf"]
        ),
        st.text(max_size=6),
    )


def table_texts(stage: Stage) -> st.SearchStrategy[str]:
    real = st.sampled_from([stage.people, stage.bots])
    return st.one_of(
        real,
        real.map(lambda text: text[:-1]),
        real.map(lambda text: text + "x"),
        real.map(lambda text: text.upper()),
        st.text(max_size=20),
        st.just("a" * 300),
    )


def bodies() -> st.SearchStrategy[bytes]:
    request = st.fixed_dictionaries(
        {},
        optional={
            "ruleset": st.sampled_from(["standard", "quick", "/etc/passwd", "../x"]) | json_values,
            "seats": st.lists(
                st.fixed_dictionaries(
                    {}, optional={"name": json_values, "bot": st.sampled_from(["random", "x"])}
                ),
                max_size=3,  # two seats at most are refused by every ruleset but one
            ),
            "move_seconds": json_values,
            "first_player": st.integers() | HUGE | json_values,
            "colour": json_values,
        },
    )
    return st.one_of(
        st.just(b""),
        st.binary(max_size=40),
        json_values.map(lambda value: json.dumps(value).encode()),
        request.map(lambda value: json.dumps(value).encode()),
        st.integers(1, 3000).map(lambda depth: nested(depth).encode()),
        st.sampled_from(
            [
                b'{"seats": [{}], "seats": [{}]}',
                b'{"seats": [{"name": "\\ud800"}]}',
                b'{"seats": NaN}',
                b'{"first_player": 1' + b"0" * 5000 + b"}",
                b"\xff\xfe{}",
                b'{"seats": [{}, {}, {}], "ruleset": ' + b'{"extends": ' * 40 + b"1" + b"}" * 41,
            ]
        ),
    )


def paths(stage: Stage) -> st.SearchStrategy[str]:
    table = table_texts(stage).map(lambda text: quote(text, safe=""))
    seat = seat_texts().map(lambda text: quote(text, safe=""))
    return st.one_of(
        st.just("/"),
        st.just("/rulesets"),
        st.just("/tables"),
        table.map(lambda text: f"/tables/{text}"),
        table.map(lambda text: f"/tables/{text}/record"),
        table.map(lambda text: f"/tables/{text}/socket"),
        st.tuples(table, seat).map(lambda pair: f"/tables/{pair[0]}/seats/{pair[1]}"),
        st.text(max_size=20).map(lambda text: "/" + quote(text)),
    )


METHODS = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])


def move_messages(stage: Stage) -> st.SearchStrategy[Any]:
    """Moves of seat 0 (whose turn it is not): sequence numbers of every kind, the moves it
    made, made-up moves and mutations of both."""
    made = st.sampled_from(sorted(stage.sent))
    seqs: st.SearchStrategy[Any] = st.one_of(
        made,
        st.integers(-3, 10),
        HUGE,
        st.floats(allow_nan=False),
        st.sampled_from(["1", "\uff11", "\u0663", True, False, None, [], {}]),
    )
    moves = st.one_of(
        made.map(lambda seq: stage.sent[seq]),
        st.builds(
            dict,
            action=st.sampled_from(
                ["reveal", "draw", "place", "discard", "flip", "reshuffle", "x"]
            ),
            player=st.integers(-1, 3) | HUGE | st.sampled_from(["0", "\u0660", None]),
            slot=st.integers(-1, 8) | HUGE | st.sampled_from(["0", "\u0660"]),
        ),
        st.builds(
            lambda move, key, value: {**move, key: value},
            made.map(lambda seq: stage.sent[seq]),
            st.sampled_from(["action", "player", "slot", "source", "pile", "card", "extra"]),
            json_values,
        ),
        json_values,
    )
    message = st.builds(lambda seq, move: {"type": "move", "seq": seq, "move": move}, seqs, moves)
    return st.one_of(
        message,
        st.builds(lambda value, extra: {**value, "also": extra}, message, json_values),
        made.map(lambda seq: {"type": "move", "seq": seq, "move": stage.sent[seq]}),
    )


def socket_texts(stage: Stage) -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        move_messages(stage).map(json.dumps),
        json_values.map(json.dumps),
        st.builds(lambda value: json.dumps({"type": "hello", "token": value}), json_values),
        st.text(max_size=30),
        st.binary(max_size=30),
        st.integers(1, 6000).map(nested),
        st.sampled_from(
            [
                '{"type": "move", "seq": 1, "seq": 2, "move": {}}',
                '{"type": "move", "seq": 1' + "0" * 5000 + ', "move": {}}',
                '{"type": "move", "seq": NaN, "move": {}}',
                '{"type": "hello", "token": "\\udc00"}',
                "x" * 9000,
            ]
        ),
    )


# ----- the checks ----------------------------------------------------------------------


def check_answer(method: str, response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400 and method != "HEAD":
        error = response.json()["error"]
        assert error["code"] in CODES and error["message"], error


def check_reply(stage: Stage, text: str | bytes, reply: dict[str, Any]) -> None:
    """Each message gets one reply: an error with a listed code, or the acknowledgement of
    a duplicate (the move first sent under that number)."""
    if reply["type"] == "ack":
        message = json.loads(text)
        assert reply["duplicate"] is True, (text, reply)
        first = move_from_entry(stage.sent[message["seq"]])
        assert move_from_entry(message["move"]) == first, (text, reply)
        return
    assert reply["type"] == "error", (text, reply)
    assert reply["code"] in CODES and reply["message"], reply
    assert reply["seq"] is None or reply["seq"] in stage.sent or 1 <= reply["seq"] < 2**31


def over_budget(stage: Stage) -> bool:
    return time.monotonic() - stage.started > BUDGET


FUZZ = settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(data=st.data())
def test_http_requests_never_fail_the_server(stage: Stage, data: st.DataObject) -> None:
    if over_budget(stage):
        return
    for _ in range(data.draw(st.integers(1, 4))):
        method = data.draw(METHODS)
        path = data.draw(paths(stage))
        body = data.draw(bodies()) if method in {"POST", "PUT", "PATCH"} else b""
        response = stage.live.http.request(method, path, content=body)
        check_answer(method, response)


@FUZZ
@given(data=st.data())
def test_socket_messages_never_fail_the_server(stage: Stage, data: st.DataObject) -> None:
    if over_budget(stage):
        return
    name = data.draw(st.sampled_from(["seat", "watcher"]))
    client = stage.client(name)
    for _ in range(data.draw(st.integers(1, 5))):
        text = data.draw(socket_texts(stage))
        client.send(text)
        reply = client.next(10)
        if name == "watcher" and reply["type"] == "error" and reply["code"] == "spectator":
            continue
        check_reply(stage, text, reply)


@FUZZ
@given(data=st.data())
def test_first_messages_and_socket_paths_never_fail_the_server(
    stage: Stage, data: st.DataObject
) -> None:
    if over_budget(stage):
        return
    table = data.draw(table_texts(stage))
    text = data.draw(socket_texts(stage))
    try:
        with stage.live.socket(quote(table, safe="")) as client:  # a spectator's hello first
            client.until("view" if table in {stage.people, stage.bots} else "error")
            client.send(text)
            reply = client.next(10)
            if reply["type"] == "error" and reply["code"] == "spectator":
                return
            check_reply(stage, text, reply)
    except InvalidStatus as refused:  # no such route: the handshake is refused, not failed
        assert refused.response.status_code < 500
    except ConnectionClosed as closed:  # an unknown table's socket is closed after its error
        assert closed.rcvd is None or closed.rcvd.code in {1000, 1008, 1009}, closed


def test_the_hostile_inputs_of_issue_31_are_among_those_sent(stage: Stage) -> None:
    """The four inputs the issue found, sent as such (whatever the fuzzer drew)."""
    live = stage.live
    for seat in ("%C2%B2", "%D9%A3", "%EF%BC%93", "00"):
        check_answer("POST", live.http.post(f"/tables/{stage.people}/seats/{seat}"))
    client = stage.client("seat")
    for text in (
        json.dumps({"type": "move", "seq": 2**64, "move": stage.sent[1]}),
        json.dumps({"type": "move", "seq": 1, "move": {**stage.sent[1], "slot": 99}}),
        json.dumps({"type": "move", "seq": 1, "move": stage.sent[1]}),
    ):
        client.send(text)
        check_reply(stage, text, client.next(10))
