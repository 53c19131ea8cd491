"""The porting report: one data model that every output format renders.

`build_report` takes what the runner produced (a RunSummary, or plain TranslationResults)
and applies the findings policy (hipport.policy: severity configuration,
`--select`/`--ignore`, inline suppressions and the baseline) once, so text, JSON, SARIF,
JUnit, GitHub, CSV, Markdown and HTML always agree, and agree with `translate --fail-on`.
It also answers the questions a porting decision needs: statistics per family and per API
(as `hipify --print-stats` gives), the minimum ROCm the code needs and which APIs decide
it, how coverage grows across ROCm releases, and where the work is (per file and per directory).

The JSON form (`Report.to_dict`) is documented by docs/report.schema.json; bump
SCHEMA_VERSION when a field changes meaning or disappears (adding fields is compatible).
"""

from __future__ import annotations

import hashlib
import posixpath
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from hipport import __version__
from hipport.baseline import Baseline, StaleEntry
from hipport.collector import collector_paused
from hipport.findings import RULES, Finding, Location, RuleInfo, Severity
from hipport.policy import (
    FileInput,
    Selection,
    apply_baseline,
    checked_scope,
    exit_code,
    failing,
    file_findings,
    inputs_from,
    order,
)
from hipport.report.jsontext import (
    NotPlain,
    Rows,
    encode_string,
    flat_text,
    json_chunks,
    json_text,
    record_text,
    value_texts,
)
from hipport.report.numerics import FormatChange, format_changes
from hipport.rocm_minimum import oldest_rocm, rocm_needs
from hipport.tables import Mapping as TableRow
from hipport.tables import Status, Tables, load_tables, row_status, unlisted_status
from hipport.target import Target, Version

SCHEMA_VERSION = 1

FAIL_LEVELS = ("error", "warning", "note", "never")

# The use statuses, in report order. "hip" (a name that already is HIP) is not a CUDA use.
USE_STATUSES = (
    "mapped",
    "needs_newer_rocm",
    "unsupported",
    "unknown",
    "experimental",
    "removed_hip",
)


_COUNTED = frozenset(USE_STATUSES)  # holds a Status too (a StrEnum: equal to its value)
_VALUE = {s: s.value for s in Status}  # a status's plain string (faster than .value)

# ---------------------------------------------------------------------------------------
# The pieces of a report


@dataclass
class UseCounts:
    """How CUDA API uses resolve for the target; `uses` is the sum of the status counts."""

    uses: int = 0
    mapped: int = 0
    needs_newer_rocm: int = 0
    unsupported: int = 0
    unknown: int = 0
    experimental: int = 0
    removed_hip: int = 0

    def add(self, status: str, n: int = 1) -> None:
        if status not in USE_STATUSES:
            return
        self.uses += n
        setattr(self, status, getattr(self, status) + n)

    @property
    def unconverted(self) -> int:
        return self.uses - self.mapped

    def to_dict(self) -> dict[str, int]:
        return {
            "uses": self.uses,
            **{s: getattr(self, s) for s in USE_STATUSES},
            "unconverted": self.unconverted,
        }


@dataclass
class FamilyStat:
    family: str
    counts: UseCounts = field(default_factory=UseCounts)
    apis: int = 0  # distinct APIs used

    def to_dict(self) -> dict[str, Any]:
        return {"family": self.family, "apis": self.apis, **self.counts.to_dict()}


@dataclass
class VendoredCount:
    """Findings in third-party code (config `vendored`), counted instead of reported."""

    files: int = 0
    findings: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"files": self.files, "findings": self.findings}


@dataclass(slots=True)  # one per API used: 300,000 unknown names make 300,000
class ApiStat:
    api: str
    family: str | None
    status: str  # at the target
    uses: int = 0
    files: int = 0
    hip: str | None = None  # the HIP name (mapped, or the counterpart a newer ROCm has)
    min_rocm: str | None = None
    codes: list[str] = field(default_factory=list)  # finding codes reported for this API
    hints: list[str] = field(default_factory=list)  # fix hints from those findings
    locations: list[str] = field(default_factory=list)  # "path:line:col", unported uses only

    def to_dict(self) -> dict[str, Any]:
        return dict(zip(_API_FIELDS, _api_values(self), strict=True))


