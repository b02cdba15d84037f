"""A live ``gnoming serve`` for the server's tests: uvicorn on 127.0.0.1 (an ephemeral
port) in a thread of the test process, or in a subprocess that a test may kill; a client
over real WebSockets; and the storages the tests run against, SQLite and PostgreSQL.

PostgreSQL: ``GNOMING_POSTGRES_URL`` names a server (``.ci/run`` starts one with
``.ci/postgres.sh``); each test gets a schema of its own. Without the URL the PostgreSQL
cases skip, except when ``GNOMING_REQUIRE_POSTGRES=1`` (set by ``.ci/run``), where a
missing server fails the run.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("starlette", reason="the server extra: pip install -e '.[server]'")
pytest.importorskip("uvicorn", reason="the server extra: pip install -e '.[server]'")

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from gnoming_rules.server.app import Limits, create_app
from gnoming_rules.server.storage import Storage

POSTGRES_URL = os.environ.get("GNOMING_POSTGRES_URL")
POSTGRES_REQUIRED = os.environ.get("GNOMING_REQUIRE_POSTGRES") == "1"
NO_POSTGRES = (
    "no PostgreSQL: set GNOMING_POSTGRES_URL (export GNOMING_POSTGRES_URL=$(bash .ci/postgres.sh) "
    "starts one on loopback)"
)
STORAGES = ("sqlite", "postgres")


def storage_url(kind: str, folder: Path) -> str:
    """A fresh, empty storage of ``kind``: a SQLite file in ``folder``, or a PostgreSQL
    schema of its own (made here)."""
    if kind == "sqlite":
        return str(folder / "tables.sqlite")
    if POSTGRES_URL is None:
        if POSTGRES_REQUIRED:
            raise RuntimeError(f"GNOMING_REQUIRE_POSTGRES=1 but {NO_POSTGRES}")
        pytest.skip(NO_POSTGRES)
    import psycopg

    schema = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in POSTGRES_URL else "?"
    return f"{POSTGRES_URL}{joiner}options={quote(f'-csearch_path={schema}')}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Live:
    """A server at ``base`` (HTTP) and ``ws`` (WebSocket), and a client of it."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"
        self.http = httpx.Client(base_url=self.base, timeout=10)

    def create(self, **request: Any) -> dict[str, Any]:
        response = self.http.post("/tables", json=request)
        assert response.status_code == 201, response.text
        table: dict[str, Any] = response.json()
        return table

    def seat(self, table: str, seat: int) -> str:
        response = self.http.post(f"/tables/{table}/seats/{seat}")
        assert response.status_code == 201, response.text
        token: str = response.json()["token"]
        return token

    def summary(self, table: str) -> dict[str, Any]:
        data: dict[str, Any] = self.http.get(f"/tables/{table}").json()
        return data

    @contextmanager
    def socket(self, table: str, token: str | None = None, **hello: Any) -> Iterator[Client]:
        with connect(f"{self.ws}/tables/{table}/socket", open_timeout=10) as raw:
            client = Client(raw)
            client.send({"type": "hello", **({"token": token} if token else {}), **hello})
            yield client


class Client:
    """A socket that keeps every message it received (``received``)."""

    def __init__(self, raw: ClientConnection) -> None:
        self.raw = raw
        self.received: list[dict[str, Any]] = []

    def send(self, message: Any) -> None:
        self.raw.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def next(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.raw.recv(timeout=timeout))
        self.received.append(message)
        return message

    def until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next message of type ``kind`` (those before it are kept too)."""
        while True:
            message = self.next(timeout)
            if message["type"] == kind:
                return message

    def view_at(self, step: int, timeout: float = 10) -> dict[str, Any]:
        """The view of step ``step``: read until it arrives (or give the one read)."""
        views = [message for message in self.received if message["type"] == "view"]
        if views and views[-1]["step"] >= step:
            return views[-1]
        while True:
            message = self.next(timeout)
            if message["type"] == "view" and message["step"] >= step:
                return message

    def latest_view(self, timeout: float = 0.5) -> dict[str, Any]:
        """Read until nothing arrives for ``timeout`` seconds; the last view read."""
        try:
            while True:
                self.next(timeout)
        except TimeoutError:
            pass
        views = [message for message in self.received if message["type"] == "view"]
        return views[-1]


@contextmanager
def live_server(
    url: str | Storage,
    limits: Limits | None = None,
    bots: dict[str, list[str]] | None = None,
) -> Iterator[Live]:
    """The application in a thread of this process, until the block ends; ``bots``: the
    external bots registered (``gnoming serve --bot LABEL=COMMAND``)."""
    port = free_port()
    config = uvicorn.Config(
        create_app(url, limits=limits, bots=bots),
        host="127.0.0.1",
        port=port,
        ws="websockets-sansio",
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        log_level="info",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield Live(port)
    finally:
        server.should_exit = True
        thread.join(20)


@contextmanager
def server_process(url: str, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``gnoming serve`` in a process of its own (which a test may kill), until the block ends."""
    with log.open("ab") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "gnoming_rules", "serve", "--db", url, "--port", str(port)],
            stdout=sink,
            stderr=sink,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(20)
