"""What the report needs of one file's result (a *part*), kept in the cache beside it.

A part holds the file's findings, its API uses counted by kind (with the places of the
ones not mapped, the only uses the report names), how many bytes and lines its edits
change, and what the engine dropped as dead; the source is the file's own bytes, re-read
and checked against the cached digest. A warm check builds its report from the parts,
never decoding a whole result (every edit, every use, the translated output: about five
times the bytes), and the report is the one the full results give (hipport.report.model
reads either).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from hipport.cache_format import version
from hipport.catalogue import Severity
from hipport.engine import TranslationResult
from hipport.findings import Finding, Location
from hipport.tables import Status
from hipport.target import Version


class UseCount(NamedTuple):
    """One kind of use in a file (what hipport.report.model.UseRecord counts), how many,
    and where each of them not mapped is: (its index among the file's uses, line, column)."""

    api: str
    family: str | None
    status: Status
    new_name: str | None
    min_rocm: Version | None
    count: int
    places: tuple[tuple[int, int, int], ...]


@dataclass
class ReportPart:
    """A result as the report reads it (hipport.report.model._add_file tells it from a
    TranslationResult by `counted`)."""

    path: str
    source: bytes
    findings: list[Finding]
    uses: tuple[UseCount, ...]  # each kind once, in the order of its first use
    bytes_changed: int
    lines_changed: int
    skipped_dead: int = 0
    dead_macros: tuple[str, ...] = ()
    error: str | None = None
    counted: ClassVar[bool] = True


def part_fields(result: TranslationResult) -> list | None:
    """The part of `result` as the cache stores it: plain JSON (lists, strings, numbers),
    which the parser decodes at C speed and make_part turns into records without a
    per-object hook; None when a finding holds a value plain JSON would not give back
    as it is (the part is then not stored: the report reads the result)."""
    from hipport.report.model import edited_bytes, lines_touched

    findings = []
    for f in result.findings:
        row = _finding_row(f)
        if row is None:
            return None
        findings.append(row)
    kinds: dict[tuple, list] = {}
    for i, use in enumerate(result.uses):
        key = (use.api, use.family, use.status, use.new_name, use.min_rocm)
        row = kinds.get(key)
        if row is None:
            version = str(use.min_rocm) if use.min_rocm is not None else None
            row = kinds[key] = [use.api, use.family, use.status.value, use.new_name, version, 0, []]
        row[5] += 1
        if use.status is not Status.MAPPED:
            row[6] += (i, use.location.line, use.location.column)
    return [
        result.path,
        findings,
        list(kinds.values()),
        edited_bytes(result.edits),
        lines_touched(result.source, result.edits),
        result.skipped_dead,
        list(result.dead_macros),
    ]


_TEXT = (str, type(None))
# the types a finding's row may hold, field by field (fields 8-13 are text or None)
_ROW_TYPES = frozenset(
    (str, str, str, str, int, int, int, int, *optional, dict)
    for optional in itertools.product(_TEXT, repeat=6)
)
_SEVERITIES = {s.value: s for s in Severity}


def _finding_row(f: Finding) -> list | None:
    loc = f.location
    row = [
        f.code,
        f.severity.value,
        f.message,
        loc.path,
        loc.line,
        loc.column,
        loc.end_line,
        loc.end_column,
        f.api,
        f.family,
        f.hip,
        f.min_rocm,
        f.alternative,
        f.hint,
        f.extra,
    ]
    if not (_finding_shape(row) and type(f.severity) is Severity):
        return None
    return row


def _finding_shape(row: Any) -> bool:
    return (
        type(row) is list
        and tuple(map(type, row)) in _ROW_TYPES
        and all(type(k) is str and type(v) is str for k, v in row[14].items())
    )


def make_part(source: bytes, fields: Any) -> ReportPart:
    """The part from its cached fields and the file's bytes; TypeError (a miss) when they
    have the wrong shape, as a hand-edited, foreign or older entry may."""
    path, findings, uses, changed_bytes, changed_lines, skipped, macros = fields
    if not (
        isinstance(path, str)
        and isinstance(findings, list)
        and isinstance(uses, list)
        and _ints(changed_bytes, changed_lines, skipped)
        and isinstance(macros, list)
        and all(isinstance(m, str) for m in macros)
    ):
        raise TypeError("a cached report part of the wrong shape")
    return ReportPart(
        path,
        source,
        [_finding(row) for row in findings],
        tuple(_use_count(row) for row in uses),
        changed_bytes,
        changed_lines,
        skipped,
        tuple(macros),
    )


def _finding(row: Any) -> Finding:
    if not _finding_shape(row) or row[1] not in _SEVERITIES:
        raise TypeError("a cached finding of the wrong shape")
    code, severity, message, path, line, column, end_line, end_column, *more = row
    api, family, hip, min_rocm, alternative, hint, extra = more
    return Finding(
        code,
        _SEVERITIES[severity],
        message,
        Location(path, line, column, end_line, end_column),
        api,
        family,
        hip,
        min_rocm,
        alternative,
        hint,
        extra,
    )


_STATUSES = {s.value: s for s in Status}


def _use_count(row: Any) -> UseCount:
    """One use kind from its row (the report reads 27,000 of them in a warm check of the
    bench corpus): exact type tests and a dict for the status, no call per place when
    there are none (a mapped use's row has none)."""
    api, family, status, new_name, min_rocm, count, flat = row
    if not (
        type(api) is str
        and (family is None or type(family) is str)
        and type(status) is str
        and status in _STATUSES
        and (new_name is None or type(new_name) is str)
        and (min_rocm is None or type(min_rocm) is str)
        and type(count) is int
        and count >= 0
        and type(flat) is list
    ):
        raise TypeError("a cached use count of the wrong shape")
    if flat:
        if len(flat) % 3 or not all(type(n) is int for n in flat):
            raise TypeError("a cached use count of the wrong shape")
        places = tuple(zip(flat[0::3], flat[1::3], flat[2::3], strict=True))
    else:
        places = ()
    rocm = version(min_rocm) if min_rocm is not None else None
    return UseCount(api, family, _STATUSES[status], new_name, rocm, count, places)


def _ints(*values: Any) -> bool:
    return all(type(v) is int and v >= 0 for v in values)
