"""Running a test module's threads in a separate process, on a new SQLite file.

Threaded tests need real transactions on a real file (pytest-django's test
database is in memory and wrapped in a transaction), so they run as
``python -m <module>``, which prints its findings as JSON on its last line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def module_run_on_fresh_sqlite(module: str, *, folder: Path) -> Any:
    """Run ``python -m module`` on a new SQLite database in ``folder``; its JSON answer."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}"}
    out = subprocess.run(
        [sys.executable, "-m", module],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])
