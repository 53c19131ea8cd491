"""GitHub Actions workflow commands: annotations, within what GitHub shows, and a job summary.

    ::error file=src/a.cu,line=3,col=5,endLine=3,endColumn=15,title=HIP001::message

GitHub shows at most 10 error, 10 warning and 10 notice annotations per step (and 50 per
job; actions/toolkit docs/problem-matchers.md, "Limitations"); the rest are dropped without a
word. So the annotations go most severe first, at most PER_STEP of each level, and when some
do not fit, one notice says how many and where they are: every finding that is not an
annotation is printed as a plain compiler-style line in the log, and the markdown job
summary (`job_summary`, which the CLI appends to $GITHUB_STEP_SUMMARY) lists them.

GitHub's escaping: in the message %, CR and LF become %25, %0D, %0A; in property values
also `:` and `,` (%3A, %2C), which otherwise end the value.
"""

from __future__ import annotations

from collections import Counter

from hipport.findings import RULES, Finding
from hipport.report import RenderOptions
from hipport.report.model import Report
from hipport.report.text import finding_line

PER_STEP = 10  # annotations of one level GitHub shows per step
SUMMARY_BYTES = 1024 * 1024  # GitHub's cap on one step's job summary
SUMMARY_FINDINGS = 500  # findings listed in the job summary (the rest are counted)
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


def _stale_notices(report: Report) -> list[str]:
    return [
        f"::notice file={escape_property(s.path)},title=stale baseline entry::"
        + escape_data(
            f"{s.code} {s.api}: baselined {s.baselined}, "
            f"found {s.found}; run hipport baseline to update it"
        )
        for s in report.stale
    ]


def by_severity(findings: list[Finding]) -> list[Finding]:
    """Most severe first; within a level, in path and line order (the report's order)."""
    return sorted(findings, key=lambda f: -f.severity.rank)


def render(report: Report, options: RenderOptions | None = None) -> str:
    ordered = by_severity(report.findings)
    stale = _stale_notices(report)
    levels = Counter(f.severity.value for f in ordered)
    notices = levels["note"] + len(stale)
    overflow = any(levels[level] > PER_STEP for level in ("error", "warning")) or (
        notices > PER_STEP
    )
    # the summary is a notice itself, so it takes one of the notices' places
    room = {"error": PER_STEP, "warning": PER_STEP, "note": PER_STEP - overflow}
    shown: list[str] = []
    rest: list[Finding] = []
    for f in ordered:
        level = f.severity.value
        if room[level] > 0:
            room[level] -= 1
            shown.append(annotation(f))
        else:
            rest.append(f)
    kept_stale = stale[: max(room["note"], 0)]
    shown += kept_stale
    lines = shown
    if overflow:
        lines.append(_overflow_notice(rest, len(stale) - len(kept_stale)))
        lines += [finding_line(f) for f in rest]
    return "".join(line + "\n" for line in lines)


def _overflow_notice(rest: list[Finding], stale_left: int) -> str:
    counts = Counter(f.severity.value for f in rest)
    parts = [f"{counts[k]} {k}{'s' if counts[k] != 1 else ''}" for k in counts]
    if stale_left:
        parts.append(f"{stale_left} stale baseline entries")
    text = (
        f"{len(rest) + stale_left} more not annotated ({', '.join(parts)}): GitHub shows "
        f"{PER_STEP} annotations of each level per step. They are listed in this step's log "
        "and in the job summary."
    )
    return f"::notice title=hipport: more findings than GitHub annotates::{escape_data(text)}"


def job_summary(report: Report, options: RenderOptions | None = None) -> str:
    """The markdown job summary (for $GITHUB_STEP_SUMMARY), within GitHub's 1 MiB."""
    from hipport.report.markdown import render as markdown

    limit = SUMMARY_FINDINGS
    while True:
        text = markdown(report, options, max_findings=limit)
        if len(text.encode("utf-8")) <= SUMMARY_BYTES or limit == 0:
            return text
        limit //= 2
