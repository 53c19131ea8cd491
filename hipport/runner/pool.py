"""Translating files in a pool of forked worker processes.

The parent builds one `WorkItem` per file and gets one `WorkResult` back. What every file
shares (the target, the base engine options) travels once, as a `WorkerSetup` given to each
worker's initializer; the parent itself keeps no module state. A worker that dies (libclang
crashed on a file) breaks the pool: the unfinished files are retried one process each, so
the one that crashes again is reported and the rest go on.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hipport.engine import TranslationResult, translate_source
from hipport.findings import SKIPPED_PREFIX
from hipport.fsio import SkipFile, read_source
from hipport.options import EngineOptions
from hipport.project import skip_reason
from hipport.runner.outcome import FileKind
from hipport.target import Target


@dataclass(frozen=True, slots=True)
class WorkerSetup:
    """What every file of a run shares: sent once to each worker, not with every item."""

    target: Target
    options: EngineOptions


@dataclass(frozen=True, slots=True)
class WorkItem:
    """One file to translate. `options` is None when the run's base options apply."""

    path: str
    relpath: str
    kind: FileKind
    options: EngineOptions | None
    max_size: int


@dataclass(frozen=True, slots=True)
class WorkResult:
    """What a worker returns for one file: a result, or the reason there is none; `stat`
    is the file's stat taken before it was read (what the cache records)."""

    relpath: str
    result: TranslationResult | None = None
    error: str | None = None
    stat: os.stat_result | None = None


def translate_one(
    data: bytes, relpath: str, kind: str, options: EngineOptions | None, target: Target
) -> TranslationResult:
    if kind == FileKind.CMAKE:
        from hipport.cmake import translate_cmake

        cm = translate_cmake(data, relpath)
        return TranslationResult(relpath, data, cm.output, cm.edits, cm.findings)
    return translate_source(data, relpath, target, options)


def process(item: WorkItem, setup: WorkerSetup) -> WorkResult:
    """Read and translate one file; every failure is a WorkResult, never an exception."""
    crash_on = os.environ.get("HIPPORT_TEST_CRASH_ON")
    if crash_on and crash_on in item.relpath:
        # TEST-ONLY hook (tests/test_reliability_crash.py): die as libclang does when it
        # crashes on a file, to prove the pool isolates it. Never set it in real use.
        os.abort()
    try:
        st = os.stat(item.path)
        data = read_source(Path(item.path), item.max_size)
    except SkipFile as exc:
        return WorkResult(item.relpath, error=f"{SKIPPED_PREFIX}{exc}")
    except OSError as exc:
        return WorkResult(item.relpath, error=skip_reason(exc))
    options = item.options or setup.options
    try:
        result = translate_one(data, item.relpath, item.kind, options, setup.target)
    except Exception as exc:  # noqa: BLE001 - a bug on one file must not end the whole run
        error = f"internal error on this file: {type(exc).__name__}: {exc}"
        return WorkResult(item.relpath, error=error)
    return WorkResult(item.relpath, result, None, st)


# The setup a worker process was started with: set by the initializer in the worker only.
_worker_setup: WorkerSetup | None = None


def _init_worker(setup: WorkerSetup) -> None:
    global _worker_setup
    _worker_setup = setup
    from hipport.tables import load_tables

    load_tables()


def _process_in_worker(item: WorkItem) -> WorkResult:
    assert _worker_setup is not None, "a pool worker runs after its initializer"
    return process(item, _worker_setup)


def execute(todo: list[WorkItem], jobs: int, setup: WorkerSetup) -> Iterator[WorkResult]:
    """Translate `todo` with `jobs` workers (0: all cores), yielding results as they come."""
    if not todo:
        return
    if len(todo) == 1 and not _isolate():
        # one file (the pre-commit hook): forking a pool would cost more than the file
        yield process(todo[0], setup)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    jobs = jobs or os.cpu_count() or 1
    ctx = multiprocessing.get_context("fork")
    pending = {item.relpath: item for item in todo}
    chunk = max(1, min(32, len(todo) // (jobs * 4) or 1))
    try:
        with ProcessPoolExecutor(
            jobs, mp_context=ctx, initializer=_init_worker, initargs=(setup,)
        ) as pool:
            for result in pool.map(_process_in_worker, todo, chunksize=chunk):
                pending.pop(result.relpath, None)
                yield result
    except BrokenProcessPool:
        for relpath, item in list(pending.items()):
            yield _isolated(item, ctx, setup)
            pending.pop(relpath, None)


def execute_serially(todo: list[WorkItem], jobs: int, setup: WorkerSetup) -> Iterator[WorkResult]:
    """`execute` in this process, one file after another (for profiling)."""
    for item in todo:
        yield process(item, setup)


def _isolate() -> bool:
    return os.environ.get("HIPPORT_ISOLATE", "") == "1"


def _isolated(item: WorkItem, ctx, setup: WorkerSetup) -> WorkResult:  # noqa: ANN001
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(
            1, mp_context=ctx, initializer=_init_worker, initargs=(setup,)
        ) as pool:
            return pool.submit(_process_in_worker, item).result()
    except BrokenProcessPool:
        error = "the parser crashed on this file (isolated; the run went on)"
        return WorkResult(item.relpath, error=error)
