"""The closing summary of a run (`translate` prints it on stderr): files, renames per
family, findings per rule (code and name) as the findings policy keeps them (what `check`
reports for the same files), the number formats the translation kept or changed
(hipport.report.numerics), and the minimum ROCm the code needs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hipport.target import Version


def rule_label(code: str) -> str:
    """`HIP004 unknown-api`: a code with its rule's name, from the static catalogue."""
    from hipport.findings import RULES

    if not code:
        return ""
    info = RULES.get(code)
    return f"{code} {info.name}" if info else code


def minimum_rocm_line(rocm: Version | None, deciders: list[str]) -> str:
    if rocm is None:
        return "minimum ROCm for the translated code: any (no versioned HIP API used)"
    shown = ", ".join(deciders[:5]) + (" ..." if len(deciders) > 5 else "")
    return f"minimum ROCm for the translated code: {rocm} (decided by {shown})"


def _files(count: int) -> str:
    return "file" if count == 1 else "files"


def files_line(summary: Any) -> str:
    stats = summary.stats()
    scanned = stats["scanned"]
    return (
        f"hipport: {scanned} {_files(scanned)} scanned: {stats['changed']} changed, "
        f"{stats['unchanged']} unchanged, {stats['failed']} failed, "
        f"{stats['skipped']} skipped; {stats['cached']} from the cache"
        + (f"; {stats['copied']} other {_files(stats['copied'])} copied" if stats["copied"] else "")
        + f" ({summary.elapsed:.2f} s)"
    )


def excluded_line(excluded: dict[str, int]) -> str | None:
    """What the walk left out by default (Discovery.excluded), if anything: the sources of
    build folders and the tracked files .gitignore names."""
    if not excluded:
        return None
    n = sum(excluded.values())
    return f"hipport: {n} {_files(n)} excluded by default: {', '.join(excluded)}"


@dataclass
class KeptCounts:
    """Findings per code as the findings policy keeps them (what `check` reports for the
    same files), and how many it set aside."""

    per_code: Counter[str] = field(default_factory=Counter)
    silenced: int = 0  # suppressed, deselected (--select/--ignore), severity "off"
    baselined: int = 0

    @classmethod
    def of(cls, verdict: Any) -> KeptCounts:
        """The counts of a hipport.policy Verdict."""
        return cls(
            Counter(f.code for f in verdict.reported), len(verdict.silenced), len(verdict.accepted)
        )

    def add(self, other: KeptCounts) -> KeptCounts:
        return KeptCounts(
            self.per_code + other.per_code,
            self.silenced + other.silenced,
            self.baselined + other.baselined,
        )


def not_counted_line(kept: KeptCounts) -> str | None:
    """What the policy set aside, so the counts add up to the run's raw findings."""
    parts = []
    if kept.silenced:
        parts.append(f"{kept.silenced} suppressed or deselected")
    if kept.baselined:
        parts.append(f"{kept.baselined} baselined")
    if not parts:
        return None
    return "findings not counted (as check): " + ", ".join(parts)


def print_summary(summary: Any, err: bool = True, kept: KeptCounts | None = None) -> None:
    """Print the summary of a RunSummary (on stderr unless `err` is False); the findings
    per kind are the policy's (`kept`) when given, else the run's raw counts."""
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=err, highlight=False, soft_wrap=True, emoji=False)
    console.print(files_line(summary), markup=False)
    excluded = excluded_line(summary.excluded)
    if excluded:
        console.print(excluded, markup=False)
    for f in summary.files:
        if f.status in ("failed", "skipped") and f.error:
            console.print(f"  {f.relpath}: {f.error}", markup=False)
    for rel, reason in summary.skipped:
        console.print(f"  {rel}: not processed: {reason}", markup=False)
    renamed = summary.renamed_per_family()
    findings = kept.per_code if kept is not None else summary.findings_per_code()
    if renamed or findings:
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column("renamed per family")
        table.add_column("", justify="right")
        table.add_column("findings per kind")
        table.add_column("", justify="right")
        left = sorted(renamed.items(), key=lambda kv: (-kv[1], kv[0]))
        right = sorted(findings.items())
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else ("", "")
            b = right[i] if i < len(right) else ("", "")
            table.add_row(str(a[0]), str(a[1]), rule_label(b[0]), str(b[1]))
        console.print(table)
    for change in summary.format_changes():
        console.print(change.line(), markup=False)
    aside = not_counted_line(kept) if kept is not None else None
    if aside:
        console.print(aside, markup=False)
    rocm, deciders = summary.min_rocm()
    console.print(minimum_rocm_line(rocm, deciders), markup=False)
