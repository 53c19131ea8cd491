"""libclang tokens -> the project's own `Token` (kind, text, byte span, line, column).

Raw tokenization of the main file: every `#if`/`#else` arm is seen, nothing is
preprocessed, no header is read. Offsets are byte offsets into the source as given;
token text is sliced from those bytes (never from libclang's spelling, which is not
reliable for non-UTF-8 bytes).

No parse: `clang_tokenize` re-lexes a range of the buffer in raw mode, so its tokens do
not depend on what the translation unit's parse made of the code. The source is handed to
libclang behind `#if 0` lines (`_wrap`), so the parse only skips one conditional block
(linear in the size, whatever the code is), and the token range starts after those lines
and ends at the end of the buffer, which is the end of the source: everything the raw lexer
does at the end of a file (an unterminated comment or string, a trailing backslash) is what
it does on the file alone. One translation unit per process is reparsed for every file
(`_Parser`), which skips the compiler driver's set-up that a fresh parse pays per file.
"""

from __future__ import annotations

import gc
import re
import sys
import threading
from array import array
from bisect import bisect_right
from ctypes import POINTER, byref, c_uint, cast, sizeof
from functools import cache
from itertools import islice
from operator import add, le
from typing import NamedTuple

from clang import cindex

from hipport.tokens import (
    COMMENT,
    IDENTIFIER,
    KEYWORD,
    LITERAL,
    PUNCTUATION,
    Token,
    Tokens,
)

__all__ = [
    "COMMENT",
    "IDENTIFIER",
    "KEYWORD",
    "LITERAL",
    "PUNCTUATION",
    "LexError",
    "Token",
    "Tokens",
    "decode",
    "lex",
    "lex_by_full_parse",
    "might_need_translation",
]

# libclang's CXTokenKind values, in order.
_KINDS = (PUNCTUATION, KEYWORD, IDENTIFIER, LITERAL, COMMENT)

# Any of these bytes means the file may hold something to translate or report; without
# one, the file is left alone and libclang is not even started. The hazards' words are here
# too: a header holding only `#define WARP_SIZE 32` (HIP102), `texture<float, 2> t;`
# (HIP105), `wmma::` (HIP104) or a `hipDeviceProp_t` field (HIP108) is reported.
TRIGGERS = re.compile(
    rb"cu|CU|Cu|<<<|__|nvrtc|NVRTC|asm|#\s*include|cudnn|dim3|threadIdx|blockIdx"
    rb"|[Ww]arp|WARP|texture|wmma|DeviceProp"
)

# The virtual file name the source is parsed under: a directory that does not exist, so
# that clang never reads a real header next to it (tokens need none).
_VIRTUAL_NAME = "/nonexistent-hipport-dir/input.cpp"
# The language options decide which identifiers are keywords: C++17, as always.
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
# The trivial parse needs no predefined macros either (they are a quarter of its set-up).
_WRAPPED_ARGS = (*_ARGS, "-undef")
# The full declaration parse the lexer used to run (kept for `lex_by_full_parse`).
_FULL_PARSE_OPTIONS = (
    cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES | cindex.TranslationUnit.PARSE_INCOMPLETE
)
MAX_BYTES = 64 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"
# One skipped-conditional line; CRLF so that a source starting with \r or \n keeps its own
# line breaks (clang counts the pairs \r\n and \n\r as one).
_SKIP_LINE = b"#if 0\r\n"


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


def lex(source: bytes, path: str = "<input>") -> Tokens:
    """Tokenize `source` (the whole file, every preprocessor arm). Raises LexError."""
    _admit(source, path)
    if not source:
        return Tokens([], [], array("I"), array("I"), source)
    wrapped = _wrap(source)
    with _PARSER.lock:  # one unit per process: one file at a time in it
        tu = _PARSER.parse(wrapped.buffer, path)
        read = _tokens(tu, wrapped, source)
    return unspliced(read if isinstance(read, Tokens) else Tokens.of(read, source))


# A line splice: a backslash, then (clang allows it, with a warning) blanks, then a break.
SPLICE = re.compile(rb"\\[ \t\f\v]*(?:\r\n|\r|\n)")
_SPLICEABLE = frozenset({IDENTIFIER, KEYWORD, PUNCTUATION})


