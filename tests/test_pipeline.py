"""The run's one per-file pipeline (hipport.runner.run: discover -> plan -> execute ->
finalize): a source read from standard input takes it as the same file named on the
command line does, so the same bytes give the same report under every configuration key
(issue 24, deliverable 6)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hipport.config import KNOWN_KEYS

ROOT = Path(__file__).resolve().parent.parent

# A source that gives every kind of finding a key can change: mapped and unmapped APIs, a
# hard-coded warp size, a launch, a string naming an API, a macro the project defines in
# another file (CUDA_CHECK, HIP004 unless the project index knows it), a header the
# project ships (HIP012 unless it does), an include of its own header (rename-suffix), and
# #if arms the configuration's or the compilation database's macros decide.
SOURCE = b"""#include <cuda_runtime.h>
#include <cuda_awbarrier.h>
#include "k.cuh"
#include "helpers.cuh"

constexpr int kWarp = 32;

__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }

#ifdef USE_FAST
void fast() { cudaThreadExit(); }
#else
void slow() { cudaThreadSynchronize(); }
#endif

int main() {
    float* d = nullptr;
    CUDA_CHECK(cudaMalloc(&d, 64 * sizeof(float)));
    scale<<<1, 64>>>(d, 2.0f);
    unsigned m = __ballot_sync(0xffffffff, 1);
    const char* name = "cudaMemcpy";
    cudaStreamAttachMemAsync(0, d, 0, cudaMemAttachGlobal);
    CUDA_CHECK(cudaFree(d));
    return (int)m + (name != nullptr) + kWarp;
}
"""

UNPORTED_API = "cudaDeviceFlushGPUDirectRDMAWrites"  # no HIP port (HIP001)
UNPORTED = UNPORTED_API.encode() + b"(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, 0);"

HELPERS = b"""#pragma once
#include <cstdio>
#define CUDA_CHECK(x) do { if ((x) != cudaSuccess) std::puts(#x); } while (0)
"""


def _cuda_path() -> str:
    for candidate in ("/usr/local/cuda", "/opt/cuda", "/usr/lib/cuda"):
        if os.path.isdir(candidate):
            return candidate
    return "/nonexistent/cuda"


# One value for every key of [tool.hipport] that a run over `src/k.cu` would notice; the
# schema is the test's list (test_every_key_has_a_sample fails when a key is added without
# a value here). Each value is TOML, under [tool.hipport].
SAMPLES: dict[str, str] = {
    "rocm": '"6.0"',
    "cuda": '"12.0"',
    "experimental": "true",
    "roc": "true",
    "amd-ext": "true",
    "launch-syntax": '"hip"',
    "translate-strings": "true",
    "semantic": "true",
    "cuda-path": json.dumps(_cuda_path()),
    "compile-commands": '"build"',
    "include": '["src/other/**"]',
    "exclude": '["src/k.cu"]',
    "extensions": '[".cuh"]',
    "jobs": "2",
    "cache": "false",
    "fail-on": '"warning"',
    "renames": '{ CUDA_CHECK = "HIP_CHECK" }',
    "disable-mappings": '["cudaMalloc", "cudaFree"]',
    "severity": '{ HIP004 = "note", HIP102 = "error" }',
    "per-path-ignore": '{ "src/**" = ["HIP102", "cudaFree", "cudaThreadSynchronize"] }',
    "rename-suffix": '{ ".cu" = ".hip", ".cuh" = ".hpp" }',
    "max-file-size": "100",
    "time-limit": "120",
    "baseline": '"accepted.json"',
    "defines": '["USE_FAST"]',
    "select": '["HIP0"]',
    "ignore": '["HIP004"]',
    "extend-select": '["HIP1"]',
    "extend-exclude": '["src/*.cu"]',
    "per-file-ignores": '{ "src/*.cu" = ["HIP001", "cudaMalloc"] }',
    "vendored": '["third_party/", "src/gl/"]',
}


def test_every_key_has_a_sample() -> None:
    """The stdin test covers the configuration's whole schema: a new key needs a value."""
    assert set(SAMPLES) == KNOWN_KEYS, (
        f"add a sample value to SAMPLES for {sorted(KNOWN_KEYS - set(SAMPLES))}; "
        f"drop {sorted(set(SAMPLES) - KNOWN_KEYS)}"
    )


def _project(tmp_path: Path, key: str) -> Path:
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "k.cu").write_bytes(SOURCE)
    (proj / "src" / "k.cuh").write_bytes(b"#pragma once\nvoid fast();\n")
    (proj / "src" / "helpers.cuh").write_bytes(HELPERS)
    (proj / "src" / "cuda_awbarrier.h").write_bytes(b"#pragma once\n")  # shipped (HIP012)
    (proj / "build").mkdir()
    entry = {
        "directory": str(proj),
        "file": str(proj / "src" / "k.cu"),
        "arguments": ["nvcc", "-DUSE_FAST", "-Isrc", "-c", str(proj / "src" / "k.cu")],
    }
    (proj / "build" / "compile_commands.json").write_text(json.dumps([entry]))
    (proj / ".git").mkdir()  # the project root, for the baseline and the index
    (proj / "pyproject.toml").write_text(f"[tool.hipport]\n{key} = {SAMPLES[key]}\n")
    return proj


