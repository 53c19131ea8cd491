"""GitHub Actions workflow commands: one annotation per finding.

    ::error file=src/a.cu,line=3,col=5,endLine=3,endColumn=15,title=HIP001::message

GitHub's escaping: in the message %, CR and LF become %25, %0D, %0A; in property values
also `:` and `,` (%3A, %2C), which otherwise end the value.
"""

from __future__ import annotations

from hipport.findings import RULES, Finding
from hipport.report import RenderOptions
from hipport.report.model import Report

_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    loc = f.location
    props = [
        ("file", loc.path),
        ("line", loc.line),
        ("col", loc.column),
        ("endLine", loc.end_line),
        ("endColumn", loc.end_column),
        ("title", f"{f.code} {f.rule.name}" if f.code in RULES else f.code),
    ]
    head = ",".join(f"{k}={escape_property(str(v))}" for k, v in props)
    return f"::{_COMMAND[f.severity.value]} {head}::{escape_data(f.message)}"


def render(report: Report, options: RenderOptions | None = None) -> str:
    lines = [annotation(f) for f in report.findings]
    for s in report.stale:
        lines.append(
            f"::notice file={escape_property(s.path)},title=stale baseline entry::"
            + escape_data(
                f"{s.code} {s.api}: baselined {s.baselined}, "
                f"found {s.found}; run hipport baseline to update it"
            )
        )
    return "".join(line + "\n" for line in lines)
