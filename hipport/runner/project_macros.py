"""The project's own files for the preprocessor model (hipport.preprocess.ProjectHeaders):
each file's directives, read from its bytes without the lexer, so a file's #if arms can
follow the macros its project headers define (`#define CP_ASYNC_AVAILABLE` only when
MYPROJ_USE_HIP is undefined); the names a header already written for HIP defines (a
compat header's `__stcs`, `typedef __hip_bfloat16 nv_bfloat16`); and the headers the HIP
build never includes (`vendors/cuda.h`, included only under `#ifndef MYPROJ_USE_HIP`); and
the -D/-U a header not in compile_commands.json takes from the entries that include it (as
clangd gives a header its includer's command)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from hipport.fsio import read_regular
from hipport.preprocess import (
    OPENS,
    RENAMED_BY_TRANSLATE,
    Build,
    PPDirective,
    ProjectHeaders,
    conditionals,
    cuda_build,
    hip_only,
    include_target,
    macro_flags,
    scan_directives,
    words_of,
)
from hipport.project import ProjectFile
from hipport.runner.compile_db import CompileArgs
from hipport.target import Target

HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".ipp", ".tcc")


@dataclass(frozen=True)
class Scans:
    """The run's files' directives as the model reads them (scan_directives), by relpath."""

    files: dict[str, tuple[PPDirective, ...]]
    paths: dict[str, Path]
    # files with an #include_next or #import, which the scan leaves out (the lexer's
    # reading of the file has them): what they reach or rename is not known here
    opaque: frozenset[str]
    changed: bool = False  # a file was scanned anew (the remembered scans need saving)
    # relpath -> a digest of what the model and the header contexts read of the file's
    # scan (each directive's name, words, line and function-likeness; opaque or not):
    # made when the scans are remembered, and kept with them (hipport.runner.project_facts)
    digests: dict[str, str] | None = None


def scan_files(
    work: list[ProjectFile], max_size: int, remembered: dict[str, list] | None = None
) -> Scans:
    """Every file's directives. `remembered` (hipport.cache.load_scans: what earlier runs
    scanned, by absolute path, with the stat the file had): a file whose size, mtime,
    ctime and inode are the same, and whose mtime is outside the racy window, is not read
    again; the others are read, and `remembered` is updated in place (save it when the
    scan says `changed`)."""
    from hipport.cache import RACY_NS

    files: dict[str, tuple[PPDirective, ...]] = {}
    paths: dict[str, Path] = {}
    opaque = set()
    changed = False
    digests: dict[str, str] | None = {} if remembered is not None else None
    now = time.time_ns()
    for f in work:
        known = None
        digest = None
        if remembered is not None:
            key = os.path.abspath(f.path)
            try:
                st = os.stat(f.path)
            except OSError:
                continue
            stat = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
            if st.st_size <= max_size:  # else _read skips it, as it did
                known = _remembered(remembered.get(key), stat)
        if known is not None:
            directives, unscanned, digest = known
        else:
            data = _read(f.path, max_size)
            if data is None:
                continue
            directives = scan_directives(data)
            unscanned = _UNSCANNED_INCLUDE.search(data) is not None
            if remembered is not None:
                digest = scan_digest(directives, unscanned)
                if now - stat[1] > RACY_NS and len(data) == stat[0]:
                    plain = [_plain(d) for d in directives]
                    remembered[key] = [*stat, unscanned, plain, digest]
                    changed = True
        if digests is not None and digest is not None:
            digests[f.relpath] = digest
        files[f.relpath] = directives
        paths[f.relpath] = f.path
        if unscanned:
            opaque.add(f.relpath)
    return Scans(files, paths, frozenset(opaque), changed, digests)


def scan_digest(directives: tuple[PPDirective, ...], unscanned: bool) -> str:
    """What the model and the header contexts read of one file's scan, as a digest (the
    byte offsets are left out: an edit above a directive moves them and changes nothing
    the project's facts hold; the lines are in, as the header contexts read them)."""
    return _digest([unscanned, [(d.name, d.words, d.line, d.function_like) for d in directives]])


def _plain(d: PPDirective) -> list:
    return [d.name, list(d.words), d.start, d.end, d.line, d.function_like]


