"""``gnoming stats CORPUS...``: what happened in a folder of records, with plots and rows."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, NotRequired

from typing_extensions import TypedDict

from ..formats.rulesets import load_ruleset
from .command import ArgsError, Command, positive
from .output import Output, echo


class StatsDocument(TypedDict):
    """The numbers of the report (``summarize`` in :mod:`gnoming_rules.corpus.stats`)."""

    games: int
    valid: int
    complete: int
    unfinished: int
    """Valid records that stop before the game's end: apart from the per-game figures."""
    invalid_by_code: dict[str, int]
    rulesets: dict[str, int]
    players: dict[str, int]
    """Valid records by their number of players."""
    win_rate_by_seat: list[dict[str, Any]]
    win_rate_by_position: list[dict[str, Any]]
    """Position 0 is the first player (who starts round 0)."""
    scores_by_round: dict[str, dict[str, float]]
    turns_per_game: dict[str, float]
    turns_per_round: dict[str, float]
    rounds: int
    events: dict[str, int]
    events_per_game: dict[str, float]
    chain_lengths: dict[str, int]
    ended_early_share: float | None
    by_ruleset: NotRequired[dict[str, dict[str, Any]]]
    """When the valid records were played under several rulesets: these same numbers for
    each ruleset's records (its name the key)."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="CORPUS", help="record files or folders")
    parser.add_argument(
        "--html", metavar="REPORT", help="write the report with its plots to this HTML file"
    )
    parser.add_argument(
        "--out",
        metavar="ROWS",
        help="write one row per record to ROWS (.csv or .parquet) and one per round beside "
        "it (ROWS with .rounds before the suffix)",
    )
    parser.add_argument(
        "--ruleset",
        metavar="R",
        help="replay every record under R, a name or a path (default: the ruleset each "
        "record names); a record's ruleset_sha256 must still match",
    )
    parser.add_argument(
        "--jobs",
        type=positive,
        default=None,
        metavar="N",
        help="processes that replay records (default: the CPUs this process may use)",
    )


def run(args: argparse.Namespace, out: Output) -> int:
    from ..corpus.stats import collect, summarize, write_rows  # multiprocessing: not for --help
    from ..referee.batch import record_files

    if args.ruleset is not None:
        load_ruleset(args.ruleset)
    for target in (args.html, args.out):
        if target is not None and not Path(target).resolve().parent.is_dir():
            raise ArgsError(f"{target}: the folder {Path(target).parent} does not exist")
    if args.out is not None and Path(args.out).suffix.lower() not in (".csv", ".parquet"):
        raise ArgsError(f"--out {args.out}: write .csv or .parquet")
    files = record_files(args.paths)
    if not files:
        raise ArgsError("no record files (.json, .yaml, .yml) found in the folders given")
    progress = out.progress(len(files), unit="records")
    games = collect(files, ruleset=args.ruleset, jobs=args.jobs, progress=progress.update)
    progress.clear()
    summary = summarize(games)
    if args.html is not None:
        from ..corpus.stats_page import stats_page

        title = "Statistics of " + ", ".join(_folder_name(path) for path in args.paths)
        Path(args.html).write_text(stats_page(title, summary, games), encoding="utf-8")
    if args.out is not None:
        write_rows(Path(args.out), games)
    if out.json:
        out.data(summary)
    else:
        _say(summary, out)
        for target in (args.html, args.out):
            if target is not None:
                out.line(f"written: {echo(target)}")
    return 0


def _folder_name(path: str) -> str:
    """A path as a title names it: ``.`` and ``..`` by the folder's own name."""
    if Path(path).name in ("", ".", ".."):
        resolved = Path(path).resolve()
        return resolved.name or str(resolved)
    return path


def _say(summary: dict[str, Any], out: Output) -> None:
    """The summary for people: a few lines, then as many for each ruleset when the records
    mix them."""
    for line in _lines(summary):
        out.line(line)
    for name, part in summary.get("by_ruleset", {}).items():
        out.line(f"ruleset {echo(name)}:")
        for line in _lines(part):
            out.line(f"  {line}")


def _lines(summary: dict[str, Any]) -> list[str]:
    invalid = ", ".join(f"{code} {count}" for code, count in summary["invalid_by_code"].items())
    unfinished = summary["unfinished"]
    apart = f", {unfinished} unfinished, set apart from the per-game figures" if unfinished else ""
    lines = [
        f"{summary['games']} records: {summary['valid']} valid ({summary['complete']} complete"
        f"{apart})" + (f"; invalid or unreadable: {invalid}" if invalid else "")
    ]
    if not summary["complete"]:
        return lines
    turns = summary["turns_per_game"]
    lines.append(
        f"turns per game: mean {turns['mean']:.1f}, median {turns['median']:g}, "
        f"{turns['min']:g} to {turns['max']:g}"
    )
    positions = "  ".join(
        f"{row['position']}: {row['win_rate']:.3f}"
        for row in summary["win_rate_by_position"]
        if row["win_rate"] is not None
    )
    lines.append(f"win rate by position from the first player: {positions}")
    per_game = summary["events_per_game"]
    lines.append(
        "per game: "
        + ", ".join(
            f"{name.replace('_', ' ')} {per_game[name]:g}"
            for name in per_game
            if name not in ("turns", "moves")
        )
    )
    return lines


COMMAND = Command(
    name="stats",
    summary="statistics of a folder of records, with plots",
    description="""\
Replay every record once and sum up: the verdicts by error code, the win rate by seat
and by position from the first player, the scores of each round, the length of the
games in turns, and how often each rule fired (bounces and chain lengths, hazards and
flips, reshuffles, rounds ended early, layouts over the mulligan limit, going out with
the bonus or the penalty). Play statistics are over the valid records: the per-game
figures over the complete games (a valid record that stops early is counted apart, as
unfinished), the per-round ones over every round that ended. A folder that mixes
rulesets gets the same figures for each ruleset's records.

--html writes one self-contained page with the plots (the stats extra: matplotlib);
--out writes rows for pandas or DuckDB (.csv, or .parquet with the stats extra).
Exit status: 0, whatever the records' verdicts.""",
    examples=(
        "gnoming stats examples",
        "gnoming stats examples --html stats.html --out rows.csv",
        "gnoming stats examples --json",
    ),
    arguments=arguments,
    run=run,
    output=StatsDocument,
)

__all__ = ["COMMAND", "StatsDocument"]
