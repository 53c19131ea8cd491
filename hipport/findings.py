"""Findings as data: what hipport reports, with a stable rule code and a location.

Every renderer (text, JSON, SARIF, JUnit, GitHub, CSV, Markdown, HTML) is a thin view of a
list of `Finding`. A finding's code names its rule in hipport.catalogue (code, name,
default severity, documentation; re-exported here). `Use` records one occurrence of a CUDA
API name, for statistics and reports.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from hipport.catalogue import (
    FILE_ERROR,
    PERMISSION_DENIED,
    RULES,
    SKIPPED_SOURCE,
    SYMLINK_LOOP,
    RuleInfo,
    Severity,
    rule_by_code_or_name,
)

if TYPE_CHECKING:  # types of Use's fields only: findings load at start-up, the tables do not
    from hipport.tables.lookup import Status
    from hipport.target import Version

__all__ = [
    "FILE_ERROR",
    "RULES",
    "Finding",
    "Location",
    "RuleInfo",
    "Severity",
    "Use",
    "rule_by_code_or_name",
]


@dataclass(frozen=True, slots=True)
class Location:
    """1-based line and column (column counts bytes, as compilers do); end is exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(slots=True)  # no __dict__: a run can hold hundreds of thousands
class Finding:
    code: str
    severity: Severity
    message: str
    location: Location
    api: str | None = None  # the CUDA identifier concerned
    family: str | None = None  # runtime, driver, blas, ...
    hip: str | None = None  # fix hint: the HIP name
    min_rocm: str | None = None  # fix hint: first ROCm release that has it
    alternative: str | None = None  # fix hint: a hipExt or other alternative
    hint: str | None = None  # free text fix hint
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def rule(self) -> RuleInfo:
        return RULES[self.code]

    def to_dict(self) -> dict:
        data = asdict(self)
        data["severity"] = self.severity.value
        data["name"] = RULES[self.code].name if self.code in RULES else None
        return data


@dataclass(frozen=True, slots=True)
class Use:
    """One occurrence of a CUDA API identifier, mapped or not (for statistics and reports)."""

    api: str
    family: str | None
    status: Status
    location: Location
    new_name: str | None = None
    min_rocm: Version | None = None
    # the byte offsets of the token (not rendered: reports show the location)
    start: int | None = None
    end: int | None = None


SKIPPED_PREFIX = "skipped: "
LOOP_REASON = SKIPPED_PREFIX + "symlink loop"
DENIED_REASON = SKIPPED_PREFIX + "permission denied"


def file_finding(relpath: str, status: str, error: str | None) -> Finding | None:
    """The finding of a file the run could not process (status failed or skipped), or None
    for a processed one. The reason decides the code: a symlink loop (HIP204), a permission
    denied (HIP205), any other skip (HIP203), or an error (HIP202)."""
    if status == "skipped":
        message = error or "skipped"
        if message.startswith(LOOP_REASON):
            info = SYMLINK_LOOP
        elif message.startswith(DENIED_REASON):
            info = PERMISSION_DENIED
        else:
            info = SKIPPED_SOURCE
    elif status == "failed":
        info, message = FILE_ERROR, f"could not process the file: {error or 'unknown error'}"
    else:
        return None
    return Finding(info.code, info.severity, message, Location(relpath, 1, 1, 1, 1))
