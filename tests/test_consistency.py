"""The gate's yardstick (issue 16): for every program of tests/consistency, translated for
ROCm 5.2 and compiled with Debian's HIP 5.2, and translated for ROCm 6.3 and compiled with the
HIP 6.3 headers (issue 26: ../shared/hip-6.3, clang-15), "check reports an error" <=> "the HIP
compiler rejects it", except the disagreements reviewed in tests/consistency/DISAGREEMENTS.tsv
(per release).
The figure (programs, failures, precision, recall) is printed (pytest -s shows it).

The CUDA side is real CUDA: every program whose headers the installed toolkit has compiles
with nvcc (the library programs need headers NVIDIA ships separately)."""

from __future__ import annotations

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tools.consistency import CORPUS, RELEASES, check, local_headers, programs, reviewed
from tools.hip63 import hip63_compiler

pytestmark = [pytest.mark.slow]
MIN_PROGRAMS = 30
# headers of CUDA libraries NVIDIA ships apart from the toolkit
LIBRARY_HEADERS = ("cublas_v2.h", "cufft.h", "curand.h", "curand_kernel.h", "cusparse.h")


def _have(tool: str) -> bool:
    if shutil.which(tool):
        return True
    if os.environ.get("CI"):
        raise RuntimeError(f"CI must have {tool}: tests/setup-system.sh installs it")
    return False


@pytest.fixture(scope="module", params=RELEASES)
def verdicts(request):
    rocm = request.param
    if not _have("hipcc"):
        pytest.skip("hipcc is not installed (tests/setup-system.sh)")
    if rocm == "6.3" and hip63_compiler() is None:
        if os.environ.get("CI"):
            raise RuntimeError("CI must have clang-15 and ../shared/hip-6.3")
        pytest.skip("clang++-15 or ../shared/hip-6.3 is missing")
    found, figure = check(jobs=2, rocm=rocm)
    print("consistency figure:", figure)
    return found, figure


def test_the_corpus_is_large_enough() -> None:
    assert len(programs()) >= MIN_PROGRAMS


@pytest.mark.hipcc
def test_error_iff_the_compiler_rejects(verdicts) -> None:
    found, figure = verdicts
    known = reviewed(figure["rocm"])
    bad = [
        f"{v.program}: {v.disagreement} (errors: {v.errors or '-'}; compiler: {v.first_error})"
        for v in found
        if v.disagreement and known.get(v.program, ("",))[0] != v.disagreement
    ]
    assert not bad, "unreviewed disagreements:\n  " + "\n  ".join(bad)
    assert figure["compile_failures"] >= 10  # the corpus exercises the gate, not only clean code


@pytest.mark.hipcc
def test_the_reviewed_list_is_not_stale(verdicts) -> None:
    found, figure = verdicts
    now = {v.program: v.disagreement for v in found}
    stale = {p: d for p, (d, _) in reviewed(figure["rocm"]).items() if now.get(p) != d}
    assert not stale, f"listed disagreements that no longer happen: {stale}"


def _nvcc(path: Path) -> tuple[str, int, str]:
    # a program's second line may ask for flags (`// nvcc: -rdc=true` for device launches)
    second = (path.read_text().splitlines() + ["", ""])[1]
    extra = second.removeprefix("// nvcc:").split() if second.startswith("// nvcc:") else []
    cmd = ["nvcc", "-std=c++17", "-arch=sm_80", *extra, "-c", "-o", os.devnull, str(path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return path.name, proc.returncode, proc.stderr[-2000:]


@pytest.mark.nvcc
def test_the_programs_are_real_cuda() -> None:
    if not _have("nvcc"):
        pytest.skip("nvcc is not installed")
    cuda_include = Path(shutil.which("nvcc")).resolve().parent.parent / "include"
    todo = [
        p
        for p in programs()
        if not any(
            f"<{h}>" in p.read_text() and not (cuda_include / h).exists() for h in LIBRARY_HEADERS
        )
    ]
    assert len(todo) >= MIN_PROGRAMS
    with ThreadPoolExecutor(2) as pool:
        failed = [(n, err) for n, rc, err in pool.map(_nvcc, todo) if rc != 0]
    assert not failed, "\n".join(f"{n}:\n{err}" for n, err in failed)


def test_shared_headers_are_found_beside_their_includer() -> None:
    """Programs share helper headers (tests/consistency/common/), as real projects do: each is
    found where the compiler finds a quote include, and translated with its programs."""
    users = {p.name: local_headers(p) for p in programs()}
    errors_h = CORPUS / "common" / "helper_errors.h"
    assert sum(errors_h in found for found in users.values()) >= 5
    assert {h.name for found in users.values() for h in found} >= {
        "helper_errors.h",
        "helper_vecmath.h",
        "helper_device.h",
        "helper_driver.h",
    }
    assert users["reduce_shared.cu"] == []


@pytest.mark.hipcc
def test_the_compiler_sees_the_translated_headers(verdicts) -> None:
    found, _ = verdicts
    lost = [
        v.program
        for v in found
        if "common/" in (v.first_error or "") and "not found" in (v.first_error or "")
    ]
    assert not lost


def test_every_program_says_what_it_is() -> None:
    for p in programs():
        first = p.read_text().splitlines()[0]
        assert first.startswith("// ") and len(first) > 20, p.name
    assert (CORPUS / "DISAGREEMENTS.tsv").is_file()
