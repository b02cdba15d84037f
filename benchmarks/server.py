"""Load on one ``gnoming serve`` process: many tables of bot clients over WebSockets.

Starts the server as a process of its own on 127.0.0.1 (an ephemeral port, no access
log), creates ``--tables`` tables of three seats, and plays every seat from this process
over a WebSocket of its own: each client picks a random move among the view's ``legal``
and sends it with its sequence number. A table whose game ends is replaced by a new one,
so that ``--tables`` games are always in play. After ``--seconds`` (bounded: 120 at
most) every client stops. Reports the moves acknowledged per second, the latency of a
move (sent to acknowledged: stored, and the views of it queued to every seat), and the
server's resident memory per table (the growth of its RSS over the tables in play), and
the moves per second of CPU time the server used: on a shared machine, what one core
given to the server alone would do, roughly.

    python benchmarks/server.py [--tables 200] [--seconds 20] [--db PATH_OR_URL]

The default database is a SQLite file in a temporary folder; give a ``postgresql://`` URL
(for instance ``$GNOMING_POSTGRES_URL``) to measure PostgreSQL. The clients share the
machine with the server: on 2 cores, what they cost is taken from the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

MAX_SECONDS = 120.0
SEATS = 3


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid``, in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (user and system, its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Load:
    """The clients' shared counters."""

    def __init__(self, seconds: float) -> None:
        self.latencies: list[float] = []
        self.games = 0
        self.stop_at = time.monotonic() + seconds
        self.rng = random.Random(2026)


class Seat:
    """One seat's client: its socket, its sequence number, the latest view it got."""

    def __init__(self, websocket: Any) -> None:
        self.websocket = websocket
        self.seat = -1
        self.seq = 0
        self.latest: dict[str, Any] | None = None
        self.pending = False
        self.sent_at = 0.0

    async def hello(self, token: str) -> None:
        await self.websocket.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(await self.websocket.recv())
        self.seat, self.seq = welcome["seat"], welcome["next_seq"] - 1

    async def play(self, load: Load) -> bool:
        """Play until the game ends (True) or time is up (False)."""
        while time.monotonic() < load.stop_at:
            try:
                text = await asyncio.wait_for(
                    self.websocket.recv(), max(0.0, load.stop_at - time.monotonic())
                )
            except TimeoutError:
                return False
            message = json.loads(text)
            kind = message["type"]
            if kind == "ack":
                load.latencies.append(time.perf_counter() - self.sent_at)
                self.pending = False
            elif kind == "view":
                self.latest = message
            elif kind == "error":
                raise RuntimeError(f"refused: {message}")
            latest = self.latest
            if latest is None or self.pending:
                continue
            if latest["over"]:
                return True
            if latest["legal"] and latest["observation"]["actor"] == self.seat:
                self.seq += 1
                move = load.rng.choice(latest["legal"])
                self.sent_at = time.perf_counter()
                await self.websocket.send(
                    json.dumps({"type": "move", "seq": self.seq, "move": move})
                )
                self.pending = True
                self.latest = None
        return False


async def sit_down(http: httpx.AsyncClient, base: str) -> list[Seat]:
    """A new table with a client in each seat, greeted."""
    table = (await http.post("/tables", json={"seats": [{}] * SEATS})).json()["table"]
    seats = []
    for seat in range(SEATS):
        token = (await http.post(f"/tables/{table}/seats/{seat}")).json()["token"]
        websocket = await connect(base.replace("http", "ws", 1) + f"/tables/{table}/socket")
        client = Seat(websocket)
        await client.hello(token)
        seats.append(client)
    return seats


async def run_table(http: httpx.AsyncClient, base: str, seats: list[Seat], load: Load) -> None:
    """Play the table's game, then new ones in its place, until time is up."""
    while True:
        done = await asyncio.gather(*(seat.play(load) for seat in seats))
        for seat in seats:
            await seat.websocket.close()
        if not all(done):
            return
        load.games += 1
        seats = await sit_down(http, base)


async def measure(base: str, tables: int, seconds: float, pid: int) -> dict[str, Any]:
    before = rss_kib(pid)
    started = time.monotonic()
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        ready = asyncio.Semaphore(20)

        async def one() -> list[Seat]:
            async with ready:
                return await sit_down(http, base)

        all_seats = await asyncio.gather(*(one() for _ in range(tables)))
        setup = time.monotonic() - started
        seated = rss_kib(pid)
        load = Load(seconds)
        playing = time.monotonic()
        cpu_before = cpu_seconds(pid)
        slots = [asyncio.create_task(run_table(http, base, seats, load)) for seats in all_seats]
        await asyncio.sleep(min(seconds / 2, 10.0))
        during = rss_kib(pid)
        await asyncio.gather(*slots)
        elapsed = time.monotonic() - playing
        cpu = cpu_seconds(pid) - cpu_before
    latencies = sorted(load.latencies) or [float("nan")]
    return {
        "tables": tables,
        "setup_seconds": round(setup, 1),
        "seconds": round(elapsed, 1),
        "moves": len(load.latencies),
        "moves_per_second": round(len(load.latencies) / elapsed),
        "p50_ms": round(1000 * statistics.median(latencies), 2),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
        "games_finished": load.games,
        "server_cpu_seconds": round(cpu, 1),
        "moves_per_server_cpu_second": round(len(load.latencies) / cpu) if cpu else None,
        "rss_before_mib": round(before / 1024, 1),
        "rss_seated_mib": round(seated / 1024, 1),
        "rss_during_mib": round(during / 1024, 1),
        "kib_per_table": round((during - before) / tables, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", help="a SQLite path or a postgresql:// URL (default: a temp file)")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile into FILE")
    args = parser.parse_args()
    seconds = min(args.seconds, MAX_SECONDS)
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or str(Path(folder) / "tables.sqlite")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
        command = [sys.executable, *profile, "-m", "gnoming_rules", "serve", "--no-access-log"]
        log = Path(folder) / "server.log"
        with log.open("wb") as sink:
            server = subprocess.Popen(
                [*command, "--db", db, "--port", str(port)], stdout=sink, stderr=sink
            )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(base + "/rulesets", timeout=1)
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise RuntimeError("the server did not start") from None
                    time.sleep(0.1)
            result = asyncio.run(measure(base, args.tables, seconds, server.pid))
        except BaseException:
            print(log.read_text()[-3000:], file=sys.stderr)  # what the server said, if anything
            raise
        finally:
            server.terminate()
            server.wait(30)
    result["storage"] = "postgresql" if db.startswith("postgres") else "sqlite"
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
