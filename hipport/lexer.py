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
from bisect import bisect_left, bisect_right
from ctypes import POINTER, byref, c_uint, cast, sizeof
from functools import cache, partial
from itertools import accumulate, islice, repeat
from operator import add, itemgetter, le, methodcaller
from typing import NamedTuple

from clang import cindex

IDENTIFIER = "identifier"
KEYWORD = "keyword"
LITERAL = "literal"
PUNCTUATION = "punctuation"
COMMENT = "comment"

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


class _Fields(NamedTuple):
    kind: str
    text: str
    start: int
    end: int
    where: _Lines | _At


class Token(_Fields):
    """One token: `kind`, `text`, `start`/`end` (byte offsets), and `line`/`column`
    (1-based, column in bytes), which are looked up from the file's line starts when asked
    for (few tokens ever are: a finding's or a use's position)."""

    __slots__ = ()

    def __new__(cls, kind: str, text: str, start: int, end: int, line: int, column: int) -> Token:
        return _Fields.__new__(cls, kind, text, start, end, _At(line, column))

    @property
    def line(self) -> int:
        return self.where.position(self.start)[0]

    @property
    def column(self) -> int:
        return self.where.position(self.start)[1]

    def __getnewargs__(self) -> tuple[str, str, int, int, int, int]:  # type: ignore[override]
        return (self.kind, self.text, self.start, self.end, self.line, self.column)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Token):
            return NotImplemented
        return self[:4] == other[:4] and (
            self.where is other.where
            or self.where.position(self.start) == other.where.position(other.start)
        )

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self[:4])

    def __repr__(self) -> str:
        return (
            f"Token(kind={self.kind!r}, text={self.text!r}, start={self.start}, "
            f"end={self.end}, line={self.line}, column={self.column})"
        )


class _Lines:
    """The line starts of one source as clang counts lines, shared by all its tokens and
    found on the first position asked for."""

    __slots__ = ("_starts", "source")

    def __init__(self, source: bytes) -> None:
        self.source = source
        self._starts: list[int] | None = None

    def position(self, offset: int) -> tuple[int, int]:  # the _Lines protocol
        starts = self._starts
        if starts is None:
            starts = self._starts = _clang_line_starts(self.source)
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1


class _TokenLines:
    """Positions for the columns of tokens the documented path made: a token's start is
    where that token says it is (libclang's own line and column); any other offset is
    looked up in the source's line starts."""

    __slots__ = ("_lines", "_starts", "_tokens")

    def __init__(self, tokens: TokenList, source: bytes) -> None:
        self._tokens, self._starts, self._lines = tokens, tokens.starts, _Lines(source)

    def position(self, offset: int) -> tuple[int, int]:  # the _Lines protocol
        i = bisect_left(self._starts, offset)
        if i < len(self._starts) and self._starts[i] == offset:
            return self._tokens[i].where.position(offset)
        return self._lines.position(offset)


class _At(NamedTuple):
    """A position given outright (a Token built by hand)."""

    line: int
    column: int

    def position(self, offset: int) -> tuple[int, int]:  # the _Lines protocol
        return self.line, self.column


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
    return lex_columns(source, path).tokens()


def lex_columns(source: bytes, path: str = "<input>") -> Columns:
    """`lex` as columns: the Token objects are made only if someone asks for them."""
    _admit(source, path)
    if not source:
        return Columns([], [], [], [], _Lines(source))
    wrapped = _wrap(source)
    with _PARSER.lock:  # one unit per process: one file at a time in it
        tu = _PARSER.parse(wrapped.buffer, path)
        read = _tokens(tu, wrapped, source)
    return read if isinstance(read, Columns) else _as_columns(read, source)


def _as_columns(tokens: list[Token], source: bytes) -> Columns:
    """Columns of tokens the documented path made (each knows its own line and column)."""
    cols = columns(tokens)
    out = Columns(cols.texts, cols.kinds, cols.starts, cols.ends, _TokenLines(cols, source))
    out._tokens = cols  # made here, with its tokens
    return out


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
    assert not isinstance(read, Columns)
    return read


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
) -> list[Token] | Columns:
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
        tokens = _fast_convert(lib, tu, memory, n, wrapped, source) if fast else None
        if tokens is not None:
            return tokens
        array = cast(memory, POINTER(cindex.Token * n)).contents
        return _convert(lib, tu, array, wrapped, source)
    finally:
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
_new_token = partial(tuple.__new__, Token)
# Clang's line breaks: \n, \r, and the pairs \r\n and \n\r counted once.
_CLANG_NEWLINE = re.compile(rb"\r\n|\n\r|\r|\n")
_END = methodcaller("end")


