"""Modern CUDA (fp8, bf16, warp masks) translated for the release it targets compiles with
that release's headers: Debian's HIP 5.2 (hipcc) and the HIP 6.3 headers in ../shared/hip-6.3
(clang++-15, tools/hip63.py). The CUDA inputs are the engine pairs, proven real with nvcc."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.engine import translate_source
from hipport.target import Target
from hipport.verify import compile_one, find_compiler, hip_version
from tools.hip63 import OFFLOAD_ARCH, hip63_compiler

pytestmark = [pytest.mark.slow]
CASES = Path(__file__).parent / "cases" / "engine" / "rename"
# engine pairs whose input CUDA 13.0 (installed here) compiles; the *_cuda_13_1/13_2 pairs
# use names newer than it
NVCC_PROVEN = (
    "device/fp8_ocp.cu",
    "version/fp8_ocp_needs_rocm_6_3.cu",
    "device/bf16_typedefs.cu",
    "version/bf16_typedefs_rocm_5_2.cu",
    "runtime/no_release_evidence.cu",
    "driver/no_release_evidence.cu",
)


def _need(found: object, what: str) -> None:
    if found:
        return
    if os.environ.get("CI"):
        raise RuntimeError(f"CI must have {what}: tests/setup-system.sh installs it")
    pytest.skip(f"{what} is not installed (tests/setup-system.sh)")


def translated(tmp_path: Path, rel: str, rocm: str) -> tuple[Path, bytes, list[str]]:
    src = CASES / rel
    result = translate_source(src.read_bytes(), src.name, Target(rocm=rocm))
    assert result.error is None, result.error
    out = tmp_path / f"{src.stem}-{rocm}.hip"
    out.write_bytes(result.output)
    errors = sorted(f"{f.code} {f.api}" for f in result.findings if f.severity.value == "error")
    return out, result.output, errors


def compile63(path: Path):
    compiler = hip63_compiler()
    _need(compiler, "clang++-15 and ../shared/hip-6.3")
    return compile_one(compiler, path, OFFLOAD_ARCH)


def compile52(path: Path):
    compiler = find_compiler()
    _need(compiler and shutil.which("hipcc"), "hipcc")
    return compile_one(compiler, path, "gfx90a", [], hip_version())


@pytest.mark.nvcc
@pytest.mark.parametrize("rel", NVCC_PROVEN)
def test_inputs_are_real_cuda(rel: str) -> None:
    _need(shutil.which("nvcc"), "nvcc")
    cmd = ["nvcc", "-std=c++17", "-arch=sm_90", "-c", "-o", os.devnull, str(CASES / rel)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_fp8_for_6_3_uses_the_ocp_types_and_compiles(tmp_path: Path) -> None:
    path, output, errors = translated(tmp_path, "device/fp8_ocp.cu", "6.3")
    text = output.decode()
    assert not errors
    for ocp in ("__hip_fp8_e4m3", "__hip_fp8x2_e5m2", "__hip_fp8x4_e4m3", "__HIP_E4M3"):
        assert ocp in text
    assert "fnuz" not in text.lower() and "__nv_" not in text
    result = compile63(path)
    assert result.ok, result.stderr[-3000:]


def test_fp8_for_6_2_keeps_cuda_names_and_reports_them(tmp_path: Path) -> None:
    _, output, errors = translated(tmp_path, "device/fp8_ocp.cu", "6.2")
    assert "fnuz" not in output.decode().lower()  # never the other format
    assert "HIP002 __nv_fp8_e4m3" in errors and "HIP002 __NV_E4M3" in errors


@pytest.mark.hipcc
def test_fp8_for_5_2_is_reported_and_does_not_compile(tmp_path: Path) -> None:
    path, _, errors = translated(tmp_path, "device/fp8_ocp.cu", "5.2")
    assert errors
    assert not compile52(path).ok


def test_bf16_typedefs_for_6_3_compile(tmp_path: Path) -> None:
    path, output, errors = translated(tmp_path, "device/bf16_typedefs.cu", "6.3")
    assert not errors
    assert b"nv_bfloat16" not in output and b"__hip_bfloat162 w" in output
    result = compile63(path)
    assert result.ok, result.stderr[-3000:]


@pytest.mark.hipcc
def test_bf16_for_5_2_is_reported_and_does_not_compile(tmp_path: Path) -> None:
    path, _, errors = translated(tmp_path, "device/bf16_typedefs.cu", "5.2")
    assert "HIP002 nv_bfloat16" in errors
    assert not compile52(path).ok
