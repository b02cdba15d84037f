"""``gnoming tournament --bot A --bot B ...``: bots play duplicate deals; ratings, an SPRT."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from typing_extensions import TypedDict

from ..core.errors import UsageError
from .command import ArgsError, Command, positive, seconds
from .output import Output, echo


class BotDocument(TypedDict):
    """A bot's line of the results table: its pairwise results and its rating."""

    label: str
    kind: str
    """``builtin`` or ``external``."""
    games: int
    wins: float
    draws: float
    losses: float
    score: float
    """Its share of the pairwise points: (wins + draws / 2) / results."""
    rating: float
    """Elo-like, the bots averaging 0."""
    low: float | None
    high: float | None
    """The 95% interval (``null`` when unbounded: a bot that met no other)."""
    forfeits: int


class SprtDocument(TypedDict):
    """The SPRT between the first two bots: H0 A is elo0 over B, H1 elo1."""

    a: str
    b: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    deals: int
    """The deals it counted (its samples)."""
    llr: float
    lower: float
    upper: float
    decision: str | None
    """``H0``, ``H1``, or ``null`` when the deals ran out first."""


class TournamentDocument(TypedDict):
    """The tournament: where its games are, how many were played or read back, the table."""

    folder: str
    ruleset: str
    ruleset_sha256: str
    players: int
    pairing: str
    games: int
    played: int
    resumed: int
    forfeits: int
    bots: list[BotDocument]
    sprt: SprtDocument | None


def arguments(parser: argparse.ArgumentParser) -> None:
    from ..corpus.tournament import FORMATS

    parser.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="BOT",
        help="a bot: a name (random, greedy, search, ismcts; search:N or ismcts:N for a "
        "budget of N playouts or iterations a decision), an external command "
        "('node examples/bots/random_bot.js') or LABEL=COMMAND; give two or more",
    )
    parser.add_argument(
        "--out", required=True, metavar="DIR", help="the tournament's folder (resumed if there)"
    )
    parser.add_argument(
        "--pairing",
        choices=FORMATS,
        default="round-robin",
        help="round-robin (every two bots) or gauntlet (the first against each other; "
        "default: round-robin)",
    )
    parser.add_argument(
        "--players", type=positive, default=3, metavar="N", help="seats a game (default: 3)"
    )
    parser.add_argument(
        "--deals",
        type=positive,
        default=10,
        metavar="N",
        help="deals a pairing, each played once per rotation of the seats (default: 10)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="deal d has seed S + d (default: 0)"
    )
    parser.add_argument(
        "--ruleset",
        default="standard",
        metavar="R",
        help="the rules, a name or a path (default: standard)",
    )
    parser.add_argument(
        "--move-time",
        type=seconds,
        default=5.0,
        metavar="SECONDS",
        help="an external bot's time for each move (default: 5)",
    )
    parser.add_argument(
        "--startup-time",
        type=seconds,
        default=10.0,
        metavar="SECONDS",
        help="more time for an external bot's first move (default: 10)",
    )
    parser.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("ELO0", "ELO1"),
        help="test the first bot against the second (H0: ELO0 better, H1: ELO1 better) and "
        "stop at the decision; --deals bounds it",
    )
    parser.add_argument(
        "--jobs",
        type=positive,
        default=None,
        metavar="N",
        help="processes that play games (default: the CPUs this process may use)",
    )


