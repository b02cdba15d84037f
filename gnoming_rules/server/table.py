"""One table of the server: the referee's state, its seats, and the moves it accepts.

A :class:`Table` holds the full state, which only the referee sees. Everything it gives
out is a seat's view (:func:`~gnoming_rules.play.observation.observe`), never the state:
a move is checked against the mover's own view with
:func:`~gnoming_rules.core.engine.explain`, so a refusal's message can only name what
that seat sees; the record read before the end is the public record of what the whole
table has seen (:meth:`Table.record`).

Each move a seat sends carries a sequence number: the seat's moves are numbered 1, 2, 3,
... A number already applied with the same move is answered again as applied (a client
that resent after a lost acknowledgement) and changes nothing; with another move it is
refused (``sequence-reused``), and any other number out of order too (``bad-sequence``).
A move and everything it sets off (deals, reshuffles, the bots' moves up to the next
person's turn) are stored in one transaction before anyone hears of them; the table's
lock keeps its moves one at a time meanwhile, while other tables go on.

The bots' moves are played in the :class:`~gnoming_rules.server.pool.BotPool`'s worker
processes, never on the event loop; deals and reshuffles, a few microseconds each, are
drawn on it. A table of bots only is played by :meth:`Table.play_some`, a bounded number
of steps at a time, each stored as it comes (the server calls it in the background).

What a step shows is computed once for everyone: each seat's observation and the legal
moves of the seat to move are kept until the next step (:meth:`Table.view`,
:meth:`Table.legal`), so that the views of many connections, and the check of the move
that answers them, cost one computation each.

Time control: with ``move_seconds``, a seat that holds the turn longer than that has its
move made by its default bot (:meth:`Table.time_out`); the step is stored as timed out,
and :meth:`Table.summary` lists it.

External bots: a seat whose bot is the label of a bot the operator registered
(``gnoming serve --bot LABEL=COMMAND``) is played by that program over the bot protocol
(:class:`~gnoming_rules.play.external.ExternalBot`), started at the seat's first decision
and asked in a thread (it waits on a pipe, not on the CPU: the event loop goes on), with
the server's time per move. A bot that fails (crashes, runs out of time, answers no move
or an illegal one) forfeits its seat, not the game: the program is killed, the failure is
logged and listed in the summary's ``forfeits``, and the table's default bot plays the
seat from that decision on. Every program is killed when its game ends
(:meth:`Table.close_bots`) or the server closes.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..core.engine import apply, explain, legal_moves, new_game
from ..core.entries import move_from_entry, move_to_entry, step_from_entry, step_to_entry
from ..core.errors import BotFailure, GnomingError, Refusal
from ..core.moves import Move, PlayerMove, Reshuffle
from ..core.ruleset import Ruleset
from ..core.state import State
from ..formats.record import Record
from ..play.bots import BOTS, make_bot
from ..play.external import ExternalBot, TimeControl, end_message, launch_bot
from ..play.loop import MOVE_LIMIT, Bot, play_out
from ..play.observation import Observation, held_is_hidden, observe, stand_in
from ..play.recorder import Recorder
from .pool import BotPool, Job, ruleset_key
from .spec import TableSpec
from .storage import Step, Storage

__all__ = ["Refusal", "Table", "hash_token"]

Listener = Callable[["Table", Move, bool], None]
"""Told of every step as it becomes known: the table, the move, whether it timed out."""
Store = Callable[[str, int, Sequence[Step], Callable[[], None]], Awaitable[None]]
"""Stores steps ``first``, ... of a table and then calls the callback (which takes them
in), returning once both are done
(:meth:`~gnoming_rules.server.committer.Committer.store`)."""

_SYSTEM: Final = random.SystemRandom()

LOG: Final = logging.getLogger("gnoming.server")


def _nobody(_state: State) -> None:
    """No seat's decision: :func:`~gnoming_rules.play.loop.play_out` draws the chance
    events due and stops at the first decision."""
    return None


def hash_token(token: str) -> str:
    """The SHA-256 of a seat token, as stored (the token itself is never kept)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Timeout:
    """A move made by a seat's default bot because the seat's time ran out."""

    step: int
    round: int
    move: int
    """The move's index in its round's ``moves``, as the record numbers it."""
    seat: int


