"""The two-node cluster under a tournament's load: start, play, count, stop.

A *run* starts the stack (``cluster.stack``): PostgreSQL and Redis by the
project's scripts, a fresh database, two gunicorn nodes as ``make serve``
starts them (``config/gunicorn.py``, ``serving_settings``: debug off,
whitenoise, ``CLUSTER_WORKERS`` workers each or gunicorn.py's default), the
worker when the project has one, and nginx in front. It migrates, collects
the static files, builds the event (``cluster.event``: 1,000 players at 250
tables) and measures the *anchor* alone (``GET /healthz`` through nginx).
Then the load (``cluster.load``, one asyncio thread): ``CLUSTER_QUIET_S``
seconds of polls only, ``CLUSTER_ENTRY_S`` seconds in which the 250 tables post
their 1,000 games through the match links (``X-Match-Token``,
``Idempotency-Key``; a share ``CLUSTER_REPLAY_SHARE`` of them posted twice
with the same key), then ``CLUSTER_AFTER_S`` seconds of polls; 1,000 phones
poll the standings every 10 s and 4 projectors the screen's state every 5 s
all along, the anchor every 0.25 s beside them. Afterwards the database must
hold exactly the 1,000 games: none *lost*, none *duplicated*.

The table: per kind and phase, count, p50/p95/p99 in ms, errors, and for
polls the share of 304s and the *missed* 304s (a 200 carrying the very ETag
the poll sent). A device's first request (*open*: no ETag yet) is a row of
its own. Bars (issue "Production at scale"): p95 < ``P95_MAX_MS`` for game
posts and polls, no error anywhere, nothing lost or duplicated, no missed
304, and ≥ ``NOT_MODIFIED_MIN`` of the polls answered 304 while nothing
changes (the quiet phase). While games arrive the tournament's version
changes many times between two polls of a phone, so a poll then rightly
gets the new page: the entry and after phases' 304 shares are shown, not
held to that bar. Everything started is stopped at the end, on an error, on
Ctrl-C or SIGTERM. Root only (PostgreSQL's cluster is started as
scripts/postgres-up.sh does). The machine's load average is printed before
and after: other work on it shows in the latencies.

Run it with ``make cluster`` (``make bench`` runs it too).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path
from types import FrameType

from cluster.event import Event, counted, event_build
from cluster.load import (
    ANCHOR,
    GAME,
    KINDS,
    PHASES,
    PHONE_PERIOD_S,
    PHONES,
    PROJECTOR_PERIOD_S,
    PROJECTORS,
    SCREEN,
    STANDINGS,
    Figures,
    Run,
    Tally,
    Timeline,
)
from cluster.stack import (
    BENCH,
    ROOT,
    Stack,
    StackError,
    nginx_up,
    nodes_up,
    postgres_up,
    redis_up,
    worker_up,
)

PLAYERS = 1000
GAMES_PER_MATCH = 4
P95_MAX_MS = 100.0
NOT_MODIFIED_MIN = 0.95
SEED = 21


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    return float(value) if value else default


def node_env(stack: Stack) -> dict[str, str]:
    """What both nodes, the worker and the bench's own Django read."""
    env = {
        **os.environ,
        "DATABASE_URL": stack.database_url,
        "DJANGO_SETTINGS_MODULE": "serving_settings",
        "PYTHONPATH": f"{BENCH}{os.pathsep}{ROOT}",
        "DJANGO_DEBUG": "0",
        # Plain HTTP on the loopback, nginx in front as the TLS proxy would be.
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", "cluster-" + uuid.uuid4().hex * 2),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_PROXY_COUNT": "1",
        "DJANGO_CONN_MAX_AGE": os.environ.get("DJANGO_CONN_MAX_AGE", "60"),
        # Kept between runs (collectstatic then hashes and compresses only what changed).
        "DJANGO_STATIC_ROOT": str(ROOT / ".cache" / "cluster-static"),
        "DJANGO_LOG_LEVEL": "WARNING",
        # Background work queued in the database for the worker, as ``make serve`` does.
        "RACKSCORE_TASKS": "database",
    }
    env.pop("REDIS_URL", None)
    if stack.redis_url:
        env["REDIS_URL"] = stack.redis_url
    return env


def prepare(env: dict[str, str]) -> tuple[Event, str]:
    """In this process, with the nodes' settings: migrate, collect the static
    files, build the event. The default cache's backend, as the nodes use it."""
    os.environ.update(env)
    sys.path[:0] = [str(BENCH), str(ROOT)]
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    event = event_build(players=PLAYERS, games_per_match=GAMES_PER_MATCH, seed=SEED)
    connections.close_all()
    return event, str(settings.CACHES["default"]["BACKEND"]).rsplit(".", 1)[-1]


async def measure(port: int, timeline: Timeline, event: Event, replay_share: float) -> Figures:
    run = Run(port, timeline)
    await run.idle_anchor()
    await run.load(event, seed=SEED, replay_share=replay_share)
    return run.figures


