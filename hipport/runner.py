"""Many files: discovery, the cache, a process pool, atomic writes, progress.

`run_paths` is what the CLI's translate and check commands call; it returns a RunSummary
that the renderers read. Nothing here knows about tokens; nothing below it knows about
files.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat as statmod
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from hipport.config import Config
from hipport.engine import EngineOptions, TranslationResult, translate_source
from hipport.findings import SKIPPED_PREFIX, Finding, file_finding
from hipport.fsio import DEFAULT_MAX_FILE_SIZE, SkipFile, atomic_write, read_source
from hipport.project import (
    SOURCE_SUFFIXES,
    ProjectFile,
    classify,
    discover,
    match_globs,
    skip_reason,
)
from hipport.tables import Status
from hipport.target import Target, Version

UNKNOWN_CODE = "HIP004"


@dataclass
class RunOptions:
    """Everything a run needs besides the paths; built by the CLI from options + config."""

    target: Target = field(default_factory=Target)
    jobs: int = 0  # 0: all cores
    use_cache: bool = True
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    suffixes: tuple[str, ...] = SOURCE_SUFFIXES
    semantic: bool = False
    cuda_path: str | None = None
    compile_commands: Path | None = None
    rename_suffix: dict[str, str] = field(default_factory=dict)  # ".cu" -> ".hip"
    with_other: bool = False  # also list files that are not sources (to copy them)
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    index_only_cached: bool = False  # pre-commit: do not walk the tree for the index
    # False: the command needs outputs and summary counts only (translate -o / --in-place
    # without --fail-on), so cached results are loaded only for outputs that are stale.
    need_results: bool = True
    # True (check): results are kept in the cache, not in memory; the report loads them one
    # at a time (FileOutcome.loader), so the parent never holds the whole tree's results.
    stream_results: bool = False
    progress: bool | None = None  # None: on a terminal outside CI


@dataclass
class FileOutcome:
    path: Path
    relpath: str
    kind: str  # source, hip, cmake, other
    status: str  # changed, unchanged, failed, skipped, copied
    result: TranslationResult | None = None
    error: str | None = None
    out_relpath: str | None = None  # after suffix renames
    cached: bool = False
    # A cached file whose result the run did not load (translate -o / --in-place, when
    # nothing needs its findings): its summary, and how to load the result if needed.
    info: FileInfo | None = None
    loader: Callable[[], TranslationResult | None] | None = None
    codes: Counter[str] | None = None  # info's finding codes, after the project filters

    def output_bytes(self) -> bytes | None:
        """The translated text, loading (not keeping) a result the run left on disk."""
        if self.result is not None:
            return self.result.output
        loaded = self.loader() if self.loader is not None else None
        return loaded.output if loaded is not None else None


@dataclass(frozen=True, slots=True)
class FileInfo:
    """What the run summary needs of a cached result, kept in the cache's stat index so a
    warm run reports honest counts without loading any result."""

    changed: bool
    out_size: int
    out_digest: str
    codes: tuple[tuple[str, str | None, int], ...]  # (code, api if HIP004, count)
    renamed: tuple[tuple[str, int], ...]  # family -> renamed uses
    min_rocm: Version | None
    deciders: frozenset[str]
    defined_names: frozenset[str]


def file_info(result: TranslationResult, digest: str, out_digest: str) -> FileInfo:
    codes = Counter((f.code, f.api if f.code == UNKNOWN_CODE else None) for f in result.findings)
    renamed: Counter[str] = Counter()
    best: Version | None = None
    deciders: set[str] = set()
    for use in result.uses:
        if use.status is Status.MAPPED and use.new_name and use.new_name != use.api:
            renamed[use.family or "other"] += 1
        if use.status not in (Status.MAPPED, Status.NEEDS_NEWER_ROCM) or not use.min_rocm:
            continue
        if best is None or use.min_rocm > best:
            best, deciders = use.min_rocm, {use.api}
        elif use.min_rocm == best:
            deciders.add(use.api)
    return FileInfo(
        result.changed,
        len(result.output),
        out_digest,
        tuple((c, a, n) for (c, a), n in sorted(codes.items(), key=str)),
        tuple(sorted(renamed.items())),
        best,
        frozenset(deciders),
        result.defined_names,
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
        return Counter(f.status for f in self.files if f.kind != "other")

    def cached_count(self) -> int:
        """Sources whose result came from the cache (they are also changed or unchanged)."""
        return sum(1 for f in self.files if f.kind != "other" and f.cached)

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
            "copied": sum(1 for f in self.files if f.kind == "other"),
            "renamed_files": {
                f.relpath: f.out_relpath
                for f in self.files
                if f.out_relpath and f.out_relpath != f.relpath
            },
            "renamed_per_family": dict(sorted(self.renamed_per_family().items())),
            "findings_per_code": dict(sorted(self.findings_per_code().items())),
            "min_rocm": str(rocm) if rocm is not None else None,
            "min_rocm_decided_by": deciders,
            "files": {f.relpath: f.status for f in self.files if f.kind != "other"},
            "not_processed": [{"path": rel, "reason": why} for rel, why in self.skipped],
            "elapsed": round(self.elapsed, 3),
        }

    def renamed_per_family(self) -> Counter[str]:
        counter: Counter[str] = Counter()
        for f in self.files:
            if f.result is None:
                if f.info is not None:
                    counter.update(dict(f.info.renamed))
                continue
            for use in f.result.uses:
                if use.status is Status.MAPPED and use.new_name and use.new_name != use.api:
                    counter[use.family or "other"] += 1
        return counter

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
        best: Version | None = None
        deciders: set[str] = set()
        for f in self.files:
            if f.result is None:
                if f.info is not None and f.info.min_rocm is not None:
                    pairs = [(f.info.min_rocm, api) for api in f.info.deciders]
                else:
                    continue
            else:
                pairs = [
                    (use.min_rocm, use.api)
                    for use in f.result.uses
                    if use.status in (Status.MAPPED, Status.NEEDS_NEWER_ROCM) and use.min_rocm
                ]
            for version, api in pairs:
                if best is None or version > best:
                    best, deciders = version, {api}
                elif version == best:
                    deciders.add(api)
        return best, sorted(deciders)


# --- one file, in a worker ------------------------------------------------------------------

_WORKER_OPTIONS: EngineOptions | None = None


def _process(item: tuple[str, str, str, str, EngineOptions | None, int]) -> tuple:
    """Read and translate one file. Returns (relpath, result | None, error | None, stat)."""
    path, relpath, kind, _, options, max_size = item
    crash_on = os.environ.get("HIPPORT_TEST_CRASH_ON")
    if crash_on and crash_on in relpath:
        # TEST-ONLY hook (tests/test_reliability_crash.py): die as libclang does when it
        # crashes on a file, to prove the pool isolates it. Never set it in real use.
        os.abort()
    try:
        st = os.stat(path)
        data = read_source(Path(path), max_size)
    except SkipFile as exc:
        return relpath, None, f"skipped: {exc}", None
    except OSError as exc:
        return relpath, None, skip_reason(exc), None
    try:
        result = translate_one(data, relpath, kind, options or _WORKER_OPTIONS)
    except Exception as exc:  # noqa: BLE001 - a bug on one file must not end the whole run
        return relpath, None, f"internal error on this file: {type(exc).__name__}: {exc}", None
    return relpath, result, None, st


def translate_one(
    data: bytes, relpath: str, kind: str, options: EngineOptions | None
) -> TranslationResult:
    if kind == "cmake":
        from hipport.cmake import translate_cmake

        cm = translate_cmake(data, relpath)
        return TranslationResult(relpath, data, cm.output, cm.edits, cm.findings)
    return translate_source(data, relpath, _TARGET, options)


_TARGET = Target()


def _init_worker(target: Target, options: EngineOptions) -> None:
    global _TARGET, _WORKER_OPTIONS
    _TARGET, _WORKER_OPTIONS = target, options
    from hipport.tables import load_tables

    load_tables()


# --- the run --------------------------------------------------------------------------------


def options_key(
    opts: RunOptions, config: Config, include_renames: dict[str, str] | None = None
) -> str:
    """Everything besides a file's content that decides its result: a change to any of it
    makes every cached result a miss."""
    data = {
        "include_renames": sorted((include_renames or {}).items()),
        "max_file_size": opts.max_file_size,
        "target": opts.target.key(),
        "semantic": opts.semantic,
        "cuda_path": opts.cuda_path,
        "renames": config.renames,
        "disabled": sorted(config.disabled_mappings),
        "per_path": config.per_path_ignore,
        "rename_suffix": opts.rename_suffix,
        "compile_commands": _mtime(opts.compile_commands),
    }
    return hashlib.blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=16).hexdigest()


def _mtime(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return f"{path}:{path.stat().st_mtime_ns}"
    except OSError:
        return str(path)


def _engine_options(
    opts: RunOptions, config: Config, renames: dict[str, str], compile_args: tuple[str, ...] = ()
) -> EngineOptions:
    return EngineOptions(
        user_renames=config.renames,
        disabled_mappings=config.disabled_mappings,
        include_renames=renames,
        semantic=opts.semantic,
        cuda_path=opts.cuda_path,
        compile_args=compile_args,
    )


def renamed(relpath: str, rename_suffix: dict[str, str]) -> str:
    for old, new in sorted(rename_suffix.items(), key=lambda kv: -len(kv[0])):
        if relpath.endswith(old):
            return relpath[: -len(old)] + new
    return relpath


def run_paths(
    paths: list[Path],
    config: Config,
    opts: RunOptions,
    on_progress: Callable[[int, int], None] | None = None,
) -> RunSummary:
    from hipport import cache as cache_mod
    from hipport.tables.model import mappings_digest, mappings_dir

    start = time.perf_counter()
    discovery = discover(
        paths,
        include=opts.include,
        exclude=opts.exclude,
        suffixes=opts.suffixes,
        with_other=opts.with_other,
    )
    found = _apply_config_patterns(discovery.files, config, opts)
    work = [f for f in found if f.kind != "other"]
    include_renames = _include_renames(work, opts.rename_suffix)
    base_options = _engine_options(opts, config, include_renames)
    compile_db = _load_compile_commands(opts.compile_commands)
    manifest = None
    # A run on a few named files (the pre-commit hook) reads only those files and the
    # project index: loading and rewriting the whole tree's result manifest would cost
    # more than translating the files themselves.
    if opts.use_cache and not opts.index_only_cached:
        manifest = cache_mod.open_manifest(
            config.root, options_key(opts, config, include_renames), mappings_digest(mappings_dir())
        )
    outcomes: dict[str, FileOutcome] = {}
    todo: list[tuple] = []
    lazy = (not opts.need_results or opts.stream_results) and not opts.rename_suffix
    for f in work:
        per_file = _per_file_options(base_options, f, config, compile_db)
        item = (str(f.path), f.relpath, f.kind, "", per_file, opts.max_file_size)
        outcome = _from_cache(manifest, f, item, opts, lazy) if manifest is not None else None
        if outcome is not None:
            outcomes[f.relpath] = outcome
            continue
        todo.append(item)
    items = {item[1]: item for item in todo}
    done = len(outcomes)
    total = len(work)
    if on_progress:
        on_progress(done, total)
    by_rel = {f.relpath: f for f in work}
    for relpath, result, error, st in _execute(todo, opts, base_options):
        outcome = _outcome(by_rel[relpath], result, error, opts)
        if (
            manifest is not None
            and result is not None
            and st is not None
            and not error
            and not result.error
        ):
            stored = _store(manifest, _cache_key(by_rel[relpath]), st, result)
            if stored is not None and lazy and opts.stream_results:
                f = by_rel[relpath]
                outcome = _lazy_outcome(
                    manifest, f, stored[0], stored[1], items[relpath], opts, cached=False
                )
        outcomes[relpath] = outcome
        done += 1
        if on_progress:
            on_progress(done, total)
    for f in found:
        if f.kind == "other":
            outcomes[f.relpath] = FileOutcome(
                f.path, f.relpath, "other", "copied", out_relpath=f.relpath
            )
    _follow_renames_in_cmake(outcomes, opts.rename_suffix)
    project_names = _project_names(config, outcomes, opts, opts.use_cache)
    files = [outcomes[f.relpath] for f in found]
    skipped: list[tuple[str, str]] = []
    for s in discovery.skipped:
        rel = _rel_or_abs(s.path, discovery.base)
        if s.reason.startswith(SKIPPED_PREFIX):
            # a loop, a permission denied: what it hides was not checked (HIP204, HIP205)
            files.append(FileOutcome(s.path, rel, "source", "skipped", error=s.reason))
        elif s.reason.startswith("cannot ") and classify(s.path.name, opts.suffixes) != "other":
            # a source that cannot be read is a failure of the run, not a quiet skip
            files.append(FileOutcome(s.path, rel, "source", "failed", error=s.reason))
        else:
            skipped.append((rel, s.reason))
    _apply_project_filters(files, project_names, config, discovery.base)
    if manifest is not None:
        try:
            manifest.save()
        except OSError:
            pass  # a read-only cache only costs speed
    return RunSummary(
        config.root,
        discovery.base,
        opts.target,
        files,
        time.perf_counter() - start,
        skipped,
        project_names,
    )


def _make_result(source: bytes, output: bytes, fields: tuple) -> TranslationResult:
    path, edits, findings, uses, defined_names = fields
    return TranslationResult(path, source, output, edits, findings, uses, defined_names)


def _store(
    manifest,
    key: str,
    st: os.stat_result,  # noqa: ANN001
    result: TranslationResult,
) -> tuple[str, FileInfo] | None:
    """One result entry (without the source, and without the output when unchanged) and its
    line in the stat index; returns (digest, info), or None when the cache cannot be written
    (which only costs speed)."""
    from hipport.cache import content_hash

    digest = content_hash(result.source)
    out_digest = content_hash(result.output) if result.changed else digest
    fields = (result.path, result.edits, result.findings, result.uses, result.defined_names)
    try:
        manifest.results.store(digest, key, result.source, result.output, fields)
    except OSError:
        manifest.forget(key)
        return None
    info = file_info(result, digest, out_digest)
    manifest.record(key, st, digest, info)
    return digest, info


def _from_cache(
    manifest,
    f: ProjectFile,
    item: tuple,
    opts: RunOptions,  # noqa: ANN001
    lazy: bool,
) -> FileOutcome | None:
    """The cached outcome of an unchanged file, or None (translate it). A lazy outcome
    carries the result's summary and a loader; otherwise the result is loaded now."""
    key = _cache_key(f)
    hit = manifest.check(key, f.path)
    if hit is None or hit.info is None:
        return None
    if not lazy:
        result = manifest.results.load(hit.digest, key, f.path, hit.data, _make_result)
        return _outcome(f, result, None, opts, cached=True) if result is not None else None
    return _lazy_outcome(manifest, f, hit.digest, hit.info, item, opts)


