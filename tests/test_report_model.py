"""The report model: minimum ROCm across versions, coverage across releases, statistics,
severity configuration and selection, work left, and JSON valid against its schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from hipport.report.model import Selection, build_report, known_releases
from hipport.target import Target, Version
from tests.conftest import ROOT
from tests.report_support import codes, report_of, translate

HEAD = "#include <cuda_runtime.h>\n"
LIMIT = HEAD + "void f(){ cudaMalloc(&p, n); cudaDeviceSetLimit(cudaLimitStackSize, 1); }\n"
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text())


def _validate(report):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(json.loads(report.to_json()), SCHEMA, cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize(
    "rocm, satisfied, hip002",
    [("5.2", False, True), ("5.3", True, False), ("6.2", True, False), (None, True, False)],
)
def test_minimum_rocm_for_cuda_device_set_limit(rocm, satisfied, hip002):
    report = report_of({"a.cu": LIMIT}, Target(rocm=rocm))
    need = report.rocm
    assert Version.parse(need.minimum) == Version.parse("5.3")
    assert need.deciding_apis == ["cudaDeviceSetLimit", "cudaLimitStackSize"]
    assert need.satisfied is satisfied
    # Below the minimum, exactly the deciding APIs are HIP002 findings.
    hip002_apis = sorted(f.api for f in report.findings if f.code == "HIP002")
    assert hip002_apis == (need.deciding_apis if hip002 else [])


def test_minimum_ignores_unsupported_and_lists_blockers():
    report = report_of(
        {
            "a.cu": HEAD + "void f(){ cudaMalloc(&p, n); "
            "cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n"
        }
    )
    assert Version.parse(report.rocm.minimum) == Version.parse("1.5")
    assert report.rocm.blocking_apis == ["cudaDeviceFlushGPUDirectRDMAWrites"]


def test_no_uses_no_minimum():
    report = report_of({"a.cu": "int main() { return 0; }\n"})
    assert report.rocm.minimum is None and report.rocm.satisfied and report.coverage == []


def test_coverage_across_releases_unblocks_at_5_3(tables):
    report = report_of({"a.cu": LIMIT}, Target(rocm="5.2"))
    by_rocm = {Version.parse(p.rocm): p for p in report.coverage}
    assert [Version.parse(p.rocm) for p in report.coverage] == known_releases(tables)
    assert by_rocm[Version.parse("5.2")].counts.mapped == 1
    assert by_rocm[Version.parse("5.2")].counts.needs_newer_rocm == 2
    at_53 = by_rocm[Version.parse("5.3")]
    assert at_53.counts.mapped == 3 and at_53.share == 1.0
    assert at_53.unblocks == ["cudaDeviceSetLimit", "cudaLimitStackSize"]
    shares = [p.share for p in report.coverage]
    assert shares == sorted(shares)  # nothing in this code is ever removed


def test_statistics_per_family_and_api():
    src = (
        HEAD + "void f(){ cudaMalloc(&p, n); cudaMalloc(&q, n); cudaFree(p);\n"
        "cudaDeviceFlushGPUDirectRDMAWrites(t, s); cudaFrobnicate(); cublasCreate(&h); }\n"
    )
    report = report_of({"src/a.cu": src, "src/b.cu": HEAD + "void g(){ cudaFree(0); }\n"})
    t = report.totals
    assert (t.files, t.counts.uses, t.counts.mapped, t.counts.unsupported, t.counts.unknown) == (
        2,
        7,
        5,
        1,
        1,
    )
    assert t.conversion_percent == round(500 / 7, 1)
    assert t.lines == 5 and t.lines_changed >= 3 and t.files_changed == 2
    fams = {f.family: f for f in report.families}
    assert fams["runtime"].counts.uses == 5 and fams["runtime"].apis == 3
    assert fams["blas"].counts.mapped == 1 and fams["unknown"].counts.unknown == 1
    apis = {a.api: a for a in report.apis}
    assert apis["cudaMalloc"].uses == 2 and apis["cudaMalloc"].hip == "hipMalloc"
    assert apis["cudaFree"].files == 2 and apis["cudaFree"].locations == []
    assert apis["cudaDeviceFlushGPUDirectRDMAWrites"].locations == ["src/a.cu:3:1"]
    assert apis["cudaDeviceFlushGPUDirectRDMAWrites"].codes == ["HIP001"]
    assert report.apis[0].status != "mapped"  # unported first


def test_work_left_per_file_and_directory():
    bad = HEAD + "void f(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); cudaFrobnicate(); }\n"
    report = report_of(
        {
            "src/a.cu": bad,
            "src/b.cu": HEAD + "void g(){ cudaFree(0); }\n",
            "lib/c.cu": HEAD + "void h(){ cudaFrobnicate(); }\n",
        }
    )
    assert [(f.path, f.work_left) for f in report.files] == [
        ("src/a.cu", 2),
        ("lib/c.cu", 1),
        ("src/b.cu", 0),
    ]
    assert [(d.path, d.files, d.work_left) for d in report.directories] == [
        ("src", 2, 2),
        ("lib", 1, 1),
    ]


def test_severity_config_select_and_ignore():
    src = HEAD + "void f(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); cudaFrobnicate(); }\n"
    report = report_of(
        {"a.cu": src},
        selection=Selection(severity={"unknown-cuda-identifier": "note", "HIP001": "off"}),
    )
    assert [(f.code, f.severity.value) for f in report.findings] == [("HIP004", "note")]
    assert not report.fails("warning") and report.fails("note")
    assert codes(report_of({"a.cu": src}, selection=Selection(select=("HIP00",)))) == {
        "HIP001",
        "HIP004",
    }
    assert codes(report_of({"a.cu": src}, selection=Selection(select=("unsupported-api",)))) == {
        "HIP001"
    }
    assert codes(report_of({"a.cu": src}, selection=Selection(ignore=("HIP004",)))) == {"HIP001"}


def test_fail_on_levels():
    report = report_of({"a.cu": HEAD + "void f(){ cudaDeviceSetSharedMemConfig(c); }\n"})  # HIP005
    assert [f.severity.value for f in report.findings] == ["warning"]
    assert not report.fails("error") and report.fails("warning") and report.fails("note")
    assert not report.fails("never")


def test_failed_file_is_a_file_error():
    result = translate(b"cudaMalloc(\0);\n", "bin.cu")
    report = build_report([result], Target())
    assert [(f.code, f.severity.value, f.location.path) for f in report.findings] == [
        ("HIP202", "error", "bin.cu")
    ]
    assert report.totals.files_failed == 1 and report.files[0].status == "failed"


def test_fingerprints_survive_line_shifts():
    src = HEAD + "void f(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n"
    before = report_of({"a.cu": src}).findings[0].extra["fingerprint"]
    after = report_of({"a.cu": "// moved\n\n" + src}).findings[0].extra["fingerprint"]
    assert before == after
    twice = report_of({"a.cu": src + src.split("\n", 1)[1]}).findings
    assert len({f.extra["fingerprint"] for f in twice}) == 2


def test_json_matches_schema():
    src = (
        HEAD + "void f(){ cudaMalloc(&p, n); cudaDeviceSetLimit(cudaLimitStackSize, 1);\n"
        "cudaDeviceFlushGPUDirectRDMAWrites(t, s); cudaFrobnicate(); }\n"
        "__global__ void k(int v){ v = __shfl_down_sync(0xffffffff, v, 1); }\n"
    )
    from hipport.baseline import Baseline

    full = report_of({"src/a.cu": src, "b.cu": HEAD})
    base = Baseline.from_findings(full.findings[:1])
    base.counts[("gone.cu", "HIP001", "x")] = 1
    for report in (
        full,
        report_of({"src/a.cu": src}, Target(rocm="5.2"), baseline=base),
        report_of({"empty.cu": ""}),
        build_report([translate(b"cudaFree(\0)", "bin.cu")], Target()),
    ):
        _validate(report)
    data = json.loads(full.to_json())
    assert data["schema_version"] == 1
    assert data["summary"]["findings"] == len(data["findings"])


def test_json_text_is_the_standard_librarys_indented_json():
    """jsontext.json_text writes indented plain data itself (the standard library's indented
    encoder took 15 s for 300,000 findings): byte for byte what json.dumps writes, on
    the corpus's report and SARIF forms and on values of every JSON kind."""
    from hipport.report.jsontext import json_text
    from hipport.report.sarif import to_sarif

    files = {p.name: p.read_bytes() for p in sorted((ROOT / "tests" / "corpus").glob("*.cu"))}
    report = report_of(files, Target(rocm="5.2"))
    assert report.findings
    odd = {
        "s": ["", 'q"\\\n\t\x00\x1f\u00e9\ud800', "\u65e5"],
        "n": [0, -1, 10**30, 0.1, -0.0, 1e-7, 3.0, float("nan"), float("inf"), -float("inf")],
        "c": [None, True, False, [], {}, (), [[{}]], {"": {"k": (1, [2])}}],
    }
    for value in (report.to_dict(), to_sarif(report, None), odd, [], {}, "x", 1):
        assert json_text(value) == json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    non_string_keys = {1: "a", 2.5: None, False: [], None: {}}
    assert json_text(non_string_keys) == json.dumps(non_string_keys, indent=2) + "\n"


