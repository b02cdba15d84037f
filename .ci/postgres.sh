#!/usr/bin/env bash
# Start a throwaway PostgreSQL (Debian's package) on loopback for the server's tests, and print
# its URL: export GNOMING_POSTGRES_URL="$(bash .ci/postgres.sh)". Installs the package if missing.
# The cluster lives in a temporary folder owned by the postgres user; `pg_ctl stop -D` it after.
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
port="${GNOMING_POSTGRES_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
data="$(mktemp -d /tmp/gnoming-postgres.XXXXXX)"
if [ "$(id -u)" = 0 ]; then chown postgres "$data"; fi
run() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
run "'$bin/initdb' -D '$data/db' -U postgres --auth=trust -E UTF8 >/dev/null" >&2
run "'$bin/pg_ctl' -D '$data/db' -l '$data/log' -w -o \"-c listen_addresses=127.0.0.1 -p $port -k '$data'\" start >/dev/null" >&2
echo "postgresql://postgres@127.0.0.1:$port/postgres"
