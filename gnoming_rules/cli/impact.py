"""``gnoming impact A B``: what ruleset B changes against A, in paired games or a corpus."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any, Final

from typing_extensions import TypedDict

from ..formats.rulesets import load_ruleset
from .command import ArgsError, Command, positive
from .output import Output, echo

CHANGES_PRINTED: Final = 20
"""Changed records listed for people (all of them with --json)."""


class DifferenceDocument(TypedDict):
    """One statistic per game: its mean under A and B, and B - A with a 95% interval."""

    name: str
    a: float
    b: float
    difference: float
    low: float
    high: float
    significant: bool


class ChangeDocument(TypedDict):
    """A record whose verdict or result differs under B."""

    path: str
    kind: str
    """``verdict`` or ``result``."""
    reason: str
    why: str


class ImpactDocument(TypedDict):
    """The comparison: paired games (``games``), or a corpus replayed (``records``)."""

    a: str
    b: str
    games: int
    """Pairs compared: games played twice, or records valid under both rulesets."""
    method: str
    differences: list[DifferenceDocument]
    records: int | None
    not_under_a: int | None
    unreadable: int | None
    changes: list[ChangeDocument] | None


def player_range(text: str) -> list[int]:
    """``4`` or ``3-7``: the player counts the games cycle through."""
    found = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if found is None:
        raise argparse.ArgumentTypeError(f"write a count or a range like 3-7, got {text!r}")
    low = int(found[1])
    high = int(found[2] or low)
    if high < low:
        raise argparse.ArgumentTypeError(f"the range {text!r} runs backwards")
    return list(range(low, high + 1))


def bot_list(text: str) -> list[str]:
    """``greedy`` or ``greedy,random`` or ``greedy,rb=python examples/bots/random_bot.py``:
    the seats' bots, in turn, each a name, an external command or ``LABEL=COMMAND``
    (read by :func:`~gnoming_rules.play.bot_spec.parse_bot` when the command runs)."""
    bots = [name.strip() for name in text.split(",")]
    if not all(bots):
        raise argparse.ArgumentTypeError(f"an empty bot in {text!r}")
    return bots


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="the ruleset to compare against (name or path)")
    parser.add_argument("b", metavar="B", help="the ruleset whose effect is measured")
    parser.add_argument(
        "--games", type=positive, default=200, metavar="N", help="paired games (default: 200)"
    )
    parser.add_argument(
        "--players",
        type=player_range,
        default=[3, 4, 5, 6, 7],
        metavar="P",
        help="players per game, a count or a range the games cycle through (default: 3-7)",
    )
    parser.add_argument(
        "--bots",
        type=bot_list,
        default=["greedy"],
        metavar="BOT,...",
        help="the seats' bots in turn: names (greedy, random, search, ismcts), external "
        "commands ('python examples/bots/random_bot.py') or LABEL=COMMAND (default: greedy)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="the first game's seed (default: 0)"
    )
    parser.add_argument(
        "--corpus",
        nargs="+",
        metavar="DIR",
        help="replay these records (files or folders) under A and B instead of playing games",
    )
    parser.add_argument(
        "--html", metavar="REPORT", help="write the report with its plots to this HTML file"
    )
    parser.add_argument(
        "--jobs",
        type=positive,
        default=None,
        metavar="N",
        help="processes that play or replay (default: the CPUs this process may use)",
    )


def run(args: argparse.Namespace, out: Output) -> int:
    from ..corpus.impact import compare, play_pairs, replay_corpus  # not for --help
    from ..corpus.impact_page import METHOD, impact_page
    from ..play.bot_spec import check_runnable, parse_bot
    from ..referee.batch import record_files

    load_ruleset(args.a), load_ruleset(args.b)  # a bad ruleset: one error, first
    bots = [parse_bot(text) for text in args.bots]  # a bad bot: bad-bot, before any game
    for spec in bots:
        check_runnable(spec)
    if args.html is not None and not Path(args.html).resolve().parent.is_dir():
        raise ArgsError(f"{args.html}: the folder {Path(args.html).parent} does not exist")
    replayed = None
    if args.corpus is not None:
        files = [str(path) for path in record_files(args.corpus)]
        if not files:
            raise ArgsError("no record files (.json, .yaml, .yml) found in the folders given")
        progress = out.progress(len(files), unit="records")
        replayed = replay_corpus(files, args.a, args.b, jobs=args.jobs, progress=progress.update)
        pairs = replayed.pairs
        what = (
            f"{len(files):,} records of {', '.join(args.corpus)} replayed under A = {args.a} "
            f"and B = {args.b}; {len(pairs):,} valid under both are compared"
        )
    else:
        progress = out.progress(args.games, unit="games")
        pairs = play_pairs(
            args.a,
            args.b,
            games=args.games,
            players=args.players,
            bots=bots,
            seed=args.seed,
            jobs=args.jobs,
            progress=progress.update,
        )
        labels = ", ".join(spec.label for spec in bots)
        what = (
            f"{len(pairs):,} paired games of {args.players[0]}-{args.players[-1]} players "
            f"({labels} bots, seeds {args.seed} to {args.seed + args.games - 1}) "
            f"under A = {args.a} and B = {args.b}"
        )
    progress.clear()
    differences = compare(pairs)
    if args.html is not None:
        title = f"What {args.b} changes against {args.a}"
        page = impact_page(title, [what], differences, pairs, replayed)
        Path(args.html).write_text(page, encoding="utf-8")
    if out.json:
        document: dict[str, Any] = {
            "a": args.a,
            "b": args.b,
            "games": len(pairs),
            "method": METHOD,
            "differences": [{**_fields(d), "significant": d.significant} for d in differences],
            "records": None if replayed is None else replayed.records,
            "not_under_a": None if replayed is None else replayed.not_under_a,
            "unreadable": None if replayed is None else replayed.unreadable,
            "changes": None
            if replayed is None
            else [
                {"path": c.path, "kind": c.kind, "reason": c.reason, "why": c.why}
                for c in replayed.changes
            ],
        }
        out.data(document)
        return 0
    out.line(echo(what, 400))
    if replayed is not None:
        kinds = [change.kind for change in replayed.changes]
        out.line(
            f"{kinds.count('verdict')} change verdict, {kinds.count('result')} change result; "
            f"left out: {replayed.not_under_a} not played under A, "
            f"{replayed.unreadable} no playable record"
        )
        for change in replayed.changes[:CHANGES_PRINTED]:
            out.line(f"  {echo(change.path)}: {change.kind}: {echo(change.why, 300)}")
        if len(replayed.changes) > CHANGES_PRINTED:
            out.line(f"  ... and {len(replayed.changes) - CHANGES_PRINTED} more (--json lists all)")
    width = max(len(d.name) for d in differences)
    out.line(f"{'per game'.ljust(width)}  {'A':>9} {'B':>9} {'B - A':>9}  95% interval")
    for d in differences:
        mark = " *" if d.significant else ""
        out.line(
            f"{d.name.ljust(width)}  {d.a:9.3f} {d.b:9.3f} {d.difference:+9.3f}  "
            f"[{d.low:+.3f}, {d.high:+.3f}]{mark}"
        )
    out.line("* the interval leaves out 0 (paired bootstrap, 95%)")
    if args.html is not None:
        out.line(f"written: {echo(args.html)}")
    return 0


def _fields(difference: Any) -> dict[str, Any]:
    return {
        "name": difference.name,
        "a": round(difference.a, 6),
        "b": round(difference.b, 6),
        "difference": round(difference.difference, 6),
        "low": round(difference.low, 6),
        "high": round(difference.high, 6),
    }


COMMAND = Command(
    name="impact",
    summary="what a ruleset changes against another, in paired games or a corpus",
    description="""\
