"""``gnoming show FILE``: replay a record to a point and draw the table there."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from typing_extensions import TypedDict

from .command import ArgsError, Command, trust_option
from .output import Output, echo
from .replay import target_file
from .validate import ErrorDocument


class ShowDocument(TypedDict):
    """The table at one point of a record, as data."""

    file: str
    ruleset: str
    players: list[str]
    round: int | None
    """The round shown, counted from 0 (``None`` when the record has no round yet)."""
    move: int | None
    """The table is the one just before this move of the round (counted from 0), or after
    the round's last move (``None``)."""
    error: ErrorDocument | None
    """The failure that stopped the replay before that point, if any."""
    next_move: dict[str, Any] | None
    """The record's entry of the move about to be made (``move``), if there is one."""
    to_move: int | None
    """The seat that moves next, ``None`` while chance decides or after the game."""
    state: dict[str, Any] | None
    """The state there, in the saved-state form (``gnoming-state/1``); ``None`` when the
    replay stopped before the round was dealt, or with ``--seat``/``--spectator``."""
    view: dict[str, Any] | None
    """With ``--seat N`` or ``--spectator``: what that seat (or the whole table) sees
    there, in the observation's form (``gnoming-observation/1``); else ``None``."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="FILE", help="one record file")
    parser.add_argument(
        "--round", type=int, metavar="R", help="the round to show (default: the last round)"
    )
    parser.add_argument(
        "--move", type=int, metavar="M", help="stop before move M (default: the end of the round)"
    )
    parser.add_argument(
        "--ruleset",
        metavar="R",
        help="replay under R, a name or a path (default: the ruleset the record names)",
    )
    trust_option(parser)
    views = parser.add_mutually_exclusive_group()
    views.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="draw the table as seat N sees it: face-down cards, the draw pile and another "
        "seat's drawn card hidden (default: the referee's view, every card)",
    )
    views.add_argument(
        "--spectator",
        action="store_true",
        help="draw the table as the whole table sees it (a card just drawn from the draw "
        "pile hidden too)",
    )
    parser.add_argument(
        "--svg", action="store_true", help="draw the table as an SVG picture instead of text"
    )
    parser.add_argument(
        "-o",
        "--out",
        metavar="OUT",
        help="with --svg: the file to write (default: standard output)",
    )


def run(args: argparse.Namespace, out: Output) -> int:
    # The replay and its pictures: imported here, not for --help.
    from ..formats.record import PublicRecord
    from ..formats.snapshot import state_to_dict
    from ..pictures.table import table_svg
    from ..play.observation import observe, stand_in
    from ..play.observation_json import observation_to_dict
    from ..play.render import describe_turn, draw_table
    from ..referee.resolver import RulesetResolver
    from ..referee.validate import replay_file

    label = echo(args.path)
    if not args.svg and args.out is not None:
        raise ArgsError("--out goes with --svg")
    if args.svg and out.json:
        raise ArgsError("--svg draws a picture, --json prints data: give one of them")
    if args.svg and args.spectator:
        raise ArgsError(
            "--svg draws the referee's view or one seat's (--seat N), not a spectator's"
        )
    resolver = RulesetResolver(trusted=args.trust_rulesets)
    whole = replay_file(args.path, ruleset=args.ruleset, resolver=resolver)
    record = whole.record
    if record is None or whole.ruleset is None or whole.state is None:
        # Refused before any move (structure, ruleset, player count, deals): nothing to draw.
        error = whole.verdict.error
        assert error is not None
        out.line(f"gnoming: {label}: {error.code}: {error.message}", err=True)
        return 2
    if not record.rounds:
        if out.json:
            out.data(_document(args.path, whole.ruleset.name, record.players))
            return 0
        out.line(f"{label}: no round has been dealt yet")
        return 0
    last = len(record.rounds) - 1
    round_index = last if args.round is None else args.round
    if not 0 <= round_index <= last:
        raise ArgsError(f"--round {round_index}: the record has rounds 0 to {last}")
    moves = len(record.rounds[round_index].moves)
    move_index = args.move
    if move_index is not None and not 0 <= move_index <= moves:
        raise ArgsError(
            f"--move {move_index}: round {round_index} has {moves} moves: --move 0 to {moves} "
            f"({moves}: after its last move)"
        )
    seats = len(record.players)
    if args.seat is not None and not 0 <= args.seat < seats:
        raise ArgsError(f"--seat {args.seat}: the record has seats 0 to {seats - 1}")
    until = (round_index, move_index)
    replay = replay_file(args.path, ruleset=args.ruleset, resolver=resolver, until=until)
    state, rules = replay.state, replay.ruleset
    viewer = args.seat if args.seat is not None else None
    view = None
    if state is not None and (args.seat is not None or args.spectator):
        view = observe(state, viewer)
        state = stand_in(view)  # what the drawing and the text below may show
    assert rules is not None
    status = 2 if replay.verdict.exit_status == 2 else 0
    error = replay.verdict.error
    names = [echo(name) for name in record.players]
    reached = error.move if error is not None and error.move is not None else move_index
    shown_round = error.round if error is not None and error.round is not None else round_index
    entry = (
        None if replay.entry is None else {k: v for k, v in replay.entry.items() if v is not None}
    )
    if args.svg:
        if replay.state is None:
            out.line(f"gnoming: {label}: the replay stops before the round is dealt", err=True)
            return 2
        marked = _marked(replay.entry) if error is not None else None
        picture = table_svg(
            rules,
            replay.state,
            seat=args.seat,
            names=record.players,
            marked=marked,
            public=isinstance(record, PublicRecord),
        )
        if args.out is None or args.out == "-":
            out.line(picture)
        else:
            target_file(args.out, args.path).write_text(picture + "\n", encoding="utf-8")
        return status
    if view is not None and entry is not None:
        entry.pop("card", None)  # the card the next move shows is not seen yet
    if out.json:
        document = _document(args.path, rules.name, record.players)
        document["round"] = shown_round
        document["move"] = reached
        document["error"] = None if error is None else cast(ErrorDocument, error.to_dict())
        document["next_move"] = entry
        document["to_move"] = None if state is None else state.actor
        document["state"] = None if state is None or view is not None else state_to_dict(state)
        document["view"] = None if view is None else observation_to_dict(view)
        out.data(document)
        return status
    lines = [
        f"{label}: ruleset {echo(rules.name)}, {len(record.players)} players, "
        f"{rules.rounds} round{'s' if rules.rounds > 1 else ''}"
    ]
    if error is not None:
        where = "" if error.round is None else f" at round {error.round}"
        where += "" if error.move is None else f", move {error.move}"
        lines.append(f"the replay stops{where}: {error.code}: {error.message}")
    if state is not None:
        point = "the end" if reached is None else f"move {reached}"
        lines.append(f"round {shown_round}, before {point}: {describe_turn(state, names, rules)}")
        if view is not None:
            seen = "the whole table" if view.seat is None else f"seat {view.seat}"
            lines.append(f"as {seen} sees it: (?) is a card hidden from that view")
        if entry is not None:
            lines.append(f"next move: {json.dumps(entry)}")
        lines += draw_table(rules, state, names)
        lines += [f"round {i} scores: {list(scores)}" for i, scores in enumerate(state.scores)]
    out.line("\n".join(lines))
    return status


def _marked(entry: Mapping[str, Any] | None) -> tuple[int, int] | None:
    """The (seat, slot) a refused move names, outlined in the picture."""
    if entry is None:
        return None
    player, slot = entry.get("player"), entry.get("slot")
    return (player, slot) if isinstance(player, int) and isinstance(slot, int) else None


def _document(path: str, ruleset: str, players: Sequence[str]) -> ShowDocument:
    """The document of a record with no round to show; the caller fills in the point."""
    return {
        "file": path,
        "ruleset": ruleset,
        "players": list(players),
        "round": None,
        "move": None,
        "error": None,
        "next_move": None,
        "to_move": None,
        "state": None,
        "view": None,
    }


COMMAND = Command(
    name="show",
    summary="replay a record to a point and draw the table",
    description="""\