def _lazy_outcome(
    manifest,
    f: ProjectFile,
    digest: str,
    info: FileInfo,  # noqa: ANN001
    item: tuple,
    opts: RunOptions,
    cached: bool = True,
) -> FileOutcome:
    """An outcome whose result stays in the cache until something asks for it."""
    key, store = _cache_key(f), manifest.results
    out_rel = renamed(f.relpath, opts.rename_suffix) if f.kind != "hip" else f.relpath

    def load_or_translate() -> TranslationResult | None:
        result = store.load(digest, key, f.path, None, _make_result)
        if result is None:  # the entry went missing, or the file changed since the check
            _, result, _, _ = _process(item)
        return result

    return FileOutcome(
        f.path,
        f.relpath,
        f.kind,
        "changed" if info.changed else "unchanged",
        None,
        None,
        out_rel,
        cached,
        info=info,
        loader=load_or_translate,
    )


def _cache_key(f: ProjectFile) -> str:
    """The same file reached from another base directory has another relpath (which its
    result's locations use), so both are part of the key."""
    return f"{os.path.abspath(f.path)}\0{f.relpath}"


def _root_rel(path: Path, root: Path) -> str | None:
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return None


def _matches_config(path: Path, relpath: str, patterns: list[str], config: Config) -> bool:
    """Configuration globs are relative to the directory holding the configuration (the
    project root), whichever directory the run was started on."""
    if not patterns:
        return False
    rel = _root_rel(path, config.root)
    return match_globs(rel if rel is not None else relpath, patterns)


