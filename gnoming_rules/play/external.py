"""External bots: any program that plays a seat over JSON lines (the bot protocol).

The referee starts the program (:func:`launch_bot`) in a process group of its own, says
hello (the protocol's version, the rules by name and SHA-256 with their data, the seat,
the time control), then at each of the seat's decisions sends the seat's observation
(:func:`~gnoming_rules.play.observation_json.observation_to_dict`), its legal moves as
record entries (:func:`~gnoming_rules.core.entries.move_to_entry`) and the time it has;
the program answers one line, one of those moves. docs/bot-protocol.md is the protocol,
and ``schemas/bot-*.schema.json`` give each message's form.

Everything the program does is bounded: an answer must come within the move's time, a
line may hold at most :data:`MAX_LINE` bytes, and the whole group is killed when the game
ends or the bot fails. A bot that exits, stays silent, writes a line that is not a move
entry or picks a move the rules refuse raises
:class:`~gnoming_rules.core.errors.BotFailure`: its game ends there as its forfeit. The
referee never waits longer than the time given, and never reads more than a line's bound.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NoReturn

from ..core.engine import legal_moves
from ..core.entries import move_from_entry, move_to_entry
from ..core.errors import BotFailure, GnomingError, UsageError
from ..core.moves import PlayerMove, Reshuffle
from ..core.ruleset import Ruleset
from .observation import Observation
from .observation_json import observation_to_dict

__all__ = [
    "MAX_LINE",
    "PROTOCOL",
    "ExternalBot",
    "TimeControl",
    "bot_command",
    "end_message",
    "hello_message",
    "launch_bot",
    "protocol_schemas",
]

PROTOCOL: Final = "gnoming-bot/1"
"""The protocol's version, in the hello; a change a bot would notice gets a new one."""

MAX_LINE: Final = 65_536
"""The longest line (bytes, newline included) a bot may write: a move entry is about 80."""

_CHUNK: Final = 4096


@dataclass(frozen=True)
class TimeControl:
    """The time a bot has: ``move`` seconds for each decision, and ``startup`` seconds
    more for its first one (a program's start: an interpreter, its imports)."""

    move: float = 5.0
    startup: float = 10.0

    def to_dict(self) -> dict[str, int]:
        """The hello's ``time`` field, in milliseconds."""
        return {"move_ms": round(self.move * 1000), "startup_ms": round(self.startup * 1000)}


def hello_message(
    ruleset: Ruleset,
    *,
    seat: int,
    names: Sequence[str],
    seed: int,
    time_control: TimeControl,
) -> dict[str, Any]:
    """The referee's first message: the protocol, the rules (their name, their identity
    ``sha256`` and their data), the table, the bot's seat, a seed for its own use, and
    its time."""
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "ruleset": {"name": ruleset.name, "sha256": ruleset.sha256, "rules": ruleset.data()},
        "players": len(names),
        "names": list(names),
        "seat": seat,
        "seed": seed,
        "time": time_control.to_dict(),
    }


def end_message(
    totals: Sequence[int] | None, winners: Sequence[int], forfeit: int | None
) -> dict[str, Any]:
    """The referee's last message: the totals and winners of a finished game, or the seat
    whose forfeit ended it (``totals`` then ``null``)."""
    return {
        "type": "end",
        "totals": None if totals is None else list(totals),
        "winners": list(winners),
        "forfeit": forfeit,
    }


