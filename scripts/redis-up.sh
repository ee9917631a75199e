#!/usr/bin/env bash
# Starts the local Redis server (installing Debian's redis-server when missing)
# as a cache that evicts its least recently used keys past REDIS_MAXMEMORY
# (256mb unless set), and prints its URL (redis://127.0.0.1:6379). Used by
# test-postgres.sh (the suite's caches in Redis) and by a local cluster. Any
# step that fails (not root, the install, the start, a server that does not
# answer) ends the script with a message on stderr and a non-zero status,
# printing no URL.
set -euo pipefail
fail() {
    echo "redis-up: $*" >&2
    exit 1
}
port=6379
[ "$(id -u)" -eq 0 ] || fail "needs root to install and start Redis (run it as root)"
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || fail "apt-get update failed"
    apt-get install -y -qq --no-install-recommends redis-server >/dev/null ||
        fail "could not install the redis-server package"
fi
answers() { [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ]; }
if ! answers; then
    # Debian's init script runs it as the redis user, with /etc/redis/redis.conf.
    if [ -x /etc/init.d/redis-server ]; then
        /etc/init.d/redis-server start >&2 || fail "could not start redis-server"
    else
        redis-server --port "$port" --bind 127.0.0.1 --daemonize yes >&2 ||
            fail "could not start redis-server"
    fi
fi
ready=0
for _ in $(seq 1 30); do
    if answers; then
        ready=1
        break
    fi
    sleep 1
done
[ "$ready" = 1 ] || fail "the server on port $port does not answer after 30 s"
# A cache, never a store: past its memory it drops the least recently used keys
# instead of refusing writes.
redis-cli -p "$port" config set maxmemory "${REDIS_MAXMEMORY:-256mb}" >/dev/null ||
    fail "could not set maxmemory"
redis-cli -p "$port" config set maxmemory-policy allkeys-lru >/dev/null ||
    fail "could not set maxmemory-policy"
echo "redis://127.0.0.1:$port"
