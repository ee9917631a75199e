"""Recording games under load, served as ``make serve`` serves them.

A *run* starts gunicorn as ``make serve`` does (config/gunicorn.py, over
``serving_settings``: debug off, whitenoise, its default workers or ``BENCH_WORKERS``) on a
fresh database, then
``CLIENTS`` threads, each with one keep-alive connection, post ``GAMES``
games through ``POST /api/v1/matches/<id>/games/`` along each *path*: as the
tables' phones do (*table links*: the match token in ``X-Match-Token``), and
as an organiser's desk does (*organiser*: ``Authorization: Token <key>``), each
into a tournament of its own, with an ``Idempotency-Key`` and the game's
number on every request. Afterwards the database must hold exactly those
games (none *lost*, none *duplicated*) and every answer must be 201. The
*anchor* is the bare POST (``serving_urls``) posted by the same clients to
the same gunicorn in the same run. Each database (SQLite, and PostgreSQL when
the bench may start a local cluster) is measured ``RUNS`` times; the table
shows medians. Bars, on each path: ``RATE_MIN`` games/s and p95 under ``P95_MAX_MS``.

Run it with ``make bench`` or ``python bench/bench_recording.py``.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
from config.gunicorn import workers_default  # noqa: E402

WORKERS = int(os.environ.get("BENCH_WORKERS", "0")) or workers_default()
CLIENTS = 16
GAMES = 2000
RUNS = int(os.environ.get("BENCH_RUNS", "3"))  # fewer for a quick look
RATE_MIN = 200.0
P95_MAX_MS = 100.0
PLAYERS = GAMES  # one round of GAMES // 4 tables of 4, four games each
# Each path records into its own tournament: (label, slug prefix).
PATHS = (("table links", "load"), ("organiser", "desk"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------- the database (child)


def build(runs: int) -> tuple[str, list[dict[str, list[dict[str, Any]]]]]:
    """Migrate, then per run one tournament per path, each with one seated
    round; the organiser's API token, and the requests of each run and path
    (every game of every table)."""
    import django
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction

    django.setup()
    from rest_framework.authtoken.models import Token

    from tournaments.models import Club, Entry, Match, Player, Round, Seat, Tournament

    call_command("migrate", verbosity=0)
    key = (
        "INTEGER PRIMARY KEY AUTOINCREMENT"
        if connection.vendor == "sqlite"
        else "SERIAL PRIMARY KEY"
    )
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE bench_bare (id {key}, match INTEGER, number INTEGER)")
    rng = random.Random(11)
    plans: list[dict[str, list[dict[str, Any]]]] = [{} for _ in range(runs)]
    with transaction.atomic():
        owner = get_user_model().objects.create(username="bench")
        token = Token.objects.create(user=owner).key
        club = Club.objects.create(name="Bench club", slug="bench-club")
        players = Player.objects.bulk_create(
            Player(name=f"Player {i:04d}", club=club) for i in range(PLAYERS)
        )
        for run, (_label, prefix) in ((r, p) for r in range(runs) for p in PATHS):
            t = Tournament.objects.create(
                name=f"{prefix} {run}",
                slug=f"{prefix}-{run}",
                owner=owner,
                rounds=1,
                games_per_round=4,
            )
            Entry.objects.bulk_create(Entry(tournament=t, player=p) for p in players)
            round_ = Round.objects.create(tournament=t, number=1, games_per_match=4)
            matches = Match.objects.bulk_create(
                Match(round=round_, table=i + 1) for i in range(PLAYERS // 4)
            )
            Seat.objects.bulk_create(
                Seat(match=matches[i // 4], round=round_, player=p, position=i % 4 + 1)
                for i, p in enumerate(players)
            )
            seats = {
                m.pk: [p.pk for p in players[i * 4 : i * 4 + 4]] for i, m in enumerate(matches)
            }
            # Game 1 of every table, then game 2, ...: as a room plays.
            plans[run][prefix] = [
                {
                    "match": m.pk,
                    "token": m.token,
                    "number": number,
                    "body": {
                        "number": number,
                        "ending": "rummikub",
                        "racks": [
                            {"player": pid, "tiles": ""}
                            if seat == 0
                            else {"player": pid, "points": rng.randint(1, 60), "jokers": 0}
                            for seat, pid in enumerate(seats[m.pk])
                        ],
                    },
                }
                for number in range(1, 5)
                for m in matches
            ]
    return token, plans


def counted(tournament_slug: str) -> tuple[int, int]:
    """Games stored in the tournament, and distinct (match, number) among them."""
    from tournaments.models import Game

    games = Game.objects.filter(match__round__tournament__slug=tournament_slug)
    return games.count(), games.values("match_id", "number").distinct().count()


# ------------------------------------------------------------------------------ load


def load(port: int, jobs: list[tuple[str, dict[str, str], bytes]]) -> dict[str, Any]:
    """Post every job through CLIENTS keep-alive connections; rate, p95, statuses."""
    todo: queue.SimpleQueue[tuple[str, dict[str, str], bytes]] = queue.SimpleQueue()
    for job in jobs:
        todo.put(job)
    latencies: list[float] = []
    statuses: dict[int | str, int] = {}
    lock = threading.Lock()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        seen: dict[int | str, int] = {}
        while True:
            try:
                path, headers, body = todo.get_nowait()
            except queue.Empty:
                break
            start = time.perf_counter()
            try:
                conn.request("POST", path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                code: int | str = response.status
            except (OSError, http.client.HTTPException) as error:
                code = type(error).__name__
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine.append((time.perf_counter() - start) * 1000)
            seen[code] = seen.get(code, 0) + 1
        conn.close()
        with lock:
            latencies.extend(mine)
            for code, n in seen.items():
                statuses[code] = statuses.get(code, 0) + n

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "rate": len(jobs) / elapsed,
        "p95": latencies[int(len(latencies) * 0.95) - 1],
        "statuses": statuses,
    }


def game_jobs(
    plan: list[dict[str, Any]], *, organiser: str | None = None
) -> list[tuple[str, dict[str, str], bytes]]:
    """The plan's games, sent with each table's match token, or with the
    ``organiser``'s API token when given."""
    return [
        (
            f"/api/v1/matches/{p['match']}/games/",
            {
                "Content-Type": "application/json",
                **(
                    {"Authorization": f"Token {organiser}"}
                    if organiser is not None
                    else {"X-Match-Token": p["token"]}
                ),
                "Idempotency-Key": str(uuid.uuid4()),
            },
            json.dumps(p["body"]).encode(),
        )
        for p in plan
    ]


