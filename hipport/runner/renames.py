"""Suffix renames (`--rename-suffix .cu=.hip`): a file's new name, and the places that
name files (includes, build files) following it."""

from __future__ import annotations

import os
import re
from dataclasses import replace

from hipport.project import ProjectFile
from hipport.runner.outcome import FileKind, FileOutcome, FileStatus, InMemory


def renamed(relpath: str, rename_suffix: dict[str, str]) -> str:
    for old, new in sorted(rename_suffix.items(), key=lambda kv: -len(kv[0])):
        if relpath.endswith(old):
            return relpath[: -len(old)] + new
    return relpath


def output_relpath(relpath: str, kind: str, rename_suffix: dict[str, str]) -> str:
    """Where a file's output goes: HIP files keep their names."""
    return renamed(relpath, rename_suffix) if kind != FileKind.HIP else relpath


def include_renames(work: list[ProjectFile], rename_suffix: dict[str, str]) -> dict[str, str]:
    """File name -> new file name, for `#include`s of renamed files; a header the project
    ships under its own name (its helper_cuda.h) maps to itself, so the include map does not
    replace it."""
    out = {}
    for f in work:
        new = renamed(f.relpath, rename_suffix)
        out[f.relpath.rsplit("/", 1)[-1]] = new.rsplit("/", 1)[-1]
    return out


def follow_renames_in_cmake(outcomes: dict[str, FileOutcome]) -> None:
    """Build files name sources by path: a renamed source (main.cu -> main.hip) is renamed
    in every CMakeLists.txt / *.cmake of the run too, so the build still finds it."""
    names = {}
    for f in outcomes.values():
        if f.kind == FileKind.SOURCE and f.out_relpath and f.out_relpath != f.relpath:
            names[f.relpath.rsplit("/", 1)[-1]] = f.out_relpath.rsplit("/", 1)[-1]
    if not names:
        return
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    word = re.compile(
        rb"(?<![A-Za-z0-9_.+-])(" + os.fsencode(alternatives) + rb")(?![A-Za-z0-9_.+-])"
    )
    for f in outcomes.values():
        result = f.handle.load() if f.kind == FileKind.CMAKE and f.handle is not None else None
        if result is None or result.error:
            continue
        output = word.sub(lambda m: os.fsencode(names[os.fsdecode(m.group(1))]), result.output)
        if output != result.output:
            f.handle = InMemory(replace(result, output=output))
            f.status = FileStatus.CHANGED
