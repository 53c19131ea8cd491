"""GitLab Code Quality: the JSON list of issues a job hands over as
`artifacts: reports: codequality:` (docs.gitlab.com, ci/testing/code_quality, "Code
Quality report format").

GitLab reads `description`, `check_name`, `fingerprint` (unique per issue: GitLab keeps
only the first issue of a fingerprint), `severity` (info, minor, major, critical, blocker),
`location.path` (relative to the repository) and `location.lines.begin`, and ignores the
rest of the Code Climate fields.
"""

from __future__ import annotations

from typing import Any

from hipport.findings import RULES, Finding
from hipport.report import RenderOptions
from hipport.report.jsontext import json_text
from hipport.report.model import Report

# A port blocker is "major": GitLab sorts it above style issues ("minor") and below the
# security levels it keeps for critical and blocker.
SEVERITY = {"error": "major", "warning": "minor", "note": "info"}


def issue(f: Finding) -> dict[str, Any]:
    loc = f.location
    name = f"{f.code} {f.rule.name}" if f.code in RULES else f.code
    description = f.message + (f" (hint: {f.hint})" if f.hint else "")
    return {
        "type": "issue",
        "description": description,
        "check_name": name,
        "fingerprint": f.extra.get("fingerprint", ""),
        "severity": SEVERITY[f.severity.value],
        "location": {
            "path": loc.path.replace("\\", "/").lstrip("/"),
            "lines": {"begin": loc.line, "end": max(loc.end_line, loc.line)},
        },
    }


def render(report: Report, options: RenderOptions | None = None) -> str:
    return json_text([issue(f) for f in report.findings])
