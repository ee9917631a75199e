#!/usr/bin/env bash
# Runs the test suite against PostgreSQL (the database for larger
# installations): installs and starts a local cluster when needed, creates a
# role that may create the test databases, then runs pytest with DATABASE_URL.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then
    echo "test-postgres: needs root to install and start PostgreSQL; skipped" >&2
    exit 0
fi
if [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_lsclusters -h | awk '{print $1, $2}' | grep -q "^$version main$" || pg_createcluster "$version" main >/dev/null
pg_ctlcluster "$version" main start 2>/dev/null || true  # already running is fine
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
psql_() { su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -qtA -c \"$1\""; }
for i in $(seq 1 30); do psql_ "SELECT 1" >/dev/null 2>&1 && break; sleep 1; done
[ "$(psql_ "SELECT count(*) FROM pg_roles WHERE rolname = 'rackscore'")" = 1 ] ||
    psql_ "CREATE ROLE rackscore LOGIN PASSWORD 'rackscore' CREATEDB"
export DATABASE_URL="postgres://rackscore:rackscore@127.0.0.1:$port/rackscore"
echo "running the tests against PostgreSQL $version (port $port)"
.venv/bin/pytest -n auto -m "not browser" "$@"