def _apply_config_patterns(
    files: list[ProjectFile], config: Config, opts: RunOptions
) -> list[ProjectFile]:
    """`include`/`exclude` from the configuration (the command line's are applied by
    discovery, relative to the paths given)."""
    exclude = list(config.get("exclude", []))
    include = list(config.get("include", []))
    if not exclude and not include:
        return files
    out = []
    for f in files:
        if _matches_config(f.path, f.relpath, exclude, config):
            continue
        if (
            include
            and f.kind != "other"
            and not _matches_config(f.path, f.relpath, include, config)
        ):
            if not opts.with_other:
                continue
            f = ProjectFile(f.path, f.relpath, "other")
        out.append(f)
    return out


def _rel_or_abs(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _outcome(
    f: ProjectFile,
    result: TranslationResult | None,
    error: str | None,
    opts: RunOptions,
    cached: bool = False,
) -> FileOutcome:
    out_rel = renamed(f.relpath, opts.rename_suffix) if f.kind != "hip" else f.relpath
    if error is not None:
        status = "skipped" if error.startswith("skipped:") else "failed"
        return FileOutcome(f.path, f.relpath, f.kind, status, None, error, out_rel)
    assert result is not None
    if result.error:
        return FileOutcome(
            f.path, f.relpath, f.kind, "failed", result, result.error, out_rel, cached
        )
    status = "changed" if result.changed else "unchanged"
    return FileOutcome(f.path, f.relpath, f.kind, status, result, None, out_rel, cached)


def _follow_renames_in_cmake(
    outcomes: dict[str, FileOutcome], rename_suffix: dict[str, str]
) -> None:
    """Build files name sources by path: a renamed source (main.cu -> main.hip) is renamed
    in every CMakeLists.txt / *.cmake of the run too, so the build still finds it."""
    names = {}
    for f in outcomes.values():
        if f.kind == "source" and f.out_relpath and f.out_relpath != f.relpath:
            names[f.relpath.rsplit("/", 1)[-1]] = f.out_relpath.rsplit("/", 1)[-1]
    if not names:
        return
    import re

    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    word = re.compile(rb"(?<![A-Za-z0-9_.+-])(" + alternatives.encode() + rb")(?![A-Za-z0-9_.+-])")
    for f in outcomes.values():
        if f.kind != "cmake" or f.result is None or f.result.error:
            continue
        output = word.sub(lambda m: names[m.group(1).decode()].encode(), f.result.output)
        if output != f.result.output:
            f.result = replace(f.result, output=output)
            f.status = "changed"


def _include_renames(work: list[ProjectFile], rename_suffix: dict[str, str]) -> dict[str, str]:
    out = {}
    for f in work:
        new = renamed(f.relpath, rename_suffix)
        if new != f.relpath:
            out[f.relpath.rsplit("/", 1)[-1]] = new.rsplit("/", 1)[-1]
    return out


def _per_file_options(
    base: EngineOptions, f: ProjectFile, config: Config, compile_db: dict[str, tuple[str, ...]]
) -> EngineOptions | None:
    """The worker's base options, unless a per-path-ignore entry turns CUDA names off for
    this file or the compilation database has arguments for it."""
    disabled = set()
    for pattern, names in config.per_path_ignore.items():
        if _matches_config(f.path, f.relpath, [pattern], config):
            disabled.update(n for n in names if not _is_rule_code(n))
    args = compile_db.get(os.path.realpath(f.path), ()) if compile_db else ()
    if not disabled and not args:
        return None  # the worker's base options
    return replace(
        base,
        disabled_mappings=base.disabled_mappings | disabled,
        compile_args=args or base.compile_args,
    )


def _is_rule_code(entry: str) -> bool:
    """HIP004 (a rule code) rather than a CUDA name such as CUDA_CHECK."""
    return entry[:3].upper() == "HIP" and entry[3:].isdigit()


def _load_compile_commands(directory: Path | None) -> dict[str, tuple[str, ...]]:
    """compile_commands.json: per file, the -I/-D/-U/-std/-include arguments."""
    if directory is None:
        return {}
    path = directory / "compile_commands.json" if directory.is_dir() else directory
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read compilation database {path}: {exc}") from None
    import shlex

    out: dict[str, tuple[str, ...]] = {}
    for entry in entries:
        args = entry.get("arguments") or shlex.split(entry.get("command", ""))
        wd = entry.get("directory", ".")
        keep: list[str] = []
        it = iter(args[1:])
        for arg in it:
            if arg in ("-I", "-D", "-U", "-isystem", "-include"):
                value = next(it, "")
                keep.extend([arg, _abs(value, wd) if arg != "-D" and arg != "-U" else value])
            elif arg.startswith(("-I", "-isystem")):
                flag = "-I" if arg.startswith("-I") else "-isystem"
                keep.append(flag + _abs(arg[len(flag) :], wd))
            elif arg.startswith(("-D", "-U", "-std=")):
                keep.append(arg)
        out[os.path.realpath(os.path.join(wd, entry["file"]))] = tuple(keep)
    return out


def _abs(path: str, wd: str) -> str:
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(wd, path))


