"""Load on one ``gnoming serve`` process: many tables of bot clients over WebSockets.

Starts the server as a process of its own on 127.0.0.1 (an ephemeral port, no access
log), creates ``--tables`` tables of three seats, and plays every seat from this process
over a WebSocket of its own. A table whose game ends is replaced by a new one, so that
``--tables`` games are always in play. After ``--seconds`` (bounded: 120 at most) the
clients stop sending, and the moves in flight are waited for (10 s at most).

The clients are light, so that on a small machine the load generator leaves the CPU to
the server it measures: each socket is an :class:`asyncio.Protocol` driven by the
``websockets`` library's sans-I/O client (no task per message), and a client reads every
message it is sent but decodes the JSON (orjson's, when installed) only of those it acts
on: a view where its seat has moves open (it plays one of the view's ``legal`` moves, at
random), the end of the game, an acknowledgement, an error. A view where its seat has
nothing to do is only looked at (``"legal":[]`` and ``"over":false`` in its text).

``--rate`` paces the load: the tables make that many moves per second between them,
each table a move every ``tables / rate`` seconds (or later, when the server is slower).
Latency is then measured at a known load, as the targets ask (moves/s *and* p99 latency
at once). With ``--rate 0`` every client moves as soon as it may: the server's most
moves per second, with latency as long as a queue of ``--tables`` moves makes it.

``--bot-tables N`` adds the load that stalled every table before issue 31: N clients that
each create a table of eight greedy bots at golf-6 (``--bot-ruleset``), wait for its game
to end (the server plays it in the background) and create the next, so that tables of
bots are always being created and played while the people's tables are measured. The
report then gives the bots' games finished, their steps, the time a creation took to
answer, and the CPU time of the server's worker processes (the bots' pool).

Reports the moves acknowledged per second; the latency of a move (from its send to its
acknowledgement: stored, and the views of it on their way to every seat); the server's
resident memory per table (the growth of its RSS over the tables in play); and the CPU
time that the server and the clients used, as moves per CPU-second: on a shared machine,
what one core given to the server alone would do, roughly.

    python benchmarks/server.py [--tables 200] [--seconds 20] [--rate 2000] [--db PATH_OR_URL]
                                [--bot-tables 2]

The default database is a SQLite file in a temporary folder; give a ``postgresql://`` URL
(for instance ``$GNOMING_POSTGRES_URL``) to measure PostgreSQL. ``--profile FILE``
runs the server under cProfile and writes its statistics to FILE when it stops.
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
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

try:
    from orjson import loads
except ImportError:  # the server extra installs it
    from json import loads  # type: ignore[assignment]

MAX_SECONDS = 120.0
DRAIN_SECONDS = 10.0
SEATS = 3

PROFILED_SERVER = """
import cProfile, signal, sys
from gnoming_rules.cli import main
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # uvicorn re-raises it once stopped
out, sys.argv = sys.argv[1], ["gnoming", *sys.argv[2:]]
profile = cProfile.Profile()
profile.enable()
try:
    main()
finally:
    profile.disable()
    profile.dump_stats(out)
"""


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


def cpu_seconds(pid: int) -> tuple[float, float]:
    """The CPU time process ``pid`` has used, its threads included: user, system."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def children_cpu_seconds(pid: int) -> float:
    """The CPU time, user and system, of the processes whose parent is ``pid`` (the
    server's bots' pool), those alive now."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


class Load:
    """What the clients share: the counters, the clock, the pace, the server's address."""

    def __init__(self, base: str, http: httpx.AsyncClient, tables: int, rate: float) -> None:
        self.base = base
        self.http = http
        self.interval = tables / rate if rate > 0 else 0.0
        """Seconds between two moves of one table (0: no pacing)."""
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.games = 0
        self.sending = False
        self.stop_at = float("inf")
        self.last_ack = 0.0
        self.in_flight = 0
        self.rng = random.Random(2026)
        self.tasks: set[asyncio.Task[None]] = set()
        self.bot_created: list[float] = []
        """Seconds each table of bots took to be created (the answer to its POST)."""
        self.bot_games = 0
        self.bot_steps = 0

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


class Table:
    """One table's three clients and its pace (the time its next move may be sent)."""

    def __init__(self, load: Load) -> None:
        self.load = load
        self.seats: list[Seat] = []
        self.next_at = time.perf_counter() + load.rng.random() * load.interval
        self.over = False

    async def sit_down(self) -> None:
        """Create the table on the server and greet it from a client in each seat."""
        load = self.load
        created = await load.http.post("/tables", json={"seats": [{}] * SEATS})
        table_id = created.json()["table"]
        url = load.base.replace("http", "ws", 1) + f"/tables/{table_id}/socket"
        port = int(load.base.rsplit(":", 1)[1])
        for seat in range(SEATS):
            claimed = await load.http.post(f"/tables/{table_id}/seats/{seat}")
            client = Seat(self, url, claimed.json()["token"])
            loop = asyncio.get_running_loop()
            await loop.create_connection(client.itself, "127.0.0.1", port)
            await client.welcomed
            self.seats.append(client)

    def finished(self) -> None:
        """The game is over: leave, and sit down at a new table if the load goes on."""
        if self.over:
            return
        self.over = True
        self.load.games += 1
        for seat in self.seats:
            seat.leave()
        if self.load.sending:
            self.load.spawn(Table(self.load).sit_down())


