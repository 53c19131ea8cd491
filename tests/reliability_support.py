"""Helpers for tests/test_reliability_*.py: run the real CLI, build CUDA files whose
translation can be computed independently of hipport (plain byte replacement)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each of these is renamed by hipport, whole token for whole token; computing the expected
# output by byte replacement is independent of the engine.
RENAMES = (
    (b"cuda_runtime.h", b"hip/hip_runtime.h"),
    (b"cudaMalloc", b"hipMalloc"),
    (b"cudaFree", b"hipFree"),
    (b"cudaDeviceSynchronize", b"hipDeviceSynchronize"),
)


def cuda_file(body: bytes = b"", nl: bytes = b"\n") -> bytes:
    """A small CUDA source that starts with the runtime include (so no include is added)."""
    lines = [
        b"#include <cuda_runtime.h>",
        b"void f() {",
        b"    float *p;",
        b"    cudaMalloc(&p, 4);",
        body,
        b"    cudaFree(p);",
        b"}",
        b"",
    ]
    return nl.join(line for line in lines if line is not None)


def expected(data: bytes) -> bytes:
    out = data
    for old, new in RENAMES:
        out = out.replace(old, new)
    return out


def env(cache_dir: Path, **extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e["HIPPORT_CACHE_DIR"] = str(cache_dir)
    e.pop("HIPPORT_TEST_CRASH_ON", None)
    e.pop("HIPPORT_TEST_STALL_ON", None)
    e.update(extra)
    return e


def hipport(
    args: list[str | Path], cache_dir: Path, timeout: float = 120, **extra: str
) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "hipport", *map(str, args)]
    return subprocess.run(
        cmd, env=env(cache_dir, **extra), capture_output=True, timeout=timeout, cwd=str(ROOT)
    )


def popen(args: list[str | Path], cache_dir: Path, **extra: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "hipport", *map(str, args)]
    return subprocess.Popen(
        cmd,
        env=env(cache_dir, **extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=str(ROOT),
    )


def snapshot(tree: Path) -> dict[str, bytes]:
    """relpath -> bytes of every regular file under `tree` (symlinks not followed)."""
    out = {}
    for dirpath, _, names in os.walk(tree):
        for name in names:
            p = Path(dirpath) / name
            if p.is_file() and not p.is_symlink():
                out[p.relative_to(tree).as_posix()] = p.read_bytes()
    return out


# A fresh parent, so RUSAGE_CHILDREN sees only hipport and its workers: a child forked from
# the test process itself starts with that process's resident set as its peak (the kernel
# keeps the high-water mark across exec), so a large pytest process inflates it.
RSS_PROBE = """
import os, resource, subprocess, sys
with open(os.environ["RSS_PROBE_LOG"], "w") as log:
    rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=log)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