class TokenList(list):
    """The tokens `lex` returns, with the columns it read them from (the same values as
    the tokens' fields, as lists): rules that only look for a few names test them at C
    speed (`set(texts)`, `list.index`, `compress`) instead of walking every Token."""

    __slots__ = ("ends", "kinds", "starts", "texts")

    texts: list[str]
    kinds: list[str]
    starts: list[int]
    ends: list[int]


class Columns:
    """A file's tokens as four parallel lists (`texts`, `kinds`, `starts`, `ends`), what
    `lex_columns` returns: the Token objects are made only when `tokens()` is first asked
    for (most files need few of them, or none)."""

    __slots__ = ("_tokens", "ends", "kinds", "starts", "texts", "where")

    def __init__(  # the four columns and their line table
        self,
        texts: list[str],
        kinds: list[str],
        starts: list[int],
        ends: list[int],
        where: _Lines | _TokenLines,
    ) -> None:
        self.texts, self.kinds, self.starts, self.ends = texts, kinds, starts, ends
        self.where = where
        self._tokens: TokenList | None = None

    def __len__(self) -> int:
        return len(self.texts)

    def token(self, i: int) -> Token:
        """Token i (made on its own, without the others)."""
        if self._tokens is not None:
            return self._tokens[i]
        return _new_token((self.kinds[i], self.texts[i], self.starts[i], self.ends[i], self.where))

    def tokens(self) -> TokenList:
        """Every token, made on the first call (the later calls return the same list)."""
        if self._tokens is None:
            collecting = gc.isenabled()
            gc.disable()  # millions of new tuples, no cycle among them
            try:
                out = TokenList(
                    map(
                        _new_token,
                        zip(self.kinds, self.texts, self.starts, self.ends, repeat(self.where)),
                    )
                )
            finally:
                if collecting:
                    gc.enable()
            out.texts, out.kinds, out.starts, out.ends = (
                self.texts,
                self.kinds,
                self.starts,
                self.ends,
            )
            self._tokens = out
        return self._tokens


def columns(tokens: list[Token] | Columns) -> TokenList | Columns:
    """The columns of `tokens`: the lexer's own when it made them, else computed."""
    if isinstance(tokens, (TokenList, Columns)):
        return tokens
    out = TokenList(tokens)
    out.kinds, out.texts, out.starts, out.ends = (
        list(map(itemgetter(i), tokens)) for i in range(4)
    )
    return out


def _fast_convert(lib, tu, memory, n: int, wrapped: _Wrapped, source: bytes) -> Columns | None:
    """Tokens read straight from the CXToken array (kind, raw location, length): one
    libclang call per file instead of six per token, which was most of the lexing time.
    None when anything does not match the documented path, which the caller then takes."""
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
    ids = kind_ids.tolist()
    # Structure: known kinds, inside the file, in order and never overlapping (a macro
    # location or another file's would land outside or out of order).
    if (
        max(ids) >= len(_KINDS)
        or starts[0] < wrapped.bom
        or max(starts) > len(source)
        or ends[-1] > len(source)
        or not all(map(le, ends, islice(starts, 1, None)))
    ):
        return None
    if source.isascii():
        text = source.decode("ascii")
        # a comprehension of slices: faster than map(text.__getitem__, map(slice, ...))
        texts = [text[a:b] for a, b in zip(starts, ends, strict=True)]
    else:
        texts = [decode(source[a:b]) for a, b in zip(starts, ends, strict=True)]
    kinds = [_KINDS[ids[0]]] if n == 1 else list(itemgetter(*ids)(_KINDS))
    out = Columns(texts, kinds, starts, ends, _Lines(source))
    sample = sorted({0, n - 1, *range(0, n, max(1, n // _SAMPLE))})
    documented = _convert(lib, tu, [memory[i] for i in sample], wrapped, source)
    if documented != [out.token(i) for i in sample]:
        return None
    return out


def _spans(locs: memoryview, lengths: memoryview, shift: int) -> tuple[list[int], list[int]]:
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
    return (
        memoryview(first.to_bytes(width, order)).cast("I").tolist(),
        memoryview(last.to_bytes(width, order)).cast("I").tolist(),
    )


def _clang_line_starts(source: bytes) -> list[int]:
    """line_starts() as clang counts lines (it also breaks at a lone \r)."""
    if b"\r" not in source:
        return line_starts(source)
    return [0, *map(_END, _CLANG_NEWLINE.finditer(source))]


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


def line_starts(source: bytes) -> list[int]:
    """Byte offset of the start of every line (for offset -> line/column)."""
    starts = list(accumulate(map((1).__add__, map(len, source.split(b"\n"))), initial=0))
    starts.pop()  # the offset one past the end
    return starts
