"""``gnoming serve``: run tables over the network (the ``server`` extra, docs/server.md)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import Final, Literal

from typing_extensions import TypedDict

from ..core.errors import UsageError, one_line
from ..extras import need
from .command import Command, seconds
from .output import Output, echo


class ServeDocument(TypedDict):
    """What ``gnoming serve --json`` prints once, when it starts."""

    url: str
    """The page to open, and the base of the HTTP routes."""
    storage: Literal["sqlite", "postgresql"]
    """Where the tables are kept (a PostgreSQL URL is not printed: it may hold a password)."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default="gnoming-tables.sqlite",
        metavar="PATH_OR_URL",
        help="where tables are kept: a SQLite file (default: %(default)s) or a postgresql:// URL",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)"
    )
    parser.add_argument("--port", type=int, default=8000, help="default: %(default)s")
    parser.add_argument("--no-access-log", action="store_true", help="do not log each request")
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="LABEL=COMMAND",
        help="register an external bot (the bot protocol) that a table's seat may then name "
        "by LABEL; repeatable. Clients name labels only, never commands (default: none)",
    )
    parser.add_argument(
        "--bot-move-time",
        type=seconds,
        default=5.0,
        metavar="SECONDS",
        help="an external bot's time for each move (default: 5; 10 more for its first)",
    )


_LABEL: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


def registered_bots(texts: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The ``--bot LABEL=COMMAND`` given: label -> command line (``bad-bot`` for a bot
    that is no ``LABEL=COMMAND``, a label that is a built-in bot's or given twice, or
    has other than letters, digits, ``_``, ``.`` and ``-``, or a program not found)."""
    from ..play.bot_spec import check_runnable, parse_bot
    from ..play.bots import BOTS

    found: dict[str, tuple[str, ...]] = {}
    for text in texts:
        label = text.partition("=")[0].strip()
        spec = parse_bot(text)
        if spec.command is None or "=" not in text or spec.label != label:
            raise UsageError("bad-bot", f"--bot {text!r}: write LABEL=COMMAND")
        if not _LABEL.fullmatch(label) or label in BOTS or label in found:
            raise UsageError(
                "bad-bot",
                f"--bot {text!r}: a label is 1 to 40 letters, digits, '_', '.' or '-', "
                f"neither a built-in bot's ({', '.join(BOTS)}) nor given twice",
            )
        check_runnable(spec)
        found[label] = spec.command
    return found


def run(args: argparse.Namespace, out: Output) -> int:
    need("starlette", "server")
    need("uvicorn", "server")
    from ..server.app import Limits
    from ..server.run import serve
    from ..server.storage import open_storage

    bots = registered_bots(args.bot)  # a bad bot: bad-bot, before anything is served

    postgres = args.db.startswith(("postgresql://", "postgres://"))
    where = "PostgreSQL" if postgres else echo(args.db)  # a URL may hold a password
    try:
        open_storage(args.db).close()  # a database that cannot be opened: say so, one line
    except Exception as error:
        reason = one_line(str(error).strip() or type(error).__name__, 200)
        out.line(f"gnoming: bad-database: cannot open {where}: {reason}", err=True)
        return 2
    url = f"http://{args.host}:{args.port}/"
    if out.json:
        out.data(ServeDocument(url=url, storage="postgresql" if postgres else "sqlite"))
    else:
        out.line(f"gnoming serve: tables in {where}; open {url}", flush=True)
    serve(
        args.db,
        host=args.host,
        port=args.port,
        access_log=not args.no_access_log,
        bots=bots,
        limits=Limits(bot_move_seconds=args.bot_move_time),
    )
    return 0


COMMAND = Command(
    name="serve",
    summary="run tables over the network: HTTP and WebSockets (the server extra)",
    description="""\
Serve tables of Gnoming A Round: create a table over HTTP, take a seat (a secret token),
and play over a WebSocket that sends each seat only what it may see. A browser page at /
plays against bots. Tables and moves are kept in SQLite (a file) or PostgreSQL (a URL);
a restarted server resumes every game. Needs pip install '.[server]'. See
docs/server.md for the protocol and the security model.

--bot LABEL=COMMAND registers an external bot (any program that speaks the bot protocol,
docs/bot-protocol.md) that a table's seat may then name by its label, beside the
built-in random and greedy: a client names a label, never a command. Each such seat runs
its own process, with --bot-move-time a move, killed when the game ends or the server
stops; a bot that fails forfeits its seat to the table's default bot (logged, and listed
in the table's summary), and the game goes on.

Exit status: 0 when stopped; 2 when the extra is missing, a --bot cannot be used or the
database cannot be opened.""",
    examples=(
        "gnoming serve --help",
        "gnoming serve --db no-such-folder/tables.sqlite  # exit status 2",
        "gnoming serve --bot 'rb=python examples/bots/random_bot.py' --db no/such.sqlite  "
        "# exit status 2",
    ),
    arguments=arguments,
    run=run,
    output=ServeDocument,
)

__all__ = ["COMMAND", "ServeDocument"]
