"""Every output format: SARIF against the official 2.1.0 schema, JUnit parsed as XML,
GitHub annotation escaping, CSV, Markdown, text like a compiler."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import jsonschema
import pytest

from hipport.findings import Finding, Location, Severity
from hipport.report import FORMATS, FormatUnavailable, RenderOptions, render
from hipport.report.github import annotation, escape_data, escape_property
from tests.conftest import ROOT, SHARED_DATA
from tests.report_support import report_of

HEAD = "#include <cuda_runtime.h>\n"
SRC = (
    HEAD + "void f(){ cudaMalloc(&p, n); cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n"
    "void g(){ cudaDeviceSetSharedMemConfig(c); }\n"
    "__global__ void k(int v){ v = __shfl_down_sync(0xffffffff, v, 1); }\n"
)


@pytest.fixture(scope="module")
def report():
    return report_of({"src/a.cu": SRC, "src/clean.cu": HEAD + "void h(){ cudaFree(0); }\n"})


def test_text_is_compiler_style(report):
    text = render(report, "text")
    assert (
        "src/a.cu:2:30: error: cudaDeviceFlushGPUDirectRDMAWrites has no HIP counterpart [HIP001]"
    ) in text.splitlines()
    assert "\x1b[" not in text  # plain when not a terminal
    assert "minimum ROCm" in text and "CUDA API uses" in text
    stats = render(report, "text", RenderOptions(statistics="api"))
    assert "API uses per family" in stats and "cudaMalloc" in stats
    assert "\x1b[" in render(report, "text", RenderOptions(color=True))


# The official OASIS SARIF 2.1.0 schema, kept in the repository so the check never depends on
# ../shared being beside the checkout (a test below keeps it equal to the shared copy).
SARIF_SCHEMA = ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json"


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is absent")
def test_vendored_sarif_schema_is_the_shared_one():
    shared = SHARED_DATA / "sarif" / "sarif-schema-2.1.0.json"
    assert SARIF_SCHEMA.read_bytes() == shared.read_bytes()


def test_sarif_is_valid_and_fit_for_code_scanning(report):
    schema = json.loads(SARIF_SCHEMA.read_text())
    data = json.loads(render(report, "sarif"))
    jsonschema.validate(data, schema)
    run = data["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted({f.code for f in report.findings})
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    assert len(run["results"]) == len(report.findings)
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        loc = result["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "src/a.cu", "uriBaseId": "%SRCROOT%"}
        assert loc["region"]["startLine"] >= 1 and loc["region"]["endColumn"] > 1
        assert len(result["partialFingerprints"]["hipport/v1"]) == 32


def test_sarif_original_uri_base_for_an_absolute_root(tmp_path):
    from hipport.report.model import build_report
    from tests.report_support import translate

    report = build_report([translate(SRC, "a.cu")], root=str(tmp_path))
    run = json.loads(render(report, "sarif"))["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"


def test_junit_suite_per_file_case_per_finding(report):
    root = ET.fromstring(render(report, "junit", RenderOptions(fail_on="error")))
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"src/a.cu", "src/clean.cu"}
    cases = suites["src/a.cu"].findall("testcase")
    assert len(cases) == len([f for f in report.findings if f.location.path == "src/a.cu"]) == 3
    failed = [c for c in cases if c.find("failure") is not None]
    assert [c.find("failure").get("type") for c in failed] == ["HIP001"]
    assert suites["src/a.cu"].get("failures") == "1" and suites["src/a.cu"].get("tests") == "3"
    assert [c.get("name") for c in suites["src/clean.cu"].findall("testcase")] == ["no findings"]
    assert root.get("tests") == "4" and root.get("failures") == "1"
    warn = ET.fromstring(render(report, "junit", RenderOptions(fail_on="note")))
    failures = [f for c in warn.iter("testcase") for f in c.findall("failure")]
    assert sorted(f.get("type") for f in failures) == ["HIP001", "HIP005", "HIP023"]
    assert warn.get("failures") == "3"
    never = ET.fromstring(render(report, "junit", RenderOptions(fail_on="never")))
    assert never.get("failures") == "0" and never.get("tests") == "4"


def test_junit_counts_a_many_finding_file(many):
    root = ET.fromstring(render(many, "junit", RenderOptions(fail_on="warning")))
    cases = list(root.iter("testcase"))
    assert len(cases) == len(many.findings) == int(root.get("tests"))
    failing = len(many.failing("warning"))
    assert sum(1 for c in cases if c.find("failure") is not None) == failing
    assert int(root.get("failures")) == failing
    assert all(len(c.findall("failure")) <= 1 for c in cases)  # one failure per case


def test_github_escaping():
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a,b:c%\n") == "a%2Cb%3Ac%25%0A"
    f = Finding(
        "HIP001", Severity.ERROR, "bad: 100%\nreally, bad", Location("dir,x/a:b.cu", 3, 5, 3, 9)
    )
    assert annotation(f) == (
        "::error file=dir%2Cx/a%3Ab.cu,line=3,col=5,endLine=3,"
        "endColumn=9,title=HIP001 unsupported-api::bad: 100%25%0A"
        "really, bad"
    )


def test_github_levels(report):
    lines = render(report, "github").splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::warning", "::notice"]


# 1,000+ real findings: errors (HIP001), warnings (HIP005) and notes (HIP023), interleaved
# so that the report's path/line order is not already the severity order.
MANY_LINES = 350


@pytest.fixture(scope="module")
def many():
    body = "".join(
        f"__global__ void k{i}(int v){{ v = __shfl_down_sync(0xffffffff, v, 1); }}\n"
        f"void g{i}(){{ cudaDeviceSetSharedMemConfig(c); }}\n"
        f"void f{i}(){{ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }}\n"
        for i in range(MANY_LINES)
    )
    return report_of({"src/many.cu": HEAD + body, "src/b.cu": SRC})


def test_github_annotations_with_1000_findings(many):
    assert len(many.findings) >= 1000
    lines = render(many, "github").splitlines()
    commands = [line for line in lines if line.startswith("::")]
    plain = [line for line in lines if not line.startswith("::")]
    kinds = [c.split(" ", 1)[0] for c in commands]
    # at most 10 of each level (GitHub's per-step limit), the summary one of the notices
    assert kinds.count("::error") == 10 and kinds.count("::warning") == 10
    assert kinds.count("::notice") == 10
    # most severe first
    assert kinds == sorted(kinds, key=["::error", "::warning", "::notice"].index)
    summary = [c for c in commands if "more findings than GitHub annotates" in c]
    assert len(summary) == 1
    assert f"{len(many.findings) - 29} more not annotated" in summary[0]
    # nothing lost: every finding is an annotation or a line of the log, once
    annotated = {
        (c.split("file=")[1].split(",")[0], c.split("line=")[1].split(",")[0])
        for c in commands
        if "file=" in c
    }
    logged = {(p.split(":")[0], p.split(":")[1]) for p in plain}
    assert len(plain) + len(commands) - 1 == len(many.findings)
    seen = {(f.location.path, str(f.location.line)) for f in many.findings}
    assert annotated | logged == seen


def test_github_no_summary_when_everything_fits(report):
    assert "more findings than GitHub annotates" not in render(report, "github")


def test_github_job_summary_is_markdown_within_the_cap(many):
    from hipport.report.github import SUMMARY_BYTES, job_summary

    text = job_summary(many)
    assert text.startswith("# hipport porting report") and len(text.encode()) <= SUMMARY_BYTES
    assert f"and {len(many.findings) - 500} more" in text


def test_sarif_caps_results_by_severity(many):
    from hipport.report.sarif import limit_warnings

    options = RenderOptions(sarif_max_results=50)
    data = json.loads(render(many, "sarif", options))
    jsonschema.validate(data, json.loads(SARIF_SCHEMA.read_text()))
    results = data["runs"][0]["results"]
    assert len(results) == 50 and {r["level"] for r in results} == {"error"}
    notes = data["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes and "kept the 50 most severe" in notes[0]["message"]["text"]
    assert data["runs"][0]["properties"]["totalResults"] == len(many.findings)
    assert limit_warnings(many, options)
    everything = json.loads(render(many, "sarif", RenderOptions(sarif_max_results=0)))
    assert len(everything["runs"][0]["results"]) == len(many.findings)
    assert not limit_warnings(many, RenderOptions(sarif_max_results=0))


def test_sarif_warns_past_what_github_shows():
    from hipport.report.sarif import GITHUB_SHOWN_RESULTS, limit_warnings

    body = "void f(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n" * (GITHUB_SHOWN_RESULTS + 1)
    big = report_of({"src/big.cu": HEAD + body})
    assert len(big.findings) == GITHUB_SHOWN_RESULTS + 1
    warnings = limit_warnings(big)
    assert len(warnings) == 1 and "shows only the top 5000" in warnings[0]


@pytest.mark.slow
def test_sarif_size_warning():
    import os

    from hipport.report.sarif import GITHUB_MAX_GZIP_BYTES, size_warning

    assert size_warning("{}") is None
    assert size_warning(" " * (GITHUB_MAX_GZIP_BYTES + 10)) is None  # compresses to little
    noise = os.urandom(GITHUB_MAX_GZIP_BYTES * 3 // 2).hex()  # hex compresses to ~half
    warning = size_warning(noise)
    assert warning and "over the 10 MB GitHub accepts" in warning


GITLAB_SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def test_gitlab_code_quality_fields(many):
    issues = json.loads(render(many, "gitlab"))
    assert isinstance(issues, list) and len(issues) == len(many.findings)
    for item, f in zip(issues, many.findings, strict=True):
        assert isinstance(item["description"], str) and item["description"]
        assert item["check_name"].startswith(f.code)
        assert item["severity"] in GITLAB_SEVERITIES
        assert item["location"]["path"] == f.location.path
        assert item["location"]["lines"]["begin"] == f.location.line
        assert isinstance(item["fingerprint"], str) and len(item["fingerprint"]) >= 16
    # GitLab keeps one issue per fingerprint: they must all differ
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    by_level = {
        i["severity"]
        for i, f in zip(issues, many.findings, strict=True)
        if f.severity.value == "error"
    }
    assert by_level == {"major"}


def test_csv(report):
    rows = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    assert len(rows) == len(report.findings)
    assert rows[0]["path"] == "src/a.cu" and rows[0]["code"] == "HIP001"
    assert rows[0]["name"] == "unsupported-api" and rows[0]["line"] == "2"


def test_markdown(report):
    md = render(report, "markdown", RenderOptions(statistics="api"))
    assert md.startswith("# hipport porting report")
    assert "| runtime |" in md and "## Findings" in md
    assert "- **error** `src/a.cu:2:30`" in md


def test_json_format_is_the_model(report):
    assert json.loads(render(report, "json")) == json.loads(report.to_json())


def test_every_format_renders_an_empty_report():
    empty = report_of({"a.cu": "int main() { return 0; }\n"})
    for fmt in FORMATS:
        try:
            assert isinstance(render(empty, fmt), str)
        except FormatUnavailable:
            assert fmt == "html"


def test_unknown_format():
    with pytest.raises(ValueError):
        render(report_of({}), "yaml")