@dataclass
class Totals:
    """The figures `hipify --print-stats` prints, for the whole run."""

    files: int = 0
    files_changed: int = 0
    files_failed: int = 0
    files_skipped: int = 0
    # findings the engine dropped: in #if arms (or headers) the HIP build never compiles
    skipped_dead: int = 0
    dead_macros: list[str] = field(default_factory=list)  # the macros that decided those
    lines: int = 0
    lines_changed: int = 0
    bytes: int = 0
    bytes_changed: int = 0
    counts: UseCounts = field(default_factory=UseCounts)

    @property
    def conversion_percent(self) -> float:
        uses = self.counts.uses
        return round(100.0 * self.counts.mapped / uses, 1) if uses else 100.0

    def to_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k != "counts"}
        return {**data, **self.counts.to_dict(), "conversion_percent": self.conversion_percent}


@dataclass
class RocmRequirement:
    """The oldest ROCm that has every API the code uses, and the APIs that decide it."""

    minimum: str | None  # None: nothing versioned is used
    deciding_apis: list[str]  # the APIs whose HIP counterpart appeared in `minimum`
    target: str  # the ROCm aimed at (the newest in the tables when not given)
    target_given: bool
    satisfied: bool  # target >= minimum
    blocking_apis: list[str]  # used APIs no ROCm release maps (unsupported, unknown, removed)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class CoveragePoint:
    """If the code targeted `rocm`, how its API uses would resolve."""

    rocm: str
    counts: UseCounts
    unblocks: list[str]  # APIs that map from this release on (and did not the one before)

    @property
    def share(self) -> float:
        return round(self.counts.mapped / self.counts.uses, 4) if self.counts.uses else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rocm": self.rocm,
            **self.counts.to_dict(),
            "share": self.share,
            "unblocks": self.unblocks,
        }


@dataclass
class WorkItem:
    """What is left in one file or directory."""

    path: str  # posix, relative to the root ("." for the root directory)
    kind: str  # "file" or "directory"
    status: str = "unchanged"  # files: changed, unchanged, failed, skipped; directories: ""
    files: int = 1
    lines: int = 0
    counts: UseCounts = field(default_factory=UseCounts)
    errors: int = 0
    warnings: int = 0
    notes: int = 0
    baselined: int = 0
    error: str | None = None  # why the file failed

    @property
    def work_left(self) -> int:
        """Reported errors and warnings (baselined ones too: accepted is not done)."""
        return self.errors + self.warnings

    def count(self, finding: Finding) -> None:
        match finding.severity:
            case Severity.ERROR:
                self.errors += 1
            case Severity.WARNING:
                self.warnings += 1
            case _:
                self.notes += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kind": self.kind,
            "status": self.status,
            "files": self.files,
            "lines": self.lines,
            **self.counts.to_dict(),
            "errors": self.errors,
            "warnings": self.warnings,
            "notes": self.notes,
            "baselined": self.baselined,
            "work_left": self.work_left,
            "error": self.error,
        }


