"""CUDA headers' include guards as data (mappings/include_guards.tsv, built by
tools/build_facts.py from tools/include_guards.tsv): each guard a helper header tests
(`#ifdef CURAND_H_`) becomes the test that is true when the HIP counterpart header is in.

The facts are read in the real headers: the CUDA guard with nvcc (the CUDA 13.0 toolkit
headers installed here; the library headers are not, their rows cite public copies), the
HIP test with Debian's HIP 5.2 and with the HIP 6.3 headers (rows whose `checked` names the
release). A translated helper whose hipRAND and hipSPARSE sections only a true test
compiles builds with both releases."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.engine import EngineOptions, translate_source
from hipport.mappings import load_mappings
from hipport.target import Target
from hipport.verify import compile_one
from tools.build_facts import read_tsv
from tools.hip63 import hip63_compiler

ROWS = read_tsv(Path(__file__).resolve().parent.parent / "mappings" / "include_guards.tsv")
CUDA_INCLUDE = Path("/usr/local/cuda/include")


def _rows(checked: str) -> list[dict[str, str]]:
    return [r for r in ROWS if r["hip_guard"] and checked in r["checked"].split(",")]


def _probe(header: str, macro: str) -> str:
    return f"#include <{header}>\n#ifndef {macro}\n#error {macro} is not defined\n#endif\n"


def _hipcc(
    tmp_path: Path, source: str, release: str, name: str = "probe.hip", preprocess: bool = False
) -> None:
    """Compile with that release's HIP (syntax only; `preprocess`: the preprocessor only,
    for a probe of a header that does not compile alone, as hip/driver_types.h)."""
    path = tmp_path / name
    path.write_text(source)
    compiler = ["hipcc"] if release == "5.2" else hip63_compiler()
    if compiler is None:
        pytest.skip("no clang++-15 or HIP 6.3 headers")
    done = compile_one(compiler, path, extra=["-E"] if preprocess else [])
    assert done.ok, done.stderr[-3000:]


def test_the_data_lists_the_guards_helper_headers_test() -> None:
    known = load_mappings().include_guards.known
    for guard in (
        "CURAND_H_",
        "CUSPARSEAPI",
        "CUBLAS_API_H_",
        "_CUFFT_H_",
        "CUSOLVER_COMMON_H_",
        "NVJPEGAPI",
        "__cuda_cuda_h__",
        "__DRIVER_TYPES_H__",
        "__CUDA_RUNTIME_H__",
    ):
        assert guard in known
    renames = load_mappings().include_guards.renames
    # no HIP counterpart (nvJPEG); cuda.h's guard is HIP's runtime guard (the driver-API
    # overloads that collapse under HIP are guarded by HIP026), but not in the shim, which
    # cannot guard them
    assert "NVJPEGAPI" not in renames
    assert renames["__cuda_cuda_h__"] == "HIP_INCLUDE_HIP_HIP_RUNTIME_H"
    assert "__cuda_cuda_h__" not in load_mappings().include_guards.shim


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
@pytest.mark.parametrize(
    "row",
    [r for r in ROWS if (CUDA_INCLUDE / r["cuda_header"]).is_file()],
    ids=lambda r: r["cuda_guard"],
)
def test_the_cuda_header_defines_its_guard(row: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "probe.cu"
    path.write_text(_probe(row["cuda_header"], row["cuda_guard"]))
    done = subprocess.run(
        ["nvcc", "-x", "cu", "-E", str(path), "-o", str(tmp_path / "out.ii")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.hipcc
@pytest.mark.parametrize("row", _rows("hip-5.2"), ids=lambda r: r["cuda_guard"])
def test_the_hip_header_defines_the_test_hip52(row: dict[str, str], tmp_path: Path) -> None:
    _hipcc(tmp_path, _probe(row["hip_header"], row["hip_guard"]), "5.2", preprocess=True)


@pytest.mark.hipcc
@pytest.mark.parametrize("row", _rows("hip-6.3"), ids=lambda r: r["cuda_guard"])
def test_the_hip_header_defines_the_test_hip63(row: dict[str, str], tmp_path: Path) -> None:
    _hipcc(tmp_path, _probe(row["hip_header"], row["hip_guard"]), "6.3", preprocess=True)


HELPER = b"""\
#pragma once
#include <cstdio>
// Library sections of a shared helper header: each compiled only where the program
// included that library before this header.
#ifdef CURAND_H_
static const char *statusName(curandStatus_t s)
{
    return s == CURAND_STATUS_SUCCESS ? "CURAND_STATUS_SUCCESS" : "curand error";
}
#endif
#ifdef CUSPARSEAPI
static const char *statusName(cusparseStatus_t s)
{
    return s == CUSPARSE_STATUS_SUCCESS ? "CUSPARSE_STATUS_SUCCESS" : "cusparse error";
}
#endif
#if defined(__CUDA_RUNTIME_H__) && defined(__DRIVER_TYPES_H__)
static const char *statusName(cudaError_t e) { return cudaGetErrorName(e); }
#endif
"""

MAIN = b"""\
#include <cuda_runtime.h>
#include <curand.h>
#include <cusparse.h>
#include "helper.h"

int main()
{
    std::printf("%s %s %s\\n", statusName(CURAND_STATUS_SUCCESS),
                statusName(CUSPARSE_STATUS_SUCCESS), statusName(cudaSuccess));
    return 0;
}
"""


def _translated(tmp_path: Path, rocm: str) -> Path:
    out = tmp_path / rocm
    out.mkdir()
    for name, source in (("helper.h", HELPER), ("main.hip", MAIN)):
        result = translate_source(source, name, Target(rocm=rocm), EngineOptions())
        assert result.error is None
        assert not [f for f in result.findings if f.severity.value == "error"], result.findings
        (out / name).write_bytes(result.output)
    return out


def test_the_helper_sections_test_the_hip_headers(tmp_path: Path) -> None:
    helper = (_translated(tmp_path, "5.2") / "helper.h").read_text()
    assert "#ifdef HIPRAND_H_" in helper
    assert "#ifdef hipsparseVersionMajor" in helper
    assert "defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H) && defined(HIP_INCLUDE_HIP_DRIVER_TYPES_H)" in (
        helper
    )


@pytest.mark.hipcc
@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
def test_the_translated_helper_compiles_its_library_sections(rocm: str, tmp_path: Path) -> None:
    # main calls statusName for the three status types: a section whose test stayed false
    # (CURAND_H_ untouched, as before) leaves an overload undeclared and fails to compile
    out = _translated(tmp_path, rocm)
    _hipcc(out, (out / "main.hip").read_text(), rocm, name="main_probe.hip")
