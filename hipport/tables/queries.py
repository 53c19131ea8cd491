"""Questions asked of the tables as a whole: coverage per family, what changed between two
ROCm releases, and name search. Pure functions of (tables, target)."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, replace

from hipport.tables.lookup import Status, resolve_row
from hipport.tables.model import FAMILIES, HipExt, Mapping, Tables
from hipport.target import Target, Version

COVERAGE_KEYS = ("mapped", "unsupported", "experimental", "needs_newer_rocm", "removed_hip")


@dataclass(frozen=True)
class FamilyCoverage:
    family: str
    total: int
    mapped: int
    unsupported: int
    experimental: int
    needs_newer_rocm: int
    removed_hip: int

    def to_dict(self) -> dict[str, str | int]:
        return dict(self.__dict__)


def coverage(tables: Tables, target: Target) -> list[FamilyCoverage]:
    """Per family, how its rows resolve for `target`; the five counts add up to `total`."""
    counts = {f: dict.fromkeys(COVERAGE_KEYS, 0) for f in FAMILIES}
    totals = dict.fromkeys(FAMILIES, 0)
    for row in tables.rows:
        status = resolve_row(tables, row, target).status
        totals[row.family] += 1
        counts[row.family][status.value] += 1
    return [FamilyCoverage(f, totals[f], **counts[f]) for f in FAMILIES]


@dataclass(frozen=True)
class Change:
    mapping: Mapping
    before: Status
    after: Status
    # the HIP name at each release (history.tsv: a counterpart renamed in between differs)
    hip_before: str | None = None
    hip_after: str | None = None


def diff(tables: Tables, older: Version, newer: Version, target: Target) -> list[Change]:
    """Rows whose status or HIP name differs between two ROCm releases (became available,
    removed, renamed, ...), with the HIP name each release has."""
    old_t, new_t = replace(target, rocm=older), replace(target, rocm=newer)
    changes = []
    for row in tables.rows:
        before = resolve_row(tables, row, old_t)
        after = resolve_row(tables, row, new_t)
        if before.status != after.status or before.new_name != after.new_name:
            changes.append(
                Change(row, before.status, after.status, before.new_name, after.new_name)
            )
    return changes


def search(tables: Tables, pattern: str) -> tuple[list[Mapping], list[HipExt]]:
    """Rows whose CUDA, HIP or ROC name matches: a glob if it has * ? [, else a case-insensitive
    substring; a pattern starting with ^ or ending with $ is a regular expression."""
    if pattern.startswith("^") or pattern.endswith("$"):
        regex = re.compile(pattern, re.IGNORECASE)
        match = regex.search
    elif any(c in pattern for c in "*?["):
        glob = re.compile(fnmatch.translate(pattern), re.IGNORECASE)
        match = glob.match
    else:
        needle = pattern.lower()

        def match(name: str) -> bool:  # type: ignore[misc]
            return needle in name.lower()

    rows = [r for r in tables.rows if any(n and match(n) for n in (r.cuda, r.hip, r.roc))]
    exts = [e for e in tables.hipext.values() if match(e.name)]
    return rows, exts
