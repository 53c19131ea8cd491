"""The project's own files for the preprocessor model (hipport.preprocess.ProjectHeaders):
each file's directives, read from its bytes without the lexer, so a file's #if arms can
follow the macros its project headers define (`#define CP_ASYNC_AVAILABLE` only when
MYPROJ_USE_HIP is undefined); the names a header already written for HIP defines (a
compat header's `__stcs`, `typedef __hip_bfloat16 nv_bfloat16`); and the headers the HIP
build never includes (`vendors/cuda.h`, included only under `#ifndef MYPROJ_USE_HIP`); and
the -D/-U a header not in compile_commands.json takes from the entries that include it (as
clangd gives a header its includer's command)."""

from __future__ import annotations

import os
from pathlib import Path

from hipport.fsio import read_regular
from hipport.preprocess import (
    OPENS,
    Build,
    ProjectHeaders,
    conditionals,
    cuda_build,
    hip_only,
    include_target,
    macro_flags,
    scan_directives,
)
from hipport.project import ProjectFile
from hipport.runner.compile_db import CompileArgs
from hipport.target import Target

HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".ipp", ".tcc")


def project_headers(
    work: list[ProjectFile],
    base: Path,
    target: Target,
    defines: tuple[str, ...],
    compile_db: CompileArgs,
    max_size: int,
) -> ProjectHeaders | None:
    """The run's files as the model reads them (None: no file includes a project file).
    `base`: the directory the files' relpaths are relative to."""
    files: dict[str, tuple] = {}
    paths: dict[str, Path] = {}
    for f in work:
        data = _read(f.path, max_size)
        if data is None:
            continue
        files[f.relpath] = scan_directives(data)
        paths[f.relpath] = f.path
    headers = ProjectHeaders(files, include_dirs=_include_dirs(compile_db, base))
    edges = _includes(headers)
    if not any(edges.values()):
        return None
    headers.hip_names = _hip_names(headers, paths, max_size)
    flags = _macro_flags(compile_db, paths)
    headers.dead, headers.inherited = _never_compiled(headers, edges, target, defines, flags)
    _add_hip_only_names(headers, paths, max_size, target, defines, flags)
    return headers


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


def _hip_names(
    headers: ProjectHeaders, paths: dict[str, Path], max_size: int
) -> dict[str, frozenset[str]]:
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
        data = _read(paths[key], max_size)
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
    paths: dict[str, Path],
    max_size: int,
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
        data = _read(paths[key], max_size) if ranges else None
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
