"""`hipport verify` (issue 27 item 6): the translated units compile against the translated
tree's headers (an -I inside PATH is read in the translated copy, not in the CUDA
originals), and a compiler whose HIP is older than the target ROCm is said to be."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.verify import hip_version, translated_dirs
from tests.reliability_support import hipport

HEADER = b"""\
#pragma once
#include <cuda_runtime.h>
inline cudaError_t clearBuffer(float *p, size_t n) { return cudaMemset(p, 0, n * sizeof(float)); }
"""
MAIN = b"""\
#include <vec.cuh>
int main()
{
    float *p = nullptr;
    cudaMalloc(&p, 16 * sizeof(float));
    return clearBuffer(p, 16) == cudaSuccess ? 0 : 1;
}
"""


def _project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "include").mkdir(parents=True)
    (proj / "src").mkdir()
    (proj / "include" / "vec.cuh").write_bytes(HEADER)
    (proj / "src" / "main.cu").write_bytes(MAIN)
    return proj


def test_an_include_dir_inside_the_tree_is_read_translated(tmp_path: Path) -> None:
    base, root = tmp_path / "proj", tmp_path / "out"
    inside, outside = base / "include", tmp_path / "vendor"
    assert translated_dirs([inside, outside], base, root) == [root / "include", outside]


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_the_project_is_real_cuda(tmp_path: Path) -> None:
    proj = _project(tmp_path)
    done = subprocess.run(
        ["nvcc", "-std=c++17", "-arch=sm_80", "-c", "-o", os.devnull, f"-I{proj / 'include'}"]
        + [str(proj / "src/main.cu")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


needs_hipcc = pytest.mark.skipif(shutil.which("hipcc") is None, reason="no hipcc")


@pytest.mark.hipcc
@needs_hipcc
def test_verify_compiles_against_the_translated_headers(tmp_path: Path) -> None:
    # before: -I pointed at proj/include, the CUDA header ('cuda_runtime.h' file not found)
    proj = _project(tmp_path)
    args = ["verify", proj, "-I", proj / "include", "--rocm", "5.2", "--no-progress"]
    done = hipport(args, tmp_path / "cache", timeout=600)
    err = done.stderr.decode()
    assert done.returncode == 0, done.stdout.decode() + err
    assert "1 translation units, 1 compile, 0 fail" in err
    assert "warning" not in err  # the compiler's HIP is the target's


@pytest.mark.hipcc
@needs_hipcc
def test_an_include_dir_outside_the_path_is_said_to_be_untranslated(tmp_path: Path) -> None:
    proj = _project(tmp_path)
    args = ["verify", proj / "src", "-I", proj / "include", "--rocm", "5.2", "--no-progress"]
    done = hipport(args, tmp_path / "cache", timeout=600)
    err = done.stderr.decode()
    assert done.returncode == 1
    assert f"-I {proj / 'include'} is outside {proj / 'src'}" in err
    assert "'cuda_runtime.h' file not found" in done.stdout.decode()


@pytest.mark.hipcc
@needs_hipcc
def test_verify_warns_when_the_compiler_hip_is_older_than_the_target(tmp_path: Path) -> None:
    found = hip_version()
    assert found is not None
    proj = _project(tmp_path)
    done = hipport(
        ["verify", proj, "-I", proj / "include", "--rocm", "6.3", "--no-progress"],
        tmp_path / "cache",
        timeout=600,
    )
    err = done.stderr.decode()
    assert f"the compiler's HIP is {found}, older than the target ROCm 6.3" in err
    assert f"pass --rocm {found}" in err
