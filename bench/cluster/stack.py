"""Starting and stopping the stack: PostgreSQL, Redis, two nodes, the worker, nginx.

Vocabulary: a *child* is a process the bench starts in a session of its own
(Ctrl-C in the terminal reaches the bench alone, which then stops its
children in order) and that Linux stops when the bench dies however it dies
(``PR_SET_PDEATHSIG``); its output goes to a log file in the *work folder*
(a temporary folder, removed afterwards unless the run failed). A *service*
(PostgreSQL, Redis) is started by the project's own script; when it was not
running before, the bench stops it again, and only then. Every start
registers its stop on the caller's ``ExitStack``, so whatever ends the run (its
end, an error, Ctrl-C, SIGTERM) stops everything started, the last first.
"""

from __future__ import annotations

import contextlib
import ctypes
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
# The database the nodes share, and the Redis database (an index of its own,
# emptied afterwards, so no key of the bench meets another user's).
DATABASE_NAME = f"rackscore_cluster_{os.getpid()}"
REDIS_DB = int(os.environ.get("CLUSTER_REDIS_DB", "7"))
STOP_WAIT_S = 30.0
UP_WAIT_S = 60.0
_PR_SET_PDEATHSIG = 1


class StackError(RuntimeError):
    """A part of the stack could not start: the message says which and why."""


@dataclass
class Stack:
    """What runs, where: filled in as the parts start."""

    workdir: Path
    database_url: str = ""
    redis_url: str | None = None
    node_ports: list[int] = field(default_factory=list)
    nginx_port: int = 0
    worker: str = ""
    notes: list[str] = field(default_factory=list)
    children: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def failed_children(self) -> list[str]:
        return [name for name, child in self.children.items() if child.poll() is not None]

    def log_tails(self, lines: int = 15) -> str:
        """The last lines of every child's log, for a run that failed."""
        out = []
        for log in sorted(self.workdir.glob("*.log")):
            tail = log.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- {log.name}\n" + "\n".join(tail))
        return "\n".join(out)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_the_bench() -> None:
    """In the child before it runs: SIGTERM when the bench's process ends."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def child_start(
    stack: Stack,
    exits: contextlib.ExitStack,
    *,
    name: str,
    args: list[str],
    env: dict[str, str],
    stop_signal: signal.Signals = signal.SIGTERM,
) -> subprocess.Popen[bytes]:
    """Start ``args`` as a child logging to ``<name>.log``; its stop is registered."""
    log = (stack.workdir / f"{name}.log").open("ab")
    exits.callback(log.close)
    child = subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=_die_with_the_bench,  # the bench starts no thread before its children
    )
    stack.children[name] = child
    exits.callback(child_stop, child, stop_signal=stop_signal)
    return child


def child_stop(child: subprocess.Popen[bytes], *, stop_signal: signal.Signals) -> None:
    """Ask the child to stop; after STOP_WAIT_S, kill its whole process group."""
    if child.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(stop_signal)
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=STOP_WAIT_S)
    # Its own session: the group is the child's pid; anything left of it goes too.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()


def _script(name: str) -> str:
    """Run scripts/<name>; its last line of output (the URL), or StackError."""
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / name)], capture_output=True, text=True, check=False
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        raise StackError(f"scripts/{name} failed: {done.stderr.strip() or done.stdout.strip()}")
    return lines[-1].strip()


# ------------------------------------------------------------------------ PostgreSQL


def _postgres_online() -> list[tuple[str, str]]:
    """(version, cluster) of every PostgreSQL cluster running now."""
    try:
        listed = subprocess.run(
            ["pg_lsclusters", "-h"], capture_output=True, text=True, check=False
        ).stdout
    except FileNotFoundError:
        return []
    return [
        (c[0], c[1]) for c in (line.split() for line in listed.splitlines()) if c[3:4] == ["online"]
    ]


def postgres_up(stack: Stack, exits: contextlib.ExitStack) -> None:
    """PostgreSQL through scripts/postgres-up.sh, and a database of the bench's own."""
    import psycopg

    before = _postgres_online()
    server = _script("postgres-up.sh")
    started = [c for c in _postgres_online() if c not in before]
    for version, cluster in started:
        exits.callback(_postgres_stop, server, version, cluster)
    stack.notes.append(
        "PostgreSQL: started by the bench, stopped afterwards"
        if started
        else "PostgreSQL: running already, left running"
    )
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {DATABASE_NAME}")
    exits.callback(_database_drop, server)
    stack.database_url = f"{server}/{DATABASE_NAME}"