@dataclass
class Report:
    target: Target
    root: str
    findings: list[Finding]  # reported: after severity, selection, suppressions, baseline
    baselined: list[Finding]  # accepted by the baseline (not failing)
    suppressed: list[Finding]  # silenced by inline comments or severity "off"
    stale: list[StaleEntry]
    totals: Totals
    families: list[FamilyStat]
    apis: list[ApiStat]
    rocm: RocmRequirement
    # how coverage grows across releases: a list, or a function that computes it on first
    # use (only JSON and HTML show it: text, SARIF and the rest never pay for it)
    coverage_of: list[CoveragePoint] | Callable[[], list[CoveragePoint]]
    files: list[WorkItem]
    directories: list[WorkItem]
    baseline_path: str | None = None
    schema_version: int = SCHEMA_VERSION
    vendored: VendoredCount = field(default_factory=VendoredCount)
    # the number formats the translation keeps or changes (fp8, bf16, fp16 type names)
    numeric_formats: list[FormatChange] = field(default_factory=list)

    @property
    def coverage(self) -> list[CoveragePoint]:
        if callable(self.coverage_of):
            self.coverage_of = self.coverage_of()
        return self.coverage_of

    # -- questions renderers and the CLI ask ---------------------------------------------
    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(("error", "warning", "note"), 0)
        for f in self.findings:
            out[f.severity.value] += 1
        return out

    def failing(self, fail_on: str) -> list[Finding]:
        """Reported findings at or above `fail_on` (error, warning, note; never: none)."""
        return failing(self.findings, fail_on)

    def fails(self, fail_on: str) -> bool:
        return exit_code(self.findings, fail_on) != 0

    def rules(self) -> list[RuleInfo]:
        """The rules of the reported findings, in code order."""
        return [RULES[c] for c in sorted({f.code for f in self.findings}) if c in RULES]

    # -- the JSON form --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return self._document(rows=False)

    def json_chunks(self, indent: int = 2) -> Iterator[str]:
        """The JSON text (`to_json`) in pieces: the long lists are written a row at a time,
        so neither the text nor the dict form of a large report is held whole."""
        return json_chunks(self._document(rows=True), indent)

    def to_json(self, indent: int | None = 2) -> str:
        if indent is None:
            return json_text(self.to_dict(), None)
        return "".join(self.json_chunks(indent))

    def _document(self, rows: bool) -> dict[str, Any]:
        """The JSON form; `rows`: its long lists as Rows (hipport.report.jsontext)."""

        def listed(items: list, plain: Callable[[Any], Any], text: Any = None) -> Any:
            return Rows(items, plain, text) if rows else [plain(i) for i in items]

        return {
            "schema_version": self.schema_version,
            "tool": {"name": "hipport", "version": __version__},
            "target": target_dict(self.target),
            "root": self.root,
            "summary": {
                **self.counts(),
                "findings": len(self.findings),
                "baselined": len(self.baselined),
                "suppressed": len(self.suppressed),
                "stale_baseline_entries": len(self.stale),
            },
            "totals": self.totals.to_dict(),
            "rocm": self.rocm.to_dict(),
            "numeric_formats": [c.to_dict() for c in self.numeric_formats],
            "families": [f.to_dict() for f in self.families],
            "apis": listed(self.apis, ApiStat.to_dict, _api_text),
            "coverage": [c.to_dict() for c in self.coverage],
            "files": listed(self.files, WorkItem.to_dict, _item_text),
            "directories": listed(self.directories, WorkItem.to_dict, _item_text),
            "findings": listed(self.findings, finding_dict, finding_text),
            "baselined": listed(self.baselined, finding_dict, finding_text),
            "stale_baseline": listed(self.stale, StaleEntry.to_dict),
            "baseline_path": self.baseline_path,
            "rules": [rule_dict(r) for r in self.rules()],
        }


_API_FIELDS = tuple(f.name for f in fields(ApiStat))
_api_values = attrgetter(*_API_FIELDS)


def _api_text(stat: ApiStat, newline: str, indent: str) -> str | None:
    """ApiStat.to_dict's text."""
    if type(stat) is not ApiStat:
        return None
    return record_text(_API_FIELDS, _api_values(stat), newline, indent)


def _item_text(item: WorkItem, newline: str, indent: str) -> str | None:
    return flat_text(item.to_dict(), newline, indent)


def target_dict(target: Target) -> dict[str, Any]:
    return {
        "rocm": str(target.rocm) if target.rocm else None,
        "cuda": str(target.cuda) if target.cuda else None,
        "experimental": target.experimental,
        "roc": target.roc,
        "amd_ext": target.amd_ext,
        "launch_syntax": target.launch_syntax,
    }


_FINDING_FIELDS = tuple(f.name for f in fields(Finding))
_RECORD_FIELDS = frozenset({"severity", "location", "extra"})
_PLAIN = (str, int, type(None))


def finding_dict(finding: Finding) -> dict[str, Any]:
    """`finding.to_dict()` with the fingerprint moved out of `extra`. Built field by field,
    not by `asdict` (which deep-copies every value: a third of a large JSON report's time);
    the same dict, as a finding's fields are plain values but these three."""
    data = {name: getattr(finding, name) for name in _FINDING_FIELDS}
    if type(finding) is not Finding or not all(
        type(v) in _PLAIN for k, v in data.items() if k not in _RECORD_FIELDS
    ):
        data = finding.to_dict()  # a value asdict would convert: let it
    else:
        location = finding.location
        data["severity"] = finding.severity.value
        data["location"] = {name: getattr(location, name) for name in location.__slots__}
        data["extra"] = dict(finding.extra)
        data["name"] = RULES[finding.code].name if finding.code in RULES else None
    data["fingerprint"] = data["extra"].pop("fingerprint", None)
    return data


