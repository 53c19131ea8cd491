"""HTML: one self-contained page for the person deciding whether and when to port, from
a 5-file example to a 10,000-file tree.

The page is built to stay readable at any size:
- the headline (everything before the first <h2>) is a few figures that fit one screen:
  counts, share mapped, the minimum ROCm with at most HEADLINE_NAMES deciding APIs, and
  the blocking APIs' count with the most used few and a link to the rest;
- a sticky table of contents;
- "where the work is" is a directory tree with totals rolled up at every level, folded,
  that opens to files and their findings;
- the findings are grouped by the catalogue's kind of their rule (rewrite, hazard, gate,
  run, build: hipport.catalogue.Kind, in its order), then by API (and rule), each group
  folded (<details>) with its count, searchable (<input type="search">) and filtered by
  kind, rule, severity, family and directory;
  a rule's fix is written once, in the rules section, not on every finding;
- the coverage chart has a point per ROCm release the tables know, and its labels are
  thinned and rotated so that none overlaps another.

Everything is inline (styles, a little script, SVG drawn here), so the file opens offline,
attaches to a ticket and prints; without script every group still opens and closes (the
search and filters need script and stay hidden without it). Nothing from user code (paths,
messages, API names) reaches the page unescaped: every string goes through `_e`.

Colours are the Okabe-Ito palette (safe for the common colour-vision deficiencies) and
every coloured mark also carries a text label; text on a coloured fill is black, which
keeps contrast above 4.5:1 on every fill used.
"""

from __future__ import annotations