def unspliced(tokens: Tokens) -> Tokens:
    """`tokens` with the text of each name or punctuator that a line splice runs through
    (`cudaMal\\` newline `loc`) as the compiler reads it, splices removed, so the rules
    see the name; its span stays the bytes it covers. Literals (a raw string keeps its
    splices) and comments keep their bytes."""
    source = tokens.source
    if b"\\" not in source:
        return tokens
    starts, ends, kinds, texts = tokens.starts, tokens.ends, tokens.kinds, tokens.texts
    for m in SPLICE.finditer(source):
        i = bisect_right(starts, m.start()) - 1
        if i >= 0 and m.start() < ends[i] and kinds[i] in _SPLICEABLE:
            texts[i] = decode(SPLICE.sub(b"", source[starts[i] : ends[i]]))
    return tokens


def lex_by_full_parse(source: bytes, path: str = "<input>") -> list[Token]:
    """`lex` as it was done before: a declaration parse of the source itself, every token
    read through the documented libclang calls. Slow (the parse can grow quadratically);
    kept as the reference the tests compare `lex` with."""
    _admit(source, path)
    if not source:
        return []
    try:
        tu = cindex.TranslationUnit.from_source(
            _VIRTUAL_NAME,
            list(_ARGS),
            unsaved_files=[(_VIRTUAL_NAME, source)],
            options=_FULL_PARSE_OPTIONS,
            index=_index(),
        )
    except cindex.TranslationUnitLoadError as exc:
        raise LexError(f"{path}: libclang could not load the file: {exc}") from None
    read = _tokens(tu, _Wrapped(source, 0, 0, 0), source, fast=False)
    assert not isinstance(read, Tokens)
    texts = unspliced(Tokens.of(read, source)).texts
    return [
        t if t.text == text else t._replace(text=text) for t, text in zip(read, texts, strict=True)
    ]


def _admit(source: bytes, path: str) -> None:
    if len(source) > MAX_BYTES:
        raise LexError(f"{path}: file too large to tokenize ({len(source)} bytes)")
    if b"\0" in source:
        raise LexError(f"{path}: file holds NUL bytes (binary?)")


class _Wrapped(NamedTuple):
    """The buffer libclang gets: `lines` skip lines (`body_at` bytes), then the source
    without its UTF-8 byte order mark (`bom` bytes, which clang skips only at the very
    start of a buffer)."""

    buffer: bytes
    body_at: int
    lines: int
    bom: int


def _wrap(source: bytes) -> _Wrapped:
    bom = len(_BOM) if source.startswith(_BOM) else 0
    body = memoryview(source)[bom:]
    # Each `#endif` of the source's own that has no `#if` (one spelled across a
    # backslash-newline too) closes one skip line. With two more skip lines than there can
    # be such `#endif`s, the innermost that stays open is nested in the outermost, so that
    # an `#else` or `#elif` after them is skipped too, and the outermost is never closed.
    depth = 2 + source.count(b"endif") + source.count(b"\\")
    prefix = _SKIP_LINE * depth
    return _Wrapped(b"".join((prefix, body)), len(prefix), depth, bom)


class _Parser:
    """One translation unit, reparsed for each buffer (a fresh parse per file would run
    the compiler driver's set-up each time: twice the cost of the trivial parse)."""

    def __init__(self) -> None:
        self._tu: cindex.TranslationUnit | None = None
        self.lock = threading.Lock()

    def parse(self, buffer: bytes, path: str) -> cindex.TranslationUnit:
        tu = self._tu
        if tu is not None:
            files = (cindex._CXUnsavedFile * 1)()  # the bindings' own struct
            files[0].name = _VIRTUAL_NAME.encode()
            files[0].contents = buffer
            files[0].length = len(buffer)
            if cindex.conf.lib.clang_reparseTranslationUnit(tu, 1, files, 0) == 0:
                return tu
            self._tu = None  # libclang says a unit that failed to reparse is unusable
        try:
            tu = cindex.TranslationUnit.from_source(
                _VIRTUAL_NAME,
                list(_WRAPPED_ARGS),
                unsaved_files=[(_VIRTUAL_NAME, buffer)],
                options=0,
                index=_index(),
            )
        except cindex.TranslationUnitLoadError as exc:
            raise LexError(f"{path}: libclang could not load the file: {exc}") from None
        self._tu = tu
        return tu


