"""Markdown: a summary table and the findings as a list (for PR comments and job summaries)."""

from __future__ import annotations

import re

from hipport.report import RenderOptions
from hipport.report.model import Report

# Every ASCII punctuation character may be backslash-escaped in CommonMark; these are the
# ones that can start markup (emphasis, links, images, code, HTML, tables, headings).
_MARKUP = re.compile(r"([\\`*_{}\[\]()<>#+!|~&:.-])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _cell(text: object) -> str:
    """Text shown as text: markup characters escaped, line breaks and controls a space (a
    table cell or a list item is one line), so a path or message cannot make a link, an
    image, a tag or a new table row."""
    return _MARKUP.sub(r"\\\1", _CONTROL.sub(" ", str(text)))


def _code(text: object) -> str:
    """`text` as one code span, whatever backticks it holds: fenced by one backtick more
    than its longest run, padded when it starts or ends with one (CommonMark's rule)."""
    shown = _CONTROL.sub(" ", str(text))
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") or not shown.strip(" ") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def render(
    report: Report, options: RenderOptions | None = None, max_findings: int | None = None
) -> str:
    """The report as markdown; `max_findings` lists only the first so many (the rest are
    counted), for places with a size cap such as GitHub's job summary."""
    options = options or RenderOptions()
    t, r, c = report.totals, report.rocm, report.counts()
    out = [
        "# hipport porting report",
        "",
        "| | |",
        "|---|---|",
        f"| Files | {t.files} ({t.files_changed} to change, {t.files_failed} failed) |",
        f"| CUDA API uses | {t.counts.uses} ({t.counts.mapped} mapped, {t.conversion_percent}%) |",
        f"| Minimum ROCm | {r.minimum or 'any'}"
        + (f" ({_cell(', '.join(r.deciding_apis))})" if r.deciding_apis else "")
        + " |",
        f"| Target ROCm | {r.target}{'' if r.satisfied else ' (too old)'} |",
        f"| Findings | {c['error']} errors, {c['warning']} warnings, {c['note']} notes |",
    ]
    if r.blocking_apis:
        out.append(f"| No HIP port | {_cell(', '.join(r.blocking_apis))} |")
    if report.baselined:
        out.append(f"| Baselined | {len(report.baselined)} |")
    out.append("")
    out += [
        "## API uses per family",
        "",
        "| Family | APIs | Uses | Mapped | Needs newer ROCm | Unsupported | Unknown |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for fam in report.families:
        k = fam.counts
        out.append(
            f"| {_cell(fam.family)} | {fam.apis} | {k.uses} | {k.mapped} | "
            f"{k.needs_newer_rocm} | {k.unsupported} | {k.unknown} |"
        )
    out.append("")
    if options.statistics:
        out += [
            "## API uses",
            "",
            "| API | Family | Status | Uses | HIP | ROCm |",
            "|---|---|---|---:|---|---|",
        ]
        for a in report.apis:
            out.append(
                f"| {_code(a.api)} | {_cell(a.family or '')} | {a.status} | {a.uses} | "
                f"{_cell(a.hip or '')} | {a.min_rocm or ''} |"
            )
        out.append("")
    out += ["## Findings", ""]
    if not report.findings:
        out.append("No findings.")
    listed = report.findings if max_findings is None else report.findings[:max_findings]
    for f in listed:
        loc = f.location
        out.append(
            f"- **{f.severity.value}** {_code(f'{loc.path}:{loc.line}:{loc.column}')} "
            f"{_cell(f.message)} \\[{_code(f.code)}\\]"
        )
    if len(listed) < len(report.findings):
        out.append(
            f"- and {len(report.findings) - len(listed)} more (the full list: "
            "`hipport check --format json`)"
        )
    if report.stale:
        out += ["", "## Stale baseline entries", ""]
        for s in report.stale:
            out.append(
                f"- {_code(s.path)} {_cell(s.code)} {_code(s.api)}: baselined {s.baselined}, "
                f"found {s.found}"
            )
    return "\n".join(out) + "\n"
