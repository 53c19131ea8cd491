"""Writes: temp file + fsync + rename in the same directory, modes kept, interrupted runs
leave every file original or fully translated, output directories cannot be escaped."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest

from tests.reliability_support import cuda_file, expected, hipport, popen, snapshot

SRC = cuda_file()
WANT = expected(SRC)


def test_atomic_write_is_temp_fsync_rename_in_the_same_directory(
    tmp_path: Path, monkeypatch
) -> None:
    from hipport import fsio

    target = tmp_path / "a.cu"
    target.write_bytes(b"old")
    target.chmod(0o640)
    calls: list[tuple] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        calls.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst):
        calls.append(("replace", str(src), str(dst), Path(src).read_bytes()))
        return real_replace(src, dst)

    monkeypatch.setattr(fsio.os, "fsync", fsync)
    monkeypatch.setattr(fsio.os, "replace", replace)
    fsio.atomic_write(target, b"new")
    assert calls[0][0] == "fsync" and calls[1][0] == "replace"
    tmp = calls[1][1]
    assert calls[0][1] == tmp  # the temp file's data reached the disk before the rename
    assert Path(tmp).parent == tmp_path and Path(tmp).name.endswith(".hipport-tmp")
    assert calls[1][2:] == (str(target), b"new")
    assert calls[2] == ("fsync", str(tmp_path))  # and the rename itself
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["a.cu"]


def test_failed_write_leaves_no_temp_file(tmp_path: Path, monkeypatch) -> None:
    from hipport import fsio

    target = tmp_path / "a.cu"
    target.write_bytes(b"old")

    def boom(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fsio.os, "fsync", boom)
    with pytest.raises(OSError):
        fsio.atomic_write(target, b"new")
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["a.cu"]


@pytest.mark.parametrize("mode", ["in-place", "outdir"])
@pytest.mark.slow
def test_modes_are_kept(tmp_path: Path, mode: str) -> None:
    """0444 (read-only) sources are still translated in place: the rename needs only write
    permission on the directory, and the mode is carried over to the new file."""
    tree = tmp_path / "t"
    tree.mkdir()
    modes = {"exec.cu": 0o755, "private.cu": 0o600, "readonly.cu": 0o444}
    for name, m in modes.items():
        (tree / name).write_bytes(SRC)
        (tree / name).chmod(m)
    args = ["--in-place"] if mode == "in-place" else ["-o", tmp_path / "out"]
    proc = hipport(["translate", tree, *args, "--no-progress"], tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    out = tree if mode == "in-place" else tmp_path / "out"
    for name, m in modes.items():
        assert (out / name).read_bytes() == WANT, name
        assert stat.S_IMODE((out / name).stat().st_mode) == m, name


# --- interrupts -----------------------------------------------------------------------------


def _make_tree(root: Path, count: int) -> dict[str, tuple[bytes, bytes]]:
    """count files, each different; relpath -> (original, full translation)."""
    states = {}
    for i in range(count):
        d = root / f"d{i % 20:02}"
        d.mkdir(parents=True, exist_ok=True)
        data = cuda_file(f"    int unique_{i} = {i}; // file {i}".encode())
        (d / f"f{i:04}.cu").write_bytes(data)
        states[f"d{i % 20:02}/f{i:04}.cu"] = (data, expected(data))
    return states


def _wait_until_some_changed(
    tree: Path, states: dict, proc: subprocess.Popen, timeout: float = 240
) -> int:  # click values
    deadline = time.monotonic() + timeout
    names = sorted(states)
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the run ended before it could be interrupted"
        done = 0
        for rel in names[::25]:
            try:
                if (tree / rel).read_bytes() == states[rel][1]:
                    done += 1
            except OSError:
                pass
        if done >= 2:
            return done
        time.sleep(0.01)
    raise AssertionError("no file changed in time")


def _check_each_file_whole(tree: Path, states: dict) -> tuple[int, int, list[str]]:
    found = snapshot(tree)
    temps = sorted(rel for rel in found if rel not in states)
    original = translated = 0
    for rel, (before, after) in states.items():
        got = found.get(rel)
        assert got in (before, after), f"{rel} is neither original nor fully translated"
        original += got == before
        translated += got == after
    return original, translated, temps


@pytest.mark.slow
def test_sigint_during_in_place_run(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    states = _make_tree(tree, 1000)
    proc = popen(["translate", tree, "--in-place", "-j", "2", "--no-progress"], tmp_path / "cache")
    _wait_until_some_changed(tree, states, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert b"interrupted" in err
    original, translated, temps = _check_each_file_whole(tree, states)
    assert temps == []  # SIGINT is caught: temp files are removed
    assert original > 0 and translated > 0, (original, translated)


def _cached_results(cache: Path) -> int:
    """Result entries in the cache: the runner stores each file's result as it arrives
    from the pool, so one entry marks a run that is translating (and has not finished)."""
    return sum(1 for _ in cache.glob("v*/results/*/*.json"))


def _wait_until_translating(cache: Path, proc: subprocess.Popen, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the run ended before it could be interrupted"
        if _cached_results(cache):
            return
        time.sleep(0.005)
    raise AssertionError("no result reached the cache in time")


@pytest.mark.parametrize("command", ["translate", "check"])
@pytest.mark.slow
def test_sigint_while_translating_exits_130(tmp_path: Path, command: str) -> None:
    """SIGINT while the pool is busy (the first result is in the cache): exit 130 in every
    command, and (translate) nothing half-written. No sleep guesses at the timing: the
    signal is sent once the run is seen translating."""
    tree = tmp_path / "t"
    states = _make_tree(tree, 2000)
    cache = tmp_path / "cache"
    args = {
        "translate": ["translate", tree, "--in-place", "-j", "2", "--no-progress"],
        "check": ["check", tree, "-j", "2", "--format", "json"],
    }[command]
    proc = popen(args, cache)
    _wait_until_translating(cache, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err.decode()[-2000:]
    assert b"hipport: interrupted" in err
    original, translated, temps = _check_each_file_whole(tree, states)
    assert temps == []
    if command == "check" or _cached_results(cache) < len(states):
        # interrupted before every result was in: in-place writes had not begun
        assert translated == 0


@pytest.mark.slow
def test_sigkill_during_in_place_run_then_rerun(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    states = _make_tree(tree, 1000)
    args = ["translate", tree, "--in-place", "-j", "2", "--no-progress"]
    proc = popen(args, tmp_path / "cache")
    proc.stdout.close()
    _wait_until_some_changed(tree, states, proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    original, translated, temps = _check_each_file_whole(tree, states)
    assert original > 0 and translated > 0, (original, translated)
    # a kill between write and rename can leave a temp file: only ever hipport's own
    for rel in temps:
        name = rel.rsplit("/", 1)[-1]
        assert name.startswith(".") and name.endswith(".hipport-tmp"), rel
    # the next run finishes the job and removes what the killed run left; a kill between
    # write and rename is rare enough to plant one such file as well (named by the dead pid)
    folder, name = sorted(states)[0].split("/")
    planted = tree / folder / f".{name}.{proc.pid}.k1ll3d.hipport-tmp"
    planted.write_bytes(b"half a file")
    rerun = hipport(args, tmp_path / "cache")
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert snapshot(tree) == {rel: after for rel, (_, after) in states.items()}
    assert not planted.exists()
    print(f"SIGKILL: {original} original, {translated} translated, {len(temps)} temp files")


def test_stale_temp_files_of_dead_runs_are_found_then_removed(tmp_path: Path) -> None:
    from hipport.project import discover, remove_stale_temps

    dead = subprocess.Popen(["true"])
    dead.wait()
    (tmp_path / "a.cu").write_bytes(SRC)
    stale = tmp_path / f".a.cu.{dead.pid}.x1y2z3.hipport-tmp"
    stale.write_bytes(b"half")
    live = tmp_path / f".a.cu.{os.getpid()}.q9w8e7.hipport-tmp"
    live.write_bytes(b"being written")
    user_file = tmp_path / ".notes.hipport-tmp.txt"
    user_file.write_bytes(b"mine")
    found = discover([tmp_path])
    # discovery only reads: it names the stale file and leaves it (a writing run removes it)
    assert found.stale_temps == [stale] and stale.exists()
    assert [f.relpath for f in found.files] == ["a.cu"]
    removed = remove_stale_temps(found.stale_temps)
    assert not stale.exists() and live.exists() and user_file.exists()
    assert [s.path for s in removed] == [stale] and "interrupted run" in removed[0].reason


@pytest.mark.parametrize(
    ("args", "removes"),
    [
        (["check", "--no-cache"], False),
        (["translate", "--diff"], False),
        (["translate", "--stdout"], False),
        (["translate", "--in-place"], True),
        (["translate", "-o", "OUT"], True),
    ],
)
@pytest.mark.slow
def test_only_writing_runs_remove_stale_temp_files(
    tmp_path: Path, args: list[str], removes: bool
) -> None:
    """`check` says it writes only reports, so it deletes nothing, not even a temporary
    file a killed run left; translate -o and --in-place remove it (issues 24, 30)."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    stale = tree / f".a.cu.{dead.pid}.x1y2z3.hipport-tmp"
    stale.write_bytes(b"half a file")
    command = [a if a != "OUT" else tmp_path / "out" for a in args]
    proc = hipport([command[0], tree, *command[1:], "--no-progress"], tmp_path / "cache")
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert stale.exists() is not removes
    if not removes:
        assert stale.read_bytes() == b"half a file"


