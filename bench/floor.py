"""The lexing floor: the least work any libclang-token tool must do over a tree.

    python bench/floor.py DIR [--json OUT]

Issue 15's yardstick ("the bench corpus still translates at <= 1.1x the lexing floor"),
kept as it was defined when that issue was filed; issue 20's stricter yardstick is
bench/limit.py (no declaration parse, no Python call per token).

One process reads every file hipport processes under DIR (its own walk, as bench/limit.py
lists them), parses it with libclang as C++ with no include paths and function bodies
skipped (PARSE_SKIP_FUNCTION_BODIES), and walks all its tokens through the Python
bindings, reading each token's spelling, kind and extent. The file is parsed under a name
in a directory that does not exist, with -nostdinc, so no header is ever read (as hipport
does). Prints one JSON line: seconds (wall), cpu_s, files, lines, tokens.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from clang import cindex
from limit import source_files  # bench/limit.py, beside this script

NAME = "/nonexistent-bench-floor/input.cpp"
ARGS = ["-x", "c++", "-std=c++17", "-nostdinc", "-nostdinc++", "-fsyntax-only"]
OPTIONS = (
    cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES | cindex.TranslationUnit.PARSE_INCOMPLETE
)


def walk(index: cindex.Index, data: bytes) -> int:
    tu = cindex.TranslationUnit.from_source(
        NAME, ARGS, unsaved_files=[(NAME, data)], options=OPTIONS, index=index
    )
    f = tu.get_file(NAME)
    extent = cindex.SourceRange.from_locations(
        cindex.SourceLocation.from_offset(tu, f, 0),
        cindex.SourceLocation.from_offset(tu, f, len(data)),
    )
    n = 0
    for tok in tu.get_tokens(extent=extent):
        tok.spelling, tok.kind, tok.extent  # noqa: B018 - reading them is the point
        n += 1
    return n


def main(root: str) -> dict:
    start, cpu = time.perf_counter(), time.process_time()
    index = cindex.Index.create()
    files = lines = tokens = 0
    for path in source_files(Path(root)):  # the files hipport processes (as the limit)
        with open(path, "rb") as fh:
            data = fh.read()
        files += 1
        lines += data.count(b"\n")
        if data:
            tokens += walk(index, data)
    return {
        "seconds": time.perf_counter() - start,
        "cpu_s": time.process_time() - cpu,
        "files": files,
        "lines": lines,
        "tokens": tokens,
    }


if __name__ == "__main__":
    figures = json.dumps(main(sys.argv[1]))
    if sys.argv[2:3] == ["--json"]:
        with open(sys.argv[3], "w") as out:
            out.write(figures + "\n")
    print(figures)
