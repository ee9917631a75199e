"""A benchmark's own Django: the project's settings over a scratch SQLite
database in a temporary folder, never the developer's ``db.sqlite3``."""

from __future__ import annotations

import os
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
