"""The HIP build's preprocessor model (hipport.preprocess) and the engine's dead-arm filter:
each guard spelling a dual-build project uses, the project's macros, derived macros,
undecided conditions, and what translate leaves alone.

Every CUDA input here is real CUDA: test_inputs_are_real_cuda compiles each one with nvcc
(-c, with the case's -D flags for the CUDA build)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

import pytest

from hipport.engine import translate_source
from hipport.mappings import load_mappings
from hipport.options import EngineOptions
from hipport.preprocess import (
    Build,
    Macro,
    PPDirective,
    Verdict,
    conditionals,
    evaluate,
    parse_define,
    words_of,
)
from hipport.target import Target

# --- the evaluator ----------------------------------------------------------------------------

ENV = {"ONE": Macro(True, ("1",)), "OFF": Macro(False), "EMPTY": Macro(True, ())}


@pytest.mark.parametrize(
    ("condition", "value"),
    [
        ("ONE", 1),
        ("OFF", 0),
        ("!OFF", 1),
        ("defined(ONE) && !defined OFF", 1),
        ("defined EMPTY", 1),
        ("ONE || NOBODY", 1),  # short-circuits an unknown operand
        ("NOBODY && OFF", 0),
        ("NOBODY", None),  # a macro nobody defines that we know of: unknown
        ("defined(NOBODY)", None),
        ("NOBODY || OFF", None),
        ("1 + 2 * 3 == 7", 1),
        ("(1 << 4) | 1", 17),
        ("-7 / 2", -3),  # C truncates toward zero
        ("-7 % 2", -1),
        ("1 / 0", None),
        ("0x10 >= 16UL", 1),
        ("010", 8),
        ("'a' == 97", 1),
        ("ONE ? 5 : 6", 5),
        ("NOBODY ? 2 : 2", 2),
        ("NOBODY ? 2 : 3", None),
        ("__has_include(<cuda.h>)", None),
        ("EMPTY", None),  # expands to nothing: not a condition
        ("true && !false", 1),
        ("1 +", None),  # unreadable: undecided, never an exception
        ("(1", None),
    ],
)
def test_evaluate(condition, value):
    assert evaluate(words_of(condition), ENV) == value


def test_a_macro_body_is_evaluated_with_the_macros_it_names():
    env = {
        "MAJOR": Macro(True, ("6",)),
        "MINOR": Macro(True, ("3",)),
        "V": Macro(True, tuple(words_of("(MAJOR * 100 + MINOR)"))),
        "LOOP": Macro(True, ("LOOP",)),
    }
    assert evaluate(words_of("V >= 603"), env) == 1
    assert evaluate(words_of("LOOP"), env) is None


@pytest.mark.parametrize(
    ("flag", "name", "defined", "body"),
    [
        ("-DUSE_HIP", "USE_HIP", True, ("1",)),
        ("USE_HIP", "USE_HIP", True, ("1",)),
        ("-DWARP=64", "WARP", True, ("64",)),
        ("WARP=", "WARP", True, ()),
        ("-UUSE_CUDA", "USE_CUDA", False, ()),
    ],
)
def test_parse_define(flag, name, defined, body):
    got_name, macro = parse_define(flag)
    assert (got_name, macro.defined, macro.body) == (name, defined, body)


def test_the_predefined_macros_have_their_sources():
    rows = load_mappings().hip_macros.rows
    assert all(r.source.strip() for r in rows)
    assert {r.macro for r in rows} >= {"__HIPCC__", "__HIP_PLATFORM_AMD__", "__CUDA_ARCH__"}


@pytest.mark.parametrize(
    ("header", "rocm"),
    [
        ("/usr/include/hip/hip_version.h", (5, 2)),
        ("/work/shared/hip-6.3/include/hip/hip_version.h", (6, 3)),
    ],
)
def test_the_version_macros_agree_with_the_release_headers(header, rocm):
    """HIP_VERSION_* of the data file for a release equal its hip_version.h's."""
    try:
        text = open(header, encoding="utf-8").read()
    except OSError:
        pytest.skip(f"{header} is not installed here")
    defined = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "#define" and parts[1].startswith("HIP_VERSION_"):
            defined[parts[1]] = parts[2]
    (_, env), *_ = Build(rocm).worlds()
    for name in ("HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH"):
        assert env[name].body == (defined[name],), name