_PARSER = _Parser()


def _tokens(
    tu: cindex.TranslationUnit, wrapped: _Wrapped, source: bytes, fast: bool = True
) -> list[Token] | Tokens:
    """The source's tokens (as columns on the fast path); `fast=False` takes only the
    documented libclang calls."""
    lib = cindex.conf.lib
    try:
        file = tu.get_file(_VIRTUAL_NAME)
    except Exception:  # libclang's bindings raise bare Exception here
        raise LexError("libclang lost the main file") from None
    begin = lib.clang_getLocationForOffset(tu, file, wrapped.body_at)
    end = lib.clang_getLocationForOffset(tu, file, len(wrapped.buffer))
    extent = lib.clang_getRange(begin, end)
    memory = POINTER(cindex.Token)()
    count = c_uint()
    lib.clang_tokenize(tu, extent, byref(memory), byref(count))
    n = count.value
    if n == 0:
        return []
    # Millions of new tuples, no cycle among them: the cyclic collector would only walk
    # them again and again while they are made.
    collecting = gc.isenabled()
    gc.disable()
    try:
        columns = _fast_convert(lib, tu, memory, n, wrapped, source) if fast else None
        if columns is None:
            array_ = cast(memory, POINTER(cindex.Token * n)).contents
            return _convert(lib, tu, array_, wrapped, source)
        # libclang's tokens are let go before the text and kind columns are made: on a
        # 10 MB line they are 110 MB, as much as those two lists
        lib.clang_disposeTokens(tu, memory, count)
        memory = None
        starts, ends, ids, lines = columns
        return _columns(starts, ends, ids, source, lines)
    finally:
        if memory is not None:
            lib.clang_disposeTokens(tu, memory, count)
        if collecting:
            gc.enable()


# CXToken is {unsigned int_data[4]; void *ptr_data}: int_data[0] the kind, [1] the raw
# SourceLocation, [2] the length in bytes. That layout is libclang's own (stable since
# clang 2.x, but not documented), so it is checked before use and checked again per file.
_TOKEN_WORDS = sizeof(cindex.Token) // 4
_LAYOUT_OK = (
    sizeof(cindex.Token) % 4 == 0 and cindex.Token.int_data.offset == 0 and _TOKEN_WORDS >= 3
)
# Tokens per file compared with the documented path (besides the first and the last).
_SAMPLE = 8


