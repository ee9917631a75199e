import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_concurrent_result_entry_loses_nothing(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    out = subprocess.run(
        [sys.executable, "-m", "tests.tournaments.services.concurrent_entry"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    # Four matches of six games: 24 entries fit, the other 16 are refused as
    # full; none is lost, none doubled, numbers have no gaps.
    assert result["ok"] == 24 and result["full"] == 16
    assert result["numbers"] == [[1, 2, 3, 4, 5, 6]] * 4
    assert result["racks"] == 24 * 4
