"""The engine contract: translate_source never raises, keeps bytes, fills the result."""

from __future__ import annotations

from hipport.engine import EngineOptions, TranslationResult, defined_names, translate_source
from hipport.findings import RULES, Severity
from hipport.tables import Status
from hipport.target import Target

SRC = b"""#include <cuda_runtime.h>
__global__ void k(float* p) { p[threadIdx.x] = 1.f; }
int main() {
  float* d;
  cudaMalloc(&d, 4);
  k<<<1, 1>>>(d);
  cudaFrobnicate(d);
  cudaFree(d);
}
"""


def run(source: bytes, path: str = "a.cu", **target: object) -> TranslationResult:
    return translate_source(source, path, Target(**target), EngineOptions(check_invariants=True))


def test_result_fields() -> None:
    r = run(SRC)
    assert r.error is None and r.changed
    assert b"hipMalloc(&d, 4);" in r.output and b"hipFree(d);" in r.output
    assert {e.old for e in r.edits} >= {b"cudaMalloc", b"cudaFree", b"cuda_runtime.h"}
    assert [f.code for f in r.findings] == ["HIP004"]
    f = r.findings[0]
    assert f.api == "cudaFrobnicate" and f.severity is Severity.ERROR
    assert (f.location.line, f.location.column, f.location.end_column) == (7, 3, 17)
    assert "k" in r.defined_names and "main" in r.defined_names


def test_uses_recorded() -> None:
    r = run(SRC)
    by_api = {u.api: u for u in r.uses}
    assert by_api["cudaMalloc"].status is Status.MAPPED
    assert by_api["cudaMalloc"].new_name == "hipMalloc"
    assert by_api["cudaMalloc"].family == "runtime"
    assert by_api["cudaFrobnicate"].status is Status.UNKNOWN
    assert by_api["cudaMalloc"].location.line == 5


def test_unsupported_use_and_finding_fields() -> None:
    r = run(b"#include <cuda_runtime.h>\ncudaMallocAsync(&p, n, s);\n", rocm="5.1")
    (f,) = r.findings
    assert f.code == "HIP002" and f.hip == "hipMallocAsync" and f.min_rocm == "5.2.0"
    assert f.family == "runtime"
    (u,) = [u for u in r.uses if u.api == "cudaMallocAsync"]
    assert u.status is Status.NEEDS_NEWER_ROCM and str(u.min_rocm) == "5.2.0"


def test_hipext_alternative_named() -> None:
    r = run(b"#include <cuda_runtime.h>\ncuGreenCtxCreate(&c, d, dev, 0);\n")
    alt = {f.code: f.alternative for f in r.findings}
    assert alt["HIP011"] == "hipExtStreamCreateWithCUMask"


def test_hip_suffix_is_translated_like_any_source() -> None:
    """A .hip file still holding CUDA (half ported) is translated and checked (issue 30:
    .hip files were passed through unscanned, so the gate passed them)."""
    r = run(SRC, "a.hip")
    assert r.output == run(SRC, "a.cu").output and r.edits


def test_nothing_to_do_skips_libclang() -> None:
    src = b"int main() { return 0; }\n"
    r = run(src, "a.cpp")
    assert r.output == src and r.error is None


def test_nul_bytes_error_not_raise() -> None:
    src = b"cudaMalloc(&p, 4);\0\0"
    r = translate_source(src, "bin.cu", Target())
    assert r.error and r.output == src


def test_invalid_utf8_everywhere() -> None:
    src = b'#include <cuda_runtime.h>\n// \xff\xfe\nconst char* s = "\xe9";\ncudaFree(p);\n'
    r = run(src)
    expected = src.replace(b"cuda_runtime.h", b"hip/hip_runtime.h")
    assert r.output == expected.replace(b"cudaFree", b"hipFree")


def test_garbage_does_not_raise() -> None:
    opts = EngineOptions(check_invariants=True)
    for src in (
        b"<<<<<<>>>>>>(((",
        b'#include\n#include <\n#include "',
        b"k<<<(>>>(;",
        b'"unterminated',
        b"/* open comment cudaMalloc",
        b"#define X \\",
        b"::::cudaFree",
    ):
        r = translate_source(src, "x.cu", Target(launch_syntax="hip"), opts)
        assert r.error is None


def test_defined_names_index() -> None:
    src = b"#define CUDA_CHECK(x) x\nstatic int cudaHelper(int a);\nstruct cuThing {};\n"
    assert {"CUDA_CHECK", "cudaHelper", "cuThing"} <= defined_names(src, "h.cuh")
    assert defined_names(b"int main() {}", "m.cpp") == frozenset()


def test_codes_registered() -> None:
    from hipport.rules import all_rules

    all_rules()
    expected = {
        "HIP001": "unsupported-api",
        "HIP002": "needs-newer-rocm",
        "HIP003": "experimental-mapping",
        "HIP004": "unknown-cuda-identifier",
        "HIP005": "deprecated-in-cuda",
        "HIP006": "removed-from-cuda",
        "HIP007": "deprecated-in-hip",
        "HIP008": "removed-from-hip",
        "HIP009": "needs-human",
        "HIP010": "requires-macro",
        "HIP011": "hipext-alternative",
        "HIP012": "unmapped-include",
    }
    import hipport.semantic  # noqa: F401 (registers HIP013)

    expected["HIP013"] = "semantic-parse-error"
    for code, name in expected.items():
        assert RULES[code].name == name
        assert RULES[code].why and RULES[code].example and RULES[code].fix


def test_semantic_without_toolkit_falls_back(tmp_path) -> None:
    opts = EngineOptions(semantic=True, cuda_path=str(tmp_path))
    r = translate_source(SRC, "a.cu", Target(), opts)
    assert r.error is None and b"hipMalloc" in r.output
    assert "HIP013" in [f.code for f in r.findings]


def test_unmapped_include_severity_depends_on_condition() -> None:
    def severity(src: bytes) -> Severity:
        result = translate_source(src, "a.cuh", Target())
        (f,) = [f for f in result.findings if f.code == "HIP012"]
        return f.severity

    assert severity(b"#include <cuda_awbarrier.h>\n") is Severity.ERROR
    guarded = b"#ifndef G\n#define G\n#include <cuda_awbarrier.h>\n#endif\n"
    assert severity(guarded) is Severity.ERROR
    assert severity(b"#ifdef NV\n#include <cuda_awbarrier.h>\n#endif\n") is Severity.WARNING


def test_cuda_version_tests_take_the_cuda_builds_arm_with_a_note() -> None:
    """Issue 27 item 4 (fac4d72): a version test HIP would decide otherwise is rewritten so
    HIP compiles the arm the CUDA build takes (here: not the #error, the int), and a note
    says so; it was an error (the #error arm) and a warning before the rewrite existed."""
    src = b"#if CUDA_VERSION < 11000\n#error old\n#endif\n#if CUDART_VERSION > 1\nint x;\n#endif\n"
    result = translate_source(src, "a.cu", Target())
    sev = {f.api: f.severity for f in result.findings}
    assert sev == {"CUDA_VERSION": Severity.NOTE, "CUDART_VERSION": Severity.NOTE}
    assert b"#if !defined(__HIP_PLATFORM_AMD__) && (CUDA_VERSION < 11000)" in result.output
    assert b"#if defined(__HIP_PLATFORM_AMD__) || (CUDART_VERSION > 1)" in result.output