def _database_drop(server: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")


def _postgres_stop(server: str, version: str, cluster: str) -> None:
    """Stop the cluster the bench started, unless someone else is using it by now."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
        ).fetchone()
    if row and row[0]:
        print(f"PostgreSQL {version}/{cluster} left running: {row[0]} other connections")
        return
    subprocess.run(["pg_ctlcluster", version, cluster, "stop"], check=False)


# ----------------------------------------------------------------------------- Redis


def _redis_command(url: str, *words: str) -> bytes:
    """One command to the Redis at ``url`` (its password and database too)."""
    parts = urllib.parse.urlsplit(url)
    commands: list[tuple[str, ...]] = []
    if parts.password:
        commands.append(("AUTH", urllib.parse.unquote(parts.password)))
    database = parts.path.strip("/")
    if database:
        commands.append(("SELECT", database))
    commands.append(words)
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 5) as s:
        for command in commands:
            s.sendall(
                f"*{len(command)}\r\n".encode()
                + b"".join(f"${len(w.encode())}\r\n{w}\r\n".encode() for w in command)
            )
        received = b""
        while (answer := _last_reply(received, earlier=len(commands) - 1)) is None:
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionResetError("Redis closed the connection")
            received += chunk
    return answer


def _last_reply(received: bytes, *, earlier: int) -> bytes | None:
    """The reply after ``earlier`` one-line replies: a status line, or a bulk
    string's content; None while incomplete."""
    replies = received.split(b"\r\n", earlier)
    if len(replies) <= earlier:
        return None
    head, complete, rest = replies[earlier].partition(b"\r\n")
    if not complete:
        return None
    if head.startswith(b"$") and int(head[1:]) >= 0:
        size = int(head[1:])
        return rest[:size] if len(rest) >= size + 2 else None
    return head


def _redis_answers(url: str) -> bool:
    try:
        return _redis_command(url, "PING") == b"+PONG"
    except OSError:
        return False


def redis_up(stack: Stack, exits: contextlib.ExitStack) -> None:
    """Redis through scripts/redis-up.sh, on a database index of the bench's own."""
    if not (ROOT / "scripts" / "redis-up.sh").exists():
        stack.notes.append(
            "Redis: none (scripts/redis-up.sh is missing): each worker keeps its own cache"
        )
        return
    default = "redis://127.0.0.1:6379"
    running_before = _redis_answers(default)
    parts = urllib.parse.urlsplit(_script("redis-up.sh"))
    server = f"{parts.scheme}://{parts.netloc}"
    url = f"{server}/{REDIS_DB}"
    if not _redis_answers(url):
        raise StackError(f"Redis does not answer at {parts.hostname}:{parts.port}")
    stack.redis_url = url
    started = not running_before and parts.port in (None, 6379)
    if started:
        exits.callback(_redis_stop, server)
    exits.callback(_redis_command, url, "FLUSHDB")
    stack.notes.append(
        f"Redis: database {REDIS_DB}, "
        + (
            "started by the bench, stopped afterwards"
            if started
            else "running already, left running"
        )
    )


def _redis_stop(url: str) -> None:
    """Stop the Redis the bench started, unless someone else is using it by now."""
    with contextlib.suppress(OSError):
        info = _redis_command(url, "INFO", "clients")
        # A bulk answer: its first line is the length, the text follows.
        clients = next(
            (
                int(line.split(b":")[1])
                for line in info.split(b"\r\n")
                if line.startswith(b"connected_clients:")
            ),
            1,
        )
        if clients > 1:
            print(f"Redis left running: {clients - 1} other connections")
            return
        init = Path("/etc/init.d/redis-server")
        if init.exists():
            subprocess.run([str(init), "stop"], capture_output=True, check=False)
        else:
            _redis_command(url, "SHUTDOWN", "NOSAVE")


# ----------------------------------------------------------------- nodes, worker, nginx


def wait_up(port: int, child: subprocess.Popen[bytes], *, what: str) -> None:
    """Until ``GET /healthz`` on ``port`` answers 200 (StackError after UP_WAIT_S)."""
    deadline = time.monotonic() + UP_WAIT_S
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise StackError(f"{what} exited while starting")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return
            conn.close()
        except OSError:
            pass
        time.sleep(0.2)
    raise StackError(f"{what} did not answer on port {port} within {UP_WAIT_S:.0f} s")


def nodes_up(
    stack: Stack, exits: contextlib.ExitStack, *, env: dict[str, str], workers: int
) -> None:
    """Two gunicorn nodes as ``make serve`` starts them, each on its own port."""
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    for number in (1, 2):
        port = free_port()
        node = child_start(
            stack,
            exits,
            name=f"node{number}",
            # config/gunicorn.py opens no control socket, so two nodes on one
            # machine share nothing but the database and the cache.
            args=[gunicorn, "-c", "config/gunicorn.py"],
            env={
                **env,
                "HOST": "127.0.0.1",
                "PORT": str(port),
                "WEB_CONCURRENCY": str(workers),
                # A folder of its own: a node shares nothing on its disk.
                "RACKSCORE_CACHE_DIR": str(stack.workdir / f"node{number}-files"),
            },
        )
        stack.node_ports.append(port)
        wait_up(port, node, what=f"node {number}")


def worker_up(stack: Stack, exits: contextlib.ExitStack, *, env: dict[str, str]) -> None:
    """``manage.py db_worker`` beside the nodes, when the project has the command."""
    from django.core.management import get_commands

    if "db_worker" not in get_commands():
        stack.worker = "skipped: the project has no db_worker command yet"
        return
    child_start(
        stack,
        exits,
        name="worker",
        args=[sys.executable, "manage.py", "db_worker", "--no-reload"],
        env=env,
        stop_signal=signal.SIGINT,
    )
    time.sleep(1.0)
    if stack.children["worker"].poll() is not None:
        raise StackError("the worker (manage.py db_worker) exited while starting")
    stack.worker = "manage.py db_worker, running"


NGINX_CONF = """\
# Generated by bench/cluster/stack.py for one run; lives in {workdir}.
daemon off;
master_process on;
# One worker process: on two cores the nodes need the other one.
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log warn;
events {{
    worker_connections 8192;
}}
http {{
    access_log off;
    client_body_temp_path {workdir}/nginx-body;
    proxy_temp_path {workdir}/nginx-proxy;
    fastcgi_temp_path {workdir}/nginx-fastcgi;
    uwsgi_temp_path {workdir}/nginx-uwsgi;
    scgi_temp_path {workdir}/nginx-scgi;
    keepalive_timeout 75s;
    keepalive_requests 100000;
    client_max_body_size 10m;
    # Answers are buffered in memory only (a standings page fits): no temporary file.
    proxy_buffers 32 16k;
    proxy_max_temp_file_size 0;
    upstream rackscore {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://rackscore;
            # Keep-alive to the nodes: HTTP/1.1 without the client's Connection header.
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 60s;
        }}
    }}
}}
"""


def nginx_up(stack: Stack, exits: contextlib.ExitStack) -> None:
    """nginx in the foreground, balancing between the nodes, on a port of its own."""
    nginx = next((p for p in ("/usr/sbin/nginx", "/usr/bin/nginx") if Path(p).exists()), None)
    if nginx is None:
        raise StackError("nginx is not installed (scripts/install-system.sh installs it)")
    stack.nginx_port = free_port()
    conf = stack.workdir / "nginx.conf"
    conf.write_text(
        NGINX_CONF.format(
            workdir=stack.workdir,
            port=stack.nginx_port,
            servers="\n".join(f"        server 127.0.0.1:{p};" for p in stack.node_ports),
        )
    )
    child = child_start(
        stack,
        exits,
        name="nginx",
        # -e: its start-up errors go to the work folder too, not to /var/log/nginx.
        args=[
            nginx,
            "-c",
            str(conf),
            "-p",
            str(stack.workdir),
            "-e",
            str(stack.workdir / "nginx-error.log"),
        ],
        env=dict(os.environ),
        stop_signal=signal.SIGQUIT,
    )
    wait_up(stack.nginx_port, child, what="nginx")