def _row(kind: str, phase: str, tally: Tally) -> tuple[str, bool]:
    """The table's line for (kind, phase), and whether it meets its bars."""
    polls = kind in (STANDINGS, SCREEN)
    share = tally.not_modified / tally.count if tally.count else 0.0
    p95 = tally.percentile(0.95)
    ok = not tally.errors
    if kind in (STANDINGS, SCREEN, GAME):
        ok = ok and p95 < P95_MAX_MS
    if polls:
        ok = ok and not tally.missed and (phase != "quiet" or share >= NOT_MODIFIED_MIN)
    verdict = "" if kind == ANCHOR else "ok" if ok else "MISSED"
    line = (
        f"{kind:15} {phase:6} {tally.count:>6} {tally.percentile(0.5):>7.1f} {p95:>7.1f} "
        f"{tally.percentile(0.99):>7.1f} {tally.errors:>6} "
        + (f"{share:>7.1%} {tally.missed:>6}" if polls else f"{'':>7} {'':>6}")
        + f"  {verdict}"
    )
    if tally.errors:
        line += "\n    answers: " + ", ".join(
            f"{k} × {n}" for k, n in sorted(tally.statuses.items())
        )
    return line, ok or kind == ANCHOR


def report(figures: Figures, *, planned: int, stored: int, distinct: int) -> bool:
    print(
        f"{'kind':15} {'phase':6} {'count':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
        f"{'errors':>6} {'304':>7} {'missed':>6}  verdict"
    )
    ok = True
    for kind in KINDS:
        for phase in PHASES:
            tally = figures.tallies.get((kind, phase))
            if tally is None:
                continue
            line, row_ok = _row(kind, phase, tally)
            ok &= row_ok
            print(line)
    lost = planned - distinct
    duplicated = stored - distinct
    lag = Tally(latencies_ms=figures.lags_ms)
    print(
        f"games: {planned} posted, {stored} stored, {lost} lost, {duplicated} duplicated"
        f"  {'ok' if not lost and not duplicated else 'MISSED'}"
    )
    print(
        f"load generator's lag: p50 {lag.percentile(0.5):.1f} ms, p99 {lag.percentile(0.99):.1f} ms"
    )
    return ok and not lost and not duplicated


def _stopped(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def run(stack: Stack, exits: contextlib.ExitStack) -> bool:
    timeline = Timeline(
        quiet_s=_env_float("CLUSTER_QUIET_S", 30.0),
        entry_s=_env_float("CLUSTER_ENTRY_S", 60.0),
        after_s=_env_float("CLUSTER_AFTER_S", 30.0),
    )
    replay_share = _env_float("CLUSTER_REPLAY_SHARE", 0.05)
    postgres_up(stack, exits)
    redis_up(stack, exits)
    env = node_env(stack)
    event, cache = prepare(env)
    from django.db import connections

    exits.callback(connections.close_all)
    from config.gunicorn import workers_default

    workers = int(os.environ.get("CLUSTER_WORKERS", "0")) or workers_default()
    nodes_up(stack, exits, env=env, workers=workers)
    worker_up(stack, exits, env=env)
    nginx_up(stack, exits)
    print(
        f"{PLAYERS} players at {len(event.tables)} tables, {event.games} games within "
        f"{timeline.entry_s:.0f} s (after {timeline.quiet_s:.0f} s of polls only, then "
        f"{timeline.after_s:.0f} s more); {PHONES} phones poll the standings every "
        f"{PHONE_PERIOD_S:.0f} s, {PROJECTORS} projectors the screen every "
        f"{PROJECTOR_PERIOD_S:.0f} s; {replay_share:.0%} of the games posted twice (same key)"
    )
    print(
        f"nginx :{stack.nginx_port} -> 2 nodes :{stack.node_ports[0]} :{stack.node_ports[1]} "
        f"({workers} gunicorn workers each) -> PostgreSQL + "
        f"{'Redis' if stack.redis_url else 'no Redis'}; default cache {cache}; "
        f"worker: {stack.worker}"
    )
    for note in stack.notes:
        print(note)
    before = os.getloadavg()
    started = time.monotonic()
    figures = asyncio.run(measure(stack.nginx_port, timeline, event, replay_share))
    after = os.getloadavg()
    print(
        f"ran {time.monotonic() - started:.0f} s; load average before "
        f"{before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, after "
        f"{after[0]:.2f} {after[1]:.2f} {after[2]:.2f} (2 cores)"
    )
    down = stack.failed_children()
    stored, distinct = counted(event)
    connections.close_all()
    ok = report(figures, planned=event.games, stored=stored, distinct=distinct)
    if down:
        print(f"exited during the run: {', '.join(down)}")
    if down or (
        stack.worker.startswith("manage.py") and stack.children["worker"].poll() is not None
    ):
        ok = False
    return ok


def main() -> int:
    if os.geteuid() != 0:
        print("cluster: run it as root (PostgreSQL, Redis and nginx are started on this machine)")
        return 1
    # Ctrl-C, SIGTERM and SIGHUP all stop the run (even when started in the
    # background, where a shell ignores SIGINT for its children).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stopped)
    signal.signal(signal.SIGHUP, _stopped)
    workdir = Path(tempfile.mkdtemp(prefix="rackscore-cluster-"))
    # nginx's workers (not root) read their temporary folders in it.
    workdir.chmod(0o755)
    stack = Stack(workdir=workdir)
    exits = contextlib.ExitStack()
    ok = False
    try:
        ok = run(stack, exits)
    except StackError as error:
        print(f"cluster: {error}\n{stack.log_tails()}")
    except KeyboardInterrupt:
        print("cluster: interrupted; stopping everything")
    finally:
        # Nothing interrupts the stopping.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        exits.close()
    if ok:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"cluster: the logs are kept in {workdir}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
