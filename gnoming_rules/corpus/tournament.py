"""Tournaments between bots (``gnoming tournament``): the schedule, the games, the results.

**Bots.** A bot is a built-in name (``greedy``, or ``search:400`` with a budget), an
external program's command line (``node examples/bots/random_bot.js``: anything with a
space or a ``/``), or ``LABEL=COMMAND`` to name one (the bot protocol,
:mod:`~gnoming_rules.play.external`), read by :func:`~gnoming_rules.play.bot_spec.parse_bot`
as ``gnoming impact`` and ``gnoming serve`` read theirs.

**Schedule.** A round robin meets every two bots; a gauntlet meets the first against each
other. At a table of ``P`` seats the two bots of a pairing sit alternately (A, B, A, ...).
Each deal (seed ``seed + d``: the first player, each round's deal and reshuffles from
streams of their own) is played once per rotation of the seats, so that each bot plays
every seat of the same cards: the luck of the deal cancels out. Games are numbered in
order (deal, pairing, rotation), and game ``i`` is written to ``games/game-i.json`` (its
record, validated) and ``games/game-i.result.json`` (who sat where, the totals, any
forfeit), the result last and each file whole (written aside, then renamed). A run that
finds a game's two files, valid, skips it: an interrupted tournament goes on where it
stopped.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from ..core.engine import new_game
from ..core.errors import BotFailure, GnomingError, UsageError
from ..core.ruleset import Ruleset
from ..core.state import State
from ..formats.record import read_record, write_record
from ..formats.rulesets import load_ruleset
from ..play.bot_spec import BotSpec, check_runnable, parse_bot
from ..play.bots import MOVE_LIMIT, default_names, make_bot
from ..play.external import (
    ExternalBot,
    TimeControl,
    end_message,
    launch_bot,
)
from ..play.loop import Bot, play_out, seat_bots
from ..play.recorder import Recorder
from ..referee.processes import in_processes
from ..referee.validate import validate_record
from .ratings import Pairwise, pairwise
from .streams import RoundChance, named_stream

__all__ = [
    "FORMATS",
    "TOURNAMENT_FORMAT",
    "BotSpec",
    "Game",
    "GameResult",
    "Tournament",
    "parse_bot",
    "run_games",
    "schedule",
]

TOURNAMENT_FORMAT: Final = "gnoming-tournament/1"
"""The ``format`` of a tournament folder's ``tournament.json`` and of each game result."""
FORMATS: Final = ("round-robin", "gauntlet")


@dataclass(frozen=True)
class Game:
    """One game of the schedule: its number, its deal, the rotation, the bots by seat."""

    index: int
    deal: int
    pairing: int
    rotation: int
    bots: tuple[int, ...]
    """The bot (its number among the tournament's bots) at each seat."""


def schedule(bots: int, players: int, deals: int, format: str = "round-robin") -> list[list[Game]]:
    """The games, deal by deal: each deal's games for every pairing and rotation."""
    if format == "gauntlet":
        pairings = [(0, other) for other in range(1, bots)]
    else:
        pairings = [(a, b) for a in range(bots) for b in range(a + 1, bots)]
    found: list[list[Game]] = []
    index = 0
    for deal in range(deals):
        games = []
        for number, pair in enumerate(pairings):
            base = [pair[seat % 2] for seat in range(players)]
            for rotation in range(players):
                lineup = tuple(base[(seat + rotation) % players] for seat in range(players))
                games.append(Game(index, deal, number, rotation, lineup))
                index += 1
        found.append(games)
    return found


@dataclass(frozen=True)
class Tournament:
    """What a tournament plays: its bots, rules, table size, seed and time control."""

    bots: tuple[BotSpec, ...]
    ruleset: str
    """The ruleset as given (a bundled name or a path)."""
    players: int
    seed: int
    format: str
    time_control: TimeControl
    folder: Path

    def identity(self, rules: Ruleset) -> dict[str, Any]:
        """What ``tournament.json`` holds: a run may go on in a folder only with this."""
        return {
            "format": TOURNAMENT_FORMAT,
            "ruleset": {"name": rules.name, "sha256": rules.sha256},
            "players": self.players,
            "seed": self.seed,
            "pairing": self.format,
            "bots": [
                {"label": bot.label, "builtin": bot.builtin, "command": bot.command}
                for bot in self.bots
            ],
        }


