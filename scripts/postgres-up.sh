#!/usr/bin/env bash
# Starts the local PostgreSQL cluster (installing it when missing) and prints
# the server's URL for the role `rackscore`, which may create databases. Used by
# test-postgres.sh and the recording bench. Any step that fails (not root, the
# install, the cluster's start, a server that does not answer) ends the script
# with a message on stderr and a non-zero status, printing no URL.
set -euo pipefail
fail() {
    echo "postgres-up: $*" >&2
    exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root to install and start PostgreSQL (run it as root)"
if [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || fail "apt-get update failed"
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null ||
        fail "could not install the postgresql package"
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
[ -n "$version" ] || fail "no PostgreSQL version under /usr/lib/postgresql"
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -q "^$version main$"; then
    pg_createcluster "$version" main >/dev/null || fail "could not create the cluster $version/main"
fi
if ! pg_ctlcluster "$version" main status >/dev/null 2>&1; then
    pg_ctlcluster "$version" main start >&2 || fail "could not start the cluster $version/main"
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
[ -n "$port" ] || fail "the cluster $version/main has no port"
psql_() { su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -qtA -c \"$1\""; }
ready=0
for _ in $(seq 1 30); do
    if psql_ "SELECT 1" >/dev/null 2>&1; then
        ready=1
        break
    fi
    sleep 1
done
[ "$ready" = 1 ] || fail "the server on port $port does not answer after 30 s"
if [ "$(psql_ "SELECT count(*) FROM pg_roles WHERE rolname = 'rackscore'")" != 1 ]; then
    psql_ "CREATE ROLE rackscore LOGIN PASSWORD 'rackscore' CREATEDB" >/dev/null ||
        fail "could not create the role rackscore"
fi
echo "postgres://rackscore:rackscore@127.0.0.1:$port"
