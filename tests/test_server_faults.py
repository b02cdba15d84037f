"""``gnoming serve`` killed with SIGKILL in the middle of games: restarted, it has lost no
acknowledged move, and every game goes on to a record that ``gnoming validate`` accepts.

The server runs as a real process (``python -m gnoming_rules serve``) on 127.0.0.1,
against SQLite and PostgreSQL (see ``server_kit``).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from server_kit import STORAGES, Client, Live, free_port, server_process, storage_url

from gnoming_rules.formats.record import Record, parse_record
from gnoming_rules.referee.validate import validate_record


def acknowledged(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` until the server acknowledges it. A client may send about 50
    messages a second (docs/server.md, the security model): a move refused as a ``flood``
    was dropped, so it is sent again after a pause, as a client should; any other refusal
    fails the test."""
    client.send(message)
    while True:
        reply = client.next(10)
        if reply["type"] == "ack":
            return reply
        if reply["type"] == "error":
            assert reply["code"] == "flood", reply
            time.sleep(0.05)
            client.send(message)


def play(
    live: Live, table: str, token: str, first_seq: int, *, moves: int, rng: random.Random
) -> int:
    """Make ``moves`` acknowledged moves for seat 0 (fewer if the game ends); the last
    sequence number acknowledged."""
    seq = first_seq - 1
    with live.socket(table, token) as client:
        client.until("welcome")
        step = live.summary(table)["steps"]
        for _ in range(moves):
            view = client.view_at(step)
            if view["over"]:
                break
            seq += 1
            move = rng.choice(view["legal"])
            ack = acknowledged(client, {"type": "move", "seq": seq, "move": move})
            assert ack["seq"] == seq
            step = ack["step"]
    return seq


@pytest.mark.parametrize("kind", STORAGES)
def test_sigkill_loses_no_acknowledged_move(kind: str, tmp_path: Path) -> None:
    url = storage_url(kind, tmp_path)
    port = free_port()
    live = Live(port)
    rng = random.Random(5)
    log = tmp_path / "server.log"
    with server_process(url, port, log) as server:
        tables = []
        for _ in range(3):
            table = live.create(seats=[{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}])
            tables.append((table["table"], live.seat(table["table"], 0)))
        acked = {table: play(live, table, token, 1, moves=12, rng=rng) for table, token in tables}
        steps = {table: live.summary(table)["steps"] for table, _ in tables}
        server.send_signal(signal.SIGKILL)
        server.wait(10)
    with server_process(url, port, log):
        for table, token in tables:
            summary = live.summary(table)
            assert summary["steps"] == steps[table]  # nothing acknowledged was lost
            with live.socket(table, token) as client:
                assert client.until("welcome")["next_seq"] == acked[table] + 1
            last = play(live, table, token, acked[table] + 1, moves=10_000, rng=rng)
            assert last > acked[table]
            record = parse_record(live.http.get(f"/tables/{table}/record").content)
            assert isinstance(record, Record)
            verdict = validate_record(record)
            assert verdict.valid and verdict.complete, verdict
            path = tmp_path / f"{table}.json"
            path.write_bytes(live.http.get(f"/tables/{table}/record").content)
            done = subprocess.run(
                [sys.executable, "-m", "gnoming_rules", "validate", str(path)],
                capture_output=True,
                text=True,
                check=False,
            )
            assert done.returncode == 0 and "valid, complete" in done.stdout, done.stdout
    assert "Traceback" not in log.read_text()


def test_import_gnoming_rules_imports_no_server() -> None:
    code = (
        "import sys, gnoming_rules, gnoming_rules.play, gnoming_rules.referee\n"
        "bad = {'starlette', 'uvicorn', 'websockets', 'psycopg', 'gnoming_rules.server'}\n"
        "assert not bad & set(sys.modules), bad & set(sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
