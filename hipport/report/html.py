"""HTML: one self-contained page for the person deciding whether and when to port.

Everything is inline (styles, a few lines of script, SVG charts drawn here), so the file
opens offline, attaches to a ticket and prints. Nothing from user code (paths, messages,
API names) reaches the page unescaped: every string goes through `_e`.

Colours are the Okabe-Ito palette (safe for the common colour-vision deficiencies) and
every coloured mark also carries a text label; text on a coloured fill is black, which
keeps contrast above 4.5:1 on every fill used.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from hipport import __version__
from hipport.findings import Finding
from hipport.report.model import CoveragePoint, FamilyStat, Report, UseCounts, WorkItem
from hipport.target import Version

HIP_DOCS = "https://rocm.docs.amd.com/projects/HIP/en/latest/"

# (UseCounts attribute, label, Okabe-Ito fill). "other" folds experimental and removed_hip.
SEGMENTS: tuple[tuple[str, str, str], ...] = (
    ("mapped", "mapped", "#009E73"),
    ("needs_newer_rocm", "needs newer ROCm", "#E69F00"),
    ("unsupported", "unsupported", "#D55E00"),
    ("unknown", "unknown", "#CC79A7"),
    ("other", "experimental / removed", "#999999"),
)
STATUS_LABELS = {
    "mapped": "mapped",
    "needs_newer_rocm": "needs newer ROCm",
    "unsupported": "unsupported in HIP",
    "unknown": "unknown",
    "experimental": "experimental",
    "removed_hip": "removed from HIP",
}
HAZARD_PREFIX = "HIP1"  # HIP101-HIP108: portability hazards (hipport.rules.hazards)
LOCATIONS_SHOWN = 12  # per API; the rest fold into a <details>
ANNOTATED_RELEASES = 8  # coverage chart: releases labelled in the chart (the table has all)


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def render(report: Report) -> str:
    sections = [
        _headline(report),
        _families_section(report.families),
        _coverage_section(report),
        _work_section(report.directories, report.files),
        _unported_section(report),
        _findings_section(
            "hazards",
            "Portability hazards",
            [f for f in report.findings if f.code.startswith(HAZARD_PREFIX)],
            "No portability hazards found.",
        ),
        _findings_section(
            "other-findings",
            "Other findings",
            [
                f
                for f in report.findings
                if not f.code.startswith(HAZARD_PREFIX) and f.api not in _unported_names(report)
            ],
            "No other findings.",
        ),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>hipport porting report: {_e(report.root)}</title>\n"
        f"<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(sections)
        + f"\n</main>\n{_footer(report)}\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )


# ------------------------------------------------------------------------------ headline


def _headline(report: Report) -> str:
    t, r = report.totals, report.rocm
    c = report.counts()
    share = t.conversion_percent
    minimum = r.minimum or ""
    blocking = r.blocking_apis
    target_note = (
        "" if r.satisfied else f' <strong class="bad">(target {_e(r.target)} is too old)</strong>'
    )
    figures = [
        _figure(
            "files",
            "Files",
            t.files,
            f"{t.files}",
            f"{t.files_changed} to change, {t.files_failed} failed",
        ),
        _figure(
            "uses",
            "CUDA API uses",
            t.counts.uses,
            f"{t.counts.uses}",
            f"{t.counts.mapped} mapped, {t.counts.unconverted} not",
        ),
        _figure("share-mapped", "Share mapped", f"{share}", f"{share}%", f"at ROCm {r.target}"),
        _figure(
            "min-rocm",
            "Minimum ROCm",
            minimum,
            minimum or "any",
            ("decided by " + ", ".join(r.deciding_apis))
            if r.deciding_apis
            else "nothing versioned is used",
        ),
        _figure(
            "blocking",
            "Blocking APIs",
            len(blocking),
            f"{len(blocking)}",
            ", ".join(blocking) if blocking else "no API lacks a HIP port",
        ),
    ]
    return (
        "<header>\n<h1>hipport porting report</h1>\n"
        f'<p class="sub">Project <code>{_e(report.root)}</code>, target ROCm '
        f'<span data-testid="target-rocm">{_e(r.target)}</span>{target_note}. '
        f'Findings: <span data-testid="errors">{c["error"]}</span> errors, '
        f'<span data-testid="warnings">{c["warning"]}</span> warnings, '
        f'<span data-testid="notes">{c["note"]}</span> notes'
        + (f", {len(report.baselined)} accepted by the baseline" if report.baselined else "")
        + ".</p>\n"
        f'<dl class="headline">\n{"".join(figures)}</dl>\n</header>'
    )


def _figure(key: str, label: str, value: object, shown: str, note: str) -> str:
    return (
        f'<div class="figure"><dt>{_e(label)}</dt>'
        f'<dd class="big" id="headline-{key}" data-testid="headline-{key}" '
        f'data-value="{_e(value)}">{_e(shown)}</dd>'
        f'<dd class="note">{_e(note)}</dd></div>\n'
    )


# ------------------------------------------------------------------- chart: per family


def _segment_counts(counts: UseCounts) -> dict[str, int]:
    out = {key: getattr(counts, key) for key, _, _ in SEGMENTS if key != "other"}
    out["other"] = counts.experimental + counts.removed_hip
    return out


def _legend(keys: Iterable[str]) -> str:
    items = "".join(
        f'<li><span class="swatch" style="background:{fill}"></span>{_e(label)}</li>'
        for key, label, fill in SEGMENTS
        if key in keys
    )
    return f'<ul class="legend">{items}</ul>'


def _families_section(families: Sequence[FamilyStat]) -> str:
    head = '<section id="families">\n<h2>API uses per family</h2>\n'
    if not families:
        return head + "<p>No CUDA API uses were found.</p>\n</section>"
    used = {k for f in families for k, n in _segment_counts(f.counts).items() if n} | {"mapped"}
    rows = "".join(
        f'<tr><th scope="row">{_e(f.family)}</th><td>{f.apis}</td><td>{f.counts.uses}</td>'
        + "".join(f"<td>{_segment_counts(f.counts)[k]}</td>" for k, _, _ in SEGMENTS)
        + "</tr>"
        for f in families
    )
    table = (
        "<details><summary>The numbers as a table</summary>"
        '<table class="numbers"><thead><tr><th scope="col">Family</th>'
        '<th scope="col">APIs</th><th scope="col">Uses</th>'
        + "".join(f'<th scope="col">{_e(label)}</th>' for _, label, _ in SEGMENTS)
        + f"</tr></thead><tbody>{rows}</tbody></table></details>"
    )
    return (
        head + "<figure>\n" + _family_svg(families) + "\n<figcaption>CUDA API uses per "
        "family, split by how they resolve at the target ROCm. "
        + _legend(used)
        + "</figcaption>\n</figure>\n"
        + table
        + "\n</section>"
    )


def _family_svg(families: Sequence[FamilyStat]) -> str:
    width, label_w, text_w, row_h, bar_h, top = 960, 150, 90, 46, 20, 8
    bar_w = width - label_w - text_w - 10
    biggest = max(f.counts.uses for f in families) or 1
    height = top + row_h * len(families) + 8
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="families-title">'
        '<title id="families-title">API uses per family</title>'
    ]
    for i, fam in enumerate(families):
        y = top + i * row_h
        parts.append(
            f'<text x="{label_w - 8}" y="{y + bar_h - 5}" text-anchor="end" '
            f'class="lbl">{_e(_clip(fam.family, 20))}</text>'
        )
        x = float(label_w)
        counts = _segment_counts(fam.counts)
        for key, label, fill in SEGMENTS:
            n = counts[key]
            if not n:
                continue
            w = bar_w * n / biggest
            parts.append(
                f"<g><title>{_e(fam.family)}: {n} {_e(label)} of {fam.counts.uses} "
                f'uses</title><rect x="{x:.1f}" y="{y}" width="{max(w, 1):.1f}" '
                f'height="{bar_h}" fill="{fill}"/>'
            )
            if w >= 8 * len(str(n)) + 6:
                parts.append(
                    f'<text x="{x + w / 2:.1f}" y="{y + bar_h - 5}" '
                    f'text-anchor="middle" class="in">{n}</text>'
                )
            parts.append("</g>")
            x += w
        parts.append(
            f'<text x="{x + 8:.1f}" y="{y + bar_h - 5}" class="sum">{fam.counts.uses}</text>'
        )
        parts.append(
            f'<text x="{label_w}" y="{y + bar_h + 14}" class="sum">'
            f"{_e(_count_words(fam.counts))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _count_words(counts: UseCounts) -> str:
    seg = _segment_counts(counts)
    pct = round(100 * counts.mapped / counts.uses) if counts.uses else 100
    rest = [f"{n} {label}" for key, label, _ in SEGMENTS if (n := seg[key])]
    return f"{counts.uses} uses ({pct}% mapped): {', '.join(rest)}"


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"


# --------------------------------------------------------- chart: coverage by release


def _change_points(report: Report) -> list[CoveragePoint]:
    """The releases worth a point: the first, every one that changes something, the
    target and the last (a codebase's coverage is flat across most releases)."""
    points = report.coverage
    target = _target_release(points, report.rocm.target)
    keep: list[CoveragePoint] = []
    for i, p in enumerate(points):
        changed = i == 0 or p.unblocks or p.share != points[i - 1].share
        if changed or i == len(points) - 1 or p.rocm == target:
            keep.append(p)
    return keep


def _target_release(points: Sequence[CoveragePoint], target: str) -> str | None:
    """The newest known release at or below the target ("5.2" is release 5.2.0; a target
    between releases resolves like the release before it)."""
    try:
        aimed = Version.parse(target)
    except ValueError:
        return None
    below = [p.rocm for p in points if Version.parse(p.rocm) <= aimed]
    return below[-1] if below else None


def _coverage_section(report: Report) -> str:
    head = '<section id="coverage">\n<h2>Coverage across ROCm releases</h2>\n'
    if not report.coverage:
        return head + "<p>No CUDA API uses, so every ROCm release will do.</p>\n</section>"
    points = _change_points(report)
    rows = "".join(
        f'<tr><th scope="row">{_e(p.rocm)}</th><td>{round(100 * p.share, 1)}%</td>'
        f"<td>{p.counts.mapped} of {p.counts.uses}</td>"
        f'<td class="names">{_e(", ".join(p.unblocks)) or "&mdash;"}</td></tr>'
        for p in points
    )
    table = (
        '<table class="releases"><thead><tr><th scope="col">ROCm</th>'
        '<th scope="col">Share mapped</th><th scope="col">Uses mapped</th>'
        '<th scope="col">APIs this release unblocks</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )
    caption = (
        f"Share of this codebase's CUDA API uses that map to HIP if it targeted each "
        f"ROCm release ({len(report.coverage)} releases known; only the first, the "
        f"ones that change something, the target and the newest are drawn). The "
        f"dashed line is the target, ROCm {_e(report.rocm.target)}."
    )
    target = _target_release(report.coverage, report.rocm.target)
    return (
        head
        + "<figure>\n"
        + _coverage_svg(points, target)
        + f"\n<figcaption>{caption}</figcaption>\n</figure>\n"
        + table
        + "\n</section>"
    )


def _coverage_svg(points: Sequence[CoveragePoint], target: str | None) -> str:
    width, height = 960, 330
    left, right, top, bottom = 56, 40, 64, 64
    plot_w, plot_h = width - left - right, height - top - bottom
    n = len(points)
    step = plot_w / max(n - 1, 1)

    def xy(i: int, share: float) -> tuple[float, float]:
        return left + (i * step if n > 1 else plot_w / 2), top + plot_h * (1 - share)

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        'aria-labelledby="coverage-title">'
        '<title id="coverage-title">Share of API uses mapped, per ROCm release</title>'
    ]
    for pct in (0, 25, 50, 75, 100):
        y = top + plot_h * (1 - pct / 100)
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" '
            f'y2="{y:.1f}" class="grid"/><text x="{left - 6}" y="{y + 4:.1f}" '
            f'text-anchor="end" class="axis">{pct}%</text>'
        )
    path = []
    for i, p in enumerate(points):  # a step: hold the share until the next release
        x, y = xy(i, p.share)
        path.append(f"H{x:.1f} V{y:.1f}" if i else f"M{x:.1f} {y:.1f}")
    parts.append(f'<path d="{" ".join(path)}" class="step"/>')
    rotate = n > 10
    labelled = _annotated(points)
    for i, p in enumerate(points):
        x, y = xy(i, p.share)
        is_target = p.rocm == target
        if is_target:
            parts.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top - 8}" '
                f'y2="{top + plot_h}" class="target"/>'
            )
        tip = (
            f"ROCm {p.rocm}: {round(100 * p.share, 1)}% mapped ({p.counts.mapped} of "
            f"{p.counts.uses} uses)" + (f"; unblocks {', '.join(p.unblocks)}" if p.unblocks else "")
        )
        parts.append(
            f'<g><title>{_e(tip)}</title><circle cx="{x:.1f}" cy="{y:.1f}" r="5" class="dot"/></g>'
        )
        ly = top + plot_h + 18
        label = _e(p.rocm) + (" (target)" if is_target else "")
        if rotate:
            parts.append(
                f'<text transform="translate({x:.1f},{ly - 6}) rotate(-35)" '
                f'text-anchor="end" class="axis">{label}</text>'
            )
        else:
            parts.append(
                f'<text x="{x:.1f}" y="{ly}" text-anchor="middle" class="axis">{label}</text>'
            )
        if i in labelled:
            parts.append(_annotation(p, x, y, i, n, top))
    parts.append(
        f'<text x="{left}" y="{height - 6}" class="axis">ROCm release '
        "(only releases that change something)</text></svg>"
    )
    return "".join(parts)


