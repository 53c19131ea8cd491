"""The markers say what a test needs (tests/conftest.py): a test that starts nvcc, hipcc or
Chromium without its marker fails, so the fast loop never needs one."""

from __future__ import annotations

import subprocess

import pytest

from tests.conftest import TOOL_MARKERS


@pytest.mark.parametrize("tool", sorted(TOOL_MARKERS))
def test_a_tool_without_its_marker_fails(tool: str) -> None:
    with pytest.raises(pytest.fail.Exception, match=f"without @pytest.mark.{TOOL_MARKERS[tool]}"):
        subprocess.Popen([f"/no/such/dir/{tool}", "--version"])  # refused before it starts


@pytest.mark.hipcc
def test_a_tool_with_its_marker_starts() -> None:
    with pytest.raises(FileNotFoundError):  # it got as far as starting the program
        subprocess.Popen(["/no/such/dir/hipcc", "--version"])