def _verdicts(text: str, build: Build) -> list[Verdict]:
    ds = []
    pos = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("#"):
            name, _, rest = stripped[1:].strip().partition(" ")
            ds.append(PPDirective(name, tuple(words_of(rest)), pos, pos + len(line)))
        pos += len(line)
    return [a.verdict for a in conditionals(ds, build).arms]


def test_device_pass_arms_are_live_and_an_unknown_patch_decides_nothing_it_would_change():
    text = (
        "#ifdef __HIP_DEVICE_COMPILE__\n#else\n#endif\n"
        "#if HIP_VERSION >= 60100000\n#endif\n"
        "#if HIP_VERSION >= 60200000\n#endif\n"
    )
    # both passes compile one arm each of the first chain; 6.1's patch is not known, but
    # 6.1.x is >= 6.1.0 whatever it is, and < 6.2.0
    assert _verdicts(text, Build((6, 1))) == [
        Verdict.LIVE,
        Verdict.LIVE,
        Verdict.LIVE,
        Verdict.DEAD,
    ]


# --- the engine: guard spellings ----------------------------------------------------------------

PTX = '  int r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r;\n'


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    ptx_reported: bool  # HIP101 on the PTX line
    defines: tuple[str, ...] = ()  # the HIP build's project macros
    cuda_flags: tuple[str, ...] = ()  # how the CUDA build compiles it (nvcc)
    rocm: str | None = None
    undecided: str | None = None  # the macro the undecided note names


def _fn(guard_open: str, guard_close: str = "#endif\n", other: str = "") -> str:
    return "__device__ int lane() {\n" + guard_open + PTX + other + guard_close + "  return 0;\n}\n"


CASES = [
    Case("ifdef_nvidia", _fn("#ifdef __HIP_PLATFORM_NVIDIA__\n"), False),
    Case("if_defined_nvidia", _fn("#if defined(__HIP_PLATFORM_NVIDIA__)\n"), False),
    Case("if_not_defined_amd", _fn("#if !defined(__HIP_PLATFORM_AMD__)\n"), False),
    Case("ifndef_hipcc", _fn("#ifndef __HIPCC__\n"), False),
    Case("ifndef_hip_platform_amd", _fn("#ifndef __HIP_PLATFORM_AMD__\n"), False),
    Case(
        "else_of_ifdef_hipcc",
        "__device__ int lane() {\n#ifdef __HIPCC__\n  return __lane_id();\n#else\n"
        + PTX
        + "#endif\n}\n",
        False,
    ),
    Case(
        "elif_cuda_arch",
        "__device__ int lane() {\n#if defined(__HIP_PLATFORM_AMD__)\n  return __lane_id();\n"
        "#elif defined(__CUDA_ARCH__)\n" + PTX + "#endif\n  return 0;\n}\n",
        False,
    ),
    Case("or_nvcc", _fn("#if defined(__HIP_PLATFORM_NVIDIA__) || defined(__NVCC__)\n"), False),
    Case("and_cuda_arch", _fn("#if !defined(__HIPCC__) && defined(__CUDA_ARCH__)\n"), False),
    Case("cuda_arch_version", _fn("#if __CUDA_ARCH__ >= 700\n"), False),
    Case(
        "or_with_an_unknown_macro",
        "__device__ int lane() {\n#if defined(__HIP_PLATFORM_AMD__) || defined(MYPROJ_X)\n"
        "  return __lane_id();\n#else\n" + PTX + "#endif\n}\n",
        False,
    ),
    Case(
        "nested_in_project_cuda_arm",
        _fn("#ifndef MYPROJ_USE_HIP\n#if __CUDACC_VER_MAJOR__ >= 11\n", "#endif\n#endif\n"),
        False,
        defines=("-DMYPROJ_USE_HIP",),
    ),
    Case("live_amd_arm", _fn("#ifdef __HIP_PLATFORM_AMD__\n"), True),
    Case("live_device_pass", _fn("#ifdef __HIP_DEVICE_COMPILE__\n"), True),
    Case("project_macro_defined", _fn("#ifdef MYPROJ_FAST\n"), True, defines=("-DMYPROJ_FAST",)),
    Case("project_macro_undefined", _fn("#ifdef MYPROJ_FAST\n"), False, defines=("-UMYPROJ_FAST",)),
    Case("project_macro_value", _fn("#if WARP == 32\n"), False, defines=("-DWARP=64",)),
    Case(
        "undecided",
        _fn("#ifdef MYPROJ_FAST\n"),
        True,
        cuda_flags=("-DMYPROJ_FAST",),
        undecided="MYPROJ_FAST",
    ),
    Case(
        "derived_macro_in_file",
        "#if !defined(MYPROJ_USE_HIP)\n#define ASYNC_COPY_AVAILABLE 1\n#endif\n"
        + _fn("#ifdef ASYNC_COPY_AVAILABLE\n"),
        False,
        defines=("-DMYPROJ_USE_HIP",),
    ),
    Case(
        "derived_macro_in_file_undecided",
        "#if !defined(MYPROJ_USE_HIP)\n#define ASYNC_COPY_AVAILABLE 1\n#endif\n"
        + _fn("#ifdef ASYNC_COPY_AVAILABLE\n"),
        True,
        undecided="ASYNC_COPY_AVAILABLE",
    ),
    Case("hip_version_old", _fn("#if HIP_VERSION >= 60000000\n"), False, rocm="5.2"),
    Case("hip_version_new", _fn("#if HIP_VERSION >= 60000000\n"), True, rocm="6.3"),
    Case("include_guard", "#ifndef LANE_H\n#define LANE_H\n" + _fn("", "") + "#endif\n", True),
]