def bare_jobs(plan: list[dict[str, Any]]) -> list[tuple[str, dict[str, str], bytes]]:
    return [
        (
            "/bench/bare/",
            {"Content-Type": "application/json"},
            json.dumps({"match": p["match"], "number": p["number"]}).encode(),
        )
        for p in plan
    ]


def wait_up(port: int, server: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/v1/")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not answer")


def child() -> int:
    """One database: build, serve, load RUNS times; print a JSON line per run."""
    token, plans = build(RUNS)
    from django.db import connections

    connections.close_all()
    port = free_port()
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    # As ``make serve`` starts it (config/gunicorn.py), WORKERS workers; its access log
    # (a line per request) is not the bench's output.
    server = subprocess.Popen(
        [gunicorn, "-c", "config/gunicorn.py"],
        cwd=ROOT,
        env={
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "WEB_CONCURRENCY": str(WORKERS),
            # Persistent connections, as the README's production variables set them.
            "DJANGO_CONN_MAX_AGE": os.environ.get("DJANGO_CONN_MAX_AGE", "60"),
        },
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_up(port, server)
        for run, plan in enumerate(plans):
            result: dict[str, Any] = {"bare": load(port, bare_jobs(plan["load"]))}
            for label, prefix in PATHS:
                organiser = token if prefix == "desk" else None
                games = load(port, game_jobs(plan[prefix], organiser=organiser))
                stored, distinct = counted(f"{prefix}-{run}")
                result[label] = {"games": games, "stored": stored, "distinct": distinct}
            print("RESULT " + json.dumps(result), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


# ---------------------------------------------------------------------------- parent


def databases() -> list[tuple[str, str, str | None]]:
    """(label, DATABASE_URL, PostgreSQL database to drop afterwards)."""
    workdir = Path(tempfile.mkdtemp(prefix="rackscore-bench-"))
    out: list[tuple[str, str, str | None]] = [("SQLite", f"sqlite:///{workdir}/load.sqlite3", None)]
    server = subprocess.run(
        ["bash", str(ROOT / "scripts" / "postgres-up.sh")],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    # pg_ctlcluster may say something first: the URL is the last line.
    server = server.splitlines()[-1] if server else ""
    if server:
        name = f"rackscore_bench_{os.getpid()}"
        out.append(("PostgreSQL", f"{server}/{name}", name))
    return out


def measure(label: str, url: str) -> list[dict[str, Any]]:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "serving_settings",
        "DJANGO_DEBUG": "0",
        # Plain HTTP on the loopback, as behind the TLS proxy of a deployment.
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", "bench-" + uuid.uuid4().hex),
        "PYTHONPATH": f"{HERE}{os.pathsep}{ROOT}",
        "RACKSCORE_CACHE_DIR": tempfile.mkdtemp(prefix="rackscore-bench-cache-"),
    }
    if url.startswith("postgres"):
        server, name = url.rsplit("/", 1)
        admin = subprocess.run(
            [sys.executable, "-c", CREATE_DB, server + "/postgres", name], env=env, check=False
        )
        if admin.returncode:
            print(f"{label}: could not create the database; skipped")
            return []
    done = subprocess.run(
        [sys.executable, __file__, "--child"], env=env, cwd=ROOT, capture_output=True, text=True
    )
    rows = [json.loads(line[7:]) for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode or not rows:
        print(f"{label}: failed\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    if url.startswith("postgres"):
        subprocess.run([sys.executable, "-c", DROP_DB, server + "/postgres", name], check=False)
    return rows


_PSQL = "import psycopg,sys; psycopg.connect(sys.argv[1], autocommit=True).execute"
CREATE_DB = _PSQL + "(f'CREATE DATABASE {sys.argv[2]}')"
DROP_DB = _PSQL + "(f'DROP DATABASE IF EXISTS {sys.argv[2]}')"


def main() -> int:
    print(
        f"{GAMES} games per run, {CLIENTS} clients, gunicorn {WORKERS} workers, "
        f"median of {RUNS} runs; bars: >= {RATE_MIN:.0f} games/s, p95 < {P95_MAX_MS:.0f} ms"
    )
    print(
        f"{'database':11} {'path':12} {'games/s':>8} {'p95 ms':>7} {'bare/s':>8} "
        f"{'bare p95':>8} {'errors':>6} {'lost':>5} {'dup':>4}  verdict"
    )
    failed = 0
    # BENCH_DATABASES=PostgreSQL (or SQLite) measures that one alone.
    wanted = os.environ.get("BENCH_DATABASES", "")
    for label, url, _ in databases():
        if wanted and label not in wanted.split(","):
            continue
        rows = measure(label, url)
        if not rows:
            failed = 1
            continue
        bare_rate = statistics.median(r["bare"]["rate"] for r in rows)
        bare_p95 = statistics.median(r["bare"]["p95"] for r in rows)
        for path, _prefix in PATHS:
            runs = [r[path] for r in rows]
            rate = statistics.median(r["games"]["rate"] for r in runs)
            p95 = statistics.median(r["games"]["p95"] for r in runs)
            errors = sum(n for r in runs for c, n in r["games"]["statuses"].items() if c != "201")
            lost = sum(max(GAMES - r["stored"], 0) for r in runs)
            dup = sum(r["stored"] - r["distinct"] + max(r["stored"] - GAMES, 0) for r in runs)
            ok = rate >= RATE_MIN and p95 < P95_MAX_MS and not errors and not lost and not dup
            failed |= not ok
            print(
                f"{label:11} {path:12} {rate:>8.0f} {p95:>7.0f} {bare_rate:>8.0f} "
                f"{bare_p95:>8.0f} {errors:>6} {lost:>5} {dup:>4}  {'ok' if ok else 'MISSED'}"
            )
            if errors:
                print("  statuses:", [r["games"]["statuses"] for r in runs])
    return failed


if __name__ == "__main__":
    sys.exit(child() if "--child" in sys.argv else main())
