"""How well the search bot plays: its win rate against the greedy and the random bots.

Each pairing plays ``--games`` whole games (200 by default) at tables of ``--players``
seats: one :class:`~gnoming_rules.play.search.SearchBot` and the other seats played by
the opponent bot. The search bot's seat turns with the game number, so every seat is
tried as often; game ``k`` deals from seed ``k``. A game won by several seats counts a
share to each. For each pairing the script prints the search bot's win rate with a 95%
Wilson interval (a seat that played no better than the others would win ``1/players``
of the games), its average total against the average of the other seats, its time per
decision (median and 95th percentile, over the decisions that searched) and the playouts
a decision ran (median: under a time budget, the budget in simulations it came to on
this machine at its load). ``--jobs`` plays the games in that many processes.

Usage: ``python benchmarks/bots.py [--games 200] [--players 3] [--milliseconds 50]
[--simulations N] [--candidates K] [--opponents greedy,random] [--ruleset standard]
[--jobs 1]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import gnoming_rules as gr
from gnoming_rules.play.bots import Bot, make_bot, play_game
from gnoming_rules.play.observation import Observation
from gnoming_rules.play.search import SearchBot


class TimedBot:
    """A bot whose decisions are timed (those that searched: more than one legal move)."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.playouts: list[int] = []

    def choose(self, ruleset: gr.Ruleset, observation: Observation) -> gr.PlayerMove:
        start = time.perf_counter()
        move = self.bot.choose(ruleset, observation)
        if self.bot.last_simulations:
            self.times.append(time.perf_counter() - start)
            self.playouts.append(self.bot.last_simulations)
        return move


@dataclass
class Pairing:
    """The tally of one pairing."""

    opponent: str
    wins: float = 0.0
    games: int = 0
    margins: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    playouts: list[int] = field(default_factory=list)

    def add(self, other: Pairing) -> None:
        self.wins += other.wins
        self.games += other.games
        self.margins += other.margins
        self.times += other.times
        self.playouts += other.playouts


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play_games(opponent: str, games: range, args: argparse.Namespace, seed_offset: int) -> Pairing:
    """Games ``games`` of one pairing (game ``k`` deals from seed ``k``)."""
    rules = gr.load_ruleset(args.ruleset)
    tally = Pairing(opponent)
    for game in games:
        seat = game % args.players
        searcher = TimedBot(
            SearchBot(
                seed=seed_offset + game,
                simulations=args.simulations,
                milliseconds=args.milliseconds,
                **({} if args.candidates is None else {"candidates": args.candidates}),
            )
        )
        agents: dict[int, Bot] = {seat: searcher}
        _, final = play_game(
            rules,
            args.players,
            seed=game,
            bot=opponent,  # type: ignore[arg-type]
            agents=agents,
        )
        winners = final.winners
        tally.wins += 1 / len(winners) if seat in winners else 0.0
        tally.games += 1
        totals = final.totals
        others = (sum(totals) - totals[seat]) / (args.players - 1)
        tally.margins.append(others - totals[seat])
        tally.times += searcher.times
        tally.playouts += searcher.playouts
        if args.progress:
            print(f"  {opponent} game {game + 1}: win rate {tally.wins / tally.games:.3f}")
    return tally


def play_pairing(opponent: str, args: argparse.Namespace, seed_offset: int) -> Pairing:
    """All the games of one pairing, in ``args.jobs`` processes (each a share of them)."""
    jobs = max(1, args.jobs)
    shares = [range(start, args.games, jobs) for start in range(jobs)]
    tally = Pairing(opponent)
    if jobs == 1:
        tally.add(play_games(opponent, shares[0], args, seed_offset))
        return tally
    with ProcessPoolExecutor(jobs) as pool:
        for part in pool.map(play_games, [opponent] * jobs, shares, [args] * jobs,
                             [seed_offset] * jobs):  # fmt: skip
            tally.add(part)
    return tally


def report(tally: Pairing, players: int) -> str:
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games
    margin = statistics.fmean(tally.margins)
    error = 1.96 * statistics.stdev(tally.margins) / math.sqrt(len(tally.margins))
    times = sorted(tally.times)
    median = statistics.median(times) * 1000 if times else 0.0
    p95 = times[int(0.95 * (len(times) - 1))] * 1000 if times else 0.0
    playouts = statistics.median(tally.playouts) if tally.playouts else 0
    return (
        f"search vs {tally.opponent}: {tally.games} games, win rate {rate:.3f} "
        f"(95% CI {low:.3f} to {high:.3f}; an equal seat wins {1 / players:.3f}); "
        f"total {margin:+.1f} points better than the others' average (+-{error:.1f}); "
        f"{median:.1f} ms a decision (95th percentile {p95:.1f} ms, {len(times)} decisions; "
        f"a median of {playouts:g} playouts a decision)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--milliseconds", type=float, default=50.0)
    parser.add_argument("--simulations", type=int, default=None)
    parser.add_argument("--opponents", default="greedy,random")
    parser.add_argument("--candidates", type=int, default=None, help="plays tried a decision")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    parser.add_argument("--progress", action="store_true", help="print each game's tally")
    args = parser.parse_args()
    if args.milliseconds <= 0:
        args.milliseconds = None
    gr.load_ruleset(args.ruleset)  # refuses an unknown ruleset before any game
    budget = (f"{args.simulations} playouts" if args.simulations else "") + (
        f" {args.milliseconds:g} ms" if args.milliseconds else ""
    )
    print(f"{args.ruleset}, {args.players} seats, search budget:{budget} a move")
    for index, opponent in enumerate(args.opponents.split(",")):
        make_bot(opponent, random.Random(0))  # refuses an unknown bot before any game
        tally = play_pairing(opponent, args, seed_offset=1000 * (index + 1))
        print(report(tally, args.players))


if __name__ == "__main__":
    main()