_PLAIN_FIELDS = tuple(n for n in _FINDING_FIELDS if n not in _RECORD_FIELDS)
_SEVERITY_VALUE = {s: s.value for s in Severity}  # faster than .value
_plain_fields = attrgetter(*_PLAIN_FIELDS)
_LOCATION_FIELDS = Location.__slots__
_location_fields = attrgetter(*_LOCATION_FIELDS)


def finding_text(finding: Finding, newline: str, indent: str) -> str | None:
    """The JSON text of `finding_dict(finding)` at this indentation, made without the
    dict (300,000 findings' dicts were a third of a large report's time and 300 MB); None
    when a value is not a plain string, int or None, or `extra` holds more than the
    fingerprint: then the dict is written."""
    extra = finding.extra
    location = finding.location
    if (
        type(finding) is not Finding
        or type(location) is not Location
        or (extra and (len(extra) > 1 or "fingerprint" not in extra))
    ):
        return None
    severity = _SEVERITY_VALUE.get(finding.severity)
    if severity is None:
        return None
    code = finding.code
    values = (
        *_plain_fields(finding),
        severity,
        *_location_fields(location),
        RULES[code].name if code in RULES else None,
        extra.get("fingerprint"),
    )
    if list in map(type, values):  # the dict's writer indents a list by where it is
        return None
    try:
        texts = value_texts(values, newline + indent, indent)
    except NotPlain:
        return None
    return _finding_template(newline, indent).format(*texts)


@lru_cache(maxsize=8)
def _finding_template(newline: str, indent: str) -> str:
    """finding_dict's keys in its order, each value a {n}: n in finding_text's order (the
    plain fields, the severity, the location's fields, name, fingerprint)."""
    inner = newline + indent
    inner2 = inner + indent
    at = {name: i for i, name in enumerate(_PLAIN_FIELDS)}
    at["severity"] = len(at)
    first = len(at)
    where = ",".join(f"{inner2}{_key(n)}: {{{first + i}}}" for i, n in enumerate(_LOCATION_FIELDS))
    at["name"] = first + len(_LOCATION_FIELDS)
    at["fingerprint"] = at["name"] + 1
    parts = []
    for name in (*_FINDING_FIELDS, "name", "fingerprint"):
        if name == "location":
            text = "{{" + where + inner + "}}"
        elif name == "extra":
            text = "{{}}"
        else:
            text = f"{{{at[name]}}}"
        parts.append(f"{inner}{_key(name)}: {text}")
    return "{{" + ",".join(parts) + newline + "}}"


def _key(name: str) -> str:
    return encode_string(name).replace("{", "{{").replace("}", "}}")


def rule_dict(info: RuleInfo) -> dict[str, str]:
    return {
        "code": info.code,
        "name": info.name,
        "severity": info.severity.value,
        "summary": info.summary,
        "why": info.why,
        "example": info.example,
        "fix": info.fix,
    }


# ---------------------------------------------------------------------------------------
# Input: what the runner hands over


# ---------------------------------------------------------------------------------------
# Building


