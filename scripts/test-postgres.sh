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
server=$(bash scripts/postgres-up.sh)
export DATABASE_URL="$server/rackscore"
echo "running the tests against PostgreSQL at ${server#*@}"
.venv/bin/pytest -n auto -m "not browser" "$@"
