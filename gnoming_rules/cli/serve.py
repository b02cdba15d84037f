"""``gnoming serve``: run tables over the network (the ``server`` extra, docs/server.md)."""

from __future__ import annotations

import argparse
from typing import Literal

from typing_extensions import TypedDict

from ..core.errors import one_line
from ..extras import need
from .command import Command
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


def run(args: argparse.Namespace, out: Output) -> int:
    need("starlette", "server")
    need("uvicorn", "server")
    from ..server.run import serve
    from ..server.storage import open_storage

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
    serve(args.db, host=args.host, port=args.port, access_log=not args.no_access_log)
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

Exit status: 0 when stopped; 2 when the extra is missing or the database cannot be opened.""",
    examples=(
        "gnoming serve --help",
        "gnoming serve --db no-such-folder/tables.sqlite  # exit status 2",
    ),
    arguments=arguments,
    run=run,
    output=ServeDocument,
)

__all__ = ["COMMAND", "ServeDocument"]
