"""Where tables and their moves are kept: SQLite (a file, the default) or PostgreSQL.

A table is stored as its specification (the ruleset, the seats, the time control) and
the list of its steps, in order: every deal, reshuffle and move, as JSON. The state is
never stored: it is the replay of the steps (the engine is pure, and every random event
is a step), so what is stored is what happened, and a restarted server rebuilds each
table exactly. A seat's token is kept only as its SHA-256: the database alone lets
nobody take a seat.

A step is written and committed before the server acknowledges the move or shows it to
anyone (:meth:`Storage.append_many`, which the
:class:`~gnoming_rules.server.committer.Committer` calls with the steps of many tables).
The key ``(table_id, number)`` makes a step's number unique, so a step cannot be stored
twice. SQLite runs in WAL mode with
``synchronous=NORMAL``: a commit survives the server process being killed (SIGKILL),
though not the machine losing power; PostgreSQL keeps its own settings.

SQLite's commits are cheap (a write to the log, no flush), so the server makes them on its
event loop; what is slow is the checkpoint, which copies the log into the database file
and flushes both. So SQLite never checkpoints by itself inside a commit
(``wal_autocheckpoint=0``): the committer calls :meth:`Storage.checkpoint` in a worker
thread every :attr:`Storage.checkpoint_every` commits, and meanwhile makes its commits
from a thread too (they wait for the checkpoint; the event loop does not).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

__all__ = ["PostgresStorage", "SqliteStorage", "Step", "Storage", "StoredTable", "open_storage"]


@dataclass(frozen=True, slots=True)
class Step:
    """One stored step of a table: a deal, a reshuffle or a player's move."""

    data: dict[str, Any]
    """The step as JSON data: its entry in the core's one notation of a game's steps
    (:func:`~gnoming_rules.core.entries.step_to_entry`: a deal as ``{"action": "deal",
    "cards": [...]}``, any other move as its record entry without a card claim)."""
    seat: int | None = None
    """The seat whose move it is; ``None`` for a deal or a reshuffle."""
    sequence: int | None = None
    """The client's sequence number of the move; ``None`` for a move the server made."""
    timed_out: bool = False
    """Made by the seat's default bot because the seat's time ran out."""
    text: str | None = field(default=None, compare=False)
    """``data`` as compact JSON text, when it was written already (the bots' pool writes
    its steps' text, so that the event loop does not)."""


@dataclass(slots=True)
class StoredTable:
    """A table as stored: its id, its specification, its seats' token hashes, its steps."""

    table_id: str
    spec: dict[str, Any]
    tokens: dict[int, str] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)