Play N games under ruleset A and the same N games under B (the same seeds; the same
deals when the decks are the same), and compare their statistics game by game (those
of gnoming stats), each with a 95% interval from a paired bootstrap. With --corpus,
replay existing records under A and B instead (without their score, result and
ruleset_sha256 claims) and list the records whose verdict or result changes, and why.

--bots takes the names of gnoming play --bot and, as gnoming tournament --bot does,
external programs that speak the bot protocol (docs/bot-protocol.md): each is started
for each of its seats in each game (5 s a move, 10 s more for the first) and ended with
the game. A bot that crashes, runs out of time or answers no legal move stops the
comparison with its error (bot-crashed, bot-timeout, bot-bad-reply, bot-illegal-move),
naming the ruleset and the seed: paired games compare only games played to their end.

Needs the stats extra (numpy; matplotlib for --html). Exit status: 0; 2 for a usage
error, a bot that cannot be run, or a bot that failed.""",
    examples=(
        "gnoming impact standard no-bounce --games 20 --players 3-4",
        "gnoming impact standard two-mulligans --corpus examples --json",
    ),
    arguments=arguments,
    run=run,
    output=ImpactDocument,
)

__all__ = ["COMMAND", "ChangeDocument", "DifferenceDocument", "ImpactDocument"]