def _annotated(points: Sequence[CoveragePoint]) -> set[int]:
    """Indices of the releases to label: those unblocking the most APIs."""
    ranked = sorted(
        (i for i, p in enumerate(points) if p.unblocks), key=lambda i: -len(points[i].unblocks)
    )
    return set(ranked[:ANNOTATED_RELEASES])


def _annotation(p: CoveragePoint, x: float, y: float, i: int, n: int, top: int) -> str:
    anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
    dx = {"start": -4, "end": 4, "middle": 0}[anchor]
    first = _clip(p.unblocks[0], 26)
    more = len(p.unblocks) - 1
    ty = max(y - 26 - 22 * (i % 2), 14)
    line2 = first + (f" +{more} more" if more else "")
    return (
        f'<g class="note"><title>ROCm {_e(p.rocm)} unblocks: '
        f"{_e(', '.join(p.unblocks))}</title>"
        f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{ty + 16:.1f}" y2="{y - 6:.1f}" '
        f'class="lead"/>'
        f'<text x="{x + dx:.1f}" y="{ty:.1f}" text-anchor="{anchor}" class="ann">'
        f"+{len(p.unblocks)} API{'s' if len(p.unblocks) != 1 else ''}</text>"
        f'<text x="{x + dx:.1f}" y="{ty + 13:.1f}" text-anchor="{anchor}" '
        f'class="ann2">{_e(line2)}</text></g>'
    )


