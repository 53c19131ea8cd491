"""Nothing hangs (issue 19 item 2): a per-file time limit turns a runaway file into a
per-file error while the run goes on (with -j too); every read of a path re-checks that it
is a regular file and opens it non-blocking (cache revalidation, compile_commands.json);
workers die with their parent (a real SIGKILL of the main process leaves no process).

The slow file is an ordinary file on which the worker stalls: the test-only hook
HIPPORT_TEST_STALL_ON=TEXT:SECONDS (hipport.runner.pool.process) makes a worker sleep that
long on a path containing TEXT, as a file that slow would. The tests set a time limit far
below the stall and far above what a small file needs, and assert on outcomes, not on
times."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.reliability_support import ROOT, cuda_file, env, expected, hipport

SRC = cuda_file()
WANT = expected(SRC)
# The worker stalls on slow.cu for a minute: far past the 1 s limits the tests set.
STALL = {"HIPPORT_TEST_STALL_ON": "slow.cu:60"}


def _tree(tmp_path: Path, small: int = 12) -> Path:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "slow.cu").write_bytes(SRC)
    for i in range(small):
        (tree / f"f{i:02d}.cu").write_bytes(SRC)
    return tree


def _files(report: dict) -> dict[str, str]:
    return {f["path"]: f["status"] for f in report["files"]}


@pytest.mark.slow
def test_time_limit_turns_a_runaway_file_into_an_error(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    for jobs in ("1", "2"):
        proc = hipport(
            ["check", tree, "--format", "json", "--no-cache", "-j", jobs, "--time-limit", "1"],
            tmp_path / "cache",
            timeout=300,
            **STALL,
        )
        assert proc.returncode == 1, proc.stderr
        report = json.loads(proc.stdout)
        files = _files(report)
        assert files.pop("slow.cu") == "failed", jobs
        assert set(files.values()) == {"changed"}, files
        assert len(files) == 12
        errors = [f for f in report["findings"] if f["location"]["path"] == "slow.cu"]
        assert [f["code"] for f in errors] == ["HIP202"]
        assert "time limit" in errors[0]["message"]


@pytest.mark.slow
def test_time_limit_stops_a_run_of_one_file(tmp_path: Path) -> None:
    """A run of one small file translates it in the main process, not in a worker (issue
    30 item 4): the time limit holds there too. Before, the file finished after its stall
    and passed."""
    tree = _tree(tmp_path, small=0)
    proc = hipport(
        ["check", tree / "slow.cu", "--format", "json", "--no-cache", "--time-limit", "1"],
        tmp_path / "cache",
        timeout=300,
        **STALL,
    )
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert _files(report) == {"slow.cu": "failed"}
    [error] = report["findings"]
    assert error["code"] == "HIP202" and "time limit" in error["message"], error


@pytest.mark.slow
def test_time_limit_from_the_configuration(tmp_path: Path) -> None:
    tree = _tree(tmp_path, small=2)
    (tree / ".hipport.toml").write_text("time-limit = 1\n")
    proc = hipport(
        ["translate", tree, "-o", tmp_path / "out", "-j", "2", "--no-cache"],
        tmp_path / "c",
        **STALL,
    )
    err = proc.stderr.decode()
    assert "slow.cu" in err and "time limit" in err, err
    assert (tmp_path / "out" / "f00.cu").read_bytes() == WANT
    assert not (tmp_path / "out" / "slow.cu").exists() or (
        (tmp_path / "out" / "slow.cu").read_bytes() == SRC  # copied as it is
    )


@pytest.mark.slow
def test_default_time_limit_lets_a_slow_file_finish(tmp_path: Path) -> None:
    """A file that takes seconds (a 3 s stall) is far inside the default limit."""
    tree = _tree(tmp_path, small=1)
    proc = hipport(
        ["check", tree, "--format", "json", "--no-cache", "-j", "2"],
        tmp_path / "c",
        HIPPORT_TEST_STALL_ON="slow.cu:3",
    )
    assert proc.returncode == 0, proc.stderr
    assert _files(json.loads(proc.stdout))["slow.cu"] != "failed"


# --- special files where a regular file was ---------------------------------------------


def _returns_within(func, seconds: float = 10):
    """Run func() in a thread; fail (instead of hanging the suite) if it blocks."""
    import threading

    box: list = []
    thread = threading.Thread(target=lambda: box.append(func()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{func} blocked"
    return box[0]


def test_cache_revalidation_never_reads_a_fifo(tmp_path: Path) -> None:
    """A file replaced by a FIFO after discovery (between the walk and the cache check):
    the stat says size 0 like the empty file it replaced, so the content is re-read."""
    from hipport.cache import Manifest, ResultStore, content_hash

    path = tmp_path / "empty.cu"
    path.write_bytes(b"")
    manifest = Manifest(tmp_path / "m", "key", ResultStore(tmp_path / "r", "salt"))
    manifest.record("k", os.stat(path), content_hash(b""), {"info": 1})
    path.unlink()
    os.mkfifo(path)
    assert _returns_within(lambda: manifest.check("k", path)) is None
    store = manifest.results
    store.store(content_hash(b""), "k", b"", b"", ("a", [], [], [], frozenset()))
    assert _returns_within(lambda: store.load(content_hash(b""), "k", path, None, _make)) is None


def _make(source: bytes, output: bytes, fields: tuple) -> tuple:
    return source, output, fields


@pytest.mark.slow
def test_writes_never_read_a_fifo_in_the_output_tree(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "empty.cu").write_bytes(b"")  # an empty output: the FIFO there has its size
    (tree / "notes.txt").write_bytes(b"")
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "empty.cu")
    os.mkfifo(out / "notes.txt")
    proc = hipport(["translate", tree, "-o", out, "--allow-empty"], tmp_path / "c", timeout=60)
    assert b"Traceback" not in proc.stderr, proc.stderr


@pytest.mark.slow
def test_compile_commands_fifo_is_refused_not_read(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    db = tmp_path / "db"
    db.mkdir()
    os.mkfifo(db / "compile_commands.json")
    proc = hipport(["check", tree, "-p", db], tmp_path / "cache", timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert b"compile_commands.json" in proc.stderr and b"not a regular file" in proc.stderr


# --- workers die with their parent ------------------------------------------------------


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its exit status is left


@pytest.mark.slow
def test_sigkill_of_the_main_process_leaves_no_worker(tmp_path: Path) -> None:
    tree = _tree(tmp_path, small=40)  # both workers stall on a slow file: busy when killed
    (tree / "slow1.cu").write_bytes(SRC)
    cmd = [sys.executable, "-m", "hipport", "check", str(tree), "-j", "2", "--no-cache"]
    proc = subprocess.Popen(
        cmd,
        env=env(tmp_path / "cache", HIPPORT_TEST_STALL_ON="slow:60"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=str(ROOT),
    )
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            workers |= _children(proc.pid)
            time.sleep(0.05)
        assert len(workers) >= 2, "the run never started its workers"
        time.sleep(0.5)  # let them get busy on a file
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [w for w in workers if _alive(w)]
        assert not left, f"workers left running after SIGKILL of their parent: {left}"
    finally:
        for w in _children(proc.pid):
            os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