def _remembered(entry: object, stat: list[int]) -> tuple[tuple[PPDirective, ...], bool, str] | None:
    """A remembered scan, if it is of a file with this stat and of the right shape."""
    if not isinstance(entry, list) or len(entry) != 7 or entry[:4] != stat:
        return None
    unscanned, plain, digest = entry[4], entry[5], entry[6]
    if not isinstance(digest, str):
        return None
    try:
        directives = tuple(
            PPDirective(name, tuple(words), start, end, line, fl)
            for name, words, start, end, line, fl in plain
        )
    except (TypeError, ValueError):
        return None
    if not isinstance(unscanned, bool) or not all(
        isinstance(d.name, str)
        and all(isinstance(w, str) for w in d.words)
        and type(d.start) is int
        and type(d.end) is int
        and type(d.line) is int
        and isinstance(d.function_like, bool)
        for d in directives
    ):
        return None
    return directives, unscanned, digest


def project_headers(
    work: list[ProjectFile],
    base: Path,
    target: Target,
    defines: tuple[str, ...],
    compile_db: CompileArgs,
    max_size: int,
    scans: Scans | None = None,
    reads: dict[str, str | None] | None = None,
) -> ProjectHeaders | None:
    """The run's files as the model reads them (None: no file includes a project file).
    `base`: the directory the files' relpaths are relative to; `scans`: the files'
    directives, when the caller has them (scan_files). `reads`: filled with the files
    whose bytes (not only their directives) went into the answer, each with the content
    digest of what was read (None: not read, too large or unreadable)."""
    if scans is None:
        scans = scan_files(work, max_size)
    paths = scans.paths
    headers = ProjectHeaders(dict(scans.files), include_dirs=_include_dirs(compile_db, base))
    edges = _includes(headers)
    if not any(edges.values()):
        return None
    read = _Reader(paths, max_size, reads)
    headers.hip_names = _hip_names(headers, read)
    flags = _macro_flags(compile_db, paths)
    headers.dead, headers.inherited = _never_compiled(headers, edges, target, defines, flags)
    _add_hip_only_names(headers, read, target, defines, flags)
    return headers


class _Reader:
    """A project file's bytes, by relpath, noting each read in `reads` when given."""

    def __init__(
        self, paths: dict[str, Path], max_size: int, reads: dict[str, str | None] | None
    ) -> None:
        self.paths, self.max_size, self.reads = paths, max_size, reads

    def __call__(self, key: str) -> bytes | None:
        data = _read(self.paths[key], self.max_size)
        if self.reads is not None:
            self.reads[key] = content_digest(data)
        return data


def content_digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.blake2b(data, digest_size=20).hexdigest()


# the include directives scan_directives leaves out (the lexer's reading of the file has them)
_UNSCANNED_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*(?:include_next|import)\b", re.MULTILINE)


def header_contexts(
    headers: ProjectHeaders | None,
    scans: Scans,
    renames: Mapping[str, str],
    flags: Iterable[str],
) -> dict[str, str]:
    """Each file's *context*: a digest of what its result can depend on in the project's
    other files, part of its cache key in place of the whole project's directives and
    file names, so a change to a header misses only the files that can reach it, and a
    file added, removed or renamed only the files that include that name.

    A file's result reads the other files through the include rule's map of the project's
    file names (hipport.runner.renames.include_renames: for the names its #includes
    spell) and through the preprocessor model (hipport.preprocess.conditionals,
    hipport.rules.branches): the headers its #includes reach, transitively, whatever arm
    they sit in (their directives, and the names the ones written for HIP define); what
    each of those #includes resolves to (a file added elsewhere can answer one); which of
    the names their directives hold the project #defines anywhere (such a macro is
    undefined until a compiled #define, another one unknown); whether the file is never
    compiled, the -D/-U it inherits, the -I directories; and whether any project file
    names a macro the HIP compiler's passes disagree on (the walk then takes every pass).
    `flags`: the run's -D/-U (configuration, command line, compile_commands.json), whose
    values the walk reads too. A file with an #include_next or #import (opaque) depends
    on everything, as every file did before."""
    everything = None
    out = {}
    if headers is None:
        shared = _digest(None)
    else:
        shared = _shared(headers, flags)
    pieces: dict[str, tuple[str, tuple[str, ...]]] = {}
    for key, directives in scans.files.items():
        if key in scans.opaque:
            if everything is None:
                parts = headers.digest_parts() if headers is not None else None
                everything = _digest([shared, parts, sorted(renames.items())])
            out[key] = everything
            continue
        names = _include_names(directives, renames)
        if headers is None:
            out[key] = _digest([shared, names])
            continue
        reached = _reached(headers, key, pieces)
        own = [key in headers.dead, list(headers.inherited.get(key, ())), names]
        out[key] = _digest([shared, own, sorted(pieces[k][0] for k in reached)])
    return out


