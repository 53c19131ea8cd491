"""The findings policy: which findings a run reports, at what severity, and whether it fails.

One module applies, in this order, for every command (`check`, `translate --fail-on`, the
pre-commit hook, which runs `check`):

1. project filters: an unknown identifier (HIP004) the project defines in another file, a
   CUDA header with no HIP counterpart (HIP012) the project ships a file of;
2. per-path ignores (`per-path-ignore` in the configuration);
3. inline suppressions (`// hipport: ignore[...]`, with HIP201 for unused ones);
4. `--select` / `--ignore` and the configuration's `severity` overrides (`off` silences);
5. the baseline (accepted findings do not fail).

`exit_code(findings, fail_on)` then decides pass (0) or fail (1); FAIL_LEVELS are the
`--fail-on` values. The renderers read what this module kept; nothing else filters.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import partial
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hipport.catalogue import RULES, UNKNOWN, UNMAPPED_INCLUDE, Severity
from hipport.findings import Finding, Location

if TYPE_CHECKING:
    from hipport.baseline import Baseline, StaleEntry
    from hipport.config import Config
    from hipport.engine import TranslationResult

FAIL_LEVELS = ("error", "warning", "note", "never")
UNKNOWN_CODE = UNKNOWN.code
UNMAPPED_INCLUDE_CODE = UNMAPPED_INCLUDE.code


class PolicyError(ValueError):
    """A rule code or name the policy was given that names no rule (a usage error, exit 2:
    a misspelt --select must not silence everything and pass)."""


# --------------------------------------------------------------------------- rule names


def _suggest(word: str) -> str:
    import difflib

    known = [*RULES, *(info.name for info in RULES.values())]
    close = difflib.get_close_matches(word, known, n=3, cutoff=0.6)
    digits = word.upper().removeprefix("HIP")
    if digits.isdigit() and (padded := f"HIP{int(digits):03d}") in RULES:
        close = [padded, *(c for c in close if c != padded)][:3]  # HIP01, HIP0001: HIP001
    if not close and word.upper() in RULES:
        close = [word.upper()]
    return f" (did you mean {' or '.join(close)}?)" if close else " (hipport rule --all lists them)"


def names_a_rule(word: str, prefixes: bool = False) -> bool:
    """A rule code or kebab-case name of the catalogue; with `prefixes`, also ALL or a
    code prefix that some rule has (HIP0, HIP10)."""
    if word.upper() in RULES or any(word == info.name for info in RULES.values()):
        return True
    if not prefixes:
        return False
    upper = word.upper()
    return upper == "ALL" or (upper.startswith("HIP") and any(c.startswith(upper) for c in RULES))


def check_rule_words(words: Iterable[str], where: str, prefixes: bool = False) -> None:
    """Raise PolicyError for the first word that names no rule, saying where it was."""
    for word in words:
        if not names_a_rule(word.strip(), prefixes):
            raise PolicyError(f"{where}: unknown rule {word.strip()!r}{_suggest(word.strip())}")


def check_configured_rules(config: Config) -> None:
    """The configuration's `severity` keys and the rule codes among `per-path-ignore`
    entries (the other entries are CUDA names) must name rules."""
    where = str(config.source) if config.source else "configuration"
    check_rule_words(config.severity, f"{where}: severity")
    for key in ("select", "ignore", "extend-select"):
        check_rule_words(config.get(key, ()), f"{where}: {key}", prefixes=True)
    for pattern, entries in config.per_path_ignore.items():
        codes = [e for e in entries if is_rule_code(e)]
        check_rule_words(codes, f"{where}: per-path-ignore {pattern!r}")


# --------------------------------------------------------------------------- per path


def matches_config(path: Path, relpath: str, patterns: list[str], config: Config) -> bool:
    """Configuration globs are relative to the directory holding the configuration (the
    project root), whichever directory the run was started on."""
    from hipport.project import match_globs

    if not patterns:
        return False
    rel = _root_rel(path, config.root)
    return match_globs(rel if rel is not None else relpath, patterns)


def _root_rel(path: Path, root: Path) -> str | None:
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return None


def per_path_entries(path: Path, relpath: str, config: Config) -> list[str]:
    """Every per-path-ignore entry whose pattern matches the file: rule codes (findings
    this policy drops) and CUDA names (mappings the engine leaves alone)."""
    entries: list[str] = []
    for pattern, names in config.per_path_ignore.items():
        if matches_config(path, relpath, [pattern], config):
            entries.extend(names)
    return entries


def is_rule_code(entry: str) -> bool:
    """HIP004 (a rule code) rather than a CUDA name such as CUDA_CHECK."""
    return entry[:3].upper() == "HIP" and entry[3:].isdigit()


def apply_project_filters(
    files: Iterable[Any],
    names: frozenset[str],
    config: Config,
    shipped: frozenset[str] = frozenset(),
) -> None:
    """Steps 1 and 2 on the runner's FileOutcomes, in place: unknown-identifier findings for
    names the project defines elsewhere are dropped, and unmapped-include findings for
    headers the project ships (`shipped`: the compiler includes the project's own file, not
    NVIDIA's), as are findings of codes a per-path-ignore entry turns off for that path.
    Each file's result handle is replaced by a filtered one: a result left in the cache
    or spilled is filtered when it is read, its cached finding counts at once."""
    for f in files:
        if f.handle is None:
            continue
        codes = frozenset(
            e.upper() for e in per_path_entries(f.path, f.relpath, config) if is_rule_code(e)
        )
        moot = _Moot(names, shipped, codes)
        f.handle = f.handle.filtered(moot, partial(_filtered, moot=moot))


@dataclass(frozen=True)
class _Moot:
    """Which findings the project makes moot (steps 1 and 2 for one file)."""

    names: frozenset[str]  # the project defines them
    shipped: frozenset[str]  # the project ships a header of that name
    codes: frozenset[str]  # per-path-ignore turns them off

    def __call__(self, code: str, api: str | None) -> bool:
        return (
            code in self.codes
            or (code == UNKNOWN_CODE and api in self.names)
            or (code == UNMAPPED_INCLUDE_CODE and api in self.shipped)
        )


def _filtered(result: TranslationResult, moot: _Moot) -> TranslationResult:
    from hipport.tables import Status  # not at import: `hipport CMD --help` stays light

    kept = [x for x in result.findings if not moot(x.code, x.api)]
    if len(kept) == len(result.findings):
        return result
    names = moot.names
    return replace(
        result,
        findings=kept,
        uses=[u for u in result.uses if not (u.status is Status.UNKNOWN and u.api in names)],
    )


# --------------------------------------------------------------------------- the files


@dataclass
class FileInput:
    """One file as the policy sees it (a runner FileOutcome, or a bare TranslationResult)."""

    relpath: str  # relative to the project root (what the baseline and SARIF expect)
    status: str
    handle: Any  # hipport.runner.outcome.ResultHandle | None
    error: str | None = None

    def load(self) -> Any:
        """The result (a stored one loaded anew, not kept)."""
        return self.handle.load() if self.handle is not None else None

    def load_part(self) -> Any:
        """What the report and the policy read of the result (its findings, source and
        counts): a stored result's cached part when there is one, else the result."""
        return self.handle.read_part() if self.handle is not None else None


def inputs_from(source: Any) -> list[FileInput]:
    """Accept a RunSummary (with .files of FileOutcome) or an iterable of TranslationResult."""
    from hipport.project import display_path  # not at import: `--help` stays light

    files = getattr(source, "files", source)
    root = getattr(source, "root", None)
    real_root = Path(os.path.realpath(root)) if root is not None else None
    out = []
    for item in files:
        if getattr(item, "status", None) == "copied":  # not a source: nothing to check
            continue
        if hasattr(item, "relpath"):
            # shown as valid Unicode: a name that is not UTF-8 is escaped (\xNN)
            relpath = display_path(_root_relative(item.path, item.relpath, real_root))
            out.append(FileInput(relpath, item.status, item.handle, item.error))
        else:  # a TranslationResult
            from hipport.runner.outcome import InMemory

            status = "failed" if item.error else ("changed" if item.changed else "unchanged")
            out.append(FileInput(display_path(item.path), status, InMemory(item), item.error))
    return out


def _root_relative(path: Any, relpath: str, real_root: Path | None) -> str:
    """The file's path relative to the project root (`real_root`: its realpath), whatever
    directory the runner's relpath was relative to."""
    if real_root is None or path is None:
        return relpath
    try:
        # realpath, not resolve(): a symlink loop must not raise
        return Path(os.path.realpath(path)).relative_to(real_root).as_posix()
    except ValueError:
        return relpath


# --------------------------------------------------------------------------- selection


@dataclass(frozen=True)
class Selection:
    """Which findings are reported and at what severity (configuration and CLI)."""

    severity: Mapping[str, str] = field(default_factory=dict)  # code or name -> level|off
    select: tuple[str, ...] = ()  # codes, code prefixes or names; () means all
    ignore: tuple[str, ...] = ()
    # globs (root-relative, .gitignore semantics) of third-party code: its findings are not
    # reported, only counted (config `vendored`; hipport.config.DEFAULT_VENDORED)
    vendored: tuple[str, ...] = ()

    def is_vendored(self, relpath: str) -> bool:
        from hipport.project import match_globs

        return bool(self.vendored) and match_globs(relpath, list(self.vendored))

    def check(self) -> Selection:
        """Raise PolicyError for a --select/--ignore word or severity key that is no rule."""
        check_rule_words(self.select, "--select", prefixes=True)
        check_rule_words(self.ignore, "--ignore", prefixes=True)
        check_rule_words(self.severity, "severity")
        return self

    def level(self, finding: Finding) -> str | None:
        """The severity to report `finding` at, or None when it is turned off."""
        if not self.reports(finding.code):
            return None
        return self._configured(finding.code) or finding.severity.value

    def reports(self, code: str) -> bool:
        """Findings of `code` are reported: not turned off, selected and not ignored."""
        name = RULES[code].name if code in RULES else None
        if self._configured(code) == "off":
            return False
        if self.select and not _matches(code, name, self.select):
            return False
        return not (self.ignore and _matches(code, name, self.ignore))

    def _configured(self, code: str) -> str | None:
        name = RULES[code].name if code in RULES else None
        return self.severity.get(code) or (self.severity.get(name) if name else None)


def _matches(code: str, name: str | None, patterns: tuple[str, ...]) -> bool:
    for pattern in patterns:
        p = pattern.strip()
        if p.upper() == "ALL" or (p and code.startswith(p.upper())) or p.lower() == name:
            return True
    return False


def file_findings(
    item: FileInput, selection: Selection, use_suppressions: bool, result: Any = None
) -> tuple[list[Finding], list[Finding]]:
    """Steps 3 and 4 for one file: (kept, silenced), with locations on the relpath and
    severities as configured. A file the run could not process is a finding of its own."""
    from hipport.findings import file_finding
    from hipport.suppressions import filter_findings

    raw: list[Finding] = []
    if result is not None:
        # a stored result is loaded anew for this read: its findings are ours to change
        # (a copy of each of 300,000 findings was a tenth of a large check's peak)
        handle = item.handle
        at_path = _moved_to if handle is not None and not handle.in_memory else _at_path
        raw = [at_path(f, item.relpath) for f in result.findings]
    error = item.error or (result.error if result is not None else None)
    not_processed = file_finding(item.relpath, item.status, error)
    if not_processed is not None:
        raw.append(not_processed)
    source = result.source if result is not None else b""
    silenced: list[Finding] = []
    if use_suppressions and source:
        raw.extend(_invalid_suppressions(source, item.relpath))
        outcome = filter_findings(source, item.relpath, raw)
        raw = outcome.kept + outcome.unused
        silenced.extend(outcome.suppressed)
    if selection.is_vendored(item.relpath):
        return [], silenced + raw  # third-party code: counted by the report, not reported
    kept = []
    levels: dict[tuple[str, Severity], str | None] = {}  # the level of each code and severity
    for f in raw:
        known = (f.code, f.severity)
        level = levels[known] if known in levels else levels.setdefault(known, selection.level(f))
        if level is None:
            silenced.append(f)
            continue
        kept.append(replace(f, severity=Severity(level)) if level != f.severity.value else f)
    return kept, silenced


def _moved_to(finding: Finding, relpath: str) -> Finding:
    """`finding` itself at its location at relpath (a finding no one else holds)."""
    location = finding.location
    if location.path != relpath:
        finding.location = Location(
            relpath, location.line, location.column, location.end_line, location.end_column
        )
    return finding


def _at_path(finding: Finding, relpath: str) -> Finding:
    """`replace(finding, location=<its location at relpath>, extra=<a copy>)`, without
    replace()'s cost per field (a report copies every finding of the run)."""
    location = finding.location
    if location.path != relpath:
        location = Location(
            relpath, location.line, location.column, location.end_line, location.end_column
        )
    if type(finding) is not Finding:
        return replace(finding, location=location, extra=dict(finding.extra))
    copy = Finding(*_finding_values(finding))
    copy.location, copy.extra = location, dict(finding.extra)
    return copy


_finding_values = attrgetter(*(f.name for f in fields(Finding)))  # in the constructor's order


def _invalid_suppressions(source: bytes, relpath: str) -> list[Finding]:
    """An inline suppression naming no rule, or with an unclosed `[`, silences nothing (or
    would silence everything): a HIP206 finding each, and the run goes on."""
    from hipport.catalogue import INVALID_SUPPRESSION
    from hipport.suppressions import parse

    if b"hipport:" not in source:
        return []
    out = []
    for s in parse(source, relpath):
        where = f"`hipport: {s.kind}`"
        if s.malformed:
            message = f"invalid suppression {where}: {s.malformed}"
        elif s.unknown:
            names = ", ".join(f"{w!r}{_suggest(w)}" for w in s.unknown)
            message = f"invalid suppression {where}: unknown rule {names}"
        else:
            continue
        out.append(
            Finding(INVALID_SUPPRESSION.code, INVALID_SUPPRESSION.severity, message, s.location)
        )
    return out


@dataclass
class Verdict:
    """What the policy made of a run's findings."""

    reported: list[Finding]  # after every step: what renderers show and the gate counts
    accepted: list[Finding] = field(default_factory=list)  # by the baseline
    silenced: list[Finding] = field(default_factory=list)  # suppressions, select, "off"
    stale: list[StaleEntry] = field(default_factory=list)  # baseline entries no longer hit

    def exit_code(self, fail_on: str) -> int:
        return exit_code(self.reported, fail_on)


# a finding's place in reports: (path, line, column, code)
order = attrgetter("location.path", "location.line", "location.column", "code")


def apply_baseline(
    active: list[Finding],
    baseline: Baseline | None,
    silenced: list[Finding] | None = None,
    checked: Callable[[str], bool] | None = None,
) -> Verdict:
    """Step 5: findings the baseline accepts do not fail; the rest are reported. Only the
    entries of paths the run `checked` can be stale (baseline.compare)."""
    from hipport.baseline import compare

    active = sorted(active, key=order)
    if baseline is None:
        return Verdict(active, [], silenced or [], [])
    comparison = compare(baseline, active, checked)
    return Verdict(
        sorted(comparison.new, key=order),
        sorted(comparison.baselined, key=order),
        silenced or [],
        comparison.stale,
    )


def checked_scope(relpaths: set[str], root: str | Path) -> Callable[[str], bool]:
    """What a run judges of a baseline: the files it checked, and files that are gone (their
    entries are stale whatever was checked); not the other files of the tree."""
    base = Path(root)
    return lambda path: path in relpaths or not os.path.lexists(base / path)


def judge(
    source: Any,
    selection: Selection | None = None,
    baseline: Baseline | None = None,
    use_suppressions: bool = True,
) -> Verdict:
    """Steps 3-5 over a whole run (a RunSummary, whose files the runner already filtered by
    steps 1-2): the verdict `translate --fail-on` gives, the same `check` gives."""
    selection = selection or Selection()
    active: list[Finding] = []
    silenced: list[Finding] = []
    relpaths: set[str] = set()
    for item in inputs_from(source):
        kept, gone = file_findings(item, selection, use_suppressions, item.load_part())
        active.extend(kept)
        silenced.extend(gone)
        relpaths.add(item.relpath)
    root = getattr(source, "root", None) or "."
    return apply_baseline(active, baseline, silenced, checked_scope(relpaths, root))


# --------------------------------------------------------------------------- the verdict


def failing(findings: Iterable[Finding], fail_on: str) -> list[Finding]:
    """Findings at or above `fail_on` (error, warning, note; never: none)."""
    if fail_on == "never":
        return []
    threshold = Severity.parse(fail_on).rank
    return [f for f in findings if f.severity.rank >= threshold]


def exit_code(findings: Iterable[Finding], fail_on: str) -> int:
    """0: the findings pass the gate at `fail_on`; 1: they fail it."""
    return 1 if failing(findings, fail_on) else 0


def fail_level(value: str) -> str:
    """A --fail-on / `fail-on` value, checked (ValueError names the choices)."""
    if value not in FAIL_LEVELS:
        raise ValueError(f"fail-on must be one of {', '.join(FAIL_LEVELS)}, not {value!r}")
    return value
