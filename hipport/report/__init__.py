"""The porting report (`model`) and its renderers, one module per output format.

To add a format: write hipport/report/<name>.py with `render(report, options) -> str` (and
`chunks(report, options)`, the same text in pieces, if its reports can be large) and list
it in FORMATS. Every renderer reads the same `Report`, so they never disagree.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
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
    "gitlab": "hipport.report.gitlab",
}

# Terminal layouts of the text format (--output-format).
TEXT_LAYOUTS = ("full", "concise", "grouped")


@dataclass(frozen=True)
class RenderOptions:
    fail_on: str = "error"  # JUnit failures and the text summary's verdict use it
    # text: "rules" prints one line per rule instead of the listing (as ruff's --statistics),
    # "api" the per-family and per-API tables instead; markdown: either adds the API table
    statistics: str | None = None
    color: bool = False  # text: ANSI colours (only when writing to a terminal)
    width: int | None = None  # text: the terminal's width; None: never wrap or truncate
    layout: str = "full"  # text: full, concise or grouped (TEXT_LAYOUTS)
    hints: bool = True  # text: print fix hints (full layout only)
    quiet: bool = False  # text: the findings only, no summary
    cwd: str | None = None  # text: show paths relative to this directory (None: as reported)
    sources: Callable[[str], bytes | None] | None = None  # text: a file's bytes, for carets
    sarif_max_results: int | None = None  # sarif: keep at most this many results (by severity)


class FormatUnavailable(RuntimeError):
    pass


def render(report, fmt: str, options: RenderOptions | None = None) -> str:
    """`report` rendered as `fmt` (a key of FORMATS)."""
    module = _module(fmt)
    if fmt == "html":  # the HTML report takes the report alone
        return module.render(report)
    return module.render(report, options or RenderOptions())


def render_chunks(report, fmt: str, options: RenderOptions | None = None) -> Iterator[str]:
    """`render`'s text in pieces: a format whose module has `chunks` (JSON) writes a
    large report a few thousand lines at a time; the others in one piece."""
    module = _module(fmt)
    if hasattr(module, "chunks"):
        return module.chunks(report, options or RenderOptions())
    return iter((render(report, fmt, options),))


def _module(fmt: str):
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
    return module
