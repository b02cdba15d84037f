"""The ASGI application of ``gnoming serve`` (Starlette): the HTTP routes and the sockets.

Routes (docs/server.md):

- ``POST /tables``: create a table (:mod:`~gnoming_rules.server.spec`); 201 with its id.
- ``GET /tables/{id}``: the table's summary (seats, progress, time-outs).
- ``POST /tables/{id}/seats/{seat}``: take a person's seat; 201 with the seat's token,
  given once and stored only as its hash. The token is the seat: keep it secret.
- ``GET /tables/{id}/record``: the public record until the game ends, the full one after.
- ``WS /tables/{id}/socket``: a connection (:mod:`~gnoming_rules.server.protocol`).
- ``GET /``: the page to play in a browser (:mod:`~gnoming_rules.server.page`).
- ``GET /rulesets``: the bundled rulesets' names.
- ``GET /bots``: the bots a seat may name: the built-in ones and the external bots the
  operator registered (``gnoming serve --bot LABEL=COMMAND``), by label only.

Every refusal is JSON, ``{"error": {"code": ..., "message": ..., "rule": ...}}`` with a 4xx
status over HTTP (an unknown route and a wrong method too) and an ``error`` message on a
socket, and changes nothing; whatever a client sends is read by
:mod:`~gnoming_rules.server.reading`. Tokens travel in request bodies and socket messages,
never in a URL, so that no access log holds one. Every HTTP answer carries the page's
security headers (:data:`~gnoming_rules.server.page.SECURITY_HEADERS`).

A table of bots only is played in the background (:meth:`Server.play_in_background`):
its creation answers at once, and its game goes on :data:`BACKGROUND_STEPS` steps at a
time, at most ``Limits.bot_workers - 1`` such tables at once (the pool's last worker is
kept for the bots of tables with people), each table's steps in order, and paced so that
taking their steps in takes at most :data:`BACKGROUND_SHARE` of the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import GnomingError, Refusal
from ..core.moves import Move
from ..formats.record import dump_record
from ..formats.rulesets import bundled_rulesets, load_ruleset
from ..play.external import TimeControl
from ..play.loop import MOVE_LIMIT
from .committer import Committer
from .page import PAGE, SECURITY_HEADERS
from .pool import BotPool
from .protocol import error_message, to_text, view_text, welcome_message
from .reading import Hello, MoveMessage, read_json, read_message, seat_number, table_id
from .spec import BUILTIN_BOTS, TableSpec, read_spec
from .storage import Storage, open_storage
from .table import Table

__all__ = ["BACKGROUND_SHARE", "BACKGROUND_STEPS", "Limits", "Server", "create_app"]

LOG: Final = logging.getLogger("gnoming.server")

MAX_BODY: Final = 256 * 1024
"""The largest HTTP request body, in bytes (an inline ruleset fits in a few KiB)."""

BACKGROUND_STEPS: Final = 128
"""The steps of a table of bots only played and stored at a time (about ten milliseconds
of a worker's time and a few of the event loop's; a spectator sees them as they are
stored)."""

BACKGROUND_SHARE: Final = 0.2
"""The most of the event loop's time that the tables of bots only take, together: after
each batch of steps, their slot waits until the time the loop spent taking them in is
this share of the time since the batch began."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one connection may send: a token bucket of ``burst`` messages refilled at
    ``rate`` per second; a client that keeps sending past it is disconnected after
    ``strikes`` refusals in a row. ``hello_seconds``: time allowed for the first message.
    ``bot_workers``: the processes that play the bots' moves (:mod:`~.pool`).
    ``bot_move_seconds``, ``bot_startup_seconds``: an external bot's time for each move,
    and more for its first (:class:`~gnoming_rules.play.external.TimeControl`)."""

    rate: float = 50.0
    burst: float = 100.0
    strikes: int = 20
    hello_seconds: float = 10.0
    queue: int = 10_000
    """Messages waiting for a slow client beyond which it is disconnected."""
    bot_workers: int = 2
    bot_move_seconds: float = 5.0
    bot_startup_seconds: float = 10.0


@dataclass(slots=True)
class _Bucket:
    limits: Limits
    tokens: float = 0.0
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.limits.burst, self.tokens + (now - self.at) * self.limits.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Server:
    """The tables of one server process, its storage and its clocks."""

    def __init__(
        self,
        storage: str | Path | Storage,
        limits: Limits | None = None,
        pool: BotPool | None = None,
        bots: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        self._where = storage
        self.external: dict[str, tuple[str, ...]] = {
            label: tuple(command) for label, command in (bots or {}).items()
        }
        """The external bots the operator registered: label -> command line. A client
        names a label, never a command."""
        self.storage: Storage = None  # type: ignore[assignment]  # opened by open()
        self.committer: Committer = None  # type: ignore[assignment]  # started by open()
        self._expiring: set[asyncio.Task[bool]] = set()
        self.limits = limits or Limits()
        self.pool = pool or BotPool.shared(self.limits.bot_workers)
        """The bots' processes: ``pool`` (closed with the server), or shared by the servers
        of this process."""
        self._own_pool = pool is not None
        self.tables: dict[str, Table] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._background: dict[str, asyncio.Task[None]] = {}
        self._slots = asyncio.Semaphore(max(1, self.pool.workers - 1))
        """Tables of bots only playing in the pool at once."""

    async def open(self) -> None:
        """Open the storage (in the server's own thread: SQLite connections stay in the
        thread that opened them), rebuild every stored table and resume their games."""
        where = self._where
        self.storage = open_storage(where) if isinstance(where, str | Path) else where
        self.committer = Committer(self.storage)
        for stored in self.storage.tables():
            spec = TableSpec(
                ruleset_ref=stored.spec["ruleset"],
                names=[seat["name"] for seat in stored.spec["seats"]],
                bots=[seat["bot"] for seat in stored.spec["seats"]],
                move_seconds=stored.spec["move_seconds"],
                default_bot=stored.spec["default_bot"],
                first_player=stored.spec["first_player"],
            )
            rules = load_ruleset(spec.ruleset_ref, files="none")
            table = self._table(stored.table_id, spec, rules)
            table.tokens = dict(stored.tokens)
            table.restore(stored.steps)
            await self._start(table)
            self._clock(table)

    def _table(self, table_id: str, spec: TableSpec, ruleset: Any) -> Table:
        table = Table(
            table_id,
            spec,
            ruleset,
            self.storage,
            self.committer.store,
            pool=self.pool,
            external=self.external,
            bot_time=TimeControl(self.limits.bot_move_seconds, self.limits.bot_startup_seconds),
        )
        self._watch(table)
        return table

    async def _start(self, table: Table) -> None:
        """Play the bots up to the first person's turn, or start playing a table of bots
        only in the background; the table is then served."""
        if table.bots_only:
            self.play_in_background(table)
        else:
            await table.start()
        self.tables[table.table_id] = table

    async def create(self, data: object) -> Table:
        spec, ruleset = read_spec(data, self.external)
        table = self._table(secrets.token_urlsafe(12), spec, ruleset)
        self.storage.create(table.table_id, spec.to_dict())
        await self._start(table)
        return table

    def table(self, text: str) -> Table:
        """The table whose id a URL names (:func:`~.reading.table_id`)."""
        found = self.tables.get(table_id(text))
        if found is None:
            raise Refusal("unknown-table", f"no table {text[:40]!r}")
        return found

    # ----- tables of bots only -----------------------------------------------------

    def play_in_background(self, table: Table) -> None:
        """Play ``table``'s game (bots only) to its end, in the background."""
        if table.state.is_over or table.table_id in self._background:
            return
        task = asyncio.create_task(self._play_bots(table))
        self._background[table.table_id] = task
        task.add_done_callback(lambda _task: self._background.pop(table.table_id, None))

    async def _play_bots(self, table: Table) -> None:
        """:data:`BACKGROUND_STEPS` steps at a time, in turn with the other tables of bots
        (a slot each); a step that cannot be stored is tried again later."""
        failures = 0
        loop = asyncio.get_running_loop()
        while table.steps <= MOVE_LIMIT:
            try:
                async with self._slots:
                    started, busy = loop.time(), table.busy
                    going = await table.play_some(BACKGROUND_STEPS)
                    pause = (table.busy - busy) / BACKGROUND_SHARE - (loop.time() - started)
                    if pause > 0:
                        await asyncio.sleep(pause)
            except Exception:  # storage down, a worker lost: nothing was taken in
                failures += 1
                LOG.exception("table %s: the bots' moves could not be played", table.table_id)
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))
                continue
            failures = 0
            if not going:
                return
        LOG.warning(
            "table %s: the bots did not end the game in %d moves", table.table_id, MOVE_LIMIT
        )

    # ----- time control ------------------------------------------------------------

    def _watch(self, table: Table) -> None:
        if table.spec.move_seconds is not None:
            table.listeners.add(lambda table, _move, _timed_out: self._clock(table))

    def _clock(self, table: Table) -> None:
        """Start the clock of the seat the table waits for, if it has a time control and
        a person in it (an empty seat's clock does not run)."""
        old = self._timers.pop(table.table_id, None)
        if old is not None:
            old.cancel()
        seat, seconds = table.waiting_for, table.spec.move_seconds
        if seconds is None or seat is None or seat not in table.tokens:
            return
        loop = asyncio.get_running_loop()
        self._timers[table.table_id] = loop.call_later(
            seconds, self._expire, table, seat, table.steps
        )

    def _expire(self, table: Table, seat: int, steps: int) -> None:
        self._timers.pop(table.table_id, None)
        task = asyncio.create_task(self._time_out(table, seat, steps))
        self._expiring.add(task)
        task.add_done_callback(self._expiring.discard)

    async def _time_out(self, table: Table, seat: int, steps: int) -> bool:
        try:
            return await table.time_out(seat, steps)
        except Exception:  # a storage failure: the move is not made, the clock restarts
            LOG.exception("table %s: the default bot's move could not be stored", table.table_id)
            self._clock(table)
            return False

    def claimed(self, table: Table) -> None:
        """A seat was taken: its clock may start."""
        if table.table_id not in self._timers:
            self._clock(table)

    def bot_names(self) -> list[str]:
        """The bots a seat may name here: the built-in ones, then the registered labels."""
        return [*BUILTIN_BOTS, *(label for label in self.external if label not in BUILTIN_BOTS)]

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        playing = list(self._background.values())
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        for table in self.tables.values():  # no external bot's program outlives the server
            with contextlib.suppress(Exception):
                await table.close_bots()
        if self._own_pool:
            self.pool.close()
        await self.committer.close()
        self.storage.close()


