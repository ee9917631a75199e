"""A benchmark's own Django: the project's settings over a scratch SQLite
database in a temporary folder, or a scratch database on the local
PostgreSQL cluster (``scripts/postgres-up.sh``), never the developer's
``db.sqlite3``."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def django_on_scratch_sqlite() -> Path:
    """Set Django up on a new, empty SQLite file; its folder."""
    sys.path.insert(0, str(ROOT))
    workdir = Path(tempfile.mkdtemp(prefix="rackscore-bench-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    return workdir


def postgres_server() -> str | None:
    """The local PostgreSQL cluster's URL (started, and installed when missing,
    by ``scripts/postgres-up.sh``), or None when it cannot run here."""
    out = subprocess.run(
        ["bash", str(ROOT / "scripts" / "postgres-up.sh")],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    # pg_ctlcluster may say something first: the URL is the last line.
    return out.splitlines()[-1] if out else None


def django_on_scratch_postgres(server: str, name: str) -> None:
    """Set Django up on a new, empty PostgreSQL database ``name`` of ``server``."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"{server}/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def scratch_postgres_drop(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
