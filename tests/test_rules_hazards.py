"""Portability hazards (HIP101-HIP108, one module each under hipport/rules/hazards/):
case files under tests/cases/hazards/<CODE>/ with the expected `CODE line:col` list, plus
inline near misses that must stay silent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipport.catalogue import HAZARDS_PACKAGE, RULES, Kind, Severity, codes_of
from hipport.engine import run_rule
from hipport.rules import all_rules, rule_for
from hipport.target import Target

CASES = Path(__file__).parent / "cases" / "hazards"
CASE_FILES = sorted(CASES.glob("*/*.cu"))
# the hazards; the gate's (Kind.GATE) have their pairs in tests/test_gate.py
CODES = codes_of(Kind.HAZARD)


def hazards(source: bytes, path: str = "input.cu", target: Target | None = None) -> list[str]:
    found = _findings(source, path, CODES, target or Target())
    return [f"{f.code} {f.location.line}:{f.location.column}" for f in found]


def _findings(source: bytes, path: str, codes: tuple[str, ...], target: Target) -> list:
    findings = []
    for code in codes:
        result = run_rule(code, source, path, target)
        assert result.edits == [] and result.uses == [], code
        findings.extend(result.findings)
    return sorted(findings, key=lambda f: (f.location.line, f.location.column, f.code))


@pytest.mark.parametrize("case", CASE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case_file(case: Path) -> None:
    """<name>.target.json, when present, gives the Target's fields (e.g. {"rocm": "5.2"})."""
    expected = case.with_suffix(".expected").read_text().split("\n")
    expected = [line for line in expected if line.strip()]
    target_file = case.with_suffix(".target.json")
    target = Target(**json.loads(target_file.read_text())) if target_file.exists() else Target()
    # A case file only ever exercises its own code, and no other hazard fires on it.
    assert hazards(case.read_bytes(), str(case), target) == expected
    assert all(e.split()[0] == case.parent.name for e in expected)


def test_every_code_has_firing_and_silent_cases() -> None:
    for code in CODES:
        files = [p for p in CASE_FILES if p.parent.name == code]
        firing = [p for p in files if p.with_suffix(".expected").read_text().strip()]
        assert firing and len(files) > len(firing), code
        fired = sum(len(p.with_suffix(".expected").read_text().split("\n")) - 1 for p in firing)
        assert fired >= 3, code


def test_rules_registered_with_docs() -> None:
    assert CODES
    for code in CODES:
        info = RULES[code]
        # PTX and missing hipDeviceProp_t fields do not compile: errors, not warnings
        expected = Severity.ERROR if code in ("HIP101", "HIP108") else Severity.WARNING
        assert info.severity is expected
        assert info.name and info.summary and info.why and info.example and info.fix


def test_engine_loads_one_rule_per_code() -> None:
    rules = all_rules()
    for code in CODES:
        rule = rule_for(code)
        assert rule in rules and rule.codes == (code,)
        assert RULES[code].module == f"{HAZARDS_PACKAGE}{RULES[code].name.replace('-', '_')}"