class Table:
    """A table's state, seats, sequence numbers and listeners (see the module's notes)."""

    def __init__(
        self,
        table_id: str,
        spec: TableSpec,
        ruleset: Ruleset,
        storage: Storage,
        store: Store,
        *,
        pool: BotPool,
        external: Mapping[str, Sequence[str]] | None = None,
        bot_time: TimeControl | None = None,
    ):
        self.table_id = table_id
        self.spec = spec
        self.ruleset = ruleset
        self.storage = storage
        self.store = store
        self.pool = pool
        self._ruleset_key = ruleset_key(spec.ruleset_ref)
        self.lock = asyncio.Lock()
        """Held from a move's check to its steps being stored and taken in: one at a time."""
        self.state: State = new_game(ruleset, spec.players, spec.first_player)
        self.recorder = Recorder(
            ruleset, spec.names, spec.first_player, ruleset_ref=spec.ruleset_ref
        )
        self.steps = 0
        self.tokens: dict[int, str] = {}
        self.sent: list[list[Move]] = [[] for _ in range(spec.players)]
        """Each seat's moves by sequence number: ``sent[seat][seq - 1]``."""
        self.timeouts: list[Timeout] = []
        self.listeners: set[Listener] = set()
        self.busy = 0.0
        """Seconds of the event loop this table's steps took to take in (the pace of a
        table of bots only is set by it)."""
        self.memo: dict[Any, Any] = {}
        """What this step shows, computed once (views, legal moves, messages' text):
        emptied at every step."""
        self.bot_time = bot_time or TimeControl()
        """An external bot's time: each move's, and more for its first."""
        self.forfeits: list[dict[str, Any]] = []
        """The external bots that failed here: ``{"seat", "bot", "code", "message"}``."""
        registered = external or {}
        self._commands: dict[int, tuple[str, ...]] = {}
        """The seats of external bots still playing, and their programs' command lines."""
        self._external: dict[int, ExternalBot] = {}
        """The external bots' programs started (at their seat's first decision)."""
        self._bots: dict[int, Bot] = {}
        for seat, name in enumerate(spec.bots):
            if name is None:
                continue
            if name in registered and name not in BOTS:
                self._commands[seat] = tuple(registered[name])
                continue
            kind = name
            if name not in BOTS:  # a stored table whose bot this server does not know
                LOG.warning(
                    "table %s: seat %d's bot %r is not registered here: the default bot plays it",
                    table_id,
                    seat,
                    name,
                )
                kind = spec.default_bot
            self._bots[seat] = make_bot(kind, random.Random(_SYSTEM.getrandbits(64)))
        self._defaults: dict[int, Bot] = {
            seat: make_bot(spec.default_bot, random.Random(_SYSTEM.getrandbits(64)))
            for seat in range(spec.players)
        }

    # ----- seats -------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token``, or ``None``."""
        digest = hash_token(token)
        for seat, stored in self.tokens.items():
            if hmac.compare_digest(stored, digest):
                return seat
        return None

    def claim(self, seat: int, token: str) -> None:
        """Give the person seat ``seat`` the token ``token`` (stored as its hash)."""
        if not 0 <= seat < self.spec.players:
            raise Refusal(
                "bad-seat", f"seat {seat} is not at the table (0 to {self.spec.players - 1})"
            )
        if self.spec.bots[seat] is not None:
            raise Refusal("seat-taken", f"seat {seat} is played by a bot")
        digest = hash_token(token)
        if seat in self.tokens or not self.storage.claim_seat(self.table_id, seat, digest):
            raise Refusal("seat-taken", f"seat {seat} is taken")
        self.tokens[seat] = digest

    # ----- play --------------------------------------------------------------------

    @property
    def sequences(self) -> list[int]:
        """The last sequence number applied of each seat (0: none yet)."""
        return [len(moves) for moves in self.sent]

    @property
    def bots_only(self) -> bool:
        """Every seat is a bot's: the server plays the game in the background."""
        return all(bot is not None for bot in self.spec.bots)

    @property
    def waiting_for(self) -> int | None:
        """The person's seat whose move the table waits for (``None`` while over)."""
        return None if self.state.is_over else self.state.actor

    async def start(self) -> None:
        """Deal and play the bots up to the first person's turn (a new table; a table of
        bots only is played by :meth:`play_some` instead)."""
        async with self.lock:
            await self._commit(await self._advance(self.state, []))

    async def play_some(self, steps: int) -> bool:
        """Play up to ``steps`` steps of a table of bots only and store them; False once
        the game is over."""
        async with self.lock:
            if self.state.is_over:
                return False
            await self._commit(await self._advance(self.state, [], limit=steps))
            return not self.state.is_over

    def restore(self, steps: Sequence[Step]) -> None:
        """Replay the stored ``steps`` (a restarted server; the server then goes on as
        for a new table)."""
        for step in steps:
            move = step_from_entry(step.data)
            self._record(move, apply(self.ruleset, self.state, move), step)

    async def submit(self, seat: int, sequence: int, entry: object) -> bool:
        """Apply seat ``seat``'s move ``entry`` numbered ``sequence`` (1 to
        :data:`~gnoming_rules.server.reading.MAX_SEQUENCE`, as the message's reader
        checked); True if applied now, False if that number was applied before with the
        same move. Raises :class:`Refusal` otherwise."""
        async with self.lock:
            return await self._submit(seat, sequence, entry)

    async def _submit(self, seat: int, sequence: int, entry: object) -> bool:
        sent = self.sent[seat]
        if 1 <= sequence <= len(sent):
            if self._read(seat, entry) != sent[sequence - 1]:
                raise Refusal(
                    "sequence-reused",
                    f"seq {sequence} was another move of this seat; the next is {len(sent) + 1}",
                )
            return False
        if sequence != len(sent) + 1:
            raise Refusal(
                "bad-sequence",
                f"seq must be {len(sent) + 1} (the seat's next move), got {sequence}",
            )
        move = self._read(seat, entry)
        self._check(move, seat)
        after = apply(self.ruleset, self.state, move)
        first = (move, after, Step(move_to_entry(move), seat, sequence))
        await self._commit(await self._advance(after, [first]))
        return True

    def _read(self, seat: int, entry: object) -> PlayerMove:
        """The move ``entry`` names, made by ``seat``; refused if it names none."""
        if not isinstance(entry, dict):
            raise Refusal("bad-move", "move must be a JSON object (a record entry)")
        try:
            move = move_from_entry(entry, self.spec.players, piles=self.ruleset.discard.piles)
        except GnomingError as error:
            raise Refusal("bad-move", error.message) from None
        if isinstance(move, Reshuffle):
            raise Refusal("bad-move", "a reshuffle is the dealer's, not a seat's move")
        if move.player != seat:
            raise Refusal(
                "wrong-seat", f"this connection plays seat {seat}, not seat {move.player}"
            )
        return move

    async def time_out(self, seat: int, steps: int) -> bool:
        """Let seat ``seat``'s default bot move if the table still waits for that seat
        after ``steps`` steps (its time ran out); True if it moved."""
        async with self.lock:
            if self.steps != steps or self.waiting_for != seat or seat in self._bots:
                return False
            pending = await self._advance(self.state, [], default=seat)
            await self._commit(pending)
            return True

    def view(self, seat: int | None) -> Observation:
        """What ``seat`` (``None``: a spectator) sees now (computed once a step)."""
        key = ("view", seat)
        found: Observation | None = self.memo.get(key)
        if found is None:
            found = self.memo[key] = observe(self.state, seat)
        return found

    def legal(self, seat: int | None) -> tuple[PlayerMove, ...]:
        """The moves open to ``seat`` now, decided on its own view; empty unless it is to
        move (computed once a step; a tuple in the engine's order)."""
        key = ("legal", seat)
        found: tuple[PlayerMove, ...] | None = self.memo.get(key)
        if found is None:
            view = self.view(seat)
            mine = seat is not None and view.actor == seat
            found = self.memo[key] = legal_moves(self.ruleset, view) if mine else ()
        return found

    def _check(self, move: PlayerMove, seat: int) -> None:
        """Refuse ``move`` as the rules would, decided on the mover's own view only (its
        stand-in: the engine refuses a move of a seat not to move before it reads a card).
        A move among the view's legal moves is taken as it is: ``legal_moves`` and
        ``explain`` agree exactly, and the legal moves were computed for the view sent."""
        if move in self.legal(seat):
            return
        problem = explain(self.ruleset, stand_in(self.view(seat)), move)
        if problem is not None:
            raise Refusal(problem.code, problem.message, problem.rule)

    Pending = list[tuple[Move, State, Step]]

    async def _advance(
        self,
        state: State,
        pending: Pending,
        *,
        limit: int | None = None,
        default: int | None = None,
    ) -> Pending:
        """``pending`` and the deals, reshuffles and bots' moves that follow it, up to the
        next person's turn or the end, or ``limit`` more steps (a table of bots only;
        without it, bots that play past :data:`~gnoming_rules.play.loop.MOVE_LIMIT` moves
        are stuck). With ``default``, that seat's default bot makes the first move (the
        seat's time ran out). The chance events due are drawn here; the built-in bots'
        moves are played in the pool, an external bot's asked in a thread
        (:meth:`_ask_external`)."""
        steps = MOVE_LIMIT if limit is None else limit
        start = len(pending)

        def hook(before: State, move: Move, after: State) -> None:
            seat = None if before.is_chance else before.to_move
            pending.append((move, after, Step(step_to_entry(move), seat)))

        def left() -> int:
            return steps - (len(pending) - start)

        while left() > 0:
            if default is None:
                state = play_out(self.ruleset, state, _SYSTEM, _nobody, hook=hook, limit=left())
                if state.is_over or state.is_chance or left() <= 0:
                    break  # the end, or the limit reached
                if state.to_move in self._commands:
                    state = await self._ask_external(state, state.to_move, pending)
                    continue
                if state.to_move not in self._bots:
                    break  # a person's turn
            job = Job(
                self._ruleset_key,
                self.ruleset.sha256,
                state,
                self._bots,
                left(),
                None if default is None else self._defaults[default],
            )
            played = await self.pool.run(job)
            started = time.perf_counter()
            self._bots = played.bots
            made = zip(played.moves, played.entries, played.texts, strict=True)
            for index, (move, entry, text) in enumerate(made):
                after = apply(self.ruleset, state, move)  # microseconds: the worker chose
                if index == 0 and default is not None:
                    step = Step(entry, default, None, timed_out=True, text=text)
                else:
                    step = Step(entry, None if state.is_chance else state.to_move, text=text)
                pending.append((move, after, step))
                state = after
            self.busy += time.perf_counter() - started
            if default is not None and played.first is not None:
                self._defaults[default] = played.first
            default = None
            if not played.moves:
                break
        stuck = not state.is_over and (
            state.is_chance or state.to_move in self._bots or state.to_move in self._commands
        )
        if limit is None and stuck:
            raise Refusal(
                "bot-stuck", f"the bots did not reach a person's turn in {MOVE_LIMIT} moves"
            )
        return pending

    async def _ask_external(self, state: State, seat: int, pending: Pending) -> State:
        """The move of seat ``seat``'s external bot, added to ``pending``; the state after
        it. A bot that fails forfeits the seat to the default bot (the state is then
        returned as it was, for that bot to move)."""
        view = observe(state, seat)
        try:
            bot = self._external.get(seat)
            if bot is None:
                bot = self._external[seat] = await asyncio.to_thread(self._launch, seat)
            move = await asyncio.to_thread(bot.choose, self.ruleset, view)
        except BotFailure as failure:
            await self._forfeit(seat, failure)
            return state
        except (OSError, ValueError) as error:  # its pipes closed under it (the server closes)
            await self._forfeit(seat, BotFailure("bot-crashed", f"seat {seat}: {error}", seat))
            return state
        after = apply(self.ruleset, state, move)
        pending.append((move, after, Step(step_to_entry(move), seat)))
        return after

    def _launch(self, seat: int) -> ExternalBot:
        return launch_bot(
            self._commands[seat],
            self.ruleset,
            seat=seat,
            names=self.spec.names,
            seed=_SYSTEM.getrandbits(63),
            time_control=self.bot_time,
        )

    async def _forfeit(self, seat: int, failure: BotFailure) -> None:
        """Seat ``seat``'s external bot failed: end it, log it, and give the seat to the
        table's default bot."""
        label = self.spec.bots[seat]
        LOG.warning(
            "table %s: the external bot %r forfeits seat %d (%s: %s); the default bot %s "
            "plays it from now on",
            self.table_id,
            label,
            seat,
            failure.code,
            failure.message,
            self.spec.default_bot,
        )
        self.forfeits.append(
            {"seat": seat, "bot": label, "code": failure.code, "message": failure.message}
        )
        del self._commands[seat]
        bot = self._external.pop(seat, None)
        if bot is not None:
            await asyncio.to_thread(bot.end, end_message(None, (), seat))
        self._bots[seat] = make_bot(self.spec.default_bot, random.Random(_SYSTEM.getrandbits(64)))

    async def close_bots(self) -> None:
        """End the external bots' programs: told the result when the game is over, else
        just killed (the server closes). One that is needed again is started again."""
        bots = list(self._external.values())
        self._external.clear()
        if not bots:
            return
        state = self.state
        message = end_message(state.totals, state.winners, None) if state.is_over else None

        def end() -> None:
            for bot in bots:
                if message is None:
                    bot.close()
                else:
                    bot.end(message)

        await asyncio.to_thread(end)

    async def _commit(self, pending: Pending) -> None:
        """Store ``pending`` (one transaction), then take it in and tell the listeners.
        The store takes the steps in once they are stored, even if the caller is
        cancelled meanwhile."""
        if pending:
            steps = [step for _, _, step in pending]
            await self.store(self.table_id, self.steps, steps, lambda: self._take(pending))
        if self.state.is_over and self._external:
            await self.close_bots()

    def _take(self, pending: Pending) -> None:
        started = time.perf_counter()
        for move, after, step in pending:
            self._record(move, after, step)
            for listener in list(self.listeners):
                listener(self, move, step.timed_out)
        self.busy += time.perf_counter() - started

    def _record(self, move: Move, after: State, step: Step) -> None:
        if step.timed_out and step.seat is not None:
            rounds = self.recorder.record().rounds  # the move's place, as the record numbers it
            self.timeouts.append(
                Timeout(self.steps, len(rounds) - 1, len(rounds[-1].moves), step.seat)
            )
        self.recorder.add(move, after)
        self.state = after
        self.steps += 1
        self.memo.clear()
        if step.seat is not None and step.sequence == len(self.sent[step.seat]) + 1:
            self.sent[step.seat].append(move)

    # ----- what the table shows ----------------------------------------------------

    def record(self) -> tuple[Record | Any, bool]:
        """The game's record and whether it is the full one: the full record once the game
        is over; before, the public record of what the whole table has seen (a card drawn
        from the draw pile and still held is left out with its draw)."""
        from ..referee.redact import redact

        record = self.recorder.record()
        if self.state.is_over:
            return record, True
        if held_is_hidden(self.state, None):
            rounds = list(record.rounds)
            last = rounds[-1]
            rounds[-1] = last.model_copy(update={"moves": last.moves[:-1]})
            record = record.model_copy(update={"rounds": rounds})
        return redact(record, ruleset=self.ruleset), False

    def summary(self) -> dict[str, Any]:
        """What anyone may read of the table: its seats, its progress, its timeouts."""
        return {
            "table": self.table_id,
            "ruleset": {"name": self.ruleset.name, "sha256": self.ruleset.sha256},
            "players": self.spec.names,
            "seats": [
                {
                    "seat": seat,
                    "name": self.spec.names[seat],
                    "bot": self.spec.bots[seat],
                    "taken": self.spec.bots[seat] is not None or seat in self.tokens,
                }
                for seat in range(self.spec.players)
            ],
            "move_seconds": self.spec.move_seconds,
            "steps": self.steps,
            "phase": self.state.phase.name.lower(),
            "waiting_for": self.waiting_for,
            "over": self.state.is_over,
            "totals": list(self.state.totals) if self.state.is_over else None,
            "timeouts": [{"round": t.round, "move": t.move, "seat": t.seat} for t in self.timeouts],
            "forfeits": list(self.forfeits),
        }
