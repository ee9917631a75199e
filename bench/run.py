"""Run every benchmark (bench/bench_*.py, then bench/cluster) in turn; each prints
its own table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    env = {
        **os.environ,
        "PYTHONPATH": str(HERE.parent),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # Measured as served: debug off (a throwaway key), plain HTTP on the loopback.
        "DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "0"),
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", "bench-" + os.urandom(16).hex()),
        "DJANGO_SSL_REDIRECT": "0",
    }
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"\n== {script.stem} ==", flush=True)
        failed |= subprocess.call([sys.executable, str(script)], env=env, cwd=HERE.parent)
    # The two-node cluster (a package: make cluster runs it alone).
    print("\n== cluster ==", flush=True)
    failed |= subprocess.call(
        [sys.executable, "-m", "cluster"],
        env={**env, "PYTHONPATH": f"{HERE}{os.pathsep}{HERE.parent}"},
        cwd=HERE.parent,
    )
    return failed


if __name__ == "__main__":
    sys.exit(main())
