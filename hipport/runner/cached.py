"""The run's side of the result cache: what keys a result, storing one, and reusing one
(now, or lazily: a Stored handle, when the run needs the result only maybe)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hipport.edits import Edit
from hipport.engine import TranslationResult
from hipport.findings import Finding, Use
from hipport.project import ProjectFile
from hipport.runner.outcome import (
    FileInfo,
    FileKind,
    FileOutcome,
    FileStatus,
    Stored,
    file_info,
    outcome_of,
    set_dead,
)
from hipport.runner.pool import WorkerSetup, WorkItem, process
from hipport.runner.report_part import ReportPart, make_part, part_fields

if TYPE_CHECKING:
    from hipport.cache import Manifest


def options_key(settings: dict[str, Any]) -> str:
    """A digest of everything besides a file's content that decides its result: a change to
    any of it makes every cached result a miss."""
    return hashlib.blake2b(
        json.dumps(settings, sort_keys=True).encode(), digest_size=16
    ).hexdigest()


def mtime_key(path: Path | None) -> str | None:
    """A file that is part of the options (the compilation database), by its mtime."""
    if path is None:
        return None
    try:
        return f"{path}:{path.stat().st_mtime_ns}"
    except OSError:
        return str(path)


def cache_key(f: ProjectFile) -> str:
    """The same file reached from another base directory has another relpath (which its
    result's locations use), so both are part of the key."""
    return f"{os.path.abspath(f.path)}\0{f.relpath}"


def result_key(f: ProjectFile, context: str) -> str:
    """A result's key in the store: the file's, and the context it was made in (a result
    made with other headers is another entry, so a run with the old ones still finds its)."""
    return f"{cache_key(f)}\0{context}"


def _make_result(source: bytes, output: bytes, fields: tuple) -> TranslationResult:
    """A result from a cache entry's fields; TypeError (a miss) when they have the wrong
    shape, as a hand-edited or foreign entry may."""
    path, edits, findings, uses, defined_names, *more = fields
    if not (
        isinstance(path, str)
        and _all(edits, list, Edit)
        and _all(findings, list, Finding)
        and _all(uses, list, Use)
        and _all(defined_names, frozenset, str)
    ):
        raise TypeError("a cached result of the wrong shape")
    result = TranslationResult(path, source, output, edits, findings, uses, defined_names)
    set_dead(result, more)
    return result


def _all(values: object, container: type, item: type) -> bool:
    return isinstance(values, container) and all(isinstance(v, item) for v in values)


def valid_info(info: object) -> bool:
    """A cached result summary of the right shape (else the file is translated again)."""
    return (
        isinstance(info, FileInfo)
        and isinstance(info.changed, bool)
        and isinstance(info.out_size, int)
        and isinstance(info.out_digest, str)
        and _all(info.codes, tuple, tuple)
        and all(len(c) == 3 and isinstance(c[2], int) for c in info.codes)
        and _all(info.renamed, tuple, tuple)
        and all(len(r) == 2 and isinstance(r[1], int) for r in info.renamed)
        and (info.min_rocm is None or type(info.min_rocm).__name__ == "Version")
        and _all(info.deciders, frozenset, str)
        and _all(info.defined_names, frozenset, str)
        and _all(info.numerics, tuple, tuple)
        and all(
            len(u) == 3
            and isinstance(u[0], str)
            and isinstance(u[1], str)
            and isinstance(u[2], int)
            for u in info.numerics
        )
    )


def store(
    manifest: Manifest,
    f: ProjectFile,
    st: os.stat_result,
    result: TranslationResult,
    context: str = "",
) -> tuple[str, FileInfo] | None:
    """One result entry (without the source, and without the output when unchanged) and its
    line in the stat index; returns (digest, info), or None when the cache cannot be written
    (which only costs speed). `context`: the file's header context (run.plan_run)."""
    from hipport.cache import content_hash

    key, stored_as = cache_key(f), result_key(f, context)
    digest = content_hash(result.source)
    out_digest = content_hash(result.output) if result.changed else digest
    fields = (
        result.path,
        result.edits,
        result.findings,
        result.uses,
        result.defined_names,
        (result.skipped_dead, result.dead_macros),
    )
    try:
        manifest.results.store(digest, stored_as, result.source, result.output, fields)
        manifest.results.store_part(digest, stored_as, part_fields(result))
    except OSError:
        manifest.forget(key)
        return None
    info = file_info(result, digest, out_digest)
    manifest.record(key, st, digest, info, context)
    return digest, info


def from_cache(
    manifest: Manifest,
    f: ProjectFile,
    item: WorkItem,
    out_relpath: str,
    setup: WorkerSetup,
    lazy: bool,
    context: str = "",
) -> FileOutcome | None:
    """The cached outcome of an unchanged file, or None (translate it). A lazy outcome
    carries a Stored handle (the summary, and how to load it); otherwise the result is
    loaded now."""
    hit = manifest.check(cache_key(f), f.path, context)
    if hit is None or not valid_info(hit.info):
        return None
    if not lazy:
        key = result_key(f, context)
        result = manifest.results.load(hit.digest, key, f.path, hit.data, _make_result)
        if result is None:
            return None
        return outcome_of(f.path, f.relpath, FileKind(f.kind), out_relpath, result, None, True)
    return lazy_outcome(manifest, f, hit.digest, hit.info, item, out_relpath, setup, True, context)


def lazy_outcome(
    manifest: Manifest,
    f: ProjectFile,
    digest: str,
    info: FileInfo,
    item: WorkItem,
    out_relpath: str,
    setup: WorkerSetup,
    cached: bool = True,
    context: str = "",
) -> FileOutcome:  # a Path
    """An outcome whose result stays in the cache until something asks for it."""
    key, results = result_key(f, context), manifest.results

    def load_or_translate() -> TranslationResult | None:
        result = results.load(digest, key, f.path, None, _make_result)
        if result is None:  # the entry went missing, or the file changed since the check
            result = process(item, setup).result
        return result

    def load_part() -> ReportPart | TranslationResult | None:
        part = results.load_part(digest, key, f.path, make_part)
        if part is not None:
            return part
        result = results.load(digest, key, f.path, None, _make_result)
        if result is None:
            return process(item, setup).result
        try:  # an entry an older run stored without its part: the next run reads the part
            results.store_part(digest, key, part_fields(result))
        except OSError:
            pass
        return result

    return FileOutcome(
        f.path,
        f.relpath,
        FileKind(f.kind),
        FileStatus.CHANGED if info.changed else FileStatus.UNCHANGED,
        Stored(info, load_or_translate, None, load_part),
        None,
        out_relpath,
        cached,
    )