def build_report(
    source: Any,
    target: Target | None = None,
    *,
    root: str = ".",
    selection: Selection | None = None,
    baseline: Baseline | None = None,
    suppressions: bool = True,
    tables: Tables | None = None,
) -> Report:
    """The report for a run. `source`: a RunSummary or TranslationResults."""
    target = target or getattr(source, "target", None) or Target()
    root = str(getattr(source, "root", None) or root)
    selection = selection or Selection()
    tables = tables or load_tables()
    inputs = inputs_from(source)

    # One pass, one file at a time: each result is reduced to its findings, counts and
    # compact use records, then let go (the runner may stream results from its cache, so
    # the whole tree's sources, edits and uses are never in memory at once).
    active: list[Finding] = []
    silenced: list[Finding] = []
    tally = UseTally()
    totals = Totals()
    vendored = VendoredCount()
    items: dict[str, WorkItem] = {}
    with collector_paused():
        for item in inputs:
            result = item.load_part()
            kept, gone = _file_findings(item, selection, suppressions, result)
            active.extend(kept)
            if selection.is_vendored(item.relpath):
                vendored.files += bool(gone)
                vendored.findings += len(gone)
            else:
                silenced.extend(gone)
            work = items[item.relpath] = WorkItem(
                item.relpath,
                "file",
                item.status,
                error=item.error or getattr(result, "error", None),
            )
            _add_file(totals, work, tally, item, result)
            del result
    verdict = apply_baseline(active, baseline, checked=checked_scope(set(items), root))
    reported, accepted, stale = verdict.reported, verdict.accepted, verdict.stale

    families, apis = _statistics(tally, reported + accepted)
    files = _work_items(items, reported, accepted)
    per_api = tally.per_api()  # what coverage needs, kept (the tally goes)
    return Report(
        target=target,
        root=root,
        findings=reported,
        baselined=accepted,
        suppressed=silenced,
        stale=stale,
        totals=totals,
        families=families,
        apis=apis,
        rocm=_most_used_first(minimum_rocm(tally.distinct(), target, tables), apis),
        coverage_of=lambda: _coverage(per_api, target, tables),
        files=files,
        directories=_directories(files),
        baseline_path=str(baseline.path) if baseline is not None and baseline.path else None,
        vendored=vendored,
        numeric_formats=tally.format_changes(),
    )


class UseRecord(NamedTuple):
    """What the report keeps of a kind of Use (its location apart): uses alike in all of
    these are counted, not kept one by one."""

    api: str
    family: str | None
    status: Status
    new_name: str | None
    min_rocm: Version | None


@dataclass
class UseTally:
    """The run's API uses, reduced as each file streams in: how many of each kind per file,
    and the "path:line:col" of each unported use (the only uses the report names)."""

    files: dict[str, dict[UseRecord, int]] = field(default_factory=dict)
    locations: dict[tuple[str, str | None], list[str]] = field(default_factory=dict)

    def add_file(self, relpath: str, uses: Iterable[Any]) -> dict[UseRecord, int]:
        """Count one file in; returns that file's counts by kind."""
        mine: dict[UseRecord, int] = {}
        locations = self.locations
        mapped = Status.MAPPED
        for use in uses:
            kind = UseRecord(use.api, use.family, use.status, use.new_name, use.min_rocm)
            mine[kind] = mine.get(kind, 0) + 1
            if use.status is not mapped and use.status in _COUNTED:
                loc = use.location
                place = f"{relpath}:{loc.line}:{loc.column}"
                key = (use.api, use.family)
                where = locations.get(key)
                if where is None:
                    locations[key] = [place]  # most have one: a list of one, not of four
                else:
                    where.append(place)
        self._keep(relpath, mine)
        return mine

    def add_counts(self, relpath: str, kinds: Iterable[Any]) -> dict[UseRecord, int]:
        """`add_file` for a file whose uses come counted by kind (a cached report part:
        hipport.runner.report_part.UseCount), with the same result."""
        mine: dict[UseRecord, int] = {}
        places = []
        for k in kinds:
            api, family, status = k.api, k.family, k.status
            kind = UseRecord(api, family, status, k.new_name, k.min_rocm)
            mine[kind] = mine.get(kind, 0) + k.count
            if status in _COUNTED:  # most kinds have one place: a loop, not a generator
                for i, line, column in k.places:
                    places.append((i, line, column, api, family))
        places.sort(key=_first)
        locations = self.locations
        for _, line, column, api, family in places:
            place = f"{relpath}:{line}:{column}"
            where = locations.get((api, family))
            if where is None:
                locations[(api, family)] = [place]
            else:
                where.append(place)
        self._keep(relpath, mine)
        return mine

    def _keep(self, relpath: str, mine: dict[UseRecord, int]) -> None:
        known = self.files.get(relpath)
        if known is None:
            self.files[relpath] = mine
        else:  # the same path twice: its later counts replace the earlier, kind by kind
            known.update(mine)

    def counted(self) -> Iterator[tuple[str, UseRecord, int]]:
        """(path, kind, uses) for each kind of use of each file."""
        for relpath, mine in self.files.items():
            for kind, n in mine.items():
                yield relpath, kind, n

    def distinct(self) -> list[UseRecord]:
        """Each kind of use once (what the minimum ROCm depends on)."""
        return list(dict.fromkeys(kind for mine in self.files.values() for kind in mine))

    def format_changes(self) -> list[FormatChange]:
        """The number formats the translated uses of fp8/bf16/fp16 type names hold."""
        from hipport.mappings import load_mappings

        types = load_mappings().numeric_types
        uses = [
            (kind.api, kind.new_name or kind.api, n)
            for _, kind, n in self.counted()
            if kind.status is Status.MAPPED and kind.api in types.cuda
        ]
        return format_changes(uses, types)

    def per_api(self) -> dict[str, int]:
        """Uses per API name, of the statuses the report counts."""
        counts: dict[str, int] = {}
        for _, kind, n in self.counted():
            if kind.status in _COUNTED:
                counts[kind.api] = counts.get(kind.api, 0) + n
        return counts


