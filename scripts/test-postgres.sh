#!/usr/bin/env bash
# Runs the test suite against PostgreSQL and Redis (the database and the cache
# of larger installations): installs and starts a local cluster and Redis
# server when needed, creates a role that may create the test databases, then
# runs pytest with DATABASE_URL and REDIS_URL. When PostgreSQL or Redis cannot
# be installed, started or reached, it fails (non-zero, with the reason): a run
# that skipped them must not pass as one that tested them.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! server=$(bash scripts/postgres-up.sh); then
    echo "test-postgres: FAILED: PostgreSQL is not available (see above); no test was run" >&2
    exit 1
fi
if [ -z "$server" ]; then
    echo "test-postgres: FAILED: scripts/postgres-up.sh gave no server URL; no test was run" >&2
    exit 1
fi
export DATABASE_URL="$server/rackscore"
# The caches in Redis, as several nodes keep them (config.caches); each test
# process takes a database of its own (tests/conftest.py).
if ! cache=$(bash scripts/redis-up.sh) || [ -z "$cache" ]; then
    echo "test-postgres: FAILED: Redis is not available (see above); no test was run" >&2
    exit 1
fi
export REDIS_URL="$cache"
echo "running the tests against PostgreSQL at ${server#*@}, caches in Redis at ${cache#redis://}"
# One process more than the cores (the Makefile's TEST_WORKERS): while one waits
# on the server, another computes.
workers="${TEST_WORKERS:-$(( $(nproc) + 1 ))}"
.venv/bin/pytest -n "$workers" --dist worksteal -m "not browser" "$@"