def bot_command(text: str) -> list[str]:
    """The argument list of an external bot's command line (split as a POSIX shell
    splits words, with no shell run); ``bad-bot`` when it is empty or unbalanced."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise UsageError("bad-bot", f"{text!r}: {error}") from None
    if not words:
        raise UsageError("bad-bot", "an external bot's command is empty")
    return words


class ExternalBot:
    """One seat played by a program over the bot protocol (a :class:`~.loop.Bot`).

    Made by :func:`launch_bot`; :meth:`close` (or leaving the ``with`` block) ends the
    program and every process it started."""

    def __init__(
        self, process: subprocess.Popen[bytes], seat: int, time_control: TimeControl
    ) -> None:
        self.process = process
        self.seat = seat
        self.time_control = time_control
        self.decisions = 0
        self.thinking = 0.0
        """Seconds the bot took over its decisions so far."""
        self._buffer = b""
        assert process.stdin is not None and process.stdout is not None
        self._in = process.stdin.fileno()
        self._out = process.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def send(self, message: Mapping[str, Any], deadline: float) -> None:
        """Write ``message`` as one line before ``deadline`` (``time.monotonic``)."""
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail("bot-timeout", "did not read its input in time")
            _, ready, _ = select.select([], [self._in], [], left)
            if not ready:
                continue
            try:
                written = os.write(self._in, data)
            except BlockingIOError:
                continue
            except OSError:  # BrokenPipeError: the program is gone
                self._fail("bot-crashed", self._ended("closed its input"))
            data = data[written:]

    def receive(self, deadline: float) -> object:
        """The next line the bot writes, as JSON, before ``deadline``."""
        while b"\n" not in self._buffer:
            if len(self._buffer) >= MAX_LINE:
                self._fail("bot-bad-reply", f"a line longer than {MAX_LINE:,} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail("bot-timeout", "no answer in its time")
            ready, _, _ = select.select([self._out], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self._out, _CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                self._fail("bot-crashed", self._ended("closed its output"))
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) >= MAX_LINE:
            self._fail("bot-bad-reply", f"a line longer than {MAX_LINE:,} bytes")
        try:
            return json.loads(line)
        except (ValueError, RecursionError):
            self._fail("bot-bad-reply", f"not JSON: {_excerpt(line)}")

    def choose(self, ruleset: Ruleset, observation: Observation) -> PlayerMove:
        """Ask the program for its move; :class:`BotFailure` when it breaks the protocol."""
        legal = legal_moves(ruleset, observation)
        limit = self.time_control.move + (0 if self.decisions else self.time_control.startup)
        started = time.monotonic()
        deadline = started + limit
        self.send(
            {
                "type": "decide",
                "observation": observation_to_dict(observation),
                "legal": [move_to_entry(move) for move in legal],
                "time_ms": round(limit * 1000),
            },
            deadline,
        )
        answer = self.receive(deadline)
        self.decisions += 1
        self.thinking += time.monotonic() - started
        if not isinstance(answer, dict) or not all(isinstance(key, str) for key in answer):
            self._fail("bot-bad-reply", f"not a move entry (a JSON object): {_excerpt(answer)}")
        try:
            move = move_from_entry(answer, len(observation.layouts), piles=ruleset.discard.piles)
        except GnomingError as error:
            self._fail("bot-bad-reply", f"not a move entry: {error.message}")
        if move not in legal:
            self._fail("bot-illegal-move", f"{_excerpt(answer)} is not one of the legal moves")
        assert not isinstance(move, Reshuffle)  # a legal move is a player's
        return move

    def end(self, message: Mapping[str, Any]) -> None:
        """Tell the bot how the game ended (no answer awaited), then end it."""
        with contextlib.suppress(BotFailure):
            self.send(message, time.monotonic() + 0.5)
        self.close()

    def close(self) -> None:
        """Kill the program's process group and reap it (it may have ended already)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)

    def _ended(self, what: str) -> str:
        status = self.process.poll()
        if status is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = self.process.wait(timeout=0.2)
        return what if status is None else f"{what} (exit status {status})"

    def _fail(self, code: Any, message: str) -> NoReturn:
        raise BotFailure(code, f"seat {self.seat}: {message}", self.seat)


def launch_bot(
    command: Sequence[str],
    ruleset: Ruleset,
    *,
    seat: int,
    names: Sequence[str],
    seed: int,
    time_control: TimeControl,
    cwd: str | Path | None = None,
) -> ExternalBot:
    """Start ``command`` in a process group of its own and say hello to it
    (:func:`hello_message`: the rules, the table's ``names``, its ``seat``, ``seed`` and
    ``time_control``); the bot's standard error is discarded. ``bot-crashed`` when the
    program cannot be started. The one way the tournament, ``gnoming impact`` and a
    server's seats start an external bot."""
    hello = hello_message(ruleset, seat=seat, names=names, seed=seed, time_control=time_control)
    try:
        process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            cwd=cwd,
        )
    except OSError as error:
        raise BotFailure(
            "bot-crashed", f"seat {seat}: cannot start {command[0]!r}: {error.strerror}", seat
        ) from None
    bot = ExternalBot(process, seat, time_control)
    try:
        bot.send(hello, time.monotonic() + time_control.startup)
    except BotFailure:
        bot.close()
        raise
    return bot