_first = itemgetter(0)


def _file_findings(
    item: FileInput, selection: Selection, use_suppressions: bool, result: Any = None
) -> tuple[list[Finding], list[Finding]]:
    """(kept, silenced) findings of one file as the policy decides, fingerprints set."""
    kept, silenced = file_findings(item, selection, use_suppressions, result)
    source = result.source if result is not None else b""
    _fingerprint(kept, source)
    return kept, silenced


def _fingerprint(findings: list[Finding], source: bytes) -> None:
    """A hash of rule + API + path + the line's text (stripped) + which occurrence of that
    it is: stable when lines move, distinct for two findings on identical lines."""
    lines = source.splitlines()
    seen: dict[str, int] = {}
    texts: dict[int, str] = {}
    sha256 = hashlib.sha256
    for f in sorted(findings, key=order):
        location = f.location
        line = location.line
        text = texts.get(line)
        if text is None:
            text = texts[line] = _line_key(lines[line - 1] if 0 < line <= len(lines) else b"")
        base = "\0".join((f.code, f.api or "", location.path, text))
        n = seen[base] = seen.get(base, 0) + 1
        digest = sha256(f"{base}\0{n}".encode("utf-8", "surrogateescape"))
        f.extra["fingerprint"] = digest.hexdigest()[:32]


_LONG_LINE = 1024  # bytes: a longer line is keyed by its digest, not its text


def _line_key(line: bytes) -> str:
    """The stripped line's text in a fingerprint, once per line; a line longer than
    _LONG_LINE by its sha256 instead: with the text itself, 10,000 findings on one 100 KB
    line held (and hashed) 10,000 copies of it (1 GB)."""
    text = line.strip()
    if len(text) > _LONG_LINE:
        return "sha256:" + hashlib.sha256(text).hexdigest()
    return text.decode("utf-8", "surrogateescape")


def _add_file(
    totals: Totals, work: WorkItem, tally: UseTally, item: FileInput, result: Any
) -> None:
    """Count one file into the run's totals, its work item and the use tally."""
    totals.files += 1
    totals.files_changed += item.status == "changed"
    totals.files_failed += item.status == "failed"
    totals.files_skipped += item.status == "skipped"
    if result is None:
        return
    skipped = getattr(result, "skipped_dead", 0)
    if skipped:
        totals.skipped_dead += skipped
        known = set(totals.dead_macros)
        totals.dead_macros.extend(m for m in result.dead_macros if m not in known)
        totals.dead_macros.sort()
    work.lines = _line_count(result.source)
    totals.lines += work.lines
    totals.bytes += len(result.source)
    if getattr(result, "counted", False):  # a cached part (hipport.runner.report_part)
        totals.bytes_changed += result.bytes_changed
        totals.lines_changed += result.lines_changed
        mine = tally.add_counts(item.relpath, result.uses)
    else:
        totals.bytes_changed += edited_bytes(result.edits)
        totals.lines_changed += lines_touched(result.source, result.edits)
        mine = tally.add_file(item.relpath, result.uses)
    by_status: dict[str, int] = {}
    for kind, n in mine.items():
        by_status[kind.status] = by_status.get(kind.status, 0) + n
    for status, n in by_status.items():
        work.counts.add(_VALUE.get(status, status), n)
        totals.counts.add(_VALUE.get(status, status), n)


def _line_count(source: bytes) -> int:
    ended = source.endswith((b"\n", b"\r"))
    return _breaks(source, 0, len(source), b"\r" in source) + (1 if source and not ended else 0)