def _fast_convert(
    lib, tu, memory, n: int, wrapped: _Wrapped, source: bytes
) -> tuple[array, array, bytes, list[int]] | None:
    """The columns read straight from the CXToken array (raw location, length, kind id):
    one libclang call per file instead of six per token, which was most of the lexing
    time. None when anything does not match the documented path, which the caller then
    takes."""
    if not _LAYOUT_OK:
        return None
    words = memoryview(cast(memory, POINTER(c_uint * (_TOKEN_WORDS * n))).contents)
    raw = words.cast("B").cast("I")
    # Strided views of the array: kind, raw location, length (no list of any of them).
    kind_ids, locs, lengths = (raw[i::_TOKEN_WORDS] for i in range(3))
    f = cindex.c_object_p()
    off = c_uint()
    lib.clang_getInstantiationLocation(
        lib.clang_getTokenLocation(tu, memory[0]), byref(f), None, None, byref(off)
    )
    # raw location - shift = offset in the source
    shift = locs[0] - off.value + wrapped.body_at - wrapped.bom
    starts, ends = _spans(locs, lengths, shift)
    # Structure: known kinds, inside the file, in order and never overlapping (a macro
    # location or another file's would land outside or out of order).
    if (
        max(kind_ids) >= len(_KINDS)
        or starts[0] < wrapped.bom
        or max(starts) > len(source)
        or ends[-1] > len(source)
        or not all(map(le, ends, islice(starts, 1, None)))
    ):
        return None
    starts, ends = _offsets(starts), _offsets(ends)
    # every id is below len(_KINDS): one byte of each 32-bit lane
    ids = kind_ids.tobytes()[0 if sys.byteorder == "little" else 3 :: 4]
    sample = sorted({0, n - 1, *range(0, n, max(1, n // _SAMPLE))})
    documented = _convert(lib, tu, [memory[i] for i in sample], wrapped, source)
    picked = array("I", [starts[i] for i in sample]), array("I", [ends[i] for i in sample])
    read = _columns(*picked, bytes(ids[i] for i in sample), source)
    if documented != list(read):
        return None
    return starts, ends, ids, read.line_starts


def _columns(
    starts: array, ends: array, ids: bytes, source: bytes, lines: list[int] | None = None
) -> Tokens:
    """The tokens of the columns of offsets and kind ids, their texts sliced from the
    source (`lines`: its line table, if made)."""
    if source.isascii():
        text = source.decode("ascii")
        # a comprehension of slices: faster than map(text.__getitem__, map(slice, ...))
        texts = [text[a:b] for a, b in zip(starts, ends, strict=True)]
    else:
        texts = [decode(source[a:b]) for a, b in zip(starts, ends, strict=True)]
    kinds = list(map(_KINDS.__getitem__, ids))
    return Tokens(texts, kinds, starts, ends, source, lines)


def _offsets(column: array | list[int]) -> array:
    """A column of byte offsets as 32-bit lanes (every offset is below MAX_BYTES): 4 bytes
    a token, where a list of ints holds 36 (a 10 MB line of 4.7 million tokens peaked at
    770 MB, most of it the two columns of offsets)."""
    return column if isinstance(column, array) else array("I", column)


def _spans(
    locs: memoryview, lengths: memoryview, shift: int
) -> tuple[array | list[int], array | list[int]]:
    """starts = locs - shift, ends = starts + lengths, for every token: each column read
    as one big integer of 32-bit lanes, so the arithmetic is two big-integer operations
    instead of a Python call per token. A lane never borrows from or carries into the
    next while every start is in the source (at most MAX_BYTES), which the caller checks: a
    location below `shift` (another file's) would borrow and give a start above 2**31."""
    if not 0 <= shift < 2**32:  # never seen: the main file's base is a small offset
        starts = list(map((-shift).__add__, locs))
        return starts, list(map(add, starts, lengths))
    width = 4 * len(locs)
    order = sys.byteorder
    lanes = int.from_bytes(shift.to_bytes(4, order) * len(locs), order)
    first = int.from_bytes(locs.tobytes(), order) - lanes
    if first < 0:  # the last lane borrowed: out of order (the caller's check says so)
        starts = list(map((-shift).__add__, locs))
        return starts, list(map(add, starts, lengths))
    last = first + int.from_bytes(lengths.tobytes(), order)
    starts, ends = array("I"), array("I")
    starts.frombytes(first.to_bytes(width, order))
    ends.frombytes(last.to_bytes(width, order))
    return starts, ends


def _convert(lib, tu, array, wrapped: _Wrapped, source: bytes) -> list[Token]:  # ctypes objects
    """Tokens through the documented calls, their buffer positions mapped to the source's:
    offsets past the skip lines, lines after them, and on the first line the columns of
    the byte order mark that was dropped."""
    get_kind = lib.clang_getTokenKind
    get_extent = lib.clang_getTokenExtent
    range_start = lib.clang_getRangeStart
    range_end = lib.clang_getRangeEnd
    where = lib.clang_getInstantiationLocation
    f = cindex.c_object_p()
    line, col, off, eoff = c_uint(), c_uint(), c_uint(), c_uint()
    r_f, r_line, r_col, r_off, r_eoff = byref(f), byref(line), byref(col), byref(off), byref(eoff)
    kinds = _KINDS
    shift = wrapped.body_at - wrapped.bom
    first_line = wrapped.lines + 1
    out: list[Token] = []
    append = out.append
    ascii_ok = source.isascii()
    for tok in array:
        ext = get_extent(tu, tok)
        where(range_start(ext), r_f, r_line, r_col, r_off)
        where(range_end(ext), r_f, None, None, r_eoff)
        s, e = off.value - shift, eoff.value - shift
        raw = source[s:e]
        text = raw.decode("ascii") if ascii_ok else decode(raw)
        n_line = line.value
        column = col.value + wrapped.bom if n_line == first_line else col.value
        append(Token(kinds[get_kind(tok)], text, s, e, n_line - wrapped.lines, column))
    return out
