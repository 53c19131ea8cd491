"""Text: one compiler-style line per finding, then a summary table (rich; plain text when
not writing to a terminal)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from hipport.findings import Finding
from hipport.report import RenderOptions
from hipport.report.model import Report

_STYLES = {"error": "bold red", "warning": "yellow", "note": "cyan"}


def finding_line(f: Finding) -> str:
    loc = f.location
    return f"{loc.path}:{loc.line}:{loc.column}: {f.severity.value}: {f.message} [{f.code}]"


def render(report: Report, options: RenderOptions | None = None) -> str:
    options = options or RenderOptions()
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=options.color,
        no_color=not options.color,
        color_system="standard" if options.color else None,
        width=options.width,
        highlight=False,
        soft_wrap=True,
    )
    for f in report.findings:
        line = finding_line(f)
        if options.color:
            console.print(line, style=_STYLES[f.severity.value], markup=False)
        else:
            console.print(line, markup=False)
        if f.hint or f.hip:
            console.print(f"    hint: {_hint(f)}", markup=False, style="dim")
    for s in report.stale:
        console.print(
            f"{s.path}: stale baseline entry: {s.code} {s.api or '(no API)'} "
            f"baselined {s.baselined}, found {s.found}",
            markup=False,
        )
    if report.findings or report.stale:
        console.print()
    console.print(_summary(report), markup=False, soft_wrap=False)
    if options.statistics:
        console.print(_families(report))
        console.print(_apis(report))
    console.print(_verdict(report, options), markup=False)
    return buffer.getvalue()


def _hint(f: Finding) -> str:
    if f.hint:
        return f.hint
    text = f"HIP name {f.hip}"
    return text + (f" (ROCm {f.min_rocm}+)" if f.min_rocm else "")


def _summary(report: Report) -> Table:
    t, r = report.totals, report.rocm
    table = Table(title="hipport check", show_header=False, box=None, pad_edge=False)
    table.add_column("what", style="bold")
    table.add_column("value")
    table.add_row("files", f"{t.files} ({t.files_changed} to change, {t.files_failed} failed)")
    table.add_row("lines", f"{t.lines} ({t.lines_changed} to change)")
    table.add_row(
        "CUDA API uses",
        f"{t.counts.uses}: {t.counts.mapped} mapped "
        f"({t.conversion_percent}%), {t.counts.unconverted} not",
    )
    minimum = r.minimum or "any"
    deciding = f" (decided by {', '.join(r.deciding_apis[:5])})" if r.deciding_apis else ""
    table.add_row("minimum ROCm", f"{minimum}{deciding}")
    table.add_row("target ROCm", f"{r.target}" + ("" if r.satisfied else "  (too old)"))
    if r.blocking_apis:
        more = f" and {len(r.blocking_apis) - 5} more" if len(r.blocking_apis) > 5 else ""
        table.add_row("no HIP port", ", ".join(r.blocking_apis[:5]) + more)
    c = report.counts()
    table.add_row(
        "findings",
        f"{c['error']} errors, {c['warning']} warnings, {c['note']} notes"
        + (f"; {len(report.baselined)} baselined" if report.baselined else "")
        + (f"; {len(report.suppressed)} suppressed" if report.suppressed else ""),
    )
    return table


def _families(report: Report) -> Table:
    table = Table(title="API uses per family")
    for name in (
        "family",
        "APIs",
        "uses",
        "mapped",
        "newer ROCm",
        "unsupported",
        "unknown",
        "other",
    ):
        table.add_column(name, justify="left" if name == "family" else "right")
    for fam in report.families:
        c = fam.counts
        table.add_row(
            fam.family,
            str(fam.apis),
            str(c.uses),
            str(c.mapped),
            str(c.needs_newer_rocm),
            str(c.unsupported),
            str(c.unknown),
            str(c.experimental + c.removed_hip),
        )
    return table


def _apis(report: Report) -> Table:
    table = Table(title="API uses")
    for name in ("API", "family", "status", "uses", "files", "HIP", "ROCm"):
        table.add_column(name, justify="right" if name in ("uses", "files") else "left")
    for api in report.apis:
        table.add_row(
            api.api,
            api.family or "",
            api.status,
            str(api.uses),
            str(api.files),
            api.hip or "",
            api.min_rocm or "",
        )
    return table


def _verdict(report: Report, options: RenderOptions) -> str:
    failing = report.failing(options.fail_on)
    if options.fail_on == "never":
        return "hipport: --fail-on never: not failing"
    if failing:
        return f"hipport: {len(failing)} finding(s) at or above {options.fail_on}"
    return f"hipport: no findings at or above {options.fail_on}"
