"""CSV: one row per reported finding (spreadsheet-friendly)."""

from __future__ import annotations

import csv
import io

from hipport.findings import RULES
from hipport.report import RenderOptions
from hipport.report.model import Report

COLUMNS = (
    "path",
    "line",
    "column",
    "end_line",
    "end_column",
    "severity",
    "code",
    "name",
    "api",
    "family",
    "hip",
    "min_rocm",
    "alternative",
    "message",
    "hint",
    "fingerprint",
)


def render(report: Report, options: RenderOptions | None = None) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for f in report.findings:
        loc = f.location
        writer.writerow(
            [
                loc.path,
                loc.line,
                loc.column,
                loc.end_line,
                loc.end_column,
                f.severity.value,
                f.code,
                f.rule.name if f.code in RULES else "",
                f.api or "",
                f.family or "",
                f.hip or "",
                f.min_rocm or "",
                f.alternative or "",
                f.message,
                f.hint or "",
                f.extra.get("fingerprint", ""),
            ]
        )
    return buffer.getvalue()