def test_the_streamed_json_is_json_dumps_of_the_dict_form_for_every_kind_of_finding():
    """Report.to_json writes findings and APIs without their dicts (finding_text,
    record_text) and falls back to the dict for anything else: a finding with more in
    `extra`, a value json converts (a tuple, a bool, a float), a Finding subclass, an
    API row with a value json converts. Each gives json.dumps's text of to_dict."""
    from dataclasses import dataclass, replace

    from hipport.findings import Finding

    @dataclass
    class Noted(Finding):
        note: str = "a subclass"

    files = {p.name: p.read_bytes() for p in sorted((ROOT / "tests" / "corpus").glob("*.cu"))}
    report = report_of(files, Target(rocm="5.2"))
    assert len(report.findings) > 8 and report.apis
    f = report.findings
    f[0].extra["note"] = "more than the fingerprint"
    f[1].hint = ("a", "tuple")  # type: ignore[assignment]
    f[2].min_rocm = 6.2  # type: ignore[assignment]
    f[6].hint = ["a", "list"]  # type: ignore[assignment]
    f[7].location = replace(f[7].location, path=["a", "list"])
    f[3].location = replace(f[3].location, line=True)
    f[4].message = 'é\u2028"quoted"\n\\'
    f[5] = Noted(**{k: getattr(f[5], k) for k in f[5].__dataclass_fields__})
    report.apis[0].hints = [("a", "tuple")]  # type: ignore[list-item]
    expected = json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
    assert report.to_json() == expected
    assert "".join(report.json_chunks()) == expected


