"""Memory stays linear in the input (issue 30 item 4): thousands of distinct unknown names
on one line made the report's fingerprint keys hold the whole line once per finding
(5,000 names on a 114 KB line: 613 MB peak; 10,000 on 99 KB: 1 GB). The peak is the
kernel's figure for the process (no timing is asserted: bench/pathological.py prints CPU
seconds and peaks per input kind and size)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import pytest
from pathological import one_long_line, unknown_names_one_line

from tests.reliability_support import RSS_PROBE, env


def test_many_findings_on_one_long_line_keep_the_peak_low(tmp_path: Path) -> None:
    src = tmp_path / "one_line.cu"
    src.write_bytes(unknown_names_one_line(5_000))
    cmd = [sys.executable, "-c", RSS_PROBE, sys.executable, "-m", "hipport", "check"]
    cmd += [str(src), "--no-cache", "--format", "sarif", "-o", str(tmp_path / "r.sarif")]
    proc = subprocess.run(
        cmd,
        env=env(tmp_path / "c", RSS_PROBE_LOG=str(tmp_path / "log")),
        capture_output=True,
        timeout=300,
    )
    rc, maxrss_kb = map(int, proc.stdout.split())
    assert rc == 1, (tmp_path / "log").read_text()
    peak_mb = maxrss_kb / 1024
    assert peak_mb < 400, f"peak {peak_mb:.0f} MB for a 114 KB file"


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check", "translate"])
def test_a_10_mb_line_keeps_the_peak_low(tmp_path: Path, command: str) -> None:
    """A 10 MB single line (4.7 million tokens) peaked at about 770 MB: the lexer's byte
    offsets were lists of ints (36 bytes a token each) and libclang's token array was kept
    while the text columns were made. The whole run in one process (the pool's serial path,
    as bench/pathological.py measures): a worker's peak is the translation's."""
    src = tmp_path / "long.cu"
    src.write_bytes(one_long_line(10_000_000))
    out = ["--format", "json", "-o", str(tmp_path / "r.json")]
    if command == "translate":
        out = ["-o", str(tmp_path / "out")]
    code = (
        "import sys, hipport.runner.pool as p; p.execute = p.execute_serially; "
        "from hipport.cli import main; main()"
    )
    cmd = [sys.executable, "-c", RSS_PROBE, sys.executable, "-c", code, command, str(src)]
    proc = subprocess.run(
        [*cmd, "--no-cache", *out],
        env=env(tmp_path / "c", RSS_PROBE_LOG=str(tmp_path / "log")),
        capture_output=True,
        timeout=600,
    )
    rc, maxrss_kb = map(int, proc.stdout.split())
    assert rc == 0, (tmp_path / "log").read_text()
    peak_mb = maxrss_kb / 1024
    assert peak_mb < 500, f"peak {peak_mb:.0f} MB for a 10 MB line"
