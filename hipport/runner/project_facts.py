"""The project-wide facts a run derives from every file's directives, remembered between
runs: which headers the HIP build never compiles and the -D/-U a header inherits
(project_macros._never_compiled), the names headers already written for HIP define
(project_macros._hip_names, _add_hip_only_names), and each file's header context
(project_macros.header_contexts, part of every cached result's key).

Deriving them walks every file's #if arms and reaches (about a third of a warm check of
the bench corpus after touching one source, profiled); a run whose files have the
directives the last run saw, in the same files, with the same options, reads them back
instead. The key holds each file's scan digest (its directives' names, words, lines and
function-likeness: project_macros.scan_digest, remembered with the scans), the run's
files, the options the walk reads (target, -D/-U, the compilation database's flags and
-I directories, the size limit, the include rule's renames), hipport's version and the
tables' digest. The few files whose bytes went into the facts (the HIP names are read
from a header's text, not its directives) are kept with their content digest, and read
and compared again before the facts are reused. Any difference: the facts are derived
anew and replace the remembered ones.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hipport.preprocess import ProjectHeaders
from hipport.runner.compile_db import CompileArgs
from hipport.runner.project_macros import (
    Scans,
    _include_dirs,
    _macro_flags,
    _read,
    content_digest,
    header_contexts,
    project_headers,
)
from hipport.target import Target


@dataclass
class ProjectFacts:
    """The run's preprocessor model (None: no file includes a project file) and each
    file's header context, and whether they came from the cache."""

    headers: ProjectHeaders | None
    contexts: dict[str, str]
    remembered: bool = False


def derive(
    root: Path,
    base: Path,
    scans: Scans,
    target: Target,
    defines: tuple[str, ...],
    compile_db: CompileArgs,
    max_size: int,
    renames: dict[str, str],
    flags: list[str],
    use_cache: bool,
) -> ProjectFacts:
    """The facts, from the cache when `use_cache` and they were derived from the same
    scans and options, else derived now (and remembered when `use_cache`; without the
    cache no result is keyed, and the contexts are not made). `flags`: the run's -D/-U
    for the header contexts (header_contexts)."""
    if not use_cache or scans.digests is None:
        headers = project_headers([], base, target, defines, compile_db, max_size, scans)
        return ProjectFacts(headers, {})
    include_dirs = _include_dirs(compile_db, base)
    file_flags = _macro_flags(compile_db, scans.paths)
    slot = _digest([os.path.realpath(root), os.path.abspath(base), target.key(), defines])
    key = _key(scans, base, target, defines, include_dirs, file_flags, max_size, renames, flags)
    path = facts_path(slot)
    known = _load(path, key, scans, max_size)
    if known is not None:
        facts, contexts = known
        headers = None
        if facts is not None:
            hip_names, dead, inherited = facts
            headers = ProjectHeaders(
                dict(scans.files),
                hip_names=hip_names,
                include_dirs=include_dirs,
                dead=dead,
                inherited=inherited,
            )
        return ProjectFacts(headers, contexts, remembered=True)
    reads: dict[str, str | None] = {}
    headers = project_headers([], base, target, defines, compile_db, max_size, scans, reads)
    contexts = header_contexts(headers, scans, renames, flags)
    _save(path, key, reads, headers, contexts)
    return ProjectFacts(headers, contexts)


def facts_path(slot: str, directory: Path | None = None) -> Path:
    from hipport.cache import FORMAT, cache_dir

    return (directory or cache_dir()) / f"v{FORMAT}" / f"facts-{slot}.json"


def _key(
    scans: Scans,
    base: Path,
    target: Target,
    defines: tuple[str, ...],
    include_dirs: tuple[str, ...],
    file_flags: dict[str, tuple[str, ...]],
    max_size: int,
    renames: dict[str, str],
    flags: list[str],
) -> str:
    from hipport import __version__
    from hipport.mappings import load_mappings

    digests = scans.digests or {}
    return _digest(
        [
            __version__,
            load_mappings().digest,
            os.path.abspath(base),
            [(rel, digests.get(rel), str(scans.paths[rel])) for rel in scans.files],
            target.key(),
            list(defines),
            list(include_dirs),
            sorted(file_flags.items()),
            max_size,
            sorted(renames.items()),
            list(flags),
        ]
    )


def _digest(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=20).hexdigest()


def _load(
    path: Path, key: str, scans: Scans, max_size: int
) -> tuple[tuple[dict, frozenset, dict] | None, dict[str, str]] | None:
    """The remembered facts under `key`, if the files they read still hold those bytes
    and the entry has the right shape; None otherwise."""
    from hipport.cache_format import CacheMiss, loads
    from hipport.fsio import read_regular

    try:
        stored = loads("facts", read_regular(path), raw=True)
    except (CacheMiss, OSError, ValueError):
        return None
    if not (isinstance(stored, list) and len(stored) == 4 and stored[0] == key):
        return None
    _, reads, facts, contexts = stored
    if not (
        isinstance(reads, dict)
        and isinstance(contexts, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in contexts.items())
        and set(contexts) == set(scans.files)
    ):
        return None
    for rel, digest in reads.items():
        where = scans.paths.get(rel)
        if where is None or content_digest(_read(where, max_size)) != digest:
            return None
    if facts is None:
        return None, contexts
    try:
        hip_names, dead, inherited = facts
        shaped = (
            {k: frozenset(_strings(v)) for k, v in _pairs(hip_names)},
            frozenset(_strings(dead)),
            {k: tuple(_strings(v)) for k, v in _pairs(inherited)},
        )
    except (TypeError, ValueError):
        return None
    return shaped, contexts


def _pairs(value: Any) -> list[tuple[str, Any]]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise TypeError("not a dict of names")
    return list(value.items())


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError("not a list of strings")
    return value


def _save(
    path: Path,
    key: str,
    reads: dict[str, str | None],
    headers: ProjectHeaders | None,
    contexts: dict[str, str],
) -> None:
    """Remember the facts (a cache that cannot be written only costs speed)."""
    from hipport.cache import write_private
    from hipport.cache_format import dumps

    facts = None
    if headers is not None:
        facts = [
            {k: sorted(v) for k, v in sorted(headers.hip_names.items())},
            sorted(headers.dead),
            {k: list(v) for k, v in sorted(headers.inherited.items())},
        ]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_private(path, dumps("facts", [key, reads, facts, contexts], raw=True))
    except OSError:
        pass