def _env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPPORT_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["HIPPORT_CACHE_DIR"] = str(cache)
    env["NO_COLOR"] = "1"
    return env


def _check(proj: Path, env: dict[str, str], *args: str, stdin: bytes | None = None):
    return subprocess.run(
        [sys.executable, "-m", "hipport", "check", *args],
        cwd=proj,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=600,
    )


def _report(proc: subprocess.CompletedProcess) -> tuple[int, dict | str]:
    """The exit code and the JSON report, or the usage error's message (exit 2)."""
    if proc.returncode == 2:
        return 2, proc.stderr.decode(errors="replace")
    assert proc.returncode in (0, 1), proc.stderr.decode(errors="replace")[-3000:]
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_stdin_and_the_file_give_the_same_report(tmp_path: Path, key: str) -> None:
    """`check -  --stdin-filename src/k.cu` and `check src/k.cu` on the same bytes: the
    same JSON report (findings, counts, the per-file work) and exit code, with [tool.hipport]
    setting `key`. The project's other files are indexed first (a run on the tree), so the
    names and headers it defines elsewhere count as they do for a one-file run."""
    proj = _project(tmp_path, key)
    env = _env(tmp_path / "cache")
    if key == "baseline":  # accept today's findings but one: the file's are then the same
        made = subprocess.run(
            [sys.executable, "-m", "hipport", "baseline", "src", "--baseline", "accepted.json"],
            cwd=proj,
            env=env,
            capture_output=True,
            timeout=600,
        )
        assert made.returncode == 0, made.stderr.decode(errors="replace")
        source = SOURCE.replace(b"int main() {", b"int main() {\n    " + UNPORTED)
        (proj / "src" / "k.cu").write_bytes(source)
    source = (proj / "src" / "k.cu").read_bytes()
    _check(proj, env, "src", "--format", "json", "--exit-zero")  # the project index
    stdin = _check(proj, env, "-", "--stdin-filename", "src/k.cu", "--format", "json", stdin=source)
    named = _check(proj, env, "src/k.cu", "--format", "json")
    assert (proj / "src" / "k.cu").read_bytes() == source
    from_stdin, from_file = _report(stdin), _report(named)
    assert from_stdin == from_file
    code, report = from_file
    # a run that checks something reports something; `include` leaves the file out of both
    assert report["findings"] if code != 2 else key == "include", report


def test_stdin_follows_per_path_ignores_of_cuda_names(tmp_path: Path) -> None:
    """The case that differed before the one pipeline: a per-path-ignore entry naming a
    CUDA API leaves it untranslated and unreported in that file, from stdin too."""
    proj = _project(tmp_path, "per-path-ignore")
    env = _env(tmp_path / "cache")
    code, report = _report(
        _check(proj, env, "-", "--stdin-filename", "src/k.cu", "--format", "json", stdin=SOURCE)
    )
    apis = {f.get("api") for f in report["findings"]}
    assert "cudaThreadSynchronize" not in apis
    assert "HIP102" not in {f["code"] for f in report["findings"]}
    # warnings only: CUDA_CHECK is helpers.cuh's, which the run reads through the include
    # (1f0dde7; it was a HIP004 error, the exit 1 this test used to expect)
    assert code == 0 and report["findings"]
    assert "CUDA_CHECK" not in apis


def test_the_run_is_four_phases_and_stdin_takes_them() -> None:
    """run_paths reads as discover -> plan -> execute -> finalize, and the standard-input
    path of `check` calls run_paths (no pipeline of its own)."""
    run = ast.parse((ROOT / "hipport" / "runner" / "run.py").read_text())
    body = next(n for n in run.body if isinstance(n, ast.FunctionDef) and n.name == "run_paths")
    calls = [  # in source order (ast.walk is breadth-first: `found or discover_files(...)`)
        n.func.id
        for n in sorted(
            ast.walk(body), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))
        )
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    ]
    phases = [c for c in calls if c in ("discover_files", "plan_run", "execute", "finalize")]
    assert phases == ["discover_files", "plan_run", "execute", "finalize"]
    check = (ROOT / "hipport" / "cli" / "check.py").read_text()
    output = (ROOT / "hipport" / "cli" / "output.py").read_text()
    assert "GivenSource(" in check and "translate_source" not in check + output


def test_a_given_source_never_enters_the_cache(tmp_path: Path) -> None:
    """Bytes from stdin are not the file's: a later run on the file must not reuse them."""
    proj = _project(tmp_path, "rocm")
    env = _env(tmp_path / "cache")
    edited = SOURCE.replace(b"int main() {", b"int main() {\n    " + UNPORTED)
    given = _report(
        _check(proj, env, "-", "--stdin-filename", "src/k.cu", "--format", "json", stdin=edited)
    )
    _, report = _report(_check(proj, env, "src", "--format", "json"))
    assert UNPORTED_API in {f.get("api") for f in given[1]["findings"]}
    assert UNPORTED_API not in {f.get("api") for f in report["findings"]}