def _breaks(source: bytes, start: int, end: int, cr: bool) -> int:
    """The line breaks in source[start:end] as clang counts lines (the findings' lines):
    \n, a lone \r and \r\n once each; `cr`: the source holds a \r."""
    n = source.count(b"\n", start, end)
    if cr:
        n += source.count(b"\r", start, end) - source.count(b"\r\n", start, end)
    return n


def edited_bytes(edits: list) -> int:
    """How many bytes of the source the edits replace."""
    return sum(e.end - e.start for e in edits)


def lines_touched(source: bytes, edits: list) -> int:
    """How many lines the edits touch: one walk over the source in the edits' order."""
    spans = sorted((e.start, max(e.start, e.end - 1)) for e in edits)
    touched = 0
    line = pos = 0  # the line (0-based) that byte `pos` is on
    covered = -1  # the last line counted
    cr = b"\r" in source
    for start, last_byte in spans:
        line += _breaks(source, pos, start, cr)
        pos = start
        last = line + _breaks(source, start, last_byte, cr)
        first = max(line, covered + 1)
        if last >= first:
            touched += last - first + 1
            covered = last
    return touched


def _statistics(tally: UseTally, findings: list[Finding]) -> tuple[list[FamilyStat], list[ApiStat]]:
    by_api: dict[tuple[str, str | None], ApiStat] = {}
    # the files of each API: one path, or a set once there are two (most have one)
    files_of: dict[tuple[str, str | None], str | set[str]] = {}
    locations = tally.locations
    for relpath, use, n in tally.counted():
        status = use.status
        if status not in _COUNTED:
            continue
        key = (use.api, use.family)
        stat = by_api.get(key)
        if stat is None:
            min_rocm = str(use.min_rocm) if use.min_rocm else None
            stat = by_api[key] = ApiStat(
                use.api,
                use.family,
                _VALUE.get(status, status),
                n,
                hip=use.new_name,
                min_rocm=min_rocm,
                locations=locations.get(key) or [],
            )
            files_of[key] = relpath
            continue
        stat.uses += n
        stat.hip = stat.hip or use.new_name
        where = files_of[key]
        if type(where) is set:
            where.add(relpath)
        elif where != relpath:
            files_of[key] = {where, relpath}
    by_name = {api: stat for (api, _), stat in by_api.items()}
    for f in findings:
        stat = by_name.get(f.api or "")
        if stat is None:
            continue
        if f.code not in stat.codes:
            stat.codes.append(f.code)
        if not stat.hip:
            stat.hip = f.hip
        alternative, hint = f.alternative, f.hint
        if alternative and alternative not in stat.hints:
            stat.hints.append(alternative)
        if hint and hint not in stat.hints:
            stat.hints.append(hint)
    families: dict[str, FamilyStat] = {}
    family_uses: dict[tuple[str, str], int] = {}  # (family, status): uses
    for key, stat in by_api.items():
        where = files_of[key]
        stat.files = len(where) if type(where) is set else 1
        if len(stat.codes) > 1:
            stat.codes.sort()
        name = stat.family or "unknown"
        fam = families.get(name)
        if fam is None:
            fam = families[name] = FamilyStat(name)
        fam.apis += 1
        pair = (name, stat.status)
        family_uses[pair] = family_uses.get(pair, 0) + stat.uses
    for (name, status), uses in family_uses.items():
        families[name].counts.add(status, uses)
    # unported first, then by uses (most first), then by name: three stable sorts by one
    # attribute each, least significant first (a tuple key per API costs twice as much)
    apis = sorted(by_api.values(), key=_api_name)
    apis.sort(key=_api_uses, reverse=True)  # reverse keeps equal items in order
    apis = [s for s in apis if s.status != "mapped"] + [s for s in apis if s.status == "mapped"]
    return sorted(families.values(), key=lambda f: (-f.counts.uses, f.family)), apis


_api_name = attrgetter("api")
_api_uses = attrgetter("uses")


def _most_used_first(rocm: RocmRequirement, apis: list[ApiStat]) -> RocmRequirement:
    """The blocking APIs most used first (ties by name): the top of the list is the work
    that unblocks the most code."""
    uses = {a.api: a.uses for a in apis}
    rocm.blocking_apis.sort(key=lambda name: (-uses.get(name, 0), name))
    return rocm


