"""What a run produced, per file and in total: the data the renderers read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from hipport.catalogue import UNKNOWN, UNMAPPED_INCLUDE
from hipport.engine import TranslationResult
from hipport.findings import SKIPPED_PREFIX, Finding, Use, file_finding
from hipport.mappings import load_mappings
from hipport.report.numerics import FormatChange, format_changes, numeric_uses
from hipport.rocm_minimum import oldest_rocm, rocm_needs
from hipport.tables import Status
from hipport.target import Target, Version

UNKNOWN_CODE = UNKNOWN.code
UNMAPPED_INCLUDE_CODE = UNMAPPED_INCLUDE.code
# findings whose api the project-wide filters read (a name the project defines, a header
# the project ships): a cached summary keeps it for these codes
API_KEYED_CODES = frozenset({UNKNOWN_CODE, UNMAPPED_INCLUDE_CODE})


class FileKind(StrEnum):
    """What a discovered file is (a StrEnum: it compares and prints as its value)."""

    SOURCE = "source"
    HIP = "hip"
    CMAKE = "cmake"
    OTHER = "other"  # not translated; copied as it is with -o


class FileStatus(StrEnum):
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    FAILED = "failed"
    SKIPPED = "skipped"
    COPIED = "copied"


@dataclass(frozen=True)
class Stored:
    """A result the run left out of memory, in the cache or spilled (--no-cache): its
    summary, and how to read it back: whole, its output alone, or what the report reads
    of it (hipport.runner.report_part). Each read loads anew; nothing is kept."""

    info: FileInfo
    load: Callable[[], TranslationResult | None]
    output: Callable[[], bytes] | None = None  # None: the loaded result's output
    part: Callable[[], object] | None = None  # None: the loaded result

    def read_output(self) -> bytes | None:
        if self.output is not None:
            return self.output()
        loaded = self.load()
        return loaded.output if loaded is not None else None

    def read_part(self) -> object:
        return self.part() if self.part is not None else self.load()


@dataclass
class FileOutcome:
    """One file of a run: what it is, what became of it, and its result: in memory
    (`result`), left in the cache or spilled (`stored`), or none (failed, skipped, copied)."""

    path: Path
    relpath: str
    kind: FileKind
    status: FileStatus
    result: TranslationResult | None = None
    error: str | None = None
    out_relpath: str | None = None  # after suffix renames
    cached: bool = False
    stored: Stored | None = None
    codes: Counter[str] | None = None  # a stored result's finding codes, project-filtered

    @property
    def info(self) -> FileInfo | None:
        """The summary of a stored result (what the run's counts read without loading it)."""
        return self.stored.info if self.stored is not None else None

    def output_bytes(self) -> bytes | None:
        """The translated text, loading (not keeping) a result the run left on disk."""
        if self.result is not None:
            return self.result.output
        return self.stored.read_output() if self.stored is not None else None


@dataclass(frozen=True, slots=True)
class FileInfo:
    """What the run summary needs of a cached result, kept in the cache's stat index so a
    warm run reports honest counts without loading any result."""

    changed: bool
    out_size: int
    out_digest: str
    codes: tuple[tuple[str, str | None, int], ...]  # (code, api if API_KEYED_CODES, count)
    renamed: tuple[tuple[str, int], ...]  # family -> renamed uses
    min_rocm: Version | None
    deciders: frozenset[str]
    defined_names: frozenset[str]
    # the translated uses of CUDA's numeric type names: (CUDA name, output name, uses), so a
    # warm run says which number formats the translation kept or changed (report.numerics)
    numerics: tuple[tuple[str, str, int], ...] = ()


def set_dead(result: TranslationResult, more: list) -> None:
    """The findings the engine skipped as dead (a stored result's sixth field; an older
    entry has none)."""
    if more and isinstance(more[0], tuple) and len(more[0]) == 2:
        skipped, macros = more[0]
        if (
            isinstance(skipped, int)
            and isinstance(macros, tuple)
            and all(isinstance(m, str) for m in macros)
        ):
            result.skipped_dead, result.dead_macros = skipped, macros


def _renamed_uses(uses: Iterable[Use]) -> Iterator[str]:
    """The family of each use the translation renamed."""
    for use in uses:
        if use.status is Status.MAPPED and use.new_name and use.new_name != use.api:
            yield use.family or "other"


def file_info(result: TranslationResult, digest: str, out_digest: str) -> FileInfo:
    codes = Counter((f.code, f.api if f.code in API_KEYED_CODES else None) for f in result.findings)
    best, deciders = oldest_rocm(rocm_needs(result.uses))
    return FileInfo(
        result.changed,
        len(result.output),
        out_digest,
        tuple((c, a, n) for (c, a), n in sorted(codes.items(), key=str)),
        tuple(sorted(Counter(_renamed_uses(result.uses)).items())),
        best,
        deciders,
        result.defined_names,
        numeric_uses(result.uses, load_mappings().numeric_types),
    )


@dataclass
class RunSummary:
    root: Path
    base: Path
    target: Target
    files: list[FileOutcome]
    elapsed: float = 0.0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    project_names: frozenset[str] = frozenset()
    excluded: dict[str, int] = field(default_factory=dict)  # Discovery.excluded

    @property
    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for f in self.files:
            if f.result is not None:
                out.extend(f.result.findings)
            else:
                not_processed = file_finding(f.relpath, f.status, f.error)
                if not_processed is not None:
                    out.append(not_processed)
        return out

    def counts(self) -> Counter[str]:
        return Counter(f.status for f in self.files if f.kind != FileKind.OTHER)

    def cached_count(self) -> int:
        """Sources whose result came from the cache (they are also changed or unchanged)."""
        return sum(1 for f in self.files if f.kind != FileKind.OTHER and f.cached)

    def stats(self) -> dict:
        """The summary as plain data (for --stats-json and tests)."""
        counts = self.counts()
        rocm, deciders = self.min_rocm()
        return {
            "scanned": sum(counts.values()),
            "changed": counts.get("changed", 0),
            "unchanged": counts.get("unchanged", 0),
            "failed": counts.get("failed", 0),
            "skipped": counts.get("skipped", 0),
            "cached": self.cached_count(),
            "copied": sum(
                1 for f in self.files if f.kind == FileKind.OTHER and f.status == FileStatus.COPIED
            ),
            "renamed_files": {
                f.relpath: f.out_relpath
                for f in self.files
                if f.out_relpath and f.out_relpath != f.relpath
            },
            "renamed_per_family": dict(sorted(self.renamed_per_family().items())),
            "findings_per_code": dict(sorted(self.findings_per_code().items())),
            "numeric_formats": [c.to_dict() for c in self.format_changes()],
            "min_rocm": str(rocm) if rocm is not None else None,
            "min_rocm_decided_by": deciders,
            "files": {f.relpath: str(f.status) for f in self.files if f.kind != FileKind.OTHER},
            "not_processed": [{"path": rel, "reason": why} for rel, why in self.skipped],
            **({"excluded_by_default": dict(self.excluded)} if self.excluded else {}),
            "elapsed": round(self.elapsed, 3),
        }

    def renamed_per_family(self) -> Counter[str]:
        counter: Counter[str] = Counter()
        for f in self.files:
            if f.result is not None:
                counter.update(_renamed_uses(f.result.uses))
            elif f.info is not None:
                counter.update(dict(f.info.renamed))
        return counter

    def format_changes(self) -> list[FormatChange]:
        """The number formats the translation kept or changed (fp8, bf16, fp16 types)."""
        types = load_mappings().numeric_types
        uses: list[tuple[str, str, int]] = []
        for f in self.files:
            if f.result is not None:
                uses.extend(numeric_uses(f.result.uses, types))
            elif f.info is not None:
                uses.extend(f.info.numerics)
        return format_changes(uses, types)

    def findings_per_code(self) -> Counter[str]:
        counter: Counter[str] = Counter()
        for f in self.files:
            if f.result is not None:
                counter.update(x.code for x in f.result.findings)
            elif f.codes is not None:
                counter.update(f.codes)
            else:
                not_processed = file_finding(f.relpath, f.status, f.error)
                if not_processed is not None:
                    counter[not_processed.code] += 1
        return counter

    def min_rocm(self) -> tuple[Version | None, list[str]]:
        """The oldest ROCm that has every HIP API the code uses, and the APIs that decide it."""
        best, deciders = oldest_rocm(self._rocm_needs())
        return best, sorted(deciders)

    def _rocm_needs(self) -> Iterator[tuple[Version, str]]:
        for f in self.files:
            if f.result is not None:
                yield from rocm_needs(f.result.uses)
            elif f.info is not None and f.info.min_rocm is not None:
                yield from ((f.info.min_rocm, api) for api in f.info.deciders)


def outcome_of(
    path: Path,
    relpath: str,
    kind: FileKind,
    out_relpath: str,
    result: TranslationResult | None,
    error: str | None,
    cached: bool = False,
) -> FileOutcome:  # a Path
    """The outcome of one file: translated, failed, or skipped (`error` says why)."""
    if error is not None:
        status = FileStatus.SKIPPED if error.startswith(SKIPPED_PREFIX) else FileStatus.FAILED
        return FileOutcome(path, relpath, kind, status, None, error, out_relpath)
    assert result is not None
    if result.error:
        return FileOutcome(
            path, relpath, kind, FileStatus.FAILED, result, result.error, out_relpath, cached
        )
    status = FileStatus.CHANGED if result.changed else FileStatus.UNCHANGED
    return FileOutcome(path, relpath, kind, status, result, None, out_relpath, cached)
