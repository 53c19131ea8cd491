"""No write outside the target, no overwrite of an input (issue 19 item 1), and odd file
names in every output (item 4): -o holding an input is refused, temp files are created
exclusively (a planted symlink is never followed), a failed copy leaves nothing and is not
counted, --backup never overwrites a backup, --in-place keeps owner and mode, reports are
written atomically whatever the file names, and --diff quotes names as git does."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability_support import ROOT, cuda_file, env, expected, hipport, snapshot

SRC = cuda_file()
WANT = expected(SRC)


def _project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "include").mkdir()
    (proj / "src" / "a.cu").write_bytes(SRC)
    (proj / "include" / "b.cuh").write_bytes(SRC)
    (proj / "parent").symlink_to(proj)
    return proj


# --- -o never holds an input ------------------------------------------------------------


@pytest.mark.parametrize("out", [".", "parent", "src", "src/sub", "include/.."])
@pytest.mark.slow
def test_output_holding_an_input_is_refused(tmp_path: Path, out: str) -> None:
    proj = _project(tmp_path)
    before = snapshot(proj)
    proc = hipport(
        ["translate", proj / "src", proj / "include", "-o", proj / out, "--no-progress"],
        tmp_path / "cache",
    )
    assert proc.returncode == 2, proc.stderr
    assert (
        b"refus" in proc.stderr or b"holds the input" in proc.stderr or b"inside" in (proc.stderr)
    )
    assert snapshot(proj) == before


@pytest.mark.slow
def test_output_beside_the_inputs_is_fine(tmp_path: Path) -> None:
    proj = _project(tmp_path)
    proc = hipport(
        ["translate", proj / "src", proj / "include", "-o", tmp_path / "out", "--no-progress"],
        tmp_path / "cache",
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "src" / "a.cu").read_bytes() == WANT
    assert (proj / "src" / "a.cu").read_bytes() == SRC


# --- temp files are exclusive; a failed copy leaves nothing -----------------------------


@pytest.mark.slow
def test_planted_symlink_at_the_copy_temp_name_is_not_followed(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    (tree / "data.txt").write_bytes(b"first\n")
    out = tmp_path / "out"
    assert hipport(["translate", tree, "-o", out], tmp_path / "c").returncode == 0
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    # the name the copy used to go through, and a few guesses around it
    for name in (".data.txt.hipport-copy", ".data.txt.hipport-tmp"):
        (out / name).symlink_to(victim)
    (tree / "data.txt").write_bytes(b"second\n")
    proc = hipport(["translate", tree, "-o", out, "--no-progress"], tmp_path / "c")
    assert proc.returncode == 0, proc.stderr
    assert victim.read_bytes() == b"precious\n"
    assert (out / "data.txt").read_bytes() == b"second\n"
    assert not (out / "data.txt").is_symlink()


def _limit_file_size() -> None:  # runs in the child: writes past 64 KiB fail with EFBIG
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))


@pytest.mark.slow
def test_failed_copy_is_removed_and_not_counted(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(SRC)
    (tree / "big.bin").write_bytes(os.urandom(1024 * 1024))
    (tree / "small.txt").write_bytes(b"ok\n")
    out = tmp_path / "out"
    stats = tmp_path / "stats.json"
    cmd = [sys.executable, "-m", "hipport", "translate", str(tree), "-o", str(out)]
    proc = subprocess.run(
        [*cmd, "--no-progress", "--no-cache", "--stats-json", str(stats)],
        env=env(tmp_path / "cache"),
        capture_output=True,
        timeout=120,
        cwd=str(ROOT),
        preexec_fn=_limit_file_size,
    )
    assert b"Traceback" not in proc.stderr, proc.stderr
    assert b"big.bin" in proc.stderr  # reported
    names = sorted(p.name for p in out.iterdir())
    assert names == ["a.cu", "small.txt"], names  # no partial big.bin, no temp file
    data = json.loads(stats.read_text())
    assert data["copied"] == 1, data


# --- backups and in-place metadata ------------------------------------------------------


@pytest.mark.slow
def test_backup_never_overwrites_a_backup(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    path = tree / "a.cu"
    versions = [SRC, SRC.replace(b"float *p;", b"float *p = 0;"), SRC + b"// third\n"]
    for i, version in enumerate(versions):
        path.write_bytes(version)
        proc = hipport(["translate", tree, "--in-place", "--backup"], tmp_path / "c")
        assert proc.returncode == 0, proc.stderr
        assert path.read_bytes() == expected(version), i
    assert (tree / "a.cu.orig").read_bytes() == versions[0]
    assert (tree / "a.cu.orig.1").read_bytes() == versions[1]
    assert (tree / "a.cu.orig.2").read_bytes() == versions[2]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
@pytest.mark.slow
def test_in_place_keeps_owner_and_mode(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    owned = tree / "owned.cu"
    owned.write_bytes(SRC)
    os.chown(owned, 65534, 65534)  # nobody:nogroup
    owned.chmod(0o640)
    plain = tree / "plain.cu"
    plain.write_bytes(SRC)
    plain.chmod(0o755)
    proc = hipport(["translate", tree, "--in-place"], tmp_path / "c")
    assert proc.returncode == 0, proc.stderr
    st = owned.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o640)
    assert owned.read_bytes() == WANT
    assert stat.S_IMODE(plain.stat().st_mode) == 0o755


@pytest.mark.slow
def test_in_place_never_adds_setuid(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    path = tree / "a.cu"
    path.write_bytes(SRC)
    path.chmod(0o644)
    assert hipport(["translate", tree, "--in-place"], tmp_path / "c").returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) & (stat.S_ISUID | stat.S_ISGID) == 0


# --- reports: atomic, whatever the names -------------------------------------------------

FORMATS = ("text", "json", "sarif", "junit", "github", "csv", "markdown", "html")
LATIN1 = "caf\udce9.cu"  # the bytes b"caf\xe9.cu": not UTF-8


def _odd_names_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "t"
    tree.mkdir()
    unported = b"#include <cuda_runtime.h>\nvoid f() { cudaInitDevice(0, 0, 0); }\n"
    (tree / os.fsdecode(b"caf\xe9.cu")).write_bytes(unported)
    (tree / "with space.cu").write_bytes(unported)
    return tree


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.slow
def test_non_utf8_file_name_in_every_format(tmp_path: Path, fmt: str) -> None:
    tree = _odd_names_tree(tmp_path)
    report = tmp_path / f"keep.{fmt}"
    report.write_bytes(b"OLD")
    proc = hipport(["check", tree, "--format", fmt, "-o", report], tmp_path / "c")
    assert proc.returncode == 1, proc.stderr
    text = report.read_bytes().decode("utf-8")  # valid UTF-8 whatever the names
    if fmt in ("json", "sarif"):
        text = "\n".join(_strings(json.loads(text)))
    assert "caf\\xe9.cu" in text or "caf%E9.cu" in text, text[:3000]
    assert "with space.cu" in text or "with%20space.cu" in text
    proc = hipport(["check", tree, "--format", fmt], tmp_path / "c")  # to stdout too
    assert proc.returncode == 1, proc.stderr
    proc.stdout.decode("utf-8")


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_report_survives_a_failed_run(tmp_path: Path) -> None:
    tree = _odd_names_tree(tmp_path)
    report = tmp_path / "keep.json"
    report.write_bytes(b"OLD")
    proc = hipport(
        ["check", tree, "--format", "json", "-o", report, "-p", tmp_path / "missing"],
        tmp_path / "c",
    )
    assert proc.returncode == 2, proc.stderr
    assert report.read_bytes() == b"OLD"


# --- --diff quotes names as git does ----------------------------------------------------


def _git(cwd: Path, *args: str) -> bytes:
    done = subprocess.run(
        ["git", "-c", "core.quotePath=true", *args], cwd=cwd, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


NAMES = [b"with space.cu", b"caf\xe9.cu", b'quote".cu', b"back\\slash.cu", b"tab\t.cu"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
@pytest.mark.slow
def test_diff_quotes_names_as_git_does(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name in NAMES:
        (repo / os.fsdecode(name)).write_bytes(SRC)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    ident = ["-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    _git(repo, *ident, "commit", "-qm", "cuda")
    proc = hipport(["translate", repo, "--diff"], tmp_path / "c")
    assert proc.returncode == 1, proc.stderr  # --diff: 1 when something would change
    ours = proc.stdout
    headers = [ln for ln in ours.splitlines() if ln.startswith((b"diff --git", b"---", b"+++"))]
    # git's own diff of the same change has the same header lines
    assert hipport(["translate", repo, "--in-place"], tmp_path / "c").returncode == 0
    theirs = _git(repo, "diff")
    git_headers = [
        ln for ln in theirs.splitlines() if ln.startswith((b"diff --git", b"---", b"+++"))
    ]
    assert sorted(headers) == sorted(git_headers)
    # and git applies ours to the original tree
    _git(repo, "checkout", "--", ".")
    (tmp_path / "p.diff").write_bytes(ours)
    _git(repo, "apply", str(tmp_path / "p.diff"))
    for name in NAMES:
        assert (repo / os.fsdecode(name)).read_bytes() == WANT, name
