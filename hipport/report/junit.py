"""JUnit XML: a <testsuite> per file, a <testcase> per finding, and a <failure> for each
finding at or above --fail-on.

Most viewers (GitLab's test report, Jenkins, GitHub test-report actions) show one failure
per test case, so a file with 40 findings must be 40 cases, not one case with 40 failures.
A file with no finding is a suite with one passing case, so the tree's every file counts.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hipport.findings import RULES, Finding
from hipport.report import RenderOptions
from hipport.report.model import Report
from hipport.report.text import finding_line

CLEAN_CASE = "no findings"


def case_name(f: Finding) -> str:
    loc = f.location
    name = f"{f.code} {f.rule.name}" if f.code in RULES else f.code
    return f"{name} at {loc.line}:{loc.column}" + (f" ({f.api})" if f.api else "")


def render(report: Report, options: RenderOptions | None = None) -> str:
    options = options or RenderOptions()
    failing = {id(f) for f in report.failing(options.fail_on)}
    by_path: dict[str, list[Finding]] = {}
    for f in report.findings:
        by_path.setdefault(f.location.path, []).append(f)
    paths = sorted({item.path for item in report.files} | set(by_path))
    suites = ET.Element("testsuites", name="hipport")
    tests = failures = 0
    for path in paths:
        findings = by_path.get(path, [])
        suite = ET.SubElement(suites, "testsuite", name=path, errors="0", skipped="0")
        failed = 0
        for f in findings:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=path,
                name=case_name(f),
                file=path,
                line=str(f.location.line),
            )
            if id(f) in failing:
                failed += 1
                failure = ET.SubElement(
                    case,
                    "failure",
                    type=f.code,
                    message=f"{f.severity.value}: {f.message} [{f.code}]",
                )
                failure.text = finding_line(f) + (f"\nhint: {f.hint}" if f.hint else "")
            else:
                ET.SubElement(case, "system-out").text = finding_line(f)
        if not findings:
            ET.SubElement(suite, "testcase", classname=path, name=CLEAN_CASE, file=path)
        suite.set("tests", str(max(len(findings), 1)))
        suite.set("failures", str(failed))
        tests += max(len(findings), 1)
        failures += failed
    suites.set("tests", str(tests))
    suites.set("failures", str(failures))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"
