"""The porting report (`model`) and its renderers, one module per output format.

To add a format: write hipport/report/<name>.py with `render(report, options) -> str` and
list it in FORMATS. Every renderer reads the same `Report`, so they never disagree.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

FORMATS: dict[str, str] = {
    "text": "hipport.report.text",
    "json": "hipport.report.json",
    "sarif": "hipport.report.sarif",
    "junit": "hipport.report.junit",
    "github": "hipport.report.github",
    "csv": "hipport.report.csv",
    "markdown": "hipport.report.markdown",
    "html": "hipport.report.html",
}


@dataclass(frozen=True)
class RenderOptions:
    fail_on: str = "error"  # JUnit failures and the text summary's verdict use it
    statistics: bool = False  # text/markdown: add the per-family and per-API tables
    color: bool = False  # text: ANSI colours (only when writing to a terminal)
    width: int = 100  # text: the summary tables' width


class FormatUnavailable(RuntimeError):
    pass


def render(report, fmt: str, options: RenderOptions | None = None) -> str:  # noqa: ANN001
    """`report` rendered as `fmt` (a key of FORMATS)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    try:
        module = importlib.import_module(FORMATS[fmt])
    except ModuleNotFoundError as exc:
        if exc.name != FORMATS[fmt]:
            raise
        raise FormatUnavailable(
            f"the {fmt} report is not available in this hipport ({FORMATS[fmt]} is missing)"
        ) from None
    if fmt == "html":  # the HTML report takes the report alone
        return module.render(report)
    return module.render(report, options or RenderOptions())


def load_rules() -> None:
    """Nothing to load: every rule is in the static catalogue (hipport.catalogue), which
    hipport.findings imports. Kept so that callers need not change."""
