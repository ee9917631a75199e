#!/usr/bin/env bash
# Starts the local PostgreSQL cluster (installing it when missing) and prints
# the server's URL for the role `rackscore`, which may create databases. Used by
# test-postgres.sh and the recording bench. Prints nothing (exit 0) when not
# root: callers then skip PostgreSQL.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || exit 0
if [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_lsclusters -h | awk '{print $1, $2}' | grep -q "^$version main$" || pg_createcluster "$version" main >/dev/null
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true  # already running is fine
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
psql_() { su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -qtA -c \"$1\""; }
for i in $(seq 1 30); do psql_ "SELECT 1" >/dev/null 2>&1 && break; sleep 1; done
[ "$(psql_ "SELECT count(*) FROM pg_roles WHERE rolname = 'rackscore'")" = 1 ] ||
    psql_ "CREATE ROLE rackscore LOGIN PASSWORD 'rackscore' CREATEDB" >/dev/null
echo "postgres://rackscore:rackscore@127.0.0.1:$port"