# ------------------------------------------------------------------------ work tables


WORK_COLUMNS = (
    ("Path", "text"),
    ("Work left", "num"),
    ("Errors", "num"),
    ("Warnings", "num"),
    ("Notes", "num"),
    ("Unported uses", "num"),
    ("API uses", "num"),
    ("Lines", "num"),
)


def _work_section(directories: Sequence[WorkItem], files: Sequence[WorkItem]) -> str:
    return (
        '<section id="work">\n<h2>Where the work is</h2>\n'
        "<p>Work left is the number of reported errors and warnings (baselined ones "
        "included: accepted is not done). Sorted by work left; click a column header to "
        "sort by it.</p>\n"
        + _work_table("directories", "Directories", directories)
        + _work_table("files", "Files", files)
        + "</section>"
    )


def _work_table(key: str, title: str, items: Sequence[WorkItem]) -> str:
    if not items:
        return f"<h3>{_e(title)}</h3><p>None.</p>\n"
    heads = "".join(
        f'<th scope="col" data-type="{kind}"'
        + (' aria-sort="descending"' if label == "Work left" else "")
        + f">{_e(label)}</th>"
        for label, kind in WORK_COLUMNS
    )
    rows = []
    for it in items:
        path = _e(it.path) + (
            f' <span class="tag">{_e(it.status)}</span>'
            if it.kind == "file" and it.status in ("failed", "skipped")
            else ""
        )
        if it.error:
            path += f"<br><small>{_e(it.error)}</small>"
        cells = (
            it.work_left,
            it.errors,
            it.warnings,
            it.notes,
            it.counts.unconverted,
            it.counts.uses,
            it.lines,
        )
        rows.append(
            f'<tr><th scope="row" class="path" data-v="{_e(it.path)}">{path}</th>'
            + "".join(f"<td>{v}</td>" for v in cells)
            + "</tr>"
        )
    return (
        f'<h3>{_e(title)}</h3>\n<table class="sortable work" id="work-{key}">'
        f'<caption class="sr">{_e(title)} by work left</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>\n"
    )


