"""The optional AST pass (EngineOptions.semantic): a full libclang parse as CUDA.

It confirms kernel launches and finds the names the user's own code declares, so that a
user function called `cudaFoo` is neither renamed nor reported. It needs a CUDA toolkit
and clang resource headers; the `libclang` wheel has none, so they are looked for in a
clang installation or a `clang-tidy`/`clang` wheel's data directory. Whatever goes wrong
becomes a HIP013 note and the token path carries on alone.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field
from functools import cache

from clang import cindex


@dataclass
class SemanticInfo:
    user_declared: frozenset[str] = frozenset()  # names declared in the main file
    launches: frozenset[int] = frozenset()  # byte offsets of confirmed kernel launches
    errors: list[str] = field(default_factory=list)  # why the pass failed, if it did


@cache
def resource_dir() -> str | None:
    """A clang resource directory whose major version matches libclang's (18)."""
    candidates = [os.environ.get("HIPPORT_CLANG_RESOURCE_DIR", "")]
    candidates += sorted(glob.glob("/usr/lib/llvm-18/lib/clang/18*"))
    candidates += sorted(glob.glob("/usr/lib/clang/18*"))
    try:
        import clang_tidy  # type: ignore[import-not-found]  # the clang-tidy wheel

        base = os.path.dirname(clang_tidy.__file__)
        candidates += sorted(glob.glob(os.path.join(base, "data", "lib", "clang", "*")))
    except ImportError:
        pass
    for path in candidates:
        if path and os.path.isfile(os.path.join(path, "include", "stddef.h")):
            return path
    return None


# Headers clang 18's CUDA wrapper still includes but CUDA 13 dropped (or that cuRAND-less
# toolkits lack): empty stand-ins, searched after the toolkit's own headers.
_STANDIN_HEADERS = ("texture_fetch_functions.h", "curand_mtgp32_kernel.h")


@cache
def _standins(cuda: str) -> str:
    import tempfile
    from pathlib import Path

    from hipport.fsio import atomic_write

    directory = os.path.join(tempfile.gettempdir(), "hipport-cuda-standins")
    os.makedirs(directory, exist_ok=True)
    for header in _STANDIN_HEADERS:
        path = os.path.join(directory, header)
        if not os.path.exists(path):
            atomic_write(Path(path), b"/* empty stand-in written by hipport.semantic */\n")
    return directory


def analyze(
    source: bytes, path: str, cuda_path: str | None, compile_args: tuple[str, ...] = ()
) -> SemanticInfo:
    cuda = cuda_path or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    if not os.path.isfile(os.path.join(cuda, "include", "cuda_runtime.h")):
        return SemanticInfo(errors=[f"no CUDA toolkit headers under {cuda}/include"])
    res = resource_dir()
    if res is None:
        return SemanticInfo(
            errors=[
                "no clang resource directory found (the libclang wheel "
                "ships none; set HIPPORT_CLANG_RESOURCE_DIR)"
            ]
        )
    name = path if path.endswith((".cu", ".cuh")) else path + ".cu"
    args = [
        "-x",
        "cuda",
        f"--cuda-path={cuda}",
        "-resource-dir",
        res,
        "--cuda-host-only",
        "-nocudalib",
        "-Wno-unknown-cuda-version",
        "-fsyntax-only",
        f"-I{cuda}/include/cccl",
        "-idirafter",
        _standins(cuda),
        *compile_args,
    ]
    try:
        tu = cindex.Index.create().parse(
            name,
            args,
            unsaved_files=[(name, source)],
            options=cindex.TranslationUnit.PARSE_INCOMPLETE,
        )
    except cindex.TranslationUnitLoadError as exc:
        return SemanticInfo(errors=[f"libclang could not parse: {exc}"])
    errors = [d.spelling for d in tu.diagnostics if d.severity >= cindex.Diagnostic.Error]
    declared: set[str] = set()
    elsewhere: set[str] = set()  # declared by a header (the toolkit's): CUDA's own names
    launches: set[int] = set()
    for cursor in tu.cursor.walk_preorder():
        loc = cursor.location
        if loc.file is None or loc.file.name != name:
            if cursor.kind.is_declaration() and cursor.spelling:
                elsewhere.add(cursor.spelling)
            continue
        kind = cursor.kind
        if kind.is_declaration() and cursor.spelling:
            declared.add(cursor.spelling)
        elif kind == cindex.CursorKind.CALL_EXPR and _is_launch(cursor):
            launches.add(loc.offset)
    return SemanticInfo(frozenset(declared - elsewhere), frozenset(launches), errors[:5])


def _is_launch(cursor: cindex.Cursor) -> bool:
    """A kernel launch is a CALL_EXPR whose second child calls __cudaPushCallConfiguration."""
    children = list(cursor.get_children())
    if len(children) < 2:
        return False
    return any(c.spelling == "__cudaPushCallConfiguration" for c in children[1].walk_preorder())
