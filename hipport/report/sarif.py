"""SARIF 2.1.0, as GitHub code scanning reads it: rules with help text, relative URIs
under %SRCROOT%, regions, and partial fingerprints that survive lines moving.

GitHub's limits (docs.github.com, "SARIF results exceed limit"): a run with more than
25,000 results is rejected, and of an accepted run only the top 5,000 by severity are
shown. `--sarif-max-results N` keeps the N most severe results (default: GitHub's 25,000,
so an upload is never rejected; 0 keeps all); `limit_warnings` says what a run exceeds,
and the run records it as a tool execution notification.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hipport import __version__
from hipport.findings import RULES, Finding, RuleInfo
from hipport.report import RenderOptions
from hipport.report.jsontext import json_text
from hipport.report.model import Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = "https://github.com/hipport/hipport"
_LEVEL = {"error": "error", "warning": "warning", "note": "note"}
GITHUB_MAX_RESULTS = 25_000  # results per run GitHub accepts
GITHUB_SHOWN_RESULTS = 5_000  # results per run GitHub shows (the most severe)
GITHUB_MAX_GZIP_BYTES = 10 * 1024 * 1024  # an upload's size, gzip-compressed


def size_warning(text: str) -> str | None:
    """A warning when the SARIF text, gzip-compressed, is over GitHub's upload size."""
    import gzip

    data = text.encode("utf-8")
    if len(data) <= GITHUB_MAX_GZIP_BYTES:  # it cannot compress to more than itself
        return None
    size = len(gzip.compress(data, compresslevel=6))
    if size <= GITHUB_MAX_GZIP_BYTES:
        return None
    return (
        f"SARIF: {size / 1e6:.1f} MB gzip-compressed, over the 10 MB GitHub accepts: "
        "lower --sarif-max-results"
    )


def max_results(options: RenderOptions | None) -> int | None:
    """The cap on results: the option (0: none), else GitHub's."""
    chosen = options.sarif_max_results if options else None
    if chosen is None:
        return GITHUB_MAX_RESULTS
    return chosen or None


def kept_findings(report: Report, limit: int | None) -> list[Finding]:
    """The findings a run carries: all, or the `limit` most severe (in report order)."""
    if limit is None or len(report.findings) <= limit:
        return report.findings
    ranked = sorted(range(len(report.findings)), key=lambda i: -report.findings[i].severity.rank)
    keep = sorted(ranked[:limit])
    return [report.findings[i] for i in keep]


def limit_warnings(report: Report, options: RenderOptions | None = None) -> list[str]:
    """What the SARIF of `report` exceeds of GitHub's limits, in words (for stderr)."""
    total = len(report.findings)
    limit = max_results(options)
    out = []
    if limit is not None and total > limit:
        out.append(
            f"SARIF: {total} results, more than --sarif-max-results {limit}: "
            f"kept the {limit} most severe"
            + (" (GitHub rejects a run of more than 25,000)" if total > GITHUB_MAX_RESULTS else "")
        )
    if min(total, limit or total) > GITHUB_SHOWN_RESULTS:
        out.append(
            f"SARIF: GitHub code scanning shows only the top {GITHUB_SHOWN_RESULTS} results "
            f"of a run by severity; this run has {min(total, limit or total)}"
        )
    return out


def rule_descriptor(info: RuleInfo) -> dict[str, Any]:
    markdown = (
        f"**{info.code} {info.name}**: {info.summary}\n\n"
        f"**Why it matters.** {info.why}\n\n"
        f"**Example**\n\n```cuda\n{info.example}\n```\n\n**Fix.** {info.fix}"
    )
    text = (
        f"{info.summary}\n\nWhy it matters: {info.why}\n\nExample:\n{info.example}\n\n"
        f"Fix: {info.fix}"
    )
    return {
        "id": info.code,
        "name": _pascal(info.name),
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": f"{info.summary} {info.why}"},
        "help": {"text": text, "markdown": markdown},
        "helpUri": f"{INFO_URI}/blob/main/docs/rules.md#{info.code.lower()}",
        "defaultConfiguration": {"level": _LEVEL[info.severity.value]},
        "properties": {"tags": ["portability", "hip"], "kebab-name": info.name},
    }


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def _result(f: Finding, index: dict[str, int]) -> dict[str, Any]:
    loc = f.location
    region = {
        "startLine": loc.line,
        "startColumn": loc.column,
        "endLine": max(loc.end_line, loc.line),
        "endColumn": loc.end_column
        if loc.end_line > loc.line
        else max(loc.end_column, loc.column + 1),
    }
    result: dict[str, Any] = {
        "ruleId": f.code,
        "level": _LEVEL[f.severity.value],
        "message": {"text": f.message + (f" (hint: {f.hint})" if f.hint else "")},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": _uri(loc.path), "uriBaseId": "%SRCROOT%"},
                    "region": region,
                }
            }
        ],
        "partialFingerprints": {"hipport/v1": f.extra.get("fingerprint", "")},
        "properties": {
            k: v
            for k, v in (
                ("api", f.api),
                ("family", f.family),
                ("hip", f.hip),
                ("minRocm", f.min_rocm),
                ("alternative", f.alternative),
            )
            if v
        },
    }
    if f.code in index:
        result["ruleIndex"] = index[f.code]
    return result


def _uri(path: str) -> str:
    from urllib.parse import quote

    from hipport.project import path_bytes

    # a name that is not UTF-8 is shown escaped (\xNN); its URI percent-encodes the byte
    raw = path_bytes(path) if "\\x" in path else path.encode("utf-8", "surrogateescape")
    return quote(raw.replace(b"\\", b"/").lstrip(b"/"), safe="/")


def to_sarif(report: Report, options: RenderOptions | None = None) -> dict[str, Any]:
    findings = kept_findings(report, max_results(options))
    codes = sorted({f.code for f in findings} & set(RULES))
    rules = [rule_descriptor(RULES[c]) for c in codes]
    index = {c: i for i, c in enumerate(codes)}
    root = Path(report.root)
    root_uri = root.resolve().as_uri() + "/" if root.is_absolute() or root.exists() else None
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "hipport",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFO_URI,
                "rules": rules,
            }
        },
        "results": [_result(f, index) for f in findings],
        "properties": {
            "minimumRocm": report.rocm.minimum,
            "targetRocm": report.rocm.target,
            "totalResults": len(report.findings),
        },
    }
    warnings = limit_warnings(report, options)
    run["invocations"] = [
        {
            "executionSuccessful": True,
            "toolExecutionNotifications": [
                {"level": "warning", "message": {"text": text}} for text in warnings
            ],
        }
    ]
    if root_uri:
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": root_uri}}
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(report: Report, options: RenderOptions | None = None) -> str:
    return json_text(to_sarif(report, options))