def run(args: argparse.Namespace, out: Output) -> int:
    from ..corpus.ratings import Pairwise, fit_ratings, sprt
    from ..corpus.tournament import GameResult, Tournament, parse_bot, run_games, schedule
    from ..formats.rulesets import load_ruleset
    from ..play.external import TimeControl

    specs = tuple(parse_bot(text) for text in args.bot)
    labels = [spec.label for spec in specs]
    if len(specs) < 2:
        raise ArgsError("a tournament needs two --bot or more")
    if len(set(labels)) != len(labels):
        raise ArgsError("two bots have the same label: name them with LABEL=COMMAND")
    if args.sprt is not None and len(specs) != 2:
        raise ArgsError("--sprt tests two bots: give exactly two --bot")
    rules = load_ruleset(args.ruleset)
    compiled = rules.compiled
    if not compiled.min_players <= args.players <= compiled.max_players:
        raise UsageError(
            "bad-setup",
            f"{args.ruleset}: {args.players} players is outside its "
            f"{compiled.min_players} to {compiled.max_players}",
        )
    if Path(args.out).exists() and not Path(args.out).is_dir():
        raise UsageError("bad-tournament", f"{args.out} is not a folder")
    tournament = Tournament(
        bots=specs,
        ruleset=args.ruleset,
        players=args.players,
        seed=args.seed,
        format=args.pairing,
        time_control=TimeControl(args.move_time, args.startup_time),
        folder=Path(args.out),
    )
    deals = schedule(len(specs), args.players, args.deals, args.pairing)
    total = sum(len(games) for games in deals)

    def samples(results: list[GameResult]) -> list[float]:
        by_deal: dict[int, list[Pairwise]] = {}
        for result in results:
            by_deal.setdefault(result.deal, []).extend(result.pairwise())
        found = []
        for pairs in by_deal.values():
            scores = [p.score if p.a == 0 else 1 - p.score for p in pairs]
            if scores:
                found.append(sum(scores) / len(scores))
        return found

    def decided(results: Any) -> bool:
        return sprt(samples(results), *args.sprt).decision is not None

    progress = out.progress(total, unit="games")
    results: list[GameResult] = []
    for result in run_games(
        tournament, deals, jobs=args.jobs, stop=None if args.sprt is None else decided
    ):
        results.append(result)
        progress.update(len(results))
    progress.clear()

    pairs = [pair for result in results for pair in result.pairwise()]
    ratings = fit_ratings(len(specs), pairs)
    table: list[BotDocument] = []
    for number, spec in enumerate(specs):
        mine = [p.score if p.a == number else 1 - p.score for p in pairs if number in (p.a, p.b)]
        wins = float(sum(1 for s in mine if s == 1))
        draws = float(sum(1 for s in mine if s == 0.5))
        rating = ratings[number]
        bounded = rating.low > float("-inf") and rating.high < float("inf")
        table.append(
            {
                "label": spec.label,
                "kind": "builtin" if spec.builtin is not None else "external",
                "games": sum(1 for r in results if number in r.bots),
                "wins": wins,
                "draws": draws,
                "losses": float(len(mine)) - wins - draws,
                "score": round((wins + draws / 2) / len(mine), 6) if mine else 0.0,
                "rating": round(rating.rating, 1),
                "low": round(rating.low, 1) if bounded else None,
                "high": round(rating.high, 1) if bounded else None,
                "forfeits": sum(
                    1
                    for r in results
                    if r.forfeit is not None and r.bots[int(r.forfeit["seat"])] == number
                ),
            }
        )
    test: SprtDocument | None = None
    if args.sprt is not None:
        found = sprt(samples(results), *args.sprt)
        test = {
            "a": labels[0],
            "b": labels[1],
            "elo0": found.elo0,
            "elo1": found.elo1,
            "alpha": found.alpha,
            "beta": found.beta,
            "deals": found.samples,
            "llr": round(found.llr, 4),
            "lower": round(found.lower, 4),
            "upper": round(found.upper, 4),
            "decision": found.decision,
        }
    resumed = sum(1 for r in results if r.resumed)
    document: TournamentDocument = {
        "folder": str(args.out),
        "ruleset": rules.name,
        "ruleset_sha256": rules.sha256,
        "players": args.players,
        "pairing": args.pairing,
        "games": len(results),
        "played": len(results) - resumed,
        "resumed": resumed,
        "forfeits": sum(1 for r in results if r.forfeit is not None),
        "bots": table,
        "sprt": test,
    }
    if out.json:
        out.data(dict(document))
        return 0
    _print(out, document)
    return 0


def _print(out: Output, document: TournamentDocument) -> None:
    out.line(
        f"{document['games']} games ({document['played']} played, {document['resumed']} "
        f"resumed) of {document['players']} players, ruleset {echo(document['ruleset'])}, "
        f"{document['pairing']}; records in {echo(document['folder'])}"
    )
    width = max(12, *(len(echo(bot["label"], 40)) for bot in document["bots"]))
    out.line(
        f"{'bot'.ljust(width)} {'games':>5} {'W':>5} {'D':>5} {'L':>5} {'score':>6} "
        f"{'rating':>7}  95% interval  forfeits"
    )
    ranked = sorted(document["bots"], key=lambda bot: -bot["rating"])
    for bot in ranked:
        low, high = bot["low"], bot["high"]
        interval = "unbounded" if low is None or high is None else f"[{low:+.0f}, {high:+.0f}]"
        out.line(
            f"{echo(bot['label'], 40).ljust(width)} {bot['games']:5d} {bot['wins']:5.0f} "
            f"{bot['draws']:5.0f} {bot['losses']:5.0f} {bot['score']:6.3f} "
            f"{bot['rating']:+7.0f}  {interval:<13} {bot['forfeits']}"
        )
    out.line("W/D/L: pairwise results (each two seats of different bots in a game)")
    test = document["sprt"]
    if test is not None:
        verdict = {
            "H1": f"H1 accepted: {echo(test['a'], 40)} is about {test['elo1']:+g} Elo over "
            f"{echo(test['b'], 40)}",
            "H0": f"H0 accepted: {echo(test['a'], 40)} is not {test['elo1']:+g} Elo over "
            f"{echo(test['b'], 40)} (nearer {test['elo0']:+g})",
        }.get(test["decision"] or "", "no decision: the deals ran out first")
        out.line(
            f"SPRT after {test['deals']} deals: LLR {test['llr']:+.2f} in "
            f"[{test['lower']:.2f}, {test['upper']:.2f}]; {verdict}"
        )


COMMAND = Command(
    name="tournament",
    summary="bots (built-in or external programs) play duplicate deals; ratings, SPRT",
    description="""\
Play a tournament between bots: built-in ones by name, or any program that speaks the
bot protocol (JSON lines on its standard input and output: docs/bot-protocol.md). Each
deal is played once per rotation of the seats, so that every bot plays the same cards
from every seat. Every game is written to DIR/games as a record and validated, beside a
result file; a run in a folder that holds the same tournament skips the games already
there. A bot that crashes, runs out of time, writes a line that is no move or makes an
illegal move loses that game by forfeit. The table gives each bot's pairwise results and
an Elo-like rating with its 95% interval; --sprt stops a match at the test's decision.

Exit status: 0; 2 for a usage error, a bot that cannot be run, or a folder that holds
another tournament.""",
    examples=(
        "gnoming tournament --bot greedy --bot random --deals 2 --out tour",
        "gnoming tournament --bot greedy --bot 'js=node examples/bots/random_bot.js' "
        "--deals 1 --out tour-js --json",
    ),
    arguments=arguments,
    run=run,
    output=TournamentDocument,
)

__all__ = ["COMMAND", "BotDocument", "SprtDocument", "TournamentDocument"]