class Storage(Protocol):
    """What the server needs of a database. Each method commits before it returns."""

    commits_inline: bool
    """True when a commit is cheap enough to run on the event loop (SQLite in WAL mode:
    a write to the log, no flush); False to run it in a worker thread (a network round
    trip and a flush: PostgreSQL)."""

    checkpoint_every: int | None
    """Commits between two calls of :meth:`checkpoint`; ``None``: never call it."""

    def create(self, table_id: str, spec: dict[str, Any]) -> None:
        """Store a new table (its steps come later)."""
        ...

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give ``seat`` the token whose hash is ``token_hash``; False if it has one."""
        ...

    def append_many(self, batches: Sequence[tuple[str, int, Sequence[Step]]]) -> None:
        """Store each ``(table_id, first, steps)``: ``steps`` as steps ``first``,
        ``first + 1``, ... of that table, all in one transaction; raises (storing none)
        if one of those numbers is stored already. May be called from another thread."""
        ...

    def tables(self) -> Iterator[StoredTable]:
        """Every stored table, its steps in order."""
        ...

    def checkpoint(self) -> None:
        """Housekeeping that may take a while (SQLite: copy the log into the database).
        Called from a worker thread."""
        ...

    def close(self) -> None:
        """Close the connection."""
        ...


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS gnoming_tables ( table_id TEXT PRIMARY KEY, spec TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS gnoming_seats ("
    " table_id TEXT NOT NULL REFERENCES gnoming_tables(table_id),"
    " seat INTEGER NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat))",
    "CREATE TABLE IF NOT EXISTS gnoming_steps ("
    " table_id TEXT NOT NULL REFERENCES gnoming_tables(table_id),"
    " number INTEGER NOT NULL, step TEXT NOT NULL, seat INTEGER, sequence INTEGER,"
    " timed_out BOOLEAN NOT NULL, PRIMARY KEY (table_id, number))",
)


def _step_row(table_id: str, number: int, step: Step) -> tuple[Any, ...]:
    return (
        table_id,
        number,
        step.text if step.text is not None else json.dumps(step.data, separators=(",", ":")),
        step.seat,
        step.sequence,
        step.timed_out,
    )


def _rows(batches: Sequence[tuple[str, int, Sequence[Step]]]) -> list[tuple[Any, ...]]:
    return [
        _step_row(table_id, first + index, step)
        for table_id, first, steps in batches
        for index, step in enumerate(steps)
    ]


def _collect(
    specs: Iterator[tuple[Any, ...]],
    seats: Iterator[tuple[Any, ...]],
    steps: Iterator[tuple[Any, ...]],
) -> Iterator[StoredTable]:
    tables = {table_id: StoredTable(table_id, json.loads(spec)) for table_id, spec in specs}
    for table_id, seat, token_hash in seats:
        tables[table_id].tokens[int(seat)] = token_hash
    for table_id, _number, data, seat, sequence, timed_out in steps:
        tables[table_id].steps.append(Step(json.loads(data), seat, sequence, bool(timed_out)))
    return iter(tables.values())


class SqliteStorage:
    """Tables in a SQLite file (the default: nothing to start)."""

    commits_inline = True
    checkpoint_every: int | None = 200
    """(A few hundred KiB to a few MiB of log between checkpoints.)"""

    def __init__(self, path: str | Path) -> None:
        self.lock = threading.Lock()
        self.connection = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=NORMAL")
        self.connection.execute("PRAGMA wal_autocheckpoint=0")  # see checkpoint()
        for statement in _SCHEMA:
            self.connection.execute(statement)

    def checkpoint(self) -> None:
        """Copy the log into the database file (and flush both), so that the log starts
        over: the storage's connection is held meanwhile, so the checkpoint copies
        everything."""
        with self.lock:
            self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def create(self, table_id: str, spec: dict[str, Any]) -> None:
        with self.lock, self.connection:
            self.connection.execute("BEGIN")
            self.connection.execute(
                "INSERT INTO gnoming_tables VALUES (?, ?)", (table_id, json.dumps(spec))
            )

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        try:
            with self.lock, self.connection:
                self.connection.execute("BEGIN")
                self.connection.execute(
                    "INSERT INTO gnoming_seats VALUES (?, ?, ?)", (table_id, seat, token_hash)
                )
        except sqlite3.IntegrityError:
            return False
        return True

    def append_many(self, batches: Sequence[tuple[str, int, Sequence[Step]]]) -> None:
        with self.lock, self.connection:
            self.connection.execute("BEGIN")
            self.connection.executemany(
                "INSERT INTO gnoming_steps VALUES (?, ?, ?, ?, ?, ?)", _rows(batches)
            )

    def tables(self) -> Iterator[StoredTable]:
        run = self.connection.execute
        return _collect(
            run("SELECT table_id, spec FROM gnoming_tables"),
            run("SELECT table_id, seat, token_hash FROM gnoming_seats"),
            run("SELECT * FROM gnoming_steps ORDER BY table_id, number"),
        )

    def close(self) -> None:
        self.connection.close()


class PostgresStorage:
    """Tables in PostgreSQL, through psycopg 3 (the ``server`` extra)."""

    commits_inline = False
    checkpoint_every: int | None = None

    def __init__(self, url: str) -> None:
        import psycopg

        self.lock = threading.Lock()
        self.connection = psycopg.connect(url, autocommit=True)
        for statement in _SCHEMA:
            self.connection.execute(statement)

    def create(self, table_id: str, spec: dict[str, Any]) -> None:
        with self.lock:
            self.connection.execute(
                "INSERT INTO gnoming_tables VALUES (%s, %s)", (table_id, json.dumps(spec))
            )

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        import psycopg

        try:
            with self.lock:
                self.connection.execute(
                    "INSERT INTO gnoming_seats VALUES (%s, %s, %s)", (table_id, seat, token_hash)
                )
        except psycopg.errors.UniqueViolation:
            return False
        return True

    def append_many(self, batches: Sequence[tuple[str, int, Sequence[Step]]]) -> None:
        with self.lock, self.connection.transaction(), self.connection.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO gnoming_steps VALUES (%s, %s, %s, %s, %s, %s)", _rows(batches)
            )

    def tables(self) -> Iterator[StoredTable]:
        run = self.connection.execute
        return _collect(
            iter(run("SELECT table_id, spec FROM gnoming_tables").fetchall()),
            iter(run("SELECT table_id, seat, token_hash FROM gnoming_seats").fetchall()),
            iter(run("SELECT * FROM gnoming_steps ORDER BY table_id, number").fetchall()),
        )

    def checkpoint(self) -> None:
        """Nothing: PostgreSQL keeps its own house."""

    def close(self) -> None:
        self.connection.close()


def open_storage(where: str | Path) -> Storage:
    """A ``postgresql://`` (or ``postgres://``) URL opens PostgreSQL; anything else is a
    SQLite file's path."""
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(text)
    return SqliteStorage(text)