def _check(case: Case):
    target = Target(rocm=case.rocm) if case.rocm else Target()
    options = EngineOptions(defines=case.defines)
    return translate_source(case.source.encode(), "lane.cu", target, options)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_ptx_is_reported_only_where_the_hip_build_compiles_it(case):
    result = _check(case)
    assert result.error is None
    ptx = [f for f in result.findings if f.code == "HIP101"]
    assert bool(ptx) == case.ptx_reported, [f.message for f in result.findings]
    if case.undecided:
        assert f"undecided: define {case.undecided} or pass -D" in ptx[0].message
        assert ptx[0].severity.value == "error"  # keeps its severity
    else:
        assert all("undecided" not in f.message for f in result.findings)


@pytest.mark.parametrize(("cuda", "flips"), [(None, True), ("12.0", False), ("12.8", True)])
def test_cudart_version_arms_with_and_without_cuda(cuda, flips):
    """Under HIP CUDART_VERSION is undefined: the arm is dead either way (no HIP101); it
    flips (HIP113) when the CUDA side can take it: any sampled release without --cuda."""
    source = _fn("#if CUDART_VERSION >= 12050\n")
    target = Target(cuda=cuda) if cuda else Target()
    result = translate_source(source.encode(), "lane.cu", target, EngineOptions())
    codes = [f.code for f in result.findings]
    assert "HIP101" not in codes
    assert ("HIP113" in codes) == flips


def test_findings_dropped_as_dead_are_counted_with_their_macros():
    result = _check(CASES[0])
    assert result.skipped_dead >= 1
    assert result.dead_macros == ("__HIP_PLATFORM_NVIDIA__",)


# --- translate -----------------------------------------------------------------------------------

DUAL = b"""#include <cuda_runtime.h>
#ifndef __HIP_PLATFORM_AMD__
static void grow(void** p) { cudaMalloc(p, 16); }
#endif
#if CUDART_VERSION >= 11000
static void zero(void* p) { cudaMemset(p, 0, 16); }
#endif
int main() { void* p; cudaMalloc(&p, 16); cudaFree(p); return 0; }
"""


