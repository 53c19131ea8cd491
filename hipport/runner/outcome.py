"""What a run produced, per file and in total: the data the renderers read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from hipport.catalogue import UNKNOWN, UNMAPPED_INCLUDE
from hipport.engine import TranslationResult
from hipport.findings import SKIPPED_PREFIX, Use, file_finding
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


# (code, api) -> whether the project makes such a finding moot (hipport.policy._Moot)
Moot = Callable[[str, "str | None"], bool]


class ResultHandle:
    """A file's result, however the run keeps it: in memory (`InMemory`), or left in the
    cache or spilled to a temporary file (`Stored`). Every reader goes through this one
    interface: the whole result (`load`), its output alone (`read_output`), what the
    report reads of it (`read_part`), and the summary figures the run's counts need,
    which a stored result answers from its FileInfo without loading anything."""

    in_memory: bool  # reading costs nothing (else every read loads anew, nothing kept)

    @property
    def changed(self) -> bool:
        raise NotImplementedError

    def load(self) -> TranslationResult | None:
        """The whole result (None: a stored one that could not be read back)."""
        raise NotImplementedError

    def read_output(self) -> bytes | None:
        """The translated bytes alone."""
        raise NotImplementedError

    def read_part(self) -> object:
        """What the report reads: a ReportPart (hipport.runner.report_part) or the result."""
        raise NotImplementedError

    def source_if_in_memory(self) -> bytes | None:
        """The source bytes the run read, when they cost nothing to get (else None)."""
        return None

    def output_summary(self) -> tuple[int, str] | None:
        """The output's size and digest when known without reading it (else None)."""
        return None

    def defined_names(self) -> frozenset[str]:
        raise NotImplementedError

    def keyed_codes(self) -> Iterator[tuple[str, str | None]]:
        """Each finding kind as the project-wide filters read it: (code, api for
        API_KEYED_CODES else None)."""
        raise NotImplementedError

    def codes(self) -> Counter[str]:
        """The findings per code (after the project filters, once they are applied)."""
        raise NotImplementedError

    def renamed(self) -> Counter[str]:
        """The uses the translation renamed, per family."""
        raise NotImplementedError

    def numerics(self, types: object) -> Iterable[tuple[str, str, int]]:
        """The translated uses of CUDA's numeric types (report.numerics.numeric_uses)."""
        raise NotImplementedError

    def min_rocm(self) -> tuple[Version | None, frozenset[str]]:
        """The oldest ROCm that has every HIP API the file uses, and the APIs that
        decide it (hipport.rocm_minimum.oldest_rocm)."""
        raise NotImplementedError

    def filtered(
        self, moot: Moot, keep: Callable[[TranslationResult], TranslationResult]
    ) -> ResultHandle:
        """This result without the findings the project makes moot: `keep` filters a
        result (or a report part), `moot` a finding kind."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class InMemory(ResultHandle):
    """A result the run holds."""

    result: TranslationResult
    in_memory = True

    @property
    def changed(self) -> bool:
        return self.result.changed

    def load(self) -> TranslationResult:
        return self.result

    def read_output(self) -> bytes:
        return self.result.output

    def read_part(self) -> TranslationResult:
        return self.result

    def source_if_in_memory(self) -> bytes:
        return self.result.source

    def defined_names(self) -> frozenset[str]:
        return self.result.defined_names

    def keyed_codes(self) -> Iterator[tuple[str, str | None]]:
        for f in self.result.findings:
            yield f.code, (f.api if f.code in API_KEYED_CODES else None)

    def codes(self) -> Counter[str]:
        return Counter(f.code for f in self.result.findings)

    def renamed(self) -> Counter[str]:
        return Counter(_renamed_uses(self.result.uses))

    def numerics(self, types: object) -> Iterable[tuple[str, str, int]]:
        return numeric_uses(self.result.uses, types)

    def min_rocm(self) -> tuple[Version | None, frozenset[str]]:
        return oldest_rocm(rocm_needs(self.result.uses))

    def filtered(
        self, moot: Moot, keep: Callable[[TranslationResult], TranslationResult]
    ) -> InMemory:
        kept = keep(self.result)
        return self if kept is self.result else InMemory(kept)


@dataclass(frozen=True)
class Stored(ResultHandle):
    """A result the run left out of memory, in the cache or spilled (--no-cache): its
    summary, and how to read it back: whole, its output alone, or what the report reads
    of it (hipport.runner.report_part). Each read loads anew; nothing is kept."""

    info: FileInfo
    loader: Callable[[], TranslationResult | None]
    output: Callable[[], bytes] | None = None  # None: the loaded result's output
    part: Callable[[], object] | None = None  # None: the loaded result
    moot: Moot | None = None  # the finding kinds the project filters drop
    in_memory = False

    @property
    def changed(self) -> bool:
        return self.info.changed

    def load(self) -> TranslationResult | None:
        return self.loader()

    def read_output(self) -> bytes | None:
        if self.output is not None:
            return self.output()
        loaded = self.loader()
        return loaded.output if loaded is not None else None

    def read_part(self) -> object:
        return self.part() if self.part is not None else self.loader()

    def output_summary(self) -> tuple[int, str]:
        return self.info.out_size, self.info.out_digest

    def defined_names(self) -> frozenset[str]:
        return self.info.defined_names

    def keyed_codes(self) -> Iterator[tuple[str, str | None]]:
        for code, api, _ in self.info.codes:
            if self.moot is None or not self.moot(code, api):
                yield code, api

    def codes(self) -> Counter[str]:
        counter: Counter[str] = Counter()
        for code, api, n in self.info.codes:
            if self.moot is None or not self.moot(code, api):
                counter[code] += n
        return counter

    def renamed(self) -> Counter[str]:
        return Counter(dict(self.info.renamed))

    def numerics(self, types: object) -> Iterable[tuple[str, str, int]]:
        return self.info.numerics

    def min_rocm(self) -> tuple[Version | None, frozenset[str]]:
        return self.info.min_rocm, self.info.deciders

    def filtered(
        self, moot: Moot, keep: Callable[[TranslationResult], TranslationResult]
    ) -> Stored:
        before = self.moot
        both = moot if before is None else (lambda c, a: before(c, a) or moot(c, a))
        return replace(
            self,
            loader=_keeping(self.loader, keep),
            part=_keeping(self.part, keep) if self.part is not None else None,
            moot=both,
        )


def _keeping(
    loader: Callable[[], Any], keep: Callable[[TranslationResult], TranslationResult]
) -> Callable[[], Any]:
    def load() -> Any:
        loaded = loader()
        return keep(loaded) if loaded is not None else None

    return load


@dataclass
class FileOutcome:
    """One file of a run: what it is, what became of it, and its result (`handle`: in
    memory, in the cache or spilled; None when it failed before one, was skipped or copied)."""

    path: Path
    relpath: str
    kind: FileKind
    status: FileStatus
    handle: ResultHandle | None = None
    error: str | None = None
    out_relpath: str | None = None  # after suffix renames
    cached: bool = False

    def output_bytes(self) -> bytes | None:
        """The translated text (a stored result's read anew, not kept)."""
        return self.handle.read_output() if self.handle is not None else None


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
            if f.handle is not None:
                counter.update(f.handle.renamed())
        return counter

    def format_changes(self) -> list[FormatChange]:
        """The number formats the translation kept or changed (fp8, bf16, fp16 types)."""
        types = load_mappings().numeric_types
        uses: list[tuple[str, str, int]] = []
        for f in self.files:
            if f.handle is not None:
                uses.extend(f.handle.numerics(types))
        return format_changes(uses, types)

    def findings_per_code(self) -> Counter[str]:
        counter: Counter[str] = Counter()
        for f in self.files:
            if f.handle is not None:
                counter.update(f.handle.codes())
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
            if f.handle is not None:
                best, deciders = f.handle.min_rocm()
                if best is not None:
                    yield from ((best, api) for api in deciders)


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
            path,
            relpath,
            kind,
            FileStatus.FAILED,
            InMemory(result),
            result.error,
            out_relpath,
            cached,
        )
    status = FileStatus.CHANGED if result.changed else FileStatus.UNCHANGED
    return FileOutcome(path, relpath, kind, status, InMemory(result), None, out_relpath, cached)
