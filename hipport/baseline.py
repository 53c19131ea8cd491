"""The baseline: findings a team has accepted for now, so `check` fails only on new ones.

`.hipport-baseline.json` counts findings per (file, rule code, API) instead of storing line
numbers, so edits elsewhere in a file keep it valid. A key found more often than it was
counted has new findings (the ones past the count, in file order); a key found less often
than counted is stale: the work was done, and the entry should shrink (`hipport baseline
--prune` shrinks it, accepting nothing new; `hipport baseline` rewrites it). A run over some
files (named files, the pre-commit hook, standard input) judges only their entries.

    {"schema_version": 1, "tool": "hipport",
     "entries": [{"path": "src/a.cu", "code": "HIP001", "api": "cudaFoo", "count": 2}, ...]}
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hipport.findings import Finding

BASELINE_NAME = ".hipport-baseline.json"
SCHEMA_VERSION = 1

Key = tuple[str, str, str]  # (path, code, api or "")


class BaselineError(ValueError):
    """The baseline file cannot be read."""


def key_of(finding: Finding) -> Key:
    return (finding.location.path, finding.code, finding.api or "")


@dataclass(frozen=True)
class StaleEntry:
    path: str
    code: str
    api: str
    baselined: int  # the count in the baseline
    found: int  # how many the code has now (fewer)

    def to_dict(self) -> dict[str, str | int]:
        return dict(self.__dict__)


@dataclass
class Baseline:
    counts: Counter[Key] = field(default_factory=Counter)
    path: Path | None = None  # where it was loaded from

    @classmethod
    def from_findings(cls, findings: list[Finding]) -> Baseline:
        return cls(Counter(key_of(f) for f in findings))

    def to_dict(self) -> dict:
        entries = [
            {"path": p, "code": c, "api": a, "count": n}
            for (p, c, a), n in sorted(self.counts.items())
            if n > 0
        ]
        return {"schema_version": SCHEMA_VERSION, "tool": "hipport", "entries": entries}

    def write(self, path: Path) -> None:
        """Write atomically: a half-written baseline would fail every later run."""
        from hipport.fsio import atomic_write

        text = json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"
        atomic_write(path, text.encode("utf-8"))

    @classmethod
    def load(cls, path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:  # nested past the parser's depth
            raise BaselineError(f"cannot read baseline {path}: {exc}") from None
        if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
            raise BaselineError(f"{path} is not a hipport baseline (no 'entries' list)")
        version = data.get("schema_version", SCHEMA_VERSION)
        if isinstance(version, bool) or not isinstance(version, int | float):
            raise BaselineError(f"{path}: schema_version must be a number, not {version!r}")
        if version > SCHEMA_VERSION:
            raise BaselineError(
                f"{path} was written by a newer hipport (schema_version {data['schema_version']})"
            )
        counts: Counter[Key] = Counter()
        for entry in data["entries"]:
            try:
                counts[(str(entry["path"]), str(entry["code"]), str(entry.get("api") or ""))] += (
                    int(entry.get("count", 1))
                )
            except (KeyError, TypeError, ValueError, OverflowError):  # OverflowError: 1e309
                shown = repr(entry) if len(repr(entry)) <= 200 else repr(entry)[:197] + "..."
                raise BaselineError(f"{path}: bad entry {shown}") from None
        return cls(counts, path)


@dataclass
class Comparison:
    new: list[Finding] = field(default_factory=list)
    baselined: list[Finding] = field(default_factory=list)
    stale: list[StaleEntry] = field(default_factory=list)


def compare(
    baseline: Baseline, findings: list[Finding], checked: Callable[[str], bool] | None = None
) -> Comparison:
    """Which findings the baseline accepts, which are new, and which entries are stale.
    `checked(path)` says whether the run looked at `path` (root-relative): a run over some
    files says nothing of the others' entries, so only entries it checked can be stale
    (default: every path)."""
    out = Comparison()
    seen: Counter[Key] = Counter()
    ordered = sorted(
        findings, key=lambda f: (f.location.path, f.location.line, f.location.column, f.code)
    )
    for finding in ordered:
        key = key_of(finding)
        seen[key] += 1
        if seen[key] <= baseline.counts.get(key, 0):
            out.baselined.append(finding)
        else:
            out.new.append(finding)
    for key, count in sorted(baseline.counts.items()):
        if seen[key] < count and (checked is None or checked(key[0])):
            out.stale.append(StaleEntry(*key, baselined=count, found=seen[key]))
    return out


def pruned(baseline: Baseline, stale: list[StaleEntry]) -> Baseline:
    """`baseline` without what its stale entries no longer find (an entry found fewer times
    keeps the count found; one found no more goes): nothing new is accepted."""
    counts = dict(baseline.counts)
    for entry in stale:
        key = (entry.path, entry.code, entry.api)
        if entry.found:
            counts[key] = entry.found
        else:
            del counts[key]
    return Baseline(Counter(counts), baseline.path)


def find_baseline(cwd: Path, root: Path | None) -> Path | None:
    """`.hipport-baseline.json` in the current directory, else in the project root."""
    for directory in (cwd, root):
        if directory is not None and (directory / BASELINE_NAME).is_file():
            return directory / BASELINE_NAME
    return None
