"""JSON: the report's own data, as documented by docs/report.schema.json."""

from __future__ import annotations

from hipport.report import RenderOptions
from hipport.report.model import Report


def render(report: Report, options: RenderOptions | None = None) -> str:
    return report.to_json()