def _refused(refusal: Refusal, status: int = 400) -> JSONResponse:
    body = {"error": {"code": refusal.code, "message": refusal.message, "rule": refusal.rule}}
    return JSONResponse(body, status_code=status)


_STATUS: Final = {
    "unknown-table": 404,
    "no-route": 404,
    "bad-method": 405,
    "seat-taken": 409,
    "too-large": 413,
}


async def _json_body(request: Request) -> object:
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refusal("too-large", f"a request body holds at most {MAX_BODY} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    return read_json(raw)


async def _http_error(_request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no such route, a method the route does not take), as
    JSON like every other."""
    status = error.status_code if isinstance(error, HTTPException) else 400
    if status == 404:
        refusal = Refusal("no-route", "no such route (docs/server.md lists them)")
    elif status == 405:
        refusal = Refusal("bad-method", "this route does not take that method")
    else:
        refusal = Refusal("bad-request", f"refused ({status})")
    response = _refused(refusal, status if 400 <= status < 500 else 400)
    if isinstance(error, HTTPException) and error.headers:
        response.headers.update(error.headers)  # 405's Allow
    return response


class _SecurityHeaders:
    """Adds :data:`~gnoming_rules.server.page.SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in SECURITY_HEADERS.items()
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *self.headers]}
            await send(message)

        await self.app(scope, receive, sending)


def create_app(
    storage: str | Path | Storage,
    *,
    limits: Limits | None = None,
    pool: BotPool | None = None,
    bots: Mapping[str, Sequence[str]] | None = None,
) -> Starlette:
    """The application, its tables kept in ``storage`` (a SQLite path, a PostgreSQL URL,
    or a :class:`~gnoming_rules.server.storage.Storage`), its bots played in ``pool``
    (closed when the application stops; by default this process's shared pool of
    ``limits.bot_workers`` processes). ``bots``: the external bots the operator registers,
    label -> command line (argument list, run without a shell), which a seat may then name
    by label."""
    server = Server(storage, limits, pool, bots)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await server.open()
        try:
            yield
        finally:
            await server.close()

    def handled(handler: Any) -> Any:
        async def run(request: Request) -> Response:
            try:
                response: Response = await handler(request)
                return response
            except Refusal as refusal:
                return _refused(refusal, _STATUS.get(refusal.code, 400))
            except GnomingError as error:
                return _refused(Refusal(error.code, error.message))

        return run

    async def create_table(request: Request) -> Response:
        table = await server.create(await _json_body(request))
        return JSONResponse(table.summary(), status_code=201)

    async def show_table(request: Request) -> Response:
        return JSONResponse(server.table(request.path_params["table"]).summary())

    async def take_seat(request: Request) -> Response:
        table = server.table(request.path_params["table"])
        seat = seat_number(request.path_params["seat"])
        if await _json_body(request) != {}:  # its size bounded, its JSON checked
            raise Refusal("bad-request", "taking a seat takes no body (or {})")
        token = secrets.token_urlsafe(32)
        table.claim(seat, token)
        server.claimed(table)
        answer = {"table": table.table_id, "seat": seat, "token": token}
        return JSONResponse(answer, 201, headers={"Cache-Control": "no-store"})

    async def read_record(request: Request) -> Response:
        table = server.table(request.path_params["table"])
        record, full = table.record()
        return Response(
            dump_record(record, "json"),
            media_type="application/json",
            headers={"X-Gnoming-Information": "full" if full else "public"},
        )

    async def page(_request: Request) -> Response:
        return HTMLResponse(PAGE)

    async def rulesets(_request: Request) -> Response:
        return JSONResponse({"rulesets": bundled_rulesets()})

    async def bot_names(_request: Request) -> Response:
        return JSONResponse({"bots": server.bot_names()})

    async def socket(websocket: WebSocket) -> None:
        await _Connection(server, websocket).run()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/rulesets", rulesets),
            Route("/bots", bot_names),
            Route("/tables", handled(create_table), methods=["POST"]),
            Route("/tables/{table}", handled(show_table)),
            Route("/tables/{table}/seats/{seat}", handled(take_seat), methods=["POST"]),
            Route("/tables/{table}/record", handled(read_record)),
            WebSocketRoute("/tables/{table}/socket", socket),
        ],
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error},
    )
    app.add_middleware(_SecurityHeaders)
    return app


class _Connection:
    """One socket: a seat's or a spectator's. Messages to it go through a queue, in the
    order the table made them, written by one task (a deque and a future to wake it: half
    the cost of an :class:`asyncio.Queue`, which counts, at four messages a move)."""

    def __init__(self, server: Server, websocket: WebSocket) -> None:
        self.server = server
        self.websocket = websocket
        self.queue: deque[str | None] = deque()
        """The messages' text, ``None`` to close."""
        self._wake: asyncio.Future[None] | None = None
        """Set while the writer waits for a message."""
        self.bucket = _Bucket(server.limits, tokens=server.limits.burst)
        self.seat: int | None = None
        self.svg = False
        self.table: Table | None = None
        self.strikes = 0
        """Messages refused as a flood in a row."""

    def send(self, message: dict[str, Any] | str | None) -> None:
        """Queue ``message`` (its text, or ``None`` to close) for the writer."""
        if len(self.queue) > self.server.limits.queue:
            message = None  # a client that does not read: let it go
        self.queue.append(to_text(message) if isinstance(message, dict) else message)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def _listen(self, table: Table, move: Move, timed_out: bool) -> None:
        self.send(view_text(table, self.seat, move, timed_out, svg=self.svg))

    async def _write(self) -> None:
        try:
            while True:
                if not self.queue:
                    self._wake = asyncio.get_running_loop().create_future()
                    await self._wake
                    continue
                message = self.queue.popleft()
                if message is None:
                    await self.websocket.close(code=1008)
                    return
                await self.websocket.send_text(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return  # the client has gone: the reader sees it too

    async def run(self) -> None:
        await self.websocket.accept()
        writer = asyncio.create_task(self._write())
        try:
            if await self._hello():
                await self._serve()
        except WebSocketDisconnect:
            pass
        finally:
            if self.table is not None:
                self.table.listeners.discard(self._listen)
            if not writer.done():
                self.send(None)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, 2.0)
                writer.cancel()

    async def _receive(self) -> Hello | MoveMessage | None:
        """The next message, read; ``None`` once the client has gone."""
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return None
            try:
                if not self.bucket.take():
                    raise Refusal("flood", "too many messages: slow down (the message was dropped)")
                self.strikes = 0
                return read_message(message.get("text"))
            except Refusal as refusal:
                self.send(error_message(refusal))
                if refusal.code == "flood":
                    self.strikes += 1
                    if self.strikes >= self.server.limits.strikes:
                        raise WebSocketDisconnect(1008) from None

    async def _hello(self) -> bool:
        try:
            message = await asyncio.wait_for(self._receive(), self.server.limits.hello_seconds)
        except TimeoutError:
            self.send(error_message(Refusal("bad-hello", "no hello in time")))
            return False
        if message is None:
            return False
        try:
            table = self.server.table(self.websocket.path_params["table"])
        except Refusal as refusal:
            self.send(error_message(refusal))
            return False
        if not isinstance(message, Hello):
            self.send(error_message(Refusal("bad-hello", "the first message is a hello")))
            return False
        if message.token is not None:
            seat = table.seat_of(message.token)
            if seat is None:
                self.send(
                    error_message(Refusal("bad-token", "no seat of this table has that token"))
                )
                return False
            self.seat = seat
        self.svg = message.svg
        self.table = table
        self.send(welcome_message(table, self.seat))
        self.send(view_text(table, self.seat, svg=self.svg))
        table.listeners.add(self._listen)
        return True

    async def _serve(self) -> None:
        table = self.table
        assert table is not None
        while (message := await self._receive()) is not None:
            seq = message.seq if isinstance(message, MoveMessage) else None
            try:
                if not isinstance(message, MoveMessage):
                    raise Refusal("bad-message", "hello once: after it, send moves")
                if self.seat is None:
                    raise Refusal("spectator", "a spectator makes no moves")
                applied = await table.submit(self.seat, message.seq, message.move)
            except Refusal as refusal:
                self.send(error_message(refusal, seq))
                continue
            except Exception:  # storage down: nothing was applied
                LOG.exception("table %s: a move could not be stored", table.table_id)
                self.send(
                    error_message(
                        Refusal("not-stored", "the move could not be stored: send it again"), seq
                    )
                )
                continue
            self.send({"type": "ack", "seq": seq, "step": table.steps, "duplicate": not applied})
