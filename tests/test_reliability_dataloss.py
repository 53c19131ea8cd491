"""Nothing lost (issue 30 item 1): an edit made during an in-place run survives, in the
plain and the renaming modes, even one made while the temporary file is written; two
outputs to one path are refused before anything is written; a run killed between writing
`a.hip` and removing `a.cu` is finished by the next run; `-o` through a bind mount of the
input and reports written over an input are refused; rewrites keep extended attributes and
ACLs; a symlink named on the command line that leads out of the tree is left alone; a name
near NAME_MAX can be rewritten."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.reliability_support import cuda_file, expected, hipport, snapshot

SRC = cuda_file()
WANT = expected(SRC)
EDITED = cuda_file(b"    // the user's edit, made while hipport ran")


def _summary(paths: list[Path], rename: dict[str, str] | None = None):
    from hipport.config import load_config
    from hipport.runner import RunOptions, run_paths

    opts = RunOptions(use_cache=False, jobs=1, rename_suffix=rename or {}, need_results=True)
    return run_paths(paths, load_config(paths), opts)


@pytest.mark.parametrize("rename", [None, {".cu": ".hip"}], ids=["in-place", "hip-suffix"])
def test_an_edit_made_after_the_read_is_kept(tmp_path: Path, rename) -> None:
    from hipport.runner import write_outputs

    src = tmp_path / "a.cu"
    src.write_bytes(SRC)
    summary = _summary([tmp_path], rename)
    src.write_bytes(EDITED)  # the user saves while hipport is translating
    errors = write_outputs(summary, "in-place")
    assert [rel for rel, _ in errors] == ["a.cu"], errors
    assert "changed on disk during the run" in errors[0][1]
    assert snapshot(tmp_path) == {"a.cu": EDITED}


@pytest.mark.parametrize("rename", [None, {".cu": ".hip"}], ids=["in-place", "hip-suffix"])
def test_an_edit_made_while_the_temp_file_is_written_is_kept(
    tmp_path: Path, monkeypatch, rename
) -> None:
    """The user's save lands after hipport compared the file but before its rename: the
    identity check right before the rename sees it. (The edit is made from fsync, the last
    step before the rename: the one place a test can reach that window every time.)"""
    import hipport.fsio as fsio
    from hipport.runner import write_outputs

    src = tmp_path / "a.cu"
    src.write_bytes(SRC)
    summary = _summary([tmp_path], rename)
    real_fsync = os.fsync
    done = []

    def fsync_then_edit(fd: int) -> None:
        real_fsync(fd)
        if not done:
            done.append(1)
            src.write_bytes(EDITED)

    monkeypatch.setattr(fsio.os, "fsync", fsync_then_edit)
    errors = write_outputs(summary, "in-place")
    monkeypatch.undo()
    assert done, "the write never synced its temporary file"
    assert [rel for rel, _ in errors] == ["a.cu"], errors
    assert snapshot(tmp_path) == {"a.cu": EDITED}


def test_an_edit_of_the_same_size_within_the_same_second_is_seen(tmp_path: Path) -> None:
    """Size and mtime alone could miss an edit; the content hash does not."""
    from hipport.runner import write_outputs

    src = tmp_path / "a.cu"
    src.write_bytes(SRC)
    st = os.stat(src)
    summary = _summary([tmp_path])
    src.write_bytes(SRC.replace(b"cudaMalloc(&p, 4)", b"cudaMalloc(&p, 8)"))
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))
    errors = write_outputs(summary, "in-place")
    assert [rel for rel, _ in errors] == ["a.cu"], errors
    assert b"&p, 8" in src.read_bytes() and b"cudaMalloc" in src.read_bytes()


@pytest.mark.parametrize("cu", ["k.cu", "K.cu"], ids=["same-name", "case-only"])
def test_two_outputs_to_one_path_are_refused_before_writing(tmp_path: Path, cu: str) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / cu).write_bytes(SRC)
    (tree / "k.hip").write_bytes(b"#include <hip/hip_runtime.h>\nint other;\n")
    before = snapshot(tree)
    r = hipport(["translate", tree, "--in-place", "--hip-suffix", "--no-progress"], tmp_path / "c")
    assert r.returncode != 0, r.stdout
    err = r.stderr.decode()
    assert cu in err and "k.hip" in err, err
    assert snapshot(tree) == before


def test_two_outputs_to_one_path_are_refused_in_an_output_tree(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_bytes(SRC)
    (src / "k.hip").write_bytes(b"#include <hip/hip_runtime.h>\nint other;\n")
    out = tmp_path / "out"
    r = hipport(["translate", src, "-o", out, "--hip-suffix", "--no-progress"], tmp_path / "c")
    assert r.returncode != 0, r.stdout
    err = r.stderr.decode()
    assert "k.cu" in err and "k.hip" in err, err
    assert not (out / "k.hip").exists()


def test_a_kill_between_writing_and_unlinking_is_finished_by_the_next_run(tmp_path: Path) -> None:
    """The state a SIGKILL leaves between the two steps of a rename: `a.hip` holds the
    translation of `a.cu`, and `a.cu` is still there. The next run knows `a.hip` for its
    own work and removes `a.cu`, as a run that had not been killed would have."""
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    (tree / "b.cu").write_bytes(SRC)
    args = ["translate", tree, "--in-place", "--hip-suffix", "--no-progress"]
    cache = tmp_path / "c"
    (tree / "a.hip").write_bytes(WANT)  # what the killed run wrote before its unlink
    r = hipport(args, cache)
    assert r.returncode == 0, r.stderr.decode()
    assert snapshot(tree) == {"a.hip": WANT, "b.hip": WANT}
    # a second run leaves the finished tree as it is
    assert hipport(args, cache).returncode == 0
    assert snapshot(tree) == {"a.hip": WANT, "b.hip": WANT}


def test_kill_during_a_renaming_run_then_rerun(tmp_path: Path) -> None:
    """A real SIGKILL in the middle of a `--hip-suffix` run over 400 files: every file is
    either the original `.cu` or its translation under `.hip` (or both, a kill between the
    two steps); the next run finishes the job."""
    import signal
    import time

    from tests.reliability_support import popen

    tree = tmp_path / "t"
    for i in range(400):
        d = tree / f"d{i % 20}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"k{i}.cu").write_bytes(cuda_file(f"    int v{i} = {i};".encode()))
    want = {
        str(p.relative_to(tree).with_suffix(".hip")): expected(p.read_bytes())
        for p in tree.rglob("*.cu")
    }
    args = ["translate", tree, "--in-place", "--hip-suffix", "-j", "2", "--no-progress"]
    proc = popen(args, tmp_path / "c")
    deadline = time.monotonic() + 240
    while not any(tree.rglob("*.hip")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    after = snapshot(tree)
    for rel, data in after.items():
        name = rel.rsplit("/", 1)[-1]
        if name.endswith(".hipport-tmp"):
            continue
        if rel.endswith(".hip"):
            assert data == want[rel], rel
        else:
            assert rel.endswith(".cu") and expected(data) == want[rel[:-3] + ".hip"], rel
    r = hipport(args, tmp_path / "c")
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    assert snapshot(tree) == want


def test_an_output_tree_through_a_bind_mount_of_the_input_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(SRC)
    outb = tmp_path / "outb"
    outb.mkdir()
    mount = subprocess.run(["mount", "--bind", src, outb], capture_output=True)
    if mount.returncode != 0:
        pytest.skip(f"mount --bind refused here: {mount.stderr.decode().strip()}")
    try:
        for out in (outb, outb / "sub"):
            r = hipport(["translate", src, "-o", out, "--no-progress"], tmp_path / "c")
            assert r.returncode == 2, (out, r.stdout, r.stderr)
            assert "refusing" in r.stderr.decode()
            assert snapshot(src) == {"a.cu": SRC}
    finally:
        subprocess.run(["umount", outb], check=True)


def test_a_bind_mount_inside_the_output_tree_is_not_written_through(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "a.cu").write_bytes(SRC)
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    mount = subprocess.run(["mount", "--bind", src / "sub", out / "sub"], capture_output=True)
    if mount.returncode != 0:
        pytest.skip(f"mount --bind refused here: {mount.stderr.decode().strip()}")
    try:
        r = hipport(["translate", src, "-o", out, "--no-progress"], tmp_path / "c")
        assert r.returncode != 0, r.stdout
        assert snapshot(src) == {"sub/a.cu": SRC}
    finally:
        subprocess.run(["umount", out / "sub"], check=True)


@pytest.mark.parametrize(
    "option",
    [
        ["check", "-o", "{src}/a.cu"],
        ["check", "--report", "sarif={src}/a.cu"],
        ["translate", "--diff", "--stats-json", "{src}/a.cu"],
    ],
    ids=["check-o", "report", "stats-json"],
)
def test_no_report_is_written_over_an_input(tmp_path: Path, option: list[str]) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(SRC)
    args = [option[0], src, *[o.format(src=src) for o in option[1:]]]
    r = hipport(args, tmp_path / "c")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "a.cu" in r.stderr.decode() and "input" in r.stderr.decode()
    assert snapshot(src) == {"a.cu": SRC}


def test_baseline_never_writes_over_an_input(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(SRC)
    (src / "d.cu").write_bytes(SRC)
    r = hipport(["baseline", src, "--baseline", src / "d.cu"], tmp_path / "c")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert snapshot(src) == {"a.cu": SRC, "d.cu": SRC}


def test_in_place_keeps_extended_attributes_and_acls(tmp_path: Path) -> None:
    if not shutil.which("setfacl") or not shutil.which("getfacl"):
        pytest.skip("setfacl/getfacl not installed (tests/setup-system.sh installs acl)")
    src = tmp_path / "a.cu"
    src.write_bytes(SRC)
    try:
        os.setxattr(src, "user.origin", b"vendor drop 7")
    except OSError as exc:
        pytest.skip(f"this file system has no user extended attributes: {exc}")
    subprocess.run(["setfacl", "-m", "u:nobody:rw", src], check=True)
    acl_before = subprocess.run(["getfacl", "-c", src], capture_output=True, check=True).stdout
    r = hipport(["translate", src, "--in-place", "--no-progress"], tmp_path / "c")
    assert r.returncode == 0, r.stderr.decode()
    assert src.read_bytes() == WANT
    assert os.getxattr(src, "user.origin") == b"vendor drop 7"
    acl_after = subprocess.run(["getfacl", "-c", src], capture_output=True, check=True).stdout
    assert b"user:nobody:rw-" in acl_after and acl_after == acl_before


def test_a_named_symlink_out_of_the_tree_is_left_alone(tmp_path: Path) -> None:
    outside = tmp_path / "outside.cu"
    outside.write_bytes(SRC)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "b.cu").write_bytes(SRC)
    (tree / "link.cu").symlink_to(outside)
    r = hipport(["translate", tree / "link.cu", tree / "b.cu", "--in-place"], tmp_path / "c")
    assert "link.cu is a symbolic link; left as it is" in r.stderr.decode()
    assert (tree / "link.cu").is_symlink()
    assert outside.read_bytes() == SRC
    assert (tree / "b.cu").read_bytes() == WANT


def test_a_name_near_name_max_can_be_rewritten(tmp_path: Path) -> None:
    max_name = os.pathconf(tmp_path, "PC_NAME_MAX")
    src = tmp_path / ("k" * (max_name - 3) + ".cu")
    src.write_bytes(SRC)
    r = hipport(["translate", src, "--in-place", "--no-progress"], tmp_path / "c")
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    assert src.read_bytes() == WANT
