"""A parser crash on one file does not end the run: the pool isolates it.

HIPPORT_TEST_CRASH_ON is a test-only hook in hipport.runner.pool.process: a worker whose file's path
contains that text calls os.abort(), as a libclang segfault would kill it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability_support import cuda_file, expected, hipport

SRC = cuda_file()


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.slow
def test_a_crashing_file_is_reported_and_the_rest_translated(tmp_path: Path, jobs: str) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    names = [f"f{i:02}.cu" for i in range(12)] + ["crash_me.cu"]
    for name in names:
        (tree / name).write_bytes(SRC)
    proc = hipport(
        ["translate", tree, "--in-place", "-j", jobs, "--no-progress"],
        tmp_path / "cache",
        timeout=180,
        HIPPORT_TEST_CRASH_ON="crash_me",
    )
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert "crash_me.cu: the parser crashed on this file" in err
    assert "12 changed" in err and "1 failed" in err
    assert (tree / "crash_me.cu").read_bytes() == SRC
    for name in names[:-1]:
        assert (tree / name).read_bytes() == expected(SRC), name


@pytest.mark.slow
def test_a_single_crashing_file_is_isolated_on_request(tmp_path: Path) -> None:
    """One file runs in-process unless HIPPORT_ISOLATE=1; with it, a crash is a report."""
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "crash_me.cu").write_bytes(SRC)
    proc = hipport(
        ["translate", tree / "crash_me.cu", "--in-place", "--no-progress"],
        tmp_path / "cache",
        timeout=180,
        HIPPORT_TEST_CRASH_ON="crash_me",
        HIPPORT_ISOLATE="1",
    )
    err = proc.stderr.decode()
    assert "crash_me.cu: the parser crashed on this file" in err, err
    assert "1 failed" in err
    assert (tree / "crash_me.cu").read_bytes() == SRC


@pytest.mark.slow
def test_two_crashing_files_with_a_pool(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    for i in range(8):
        (tree / f"ok{i}.cu").write_bytes(SRC)
    (tree / "a_boom.cu").write_bytes(SRC)
    (tree / "z_boom.cu").write_bytes(SRC)
    proc = hipport(
        ["translate", tree, "-o", tmp_path / "out", "-j", "2", "--no-progress"],
        tmp_path / "cache",
        timeout=180,
        HIPPORT_TEST_CRASH_ON="boom",
    )
    err = proc.stderr.decode()
    assert "a_boom.cu: the parser crashed" in err and "z_boom.cu: the parser crashed" in err
    for i in range(8):
        assert (tmp_path / "out" / f"ok{i}.cu").read_bytes() == expected(SRC)
    # a crashed file is copied as it is into the mirror, never half-written
    assert (tmp_path / "out" / "a_boom.cu").read_bytes() == SRC


def test_engine_error_is_per_file(tmp_path: Path, monkeypatch) -> None:
    """An exception inside the engine for one file (not a crash) is reported for that file."""
    from hipport import runner
    from hipport.config import load_config

    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    (tree / "bad.cu").write_bytes(SRC)
    from hipport.runner import pool

    real = pool.translate_one

    def flaky(data, relpath, kind, options, target):
        if "bad" in relpath:
            raise RuntimeError("simulated engine bug")
        return real(data, relpath, kind, options, target)

    monkeypatch.setattr(pool, "translate_one", flaky)
    summary = runner.run_paths([tree], load_config([tree]), runner.RunOptions(jobs=1))
    by_rel = {f.relpath: f for f in summary.files}
    assert by_rel["a.cu"].status == "changed"
    assert by_rel["bad.cu"].status == "failed"