@dataclass(frozen=True)
class GameResult:
    """A game as its result file says: the bots by seat (labels), the totals, a forfeit."""

    index: int
    deal: int
    pairing: int
    rotation: int
    bots: tuple[int, ...]
    labels: tuple[str, ...]
    first_player: int
    totals: tuple[int, ...] | None
    """``None`` for a forfeit."""
    winners: tuple[int, ...]
    forfeit: dict[str, Any] | None
    """``{"seat", "bot", "code", "message"}`` of the seat that lost by forfeit."""
    moves: int
    resumed: bool = False
    """Read from the folder, not played by this run."""

    def pairwise(self) -> list[Pairwise]:
        """This game's pairwise results (:func:`~gnoming_rules.corpus.ratings.pairwise`)."""
        seat = None if self.forfeit is None else int(self.forfeit["seat"])
        return pairwise(self.bots, self.totals, seat)

    def to_dict(self) -> dict[str, Any]:
        """The result file's content."""
        found = {"format": TOURNAMENT_FORMAT, **asdict(self)}
        del found["resumed"]
        return found


def _stream(seed: int, *name: object) -> random.Random:
    return named_stream("gnoming-tournament", seed, *name)


def game_paths(folder: Path, index: int) -> tuple[Path, Path]:
    """The record and the result file of game ``index``."""
    base = folder / "games" / f"game-{index:06d}"
    return base.with_suffix(".json"), base.with_suffix(".result.json")


def _write_whole(path: Path, write: Callable[[Path], object]) -> None:
    aside = path.with_name(path.name + ".partial")
    write(aside)
    os.replace(aside, path)


def play_game(tournament: Tournament, rules: Ruleset, game: Game) -> GameResult:
    """Play ``game``, write its record and result, and check the record validates."""
    seed = tournament.seed + game.deal
    players = tournament.players
    first = _stream(seed, "first").randrange(players)
    labels = tuple(tournament.bots[bot].label for bot in game.bots)
    names = default_names(players)
    recorder = Recorder(rules, names, first)
    externals: dict[int, ExternalBot] = {}
    seats: dict[int, Bot] = {}
    forfeit: BotFailure | None = None
    state = new_game(rules, players, first)
    moves = 0

    def hook(_before: State, move: Any, after: State) -> None:
        nonlocal state, moves
        recorder.add(move, after)
        state = after
        moves += 1

    try:
        for seat, bot in enumerate(game.bots):
            spec = tournament.bots[bot]
            if spec.builtin is not None:
                seats[seat] = make_bot(spec.builtin, _stream(seed, "bot", game.rotation, seat))
                continue
            assert spec.command is not None
            externals[seat] = launch_bot(
                spec.command,
                rules,
                seat=seat,
                names=names,
                seed=_stream(seed, "bot", game.rotation, seat).getrandbits(63),
                time_control=tournament.time_control,
            )
            seats[seat] = externals[seat]
        play_out(
            rules,
            state,
            RoundChance("gnoming-tournament", seed),
            seat_bots(rules, seats),
            hook=hook,
            too_long=lambda _state: UsageError(
                "bot-stuck", f"game {game.index}: the game did not end in {MOVE_LIMIT} moves"
            ),
        )
    except BotFailure as failure:
        forfeit = failure
    finally:
        totals = None if forfeit is not None else state.totals
        winners = () if forfeit is not None else state.winners
        for external in externals.values():
            external.end(end_message(totals, winners, None if forfeit is None else forfeit.seat))
    record = recorder.record()
    verdict = validate_record(record)
    if not verdict.valid or verdict.complete != (forfeit is None):
        raise UsageError("bad-tournament", f"game {game.index}: its record does not validate")
    result = GameResult(
        index=game.index,
        deal=game.deal,
        pairing=game.pairing,
        rotation=game.rotation,
        bots=game.bots,
        labels=labels,
        first_player=first,
        totals=None if forfeit is not None else tuple(state.totals),
        winners=() if forfeit is not None else tuple(state.winners),
        forfeit=None
        if forfeit is None
        else {
            "seat": forfeit.seat,
            "bot": labels[forfeit.seat],
            "code": forfeit.code,
            "message": forfeit.message,
        },
        moves=moves,
    )
    record_path, result_path = game_paths(tournament.folder, game.index)
    _write_whole(record_path, lambda path: write_record(record, path, format="json"))
    _write_whole(
        result_path,
        lambda path: path.write_text(json.dumps(result.to_dict()) + "\n", encoding="utf-8"),
    )
    return result