# ---------------------------------------------------------------------- unported APIs


def _unported_names(report: Report) -> set[str]:
    return {a.api for a in report.apis if a.status != "mapped"}


def _unported_section(report: Report) -> str:
    head = '<section id="unported">\n<h2>Unported APIs</h2>\n'
    apis = [a for a in report.apis if a.status != "mapped"]
    if not apis:
        return head + (
            f"<p>Every CUDA API use maps to HIP at ROCm {_e(report.rocm.target)}.</p>\n</section>"
        )
    rows = []
    for a in apis:
        fix = []
        if a.hip:
            fix.append(
                f"HIP name <code>{_e(a.hip)}</code>"
                + (f" (ROCm {_e(a.min_rocm)}+)" if a.min_rocm else "")
            )
        fix += [_e(h) for h in a.hints]
        codes = " ".join(f'<span class="code">{_e(c)}</span>' for c in a.codes)
        rows.append(
            f'<tr><th scope="row" class="path"><code>{_e(a.api)}</code></th>'
            f"<td>{_e(a.family or 'unknown')}</td>"
            f'<td><span class="status s-{_e(a.status)}">'
            f"{_e(STATUS_LABELS.get(a.status, a.status))}</span> {codes}</td>"
            f'<td>{a.uses}</td><td class="path">{_locations(a.locations)}</td>'
            f"<td>{'<br>'.join(fix) or '&mdash;'}</td></tr>"
        )
    return (
        head + f"<p>{len(apis)} APIs with no HIP counterpart at the target "
        f"(ROCm {_e(report.rocm.target)}), most used first.</p>\n"
        '<table class="unported"><thead><tr><th scope="col">API</th>'
        '<th scope="col">Family</th><th scope="col">Status</th>'
        '<th scope="col">Uses</th><th scope="col">Where</th>'
        '<th scope="col">Fix</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>\n</section>"
    )


