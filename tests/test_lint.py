"""The tree is ruff-clean: `ruff check` and `ruff format --check` (ruff pinned in `test`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = ["hipport", "tests", "tools", "bench"]


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff")
    if exe is None:
        pytest.fail("ruff is not installed: pip install -e '.[test]' brings the pinned version")
    return subprocess.run([exe, *args, *TREES], cwd=ROOT, capture_output=True, text=True)


def test_ruff_check_is_clean() -> None:
    proc = _ruff("check", "--no-cache")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_clean() -> None:
    proc = _ruff("format", "--check", "--no-cache")
    assert proc.returncode == 0, proc.stdout + proc.stderr
