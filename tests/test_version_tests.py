"""Version tests (issue 27 item 4): a `#if CUDART_VERSION ...` / `CUDA_VERSION` /
`__CUDACC_VER_MAJOR__` chain compiles, after translate, the arm the CUDA build took. The
program is real CUDA (nvcc 13.0 builds it, taking the CUDA 11+ arms); its translation builds
with HIP 5.2 and the HIP 6.3 headers. Before, hipcc read CUDART_VERSION as 0: the #error arm
fired and the kernel helper of the CUDA 11+ arm was missing (the program does not compile)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.engine import EngineOptions, translate_source
from hipport.findings import Severity
from hipport.target import Target
from hipport.verify import compile_one
from tools.hip63 import hip63_compiler

PROGRAM = b"""\
#include <cuda_runtime.h>
#include <cstdio>

#if !defined(CUDART_VERSION) || CUDART_VERSION < 11000
#error "this program needs CUDA 11 or newer"
#endif

#if __CUDACC_VER_MAJOR__ >= 11
__global__ void scaleKernel(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
static cudaError_t scale(float *x, float a, int n, cudaStream_t stream)
{
    scaleKernel<<<(n + 255) / 256, 256, 0, stream>>>(x, a, n);
    return cudaGetLastError();
}
#endif

int main()
{
    float *x = nullptr;
    cudaMalloc(&x, 1024 * sizeof(float));
#if CUDA_VERSION >= 12000
    cudaError_t err = scale(x, 2.0f, 1024, 0);
#else
    cudaError_t err = cudaErrorNotSupported;
#endif
    std::printf("%s\\n", cudaGetErrorString(err));
    cudaFree(x);
    return err == cudaSuccess ? 0 : 1;
}
"""


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_the_program_is_real_cuda(tmp_path: Path) -> None:
    path = tmp_path / "scale.cu"
    path.write_bytes(PROGRAM)
    cmd = ["nvcc", "-std=c++17", "-arch=sm_80", "-c", "-o", os.devnull, str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def _translated(rocm: str, cuda: str | None = "13.0") -> tuple[bytes, list]:
    result = translate_source(PROGRAM, "scale.cu", Target(rocm=rocm, cuda=cuda), EngineOptions())
    assert result.error is None
    return result.output, result.findings


def test_each_flip_is_rewritten_and_noted() -> None:
    output, findings = _translated("5.2")
    text = output.decode()
    assert (
        "#if !defined(__HIP_PLATFORM_AMD__) && (!defined(CUDART_VERSION) || "
        "CUDART_VERSION < 11000)" in text
    )
    assert "#if defined(__HIP_PLATFORM_AMD__) || (__CUDACC_VER_MAJOR__ >= 11)" in text
    assert "#if defined(__HIP_PLATFORM_AMD__) || (CUDA_VERSION >= 12000)" in text
    notes = [f for f in findings if f.code == "HIP113"]
    assert len(notes) == 3 and all(f.severity is Severity.NOTE for f in notes)
    assert all("as CUDA 13.0 (--cuda) does" in f.message for f in notes)
    assert not [f for f in findings if f.severity is Severity.ERROR]


@pytest.mark.hipcc
@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
def test_the_translation_compiles_the_cuda_arms(rocm: str, tmp_path: Path) -> None:
    compiler = ["hipcc"] if rocm == "5.2" else hip63_compiler()
    if compiler is None or shutil.which(compiler[0]) is None:
        pytest.skip("no HIP compiler for this release")
    path = tmp_path / "scale.hip"
    path.write_bytes(_translated(rocm)[0])
    done = compile_one(compiler, path)
    assert done.ok, done.stderr[-3000:]