def test_translate_leaves_arms_the_hip_build_never_compiles():
    out = translate_source(DUAL, "dual.cu", Target(), EngineOptions()).output.decode()
    assert "static void grow(void** p) { cudaMalloc(p, 16); }" in out
    assert "int main() { void* p; hipMalloc(&p, 16); hipFree(p); return 0; }" in out


def test_translate_still_translates_an_arm_dead_only_for_lack_of_nvcc_macros():
    """HIP113 asks for that condition to be fixed; its code must be HIP by then."""
    out = translate_source(DUAL, "dual.cu", Target(), EngineOptions()).output.decode()
    assert "static void zero(void* p) { hipMemset(p, 0, 16); }" in out


ALREADY_HIP = b"""#pragma once
#include <hip/hip_runtime.h>
#ifndef __HIP_PLATFORM_AMD__
#error "built for AMD only"
#endif
__device__ inline float down(float v) { return __shfl_down(v, 1); }
inline void copy(float* d, const float* s) { hipMemcpy(d, s, 4, hipMemcpyDefault); }
"""


@pytest.mark.parametrize("without_if", [False, True])
def test_an_already_hip_header_is_read_as_hip(without_if):
    """With or without an #if (a compat header has none: checked alone, it once got its
    `#define cudaStream_t hipStream_t` rewritten to `#define hipStream_t hipStream_t`)."""
    source = ALREADY_HIP
    if without_if:
        source = source.replace(
            b'#ifndef __HIP_PLATFORM_AMD__\n#error "built for AMD only"\n#endif\n', b""
        )
        source += b"#define cudaStream_t hipStream_t\n"
        assert b"#if" not in source
    result = translate_source(source, "down.h", Target(), EngineOptions())
    assert result.output == source
    assert not [f for f in result.findings if f.code in ("HIP005", "HIP006")]


def test_a_cuda_name_in_an_already_hip_file_is_an_error():
    """Translate leaves a file already written for HIP as it is: a CUDA name the project
    does not define there is what hipcc stops at."""
    source = ALREADY_HIP + b"inline void wait() { cudaDeviceSynchronize(); }\n"
    result = translate_source(source, "down.h", Target(), EngineOptions())
    assert result.output == source
    errors = [(f.code, f.location.line, f.hip) for f in result.findings if f.severity == "error"]
    assert errors == [("HIP004", 8, "hipDeviceSynchronize")]


HIP_ARM = """#include <cuda_runtime.h>
#if defined(__HIP_PLATFORM_AMD__)
template <typename T>
static __device__ __forceinline__ void __stcs(T *ptr, T value) { *ptr = value; }
#define CUDA_R_16F HIPBLAS_R_16F
static inline int lanes() { cudaEvent_t e; (void)e; return warpSize; }
#else
static inline int lanes() { return 32; }
#endif
#ifdef PROJ_USE_HIP
#define cudaMemAdviseSetReadMostly hipMemAdviseSetReadMostly
#endif
__global__ void fill(float *p) { __stcs(p, 1.0f); }
int run(float **p) { return cudaMalloc(p, 4) == cudaSuccess ? lanes() : 0; }
"""


@pytest.mark.parametrize("switch", [False, True])
def test_arms_only_the_hip_build_compiles_are_the_projects_port(switch):
    """Their text stays (no `__stcs` definition renamed to a clang builtin, no
    `#define HIP_R_16F HIPBLAS_R_16F`), what they define is the project's (its `__stcs` is
    called with its own arguments), and a CUDA name they use but nothing defines is an
    error: translate leaves it, and hipcc stops at it. `#ifdef PROJ_USE_HIP` is such an
    arm when PROJ_USE_HIP is one of the project's switches for its HIP build."""
    defines = ("-DPROJ_USE_HIP",) if switch else ()
    result = translate_source(HIP_ARM.encode(), "k.cu", Target(), EngineOptions(defines=defines))
    lines = HIP_ARM.splitlines()
    out = result.output.decode().splitlines()
    assert out[0] == "#include <hip/hip_runtime.h>"
    ported = 13 if switch else 9  # without the switch, PROJ_USE_HIP's arm is undecided
    assert out[1:ported] == lines[1:ported]
    assert out[13] == "int run(float **p) { return hipMalloc(p, 4) == hipSuccess ? lanes() : 0; }"
    errors = [(f.code, f.location.line, f.api) for f in result.findings if f.severity == "error"]
    assert errors == [("HIP004", 6, "cudaEvent_t")]


