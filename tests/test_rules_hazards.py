"""Portability hazards (Kind.HAZARD, one module each under hipport/rules/hazards/): the
details their cases (tests/cases/rules/<CODE>/, tests/test_rule_cases.py) cannot show."""

from __future__ import annotations

from hipport.catalogue import HAZARDS_PACKAGE, RULES, Kind, Severity, codes_of
from hipport.engine import run_rule
from hipport.rules import all_rules, rule_for
from hipport.target import Target

CODES = codes_of(Kind.HAZARD)


def _findings(source: bytes, path: str, codes: tuple[str, ...], target: Target) -> list:
    findings = []
    for code in codes:
        result = run_rule(code, source, path, target)
        assert result.edits == [] and result.uses == [], code
        findings.extend(result.findings)
    return sorted(findings, key=lambda f: (f.location.line, f.location.column, f.code))


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
    # ROCm 6.1 has no __shfl_down_sync: the hazard speaks (from 6.2 rules/warp_masks.py does)
    (finding,) = _findings(src, "a.cu", CODES, Target(rocm="6.1"))
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
