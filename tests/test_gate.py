"""The gate rules (Kind.GATE in the catalogue; each fires on CUDA that does not build, or
changes meaning, under HIP and stays silent on the near miss: tests/cases/rules/<CODE>/):
their facts are reviewed data whose evidence the real HIP compiler confirms; and the
program's own names are never unknown."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.catalogue import RULES, Kind, Severity, codes_of
from hipport.engine import defined_names, translate_source
from hipport.mappings import load_mappings
from hipport.target import Target

from .conftest import ROOT, SHARED_DATA

HEAD = "#include <cuda_runtime.h>\n"
R52 = Target(rocm="5.2")


def found(source: str, target: Target = R52, path: str = "a.cu") -> list[tuple[str, str, int]]:
    """(code, severity, line) of every finding."""
    result = translate_source(source.encode(), path, target)
    return [(f.code, f.severity.value, f.location.line) for f in result.findings]


def codes(source: str, target: Target = R52) -> set[str]:
    return {c for c, _, _ in found(source, target)}


def test_every_code_registered_with_docs() -> None:
    for code in codes_of(Kind.GATE):
        assert RULES[code].module.startswith("rules.hazards."), code
        info = RULES[code]
        assert info.name and info.summary and info.why and info.example and info.fix
        # the documented example fires
        assert code in codes(HEAD + info.example), code


def test_newer_rocm_without_evidence_is_a_warning() -> None:
    src = HEAD + "__global__ void k(unsigned *c) { __nanosleep(*c); }\n"
    assert ("HIP112", "error") in {(c, s) for c, s, _ in found(src, R52)}
    # the evidence covers HIP 5.2 and 6.3 (../shared/hip-6.3): 6.4 is beyond it
    assert ("HIP112", "error") in {(c, s) for c, s, _ in found(src, Target(rocm="6.3"))}
    newer = {(c, s) for c, s, _ in found(src, Target(rocm="6.4"))}
    assert ("HIP112", "warning") in newer and ("HIP112", "error") not in newer


def test_branch_message_names_the_arm_hip_compiles() -> None:
    # the CUDA arm depends on the release (12.0 vs 12.8) and no --cuda names it: not rewritten
    src = HEAD + "#if CUDART_VERSION >= 12050\nint v = 1;\n#else\nint v = 2;\n#endif\n"
    result = translate_source(src.encode(), "a.cu", R52)
    (msg,) = [f.message for f in result.findings if f.code == "HIP113"]
    assert "false under HIP" in msg and "#else arm at line 4" in msg and "lines 3-3 are dead" in msg


def test_code_hip_does_not_compile_is_not_an_error() -> None:
    src = HEAD + (
        "__global__ void k(int *p) {\n#ifdef __CUDA_ARCH__\n  atomicAdd_block(p, 1);\n"
        "  cudaDeviceSynchronize();\n  cudaFrobnicate();\n#endif\n}\n"
    )
    errors = {c for c, s, _ in found(src) if s == "error"}
    assert not errors & {"HIP111", "HIP112", "HIP004"}, found(src)


# --- the program's own names ----------------------------------------------------------

OWN = """
#ifdef USE_CUDA_GRAPHS
#endif
#if defined(CUDA_FAST_PATH) && CUDART_VERSION > 9000
#endif
static int cuda_lo = 0, cuda_hi = 1;
struct Buffer { int cuda_a, cuda_b; float *cuda_p; } cuda_s, *cuda_sp;
Buffer *cuda_in_buf, *cuda_out_buf;
typedef struct { int x; } cudaThing_t;
typedef void (*cudaCallback_fn)(int);
enum Colour { CUDA_RED, CUDA_GREEN = 2 };
template <typename cudaT, int CUDA_N>
void f(cudaT cuda_param, const float3 &cuda_v, int cuda_w) {
  int cuda_i = cuda_w * 2, cuda_j;
  for (int cuda_k = 0, cuda_m = 1; cuda_k < CUDA_N; ++cuda_k) cuda_j = cuda_m;
  auto [cuda_key, cuda_value] = pair_of(cuda_i);
  for (auto &cuda_item : items) use(cuda_item);
}
"""
OWN_NAMES = {
    "USE_CUDA_GRAPHS",
    "CUDA_FAST_PATH",
    "cuda_lo",
    "cuda_hi",
    "cuda_a",
    "cuda_b",
    "cuda_p",
    "cuda_s",
    "cuda_sp",
    "cuda_in_buf",
    "cuda_out_buf",
    "cudaThing_t",
    "cudaCallback_fn",
    "CUDA_RED",
    "CUDA_GREEN",
    "cudaT",
    "CUDA_N",
    "cuda_param",
    "cuda_v",
    "cuda_w",
    "cuda_i",
    "cuda_j",
    "cuda_k",
    "cuda_m",
    "cuda_key",
    "cuda_value",
    "cuda_item",
}


def test_every_declarator_parameter_member_and_macro_is_the_programs() -> None:
    names = defined_names(OWN.encode(), "a.cu")
    assert OWN_NAMES <= names, sorted(OWN_NAMES - names)
    assert "CUDART_VERSION" not in names  # nvcc's, not the program's


def test_own_names_are_never_unknown_but_real_unknowns_are() -> None:
    src = HEAD + OWN + "void g() { cudaFrobnicate(cuda_hi, cuda_out_buf); }\n"
    unknown = [
        f.api for f in translate_source(src.encode(), "a.cu", R52).findings if f.code == "HIP004"
    ]
    assert unknown == ["cudaFrobnicate"]


def test_texture_as_a_plain_identifier_is_not_the_template() -> None:
    src = HEAD + (
        "typedef unsigned GLuint;\nvoid glBindTexture(int, GLuint);\n"
        "void bind(GLuint texture) { glBindTexture(3, texture); if (texture < 3) {} }\n"
    )
    assert not codes(src) & {"HIP105", "HIP004"}, found(src)


# --- the facts and their evidence ---------------------------------------------------------


def test_facts_are_generated_from_the_reviewed_file(tmp_path: Path) -> None:
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not here")
    from tools.build_gate_facts import build

    build(SHARED_DATA, tmp_path)
    for name in ("gate_facts.tsv", "cuda_headers.tsv"):
        assert (tmp_path / name).read_bytes() == (ROOT / "mappings" / name).read_bytes(), name


needs_hipcc = pytest.mark.skipif(
    shutil.which("hipcc") is None and not os.environ.get("CI"), reason="hipcc is not installed"
)


@pytest.mark.hipcc
@needs_hipcc
def test_hip_52_lacks_every_device_fact(tmp_path: Path) -> None:
    """Each device function and attribute listed as absent in HIP 5.2 is rejected by
    Debian's HIP 5.2 compiler, and the control (a function HIP has) is accepted."""
    facts = list(load_mappings().gate.device_apis.values())
    facts = [f for f in facts if str(f.checked_absent_in) == "5.2" and f.hip_added is None]
    lines = ["#include <hip/hip_runtime.h>"]
    for i, f in enumerate(facts):
        if f.kind == "attribute":
            lines.append(f"__device__ int {f.cuda} v{i};")
        else:
            lines.append(f"__device__ void u{i}(int *p) {{ (void){f.cuda}; }}")
    lines.append("__device__ void control(int *p) { atomicAdd(p, 1); }")
    src = tmp_path / "probe.hip"
    src.write_text("\n".join(lines) + "\n")
    cmd = ["hipcc", "-x", "hip", "--offload-arch=gfx90a", "-fsyntax-only", "-nogpulib"]
    cmd += ["-ferror-limit=0", str(src)]
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    bad_lines = {
        int(line.split(":")[1])
        for line in proc.stderr.splitlines()
        if line.startswith(str(src)) and ": error:" in line
    }
    missing = [f.cuda for i, f in enumerate(facts) if i + 2 not in bad_lines]
    assert not missing, f"HIP 5.2 accepts these (the facts are wrong): {missing}"
    assert len(lines) not in bad_lines, proc.stderr  # the control compiles


