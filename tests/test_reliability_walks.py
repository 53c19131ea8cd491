"""Robust walks and skipped sources (issue 19 items 3 and 4): a symlink loop, an unreadable
directory or file, a source skipped for its content are per-path findings (HIP203-HIP205)
in every report format, the gate fails on them, and the run goes on.

Permission denied is simulated honestly: the tests run as root, who reads everything, so
hipport is run with CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped from its bounding set
(`setpriv`), which makes the kernel apply the permission bits to it. Where that is not
possible the tests are skipped, saying why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability_support import ROOT, cuda_file, env, expected, hipport

SRC = cuda_file()
WANT = expected(SRC)
FORMATS = ("text", "json", "sarif", "junit", "github", "csv", "markdown", "html")
DROP_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def _check(args: list, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    return hipport(["check", *args, "--no-progress", *extra], tmp_path / "cache")


def _json(proc: subprocess.CompletedProcess) -> dict:
    return json.loads(proc.stdout)


def _codes_by_path(report: dict) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for f in report["findings"]:
        out.setdefault(f["location"]["path"], set()).add(f["code"])
    return out


# --- symlink loops --------------------------------------------------------------------------


def _loop_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "t"
    (tree / "sub").mkdir(parents=True)
    (tree / "ok.cu").write_bytes(SRC)
    (tree / "a").symlink_to("b")  # a -> b -> a: no source suffix, still a loop
    (tree / "b").symlink_to("a")
    (tree / "self.cu").symlink_to("self.cu")
    (tree / "sub" / "up").symlink_to("..")  # a link to a parent: walked once, no loop
    return tree


@pytest.mark.slow
def test_symlink_loops_are_findings_and_the_run_goes_on(tmp_path: Path) -> None:
    tree = _loop_tree(tmp_path)
    proc = _check([tree, "--format", "json"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    by_path = _codes_by_path(_json(proc))
    assert by_path.get("self.cu") == {"HIP204"}
    assert by_path.get("a") == {"HIP204"} and by_path.get("b") == {"HIP204"}
    assert "sub/up" not in by_path
    files = _json(proc)["files"]
    assert any(f["path"] == "ok.cu" for f in files)


@pytest.mark.slow
def test_symlink_loop_in_translate_is_no_traceback(tmp_path: Path) -> None:
    tree = _loop_tree(tmp_path)
    proc = hipport(["translate", tree, "-o", tmp_path / "out", "--no-progress"], tmp_path / "c")
    err = proc.stderr.decode()
    assert "Traceback" not in err, err
    assert proc.returncode in (0, 1), err
    assert (tmp_path / "out" / "ok.cu").read_bytes() == WANT
    assert "self.cu: skipped: symlink loop" in err


@pytest.mark.slow
def test_symlink_loop_named_on_the_command_line(tmp_path: Path) -> None:
    tree = _loop_tree(tmp_path)
    proc = _check([tree / "a", tree / "ok.cu", "--format", "json"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "HIP204" in _codes_by_path(_json(proc)).get("a", set())
    proc = hipport(["translate", tree / "self.cu", "--stdout"], tmp_path / "c")
    assert b"Traceback" not in proc.stderr, proc.stderr
    assert b"symlink loop" in proc.stderr


# --- permission denied ----------------------------------------------------------------------


def _unprivileged_works(probe: Path) -> bool:
    """True when hipport can run without the permission-bypassing capabilities (root here)
    and a chmod 000 directory is then really unreadable."""
    if shutil.which("setpriv") is None:
        return False
    probe.mkdir()
    probe.chmod(0)
    try:
        done = subprocess.run(
            [*DROP_DAC, sys.executable, "-c", f"import os; os.listdir({str(probe)!r})"],
            capture_output=True,
        )
    finally:
        probe.chmod(0o755)
    return done.returncode != 0 and b"PermissionError" in done.stderr


def _check_unprivileged(args: list, tmp_path: Path) -> subprocess.CompletedProcess:
    cmd = [*DROP_DAC, sys.executable, "-m", "hipport", "check", *map(str, args), "--no-progress"]
    return subprocess.run(
        cmd, env=env(tmp_path / "cache"), capture_output=True, timeout=120, cwd=str(ROOT)
    )


@pytest.fixture
def locked_tree(tmp_path: Path):
    if os.geteuid() != 0 and not _unprivileged_works(tmp_path / "probe"):
        pytest.skip("cannot make a directory unreadable for this user")
    if os.geteuid() == 0 and not _unprivileged_works(tmp_path / "probe"):
        pytest.skip("root reads everything and setpriv cannot drop CAP_DAC_OVERRIDE here")
    tree = tmp_path / "t"
    (tree / "locked").mkdir(parents=True)
    (tree / "locked" / "hidden.cu").write_bytes(SRC)
    (tree / "ok.cu").write_bytes(SRC)
    (tree / "secret.cu").write_bytes(SRC)
    (tree / "locked").chmod(0)
    (tree / "secret.cu").chmod(0)
    yield tree
    (tree / "locked").chmod(0o755)
    (tree / "secret.cu").chmod(0o644)


@pytest.mark.slow
def test_unreadable_directory_and_file_are_findings(locked_tree: Path, tmp_path: Path) -> None:
    proc = _check_unprivileged([locked_tree, "--format", "json"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    by_path = _codes_by_path(report)
    assert by_path.get("locked") == {"HIP205"}, by_path
    assert by_path.get("secret.cu") == {"HIP205"}, by_path
    assert "ok.cu" in {f["path"] for f in report["files"]}  # the run went on
    messages = [f["message"] for f in report["findings"] if f["code"] == "HIP205"]
    assert all("permission denied" in m for m in messages), messages


# --- skipped sources ------------------------------------------------------------------------


def _skipped_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "ok.cu").write_bytes(SRC)
    (tree / "nul.cu").write_bytes(SRC[:20] + b"\0" + SRC[20:])
    (tree / "utf16.cu").write_bytes(SRC.decode().encode("utf-16"))
    (tree / "big.cu").write_bytes(SRC * 200)
    (tree / ".hipport.toml").write_text("max-file-size = 4096\n")
    return tree


SKIPPED = ("nul.cu", "utf16.cu", "big.cu")


@pytest.mark.slow
def test_skipped_source_fails_the_gate(tmp_path: Path) -> None:
    tree = _skipped_tree(tmp_path)
    proc = _check([tree, "--format", "json"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    by_path = _codes_by_path(_json(proc))
    for name in SKIPPED:
        assert by_path.get(name) == {"HIP203"}, (name, by_path)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.slow
def test_skipped_source_is_in_every_format(tmp_path: Path, fmt: str) -> None:
    tree = _skipped_tree(tmp_path)
    proc = _check([tree, "--format", fmt], tmp_path)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout.decode()
    for name in SKIPPED:
        assert name in out, (fmt, name)
    assert "HIP203" in out or "skipped-source" in out, fmt


@pytest.mark.slow
def test_skipped_source_severity_is_configurable(tmp_path: Path) -> None:
    tree = _skipped_tree(tmp_path)
    (tree / ".hipport.toml").write_text('max-file-size = 4096\n[severity]\nHIP203 = "warning"\n')
    proc = _check([tree, "--format", "json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    levels = {f["severity"] for f in _json(proc)["findings"] if f["code"] == "HIP203"}
    assert levels == {"warning"}


@pytest.mark.slow
def test_readable_tree_has_no_walk_findings(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    (tree / "sub").mkdir(parents=True)
    (tree / "ok.cu").write_bytes(SRC)
    (tree / "sub" / "up").symlink_to("..")
    proc = _check([tree, "--format", "json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    codes = {f["code"] for f in _json(proc)["findings"]}
    assert not codes & {"HIP202", "HIP203", "HIP204", "HIP205"}
