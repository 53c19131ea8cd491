"""Shared fixtures. Tests run against the checkout (no install needed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def tables():
    from hipport.tables import load_tables

    return load_tables()


@pytest.fixture(scope="session")
def hipport_cmd() -> list[str]:
    """Run the CLI as a real subprocess, from this checkout."""
    return [sys.executable, "-m", "hipport"]


@pytest.fixture(scope="session")
def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env