class Seat(asyncio.Protocol):
    """One seat's client: a WebSocket handled by callbacks, its sequence number, the view
    it acts on."""

    def __init__(self, table: Table, url: str, token: str) -> None:
        self.table = table
        self.load = table.load
        self.token = token
        self.protocol = ClientProtocol(parse_uri(url), max_size=2**20)
        self.transport: asyncio.Transport | None = None
        self.welcomed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.seat = -1
        self.seq = 0
        self.latest: dict[str, Any] | None = None
        """The latest view in which this seat has something to do (moves open, or the end)."""
        self.pending = False
        """A move sent (or scheduled) and not yet acknowledged."""
        self.sent_at = 0.0

    # ----- the socket ----------------------------------------------------------------

    def itself(self) -> Seat:
        """The protocol factory of this client's one connection."""
        return self

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.protocol.send_request(self.protocol.connect())
        self.flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                if event.status_code != 101:
                    self.fail(f"handshake refused: {event.status_code}")
                    return
                self.send({"type": "hello", "token": self.token})
            elif isinstance(event, Frame):
                if event.opcode is Opcode.TEXT:
                    self.message(bytes(event.data))
                elif event.opcode is Opcode.CLOSE and not self.table.over:
                    self.fail("the server closed the connection")
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.table.over and self.load.sending:
            self.fail(f"connection lost: {exc}")

    def flush(self) -> None:
        assert self.transport is not None
        for chunk in self.protocol.data_to_send():
            if chunk:
                self.transport.write(chunk)

    def send(self, message: dict[str, Any]) -> None:
        self.protocol.send_text(json.dumps(message, separators=(",", ":")).encode())
        self.flush()

    def leave(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def fail(self, why: str) -> None:
        self.load.errors.append(why)
        if not self.welcomed.done():
            self.welcomed.set_exception(RuntimeError(why))

    # ----- the game ------------------------------------------------------------------

    def message(self, text: bytes) -> None:
        if text.startswith(b'{"type":"view"') and b'"legal":[]' in text and b'"over":false' in text:
            self.latest = None  # another seat's turn: nothing to decode, nothing to do
            return
        data = loads(text)
        kind = data["type"]
        if kind == "view":
            self.latest = data
        elif kind == "ack":
            now = time.perf_counter()
            self.load.latencies.append(now - self.sent_at)
            self.load.last_ack = now
            self.load.in_flight -= 1
            self.pending = False
        elif kind == "welcome":
            self.seat, self.seq = data["seat"], data["next_seq"] - 1
            self.welcomed.set_result(None)
            return
        elif kind == "error":
            self.fail(f"refused: {data}")
            return
        self.act()

    def act(self) -> None:
        latest = self.latest
        if latest is None or self.pending:
            return
        if latest["over"]:
            self.table.finished()
            return
        if not (latest["legal"] and self.load.sending):
            return
        self.latest = None
        self.pending = True
        move = self.load.rng.choice(latest["legal"])
        table, now = self.table, time.perf_counter()
        wait = table.next_at - now
        table.next_at = max(table.next_at, now) + self.load.interval
        if wait > 0:
            asyncio.get_running_loop().call_later(wait, self.move, move)
        else:
            self.move(move)

    def move(self, move: dict[str, Any]) -> None:
        if self.table.over or not self.load.sending:
            return  # the load has stopped while this move waited for its time
        self.seq += 1
        self.sent_at = time.perf_counter()
        self.load.in_flight += 1
        self.send({"type": "move", "seq": self.seq, "move": move})


async def bots(load: Load, ruleset: str) -> None:
    """Create a table of eight greedy bots, wait for its game to end, and again, while the
    load goes on."""
    request = {"ruleset": ruleset, "seats": [{"bot": "greedy"}] * 8}
    while load.sending:
        started = time.perf_counter()
        created = await load.http.post("/tables", json=request)
        load.bot_created.append(time.perf_counter() - started)
        if created.status_code != 201:
            load.errors.append(f"a table of bots was refused: {created.text[:200]}")
            return
        summary = created.json()
        while load.sending and not summary["over"]:
            await asyncio.sleep(0.2)
            summary = (await load.http.get(f"/tables/{summary['table']}")).json()
        if summary["over"]:
            load.bot_games += 1
            load.bot_steps += summary["steps"]


async def measure(
    base: str,
    tables: int,
    seconds: float,
    rate: float,
    pid: int,
    *,
    bot_tables: int = 0,
    bot_ruleset: str = "golf-6",
) -> dict[str, Any]:
    before = rss_kib(pid)
    started = time.monotonic()
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        load = Load(base, http, tables, rate)
        ready = asyncio.Semaphore(20)

        async def one() -> Table:
            async with ready:
                table = Table(load)
                await table.sit_down()
                return table

        all_tables = await asyncio.gather(*(one() for _ in range(tables)))
        setup = time.monotonic() - started
        seated = rss_kib(pid)
        cpu_before, client_before = cpu_seconds(pid), time.process_time()
        workers_before = children_cpu_seconds(pid)
        playing = time.perf_counter()
        load.stop_at = playing + seconds
        load.sending = True
        for _ in range(bot_tables):
            load.spawn(bots(load, bot_ruleset))
        for table in all_tables:
            table.next_at = playing + load.rng.random() * load.interval  # spread, not bursts
            for seat in table.seats:
                seat.act()
        await asyncio.sleep(min(seconds / 2, 10.0))
        during = rss_kib(pid)
        await asyncio.sleep(max(0.0, load.stop_at - time.perf_counter()))
        load.sending = False
        drain = time.perf_counter() + DRAIN_SECONDS
        while load.in_flight > 0 and time.perf_counter() < drain:
            await asyncio.sleep(0.05)
        elapsed = max(load.last_ack, load.stop_at) - playing
        (user, system), (user_before, system_before) = cpu_seconds(pid), cpu_before
        user, system = user - user_before, system - system_before
        cpu = user + system
        client_cpu = time.process_time() - client_before
        workers_cpu = children_cpu_seconds(pid) - workers_before
        for task in list(load.tasks):
            task.cancel()
        for table in all_tables:
            for seat in table.seats:
                seat.leave()
    if load.errors:
        raise RuntimeError(f"{len(load.errors)} errors, the first: {load.errors[0]}")
    latencies = sorted(load.latencies) or [float("nan")]
    moves = len(load.latencies)
    created = sorted(load.bot_created) or [float("nan")]
    bot_report = {
        "bot_tables": bot_tables,
        "bot_ruleset": bot_ruleset,
        "bot_tables_created": len(load.bot_created),
        "bot_games_finished": load.bot_games,
        "bot_steps": load.bot_steps,
        "bot_create_p50_ms": round(1000 * statistics.median(created), 2),
        "bot_create_max_ms": round(1000 * created[-1], 2),
        "bot_workers_cpu_seconds": round(workers_cpu, 1),
    }
    return {
        "tables": tables,
        "rate_asked": rate or None,
        "setup_seconds": round(setup, 1),
        "seconds": round(elapsed, 1),
        "moves": moves,
        "moves_per_second": round(moves / elapsed),
        "p50_ms": round(1000 * statistics.median(latencies), 2),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
        "max_ms": round(1000 * latencies[-1], 2),
        "unacknowledged": load.in_flight,
        "games_finished": load.games,
        "server_cpu_seconds": round(cpu, 1),
        "server_system_share": round(system / cpu, 2) if cpu else None,
        "moves_per_server_cpu_second": round(moves / cpu) if cpu else None,
        "client_cpu_seconds": round(client_cpu, 1),
        "moves_per_client_cpu_second": round(moves / client_cpu) if client_cpu else None,
        "rss_before_mib": round(before / 1024, 1),
        "rss_seated_mib": round(seated / 1024, 1),
        "rss_during_mib": round(during / 1024, 1),
        "kib_per_table": round((during - before) / tables, 1),
        **(bot_report if bot_tables else {}),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--rate", type=float, default=2000.0, help="moves/s asked of all tables (0: no pacing)"
    )
    parser.add_argument("--db", help="a SQLite path or a postgresql:// URL (default: a temp file)")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile into FILE")
    parser.add_argument(
        "--bot-tables",
        type=int,
        default=0,
        help="clients creating tables of eight greedy bots, one after another (default 0)",
    )
    parser.add_argument("--bot-ruleset", default="golf-6", help="the bots' tables' ruleset")
    args = parser.parse_args()
    seconds = min(args.seconds, MAX_SECONDS)
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or str(Path(folder) / "tables.sqlite")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        if args.profile:
            command = [sys.executable, "-c", PROFILED_SERVER, str(Path(args.profile).resolve())]
        else:
            command = [sys.executable, "-m", "gnoming_rules"]
        command += ["serve", "--no-access-log", "--db", db, "--port", str(port)]
        log = Path(folder) / "server.log"
        with log.open("wb") as sink:
            server = subprocess.Popen(command, stdout=sink, stderr=sink)
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
            result = asyncio.run(
                measure(
                    base,
                    args.tables,
                    seconds,
                    args.rate,
                    server.pid,
                    bot_tables=args.bot_tables,
                    bot_ruleset=args.bot_ruleset,
                )
            )
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