import html
import math
import posixpath
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from hipport import __version__
from hipport.catalogue import Kind
from hipport.findings import RULES, Finding
from hipport.report.model import (
    USE_STATUSES,
    ApiStat,
    CoveragePoint,
    FamilyStat,
    Report,
    UseCounts,
    WorkItem,
)
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
HEADLINE_NAMES = 3  # API names a headline card lists before "and N more"
GROUPS_SHOWN = 150  # finding groups listed before the rest fold into one "more" group
TOP_FILES = 10  # the "most work" table
NO_API = "(no API)"


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def render(report: Report) -> str:
    groups = finding_groups(report)
    sections = [
        _toc(),
        _headline(report),
        _families_section(report.families),
        _coverage_section(report),
        _work_section(report),
        _findings_section(report, groups),
        _rules_section(report),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>hipport porting report: {_e(report.root)}</title>\n"
        f"<style>{CSS}</style>\n</head>\n<body>\n"
        + sections[0]
        + "\n<main>\n"
        + "\n".join(sections[1:])
        + f"\n</main>\n{_footer(report)}\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )


# ------------------------------------------------------------------------ navigation

TOC = (
    ("summary", "Summary"),
    ("families", "Families"),
    ("coverage", "ROCm releases"),
    ("work", "Where the work is"),
    ("findings", "Findings by kind"),
    ("rules", "Rules"),
)


def _toc() -> str:
    links = "".join(f'<li><a href="#{key}">{_e(label)}</a></li>' for key, label in TOC)
    return f'<nav class="toc" aria-label="Contents"><ul>{links}</ul></nav>'


# ------------------------------------------------------------------------------ headline


def _names(names: Sequence[str], more_href: str, total: int | None = None) -> str:
    """At most HEADLINE_NAMES names, then a link to the rest."""
    total = len(names) if total is None else total
    shown = ", ".join(f"<code>{_e(n)}</code>" for n in names[:HEADLINE_NAMES])
    if total > HEADLINE_NAMES:
        shown += f' and <a href="{more_href}">{total - HEADLINE_NAMES} more</a>'
    return shown


def _headline(report: Report) -> str:
    t, r = report.totals, report.rocm
    c = report.counts()
    share = t.conversion_percent
    minimum = r.minimum or ""
    blocking = r.blocking_apis  # most used first (report.model)
    target_note = (
        "" if r.satisfied else f' <strong class="bad">(target {_e(r.target)} is too old)</strong>'
    )
    figures = [
        _figure(
            "files",
            "Files",
            t.files,
            f"{t.files}",
            f"{t.files_changed} to change, "
            f'<span data-testid="files-with-errors">'
            f"{sum(1 for f in report.files if f.errors)}</span> with an error, "
            f"{t.files_failed} failed",
        ),
        _figure(
            "uses",
            "CUDA API uses",
            t.counts.uses,
            f"{t.counts.uses}",
            _e(f"{t.counts.mapped} mapped, {t.counts.unconverted} not"),
        ),
        _figure("share-mapped", "Share mapped", f"{share}", f"{share}%", _e(f"at ROCm {r.target}")),
        _figure(
            "min-rocm",
            "Minimum ROCm",
            minimum,
            minimum or "any",
            ("decided by " + _names(r.deciding_apis, "#deciding"))
            if r.deciding_apis
            else "nothing versioned is used",
            wide=True,
        ),
        _figure(
            "blocking",
            "Blocking APIs",
            len(blocking),
            f"{len(blocking)}",
            ("no ROCm release maps " + _names(blocking, "#findings"))
            if blocking
            else "no API lacks a HIP port",
            wide=True,
        ),
    ]
    return (
        '<header id="summary">\n<h1>hipport porting report</h1>\n'
        f'<p class="sub">Project <code>{_e(report.root)}</code>, target ROCm '
        f'<span data-testid="target-rocm">{_e(r.target)}</span>{target_note}. '
        f'Findings: <span data-testid="errors">{c["error"]}</span> errors, '
        f'<span data-testid="warnings">{c["warning"]}</span> warnings, '
        f'<span data-testid="notes">{c["note"]}</span> notes'
        + (f", {len(report.baselined)} accepted by the baseline" if report.baselined else "")
        + ".</p>\n"
        f'<dl class="headline">\n{"".join(figures)}</dl>\n</header>'
    )


def _figure(
    key: str, label: str, value: object, shown: str, note_html: str, wide: bool = False
) -> str:
    return (
        f'<div class="figure{" wide" if wide else ""}"><dt>{_e(label)}</dt>'
        f'<dd class="big" id="headline-{key}" data-testid="headline-{key}" '
        f'data-value="{_e(value)}">{_e(shown)}</dd>'
        f'<dd class="note">{note_html}</dd></div>\n'
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


def _target_release(points: Sequence[CoveragePoint], target: str) -> str | None:
    """The newest known release at or below the target ("5.2" is release 5.2.0; a target
    between releases resolves like the release before it)."""
    try:
        aimed = Version.parse(target)
    except ValueError:
        return None
    below = [p.rocm for p in points if Version.parse(p.rocm) <= aimed]
    return below[-1] if below else None


def _changes(points: Sequence[CoveragePoint]) -> list[CoveragePoint]:
    """The releases that change something (the first one too): the table's rows."""
    return [
        p for i, p in enumerate(points) if i == 0 or p.unblocks or p.share != points[i - 1].share
    ]


def _coverage_section(report: Report) -> str:
    head = '<section id="coverage">\n<h2>Coverage across ROCm releases</h2>\n'
    if not report.coverage:
        return head + "<p>No CUDA API uses, so every ROCm release will do.</p>\n</section>"
    points = report.coverage
    target = _target_release(points, report.rocm.target)
    rows = "".join(
        f'<tr><th scope="row">{_e(p.rocm)}</th><td>{round(100 * p.share, 1)}%</td>'
        f"<td>{p.counts.mapped} of {p.counts.uses}</td>"
        f'<td class="names">{_api_list(p.unblocks)}</td></tr>'
        for p in _changes(points)
    )
    table = (
        "<details><summary>The releases that change something, as a table</summary>"
        '<table class="releases"><thead><tr><th scope="col">ROCm</th>'
        '<th scope="col">Share mapped</th><th scope="col">Uses mapped</th>'
        '<th scope="col">APIs this release unblocks</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></details>"
    )
    caption = (
        f"Share of this codebase's CUDA API uses that map to HIP if it targeted each of "
        f"the {len(points)} ROCm releases the tables know; +N marks a release that "
        f"unblocks N APIs. The dashed line is the target, ROCm {_e(report.rocm.target)}."
    )
    return (
        head
        + "<figure>\n"
        + coverage_svg(points, target, report.rocm.target)
        + f"\n<figcaption>{caption}</figcaption>\n</figure>\n"
        + _deciding(report)
        + table
        + "\n</section>"
    )


def _api_list(names: Sequence[str], shown: int = 12) -> str:
    if not names:
        return "&mdash;"
    text = ", ".join(_e(n) for n in names[:shown])
    if len(names) > shown:
        text += (
            f' <details class="inline"><summary>{len(names) - shown} more</summary>'
            + ", ".join(_e(n) for n in names[shown:])
            + "</details>"
        )
    return text


def _deciding(report: Report) -> str:
    r = report.rocm
    if not r.deciding_apis:
        return ""
    blocking = len(r.blocking_apis)
    scope = (
        f"every API the code uses that some release maps ({_plural(blocking, 'API')} "
        'no release maps: see <a href="#findings">the findings</a>)'
        if blocking
        else "every API the code uses"
    )
    return (
        f'<p id="deciding">ROCm {_e(r.minimum)} is the oldest release with {scope}; '
        f"{_plural(len(r.deciding_apis), 'API')} first appeared in it: "
        f'<span class="names">{_api_list(r.deciding_apis, 30)}</span>.</p>\n'
    )


# Axis and annotation geometry (SVG user units; the chart is 960 wide and scales down).
CHART_W, CHART_H = 960, 340
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 56, 24, 56, 76
AXIS_FONT = 12  # px
CHAR_W = 7.0  # an upper bound of a 12 px digit's or dot's advance in the fonts used
LABEL_ANGLE = 55  # degrees the release labels turn when they do not fit flat
LINE_GAP = 1.3  # labels' baselines at least this many font heights apart


def axis_labels(
    xs: Sequence[float], texts: Sequence[str], keep: set[int]
) -> tuple[list[int], bool]:
    """Which release labels to draw and whether to rotate them, so that none overlaps: flat
    when every label fits its slot, else rotated, and thinned to every k-th label (the
    labels in `keep` always, with their neighbours within k dropped)."""
    n = len(xs)
    if n <= 1:
        return list(range(n)), False
    step = (xs[-1] - xs[0]) / (n - 1)
    widest = max(len(t) for t in texts) * CHAR_W
    if step >= widest + 8:
        return list(range(n)), False
    # rotated, two neighbours' baselines are step * sin(angle) apart
    across = step * math.sin(math.radians(LABEL_ANGLE))
    k = max(1, math.ceil(AXIS_FONT * LINE_GAP / across))
    chosen = sorted(keep)
    for i in range(0, n, k):
        if all(abs(i - j) >= k for j in chosen):
            chosen.append(i)
    return sorted(chosen), True


@dataclass
class _Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def hits(self, other: _Box) -> bool:
        return not (
            self.x1 <= other.x0 or other.x1 <= self.x0 or self.y1 <= other.y0 or other.y1 <= self.y0
        )


def coverage_svg(
    points: Sequence[CoveragePoint], target: str | None, target_label: str | None = None
) -> str:
    """The step chart; `target` is the release point the target resolves to, labelled
    `target_label` (the target as given: 7.2.2 resolves to the tables' 7.2.0)."""
    plot_w = CHART_W - PLOT_LEFT - PLOT_RIGHT
    plot_h = CHART_H - PLOT_TOP - PLOT_BOTTOM
    n = len(points)
    step = plot_w / max(n - 1, 1)

    def xy(i: int, share: float) -> tuple[float, float]:
        return PLOT_LEFT + (i * step if n > 1 else plot_w / 2), PLOT_TOP + plot_h * (1 - share)

    parts = [
        f'<svg class="chart" id="coverage-chart" viewBox="0 0 {CHART_W} {CHART_H}" role="img" '
        'aria-labelledby="coverage-title">'
        '<title id="coverage-title">Share of API uses mapped, per ROCm release</title>'
    ]
    for pct in (0, 25, 50, 75, 100):
        y = PLOT_TOP + plot_h * (1 - pct / 100)
        parts.append(
            f'<line x1="{PLOT_LEFT}" x2="{CHART_W - PLOT_RIGHT}" y1="{y:.1f}" '
            f'y2="{y:.1f}" class="grid"/><text x="{PLOT_LEFT - 6}" y="{y + 4:.1f}" '
            f'text-anchor="end" class="axis">{pct}%</text>'
        )
    path = []
    for i, p in enumerate(points):  # a step: hold the share until the next release
        x, y = xy(i, p.share)
        path.append(f"H{x:.1f} V{y:.1f}" if i else f"M{x:.1f} {y:.1f}")
    parts.append(f'<path d="{" ".join(path)}" class="step"/>')
    target_i = next((i for i, p in enumerate(points) if p.rocm == target), None)
    for i, p in enumerate(points):
        x, y = xy(i, p.share)
        if i == target_i:
            parts.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{PLOT_TOP - 8}" '
                f'y2="{PLOT_TOP + plot_h}" class="target"/>'
            )
        tip = (
            f"ROCm {p.rocm}: {round(100 * p.share, 1)}% mapped ({p.counts.mapped} of "
            f"{p.counts.uses} uses)"
            + (f"; unblocks {_plural(len(p.unblocks), 'API')}" if p.unblocks else "")
        )
        parts.append(
            f'<g><title>{_e(tip)}</title><circle cx="{x:.1f}" cy="{y:.1f}" r="4" class="dot"/></g>'
        )
    xs = [xy(i, 0)[0] for i in range(n)]
    texts = [p.rocm for p in points]
    if target_i is not None and target_label:
        texts[target_i] = target_label
    keep = {n - 1} | ({target_i} if target_i is not None else set())
    shown, rotate = axis_labels(xs, texts, keep)
    ly = PLOT_TOP + plot_h + 16
    for i in shown:
        cls = "axis tick" + (" is-target" if i == target_i else "")
        if rotate:
            parts.append(
                f'<text transform="translate({xs[i] + 4:.1f},{ly - 4}) rotate(-{LABEL_ANGLE})" '
                f'text-anchor="end" class="{cls}">{_e(texts[i])}</text>'
            )
        else:
            parts.append(
                f'<text x="{xs[i]:.1f}" y="{ly}" text-anchor="middle" class="{cls}">'
                f"{_e(texts[i])}</text>"
            )
    parts += _unblock_marks(points, xy)
    parts.append(
        f'<text x="{PLOT_LEFT}" y="{CHART_H - 4}" class="axis">ROCm release '
        f"(every release the tables know)</text></svg>"
    )
    return "".join(parts)


def _unblock_marks(points: Sequence[CoveragePoint], xy) -> list[str]:
    """ "+N" above the releases that unblock N APIs, most first, each in the first of three
    rows above its dot where it hits no mark already placed (else left out: the table and
    the dot's tooltip have it)."""
    plot_h = CHART_H - PLOT_TOP - PLOT_BOTTOM
    placed = [  # the y axis' percent labels
        _Box(PLOT_LEFT - 6 - 4 * CHAR_W, y - 9, PLOT_LEFT - 6, y + 7)
        for y in (PLOT_TOP + plot_h * (1 - pct / 100) for pct in (0, 25, 50, 75, 100))
    ]
    out = []
    ranked = sorted(
        (i for i, p in enumerate(points) if p.unblocks), key=lambda i: -len(points[i].unblocks)
    )
    for i in ranked:
        p = points[i]
        x, y = xy(i, p.share)
        text = f"+{len(p.unblocks)}"
        w = len(text) * CHAR_W * 1.15 + 6  # bold, and a gap on each side
        for row in range(3):
            base = y - 10 - row * 15
            box = _Box(x - w / 2, base - AXIS_FONT, x + w / 2, base + 3)
            if base - AXIS_FONT < 2 or any(box.hits(b) for b in placed):
                continue
            placed.append(box)
            names = ", ".join(p.unblocks[:8]) + (" ..." if len(p.unblocks) > 8 else "")
            out.append(
                f'<g class="note"><title>ROCm {_e(p.rocm)} unblocks {_e(names)}</title>'
                f'<text x="{x:.1f}" y="{base:.1f}" text-anchor="middle" class="ann">'
                f"{_e(text)}</text></g>"
            )
            break
    return out


# ------------------------------------------------------------------- where the work is


@dataclass
class DirNode:
    """A directory with its totals rolled up from every file below it."""

    path: str  # posix, relative to the root ("" for the root)
    dirs: dict[str, DirNode] = field(default_factory=dict)
    files: list[WorkItem] = field(default_factory=list)
    total: WorkItem = field(default_factory=lambda: WorkItem("", "directory", "", files=0))

    def add(self, item: WorkItem) -> None:
        t = self.total
        t.files += 1
        t.lines += item.lines
        t.errors += item.errors
        t.warnings += item.warnings
        t.notes += item.notes
        t.baselined += item.baselined
        for status in USE_STATUSES:
            t.counts.add(status, getattr(item.counts, status))


def directory_tree(files: Iterable[WorkItem]) -> DirNode:
    root = DirNode("")
    for item in files:
        node = root
        node.add(item)
        parts = item.path.split("/")[:-1]
        for depth in range(len(parts)):
            path = "/".join(parts[: depth + 1])
            node = node.dirs.setdefault(parts[depth], DirNode(path))
            node.add(item)
        node.files.append(item)
    return _collapse(root)


def _collapse(node: DirNode) -> DirNode:
    """A directory whose only entry is one directory is shown as one step (a/b/c)."""
    for name, child in list(node.dirs.items()):
        node.dirs[name] = _collapse(child)
    if node.path and not node.files and len(node.dirs) == 1:
        return next(iter(node.dirs.values()))
    return node


def _work_order(item: WorkItem) -> tuple:
    return (-item.work_left, -item.counts.unconverted, item.path)


def _work_section(report: Report) -> str:
    head = '<section id="work">\n<h2>Where the work is</h2>\n'
    if not report.files:
        return head + "<p>No files.</p>\n</section>"
    by_file: dict[str, list[Finding]] = {}
    for f in report.findings:
        by_file.setdefault(f.location.path, []).append(f)
    tree = directory_tree(report.files)
    return (
        head + "<p>Work left is the reported errors and warnings (baselined ones included: "
        "accepted is not done); unported is the CUDA API uses with no HIP counterpart at the "
        "target. Each directory's figures add up everything below it; open a directory for "
        "its directories and files, a file for its findings.</p>\n"
        + _top_files(report.files)
        + '<h3>Directories</h3>\n<div class="tree" id="tree">'
        + _tree_node(tree, by_file, "(project root)", opened=True)
        + "</div>\n</section>"
    )


def _figures(item: WorkItem) -> str:
    parts = [f'<span class="w" title="work left">{item.work_left}</span>']
    for n, word, cls in (
        (item.errors, "error", "e"),
        (item.warnings, "warning", "wa"),
        (item.notes, "note", "n"),
        (item.counts.unconverted, "unported use", "u"),
    ):
        parts.append(f'<span class="{cls}">{_plural(n, word)}</span>' if n else "")
    return '<span class="figs">' + "".join(parts) + "</span>"


def _tree_node(node: DirNode, by_file: dict[str, list[Finding]], name: str, opened: bool) -> str:
    children = sorted(node.dirs.values(), key=lambda d: _work_order(d.total))
    files = sorted(node.files, key=_work_order)
    inner = "".join(
        "<li>" + _tree_node(d, by_file, _relative(d.path, node.path) + "/", False) + "</li>"
        for d in children
    ) + "".join("<li>" + _file_node(f, by_file.get(f.path, [])) + "</li>" for f in files)
    count = _plural(node.total.files, "file")
    return (
        f'<details class="dir" data-path="{_e(node.path)}"{" open" if opened else ""}>'
        f'<summary><span class="name">{_e(name)}</span> <span class="count">{count}</span>'
        f"{_figures(node.total)}</summary><ul>{inner}</ul></details>"
    )


def _relative(path: str, parent: str) -> str:
    return posixpath.relpath(path, parent) if parent else path


def _file_node(item: WorkItem, findings: Sequence[Finding]) -> str:
    name = _e(posixpath.basename(item.path))
    tag = (
        f' <span class="tag">{_e(item.status)}</span>'
        if item.status in ("failed", "skipped")
        else ""
    )
    if not findings:
        return f'<span class="file" data-path="{_e(item.path)}">{name}{tag}{_figures(item)}</span>'
    rows = "".join(
        f'<li><span class="sev sev-{_e(f.severity.value)}">{_e(f.severity.value)}</span> '
        f'<span class="loc">{f.location.line}:{f.location.column}</span> '
        f'<a class="code" href="#rule-{_e(f.code)}">{_e(f.code)}</a> {_e(f.message)}</li>'
        for f in findings
    )
    return (
        f'<details class="file" data-path="{_e(item.path)}"><summary>'
        f'<span class="name">{name}</span>{tag}{_figures(item)}</summary>'
        f'<ul class="findings-list">{rows}</ul></details>'
    )


def _top_files(files: Sequence[WorkItem]) -> str:
    top = [f for f in sorted(files, key=_work_order) if f.work_left or f.counts.unconverted]
    if not top:
        return "<p>No file has work left.</p>\n"
    rows = "".join(
        f'<tr><th scope="row" class="path">{_e(f.path)}</th><td>{f.work_left}</td>'
        f"<td>{f.errors}</td><td>{f.warnings}</td><td>{f.counts.unconverted}</td>"
        f"<td>{f.lines}</td></tr>"
        for f in top[:TOP_FILES]
    )
    return (
        f"<h3>The {min(len(top), TOP_FILES)} files with the most work</h3>\n"
        '<table class="work" id="top-files"><thead><tr><th scope="col">File</th>'
        '<th scope="col">Work left</th><th scope="col">Errors</th>'
        '<th scope="col">Warnings</th><th scope="col">Unported uses</th>'
        f'<th scope="col">Lines</th></tr></thead><tbody>{rows}</tbody></table>\n'
    )


# --------------------------------------------------------------------- findings by API


@dataclass
class FindingGroup:
    """The findings of one rule about one API (or about no API)."""

    key: str  # the element id
    api: str  # or NO_API
    code: str
    severity: str  # the most severe of the group
    family: str
    findings: list[Finding]
    stat: ApiStat | None

    @property
    def kind(self) -> Kind:
        """The catalogue's kind of the group's rule (a code it does not know: the run's)."""
        info = RULES.get(self.code)
        return info.kind if info is not None else Kind.RUN

    @property
    def files(self) -> int:
        return len({f.location.path for f in self.findings})


def finding_groups(report: Report) -> list[FindingGroup]:
    """Groups most severe first, then largest first."""
    stats = {a.api: a for a in report.apis}
    grouped: dict[tuple[str, str], list[Finding]] = {}
    for f in report.findings:
        grouped.setdefault((f.api or NO_API, f.code), []).append(f)
    groups = []
    for (api, code), findings in grouped.items():
        stat = stats.get(api)
        severity = max(findings, key=lambda f: f.severity.rank).severity.value
        family = findings[0].family or (stat.family if stat else None) or "other"
        groups.append(
            FindingGroup(_group_id(api, code), api, code, severity, family, findings, stat)
        )
    rank = {"error": 0, "warning": 1, "note": 2}
    return sorted(groups, key=lambda g: (rank[g.severity], -len(g.findings), g.api, g.code))


def _group_id(api: str, code: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "_-" else "-" for ch in api)
    return f"api-{safe}-{code}"


def _findings_section(report: Report, groups: Sequence[FindingGroup]) -> str:
    head = '<section id="findings">\n<h2>Findings by kind and API</h2>\n'
    if not groups:
        return head + "<p>No findings.</p>\n</section>"
    shown, rest = groups[:GROUPS_SHOWN], groups[GROUPS_SHOWN:]
    body = _by_kind(shown, "kind")
    if rest:
        body += (
            f'<details class="more" id="more-groups"><summary>{len(rest)} more groups '
            f"({sum(len(g.findings) for g in rest)} findings)</summary>"
            + _by_kind(rest, "more-kind")
            + "</details>"
        )
    return (
        head + f"<p>{len(report.findings)} findings in {len(groups)} groups, one per API and "
        "rule, under the kind of their rule (what could not be rewritten, hazards to port "
        "by hand, build breaks, the run, the build files), most severe and most frequent "
        "first. Open a group for its locations; "
        'each rule\'s fix is under <a href="#rules">Rules</a>.</p>\n'
        + _filters(report, groups)
        + f'<div id="groups">{body}</div>\n</section>'
    )


def _by_kind(groups: Sequence[FindingGroup], prefix: str) -> str:
    """The groups under one heading per kind, in the catalogue's order of kinds (each
    keeps the groups' order); `prefix` makes the sections' ids."""
    out = []
    for kind in Kind:
        mine = [g for g in groups if g.kind is kind]
        if not mine:
            continue
        count = sum(len(g.findings) for g in mine)
        out.append(
            f'<section class="kind" id="{prefix}-{kind.value}" data-kind="{kind.value}">'
            f'<h3>{_e(kind.title)} <span class="count">{_plural(count, "finding")} in '
            f"{_plural(len(mine), 'group')}</span></h3>"
            + "".join(_group(g) for g in mine)
            + "</section>"
        )
    return "".join(out)


def _group(g: FindingGroup) -> str:
    stat = g.stat
    status = (
        f' <span class="status s-{_e(stat.status)}">'
        f"{_e(STATUS_LABELS.get(stat.status, stat.status))}</span>"
        if stat and stat.status != "mapped"
        else ""
    )
    hip = ""
    if stat and stat.hip and stat.status != "mapped":
        hip = f' <span class="hip">HIP: <code>{_e(stat.hip)}</code>' + (
            f" (ROCm {_e(stat.min_rocm)}+)</span>" if stat.min_rocm else "</span>"
        )
    first = g.findings[0].message
    rows = "".join(
        f'<li data-path="{_e(f.location.path)}"><span class="loc">{_e(f.location.path)}:'
        f"{f.location.line}:{f.location.column}</span>"
        + (f" {_e(f.message)}" if f.message != first else "")
        + "</li>"
        for f in g.findings
    )
    name = "(no API)" if g.api == NO_API else g.api
    return (
        f'<details class="group" id="{_e(g.key)}" data-rule="{_e(g.code)}" '
        f'data-kind="{_e(g.kind.value)}" '
        f'data-severity="{_e(g.severity)}" data-family="{_e(g.family)}">'
        f'<summary><span class="sev sev-{_e(g.severity)}">{_e(g.severity)}</span> '
        f'<code class="api">{_e(name)}</code> '
        f'<span class="count">{_plural(len(g.findings), "finding")} in '
        f"{_plural(g.files, 'file')}</span> "
        f'<a class="code" href="#rule-{_e(g.code)}">{_e(g.code)}</a>{status}'
        f' <span class="fam">{_e(g.family)}</span>{hip}</summary>'
        f'<p class="msg">{_e(first)}</p><ul class="locations">{rows}</ul></details>'
    )


def _filters(report: Report, groups: Sequence[FindingGroup]) -> str:
    """Search and filters: script only (hidden without it, where they could not work)."""

    def select(key: str, label: str, values: Iterable[str]) -> str:
        options = "".join(f'<option value="{_e(v)}">{_e(v)}</option>' for v in values)
        return (
            f'<label>{_e(label)} <select id="filter-{key}" data-filter="{key}">'
            f'<option value="">all</option>{options}</select></label>'
        )

    directories = sorted(
        {posixpath.dirname(f.location.path) for f in report.findings} - {""}
        | {
            "/".join(posixpath.dirname(f.location.path).split("/")[:depth])
            for f in report.findings
            for depth in (1, 2)
            if posixpath.dirname(f.location.path)
        }
    )
    rank = {"error": 0, "warning": 1, "note": 2}
    return (
        '<form class="filters" id="filters" hidden role="search" '
        'onsubmit="return false">'
        '<label>Search <input type="search" id="search" placeholder="API, path or message" '
        'autocomplete="off"></label>'
        + select("kind", "Kind", [k.value for k in Kind if any(g.kind is k for g in groups)])
        + select("rule", "Rule", sorted({g.code for g in groups}))
        + select("severity", "Severity", sorted({g.severity for g in groups}, key=rank.get))
        + select("family", "Family", sorted({g.family for g in groups}))
        + select("dir", "Directory", directories)
        + '<output id="filter-count" aria-live="polite"></output></form>\n'
    )


# ------------------------------------------------------------------------------ rules


def _rules_section(report: Report) -> str:
    head = '<section id="rules">\n<h2>Rules and how to fix them</h2>\n'
    rules = report.rules()
    if not rules:
        return head + "<p>No rule fired.</p>\n</section>"
    hints: dict[str, Counter[str]] = {}
    counts = Counter(f.code for f in report.findings)
    for f in report.findings:
        text = f.hint or f.alternative
        if text and text != RULES[f.code].fix if f.code in RULES else text:
            hints.setdefault(f.code, Counter())[text] += 1
    items = []
    for info in rules:
        common = hints.get(info.code, Counter()).most_common(3)
        extra = "".join(
            f"<li>{_e(text)}" + (f" ({_plural(n, 'finding')})" if len(common) > 1 else "") + "</li>"
            for text, n in common
        )
        items.append(
            f'<section class="rule" id="rule-{_e(info.code)}"><h3>{_e(info.code)} '
            f'{_e(info.name)} <span class="count">{_plural(counts[info.code], "finding")}'
            f"</span></h3><p>{_e(info.summary)}</p>"
            f"<p><strong>Fix.</strong> {_e(info.fix)}</p>"
            + (f'<ul class="hints">{extra}</ul>' if extra else "")
            + "</section>"
        )
    return (
        head + "<p>Every rule that fired, once, with its fix; <code>hipport rule CODE</code> "
        "explains it in full.</p>\n" + "".join(items) + "\n</section>"
    )


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
html { color: var(--ink); background: var(--bg); scroll-padding-top: 3rem;
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
body { margin: 0; }
main, footer { max-width: 72rem; margin: 0 auto; padding: 0 1.25rem; }
nav.toc { position: sticky; top: 0; z-index: 10; background: var(--ink); }
nav.toc ul { list-style: none; margin: 0 auto; padding: 0.35rem 1.25rem; max-width: 72rem;
  display: flex; flex-wrap: wrap; gap: 0.2rem 1.2rem; }
nav.toc a { color: #ffffff; text-decoration: none; font-size: 0.92rem; }
nav.toc a:hover, nav.toc a:focus-visible { text-decoration: underline; }
h1 { font-size: 1.7rem; margin: 0.9rem 0 0.2rem; }
h2 { font-size: 1.35rem; margin: 1.8rem 0 0.6rem; border-bottom: 2px solid var(--ink); }
h3 { font-size: 1.1rem; margin: 1.1rem 0 0.4rem; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 0.92em; overflow-wrap: anywhere; }
.sub { color: var(--muted); margin: 0 0 0.8rem; overflow-wrap: anywhere; }
.bad { color: #a1001a; }
dl.headline { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr));
  gap: 0.75rem; margin: 0; }
.figure.wide { grid-column: span 2; }
@media (max-width: 52rem) { dl.headline { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.figure { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.8rem;
  background: var(--soft); min-width: 0; }
.figure dt { font-size: 0.85rem; color: var(--muted); text-transform: uppercase;
  letter-spacing: 0.03em; }
.figure dd { margin: 0; }
.figure .big { font-size: 1.9rem; font-weight: 700; line-height: 1.2; }
.figure .note { font-size: 0.85rem; color: var(--muted); overflow-wrap: anywhere; }
figure { margin: 0; }
figcaption { font-size: 0.9rem; color: var(--muted); margin-top: 0.3rem; }
svg.chart { width: 100%; height: auto; display: block; font-family: inherit; }
svg .lbl { font-size: 14px; fill: #1a1a1a; }
svg .in { font-size: 12px; fill: #000000; font-weight: 600; }
svg .sum { font-size: 12.5px; fill: #333333; }
svg .axis { font-size: 12px; fill: #333333; }
svg .is-target { font-weight: 700; fill: #000000; }
svg .grid { stroke: #dddddd; stroke-width: 1; }
svg .step { fill: none; stroke: #0072B2; stroke-width: 3; }
svg .dot { fill: #0072B2; stroke: #ffffff; stroke-width: 1.5; }
svg .target { stroke: #1a1a1a; stroke-width: 1.5; stroke-dasharray: 5 4; }
svg .ann { font-size: 12px; font-weight: 700; fill: #1a1a1a; }
ul.legend { list-style: none; padding: 0; margin: 0.3rem 0 0; display: flex;
  flex-wrap: wrap; gap: 0.3rem 1.1rem; color: var(--ink); }
.swatch { display: inline-block; width: 0.9rem; height: 0.9rem; margin-right: 0.35rem;
  vertical-align: -0.1rem; border: 1px solid #333333; }
table { border-collapse: collapse; width: 100%; margin: 0.4rem 0 0.8rem; font-size: 0.92rem; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.5rem; text-align: left;
  vertical-align: top; overflow-wrap: anywhere; }
thead th { background: var(--soft); border-bottom: 2px solid var(--ink); white-space: nowrap; }
td { font-variant-numeric: tabular-nums; }
table.work td, table.numbers td, table.releases td { text-align: right; }
table.releases td.names { text-align: left; font-size: 0.85rem; }
.names { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.85rem;
  overflow-wrap: anywhere; }
.path { overflow-wrap: anywhere; font-weight: normal; }
.tag, .code, .status, .sev { display: inline-block; padding: 0 0.35rem; border-radius: 3px;
  font-size: 0.8rem; border: 1px solid #555555; white-space: nowrap; line-height: 1.35; }
a.code { color: var(--ink); text-decoration: none; }
.s-needs_newer_rocm { background: #E69F00; color: #000000; }
.s-unsupported, .s-removed_hip { background: #D55E00; color: #000000; }
.s-unknown { background: #CC79A7; color: #000000; }
.s-experimental { background: #dddddd; color: #000000; }
.sev { min-width: 4.6rem; text-align: center; }
.sev-error { background: #D55E00; color: #000000; }
.sev-warning { background: #F0E442; color: #000000; }
.sev-note { background: #dddddd; color: #000000; }
details > summary { cursor: pointer; }
details.inline { display: inline; }
details.inline > summary { display: inline; color: var(--muted); }
.tree ul, ul.locations, ul.findings-list { list-style: none; margin: 0; padding: 0 0 0 1.2rem; }
.tree > details > ul { padding-left: 0.4rem; }
.tree summary, .tree .file { display: flex; flex-wrap: wrap; align-items: baseline;
  gap: 0 0.6rem; padding: 0.12rem 0; border-bottom: 1px solid #eeeeee; }
.tree .file { padding-left: 1rem; }
.tree .name { overflow-wrap: anywhere; min-width: 0; }
.tree details.dir > summary .name { font-weight: 600; }
.figs { margin-left: auto; display: flex; gap: 0 0.7rem; font-size: 0.85rem;
  font-variant-numeric: tabular-nums; color: var(--muted); }
.figs .w { font-weight: 700; color: var(--ink); min-width: 2.5rem; text-align: right; }
.figs .e { color: #a1001a; }
.count { color: var(--muted); font-size: 0.85rem; }
ul.findings-list li, ul.locations li { font-size: 0.88rem; padding: 0.1rem 0;
  overflow-wrap: anywhere; }
.loc { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.85rem; }
form.filters { display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; align-items: center;
  padding: 0.5rem 0.7rem; background: var(--soft); border: 1px solid var(--line);
  border-radius: 6px; margin: 0 0 0.6rem; }
form.filters[hidden] { display: none; }
form.filters select, form.filters input { font: inherit; font-size: 0.9rem; max-width: 16rem; }
form.filters input[type="search"] { width: 16rem; }
#filter-count { color: var(--muted); font-size: 0.9rem; margin-left: auto; }
details.group { border-bottom: 1px solid var(--line); padding: 0.2rem 0; }
details.group > summary { display: flex; flex-wrap: wrap; gap: 0.15rem 0.5rem;
  align-items: baseline; }
details.group .api { font-weight: 700; overflow-wrap: anywhere; min-width: 0; }
details.group .fam, details.group .hip { color: var(--muted); font-size: 0.85rem; }
details.group .msg { margin: 0.3rem 0 0.2rem 1.2rem; font-size: 0.9rem; }
details.more > summary { padding: 0.4rem 0; font-weight: 600; }
section.rule h3 { font-size: 1rem; }
ul.hints { margin: 0.2rem 0 0.6rem; color: var(--muted); font-size: 0.9rem; }
[hidden] { display: none !important; }
a { color: #005a8c; }
footer { color: var(--muted); font-size: 0.85rem; margin-top: 2rem; padding-bottom: 2rem; }
@media print {
  html { font-size: 10.5pt; }
  nav.toc, form.filters { display: none !important; }
  main, footer { max-width: none; padding: 0; }
  * { position: static !important; box-shadow: none !important; }
  h2 { break-after: avoid; }
  figure, tr, .figure, details.group > summary { break-inside: avoid; }
  svg.chart { max-width: 100%; max-height: 9cm; }
  thead { display: table-header-group; }
  a { color: inherit; text-decoration: none; }
  footer a::after { content: " (" attr(href) ")"; font-size: 0.85em; }
}
"""

# Search and filters over the finding groups (the form stays hidden without script), the
# URL fragment as their state (#q=...&kind=...&rule=...&severity=...&family=...&dir=..., so a
# filtered view is a link), and a fragment that names a group, directory or file opens it.
SCRIPT = """
(function () {
  var form = document.getElementById('filters');
  var groups = Array.prototype.slice.call(document.querySelectorAll('details.group'));
  var more = document.getElementById('more-groups');
  var count = document.getElementById('filter-count');
  var search = document.getElementById('search');
  var selects = form ? Array.prototype.slice.call(form.querySelectorAll('select')) : [];
  function value(key) {
    var el = document.getElementById('filter-' + key);
    return el ? el.value : '';
  }
  function apply() {
    var q = search.value.trim().toLowerCase();
    var rule = value('rule'), sev = value('severity'), fam = value('family');
    var dir = value('dir'), kind = value('kind');
    var active = q || rule || sev || fam || dir || kind;
    var shown = 0;
    groups.forEach(function (g) {
      var ok = (!kind || g.getAttribute('data-kind') === kind) &&
        (!rule || g.getAttribute('data-rule') === rule) &&
        (!sev || g.getAttribute('data-severity') === sev) &&
        (!fam || g.getAttribute('data-family') === fam);
      var head = g.querySelector('summary').textContent.toLowerCase();
      var inHead = !q || head.indexOf(q) >= 0 ||
        g.querySelector('.msg').textContent.toLowerCase().indexOf(q) >= 0;
      var any = 0;
      g.querySelectorAll('li[data-path]').forEach(function (row) {
        var path = row.getAttribute('data-path');
        var keep = ok && (!dir || path.indexOf(dir + '/') === 0) &&
          (inHead || row.textContent.toLowerCase().indexOf(q) >= 0);
        row.hidden = !keep;
        if (keep) { any += 1; }
      });
      g.hidden = !any;
      if (any && q && !inHead) { g.open = true; }
      if (any) { shown += 1; }
    });
    document.querySelectorAll('section.kind').forEach(function (s) {
      s.hidden = !s.querySelector('details.group:not([hidden])');
    });
    if (more) {
      more.hidden = active && !more.querySelector('details.group:not([hidden])');
      if (active) { more.open = true; }
    }
    count.textContent = active ? shown + ' of ' + groups.length + ' groups match' : '';
  }
  function fromHash() {
    var hash = decodeURIComponent(location.hash.slice(1));
    if (!hash) { return; }
    if (hash.indexOf('=') > 0) {
      hash.split('&').forEach(function (pair) {
        var kv = pair.split('='), key = kv[0], val = kv.slice(1).join('=');
        if (key === 'q') { search.value = val; }
        var el = document.getElementById('filter-' + key);
        if (el) { el.value = val; }
      });
      apply();
      return;
    }
    var target = document.getElementById(hash) ||
      document.querySelector('details[data-path="' + hash.replace(/["\\\\]/g, '\\\\$&') + '"]');
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === 'DETAILS') { el.open = true; }
    }
    if (target) { target.scrollIntoView(); }
  }
  if (form) {
    form.hidden = false;
    search.addEventListener('input', apply);
    selects.forEach(function (s) { s.addEventListener('change', apply); });
  }
  window.addEventListener('hashchange', fromHash);
  if (form) { fromHash(); }
})();
"""
