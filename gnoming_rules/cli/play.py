"""``gnoming play --players N``: a whole game with bots, written as a record."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from typing_extensions import TypedDict

from ..core.errors import GnomingError
from ..core.ruleset import load_ruleset, looks_like_path
from ..formats.record import dump_record, write_record
from ..play.bots import NAMES, play_game
from ..play.render import seat_name
from .command import Command, UsageError
from .output import Output, echo


class PlayDocument(TypedDict):
    """The game played: what the summary for people shows, and where the record went."""

    seed: int
    ruleset: str
    """The ruleset's name."""
    ruleset_sha256: str
    bot: str
    players: list[str]
    first_player: int
    scores: list[list[int]]
    """Each round's scores per seat, rounds counted from 0."""
    totals: list[int]
    winners: list[int]
    moves: int
    out: str | None
    """The record file written, or ``None`` for ``--out -`` (the record is on standard output)."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=int,
        required=True,
        metavar="N",
        help="number of seats, within the ruleset's players.min and players.max",
    )
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="the game's seed (default: random)"
    )
    parser.add_argument(
        "--ruleset", default="standard", metavar="R", help="name or path (default: %(default)s)"
    )
    parser.add_argument(
        "--bot",
        choices=("random", "greedy"),
        default="greedy",
        help="who plays every seat (default: %(default)s)",
    )
    parser.add_argument(
        "--out",
        metavar="F",
        help="record file (.json/.yaml), - for standard output (default: gnoming-game-S.json, "
        "S the seed)",
    )
    parser.add_argument(
        "--names",
        metavar="A,B,...",
        help=f"player names in seat order, comma-separated (default: {','.join(NAMES)})",
    )
    parser.add_argument("--no-claims", action="store_true", help="write no card/score claims")


def run(args: argparse.Namespace, out: Output) -> int:
    rules = load_ruleset(args.ruleset)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    names = [name.strip() for name in args.names.split(",")] if args.names else None
    if names is not None and len(names) != args.players:
        raise UsageError(f"--names gives {len(names)} names for {args.players} players")
    target = args.out or f"gnoming-game-{seed}.json"
    to_stdout = target == "-"
    if not to_stdout and not Path(target).resolve().parent.is_dir():
        raise UsageError(f"--out {echo(target)}: the folder {echo(str(Path(target).parent))} "
                         "does not exist")  # fmt: skip
    folder = Path.cwd() if to_stdout else Path(target).parent
    reference = ruleset_reference(args.ruleset, folder)
    try:
        record, state = play_game(
            rules,
            args.players,
            seed=seed,
            bot=args.bot,
            names=names,
            ruleset_ref=reference,
            claims=not args.no_claims,
        )
    except GnomingError as error:
        if error.code == "bad-setup":
            raise UsageError(error.message) from None
        raise
    seats = record.players
    moves = sum(len(round_.moves) for round_ in record.rounds)
    if to_stdout:
        out.stdout.write(dump_record(record))
    else:
        write_record(record, target)
    if out.json:
        document: PlayDocument = {
            "seed": seed,
            "ruleset": rules.name,
            "ruleset_sha256": rules.sha256,
            "bot": args.bot,
            "players": list(seats),
            "first_player": record.first_player,
            "scores": [list(scores) for scores in state.scores],
            "totals": list(state.totals),
            "winners": list(state.winners),
            "moves": moves,
            "out": None if to_stdout else target,
        }
        out.data(document, err=to_stdout)
        return 0
    shown = [echo(name) for name in seats]
    lines = [
        f"seed {seed}: {len(seats)} players, ruleset {echo(rules.name)}, {args.bot} bots, "
        f"{seat_name(record.first_player, shown)} starts"
    ]
    width = max(5, *(len(name) for name in shown))
    lines.append("         " + "  ".join(name.rjust(width) for name in shown))
    for index, scores in enumerate(state.scores):
        cells = "  ".join(str(score).rjust(width) for score in scores)
        lines.append(f"round {index}: {cells}")
    cells = "  ".join(str(total).rjust(width) for total in state.totals)
    lines.append(f"totals:  {cells}")
    winners = ", ".join(seat_name(seat, shown) for seat in state.winners)
    lines.append(f"{'winner' if len(state.winners) == 1 else 'winners'}: {winners}")
    if not to_stdout:
        lines.append(f"record written to {echo(target)} ({moves} moves)")
    out.line("\n".join(lines), err=to_stdout)
    return 0


def ruleset_reference(given: str, record_folder: Path) -> str:
    """What a written record names: the bundled name, or the path from the record's folder."""
    if not looks_like_path(given):
        return given
    return os.path.relpath(Path(given).resolve(), record_folder.resolve())


COMMAND = Command(
    name="play",
    summary="play a game with bots and write its record",
    description="""\
Play a whole game with bots and write its record: every deal and reshuffle, every
move, the rules' hash and (unless --no-claims) every claim, so that gnoming validate
accepts it. Everything follows from the seed, which is printed.

Exit status: 0 when the record is written, 2 for a usage error or a ruleset that
cannot be used. With --json, the summary is one line of JSON (on standard error when
--out - puts the record on standard output).""",
    examples=(
        "gnoming play --players 4 --seed 2026 --out game.json",
        "gnoming play --players 3 --seed 5 --bot random --ruleset quick --out - --json",
    ),
    arguments=arguments,
    run=run,
    output=PlayDocument,
)

__all__ = ["COMMAND", "PlayDocument", "ruleset_reference"]