Replay a record up to a point and draw the table there: whose move it is, the move the
record makes next, every layout (face-down cards in parentheses), the piles, the card
held, and the scores of the rounds already finished. Rounds and moves count from 0.

With --seat N the table is drawn as seat N sees it, and with --spectator as the whole
table sees it: a card that view hides is drawn (?), and the next move's card is left out.

If the record fails before that point, the replay stops at the failure and says so.
Exit status: 0, or 2 when the input is not a playable record. With --json, the table
is one line of JSON holding the state in its saved form.

With --svg, the table is an SVG picture (to --out, or standard output): face-down cards
as backs that name their card small at the foot (the referee sees every card), the piles,
the card held, whose move it is, and after a round each layout's sets and score. With
--seat N, the picture shows only what seat N sees. A refused move's slot is outlined.""",
    examples=(
        "gnoming show examples/tiny-game.json --round 1 --move 4",
        "gnoming show examples/tiny-game.json --json",
        "gnoming show examples/tiny-game.json --round 0 --move 6 --seat 1",
        "gnoming show examples/demo-game.json --round 0 --move 20 --svg -o /tmp/position.svg",
        "gnoming show examples/demo-game.json --move 20 --svg --seat 1 -o /tmp/seat-1.svg",
    ),
    arguments=arguments,
    run=run,
    output=ShowDocument,
)

__all__ = ["COMMAND", "ShowDocument"]