def test_the_api_table_puts_unported_first_then_most_used_then_by_name():
    """The per-API table's order (what a reader works down): unported APIs before mapped
    ones, the most used first, ties by name. Random tallies (one name in two families
    too) against that order as one tuple key."""
    import random

    from hipport.findings import Location, Use
    from hipport.report.model import UseTally, _statistics
    from hipport.tables import Status

    statuses = [Status.MAPPED, Status.UNKNOWN, Status.UNSUPPORTED, Status.NEEDS_NEWER_ROCM]
    rng = random.Random(30)
    for _ in range(200):
        tally = UseTally()
        for f in range(rng.randint(1, 3)):
            uses = []
            for i in range(rng.randint(0, 30)):
                api = rng.choice("abcdef")
                status = statuses["abcdef".index(api) % 4]
                family = rng.choice(["runtime", "driver"]) if api == "a" else "runtime"
                uses.append(Use(api, family, status, Location(f"f{f}.cu", 1, i + 1, 1, i + 2)))
            tally.add_file(f"f{f}.cu", uses)
        _, apis = _statistics(tally, [])
        expected = sorted(apis, key=lambda s: (s.status == "mapped", -s.uses, s.api))
        assert [(a.api, a.family) for a in apis] == [(a.api, a.family) for a in expected]
        assert sum(a.uses for a in apis) == sum(
            n for _, kind, n in tally.counted() if kind.status is not Status.HIP
        )