# --- output directory containment -----------------------------------------------------------


def test_safe_join_refuses_escapes(tmp_path: Path) -> None:
    from hipport.runner import safe_join

    out = tmp_path / "out"
    (out / "inside").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (out / "link").symlink_to(outside)
    (out / "file_link.cu").symlink_to(outside / "x.cu")
    assert safe_join(out, "inside/a.cu") == out / "inside" / "a.cu"
    for rel in (
        "../x.cu",
        "inside/../../x.cu",
        "/etc/passwd",
        str(outside / "x.cu"),
        "link/x.cu",
        "link/deeper/x.cu",
        "file_link.cu",
    ):
        with pytest.raises(OSError, match="refusing"):
            safe_join(out, rel)


def test_write_outputs_never_escapes(tmp_path: Path) -> None:
    from hipport.engine import translate_source
    from hipport.runner import FileOutcome, RunSummary, write_outputs
    from hipport.runner.outcome import InMemory
    from hipport.target import Target

    src = tmp_path / "a.cu"
    src.write_bytes(SRC)
    result = translate_source(SRC, "a.cu", Target())
    out = tmp_path / "out"
    out.mkdir()
    files = [
        FileOutcome(src, rel, "source", "changed", InMemory(result), out_relpath=rel)
        for rel in ("../escape.cu", "/tmp/abs_escape_hipport.cu", "ok.cu")
    ]
    summary = RunSummary(tmp_path, tmp_path, Target(), files)
    errors = dict(write_outputs(summary, "outdir", out))
    assert set(errors) == {"../escape.cu", "/tmp/abs_escape_hipport.cu"}
    assert not (tmp_path / "escape.cu").exists()
    assert not Path("/tmp/abs_escape_hipport.cu").exists()
    assert (out / "ok.cu").read_bytes() == WANT


