"""``gnoming serve``: real tables over the network, hidden cards kept hidden (docs/server.md).

An optional extra (``pip install '.[server]'``: Starlette, uvicorn,
websockets, psycopg): ``import gnoming_rules`` never imports it. The modules, one concept
each: :mod:`~.storage` (SQLite or PostgreSQL), :mod:`~.committer` (group commit: many
tables' steps to a transaction), :mod:`~.spec` (a new table's request),
:mod:`~.table` (a table's state, seats and moves), :mod:`~.pool` (the bots' worker
processes), :mod:`~.reading` (the one strict reader of what a client sends),
:mod:`~.protocol` (the socket's messages), :mod:`~.app` (the ASGI application),
:mod:`~.page` (the browser's page and its security headers), :mod:`~.run` (serving it
with uvicorn).
"""

__all__: list[str] = []
