"""The command's process runs without Python's cyclic collector (hipport.cli._tune_collector:
its objects live until it ends and hold almost no cycles); a pool worker, forked from it
and translating file after file, collects again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_a_worker_started_from_the_command_collects():
    code = (
        "import gc\n"
        "from hipport.cli import _tune_collector\n"
        "from hipport.runner.pool import _init_worker\n"
        "_tune_collector()\n"
        "print(gc.isenabled())\n"
        "_init_worker(None)\n"
        "print(gc.isenabled())\n"
    )
    assert _python(code).split() == ["False", "True"]
