"""Modern CUDA (fp8, bf16, warp masks) translated for the release it targets compiles with
that release's headers: Debian's HIP 5.2 (hipcc) and the HIP 6.3 headers in ../shared/hip-6.3
(clang++-15, tools/hip63.py). The CUDA inputs are the engine pairs, proven real with nvcc.
Every compile is marked hipcc (a HIP compiler: Debian's hipcc or its clang for 6.3)."""

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
ENGINE = Path(__file__).parent / "cases" / "engine"
CASES = ENGINE / "rename"
# engine pairs whose input CUDA 13.0 (installed here) compiles; the *_cuda_13_1/13_2 pairs
# use names newer than it
NVCC_PROVEN = (
    "device/fp8_ocp.cu",
    "version/fp8_ocp_needs_rocm_6_3.cu",
    "device/bf16_typedefs.cu",
    "version/bf16_typedefs_rocm_5_2.cu",
    "version/bf16_storage_rocm_5_2.cu",
    "runtime/no_release_evidence.cu",
    "driver/no_release_evidence.cu",
    "../warp_masks/full_masks_6_3.cu",
    "../warp_masks/narrow_masks.cu",
    "../warp_masks/macro_already_defined.cu",
    "../warp_masks/dead_arm.cu",
    "device/alternatives_exact.cu",
    "device/alternatives_bf16_rn.cu",
    "../overloads/ldcs_float.cu",
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


@pytest.mark.hipcc
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


@pytest.mark.hipcc
def test_bf16_typedefs_for_6_3_compile(tmp_path: Path) -> None:
    path, output, errors = translated(tmp_path, "device/bf16_typedefs.cu", "6.3")
    assert not errors
    assert b"nv_bfloat16" not in output and b"__hip_bfloat162 w" in output
    result = compile63(path)
    assert result.ok, result.stderr[-3000:]


@pytest.mark.hipcc
def test_bf16_for_5_2_is_reported_and_does_not_compile(tmp_path: Path) -> None:
    """HIP 5.2 has hip_bfloat16 (hip/hip_bfloat16.h) and no bf16x2 type nor intrinsics:
    nv_bfloat16 becomes hip_bfloat16, the rest is HIP002, and the output does not compile."""
    path, output, errors = translated(tmp_path, "device/bf16_typedefs.cu", "5.2")
    assert "HIP002 nv_bfloat162" in errors and "HIP002 __float2bfloat16" in errors
    assert not any(e.endswith(" nv_bfloat16") for e in errors)
    assert b"#include <hip/hip_bfloat16.h>" in output and b"hip_bfloat16* x" in output
    assert not compile52(path).ok


@pytest.mark.hipcc
@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
def test_bf16_storage_compiles_for_each_release(tmp_path: Path, rocm: str) -> None:
    """bf16 used as storage (built from a float, read back as one) maps to the type the
    release's headers declare, with the header that declares it: the legacy hip_bfloat16
    for 5.2 (hip/hip_bfloat16.h), __hip_bfloat16 for 6.3 (hip/hip_bf16.h)."""
    path, output, errors = translated(tmp_path, "version/bf16_storage_rocm_5_2.cu", rocm)
    text = output.decode()
    assert not errors and "nv_bfloat16" not in text
    bf16, header = (
        ("hip_bfloat16", "hip_bfloat16.h") if rocm == "5.2" else ("__hip_bfloat16", "hip_bf16.h")
    )
    assert f"#include <hip/{header}>" in text
    assert f"(const {bf16}* x, {bf16}* y," in text and f"y[i] = {bf16}(v * s);" in text
    result = compile52(path) if rocm == "5.2" else compile63(path)
    assert result.ok, result.stderr[-3000:]


@pytest.mark.hipcc
def test_full_warp_masks_for_6_3_compile(tmp_path: Path) -> None:
    """Shuffles, ballots and votes with every spelling of the full-warp mask: widened to
    64 bits with HIP_ENABLE_WARP_SYNC_BUILTINS defined, they pass the 6.3 static_assert."""
    path, output, errors = translated(tmp_path, "../warp_masks/full_masks_6_3.cu", "6.3")
    assert not errors
    text = output.decode()
    assert (
        text.count("0xffffffffffffffffull") == 9 and "#define HIP_ENABLE_WARP_SYNC_BUILTINS" in text
    )
    result = compile63(path)
    assert result.ok, result.stderr[-3000:]


@pytest.mark.hipcc
def test_narrow_masks_are_errors_and_do_not_compile_for_6_3(tmp_path: Path) -> None:
    path, _, errors = translated(tmp_path, "../warp_masks/narrow_masks.cu", "6.3")
    assert sum(e.startswith("HIP024") for e in errors) == 5
    result = compile63(path)
    assert not result.ok and "must be a 64-bit integer" in result.stderr


@pytest.mark.hipcc
def test_without_the_macro_6_3_has_no_sync_builtins(tmp_path: Path) -> None:
    """The macro translate inserts is needed: without it the 6.3 headers lack the calls."""
    path, output, _ = translated(tmp_path, "../warp_masks/full_masks_6_3.cu", "6.3")
    bare = tmp_path / "bare.hip"
    bare.write_bytes(output.replace(b"#define HIP_ENABLE_WARP_SYNC_BUILTINS\n", b""))
    assert not compile63(bare).ok


@pytest.mark.hipcc
def test_the_shim_defines_the_macro_and_widens_full_masks(tmp_path: Path, hipport_cmd) -> None:
    """The CUDA source, unchanged, builds for 6.3 through the shim: it defines
    HIP_ENABLE_WARP_SYNC_BUILTINS and its wrappers turn the full-warp mask into ~0ull."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "warp.cu").write_bytes((ENGINE / "warp_masks" / "full_masks_6_3.cu").read_bytes())
    shim = tmp_path / "shim"
    cmd = [*hipport_cmd, "shim", "-o", str(shim), "--rocm", "6.3", str(src)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    header = (shim / "hipport_shim.h").read_text()
    assert "#define HIP_ENABLE_WARP_SYNC_BUILTINS 1" in header
    assert "#define __shfl_xor_sync(mask, ...)" in header
    compiler = hip63_compiler()
    _need(compiler, "clang++-15 and ../shared/hip-6.3")
    result = compile_one([*compiler, f"-I{shim}"], src / "warp.cu", OFFLOAD_ARCH)
    assert result.ok, result.stderr[-3000:]


@pytest.mark.hipcc
@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
def test_exact_alternatives_compile(tmp_path: Path, rocm: str) -> None:
    """__trap -> __builtin_trap, __stcs(p, v) -> __builtin_nontemporal_store(v, p)."""
    path, output, errors = translated(tmp_path, "device/alternatives_exact.cu", rocm)
    assert not errors
    assert b"__builtin_nontemporal_store(in[i] * 2.0f, out + i)" in output
    result = compile52(path) if rocm == "5.2" else compile63(path)
    assert result.ok, result.stderr[-3000:]


@pytest.mark.hipcc
def test_bf16_rn_alternative_compiles_for_6_3(tmp_path: Path) -> None:
    path, output, errors = translated(tmp_path, "device/alternatives_bf16_rn.cu", "6.3")
    assert not errors and b"__float2bfloat16(in[i])" in output
    result = compile63(path)
    assert result.ok, result.stderr[-3000:]


@pytest.mark.hipcc
def test_approximate_alternatives_are_errors_that_do_not_compile(tmp_path: Path) -> None:
    path, output, errors = translated(tmp_path, "../overloads/ldcs_float.cu", "6.3")
    assert errors == ["HIP001 __stcg", "HIP001 __stwt", "HIP025 __ldcg", "HIP025 __ldcs"]
    assert b"__builtin_nontemporal" not in output  # suggested, never applied
    assert not compile63(path).ok
