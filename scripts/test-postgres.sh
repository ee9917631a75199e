#!/usr/bin/env bash
# Runs the test suite against PostgreSQL (the database for larger
# installations): installs and starts a local cluster when needed, creates a
# role that may create the test databases, then runs pytest with DATABASE_URL.
# When PostgreSQL cannot be installed, started or reached, it fails (non-zero,
# with the reason): a run that skipped PostgreSQL must not pass as one that
# tested it.
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
echo "running the tests against PostgreSQL at ${server#*@}"
.venv/bin/pytest -n auto -m "not browser" "$@"