def _execute(todo: list[tuple], opts: RunOptions, base: EngineOptions) -> Iterable[tuple]:
    """Translate in a pool of forked workers; a worker that dies (libclang crashed on a
    file) breaks the pool: the unfinished files are retried one process each, so the one
    that crashes again is reported and the rest go on."""
    global _TARGET, _WORKER_OPTIONS
    _TARGET, _WORKER_OPTIONS = opts.target, base  # also for lazy loads after the run
    if not todo:
        return
    jobs = opts.jobs or os.cpu_count() or 1
    if len(todo) == 1 and not _isolate():
        # one file (the pre-commit hook): forking a pool would cost more than the file
        yield _process(todo[0])
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context("fork")
    pending = {item[1]: item for item in todo}
    chunk = max(1, min(32, len(todo) // (jobs * 4) or 1))
    try:
        with ProcessPoolExecutor(
            jobs, mp_context=ctx, initializer=_init_worker, initargs=(opts.target, base)
        ) as pool:
            for result in pool.map(_process, todo, chunksize=chunk):
                pending.pop(result[0], None)
                yield result
    except BrokenProcessPool:
        for relpath, item in list(pending.items()):
            yield _isolated(item, ctx, opts.target, base)
            pending.pop(relpath, None)


def _isolate() -> bool:
    return os.environ.get("HIPPORT_ISOLATE", "") == "1"


def _isolated(item: tuple, ctx, target: Target, base: EngineOptions) -> tuple:  # noqa: ANN001
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(
            1, mp_context=ctx, initializer=_init_worker, initargs=(target, base)
        ) as pool:
            return pool.submit(_process, item).result()
    except BrokenProcessPool:
        return item[1], None, "the parser crashed on this file (isolated; the run went on)", None


def _project_names(
    config: Config, outcomes: dict[str, FileOutcome], opts: RunOptions, use_cache: bool
) -> frozenset[str]:
    """Names the project defines anywhere: this run's files, plus the cached index of the
    rest of the project (so a run on one file, as in pre-commit, sees them too)."""
    from hipport import cache as cache_mod

    index = cache_mod.load_index(config.root) if use_cache else {}
    changed = False
    root_abs = os.path.abspath(config.root)
    for outcome in outcomes.values():
        if outcome.result is not None:
            defined = outcome.result.defined_names
        elif outcome.info is not None:
            defined = outcome.info.defined_names
        else:
            continue
        key = _index_key(outcome.path, config.root, root_abs)
        known = index.get(key)
        if known is not None and known[2] == defined:
            continue  # the stat in the index is informative only: same names, no rewrite
        st = _stat(outcome.path)
        if st is None:
            continue
        entry = (st.st_size, st.st_mtime_ns, defined)
        if index.get(key) != entry:
            index[key] = entry
            changed = True
    if use_cache and changed:
        try:
            cache_mod.save_index(config.root, index)
        except OSError:
            pass
    names: set[str] = set()
    for _, _, defined in index.values():
        names |= defined
    return frozenset(names)


def _index_key(path: Path, root: Path, root_abs: str | None = None) -> str:
    if root_abs is not None:  # the common case, with string operations (once per file)
        absolute = os.path.abspath(path)
        prefix = root_abs.rstrip(os.sep) + os.sep
        if absolute.startswith(prefix):
            return absolute[len(prefix) :].replace(os.sep, "/")
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return os.path.abspath(path)


def _apply_project_filters(
    files: list[FileOutcome], names: frozenset[str], config: Config, base: Path | None = None
) -> None:
    """Unknown-identifier findings for names the project defines elsewhere are dropped, as
    are findings of codes a per-path-ignore entry turns off for that path."""
    ignores = config.per_path_ignore
    for f in files:
        if f.result is None and f.info is None:
            continue
        codes = set()
        for pattern, entries in ignores.items():
            if _matches_config(f.path, f.relpath, [pattern], config):
                codes.update(e.upper() for e in entries if _is_rule_code(e))
        if f.result is None:
            assert f.info is not None
            f.codes = Counter()
            for code, api, n in f.info.codes:
                if not (code == UNKNOWN_CODE and api in names) and code not in codes:
                    f.codes[code] += n
            if f.loader is not None:
                f.loader = _filtering(f.loader, names, frozenset(codes))
            continue
        f.result = _filtered(f.result, names, codes)


def _filtered(
    result: TranslationResult, names: frozenset[str], codes: set[str] | frozenset[str]
) -> TranslationResult:
    kept = [
        x
        for x in result.findings
        if not (x.code == UNKNOWN_CODE and x.api in names) and x.code not in codes
    ]
    if len(kept) == len(result.findings):
        return result
    return replace(
        result,
        findings=kept,
        uses=[u for u in result.uses if not (u.status is Status.UNKNOWN and u.api in names)],
    )


def _filtering(
    loader: Callable[[], TranslationResult | None], names: frozenset[str], codes: frozenset[str]
) -> Callable[[], TranslationResult | None]:
    def load() -> TranslationResult | None:
        result = loader()
        return _filtered(result, names, codes) if result is not None else None

    return load


# --- writing results ------------------------------------------------------------------------


def write_outputs(
    summary: RunSummary, mode: str, outdir: Path | None = None, backup: bool = False
) -> list[tuple[str, str]]:
    """Write what the run produced. mode: "outdir" mirrors the tree under `outdir` (changed
    files translated, every other file copied as it is); "in-place" replaces changed files
    atomically, keeping their modes. Returns (relpath, error) for files that failed."""
    errors: list[tuple[str, str]] = []
    mirror = _Mirror(outdir) if mode == "outdir" and outdir is not None else None
    for f in summary.files:
        try:
            with _signals_held():
                if mode == "outdir":
                    assert mirror is not None
                    _write_mirrored(f, mirror)
                elif mode == "in-place":
                    _write_in_place(f, backup)
        except OSError as exc:
            errors.append((f.relpath, f"cannot write: {exc.strerror or exc}"))
            f.status, f.error = "failed", f"cannot write: {exc.strerror or exc}"
    return errors


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT/SIGTERM while one file is written: a Ctrl-C that lands between creating
    a temp file and the code that cleans it up would leave the temp file behind. The held
    signal is delivered (KeyboardInterrupt) as soon as the file is whole, between files."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError, OSError):  # not POSIX, or not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def safe_join(outdir: Path, relpath: str) -> Path:
    """outdir/relpath, refusing anything that would land outside outdir (.., absolute paths,
    symlinked folders inside outdir)."""
    rel = Path(relpath)
    if rel.is_absolute() or ".." in rel.parts:
        raise OSError(f"refusing to write outside the output directory: {relpath}")
    target = outdir / rel
    real_out = os.path.realpath(outdir)
    real_parent = os.path.realpath(target.parent)
    if not (real_parent == real_out or real_parent.startswith(real_out + os.sep)):
        raise OSError(f"refusing to write through a symlink out of the output directory: {relpath}")
    if target.is_symlink():
        raise OSError(f"refusing to write through a symlink: {relpath}")
    return target


class _Mirror:
    """The output tree of one run: its root resolved once, each parent directory created
    and checked (inside the root, not through a symlink) once, not per file."""

    def __init__(self, outdir: Path) -> None:
        self.outdir = outdir
        self.outdir_str = os.fspath(outdir)
        self.real_out = os.path.realpath(outdir)
        self.ready: set[str] = {""}

    def target(self, rel: str) -> Path:
        """outdir/rel with its parent made; refuses what safe_join refuses."""
        parts = rel.split("/")  # relpaths are posix; string work, not pathlib, per file
        if rel.startswith("/") or os.path.isabs(rel) or ".." in parts:
            raise OSError(f"refusing to write outside the output directory: {rel}")
        parent = "/".join(p for p in parts[:-1] if p and p != ".")
        if parent not in self.ready:
            safe_join(self.outdir, parent)  # its own parent stays inside, it is no link
            (self.outdir / parent).mkdir(parents=True, exist_ok=True)
            real_parent = os.path.realpath(self.outdir / parent)
            if not real_parent.startswith(self.real_out + os.sep):
                raise OSError(
                    f"refusing to write through a symlink out of the output directory: {rel}"
                )
            self.ready.add(parent)
        return Path(os.path.join(self.outdir_str, rel))


def _existing(target: Path, rel: str) -> os.stat_result | None:
    """lstat of an output about to be written: None when absent; a link is refused."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    if statmod.S_ISLNK(st.st_mode):
        raise OSError(f"refusing to write through a symlink: {rel}")
    return st


def _holds(target: Path, st: os.stat_result | None, data: bytes) -> bool:
    """The output file already holds `data` (size first, then the bytes)."""
    if st is None or st.st_size != len(data):
        return False
    try:
        return target.read_bytes() == data
    except OSError:
        return False


def _write_mirrored(f: FileOutcome, mirror: _Mirror) -> None:
    rel = f.out_relpath or f.relpath
    target = mirror.target(rel)
    st = _existing(target, rel)
    if f.result is None and f.info is not None:
        # a cached file the run did not load: the output's size and digest say if it is
        # up to date, so the result is loaded only for a stale or missing output
        if (
            st is not None
            and st.st_size == f.info.out_size
            and _digest_of(target) == f.info.out_digest
        ):
            return
        data = f.output_bytes()
        if data is None:
            raise OSError("the cached result could not be loaded")
    elif f.result is not None:
        data = f.result.output
    else:
        data = None
    if data is None:
        if not f.path.is_file():
            return
        if st is not None and _same_file_content(f.path, target, st):
            return
        tmp = target.with_name(f".{target.name}.hipport-copy")
        shutil.copy2(f.path, tmp)
        os.replace(tmp, target)
        return
    if _holds(target, st, data):
        return
    atomic_write(target, data, mode=_mode(f.path))


def _digest_of(path: Path) -> str | None:
    from hipport.cache import content_hash

    try:
        return content_hash(path.read_bytes())
    except OSError:
        return None


def _same_file_content(a: Path, b: Path, b_stat: os.stat_result | None = None) -> bool:
    try:
        if a.stat().st_size != (b_stat or b.stat()).st_size:
            return False
        return a.read_bytes() == b.read_bytes()
    except OSError:
        return False


def _mode(path: Path) -> int | None:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return None


def _write_in_place(f: FileOutcome, backup: bool) -> None:
    if f.result is None and f.info is not None and f.status == "changed" and f.loader:
        result = f.loader()  # a cached change not yet written: load it for this write only
        if result is None:
            raise OSError("the cached result could not be loaded")
        f = replace(f, result=result)
    if f.result is None or f.status != "changed":
        if f.out_relpath and f.out_relpath != f.relpath and f.status == "unchanged":
            _rename_in_place(f, None, backup)
        return
    if f.out_relpath and f.out_relpath != f.relpath:
        _rename_in_place(f, f.result.output, backup)
        return
    current = f.path.read_bytes()
    if current != f.result.source:
        raise OSError(f"{f.relpath} changed on disk during the run; left as it is")
    if backup:
        atomic_write(f.path.with_name(f.path.name + ".orig"), current, mode=_mode(f.path))
    atomic_write(f.path, f.result.output)


def _rename_in_place(f: FileOutcome, data: bytes | None, backup: bool) -> None:
    new_path = f.path.with_name(f.out_relpath.rsplit("/", 1)[-1])  # type: ignore[union-attr]
    if new_path.exists():
        raise OSError(f"{new_path.name} exists; not overwriting it with {f.relpath}")
    source = f.path.read_bytes()
    atomic_write(new_path, source if data is None else data, mode=_mode(f.path))
    if backup:
        os.replace(f.path, f.path.with_name(f.path.name + ".orig"))
    else:
        os.unlink(f.path)


def unified_diff(f: FileOutcome, old_name: str | None = None, new_name: str | None = None) -> bytes:
    """A git-style diff of one file (bytes, as the file's own encoding): `patch -p1` and
    `git apply` recreate the translated file from it, renames included. Paths default to
    the relpaths."""
    import difflib

    old_name = old_name or f.relpath
    new_name = new_name or f.out_relpath or f.relpath
    source = f.result.source if f.result is not None else b""
    output = f.result.output if f.result is not None else source
    header = f"diff --git a/{old_name} b/{new_name}\n".encode()
    if old_name != new_name:
        if source == output:
            header += b"similarity index 100%\n"
        header += f"rename from {old_name}\nrename to {new_name}\n".encode()
    if source == output:
        return header if old_name != new_name else b""
    old, new = _diff_lines(source), _diff_lines(output)
    body = list(
        difflib.diff_bytes(
            difflib.unified_diff,
            old,
            new,
            f"a/{old_name}".encode(),
            f"b/{new_name}".encode(),
            lineterm=b"",
        )
    )
    out = bytearray(header)
    for i, line in enumerate(body):
        if i < 2 or line.startswith(b"@@"):  # the ---/+++ lines, hunk headers
            out += line + b"\n"
        elif line.endswith(b"\n"):
            out += line
        else:  # the last line of a file without a final newline
            out += line + b"\n\\ No newline at end of file\n"
    return bytes(out)


def _diff_lines(data: bytes) -> list[bytes]:
    """Lines split at \\n only (a lone \\r or a form feed stays inside its line, as
    patch sees it)."""
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def progress_wanted(flag: bool | None) -> bool:
    if flag is not None:
        return flag
    return sys.stderr.isatty() and not os.environ.get("CI")
