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
from tests.test_report_helpers import report_of

HEAD = "#include <cuda_runtime.h>\n"
SRC = (
    HEAD + "void f(){ cudaMalloc(&p, n); cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n"
    "void g(){ cudaThreadSynchronize(); }\n"
    "__global__ void k(int v){ v = __shfl_down_sync(m, v, 1); }\n"
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
    stats = render(report, "text", RenderOptions(statistics=True))
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
    from tests.test_report_helpers import translate

    report = build_report([translate(SRC, "a.cu")], root=str(tmp_path))
    run = json.loads(render(report, "sarif"))["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"


def test_junit_testcase_per_file_failures_per_finding(report):
    root = ET.fromstring(render(report, "junit", RenderOptions(fail_on="error")))
    suites = root.findall("testsuite")
    assert len(suites) == 1
    cases = {c.get("name"): c for c in suites[0].findall("testcase")}
    assert set(cases) == {"src/a.cu", "src/clean.cu"}
    assert [f.get("type") for f in cases["src/a.cu"].findall("failure")] == ["HIP001"]
    assert cases["src/clean.cu"].findall("failure") == []
    assert suites[0].get("failures") == "1"
    warn = ET.fromstring(render(report, "junit", RenderOptions(fail_on="note")))
    failures = warn.find("testsuite").find("testcase").findall("failure")
    assert {f.get("type") for f in failures} == {"HIP001", "HIP005", "HIP010"}
    never = ET.fromstring(render(report, "junit", RenderOptions(fail_on="never")))
    assert never.find("testsuite").get("failures") == "0"


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


def test_csv(report):
    rows = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    assert len(rows) == len(report.findings)
    assert rows[0]["path"] == "src/a.cu" and rows[0]["code"] == "HIP001"
    assert rows[0]["name"] == "unsupported-api" and rows[0]["line"] == "2"


def test_markdown(report):
    md = render(report, "markdown", RenderOptions(statistics=True))
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