def _locations(locations: Sequence[str]) -> str:
    shown = "<br>".join(_e(loc) for loc in locations[:LOCATIONS_SHOWN])
    rest = locations[LOCATIONS_SHOWN:]
    if rest:
        shown += (
            f"<details><summary>{len(rest)} more</summary>"
            + "<br>".join(_e(loc) for loc in rest)
            + "</details>"
        )
    return shown


# --------------------------------------------------------------------------- findings


def _findings_section(key: str, title: str, findings: Sequence[Finding], empty: str) -> str:
    head = f'<section id="{key}">\n<h2>{_e(title)}</h2>\n'
    if not findings:
        return head + f"<p>{_e(empty)}</p>\n</section>"
    rows = []
    for f in findings:
        loc = f.location
        hint = f.hint or f.alternative or (f"use {f.hip}" if f.hip else "")
        rows.append(
            f'<tr><td><span class="sev sev-{_e(f.severity.value)}">'
            f"{_e(f.severity.value)}</span></td>"
            f'<td><span class="code">{_e(f.code)}</span>'
            + (f"<br><small>{_e(f.rule.name)}</small>" if f.code in _rule_codes() else "")
            + f'</td><td class="path">{_e(loc.path)}:{loc.line}:{loc.column}</td>'
            f"<td>{_e(f.message)}</td><td>{_e(hint) or '&mdash;'}</td></tr>"
        )
    return (
        head + f'<table class="findings"><thead><tr><th scope="col">Severity</th>'
        '<th scope="col">Rule</th><th scope="col">Where</th>'
        '<th scope="col">What</th><th scope="col">Fix hint</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>\n"
        '<p class="hint"><code>hipport rule CODE</code> explains each rule.</p>\n'
        "</section>"
    )