# --- the CUDA inputs are CUDA -----------------------------------------------------------------


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_inputs_are_real_cuda(case, tmp_path):
    path = tmp_path / "lane.cu"
    path.write_text(case.source + "__global__ void k(int* o) { o[0] = lane(); }\n")
    run = subprocess.run(
        ["nvcc", "-c", "-arch=sm_80", *case.cuda_flags, str(path), "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_the_dual_build_input_is_real_cuda(tmp_path):
    path = tmp_path / "dual.cu"
    path.write_bytes(DUAL)
    run = subprocess.run(
        ["nvcc", "-c", "-arch=sm_80", str(path), "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr


# --- the project's macros: configuration, command line, compilation database -------------------

GUARDED = """#include <cuda_runtime.h>
__device__ int lane() {
#ifndef MYPROJ_USE_HIP
  int r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r;
#else
  return 0;
#endif
}
__global__ void k(int* o) { o[0] = lane(); }
"""


@pytest.fixture
def guarded(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(GUARDED)
    return tmp_path


def _cli(*args: str):
    from click.testing import CliRunner

    from hipport.cli import main

    return CliRunner().invoke(main, [*args], catch_exceptions=False)


def _ptx_errors(output: str) -> int:
    return output.count("[HIP101]")


def test_undecided_without_the_project_macro(guarded):
    run = _cli("check", "src", "--no-cache")
    assert _ptx_errors(run.output) == 1
    assert "undecided: define MYPROJ_USE_HIP or pass -D" in run.output
    assert run.exit_code == 1


def test_project_macro_from_the_configuration(guarded):
    (guarded / "pyproject.toml").write_text('[tool.hipport]\ndefines = ["MYPROJ_USE_HIP"]\n')
    run = _cli("check", "src", "--no-cache")
    assert _ptx_errors(run.output) == 0 and run.exit_code == 0, run.output


def test_minus_u_wins_over_the_configuration(guarded):
    (guarded / "pyproject.toml").write_text('[tool.hipport]\ndefines = ["MYPROJ_USE_HIP"]\n')
    run = _cli("check", "src", "--no-cache", "-U", "MYPROJ_USE_HIP")
    assert _ptx_errors(run.output) == 1 and "undecided" not in run.output


def test_project_macro_from_the_command_line(guarded):
    run = _cli("check", "src", "--no-cache", "-D", "MYPROJ_USE_HIP")
    assert _ptx_errors(run.output) == 0 and run.exit_code == 0, run.output


def test_translate_takes_the_project_macros(guarded):
    run = _cli("translate", "src", "-o", "out", "--no-cache", "-D", "MYPROJ_USE_HIP")
    assert run.exit_code == 0, run.output
    out = (guarded / "out" / "k.cu").read_text()
    assert '#ifndef MYPROJ_USE_HIP\n  int r; asm volatile("mov.u32' in out  # left as it was


@pytest.mark.parametrize(
    "arguments",
    [
        '"arguments": ["nvcc", "-DMYPROJ_USE_HIP", "-c", "src/k.cu"]',
        '"command": "nvcc -D MYPROJ_USE_HIP -c src/k.cu"',
    ],
)
@pytest.mark.slow
def test_project_macro_from_the_compilation_database(guarded, arguments):
    db = f'[{{"directory": "{guarded}", "file": "src/k.cu", {arguments}}}]'
    (guarded / "compile_commands.json").write_text(db)
    run = _cli("check", "src", "--no-cache", "-p", str(guarded))
    assert _ptx_errors(run.output) == 0, run.output


@pytest.mark.parametrize(
    ("config", "message"),
    [('defines = ["1X"]', "defines are NAME or NAME=VALUE"), ('defines = "X"', "list of strings")],
)
def test_bad_defines_in_the_configuration(guarded, config, message):
    (guarded / "pyproject.toml").write_text(f"[tool.hipport]\n{config}\n")
    run = _cli("check", "src", "--no-cache")
    assert run.exit_code == 2 and message in run.output


def test_bad_define_on_the_command_line(guarded):
    run = _cli("check", "src", "--no-cache", "-D", "1X")
    assert run.exit_code == 2 and "expected NAME[=VALUE]" in run.output


def test_show_branches(guarded):
    run = _cli("check", "--show-branches", "src/k.cu", "-D", "MYPROJ_USE_HIP")
    assert run.exit_code == 0
    lines = run.output.splitlines()
    assert lines[0].endswith("project macros: -DMYPROJ_USE_HIP")
    assert lines[1:] == [
        "src/k.cu:3: #ifndef MYPROJ_USE_HIP: dead: MYPROJ_USE_HIP: -DMYPROJ_USE_HIP",
        "src/k.cu:5: #else: live: MYPROJ_USE_HIP: -DMYPROJ_USE_HIP",
    ]
    undecided = _cli("check", "--show-branches", "src/k.cu").output.splitlines()
    assert undecided[1].endswith("undecided: MYPROJ_USE_HIP: unknown (define it or pass -D)")


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
@pytest.mark.parametrize("text", [GUARDED, HIP_ARM], ids=["guarded", "hip_arm"])
def test_the_guarded_input_is_real_cuda(tmp_path, text):
    path = tmp_path / "k.cu"
    path.write_text(text)
    run = subprocess.run(
        ["nvcc", "-c", "-arch=sm_80", str(path), "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr


# --- the project's headers: derived macros, replacements, dead headers, <cuda.h> ----------------

PROJECT = {
    # a feature macro derived in one header from the project macro...
    "include/proj/config.h": """#pragma once
#ifndef PROJ_USE_HIP
#define PROJ_HAS_CP_ASYNC 1
#endif
""",
    # ...and another derived from it in a second header
    "include/proj/features.h": """#pragma once
#include "config.h"
#ifdef PROJ_HAS_CP_ASYNC
#define PROJ_ASYNC_COPY 1
#endif
""",
    # the compat header: CUDA's headers for nvcc, the project's HIP replacements for hipcc
    "include/proj/compat.h": """#pragma once
#ifdef PROJ_USE_HIP
#include "compat_hip.h"
#else
#include "vendors/cuda.h"
#endif
""",
    "include/proj/vendors/cuda.h": """#pragma once
#include <cuda_runtime.h>
#include <cuda_awbarrier.h>
""",
    "include/proj/compat_hip.h": """#pragma once
#include <hip/hip_runtime.h>
#define cudaStream_t hipStream_t
#define __trap() __builtin_trap()
template <typename T>
static __device__ __forceinline__ void __stcs(T *ptr, T value) { *ptr = value; }
""",
    "src/copy.cu": """#include "proj/compat.h"
#include "proj/features.h"
__global__ void copy(float *d, const float *s) {
#ifdef PROJ_ASYNC_COPY
    asm volatile("cp.async.commit_group;\\n" ::);
#endif
    if (s[0] != s[0]) __trap();
    __stcs(d, s[0]);
}
""",
}


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "p"
    for name, text in PROJECT.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.chdir(root)
    return root


def _errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if ": error:" in line]


def test_a_dual_build_project_has_no_error_under_its_hip_build(project):
    run = _cli("check", ".", "--no-cache", "--output-format", "concise", "-D", "PROJ_USE_HIP")
    assert _errors(run.output) == [], run.output
    assert run.exit_code == 0


def test_derived_macros_across_two_headers_are_undecided_without_the_project_macro(project):
    run = _cli("check", ".", "--no-cache", "--output-format", "concise")
    ptx = [line for line in _errors(run.output) if "[HIP101]" in line]
    assert len(ptx) == 1 and "undecided: define PROJ_ASYNC_COPY or pass -D" in ptx[0]


def test_the_cuda_header_of_a_dead_arm_is_no_blocker(project):
    """vendors/cuda.h is included only when PROJ_USE_HIP is undefined: nothing in it counts
    (cuda_awbarrier.h, which HIP lacks, is a blocker in a header the HIP build includes)."""
    run = _cli("check", ".", "--no-cache", "--output-format", "concise", "-D", "PROJ_USE_HIP")
    assert "vendors/cuda.h" not in run.output
    undecided = _cli("check", ".", "--no-cache", "--output-format", "concise").output
    assert "vendors/cuda.h" in undecided and "[HIP012]" in undecided


def test_the_project_replacements_are_its_own_names(project):
    """__stcs and __trap, which HIP lacks, are defined by the project's HIP compat header:
    no finding on their uses, no rename, and the shim does not poison them."""
    run = _cli("check", ".", "--no-cache", "--output-format", "concise", "-D", "PROJ_USE_HIP")
    assert "__stcs" not in run.output and "__trap" not in run.output
    shim = _cli("shim", ".", "-o", "../shim", "-D", "PROJ_USE_HIP", "--no-cache")
    assert shim.exit_code == 0, shim.output
    text = "".join(p.read_text() for p in (project.parent / "shim").rglob("*.h"))
    assert "__stcs" not in text and "__trap" not in text


def test_translate_leaves_the_compat_header_and_the_dead_header_alone(project):
    run = _cli("translate", ".", "-o", "../out", "--no-cache", "-D", "PROJ_USE_HIP")
    assert run.exit_code == 0, run.output
    for name in ("include/proj/compat_hip.h", "include/proj/vendors/cuda.h"):
        assert (project.parent / "out" / name).read_text() == PROJECT[name], name


def test_angle_cuda_h_is_the_toolkits_beside_a_project_cuda_h(tmp_path, monkeypatch):
    """<cuda.h> names CUDA's header even when the project ships a cuda.h: the file is not
    HIP already and its CUDA names are translated; "cuda.h" (quoted, beside it) is the
    project's own, so a file with it and a HIP include is HIP already."""
    root = tmp_path / "p"
    root.mkdir()
    monkeypatch.chdir(root)
    (root / "cuda.h").write_text("#pragma once\n#define PROJ_CUDA_SHIM 1\n")
    angle = (
        "#include <hip/hip_runtime.h>\n#include <cuda.h>\n"
        "void f(CUdevice *d) { cuDeviceGet(d, 0); }\n"
    )
    quoted = angle.replace("<cuda.h>", '"cuda.h"')
    (root / "angle.cpp").write_text(angle)
    (root / "quoted.cpp").write_text(quoted)
    run = _cli("translate", ".", "-o", "../out", "--no-cache")
    assert run.exit_code == 0, run.output
    assert "hipDeviceGet(d, 0)" in (tmp_path / "out" / "angle.cpp").read_text()
    assert (tmp_path / "out" / "quoted.cpp").read_text() == quoted


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_the_project_is_real_cuda(project):
    run = subprocess.run(
        ["nvcc", "-c", "-arch=sm_80", "-Iinclude", "src/copy.cu", "-o", "copy.o"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr


def test_a_header_change_reaches_the_cached_results_of_its_includers(project):
    """The cache key holds the project's directives: a header that stops deriving the
    feature macro changes the verdict of an unchanged .cu file's arm."""
    first = _cli("check", ".", "--output-format", "concise")
    assert any("[HIP101]" in line for line in _errors(first.output))
    config = project / "include/proj/config.h"
    config.write_text(config.read_text().replace("#ifndef PROJ_USE_HIP", "#if 0"))
    second = _cli("check", ".", "--output-format", "concise")
    assert not any("[HIP101]" in line for line in _errors(second.output)), second.output


@pytest.mark.parametrize("cache", [False, True])
def test_the_summary_counts_the_findings_skipped_as_dead(project, cache):
    """Through the cache and without it: the text summary and the JSON totals say how many
    findings sat in dead code and which macros decided it."""
    flags = () if cache else ("--no-cache",)
    for _ in range(2 if cache else 1):  # with the cache: the second run reads it
        text = _cli("check", ".", *flags, "-D", "PROJ_USE_HIP").output
    assert "(decided by PROJ_ASYNC_COPY)" in text.split("skipped as dead")[1]
    report = _cli("check", ".", *flags, "-D", "PROJ_USE_HIP", "--format", "json").output
    totals = __import__("json").loads(report)["totals"]
    assert totals["skipped_dead"] >= 2  # HIP012 of vendors/cuda.h, HIP101 of copy.cu at least
    assert totals["dead_macros"] == ["PROJ_ASYNC_COPY"]


def test_show_branches_follows_the_project_headers(project):
    run = _cli("check", "--show-branches", "src/copy.cu", "-D", "PROJ_USE_HIP")
    assert run.exit_code == 0
    assert "src/copy.cu:4: #ifdef PROJ_ASYNC_COPY: dead: PROJ_ASYNC_COPY: undefined" in run.output
    undecided = _cli("check", "--show-branches", "src/copy.cu").output
    assert "src/copy.cu:4: #ifdef PROJ_ASYNC_COPY: undecided" in undecided


WARP_H = """#pragma once
#ifdef PROJ_USE_HIP
__device__ inline unsigned proj_lane() { return __lane_id(); }
#else
__device__ inline unsigned proj_lane() {
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}
#endif
"""


@pytest.mark.parametrize("agree", [True, False])
def test_a_header_takes_the_macros_of_the_database_entries_that_compile_it(project, agree):
    """compile_commands.json lists the translation units, not their headers: a header takes
    the -D/-U its includers' entries agree on (as clangd gives a header its includer's
    command), and a file included only from an arm dead under an entry's flags is dead."""
    (project / "include/proj/warp.h").write_text(WARP_H)
    (project / "src/lane.cu").write_text(
        '#include "proj/warp.h"\n__global__ void k(unsigned *o) { o[0] = proj_lane(); }\n'
    )
    entries = [("src/copy.cu", "-DPROJ_USE_HIP"), ("src/lane.cu", "-D PROJ_USE_HIP")]
    if not agree:
        (project / "src/other.cu").write_text((project / "src/lane.cu").read_text())
        entries.append(("src/other.cu", ""))
    db = [
        {"directory": str(project), "file": f, "command": f"hipcc -x hip -Iinclude {d} -c {f}"}
        for f, d in entries
    ]
    (project / "build").mkdir()
    (project / "build/compile_commands.json").write_text(__import__("json").dumps(db))
    run = _cli("check", ".", "--no-cache", "--output-format", "concise", "-p", "build")
    if agree:
        assert _errors(run.output) == [], run.output
    else:  # other.cu compiles warp.h without PROJ_USE_HIP: its #else arm may be compiled
        errors = [line for line in _errors(run.output) if "warp.h" in line]
        assert len(errors) == 1 and "[HIP101]" in errors[0], run.output
        assert "undecided: define PROJ_USE_HIP or pass -D" in errors[0]
    assert "vendors/cuda.h" not in run.output  # copy.cu's entry defines PROJ_USE_HIP
    shown = _cli("check", "--show-branches", "include/proj/warp.h", "-p", "build").output
    verdict = "dead" if agree else "undecided"
    assert f"warp.h:2: #ifdef PROJ_USE_HIP: {'live' if agree else 'undecided'}" in shown
    assert f"warp.h:4: #else: {verdict}" in shown


def test_show_branches_says_a_macro_without_a_value_is_predefined(guarded):
    (guarded / "src" / "amd.cu").write_text("#if defined(__HIP_PLATFORM_AMD__)\nint amd;\n#endif\n")
    run = _cli("check", "--show-branches", "src/amd.cu")
    assert run.output.splitlines()[1] == (
        "src/amd.cu:1: #if defined(__HIP_PLATFORM_AMD__): live: "
        "__HIP_PLATFORM_AMD__: predefined by hipcc"
    ), run.output