def _shared(headers: ProjectHeaders, flags: Iterable[str]) -> str:
    """What every file's context holds of the whole project (it changes rarely)."""
    from hipport.mappings import load_mappings

    rows = load_mappings().hip_macros.rows
    predefined = {r.macro for r in rows} | set(RENAMED_BY_TRANSLATE)
    # names read where the walk evaluates a macro's body: the flags' and the compiler's
    read = {w for flag in flags for w in words_of(flag)}
    read |= {w for r in rows for w in words_of(r.value.replace("|", " "))}
    return _digest(
        [
            list(headers.include_dirs),
            sorted(headers.defines & read),
            sorted(headers.words & predefined),
        ]
    )


def _include_names(directives: tuple[PPDirective, ...], renames: Mapping[str, str]) -> list:
    """What the include rule reads of the project's file names for these #includes: the
    new name of the header spelled, and of its last part (hipport.rules.includes)."""
    out = []
    for d in directives:
        if d.name == "include":
            spelling = include_target(d.words)[0]
            base = spelling.rpartition("/")[2]
            out.append((spelling, renames.get(spelling), renames.get(base)))
    return out


def _reached(
    headers: ProjectHeaders, key: str, pieces: dict[str, tuple[str, tuple[str, ...]]]
) -> set[str]:
    """`key` and the project files its #includes reach (any arm), each file's piece (a
    digest of its directives, its #includes' answers, its HIP names and the project
    macros its directives name) made once in `pieces`."""
    seen = {key}
    todo = [key]
    while todo:
        current = todo.pop()
        piece = pieces.get(current)
        if piece is None:
            piece = pieces[current] = _piece(headers, current)
        for found in piece[1]:
            if found not in seen:
                seen.add(found)
                todo.append(found)
    return seen


def _piece(headers: ProjectHeaders, key: str) -> tuple[str, tuple[str, ...]]:
    directives = headers.files[key]
    answers = []
    words: set[str] = set()
    for d in directives:
        words.update(d.words)
        if d.name == "include":
            spelling, angle = include_target(d.words)
            answers.append(headers.lookup(spelling, angle, key) if spelling else None)
    digest = _digest(
        [
            key,
            [(d.name, d.words, d.line, d.function_like) for d in directives],
            answers,
            sorted(headers.hip_names.get(key, ())),
            sorted(headers.defines & words),
        ]
    )
    return digest, tuple(a for a in answers if a is not None)


def _digest(value: object) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def _read(path: Path, max_size: int) -> bytes | None:
    try:
        if os.path.getsize(path) > max_size:
            return None
        return read_regular(path)
    except (OSError, ValueError):
        return None


def _include_dirs(compile_db: CompileArgs, base: Path) -> tuple[str, ...]:
    """The -I directories of the compilation database inside the run (as relpaths)."""
    root = os.path.abspath(base)
    found: dict[str, None] = {}
    for args in compile_db.values():
        it = iter(args)
        for arg in it:
            directory = next(it, "") if arg == "-I" else arg[2:] if arg.startswith("-I") else None
            if directory is None:
                continue
            rel = os.path.relpath(os.path.abspath(directory), root)
            if not rel.startswith(".."):
                found.setdefault(Path(rel).as_posix(), None)
    return tuple(found)


