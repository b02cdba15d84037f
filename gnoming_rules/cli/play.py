"""``gnoming play --players N``: a whole game with bots, written as a record."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from typing_extensions import TypedDict

from ..core.errors import GnomingError
from ..core.moves import Deal, Move, Reshuffle
from ..core.state import State
from ..formats.record import dump_record, write_record
from ..formats.rulesets import load_ruleset
from ..pictures.frames import describe_move
from ..play.bots import BOTS, NAMES, Bot, default_names, play_game
from ..play.observation import observe, stand_in
from ..play.render import seat_name
from .command import ArgsError, Command
from .human import TerminalPlayer
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
        choices=tuple(BOTS),
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
    parser.add_argument(
        "--human",
        type=int,
        action="append",
        metavar="SEAT",
        help="a person plays seat SEAT, typing moves at the terminal (repeat for more "
        "people; the bots play the other seats)",
    )


def run(args: argparse.Namespace, out: Output) -> int:
    rules = load_ruleset(args.ruleset)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    names = [name.strip() for name in args.names.split(",")] if args.names else None
    if names is not None and len(names) != args.players:
        raise ArgsError(f"--names gives {len(names)} names for {args.players} players")
    target = args.out or f"gnoming-game-{seed}.json"
    to_stdout = target == "-"
    if not to_stdout and not Path(target).resolve().parent.is_dir():
        raise ArgsError(f"--out {echo(target)}: the folder {echo(str(Path(target).parent))} "
                         "does not exist")  # fmt: skip
    humans = sorted(set(args.human or ()))
    if humans and (to_stdout or out.json):
        raise ArgsError("--human talks on standard output: it takes neither --out - nor --json")
    if (humans and not 0 <= humans[-1] < args.players) or (humans and humans[0] < 0):
        raise ArgsError(f"--human: seats are 0 to {args.players - 1}, got {humans}")
    seat_names = names if names is not None else default_names(args.players)
    shown_names = [echo(name) for name in seat_names]
    people: dict[int, Bot] = {
        seat: TerminalPlayer(seat, shown_names, _read_line, _say(out)) for seat in humans
    }
    try:
        record, state = play_game(
            rules,
            args.players,
            seed=seed,
            bot=args.bot,
            names=seat_names,
            ruleset_ref=None,  # a bundled ruleset by name, any other inline: it travels
            claims=not args.no_claims,
            agents=people,
            watch=_narrator(out, humans, shown_names) if humans else None,
        )
    except GnomingError as error:
        if error.code == "bad-setup":
            raise ArgsError(error.message) from None
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
    lines.append(f"{'winner' if len(state.winners) == 1 else 'winners'}: {winners or 'none yet'}")
    if not state.is_over:
        lines.append(f"the game stopped in round {state.round}: the record is incomplete")
    if not to_stdout:
        lines.append(f"record written to {echo(target)} ({moves} moves)")
    out.line("\n".join(lines), err=to_stdout)
    return 0


def _read_line() -> str | None:
    """The next line of standard input, ``None`` at its end."""
    line = sys.stdin.readline()
    return line if line else None


def _say(out: Output) -> Callable[[str], None]:
    """Print and flush: a person (or a program on a pipe) answers what is shown."""
    return lambda text: out.line(text, flush=True)


def _narrator(out: Output, humans: list[int], names: list[str]) -> Callable[[Move, State], None]:
    """Tells the people at the table what the others and the cards do, in the replay
    page's words (:func:`~gnoming_rules.pictures.frames.describe_move`) and with only the
    cards the table saw: the state after a move is read as a spectator sees it, so a card
    a bot drew from the draw pile stays "a card" until it is played or discarded."""

    finished = [0]
    last: list[State] = []
    seats = [seat_name(seat, names) for seat in range(len(names))]  # "seat 1 (Bo)"

    def tell(move: Move, after: State) -> None:
        if isinstance(move, Deal):
            out.line(f"round {after.round} is dealt", flush=True)
        elif isinstance(move, Reshuffle):
            out.line("the discard piles are shuffled into a new draw pile", flush=True)
        elif move.player not in humans and last:
            seen = stand_in(observe(after))
            out.line(describe_move(move, last[0], seen, seats), flush=True)
        last[:] = [after]
        if len(after.scores) > finished[0]:
            finished[0] = len(after.scores)
            out.line(
                f"round {finished[0] - 1} is over: scores {list(after.scores[-1])}", flush=True
            )

    return tell


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

__all__ = ["COMMAND", "PlayDocument"]