def minimum_rocm(uses: Iterable[Any], target: Target, tables: Tables) -> RocmRequirement:
    """The max over uses (mapped, or needing a newer ROCm) of the ROCm that added the API.
    With a target below it, exactly those uses are HIP002 findings (needs-newer-rocm)."""
    uses = list(uses)
    aimed = target.rocm or tables.newest_rocm
    blocking = sorted(
        {
            u.api
            for u in uses
            if u.status in (Status.UNSUPPORTED, Status.UNKNOWN, Status.REMOVED_HIP)
        }
    )
    minimum, deciders = oldest_rocm(rocm_needs(uses))
    if minimum is None:
        return RocmRequirement(None, [], str(aimed), target.rocm is not None, True, blocking)
    return RocmRequirement(
        str(minimum),
        sorted(deciders),
        str(aimed),
        target.rocm is not None,
        aimed >= minimum,
        blocking,
    )


def known_releases(tables: Tables, target: Target | None = None) -> list[Version]:
    """Every ROCm release the tables name (an API added, deprecated or removed in it)."""
    versions: set[Version] = set()
    roc = bool(target and target.roc)
    for row in tables.rows:
        for v in (
            row.hip_added,
            row.hip_removed,
            row.hip_deprecated,
            *((row.roc_added, row.roc_removed) if roc else ()),
        ):
            if v is not None:
                versions.add(v)
    return sorted(versions)


def coverage_across_releases(
    uses: Iterable[Any], target: Target, tables: Tables
) -> list[CoveragePoint]:
    """For each known ROCm release, how this code's API uses would resolve if targeted."""
    return _coverage(Counter(u.api for u in uses if u.status.value in USE_STATUSES), target, tables)


def _coverage(counts: Mapping[str, int], target: Target, tables: Tables) -> list[CoveragePoint]:
    if not counts:
        return []
    # a name the tables do not hold resolves alike for every release: counted once, not
    # once per release (300,000 unknown names took 101 s)
    fixed: Counter[str] = Counter()
    listed: list[tuple[str, TableRow, int]] = []  # (name, its row, uses)
    get = tables.get
    for api, n in counts.items():
        row = get(api)
        if row is None:
            status = _VALUE[unlisted_status(tables, api)]
            fixed[status if status in USE_STATUSES else "unknown"] += n
        else:
            listed.append((api, row, n))
    out: list[CoveragePoint] = []
    previous: set[str] = set()
    for release in known_releases(tables, target):
        aimed = replace(target, rocm=release)
        point = UseCounts()
        for status, n in fixed.items():
            point.add(status, n)
        mapped: set[str] = set()
        for api, row, n in listed:
            # the status alone: a whole Resolution per name and release cost 0.8 s a run
            status = _VALUE[row_status(tables, row, aimed)]
            point.add(status if status in USE_STATUSES else "unknown", n)
            if status == "mapped":
                mapped.add(api)
        out.append(CoveragePoint(str(release), point, sorted(mapped - previous)))
        previous = mapped
    return out


def _work_items(
    items: dict[str, WorkItem], reported: list[Finding], accepted: list[Finding]
) -> list[WorkItem]:
    """Count the findings into the per-file items (a finding may name a file of its own)."""
    for f in reported + accepted:
        item = items.get(f.location.path)
        if item is None:
            item = items[f.location.path] = WorkItem(f.location.path, "file")
        item.count(f)
    for f in accepted:
        items[f.location.path].baselined += 1
    return sorted(items.values(), key=lambda i: (-i.work_left, -i.counts.unconverted, i.path))


def _directories(files: list[WorkItem]) -> list[WorkItem]:
    dirs: dict[str, WorkItem] = {}
    for f in files:
        name = posixpath.dirname(f.path) or "."
        d = dirs.get(name)
        if d is None:
            d = dirs[name] = WorkItem(name, "directory", "", files=0)
        d.files += 1
        d.lines += f.lines
        for status in USE_STATUSES:
            d.counts.add(status, getattr(f.counts, status))
        d.errors += f.errors
        d.warnings += f.warnings
        d.notes += f.notes
        d.baselined += f.baselined
    return sorted(dirs.values(), key=lambda i: (-i.work_left, -i.counts.unconverted, i.path))
