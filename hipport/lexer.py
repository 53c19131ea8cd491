"""libclang tokens -> the project's own `Token` (kind, text, byte span, line, column).

Raw tokenization of the main file: every `#if`/`#else` arm is seen, nothing is
preprocessed, no header is read. Offsets are byte offsets into the source as given;
token text is sliced from those bytes (never from libclang's spelling, which is not
reliable for non-UTF-8 bytes).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from ctypes import POINTER, byref, c_uint, cast, sizeof
from functools import cache, partial
from operator import add, le
from typing import NamedTuple

from clang import cindex

IDENTIFIER = "identifier"
KEYWORD = "keyword"
LITERAL = "literal"
PUNCTUATION = "punctuation"
COMMENT = "comment"

# libclang's CXTokenKind values, in order.
_KINDS = (PUNCTUATION, KEYWORD, IDENTIFIER, LITERAL, COMMENT)

# Any of these bytes means the file may hold something to translate; without one, the
# file is left alone and libclang is not even started.
TRIGGERS = re.compile(rb"cu|CU|Cu|<<<|__|nvrtc|NVRTC|asm|#\s*include|cudnn|dim3|threadIdx|blockIdx")

# The virtual file name the source is parsed under: a directory that does not exist, so
# that clang never reads a real header next to it (tokens need none).
_VIRTUAL_NAME = "/nonexistent-hipport-dir/input.cpp"
_ARGS = (
    "-x",
    "c++",
    "-std=c++17",
    "-nostdinc",
    "-nostdinc++",
    "-fsyntax-only",
    "-Wno-everything",
    "-ferror-limit=1",
)
_OPTIONS = (
    cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES | cindex.TranslationUnit.PARSE_INCOMPLETE
)
MAX_BYTES = 64 * 1024 * 1024


class Token(NamedTuple):
    """One token; `start`/`end` are byte offsets, `line`/`column` 1-based (column in bytes)."""

    kind: str
    text: str
    start: int
    end: int
    line: int
    column: int


class LexError(Exception):
    """The source could not be tokenized (libclang refused it)."""


@cache
def _index() -> cindex.Index:
    return cindex.Index.create()


def might_need_translation(source: bytes) -> bool:
    """False when the bytes cannot contain anything hipport renames or reports."""
    return TRIGGERS.search(source) is not None


def decode(data: bytes) -> str:
    """Token text: UTF-8 where it is, undecodable bytes kept as surrogate escapes."""
    return data.decode("utf-8", "surrogateescape")


def lex(source: bytes, path: str = "<input>") -> list[Token]:
    """Tokenize `source` (the whole file, every preprocessor arm). Raises LexError."""
    if not source:
        return []
    if len(source) > MAX_BYTES:
        raise LexError(f"{path}: file too large to tokenize ({len(source)} bytes)")
    if b"\0" in source:
        raise LexError(f"{path}: file holds NUL bytes (binary?)")
    return _tokens(_parse(source, path), source)


def _parse(source: bytes, path: str) -> cindex.TranslationUnit:
    try:
        return cindex.TranslationUnit.from_source(
            _VIRTUAL_NAME,
            list(_ARGS),
            unsaved_files=[(_VIRTUAL_NAME, source)],
            options=_OPTIONS,
            index=_index(),
        )
    except cindex.TranslationUnitLoadError as exc:
        raise LexError(f"{path}: libclang could not load the file: {exc}") from None


def _tokens(tu: cindex.TranslationUnit, source: bytes, fast: bool = True) -> list[Token]:
    """The main file's tokens; `fast=False` takes only the documented libclang calls."""
    lib = cindex.conf.lib
    try:
        file = tu.get_file(_VIRTUAL_NAME)
    except Exception:  # noqa: BLE001 (libclang's bindings raise bare Exception here)
        raise LexError("libclang lost the main file") from None
    begin = lib.clang_getLocationForOffset(tu, file, 0)
    end = lib.clang_getLocationForOffset(tu, file, len(source))
    extent = lib.clang_getRange(begin, end)
    memory = POINTER(cindex.Token)()
    count = c_uint()
    lib.clang_tokenize(tu, extent, byref(memory), byref(count))
    n = count.value
    if n == 0:
        return []
    try:
        tokens = _fast_convert(lib, tu, memory, n, source) if fast else None
        if tokens is not None:
            return tokens
        array = cast(memory, POINTER(cindex.Token * n)).contents
        return _convert(lib, tu, array, source)
    finally:
        lib.clang_disposeTokens(tu, memory, count)