FIRES = [
    # HIP101
    (
        b'__global__ void k(int* o) { int r; asm("mov.u32 %0, %%smid;" : "=r"(r)); *o = r; }',
        ["HIP101 1:36"],
    ),
    (b'void host() { asm volatile("bar.sync 0;"); }', ["HIP101 1:15"]),
    (b'__device__ void f() {\n  __asm("membar.gl;");\n}', ["HIP101 2:3"]),
    # HIP102
    (
        b"__global__ void k(int* o) { o[threadIdx.x % 32] = __any_sync(__activemask(), 1); }",
        ["HIP102 1:43"],
    ),
    (b"#define THREADS_PER_WARP 32\n", ["HIP102 1:9"]),
    (b"constexpr int kWarp = 32;\n", ["HIP102 1:15"]),
    (b"__device__ int warp_id() { return threadIdx.x / 32; }", ["HIP102 1:47"]),
    # HIP103
    (b"__device__ int f(int v) { return __shfl_sync(0xffffffff, v, 0); }", ["HIP103 1:46"]),
    (b"__device__ int f(int v) { int m = __ballot(v); return m; }", ["HIP103 1:35"]),
    (b"__device__ int f(int v) { return (unsigned)__activemask(); }", ["HIP103 1:44"]),
    # HIP104
    (b'#include "mma.h"\n', ["HIP104 1:1"]),
    (
        b"using F = nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half>;",
        ["HIP104 1:11", "HIP104 1:34"],
    ),
    (
        b"void f() { wmma::store_matrix_sync(p, acc, 16, wmma::mem_row_major); }",
        ["HIP104 1:12", "HIP104 1:48"],
    ),
    # HIP105
    (b"texture<float4, 2> img;", ["HIP105 1:1"]),
    (
        b"void f(const textureReference* r) { cudaBindTextureToArray(r, a, &d); }",
        ["HIP105 1:14", "HIP105 1:37"],
    ),
    (b"surface<void, cudaSurfaceType2D> out;", ["HIP105 1:1"]),
    # HIP106
    (b"__global__ void __launch_bounds__(1024, 1) k() {}", ["HIP106 1:17"]),
    (b"template <int T> __global__ void __launch_bounds__(T, T / 64) k() {}", ["HIP106 1:34"]),
    (b"__global__ __launch_bounds__(64, 8, 2) void k() {}", ["HIP106 1:12"]),
    # HIP107
    (b"#include <cooperative_groups/scan.h>\n", ["HIP107 1:1"]),
    (
        b"#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n"
        b"__device__ void f() { auto t = tiled_partition<48>(this_thread_block()); }",
        ["HIP107 3:32"],
    ),
    (
        b"namespace G = cooperative_groups;\n__device__ int f(int v) { "
        b"return G::inclusive_scan(G::tiled_partition<32>(G::this_thread_block()), v); }",
        ["HIP107 2:37"],
    ),
    # HIP108
    # (fields no hipDeviceProp_t of HIP 5.2 or ROCm 6.2-7.2 has)
    (b"hipDeviceProp_t p; int n = p.mpsEnabled;", ["HIP108 1:30"]),
    (
        b"void f(cudaDeviceProp* p) { g(p->hostNumaId, p->gpuPciDeviceID); }",
        ["HIP108 1:34", "HIP108 1:49"],
    ),
    (b"cudaDeviceProp p; bool o = p.deviceNumaConfig;", ["HIP108 1:30"]),
]

SILENT = [
    # HIP101
    b'// asm("mov.u32 %0, %%laneid;");\n__global__ void k() {}',
    b'const char* s = "asm volatile(\\"bar.sync 0;\\")";',
    b"void host() { int asm_ = 1; (void)asm_; }",
    b'int x86() { int r; asm("movl $1, %0" : "=r"(r)); return r; }',
    # HIP102
    b"int main() { dim3 block(32); dim3 grid(n / 32); k<<<grid, block>>>(); }",
    b"__global__ void k(float* a) { a[threadIdx.x % 32] = 0.f; }",  # no warp intrinsic
    b"__global__ void k(int* o) { o[0] = __shfl_sync(__activemask(), 1, 0) % warpSize; }",
    b"void* p = malloc(32);\n#define WARP_SIZE_LOG 5\n",
    b"__global__ void k(int* o, int n) { int w = warpSize; o[0] = __ballot(1) & (w - 1); }",
    # HIP103
    b"__device__ int f(int v) { /* __shfl_sync(0xffffffff, v, 0) */ return v; }",
    b"__device__ unsigned long long f(int v) { return __ballot(v); }",
    b"__device__ int f(int v) { uint64_t m = __ballot_sync(~0ull, v); return m; }",
    b"unsigned h = 0xffffffff; int g(int v) { return v & 0xffffffff; }",
    b"__device__ float f(float v) { return __shfl_sync(__activemask(), v, 0); }",
    # HIP104
    b"#include <rocwmma/rocwmma.hpp>\nrocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half> f;",
    b'// nvcuda::wmma\nconst char* s = "wmma::fragment";',
    b"struct S { int wmma; }; int g(S s) { return s.wmma; }",
    # HIP105
    b"__global__ void k(cudaTextureObject_t t, float* o) { o[0] = tex1Dfetch<float>(t, 0); }",
    b"int texture = 2; bool b = texture < 3;",
    b'// texture<float, 1, cudaReadModeElementType> tex;\nconst char* s = "cudaBindTexture";',
    b"cudaSurfaceObject_t s; void f(float v) { surf2Dwrite(v, s, 0, 0); }",
    # HIP106
    b"__global__ void __launch_bounds__(256) k() {}",
    b"__global__ void __launch_bounds__(BLOCK) k() {}",
    b"// __launch_bounds__(256, 2)\n__global__ void k() {}",
    b'const char* s = "__launch_bounds__(256, 2)";',
    # HIP107
    b"#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
    b"__device__ void f() { auto t = cg::tiled_partition<16>(cg::this_thread_block()); }",
    b"#include <numeric>\nint f(int* a, int n) { return std::reduce(a, a + n); }",
    b"#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
    b"__global__ void k() { cg::this_grid().sync(); }",
    b"#include <cooperative_groups.h>\nvoid f() { std::vector<int> v; wait(0); }",
    # HIP108
    b"cudaDeviceProp p; int w = p.warpSize + p.maxSharedMemoryPerMultiProcessor;",
    b"struct E { int asyncEngineCount; }; int f(E e) { return e.asyncEngineCount; }",
    b'cudaDeviceProp p; // p.asyncEngineCount\nconst char* s = "p.luid";',
    b"cudaDeviceProp p; int asyncEngineCount = 0;",
    b"cudaDeviceProp p; int n = p.asyncEngineCount;",  # in hipDeviceProp_t since ROCm 6.x
]


