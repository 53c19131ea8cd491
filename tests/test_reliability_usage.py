"""Bad user input is a usage error naming the file, never an "internal error" (issue 30
item 7): compilation databases of the wrong shape, baselines with an infinite count or
nested past the parser's depth, `rocm = ""`, `compile-commands = "/dev/zero"`, a report
that cannot be written for want of space; and a report written to a device node (the
`-o /dev/null` idiom) writes to the device instead of replacing it with a file."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from tests.reliability_support import hipport

SRC = b"#include <cuda_runtime.h>\nint main() { void *p; cudaMalloc(&p, 4); return 0; }\n"


def _usage_error(r: subprocess.CompletedProcess, names: str) -> None:
    err = r.stderr.decode()
    assert r.returncode == 2, (r.returncode, err)
    assert "internal error" not in err and "Traceback" not in err, err
    assert names in err, err


@pytest.mark.parametrize(
    "db",
    [
        "{}",
        "[1]",
        '[{"file": 3}]',
        '[{"file": "a.cu", "arguments": "nvcc a.cu"}]',
        '[{"file": "a.cu", "command": "nvcc \'unclosed a.cu"}]',
        '[{"file": "a.cu", "directory": ["."], "command": "nvcc a.cu"}]',
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["object", "number", "file-number", "arguments-str", "unclosed", "dir-list", "deep"],
)
def test_a_malformed_compilation_database_is_a_usage_error(tmp_path: Path, db: str) -> None:
    (tmp_path / "a.cu").write_bytes(SRC)
    (tmp_path / "compile_commands.json").write_text(db)
    r = hipport(["check", tmp_path / "a.cu", "-p", tmp_path], tmp_path / "c")
    _usage_error(r, "compile_commands.json")


def test_compile_commands_naming_a_device_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_bytes(SRC)
    (tmp_path / ".hipport.toml").write_text('compile-commands = "/dev/zero"\n')
    r = hipport(["check", tmp_path / "a.cu"], tmp_path / "c", timeout=60)
    _usage_error(r, "/dev/zero")


@pytest.mark.parametrize(
    "baseline",
    [
        '{"schema_version": 1, "entries": [{"path": "a.cu", "code": "HIP001", "api": "x", '
        '"count": 1e309}]}',
        '{"schema_version": 1, "entries": [{"path": "a.cu", "code": "HIP001", "api": "x", '
        '"count": "many"}]}',
        '{"schema_version": 1e309, "entries": []}',
        '{"entries": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"entries": [["a.cu"]]}',
    ],
    ids=["infinite-count", "text-count", "infinite-version", "deep", "entry-list"],
)
def test_a_malformed_baseline_is_a_usage_error(tmp_path: Path, baseline: str) -> None:
    (tmp_path / "a.cu").write_bytes(SRC)
    (tmp_path / "base.json").write_text(baseline)
    r = hipport(["check", tmp_path / "a.cu", "--baseline", tmp_path / "base.json"], tmp_path / "c")
    _usage_error(r, "base.json")


def test_an_empty_rocm_in_the_configuration_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_bytes(SRC)
    (tmp_path / ".hipport.toml").write_text('rocm = ""\n')
    r = hipport(["check", tmp_path / "a.cu"], tmp_path / "c")
    _usage_error(r, ".hipport.toml")


def _tiny_tmpfs(where: Path) -> None:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", where], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.decode().strip()}")


def test_a_full_disk_on_a_report_is_an_error_naming_the_file(tmp_path: Path) -> None:
    calls = b"  cudaInitDevice(0, 0, 0);\n" * 2000  # 2,000 findings: a report far over 16 KiB
    (tmp_path / "a.cu").write_bytes(b"#include <cuda_runtime.h>\nvoid f() {\n" + calls + b"}\n")
    full = tmp_path / "full"
    _tiny_tmpfs(full)
    try:
        r = hipport(
            ["check", tmp_path / "a.cu", "--format", "json", "-o", full / "r.json"],
            tmp_path / "c",
        )
        _usage_error(r, "r.json")
        assert "No space left" in r.stderr.decode()
        assert os.listdir(full) == []  # no partial report, no temp file
    finally:
        subprocess.run(["umount", full], check=True)


def test_a_report_to_a_device_node_writes_to_the_device(tmp_path: Path) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers
    except PermissionError:
        pytest.skip("making a device node needs root")
    (tmp_path / "a.cu").write_bytes(SRC)
    r = hipport(["check", tmp_path / "a.cu", "-o", null], tmp_path / "c")
    assert r.returncode in (0, 1), r.stderr.decode()
    assert stat.S_ISCHR(os.lstat(null).st_mode), "the device node was replaced by a file"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".null")] == []
