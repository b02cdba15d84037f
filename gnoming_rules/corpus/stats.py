"""Statistics over a corpus of records (``gnoming stats``): one replay per record.

:func:`game_events` replays a file through the validator with an
:class:`~gnoming_rules.corpus.events.EventLog` attached, so the verdict and the events
come from the same replay, and :func:`collect` does it for many files over several
processes (results in the order of the files). :func:`summarize` turns the games into
the report's numbers (a JSON-ready dict); :func:`game_rows` and :func:`round_rows` into
flat rows for pandas or DuckDB, which :func:`write_rows` writes as CSV or Parquet.

Play statistics (win rates, scores, lengths, rule events) are over the valid records;
invalid ones are counted by their error code only, since a game that broke a rule is not
a game of these rules.
"""

from __future__ import annotations

import csv
import json
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..core.errors import UsageError
from ..extras import need
from ..referee.processes import in_processes
from ..referee.resolver import RulesetResolver
from ..referee.validate import Replay, replay_file
from .events import COUNTERS, EventLog, RoundEvents, game_counts, round_row

Progress = Callable[[int], None]
"""Told how many records are done so far."""


@dataclass(slots=True)
class GameEvents:
    """One record: its verdict in short, and the events of its replay."""

    path: str
    status: int
    """0 valid, 1 a rule broken or a false claim, 2 not a playable record."""
    code: str
    """The verdict's error code; empty when valid."""
    ruleset: str = ""
    players: int = 0
    first_player: int = 0
    complete: bool = False
    rounds: list[RoundEvents] = field(default_factory=list)
    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def valid(self) -> bool:
        """The record broke no rule and made no false claim."""
        return self.status == 0


def from_replay(path: str, replay: Replay, log: EventLog) -> GameEvents:
    """The :class:`GameEvents` of a finished replay and the log that watched it."""
    verdict = replay.verdict
    record = replay.record
    game = GameEvents(
        path=path,
        status=verdict.exit_status,
        code="" if verdict.error is None else verdict.error.code,
        complete=verdict.complete,
        totals=verdict.totals,
        winners=verdict.winners,
        rounds=[events for events in log.rounds if events.ended],
    )
    if record is not None:
        game.players = len(record.players)
        game.first_player = record.first_player
    if replay.ruleset is not None:
        game.ruleset = replay.ruleset.name
    return game


_resolver: RulesetResolver | None = None


def game_events(path: str, ruleset: str | None = None) -> GameEvents:
    """Validate ``path`` (under ``ruleset`` if given) and count its events, in one replay."""
    global _resolver  # noqa: PLW0603 - one cache per worker process, made on first use
    if _resolver is None:
        _resolver = RulesetResolver(cache_files=True)
    log = EventLog()
    replay = replay_file(path, ruleset=ruleset, resolver=_resolver, observe=log)
    return from_replay(path, replay, log)


def _task(task: tuple[str, str | None]) -> GameEvents:
    return game_events(*task)


