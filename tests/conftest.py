"""Shared fixtures. Tests run against the checkout (no install needed).

The markers (pyproject.toml) say what a test needs: nvcc, hipcc, browser (headless
Chromium), slow. The fast loop leaves them out:

    python -m pytest -m "not slow and not hipcc and not nvcc and not browser"

A test that starts nvcc, hipcc or Chromium without its marker fails (_tools_need_markers),
so the fast loop never needs a compiler or a browser."""

from __future__ import annotations

import os
import subprocess
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


# The programs whose use a test must declare with a marker.
TOOL_MARKERS = {
    "nvcc": "nvcc",
    "hipcc": "hipcc",
    "chromium": "browser",
    "chromium-browser": "browser",
}


@pytest.fixture(autouse=True)
def _tools_need_markers(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail a test that starts a TOOL_MARKERS program without the marker (the subprocess
    it starts, directly or through a helper or in-process CLI call)."""
    marks = {m.name for m in request.node.iter_markers()}
    start = subprocess.Popen.__init__

    def checked(self, args, *rest, **kwargs) -> None:  # Popen's own arguments
        first = args if isinstance(args, str | bytes | os.PathLike) else args[0]
        tool = Path(os.fsdecode(first).split()[0] if kwargs.get("shell") else first).name
        need = TOOL_MARKERS.get(tool)
        if need is not None and need not in marks:
            pytest.fail(f"runs {tool} without @pytest.mark.{need}", pytrace=False)
        start(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", checked)