def finished(tournament: Tournament, rules: Ruleset, game: Game) -> GameResult | None:
    """Game ``game`` as a previous run left it: its result, when both files are there,
    the result matches the schedule and the record validates; else ``None`` (play it)."""
    record_path, result_path = game_paths(tournament.folder, game.index)
    if not (record_path.is_file() and result_path.is_file()):
        return None
    try:
        data = json.loads(result_path.read_text(encoding="utf-8"))
        result = GameResult(
            index=int(data["index"]),
            deal=int(data["deal"]),
            pairing=int(data["pairing"]),
            rotation=int(data["rotation"]),
            bots=tuple(int(bot) for bot in data["bots"]),
            labels=tuple(str(label) for label in data["labels"]),
            first_player=int(data["first_player"]),
            totals=None if data["totals"] is None else tuple(int(t) for t in data["totals"]),
            winners=tuple(int(seat) for seat in data["winners"]),
            forfeit=None if data["forfeit"] is None else dict(data["forfeit"]),
            moves=int(data["moves"]),
            resumed=True,
        )
        if data.get("format") != TOURNAMENT_FORMAT or (
            result.index,
            result.deal,
            result.pairing,
            result.rotation,
            result.bots,
        ) != (game.index, game.deal, game.pairing, game.rotation, game.bots):
            return None
        record = read_record(record_path)
        verdict = validate_record(record, ruleset=rules)
    except (OSError, ValueError, KeyError, TypeError, GnomingError):
        return None
    if not verdict.valid or verdict.complete != (result.forfeit is None):
        return None
    if result.totals is not None and verdict.totals != result.totals:
        return None
    return result


def open_folder(tournament: Tournament, rules: Ruleset) -> None:
    """Make the tournament's folder, or check that the one there holds this tournament:
    ``bad-tournament`` (and nothing touched) when it holds another or cannot be read."""
    folder = tournament.folder
    identity = tournament.identity(rules)
    marker = folder / "tournament.json"
    if marker.exists():
        try:
            there = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise UsageError("bad-tournament", f"{marker}: cannot be read: {error}") from None
        if there != json.loads(json.dumps(identity)):
            raise UsageError(
                "bad-tournament",
                f"{folder} holds another tournament (other bots, rules, seats, seed or "
                "pairing): give another --out folder",
            )
    elif folder.exists() and any(folder.iterdir()):
        raise UsageError("bad-tournament", f"{folder} is not empty and holds no tournament")
    (folder / "games").mkdir(parents=True, exist_ok=True)
    if not marker.exists():
        _write_whole(
            marker,
            lambda path: path.write_text(json.dumps(identity, indent=2) + "\n", encoding="utf-8"),
        )


_TASK: dict[str, Any] = {}


def _play_task(game: Game) -> GameResult:
    tournament: Tournament = _TASK["tournament"]
    rules: Ruleset = _TASK["rules"]
    return finished(tournament, rules, game) or play_game(tournament, rules, game)


def run_games(
    tournament: Tournament,
    deals: Sequence[Sequence[Game]],
    *,
    jobs: int | None = None,
    stop: Callable[[Sequence[GameResult]], bool] | None = None,
) -> Iterator[GameResult]:
    """Play (or read back) the games, deal by deal, over ``jobs`` processes, yielding each
    result in order. ``stop(results so far)`` is asked after each whole batch of deals:
    true ends the run there (the SPRT's decision)."""
    rules = load_ruleset(tournament.ruleset)
    for spec in tournament.bots:
        check_runnable(spec)
    open_folder(tournament, rules)
    _TASK.update(tournament=tournament, rules=rules)
    per_deal = max(1, len(deals[0])) if deals else 1
    batch = 1 if stop is not None and (jobs or 1) <= 1 else max(1, 16 // per_deal)
    done: list[GameResult] = []
    for start in range(0, len(deals), batch):
        games = [game for chunk in deals[start : start + batch] for game in chunk]
        for result in in_processes(_play_task, games, jobs=jobs, name=_game_name):
            done.append(result)
            yield result
        if stop is not None and stop(done):
            return


def _game_name(game: Game) -> str:
    return f"game {game.index}"