@pytest.mark.slow
def test_cli_never_writes_through_a_symlinked_folder_in_the_output(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "a.cu").write_bytes(SRC)
    (tree / "b.cu").write_bytes(SRC)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.cu").write_bytes(b"precious")
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").symlink_to(outside)
    (out / "b.cu").symlink_to(outside / "b.cu")
    proc = hipport(["translate", tree, "-o", out, "--no-progress"], tmp_path / "cache")
    err = proc.stderr.decode()
    assert "Traceback" not in err
    assert (outside / "a.cu").read_bytes() == b"precious"
    assert not (outside / "b.cu").exists()
    assert "sub/a.cu: cannot write: refusing" in err and "b.cu: cannot write: refusing" in err


def _translate_to_new_tree(tmp_path: Path, monkeypatch, files: int):
    """A tree of `files` sources in two folders and a README, translated in this process
    into a new output directory; returns (tree, out, summary) before writing."""
    from hipport import runner
    from hipport.config import load_config

    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "t"
    for i in range(files):
        folder = tree / ("a" if i % 2 else "b")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i}.cu").write_bytes(cuda_file())
    (tree / "README").write_bytes(b"copied as it is\n")
    opts = runner.RunOptions(jobs=1, with_other=True, use_cache=False)
    summary = runner.run_paths([tree], load_config([tree]), opts)
    (tmp_path / "out").mkdir()
    (tmp_path / "out2").mkdir()
    return tree, tmp_path / "out", summary