def collect(
    files: Sequence[Path | str],
    *,
    ruleset: str | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> list[GameEvents]:
    """:func:`game_events` of every file, in order, over ``jobs`` processes."""
    games: list[GameEvents] = []
    for game in in_processes(_task, [(str(path), ruleset) for path in files], jobs=jobs):
        games.append(game)
        if progress is not None:
            progress(len(games))
    return games


# --- the numbers of the report ----------------------------------------------------------------


def _spread(values: Sequence[float]) -> dict[str, float]:
    """Count, mean, standard deviation, min, quartiles and max of ``values``."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else [ordered[0]] * 3
    return {
        "count": len(ordered),
        "mean": round(statistics.fmean(ordered), 3),
        "sd": round(statistics.pstdev(ordered), 3),
        "min": ordered[0],
        "q1": quartiles[0],
        "median": quartiles[1],
        "q3": quartiles[2],
        "max": ordered[-1],
    }


def win_shares(game: GameEvents) -> list[float]:
    """Each seat's share of the win: 1 for a sole winner, 1/k for k who share it."""
    shares = [0.0] * game.players
    for seat in game.winners:
        shares[seat] = 1 / len(game.winners)
    return shares


def summarize(games: Sequence[GameEvents]) -> dict[str, Any]:
    """The report's numbers: validity, win rates, scores, lengths and rule events.

    A valid record that stops before the game's end (``unfinished``) is no game of so
    many turns: the per-game figures (turns and events per game, win rates) are over the
    complete games, the per-round ones over every round that ended in a valid record. When
    the valid records were played under more than one ruleset, ``by_ruleset`` gives the
    same numbers for each ruleset's records apart (the mixture's own mean nothing)."""
    summary = _summary(games)
    names = {game.ruleset for game in games if game.valid}
    if len(names) > 1:
        summary["by_ruleset"] = {
            name: _summary([game for game in games if game.ruleset == name])
            for name in summary["rulesets"]
        }
    return summary


def _summary(games: Sequence[GameEvents]) -> dict[str, Any]:
    valid = [game for game in games if game.valid]
    done = [game for game in valid if game.complete]
    finished = [game for game in done if game.winners]
    rounds = [events for game in valid for events in game.rounds]
    counts = [game_counts(game.rounds) for game in done]
    by_code = Counter(game.code for game in games if not game.valid)
    seats = max((game.players for game in finished), default=0)
    seat_wins, seat_games = [0.0] * seats, [0] * seats
    position_wins, position_games = [0.0] * seats, [0] * seats
    expected = [0.0] * seats
    for game in finished:
        for seat, share in enumerate(win_shares(game)):
            position = (seat - game.first_player) % game.players
            seat_wins[seat] += share
            seat_games[seat] += 1
            position_wins[position] += share
            position_games[position] += 1
            expected[seat] += 1 / game.players
    chains = Counter(length for events in rounds for length in events.chains)
    per_round: dict[int, list[int]] = {}
    for events in rounds:
        per_round.setdefault(events.round, []).extend(events.scores)
    return {
        "games": len(games),
        "valid": len(valid),
        "complete": len(done),
        "unfinished": len(valid) - len(done),
        "invalid_by_code": dict(sorted(by_code.items())),
        "rulesets": dict(Counter(game.ruleset for game in valid).most_common()),
        "players": {
            str(count): games_
            for count, games_ in sorted(Counter(game.players for game in valid).items())
        },
        "win_rate_by_seat": [
            {
                "seat": seat,
                "games": seat_games[seat],
                "wins": round(seat_wins[seat], 4),
                "win_rate": _rate(seat_wins[seat], seat_games[seat]),
                "fair_share": _rate(expected[seat], seat_games[seat]),
            }
            for seat in range(seats)
        ],
        "win_rate_by_position": [
            {
                "position": position,
                "games": position_games[position],
                "wins": round(position_wins[position], 4),
                "win_rate": _rate(position_wins[position], position_games[position]),
            }
            for position in range(seats)
        ],
        "scores_by_round": {str(index): _spread(values) for index, values in per_round.items()},
        "turns_per_game": _spread([count["turns"] for count in counts]),
        "turns_per_round": _spread([events.turns for events in rounds]),
        "rounds": len(rounds),
        "events": {name: sum(count[name] for count in counts) for name in COUNTERS},
        "events_per_game": {
            name: round(statistics.fmean([count[name] for count in counts]), 3) if counts else 0
            for name in COUNTERS
        },
        "chain_lengths": {str(length): chains[length] for length in sorted(chains)},
        "ended_early_share": _rate(sum(1 for events in rounds if events.ended_early), len(rounds)),
    }


def _rate(part: float, whole: float) -> float | None:
    return round(part / whole, 4) if whole else None


# --- rows for pandas or DuckDB ---------------------------------------------------------------

GAME_COLUMNS: Final = (
    "path",
    "status",
    "code",
    "ruleset",
    "players",
    "first_player",
    "complete",
    "rounds",
    *COUNTERS,
    "longest_chain",
    "totals",
    "winners",
)


def game_rows(games: Iterable[GameEvents]) -> Iterator[dict[str, Any]]:
    """One row per record: the verdict in short, the event counts, totals and winners."""
    for game in games:
        row: dict[str, Any] = {
            "path": game.path,
            "status": game.status,
            "code": game.code,
            "ruleset": game.ruleset,
            "players": game.players,
            "first_player": game.first_player,
            "complete": game.complete,
            "rounds": len(game.rounds),
        }
        row.update(game_counts(game.rounds))
        row["longest_chain"] = max((events.longest_chain for events in game.rounds), default=0)
        row["totals"] = list(game.totals)
        row["winners"] = list(game.winners)
        yield row


def round_rows(games: Iterable[GameEvents]) -> Iterator[dict[str, Any]]:
    """One row per round that ended, in a valid record: ``path`` and the round's events."""
    for game in games:
        if not game.valid:
            continue
        for events in game.rounds:
            yield {"path": game.path, "players": game.players, **round_row(events)}


def rounds_path(path: Path) -> Path:
    """Where the per-round rows go beside the per-game ``path``: ``rows.csv`` ->
    ``rows.rounds.csv``."""
    return path.with_name(f"{path.stem}.rounds{path.suffix}")


def write_rows(path: Path, games: Sequence[GameEvents]) -> tuple[Path, Path]:
    """Write the per-game rows to ``path`` and the per-round rows beside it
    (:func:`rounds_path`), as CSV or, for ``.parquet``, Parquet (extra ``stats``).
    In CSV a list (``totals``, ``winners``, ``scores``) is a JSON array."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise UsageError("bad-output", f"--out {path}: write .csv or .parquet")
    second = rounds_path(path)
    for target, rows in ((path, list(game_rows(games))), (second, list(round_rows(games)))):
        if suffix == ".parquet":
            parquet = need("pyarrow.parquet", "stats")
            arrow = need("pyarrow", "stats")
            parquet.write_table(arrow.Table.from_pylist(rows), target)
            continue
        with target.open("w", newline="", encoding="utf-8") as stream:
            columns = list(rows[0]) if rows else list(GAME_COLUMNS)
            writer = csv.DictWriter(stream, fieldnames=columns)
            writer.writeheader()
            for row in rows:
                writer.writerow(
                    {k: json.dumps(v) if isinstance(v, list) else v for k, v in row.items()}
                )
    return path, second


__all__ = [
    "GameEvents",
    "Progress",
    "collect",
    "from_replay",
    "game_events",
    "game_rows",
    "round_rows",
    "rounds_path",
    "summarize",
    "win_shares",
    "write_rows",
]