def _excerpt(value: object) -> str:
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else json.dumps(value)
    return repr(text[:80] + ("..." if len(text) > 80 else ""))


def protocol_schemas() -> dict[str, dict[str, Any]]:
    """``bot-NAME.schema.json`` -> the JSON Schema of each message of the protocol: the
    referee's ``hello``, ``decide`` and ``end``, and the bot's answer, a ``move`` entry
    (the record's notation, whose schema it shares)."""
    from ..formats.schemas import DIALECT, record_schema

    record = record_schema()
    entry = copy.deepcopy(record["$defs"]["Round"]["properties"]["moves"]["items"])
    entry["properties"]["action"]["enum"].remove("reshuffle")  # the table's, not a seat's
    entry_defs = {
        name: schema
        for name, schema in record["$defs"].items()
        if name.endswith("Entry") and not name.startswith("Public") and name != "ReshuffleEntry"
    }
    entry["allOf"] = [
        rule for rule in entry["allOf"] if rule["then"]["$ref"].split("/")[-1] in entry_defs
    ]

    def message(kind: str, about: str, **properties: Any) -> dict[str, Any]:
        return {
            "$schema": DIALECT,
            "title": f"{PROTOCOL} {kind}",
            "description": about,
            "type": "object",
            "required": ["type", *properties],
            "additionalProperties": False,
            "properties": {"type": {"const": kind}, **properties},
        }

    seat = {"type": "integer", "minimum": 0}
    integers = {"type": "array", "items": {"type": "integer"}}
    return {
        "bot-hello.schema.json": message(
            "hello",
            "The referee's first message to a bot: the protocol, the rules (name, SHA-256, "
            "the resolved ruleset as in schemas/ruleset.schema.json), the table, the bot's "
            "seat, a seed for its own use, its time. No answer is awaited.",
            protocol={"const": PROTOCOL},
            ruleset={
                "type": "object",
                "required": ["name", "sha256", "rules"],
                "additionalProperties": False,
                "properties": {
                    "name": {"type": "string"},
                    "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                    "rules": {"type": "object"},
                },
            },
            players={"type": "integer", "minimum": 1},
            names={"type": "array", "items": {"type": "string"}},
            seat=seat,
            seed={"type": "integer", "minimum": 0},
            time={
                "type": "object",
                "required": ["move_ms", "startup_ms"],
                "additionalProperties": False,
                "properties": {
                    "move_ms": {"type": "integer", "minimum": 1},
                    "startup_ms": {"type": "integer", "minimum": 0},
                },
            },
        ),
        "bot-decide.schema.json": {
            **message(
                "decide",
                "A decision of the bot's seat: its observation (gnoming-observation/1), its "
                "legal moves as record entries, and the milliseconds it has to answer with "
                "one of them.",
                observation={
                    "type": "object",
                    "required": ["format", "seat", "phase", "layouts"],
                    "properties": {"format": {"const": "gnoming-observation/1"}},
                },
                legal={"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/Move"}},
                time_ms={"type": "integer", "minimum": 1},
            ),
            "$defs": {"Move": entry, **entry_defs},
        },
        "bot-move.schema.json": {
            "$schema": DIALECT,
            "title": f"{PROTOCOL} move",
            "description": "The bot's answer to a decide: one line, one of its legal moves "
            "(a record entry without a card claim).",
            **entry,
            "$defs": entry_defs,
        },
        "bot-end.schema.json": message(
            "end",
            "The referee's last message: the totals and winners of a finished game, or the "
            "seat whose forfeit ended it (totals null). No answer is awaited.",
            totals={"anyOf": [integers, {"type": "null"}]},
            winners=integers,
            forfeit={"anyOf": [seat, {"type": "null"}]},
        ),
    }