def test_a_new_output_tree_syncs_once_per_directory_batch(tmp_path: Path, monkeypatch) -> None:
    """translate -o into a new directory: the files of one folder are synced together (one
    data sync and one directory fsync per folder), not an fsync and a directory fsync per
    file; every file is there whole and no temporary file is left."""
    from hipport import fsio, runner

    tree, out, summary = _translate_to_new_tree(tmp_path, monkeypatch, 20)
    syncs: list[str] = []
    real_fsync, real_sync_data = os.fsync, fsio._sync_data

    def fsync(fd):
        syncs.append("fsync " + os.readlink(f"/proc/self/fd/{fd}"))
        return real_fsync(fd)

    def sync_data(paths, directory):
        syncs.append(f"data of {len(paths)} files in {directory}")
        return real_sync_data(paths, directory)

    monkeypatch.setattr(fsio.os, "fsync", fsync)
    monkeypatch.setattr(fsio, "_sync_data", sync_data)
    assert runner.write_outputs(summary, "outdir", out) == []
    assert snapshot(out) == {
        rel: (expected(data) if rel.endswith(".cu") else data)
        for rel, data in snapshot(tree).items()
    }
    folders = {out, out / "a", out / "b"}
    assert sorted(s for s in syncs if s.startswith("data")) == sorted(
        f"data of {n} files in {d}" for d, n in ((out, 1), (out / "a", 10), (out / "b", 10))
    )
    dir_syncs = [s for s in syncs if s.startswith("fsync") and Path(s[6:]) in folders]
    assert len(dir_syncs) == 3 and len(syncs) <= 6  # (syncfs: no per-file fsync at all)
    assert not [p for p in out.rglob("*") if p.name.endswith(".hipport-tmp")]


def test_an_interrupted_batch_leaves_each_file_absent_or_whole(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C while a folder's batch is being written: what was committed is whole, what
    was not is absent, no temporary file is left; a second interruption inside the commit
    (between renames) leaves each file absent or whole too."""
    from hipport import fsio, runner

    tree, out, summary = _translate_to_new_tree(tmp_path, monkeypatch, 12)
    want = {
        rel: (expected(data) if rel.endswith(".cu") else data)
        for rel, data in snapshot(tree).items()
    }
    real_write = fsio.DirectoryBatch.write
    seen = []

    def write(self, path, data, mode, tag=None):
        seen.append(path)
        if len(seen) == 9:  # inside the second folder's batch
            raise KeyboardInterrupt
        return real_write(self, path, data, mode, tag)

    monkeypatch.setattr(fsio.DirectoryBatch, "write", write)
    with pytest.raises(KeyboardInterrupt):
        runner.write_outputs(summary, "outdir", out)
    written = snapshot(out)
    assert written and all(want[rel] == data for rel, data in written.items())
    assert len(written) < len(want)
    assert not [p for p in out.rglob("*") if p.name.endswith(".hipport-tmp")]

    monkeypatch.setattr(fsio.DirectoryBatch, "write", real_write)
    real_replace = os.replace
    renames = []

    def replace(src, dst):
        renames.append(dst)
        if len(renames) == 3:
            raise KeyboardInterrupt
        return real_replace(src, dst)

    out2 = tmp_path / "out2"  # a new one
    monkeypatch.setattr(fsio.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        runner.write_outputs(summary, "outdir", out2)
    written = snapshot(out2)
    assert len(written) == 2 and all(want[rel] == data for rel, data in written.items())
    assert not [p for p in out2.rglob("*") if p.name.endswith(".hipport-tmp")]