def _rule_codes() -> set[str]:
    from hipport.findings import RULES

    return set(RULES)


def _footer(report: Report) -> str:
    return (
        f"<footer><p>Generated by hipport {_e(__version__)} for ROCm "
        f"{_e(report.rocm.target)}. HIP reference: "
        f'<a href="{HIP_DOCS}">HIP documentation</a>.</p></footer>'
    )


# ------------------------------------------------------------------------ style, script

CSS = """
:root { --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --bg: #ffffff; --soft: #f3f3f3; }
* { box-sizing: border-box; }
html { color: var(--ink); background: var(--bg);
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
body { margin: 0; }
main, footer { max-width: 72rem; margin: 0 auto; padding: 0 1.25rem; }
h1 { font-size: 1.8rem; margin: 1.2rem 0 0.2rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 0.6rem; border-bottom: 2px solid var(--ink); }
h3 { font-size: 1.1rem; margin: 1.2rem 0 0.4rem; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 0.92em; }
.sub { color: var(--muted); margin: 0 0 1rem; overflow-wrap: anywhere; }
.bad { color: #a1001a; }
dl.headline { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
  gap: 0.75rem; margin: 0; }
.figure { border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.8rem;
  background: var(--soft); min-width: 0; }
.figure dt { font-size: 0.85rem; color: var(--muted); text-transform: uppercase;
  letter-spacing: 0.03em; }
.figure dd { margin: 0; }
.figure .big { font-size: 2rem; font-weight: 700; line-height: 1.2; }
.figure .note { font-size: 0.85rem; color: var(--muted); overflow-wrap: anywhere; }
figure { margin: 0; }
figcaption { font-size: 0.9rem; color: var(--muted); margin-top: 0.3rem; }
svg.chart { width: 100%; height: auto; display: block; font-family: inherit; }
svg .lbl { font-size: 14px; fill: #1a1a1a; }
svg .in { font-size: 12px; fill: #000000; font-weight: 600; }
svg .sum { font-size: 12.5px; fill: #333333; }
svg .axis { font-size: 12px; fill: #333333; }
svg .grid { stroke: #dddddd; stroke-width: 1; }
svg .step { fill: none; stroke: #0072B2; stroke-width: 3; }
svg .dot { fill: #0072B2; stroke: #ffffff; stroke-width: 1.5; }
svg .target { stroke: #1a1a1a; stroke-width: 1.5; stroke-dasharray: 5 4; }
svg .lead { stroke: #777777; stroke-width: 1; }
svg .ann { font-size: 12.5px; font-weight: 700; fill: #1a1a1a; }
svg .ann2 { font-size: 11.5px; fill: #333333; font-family: ui-monospace, monospace; }
ul.legend { list-style: none; padding: 0; margin: 0.3rem 0 0; display: flex;
  flex-wrap: wrap; gap: 0.3rem 1.1rem; color: var(--ink); }
.swatch { display: inline-block; width: 0.9rem; height: 0.9rem; margin-right: 0.35rem;
  vertical-align: -0.1rem; border: 1px solid #333333; }
table { border-collapse: collapse; width: 100%; margin: 0.4rem 0 0.8rem; font-size: 0.92rem;
  table-layout: auto; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.5rem; text-align: left;
  vertical-align: top; overflow-wrap: break-word; }
thead th { white-space: nowrap; }
table.unported thead th, table.findings thead th { white-space: normal; }
thead th { background: var(--soft); border-bottom: 2px solid var(--ink); }
td { font-variant-numeric: tabular-nums; }
table.work td, table.numbers td, table.releases td { text-align: right; }
table.releases td.names { text-align: left; font-family: ui-monospace, monospace;
  font-size: 0.85rem; }
.path { overflow-wrap: anywhere; word-break: break-word; font-weight: normal; }
table.findings td.path, table.unported td.path { width: 24%; }
table.unported th[scope="row"] { width: 24%; }
table.releases th[scope="row"], table.releases td:not(.names) { white-space: nowrap; }
table.unported .path code { word-break: break-all; }
.tag, .code, .status, .sev { display: inline-block; padding: 0 0.35rem; border-radius: 3px;
  font-size: 0.82rem; border: 1px solid #555555; white-space: nowrap; }
.s-needs_newer_rocm { background: #E69F00; color: #000000; }
.s-unsupported, .s-removed_hip { background: #D55E00; color: #000000; }
.s-unknown { background: #CC79A7; color: #000000; }
.s-experimental { background: #dddddd; color: #000000; }
.sev-error { background: #D55E00; color: #000000; }
.sev-warning { background: #F0E442; color: #000000; }
.sev-note { background: #dddddd; color: #000000; }
th button { font: inherit; font-weight: 700; background: none; border: 0; padding: 0;
  cursor: pointer; color: inherit; text-align: left; }
th button::after { content: " \\2195"; color: var(--muted); }
th[aria-sort="ascending"] button::after { content: " \\2191"; color: var(--ink); }
th[aria-sort="descending"] button::after { content: " \\2193"; color: var(--ink); }
th button:focus-visible { outline: 2px solid #0072B2; outline-offset: 2px; }
details summary { cursor: pointer; color: var(--muted); }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.hint { color: var(--muted); font-size: 0.9rem; }
a { color: #005a8c; }
footer { color: var(--muted); font-size: 0.85rem; margin-top: 2rem; padding-bottom: 2rem; }
@media print {
  html { font-size: 11pt; }
  main, footer { max-width: none; padding: 0; }
  * { position: static !important; box-shadow: none !important; }
  h2 { break-after: avoid; }
  figure, tr, .figure { break-inside: avoid; }
  svg.chart { max-width: 100%; max-height: 9cm; }
  thead { display: table-header-group; }
  th button::after { content: ""; }
  details > summary { display: none; }
  a::after { content: " (" attr(href) ")"; font-size: 0.85em; }
}
"""

# Sorting (progressive: the tables are already sorted by work left without it), and the
# layout probe the browser test reads: with #layout-check in the URL the page records its
# scroll width on <html>.
SCRIPT = """
(function () {
  function key(cell, type) {
    var v = cell.getAttribute('data-v') || cell.textContent.trim();
    return type === 'num' ? parseFloat(v) || 0 : v.toLowerCase();
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var heads = table.querySelectorAll('thead th');
    heads.forEach(function (th, col) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = th.textContent;
      th.textContent = '';
      th.appendChild(button);
      button.addEventListener('click', function () {
        var type = th.getAttribute('data-type');
        var dir = th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending';
        heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir);
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[col], type), y = key(b.cells[col], type);
          var c = x < y ? -1 : x > y ? 1 : 0;
          return dir === 'ascending' ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  if (location.hash === '#layout-check') {
    var root = document.documentElement;
    root.setAttribute('data-scroll-width', String(root.scrollWidth));
  }
})();
"""