# CXToken is {unsigned int_data[4]; void *ptr_data}: int_data[0] the kind, [1] the raw
# SourceLocation, [2] the length in bytes. That layout is libclang's own (stable since
# clang 2.x, but not documented), so it is checked before use and checked again per file.
_TOKEN_WORDS = sizeof(cindex.Token) // 4
_LAYOUT_OK = (
    sizeof(cindex.Token) % 4 == 0 and cindex.Token.int_data.offset == 0 and _TOKEN_WORDS >= 3
)
# Tokens per file compared with the documented path (besides the first and the last).
_SAMPLE = 8
# Clang's line breaks: \n, \r, and the pairs \r\n and \n\r counted once.
_CLANG_NEWLINE = re.compile(rb"\r\n|\n\r|\r|\n")


def _fast_convert(lib, tu, memory, n: int, source: bytes) -> list[Token] | None:  # noqa: ANN001
    """Tokens read straight from the CXToken array (kind, raw location, length): one
    libclang call per file instead of six per token, which was most of the lexing time.
    None when anything does not match the documented path, which the caller then takes."""
    if not _LAYOUT_OK:
        return None
    words = memoryview(cast(memory, POINTER(c_uint * (_TOKEN_WORDS * n))).contents)
    raw = words.cast("B").cast("I")
    kind_ids = raw[0::_TOKEN_WORDS].tolist()
    locs = raw[1::_TOKEN_WORDS].tolist()
    lengths = raw[2::_TOKEN_WORDS].tolist()
    f = cindex.c_object_p()
    off = c_uint()
    lib.clang_getInstantiationLocation(
        lib.clang_getTokenLocation(tu, memory[0]), byref(f), None, None, byref(off)
    )
    base = locs[0] - off.value
    starts = [loc - base for loc in locs]
    ends = list(map(add, starts, lengths))
    # Structure: known kinds, inside the file, in order and never overlapping (a macro
    # location or another file's would land outside or out of order).
    if (
        max(kind_ids) >= len(_KINDS)
        or starts[0] < 0
        or ends[-1] > len(source)
        or not all(map(le, ends[:-1], starts[1:]))
    ):
        return None
    lines_at = _clang_line_starts(source)
    lines = list(map(partial(bisect_right, lines_at), starts))
    columns = [s - lines_at[line - 1] + 1 for s, line in zip(starts, lines, strict=True)]
    spans = map(slice, starts, ends)
    if source.isascii():
        texts = list(map(source.decode("ascii").__getitem__, spans))
    else:
        texts = [decode(b) for b in map(source.__getitem__, spans)]
    kinds = list(map(_KINDS.__getitem__, kind_ids))
    out = list(
        map(
            partial(tuple.__new__, Token),
            zip(kinds, texts, starts, ends, lines, columns, strict=True),
        )
    )
    sample = sorted({0, n - 1, *range(0, n, max(1, n // _SAMPLE))})
    if _convert(lib, tu, [memory[i] for i in sample], source) != [out[i] for i in sample]:
        return None
    return out


def _clang_line_starts(source: bytes) -> list[int]:
    """line_starts() as clang counts lines (it also breaks at a lone \r)."""
    if b"\r" not in source:
        return line_starts(source)
    return [0, *(m.end() for m in _CLANG_NEWLINE.finditer(source))]


def _convert(lib, tu, array, source: bytes) -> list[Token]:  # noqa: ANN001 (ctypes objects)
    get_kind = lib.clang_getTokenKind
    get_extent = lib.clang_getTokenExtent
    range_start = lib.clang_getRangeStart
    range_end = lib.clang_getRangeEnd
    where = lib.clang_getInstantiationLocation
    f = cindex.c_object_p()
    line, col, off, eoff = c_uint(), c_uint(), c_uint(), c_uint()
    r_f, r_line, r_col, r_off, r_eoff = byref(f), byref(line), byref(col), byref(off), byref(eoff)
    kinds = _KINDS
    out: list[Token] = []
    append = out.append
    ascii_ok = source.isascii()
    for tok in array:
        ext = get_extent(tu, tok)
        where(range_start(ext), r_f, r_line, r_col, r_off)
        where(range_end(ext), r_f, None, None, r_eoff)
        s, e = off.value, eoff.value
        raw = source[s:e]
        text = raw.decode("ascii") if ascii_ok else decode(raw)
        append(Token(kinds[get_kind(tok)], text, s, e, line.value, col.value))
    return out


def line_starts(source: bytes) -> list[int]:
    """Byte offset of the start of every line (for offset -> line/column)."""
    starts = [0]
    find = source.find
    pos = find(b"\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find(b"\n", pos + 1)
    return starts