def test_default_argument_facts_name_their_arities() -> None:
    rows = [f for f in load_mappings().gate.facts.values() if f.kind == "default-argument"]
    assert {f.cuda for f in rows} >= {"cudaStreamWaitEvent", "cudaGraphInstantiate"}
    for f in rows:
        assert (
            f.failing_arg_counts and f.hip_min_args and max(f.failing_arg_counts) < f.hip_min_args
        )
        assert f.evidence and f.instead


def test_severity_defaults() -> None:
    assert RULES["HIP113"].severity is Severity.WARNING
    assert RULES["HIP114"].severity is Severity.WARNING
    assert all(RULES[c].severity is Severity.ERROR for c in ("HIP110", "HIP111", "HIP112"))


# --- CUDA headers with no HIP counterpart (HIP012, from mappings/cuda_headers.tsv) --------


def test_toolkit_headers_without_counterpart() -> None:
    src = HEAD + (
        "#include <cuda_pipeline.h>\n"  # in NVIDIA's list, not in the include map: error
        '#include "cuda_awbarrier.h"\n'  # quoted: an error too (the run drops it if shipped)
        "#include <thrust/device_vector.h>\n"  # rocThrust keeps the path: silent
        "#ifdef USE_DLA\n#include <cudla.h>\n#endif\n"  # conditional: warning
        '#ifdef USE_BAR\n#include "cuda/barrier"\n#endif\n'  # conditional, quoted: warning
    )
    got = {(line, s) for c, s, line in found(src) if c == "HIP012"}
    assert got == {(2, "error"), (3, "error"), (6, "warning"), (9, "warning")}, got


