"""One run over many files: discover, reuse what the cache knows, translate the rest in
the pool, and summarise. `run_paths` is what the translate and check commands call."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import hipport.runner.cached as cached
import hipport.runner.pool as pool
from hipport.config import Config
from hipport.findings import SKIPPED_PREFIX
from hipport.options import EngineOptions
from hipport.policy import apply_project_filters
from hipport.preprocess import ProjectHeaders, macro_flags
from hipport.project import (
    EmptyRun,
    ProjectFile,
    classify,
    remove_stale_temps,
    stale_temps_kept,
)
from hipport.runner.compile_db import load_compile_commands
from hipport.runner.discovery import Found, discover_files
from hipport.runner.options import RunOptions
from hipport.runner.outcome import FileKind, FileOutcome, FileStatus, RunSummary, outcome_of
from hipport.runner.per_path import per_file_options
from hipport.runner.pool import WorkerSetup, WorkItem
from hipport.runner.project_facts import derive
from hipport.runner.project_macros import scan_files
from hipport.runner.project_names import project_index, shipped_headers
from hipport.runner.renames import follow_renames_in_cmake, include_renames, output_relpath
from hipport.runner.spill import Spill, spilled_outcome

if TYPE_CHECKING:
    from hipport.cache import Manifest


def options_key(opts: RunOptions, config: Config) -> str:
    """Everything besides a file's content and its header context (what it can reach of
    the project's other files and their names: project_macros.header_contexts) that
    decides its result: a change to any of it makes every cached result a miss."""
    return cached.options_key(
        {
            "max_file_size": opts.max_file_size,
            "target": opts.target.key(),
            "semantic": opts.semantic,
            "cuda_path": opts.cuda_path,
            "renames": config.renames,
            "disabled": sorted(config.disabled_mappings),
            "per_path": config.per_path_ignore,
            "rename_suffix": opts.rename_suffix,
            "compile_commands": cached.mtime_key(opts.compile_commands),
            "defines": list(opts.defines),
        }
    )


def _engine_options(
    opts: RunOptions,
    config: Config,
    renames: dict[str, str],
    headers: ProjectHeaders | None = None,
) -> EngineOptions:
    return EngineOptions(
        headers=headers,
        user_renames=config.renames,
        disabled_mappings=config.disabled_mappings,
        include_renames=renames,
        semantic=opts.semantic,
        cuda_path=opts.cuda_path,
        defines=opts.defines,
    )


def run_paths(
    paths: list[Path],
    config: Config,
    opts: RunOptions,
    on_progress: Callable[[int, int], None] | None = None,
    found: Found | None = None,
) -> RunSummary:
    """One run, in four phases: discover (read only) -> plan (per-file work, cache hits)
    -> execute (the per-file pipeline, in the pool or this process) -> finalize (the
    project-wide filters, the summary). A source given by content (`opts.given`, standard
    input) takes the same four phases as a file named on the command line. `found`: what
    discover_files found already (check keys its run summary by it)."""
    start = time.perf_counter()
    if found is None:
        found = discover_files(paths, config, opts)
    if opts.clean_stale_temps:  # a writing run's job, never discovery's
        found.discovery.skipped.extend(remove_stale_temps(found.discovery.stale_temps))
    else:
        found.discovery.skipped.extend(stale_temps_kept(found.discovery.stale_temps))
    plan = plan_run(found, config, opts)
    execute(plan, opts, on_progress)
    return finalize(paths, found, plan, config, opts, start)


@dataclass
class Plan:
    """What execute needs: the shared setup, a WorkItem per file to translate (`todo`),
    the outcomes known already (cache hits), and where results go (cache, spill)."""

    setup: WorkerSetup
    todo: list[WorkItem]
    outcomes: dict[str, FileOutcome]
    by_rel: dict[str, ProjectFile]
    out_rel: dict[str, str]
    manifest: Manifest | None
    spill: Spill | None
    lazy: bool
    contexts: dict[str, str]  # relpath -> the file's header context (its cache key's part)


def plan_run(found: Found, config: Config, opts: RunOptions) -> Plan:
    """One WorkItem per file to translate, with its own engine options; a file the cache
    knows unchanged gets its outcome now."""
    from hipport import cache as cache_mod
    from hipport.mappings import load_mappings

    work = found.work
    renames = include_renames(work, opts.rename_suffix)
    compile_db = load_compile_commands(opts.compile_commands, config.root)
    # the directive scans earlier runs kept: an unchanged file is not read for them again
    cached_run = opts.use_cache and not opts.index_only_cached and opts.given is None
    remembered = cache_mod.load_scans(config.root) if cached_run else None
    scans = scan_files(work, opts.max_file_size, remembered)
    if remembered is not None and scans.changed:
        try:
            cache_mod.save_scans(config.root, remembered)
        except OSError:
            pass  # a read-only cache only costs speed
    flags = [*opts.defines, *(f for args in compile_db.values() for f in macro_flags(args))]
    # the never-compiled headers, HIP names and header contexts: remembered by what they
    # are derived from, so a warm run walks no file's #if arms when no directive changed
    facts = derive(
        config.root,
        found.discovery.base,
        scans,
        opts.target,
        opts.defines,
        compile_db,
        opts.max_file_size,
        renames,
        flags,
        cached_run,
    )
    headers = facts.headers
    manifest = None
    contexts: dict[str, str] = {}
    # A run on a few named files (the pre-commit hook) reads only those files and the
    # project index: loading and rewriting the whole tree's result manifest would cost
    # more than translating the files themselves. A given source is never cached: its
    # bytes are not the file's.
    if opts.use_cache:
        from hipport.cache_admin import note_used

        note_used(cache_mod.cache_dir())
    if cached_run:
        manifest = cache_mod.open_manifest(
            config.root,
            options_key(opts, config),
            load_mappings().digest,
        )
        contexts = facts.contexts
    outcomes: dict[str, FileOutcome] = {}
    todo: list[WorkItem] = []
    lazy = (not opts.need_results or opts.stream_results) and not opts.rename_suffix
    # no cache to stream results from: the workers pack them and the parent spills them
    spill = Spill() if lazy and not opts.use_cache else None
    setup = WorkerSetup(
        opts.target, _engine_options(opts, config, renames, headers), packed=spill is not None
    )
    out_rel = {f.relpath: output_relpath(f.relpath, f.kind, opts.rename_suffix) for f in work}
    given = opts.given.data if opts.given is not None else None
    for f in work:
        per_file = per_file_options(setup.options, f, config, compile_db)
        item = WorkItem(
            str(f.path), f.relpath, FileKind(f.kind), per_file, opts.max_file_size, given
        )
        outcome = None
        if manifest is not None:
            context = contexts.get(f.relpath, "")
            outcome = cached.from_cache(manifest, f, item, out_rel[f.relpath], setup, lazy, context)
        if outcome is not None:
            outcomes[f.relpath] = outcome
            continue
        todo.append(item)
    by_rel = {f.relpath: f for f in work}
    return Plan(setup, todo, outcomes, by_rel, out_rel, manifest, spill, lazy, contexts)


def execute(
    plan: Plan, opts: RunOptions, on_progress: Callable[[int, int], None] | None = None
) -> None:
    """Run the per-file pipeline (hipport.runner.pool.process) on every planned item, in
    the pool or in this process, and keep each result: in memory, in the cache or spilled."""
    outcomes, out_rel, manifest, spill = plan.outcomes, plan.out_rel, plan.manifest, plan.spill
    items = {item.relpath: item for item in plan.todo}
    done = len(outcomes)
    total = len(plan.by_rel)
    if on_progress:
        on_progress(done, total)
    for done_item in pool.execute(plan.todo, opts.jobs, plan.setup, opts.time_limit):
        relpath, result = done_item.relpath, done_item.result
        f = plan.by_rel[relpath]
        done += 1
        if on_progress:
            on_progress(done, total)
        if done_item.packed is not None and spill is not None:
            spilled = spill.keep(done_item.packed)
            outcomes[relpath] = spilled_outcome(
                f.path, relpath, FileKind(f.kind), out_rel[relpath], spilled, done_item.packed.info
            )
            continue
        outcome = outcome_of(
            f.path, relpath, FileKind(f.kind), out_rel[relpath], result, done_item.error
        )
        if (
            manifest is not None
            and result is not None
            and done_item.stat is not None
            and not done_item.error
            and not result.error
        ):
            context = plan.contexts.get(relpath, "")
            stored = cached.store(manifest, f, done_item.stat, result, context)
            if stored is not None and plan.lazy and opts.stream_results:
                digest, info = stored
                item = items[relpath]
                outcome = cached.lazy_outcome(
                    manifest, f, digest, info, item, out_rel[relpath], plan.setup, False, context
                )
        outcomes[relpath] = outcome


def finalize(
    paths: list[Path], found: Found, plan: Plan, config: Config, opts: RunOptions, start: float
) -> RunSummary:
    """The run's files in order, with what the project as a whole makes moot filtered
    out (names it defines, headers it ships, per-path ignores), and the summary."""
    outcomes, discovery = plan.outcomes, found.discovery
    for f in found.files:
        if f.kind == FileKind.OTHER:
            outcomes[f.relpath] = FileOutcome(
                f.path, f.relpath, FileKind.OTHER, FileStatus.COPIED, out_relpath=f.relpath
            )
    follow_renames_in_cmake(outcomes)
    # a given source's names count for this run only: its bytes are not the file's
    index = project_index(
        config,
        outcomes,
        opts.use_cache,
        save=opts.given is None,
        follow_includes=opts.index_only_cached,
    )
    names = index.names
    files = [outcomes[f.relpath] for f in found.files]
    skipped = _unreadable(discovery.skipped, discovery.base, opts.suffixes, files)
    if not opts.allow_empty and not any(f.kind != FileKind.OTHER for f in files):
        raise EmptyRun(paths, discovery.skipped)
    shipped = shipped_headers(config.root, files, index.files)
    apply_project_filters(files, names, config, shipped)
    if plan.manifest is not None:
        try:
            plan.manifest.save()
        except OSError:
            pass  # a read-only cache only costs speed
    return RunSummary(
        config.root,
        discovery.base,
        opts.target,
        files,
        time.perf_counter() - start,
        skipped,
        names,
        discovery.excluded,
    )


def _unreadable(
    skipped_files: list, base: Path, suffixes: tuple[str, ...], files: list[FileOutcome]
) -> list[tuple[str, str]]:
    """What discovery skipped, as (relpath, reason); a source that cannot be read is a
    failure of the run, not a quiet skip: it joins `files` as failed."""
    skipped: list[tuple[str, str]] = []
    for s in skipped_files:
        rel = _rel_or_abs(s.path, base)
        if s.reason.startswith(SKIPPED_PREFIX):
            # a loop, a permission denied: what it hides was not checked (HIP204, HIP205)
            files.append(
                FileOutcome(s.path, rel, FileKind.SOURCE, FileStatus.SKIPPED, error=s.reason)
            )
        elif s.reason.startswith("not a regular file") and classify(s.path.name, suffixes) not in (
            FileKind.OTHER,
            FileKind.CMAKE,
        ):
            # a FIFO or socket named like a source: what it stands for was not checked
            files.append(
                FileOutcome(s.path, rel, FileKind.SOURCE, FileStatus.SKIPPED, error=s.reason)
            )
        elif s.reason.startswith("cannot read directory") or (
            s.reason.startswith("cannot ") and classify(s.path.name, suffixes) != FileKind.OTHER
        ):
            # a source, or a directory whose sources (a path past PATH_MAX) were not read
            files.append(
                FileOutcome(s.path, rel, FileKind.SOURCE, FileStatus.FAILED, error=s.reason)
            )
        else:
            skipped.append((rel, s.reason))
    return skipped


def _rel_or_abs(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)