@pytest.mark.parametrize(("source", "expected"), FIRES, ids=lambda x: None)
def test_fires(source: bytes, expected: list[str]) -> None:
    assert hazards(source) == expected


@pytest.mark.parametrize("source", SILENT)
def test_silent(source: bytes) -> None:
    assert hazards(source) == []


def test_fires_and_silent_cover_every_code() -> None:
    for code in CODES:
        fires = [s for s, exp in FIRES if exp and exp[0].startswith(code)]
        assert len(fires) >= 3, code


def test_device_prop_field_follows_the_target() -> None:
    """HIP108 checks the field list of the target's ROCm release (mappings/), not HIP 5.2's:
    asyncEngineCount is missing in HIP 5.2 and present in ROCm 6.2-7.2's hipDeviceProp_t."""
    src = b"void f() { cudaDeviceProp p; int n = p.asyncEngineCount; int m = p.mpsEnabled; }"
    by_target = {rocm: _run_hazards(src, Target(rocm=rocm)) for rocm in ("5.2", "6.2", "7.2")}
    assert [(f.api, f.severity) for f in by_target["5.2"]] == [
        ("cudaDeviceProp::asyncEngineCount", Severity.ERROR),
        ("cudaDeviceProp::mpsEnabled", Severity.ERROR),
    ]
    for rocm in ("6.2", "7.2"):
        findings = by_target[rocm]
        assert [(f.api, f.severity) for f in findings] == [
            ("cudaDeviceProp::mpsEnabled", Severity.ERROR)
        ], rocm
        assert f"(ROCm {rocm}." in findings[0].message


def test_device_prop_field_without_a_field_list_for_the_target_warns() -> None:
    src = b"void f() { cudaDeviceProp p; int n = p.asyncEngineCount; int m = p.mpsEnabled; }"
    # 6.0 lies between HIP 5.2 (no asyncEngineCount) and 6.2 (has it): no list, a warning;
    # mpsEnabled is missing in 6.2 as well, so in 6.0 too: an error.
    assert [(f.api, f.severity) for f in _run_hazards(src, Target(rocm="6.0"))] == [
        ("cudaDeviceProp::asyncEngineCount", Severity.WARNING),
        ("cudaDeviceProp::mpsEnabled", Severity.ERROR),
    ]
    # newer than every list: missing in the newest one known is a warning
    assert [f.severity for f in _run_hazards(src, Target(rocm="7.10"))] == [Severity.WARNING]


def _run_hazards(src: bytes, target: Target) -> list:
    return run_rule("HIP108", src, "a.cu", target).findings


def test_finding_fields() -> None:
    src = b"__device__ int f(int v) { return __shfl_down_sync(0xffffffff, v, 1); }"
    (finding,) = _findings(src, "a.cu", CODES, Target())
    assert finding.api == "__shfl_down_sync"
    assert finding.severity is Severity.WARNING
    loc = finding.location
    assert (loc.line, loc.column, loc.end_line, loc.end_column) == (1, 51, 1, 61)
    assert "__activemask()" in finding.message


def test_cooperative_groups_follow_the_target() -> None:
    """HIP107 reads mappings/cooperative_groups.tsv for the target: known missing up to the
    release the evidence covers (HIP 5.2), said so for later targets without evidence."""
    src = RULES["HIP107"].example.encode()
    old = run_rule("HIP107", src, "a.cu", Target(rocm="5.2")).findings
    new = run_rule("HIP107", src, "a.cu", Target(rocm="6.2")).findings
    assert [f.api for f in old] == [f.api for f in new] and old
    assert not any("no evidence" in f.message for f in old)
    assert all("missing in HIP 5.2; no evidence for ROCm 6.2" in f.message for f in new)


def test_device_runtime_call_after_a_lone_carriage_return_does_not_crash() -> None:
    """Found by tests/fuzz/run.py: a lone \\r (a line break to clang, not to a split at \\n)
    before a runtime call put the call's line past the end of the \\n-counted lines."""
    from hipport.engine import translate_source
    from hipport.target import Target

    src = b"#include <cuda_runtime.h>\nint a;\r__global__ void k() { cudaDeviceSynchronize(); }"
    result = translate_source(src, "a.cu", Target())  # raised IndexError
    assert result.error is None
    assert "HIP111" in {f.code for f in result.findings}