# the project's own header of a CUDA header's name: the run drops HIP012 (real CLI)

SHIPPED_USER = (
    "#include <cuda_runtime.h>\n"
    '#include "cuda_awbarrier.h"\n'
    "#include <cuda_pipeline.h>\n"
    "#include <cuda/barrier>\n"
    "__global__ void k(int *p) { p[0] = 1; }\n"
)


def _check_hip012(root: Path, cmd: list[str], env: dict[str, str], *args: str) -> tuple:
    import json

    proc = subprocess.run(
        [*cmd, "check", *args, "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=120,
    )
    data = json.loads(proc.stdout)
    got = sorted(
        (f["location"]["line"], f["severity"]) for f in data["findings"] if f["code"] == "HIP012"
    )
    return proc.returncode, got


def _tree(root: Path, files: dict[str, str]) -> Path:
    (root / ".hipport.toml").write_text("")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.mark.slow
def test_cuda_headers_the_project_does_not_ship_are_errors(
    tmp_path: Path, hipport_cmd: list[str], subprocess_env: dict[str, str]
) -> None:
    root = _tree(tmp_path, {"src/a.cu": SHIPPED_USER, "src/barrier": "#pragma once\n"})
    # a file named barrier outside any cuda/ directory is not <cuda/barrier>
    code, got = _check_hip012(root, hipport_cmd, subprocess_env, ".", "--no-cache")
    assert code == 1
    assert got == [(2, "error"), (3, "error"), (4, "error")], got


@pytest.mark.slow
def test_headers_the_project_ships_are_not_reported(
    tmp_path: Path, hipport_cmd: list[str], subprocess_env: dict[str, str]
) -> None:
    root = _tree(
        tmp_path,
        {
            "src/a.cu": SHIPPED_USER,
            "src/b.cu": SHIPPED_USER.replace('"cuda_awbarrier.h"', "<cuda_awbarrier.h>"),
            "third_party/cuda_awbarrier.h": "#pragma once\n",  # another directory
            "include/util.h": "#pragma once\n",
            "include/cuda/barrier": "#pragma once\n",  # at that relative path, no suffix
        },
    )
    code, got = _check_hip012(root, hipport_cmd, subprocess_env, ".", "--no-cache")
    assert code == 1  # <cuda_pipeline.h> is still NVIDIA's, in both files
    assert got == [(3, "error"), (3, "error")], got
    # a run on one file (pre-commit) knows the project's files from the cached index
    env = {**subprocess_env, "HIPPORT_CACHE_DIR": str(tmp_path / "cache")}
    assert _check_hip012(root, hipport_cmd, env, ".")[1] == got
    assert _check_hip012(root, hipport_cmd, env, "src/b.cu")[1] == [(3, "error")]


def test_a_condition_on_many_nvcc_macros_is_bounded() -> None:
    cond = " && ".join(f"CUDART_VERSION > {n} && __CUDACC_VER_MAJOR__ > {n}" for n in range(12))
    src = HEAD + f"#if {cond} && __CUDA_ARCH__ && __CUDACC_VER_MINOR__\nint v;\n#endif\n"
    assert "HIP004" not in codes(src)  # decided or not, it returns (no 4**n blow-up)
