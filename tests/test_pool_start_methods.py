"""The worker pool under every start method (issue 28 item 8): the platform's default (fork
on Linux, spawn on macOS and Windows), and HIPPORT_START_METHOD to choose. Run here on
Linux under spawn and forkserver, the pool gives the report a fork run gives, reports a
crashing file and goes on, and kills a worker past the time limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.reliability_support import cuda_file, expected, hipport

SRC = cuda_file()
METHODS = ("spawn", "forkserver")
pytestmark = pytest.mark.slow  # each case starts real worker processes


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "t"
    tree.mkdir()
    for i in range(6):
        (tree / f"f{i:02}.cu").write_bytes(SRC)
    (tree / "odd.cu").write_bytes(b"#include <cuda_runtime.h>\nvoid g() { cudaFooBar(); }\n")
    return tree


def _report(tmp_path: Path, tree: Path, method: str, **extra: str):
    proc = hipport(
        ["check", tree, "--format", "json", "--no-cache", "-j", "2", "--fail-on", "never"],
        tmp_path / f"cache-{method}",
        timeout=240,
        HIPPORT_START_METHOD=method,
        **extra,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout)


@pytest.mark.parametrize("method", METHODS)
def test_the_report_is_the_fork_runs(tmp_path: Path, method: str) -> None:
    tree = _tree(tmp_path)
    assert _report(tmp_path, tree, method) == _report(tmp_path, tree, "fork")


@pytest.mark.parametrize("method", METHODS)
def test_a_crashing_worker_is_reported_and_the_rest_done(tmp_path: Path, method: str) -> None:
    tree = _tree(tmp_path)
    (tree / "crash_me.cu").write_bytes(SRC)
    proc = hipport(
        ["translate", tree, "--in-place", "-j", "2", "--no-progress"],
        tmp_path / "cache",
        timeout=240,
        HIPPORT_TEST_CRASH_ON="crash_me",
        HIPPORT_START_METHOD=method,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert "crash_me.cu: the parser crashed on this file" in err
    assert (tree / "crash_me.cu").read_bytes() == SRC
    assert (tree / "f00.cu").read_bytes() == expected(SRC)


@pytest.mark.parametrize("method", METHODS)
def test_a_worker_past_the_time_limit_is_killed(tmp_path: Path, method: str) -> None:
    tree = _tree(tmp_path)
    (tree / "slow.cu").write_bytes(SRC)
    proc = hipport(
        ["check", tree, "--format", "json", "--no-cache", "-j", "2", "--time-limit", "5"],
        tmp_path / "cache",
        timeout=240,
        HIPPORT_TEST_STALL_ON="slow.cu:120",
        HIPPORT_START_METHOD=method,
    )
    report = json.loads(proc.stdout)
    status = {f["path"]: f["status"] for f in report["files"]}
    assert status["slow.cu"] == "failed", status
    assert sum(s != "failed" for s in status.values()) == 7


@pytest.mark.parametrize("method", [*METHODS, "fork"])
def test_the_pool_starts_workers_the_way_asked(monkeypatch, method: str) -> None:
    """The runs above went through this choice (the same _Pool the CLI builds)."""
    from hipport.options import EngineOptions
    from hipport.runner.pool import WorkerSetup, _Pool
    from hipport.target import Target

    monkeypatch.setenv("HIPPORT_START_METHOD", method)
    assert _Pool(1, WorkerSetup(Target(), EngineOptions()), 1).ctx.get_start_method() == method
    monkeypatch.delenv("HIPPORT_START_METHOD")
    import multiprocessing

    default = multiprocessing.get_start_method()
    assert _Pool(1, WorkerSetup(Target(), EngineOptions()), 1).ctx.get_start_method() == default


def test_an_unknown_start_method_is_a_usage_error_naming_the_variable(tmp_path: Path) -> None:
    """Before, `cannot find context for 'bogus'` ended as an internal error."""
    proc = hipport(
        ["check", _tree(tmp_path), "--no-cache", "-j", "2"],
        tmp_path / "cache",
        HIPPORT_START_METHOD="bogus",
    )
    assert proc.returncode == 2
    assert b"HIPPORT_START_METHOD='bogus' is not a start method" in proc.stderr
    assert b"internal error" not in proc.stderr
