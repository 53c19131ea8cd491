"""JUnit XML: one testsuite, a testcase per file, a <failure> per finding at or above
--fail-on (CI systems show the suite as test results)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hipport.report import RenderOptions
from hipport.report.model import Report
from hipport.report.text import finding_line


def render(report: Report, options: RenderOptions | None = None) -> str:
    options = options or RenderOptions()
    failing = report.failing(options.fail_on)
    by_path: dict[str, list] = {}
    for f in failing:
        by_path.setdefault(f.location.path, []).append(f)
    paths = sorted({item.path for item in report.files} | set(by_path))
    suite = ET.Element(
        "testsuite",
        name="hipport",
        tests=str(len(paths)),
        failures=str(sum(1 for p in paths if p in by_path)),
        errors="0",
        skipped="0",
    )
    for path in paths:
        case = ET.SubElement(suite, "testcase", classname="hipport", name=path, file=path)
        for f in by_path.get(path, ()):
            failure = ET.SubElement(
                case, "failure", type=f.code, message=f"{f.severity.value}: {f.message} [{f.code}]"
            )
            failure.text = finding_line(f)
    suites = ET.Element(
        "testsuites",
        name="hipport",
        tests=suite.get("tests", "0"),
        failures=suite.get("failures", "0"),
    )
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"
