"""Table load and start-up figures for the mapping tables (issue 13's budget: load <= 100 ms,
`hipport --help` <= 0.3 s). Prints figures; asserts nothing.

    python bench/tables_load.py [--runs 5]

Each figure is the median wall time of --runs fresh processes of this checkout:
  tables_load    load_tables() (it parses the TSVs of mappings/)
  cli_help       `python -m hipport --help`
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOAD = (
    "import time; t = time.perf_counter(); from hipport.tables import load_tables; "
    "tb = load_tables(); print(time.perf_counter() - t, len(tb.rows))"
)


def _inner(env: dict[str, str], runs: int) -> tuple[float, str]:
    """Median of the time the child measures around the load itself, and its row count."""
    times, rows = [], ""
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", LOAD], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
        times.append(float(out[0]))
        rows = out[1]
    return statistics.median(times), rows


def _wall(cmd: list[str], env: dict[str, str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HIPPORT_CACHE_DIR": cache}
        parse, rows = _inner(env, args.runs)
        helptime = _wall([sys.executable, "-m", "hipport", "--help"], env, args.runs)
    print(f"rows           {rows}")
    print(f"tables_load    {parse * 1000:7.1f} ms  (budget 100 ms)")
    print(f"cli_help       {helptime * 1000:7.1f} ms  (budget 300 ms, process start included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
