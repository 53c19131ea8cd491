"""Findings as data: what hipport reports, with a stable rule code and a location.

Every renderer (text, JSON, SARIF, JUnit, GitHub, CSV, Markdown, HTML) is a thin view of a
list of `Finding`. Rules are registered once here with their code, name, default severity
and documentation, so `hipport rule CODE` and SARIF's rule metadata read the same text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "note": 1}[self.value]

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls(text.lower())
        except ValueError:
            raise ValueError(f"unknown severity {text!r}: use error, warning or note") from None


@dataclass(frozen=True)
class Location:
    """1-based line and column (column counts bytes, as compilers do); end is exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class RuleInfo:
    code: str  # stable, e.g. "HIP001"
    name: str  # kebab-case, e.g. "unsupported-api"
    severity: Severity  # default
    summary: str  # one line: what it finds
    why: str  # why it matters
    example: str  # a CUDA snippet that triggers it
    fix: str  # how to fix it


@dataclass
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


RULES: dict[str, RuleInfo] = {}


def register(info: RuleInfo) -> RuleInfo:
    if info.code in RULES and RULES[info.code] != info:
        raise ValueError(f"rule code {info.code} registered twice")
    RULES[info.code] = info
    return info


def rule_by_code_or_name(key: str) -> RuleInfo | None:
    key_up = key.upper()
    if key_up in RULES:
        return RULES[key_up]
    for info in RULES.values():
        if info.name == key.lower():
            return info
    return None


# The one rule that belongs to the run rather than to a rule module: the runner makes these
# findings and the report counts them.
FILE_ERROR = register(
    RuleInfo(
        "HIP202",
        "file-error",
        Severity.ERROR,
        "A file hipport could not read, tokenize or translate.",
        "Nothing in the file was checked, so a clean report would be a false promise.",
        "hipport check binary.cu  # a file holding NUL bytes, or unreadable",
        "Fix or exclude the file (exclude = [...] in [tool.hipport]); the message says why it "
        "failed.",
    )
)
