"""JSON: the report's own data, as documented by docs/report.schema.json."""

from __future__ import annotations

from collections.abc import Iterator

from hipport.report import RenderOptions
from hipport.report.model import Report


def render(report: Report, options: RenderOptions | None = None) -> str:
    return report.to_json()


def chunks(report: Report, options: RenderOptions | None = None) -> Iterator[str]:
    """`render`'s text in pieces, for writing a large report without holding it whole."""
    return report.json_chunks()