def _includes(headers: ProjectHeaders) -> dict[str, set[str]]:
    """Each file's project includes, whatever arm they sit in."""
    edges: dict[str, set[str]] = {}
    for key, directives in headers.files.items():
        out = set()
        for d in directives:
            if d.name != "include":
                continue
            spelling, angle = include_target(d.words)
            found = headers.lookup(spelling, angle, key) if spelling else None
            if found is not None and found != key:
                out.add(found)
        edges[key] = out
    return edges


def _hip_names(headers: ProjectHeaders, read: _Reader) -> dict[str, frozenset[str]]:
    """The names each header already written for HIP (a HIP include, no CUDA one) defines."""
    from hipport.rules.branches import CUDA_LOOKING
    from hipport.rules.declared import defined_names

    out = {}
    for key, directives in headers.files.items():
        if not key.endswith(HEADER_SUFFIXES):
            continue
        included = [include_target(d.words)[0] for d in directives if d.name == "include"]
        if not any(h.startswith("hip/") for h in included):
            continue
        if any(CUDA_LOOKING.match(h) for h in included):
            continue
        data = read(key)
        if data is not None:
            out[key] = defined_names(data, key)
    return out


def _macro_flags(compile_db: CompileArgs, paths: dict[str, Path]) -> dict[str, tuple[str, ...]]:
    """The -D/-U of each run file the compilation database has an entry for."""
    if not compile_db:
        return {}
    out = {}
    for key, path in paths.items():
        args = compile_db.get(os.path.realpath(path))
        if args is not None:
            out[key] = macro_flags(args)
    return out


def _add_hip_only_names(
    headers: ProjectHeaders,
    read: _Reader,
    target: Target,
    defines: tuple[str, ...],
    flags: dict[str, tuple[str, ...]],
) -> None:
    """Add to each header's own names those it defines in arms only the HIP build compiles
    (a `__stcs` under `#if defined(__HIP_PLATFORM_AMD__)`): the project's replacements,
    its own names in every file that reaches the header."""
    from hipport.rules.branches import names_in

    build = _build(target, defines)
    cuda = cuda_build(build, defines)
    for key, directives in headers.files.items():
        if key in headers.dead or key in headers.hip_names:
            continue  # never compiled, or all its names are the project's already
        if not key.endswith(HEADER_SUFFIXES) or not any(d.name in OPENS for d in directives):
            continue
        extra = flags.get(key) or headers.inherited.get(key, ())
        hip = conditionals(directives, _build(target, defines + extra), headers, key)
        ranges = hip_only(hip, conditionals(directives, cuda, headers, key))
        data = read(key) if ranges else None
        if data is not None:
            names = names_in(data, key, ranges)
            if names:
                headers.hip_names[key] = names


def _build(target: Target, defines: tuple[str, ...]) -> Build:
    from hipport.mappings import load_mappings

    mappings = load_mappings()
    parts = (target.rocm or mappings.tables.newest_rocm).parts + (0, 0)
    return Build((parts[0], parts[1]), defines, macros=mappings.hip_macros)


def _never_compiled(
    headers: ProjectHeaders,
    edges: dict[str, set[str]],
    target: Target,
    defines: tuple[str, ...],
    flags: dict[str, tuple[str, ...]],
) -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """The files some project file includes and no file's HIP build compiles (every
    #include of them sits in a dead arm, or in a file that is itself never compiled), each
    file walked with its own -D/-U from the compilation database (`flags`); and, for each
    header the database has no entry for, the -D/-U every entry that compiles it agrees on
    (a flag only some of them pass leaves its macro as the header's other files see it)."""
    included = set().union(*edges.values())
    if not included or not set(headers.files) - included:
        return frozenset(), {}  # nothing included, or only files in include cycles
    reached: set[str] = set()
    by_header: dict[str, list[tuple[str, ...]]] = {}
    for key in headers.files:
        if key in included:
            continue  # walked from its includers
        own = flags.get(key, ())
        build = _build(target, defines + own)
        found = conditionals(headers.files[key], build, headers, key).reached
        reached |= found
        if key in flags:
            for header in found:
                if header not in flags:
                    by_header.setdefault(header, []).append(own)
    inherited = {}
    for header, lists in by_header.items():
        common = [f for f in lists[0] if all(f in other for other in lists[1:])]
        if common:
            inherited[header] = tuple(common)
    return frozenset(included - reached), inherited
