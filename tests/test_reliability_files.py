"""Odd files and trees: unreadable, vanishing, read-only outputs, symlinks, special files,
very large files, deep and wide trees. The run goes on, says what it skipped, and never
touches anything outside the tree."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.reliability_support import ROOT, RSS_PROBE, cuda_file, env, expected, hipport

SRC = cuda_file()
WANT = expected(SRC)


def _translate(args: list, tmp_path: Path, timeout: float = 120) -> tuple[int, str]:
    proc = hipport(["translate", *args, "--no-progress"], tmp_path / "cache", timeout=timeout)
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


# --- unreadable -----------------------------------------------------------------------------


@pytest.mark.slow
def test_dangling_symlink_and_directory_named_like_a_source(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    (tree / "dir.cu").mkdir(parents=True)
    (tree / "dir.cu" / "inner.cu").write_bytes(SRC)
    (tree / "ok.cu").write_bytes(SRC)
    (tree / "gone.cu").symlink_to(tree / "missing.cu")
    (tree / "self.cu").symlink_to(tree / "self.cu")  # ELOOP
    code, err = _translate([tree, "--in-place", "-j", "2"], tmp_path)
    assert code in (0, 1), err
    assert (tree / "ok.cu").read_bytes() == WANT
    assert (tree / "dir.cu" / "inner.cu").read_bytes() == WANT  # a directory is walked
    assert "gone.cu" in err and "self.cu" in err
    assert os.readlink(tree / "gone.cu") == str(tree / "missing.cu")
    assert not (tree / "missing.cu").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a chmod 000 file")
def test_unreadable_file_is_reported(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "ok.cu").write_bytes(SRC)
    locked = tree / "locked.cu"
    locked.write_bytes(SRC)
    locked.chmod(0)
    try:
        code, err = _translate([tree, "--in-place", "-j", "1"], tmp_path)
    finally:
        locked.chmod(0o644)
    assert "locked.cu" in err and (tree / "ok.cu").read_bytes() == WANT
    assert locked.read_bytes() == SRC


@pytest.mark.slow
def test_file_vanishing_between_discovery_and_processing(tmp_path: Path, monkeypatch) -> None:
    from hipport import runner
    from hipport.config import load_config

    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "t"
    tree.mkdir()
    for i in range(5):
        (tree / f"f{i}.cu").write_bytes(SRC)
    from hipport.runner import discovery as run_module

    real_discover = run_module.discover

    def discover_then_delete(*args, **kwargs):
        found = real_discover(*args, **kwargs)
        (tree / "f2.cu").unlink()
        return found

    monkeypatch.setattr(run_module, "discover", discover_then_delete)
    summary = runner.run_paths([tree], load_config([tree]), runner.RunOptions(jobs=2))
    by_rel = {f.relpath: f for f in summary.files}
    assert by_rel["f2.cu"].status == "failed" and "No such file" in by_rel["f2.cu"].error
    assert all(by_rel[f"f{i}.cu"].status == "changed" for i in (0, 1, 3, 4))
    errors = runner.write_outputs(summary, "in-place")
    assert errors == []
    assert [p.name for p in sorted(tree.iterdir())] == ["f0.cu", "f1.cu", "f3.cu", "f4.cu"]
    assert all(p.read_bytes() == WANT for p in tree.iterdir())


@pytest.mark.slow
def test_file_changed_between_processing_and_writing_is_left_alone(
    tmp_path: Path, monkeypatch
) -> None:
    from hipport import runner
    from hipport.config import load_config

    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    (tree / "b.cu").write_bytes(SRC)
    summary = runner.run_paths([tree], load_config([tree]), runner.RunOptions(jobs=1))
    (tree / "a.cu").write_bytes(SRC + b"// edited by the user meanwhile\n")
    errors = runner.write_outputs(summary, "in-place")
    assert [rel for rel, _ in errors] == ["a.cu"]
    assert (tree / "a.cu").read_bytes() == SRC + b"// edited by the user meanwhile\n"
    assert (tree / "b.cu").read_bytes() == WANT


# --- read-only outputs ----------------------------------------------------------------------


@pytest.mark.slow
def test_unwritable_output_is_reported_not_a_crash(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "a.cu").write_bytes(SRC)
    (tree / "b.cu").write_bytes(SRC)
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").write_bytes(b"a file where a directory must go")
    code, err = _translate([tree, "-o", out, "-j", "1"], tmp_path)
    assert "Traceback" not in err
    assert "sub/a.cu: cannot write" in err
    assert (out / "b.cu").read_bytes() == WANT
    assert (out / "sub").read_bytes() == b"a file where a directory must go"


def test_in_place_write_failure_keeps_the_original(tmp_path: Path, monkeypatch) -> None:
    """What a read-only directory does to a non-root user: the temp file cannot be created.
    (Root ignores directory permissions, so the failure is injected.)"""
    from hipport import fsio, runner
    from hipport.config import load_config

    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    summary = runner.run_paths([tree], load_config([tree]), runner.RunOptions(jobs=1))

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(fsio, "_create_temp", denied)
    errors = runner.write_outputs(summary, "in-place")
    assert errors == [("a.cu", "cannot write: Permission denied")]
    assert (tree / "a.cu").read_bytes() == SRC
    assert os.listdir(tree) == ["a.cu"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only directory")
def test_read_only_directory_in_place(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    tree.chmod(0o555)
    try:
        code, err = _translate([tree, "--in-place"], tmp_path)
    finally:
        tree.chmod(0o755)
    assert "a.cu: cannot write" in err and (tree / "a.cu").read_bytes() == SRC


# --- symlinks -------------------------------------------------------------------------------


@pytest.mark.slow
def test_symlinks_never_lead_out_of_the_tree(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.cu").write_bytes(SRC)
    (outside / "lib").mkdir()
    (outside / "lib" / "deep.cu").write_bytes(SRC)
    tree = tmp_path / "t"
    (tree / "sub").mkdir(parents=True)
    (tree / "real.cu").write_bytes(SRC)
    (tree / "sub" / "inner.cu").write_bytes(SRC)
    (tree / "link_out.cu").symlink_to(outside / "secret.cu")
    (tree / "dir_out").symlink_to(outside / "lib")
    (tree / "rel_out.cu").symlink_to("../outside/secret.cu")
    (tree / "a_link_in.cu").symlink_to("real.cu")  # sorts before its target
    (tree / "a_dir_in").symlink_to("sub")
    (tree / "sub" / "loop").symlink_to("..")
    (tree / "sub" / "self").symlink_to(".")
    code, err = _translate([tree, "--in-place", "-j", "2"], tmp_path, timeout=60)
    assert code in (0, 1), err
    # nothing outside changed
    assert (outside / "secret.cu").read_bytes() == SRC
    assert (outside / "lib" / "deep.cu").read_bytes() == SRC
    assert "symlink leading outside the tree" in err
    # inside: the real files translated once, the links still links
    assert (tree / "real.cu").read_bytes() == WANT
    assert (tree / "sub" / "inner.cu").read_bytes() == WANT
    for link in (
        "link_out.cu",
        "dir_out",
        "rel_out.cu",
        "a_link_in.cu",
        "a_dir_in",
        "sub/loop",
        "sub/self",
    ):
        assert (tree / link).is_symlink(), link
    assert "a_link_in.cu: not processed: symlink to real.cu, translated there" in err
    assert "hipport: 2 files scanned" in err  # real.cu and sub/inner.cu, once each


def test_symlinked_source_is_processed_once(tmp_path: Path) -> None:
    from hipport.project import discover

    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "z.cu").write_bytes(SRC)
    (tree / "a.cu").symlink_to("z.cu")
    (tree / "loop").symlink_to(".")
    found = discover([tree])
    assert [f.relpath for f in found.files] == ["z.cu"]
    reasons = {s.path.name: s.reason for s in found.skipped}
    assert reasons["a.cu"].startswith("symlink to z.cu")
    assert "loop" in reasons


# --- special files --------------------------------------------------------------------------


@pytest.mark.slow
def test_fifo_and_socket_are_skipped_without_hanging(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    os.mkfifo(tree / "pipe.cu")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tree / "sock.cu"))
    try:
        # a hang is a TimeoutExpired (the test fails); no elapsed-time assertion, which a
        # 60 s timeout would make impossible to fail
        code, err = _translate([tree, "--in-place", "-j", "1"], tmp_path, timeout=60)
        # named explicitly too
        code2, err2 = _translate([tree / "pipe.cu", "--in-place"], tmp_path, timeout=60)
    finally:
        sock.close()
    assert code == 0, err
    assert (tree / "a.cu").read_bytes() == WANT
    # a FIFO or socket named as a source is a HIP203 finding (issue 30), said per file
    assert "pipe.cu: not a regular file" in err and "HIP203" in err
    assert "sock.cu: not a regular file" in err
    assert "not a regular file" in err2 and "Traceback" not in err2


def test_read_source_never_blocks_on_a_fifo(tmp_path: Path) -> None:
    """A path that became a FIFO after discovery: read_source opens non-blocking."""
    from hipport.fsio import SkipFile, read_source

    os.mkfifo(tmp_path / "p.cu")
    with pytest.raises(SkipFile, match="not a regular file"):
        read_source(tmp_path / "p.cu")


# --- size and shape -------------------------------------------------------------------------


@pytest.mark.slow
def test_very_large_file_is_skipped_in_bounded_memory(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    line = b"    cudaFree(0); // padding padding padding padding padding padding\n"
    with open(tree / "huge.cu", "wb") as fh:
        for _ in range(50 * 1024 * 1024 // len(line) + 1):
            fh.write(line)
    size = (tree / "huge.cu").stat().st_size
    assert size > 50 * 1024 * 1024
    cmd = [
        sys.executable,
        "-c",
        RSS_PROBE,
        sys.executable,
        "-m",
        "hipport",
        "translate",
        str(tree),
        "--in-place",
        "-j",
        "2",
        "--no-progress",
    ]
    proc = subprocess.run(
        cmd,
        env=env(tmp_path / "cache", RSS_PROBE_LOG=str(tmp_path / "log")),
        capture_output=True,
        timeout=180,
        cwd=str(ROOT),
    )
    rc, maxrss_kb = map(int, proc.stdout.split())
    err = (tmp_path / "log").read_text()
    assert rc == 0, err
    assert "huge.cu: skipped: larger than 16 MiB" in err
    assert (tree / "a.cu").read_bytes() == WANT
    assert (tree / "huge.cu").stat().st_size == size
    assert maxrss_kb < 400 * 1024, f"peak RSS {maxrss_kb // 1024} MiB"


@pytest.mark.slow
def test_deeper_than_the_recursion_limit(tmp_path: Path) -> None:
    """Discovery walks with an explicit stack: 1,100 levels (past Python's recursion limit
    of 1,000) are fine."""
    from hipport.project import discover

    deep = tmp_path
    for _ in range(1100):  # not os.makedirs: it recurses itself
        deep = deep / "d"
        deep.mkdir()
    (deep / "x.cu").write_bytes(SRC)
    (tmp_path / ".gitignore").write_text("ignored.cu\n")
    (deep / "ignored.cu").write_bytes(SRC)
    try:
        found = discover([tmp_path])
        assert [f.path for f in found.files] == [deep / "x.cu"]
    finally:
        # bottom up, iteratively: pytest's own cleanup (shutil.rmtree) recurses and fails
        for name in ("x.cu", "ignored.cu"):
            (deep / name).unlink()
        while deep != tmp_path:
            deep.rmdir()
            deep = deep.parent


@pytest.mark.slow
def test_deep_tree(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    deep = tree
    for i in range(200):
        deep = deep / f"d{i:03}"
    deep.mkdir(parents=True)
    (deep / "bottom.cu").write_bytes(SRC)
    (tree / "d000" / "top.cu").write_bytes(SRC)
    code, err = _translate([tree, "--in-place", "-j", "1"], tmp_path)
    assert code == 0, err
    assert (deep / "bottom.cu").read_bytes() == WANT
    assert (tree / "d000" / "top.cu").read_bytes() == WANT


MANY = int(os.environ.get("HIPPORT_RELIABILITY_FILES", "2000"))


@pytest.mark.slow
def test_many_files(tmp_path: Path) -> None:
    """2,000 files by default (HIPPORT_RELIABILITY_FILES=20000 for the full size: about
    9 minutes on a loaded 2-core box, most of it one fsync per written file). Timed, not
    asserted on time."""
    tree = tmp_path / "t"
    for i in range(MANY):
        d = tree / f"d{i % 100:02}"
        if i < 100:
            d.mkdir(parents=True)
        (d / f"f{i}.cu").write_bytes(SRC if i % 2 else b"int x;\n")
    start = time.monotonic()
    proc = hipport(
        [
            "translate",
            tree,
            "--in-place",
            "-j",
            "2",
            "--no-progress",
            "--stats-json",
            tmp_path / "stats.json",
        ],
        tmp_path / "cache",
        timeout=1800,
    )
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr[-2000:]
    print(f"{MANY} files in {elapsed:.1f} s")
    changed = sum(1 for p in tree.rglob("*.cu") if p.read_bytes() == WANT)
    assert changed == MANY // 2
    assert sum(1 for _ in tree.rglob("*.cu")) == MANY
    assert not list(tree.rglob("*.hipport-tmp"))
    json.loads((tmp_path / "stats.json").read_text())


@pytest.mark.slow
def test_link_to_a_file_not_otherwise_in_the_run_updates_its_target(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "kernel.cu.txt").write_bytes(SRC)  # not a source suffix: not in the run itself
    (tree / "kernel.cu").symlink_to("kernel.cu.txt")
    code, err = _translate([tree, "--in-place"], tmp_path)
    assert code == 0, err
    assert (tree / "kernel.cu").is_symlink()
    assert (tree / "kernel.cu.txt").read_bytes() == WANT
    out = tmp_path / "out"
    (tree / "kernel.cu.txt").write_bytes(SRC)
    code, err = _translate([tree, "-o", out], tmp_path)
    assert (out / "kernel.cu").read_bytes() == WANT and not (out / "kernel.cu").is_symlink()
