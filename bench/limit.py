"""The limit: the least work any translator built on libclang's tokens must do over a tree.

    python bench/limit.py DIR [--json OUT]

Issue 20's definition: one process reads each file, gets its tokens from `clang_tokenize`
with the translation unit's parse made trivial, and reads kind, location and length from the
token array. Here:

- the files are the ones `hipport translate DIR` / `hipport check DIR` process (listed with
  hipport's own walk, `hipport.project.discover`, before the clock starts: kind "source");
- the parse is trivial: the file is handed to libclang behind one `#if 0` line (the
  preprocessor skips the rest, whatever it holds), as C++17 with no include path and no
  predefined macros, under a name in a directory that does not exist (no header is ever
  read); one translation unit is reparsed for every file (a fresh unit per file would
  also pay the compiler driver's set-up: about twice the cost), which is what hipport does;
- the token range is the file's bytes after that line; `clang_tokenize` re-lexes it in raw
  mode; the CXToken array is read as unsigned ints (kind, raw location, length: three
  Python lists per file), and the first token's location is resolved once (the file's base).

Nothing is translated, no rule runs, no Python object per token is made. Prints one JSON
line: wall and CPU seconds (user + sys of this process), files, lines, bytes, tokens.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from ctypes import POINTER, byref, c_uint, cast, sizeof
from pathlib import Path

from clang import cindex

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

NAME = "/nonexistent-bench-limit/input.cpp"
ARGS = ["-x", "c++", "-std=c++17", "-nostdinc", "-nostdinc++", "-fsyntax-only", "-undef"]
SKIP = b"#if 0\n"
WORDS = sizeof(cindex.Token) // 4


def source_files(root: Path) -> list[Path]:
    """The files hipport processes under `root`, in its order."""
    from hipport.project import discover

    return [f.path for f in discover([root]).files if f.kind == "source"]


class Tokenizer:
    """One translation unit, reparsed for each file."""

    def __init__(self) -> None:
        self.lib = cindex.conf.lib
        self.index = cindex.Index.create()
        self.tu = cindex.TranslationUnit.from_source(
            NAME, ARGS, unsaved_files=[(NAME, SKIP)], options=0, index=self.index
        )

    def tokens(self, data: bytes) -> int:
        lib, tu = self.lib, self.tu
        buffer = SKIP + data
        files = (cindex._CXUnsavedFile * 1)()  # the bindings' own struct
        files[0].name, files[0].contents, files[0].length = NAME.encode(), buffer, len(buffer)
        if lib.clang_reparseTranslationUnit(tu, 1, files, 0) != 0:
            raise RuntimeError("libclang could not reparse")
        file = tu.get_file(NAME)
        extent = lib.clang_getRange(
            lib.clang_getLocationForOffset(tu, file, len(SKIP)),
            lib.clang_getLocationForOffset(tu, file, len(buffer)),
        )
        memory, count = POINTER(cindex.Token)(), c_uint()
        lib.clang_tokenize(tu, extent, byref(memory), byref(count))
        n = count.value
        try:
            if n == 0:
                return 0
            raw = memoryview(cast(memory, POINTER(c_uint * (WORDS * n))).contents)
            words = raw.cast("B").cast("I")
            kinds = words[0::WORDS].tolist()
            locations = words[1::WORDS].tolist()
            lengths = words[2::WORDS].tolist()
            offset = c_uint()
            lib.clang_getInstantiationLocation(
                lib.clang_getTokenLocation(tu, memory[0]),
                byref(cindex.c_object_p()),
                None,
                None,
                byref(offset),
            )
            assert len(kinds) == len(locations) == len(lengths) == n
            return n
        finally:
            lib.clang_disposeTokens(tu, memory, count)


def measure(paths: list[Path]) -> dict:
    cpu0, wall0 = _cpu(), time.perf_counter()
    tokenizer = Tokenizer()
    files = lines = size = tokens = 0
    for path in paths:
        data = path.read_bytes()
        files += 1
        lines += data.count(b"\n")
        size += len(data)
        if data and b"\0" not in data:
            tokens += tokenizer.tokens(data)
    return {
        "wall_s": time.perf_counter() - wall0,
        "cpu_s": _cpu() - cpu0,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "files": files,
        "lines": lines,
        "bytes": size,
        "tokens": tokens,
    }


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the tree hipport is run over")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    result = measure(source_files(args.root))
    text = json.dumps(result)
    if args.json:
        args.json.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
