"""The token model every rule reads: `Tokens` (a file's tokens as four parallel columns
and one line table), a `Token` made when an index is read, and `Tokens.code()`, the view
of the code tokens (comments dropped) with the one bracket matcher and argument splitter.

Two index spaces, converted explicitly: an index into `Tokens` counts every token; an
index into the code view counts code tokens only (`CodeTokens.to_all`, `from_all`).
Lines are counted as clang counts them (a break at \\n, at a lone \\r, and at the pair
\\r\\n counted once), for tokens and for any other offset alike.

Everything is read from the columns at C speed where it can be (`list.index` scans,
memmoves, one `accumulate` of the bracket depths); a Token object is made only for the
few positions a rule visits.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate, compress, count, repeat
from operator import methodcaller, sub
from typing import NamedTuple, overload

IDENTIFIER = "identifier"
KEYWORD = "keyword"
LITERAL = "literal"
PUNCTUATION = "punctuation"
COMMENT = "comment"

OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = frozenset({")", "]", "}"})
# Bracket text -> its change of the nesting depth (all three kinds count).
_DEPTH = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
# A bracket pair at most this many code tokens long is matched by a walk over the columns
# (cheaper than the whole file's bracket depths, unless those are made already).
_NEAR = 256
# Deleting k items from a list of n moves up to k * n pointers (memmove, fast).
_MAX_MOVES = 1 << 25
# The punctuation a template argument list may hold (so `a < b, c > d` is not one).
_TEMPLATE_INNER = frozenset({"::", ",", "*", "&", "(", ")", "<", ">", ">>", "[", "]", "-", "+"})
_WORDS = (IDENTIFIER, KEYWORD)
# Clang's line breaks: \n, \r, and the pair \r\n counted once (\n\r is two: libclang 15's
# lines, which tests/test_lexer.py compares with).
CLANG_NEWLINE = re.compile(rb"\r\n|\r|\n")
_END = methodcaller("end")


class Token(NamedTuple):
    """One token: `kind`, `text`, `start`/`end` (byte offsets), and `line`/`column`
    (1-based, column in bytes, lines as clang counts them)."""

    kind: str
    text: str
    start: int
    end: int
    line: int
    column: int


_new_token = Token._make


def positions(items: list[str], item: str) -> list[int]:
    """Ascending indices of `item` in `items`: one C-speed `list.index` scan from each
    hit to the next (a few ns an element), not a Python test per element."""
    out: list[int] = []
    i = -1
    find = items.index
    try:
        while True:
            i = find(item, i + 1)
            out.append(i)
    except ValueError:
        return out


def line_starts(source: bytes) -> list[int]:
    """The byte offset of the start of every line, lines counted as clang counts them."""
    if b"\r" in source:
        return [0, *map(_END, CLANG_NEWLINE.finditer(source))]
    starts = list(accumulate(map((1).__add__, map(len, source.split(b"\n"))), initial=0))
    starts.pop()  # the offset one past the end
    return starts


class Tokens(Sequence[Token]):
    """A file's tokens: `texts`, `kinds` (lists), `starts`, `ends` (arrays of unsigned
    32-bit byte offsets: 4 bytes a token, not a list's 36), four parallel columns to read
    for tests at C speed over the whole file, the source, and its line table. `tokens[i]`
    makes Token i; `code()` is the code-token view."""

    __slots__ = ("_code", "_line_starts", "ends", "kinds", "source", "starts", "texts")

    def __init__(  # the four columns and their source
        self,
        texts: list[str],
        kinds: list[str],
        starts: array,
        ends: array,
        source: bytes,
        line_table: list[int] | None = None,  # line_starts(source), if made already
    ) -> None:
        self.texts, self.kinds, self.starts, self.ends = texts, kinds, starts, ends
        self.source = source
        self._line_starts: list[int] | None = line_table
        self._code: CodeTokens | None = None

    @classmethod
    def of(cls, tokens: Sequence[Token], source: bytes) -> Tokens:
        """The columns of a list of Token (the lexer's documented path)."""
        kinds, texts = ([t[f] for t in tokens] for f in range(2))
        starts, ends = (array("I", [t[f] for t in tokens]) for f in (2, 3))
        return cls(texts, kinds, starts, ends, source)

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, i: int) -> Token: ...
    @overload
    def __getitem__(self, i: slice) -> list[Token]: ...
    def __getitem__(self, i: int | slice) -> Token | list[Token]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.texts)))]
        start = self.starts[i]  # raises IndexError, accepts a negative index
        line, column = self.position(start)
        return _new_token((self.kinds[i], self.texts[i], start, self.ends[i], line, column))

    def __iter__(self) -> Iterator[Token]:
        return map(self.__getitem__, range(len(self.texts)))

    @property
    def line_starts(self) -> list[int]:
        """The byte offset of every line's start (made on the first position asked for)."""
        if self._line_starts is None:
            self._line_starts = line_starts(self.source)
        return self._line_starts

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and byte column of a byte offset."""
        starts = self.line_starts
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def positions_of(self, offsets: Sequence[int]) -> tuple[list[int], list[int]]:
        """`position` of each of `offsets`, as two lists (the lines, the columns), made
        at C speed: no Python step per offset."""
        starts = self.line_starts
        lines = list(map(bisect_right, repeat(starts), offsets))
        line_starts = map(starts.__getitem__, map((-1).__add__, lines))
        return lines, list(map(sub, map((1).__add__, offsets), line_starts))

    def code(self) -> CodeTokens:
        """The code tokens (comments dropped), made once."""
        if self._code is None:
            self._code = CodeTokens(self)
        return self._code


class CodeTokens(Sequence[Token]):
    """The code tokens of a `Tokens` (comments dropped): `texts` and `kinds` parallel to
    them (the file's own lists when it has no comment), `view[k]` makes code token k, and
    `match`/`arguments` are the bracket matcher and argument splitter every rule uses.
    `to_all(k)` / `from_all(i)` convert between code-token and all-token indices."""

    def __init__(self, tokens: Tokens) -> None:
        self.all = tokens
        # The all-token indices of the comments, and for each the code index after it.
        self._comments = positions(tokens.kinds, COMMENT)
        self._slots = list(map(sub, self._comments, count()))
        self._texts: list[str] | None = None
        self._kinds: list[str] | None = None
        # The bracket code indices and the depth after each: made on the first match of a
        # far pair (or of any pair once made).
        self._brackets: tuple[list[int], list[int]] | None = None

    @property
    def texts(self) -> list[str]:
        """The code tokens' texts (read-only)."""
        if self._texts is None:
            texts = self.all.texts
            self._texts = _dropped(texts, self._comments) if self._comments else texts
        return self._texts

    @property
    def kinds(self) -> list[str]:
        """The code tokens' kinds (read-only)."""
        if self._kinds is None:
            kinds = self.all.kinds
            self._kinds = _dropped(kinds, self._comments) if self._comments else kinds
        return self._kinds

    def __len__(self) -> int:
        return len(self.all.texts) - len(self._comments)

    @overload
    def __getitem__(self, k: int) -> Token: ...
    @overload
    def __getitem__(self, k: slice) -> list[Token]: ...
    def __getitem__(self, k: int | slice) -> Token | list[Token]:
        n = len(self)
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(n))]
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(k)
        return self.all[self.to_all(k)]

    def to_all(self, k: int) -> int:
        """The all-token index of code token k."""
        return k + bisect_right(self._slots, k) if self._comments else k

    def from_all(self, i: int) -> int:
        """The code index of all-token i (of the next code token if i is a comment; the
        number of code tokens if none follows)."""
        return i - bisect_left(self._comments, i) if self._comments else i

    def start(self, k: int) -> int:
        """Byte offset of code token k."""
        return self.all.starts[self.to_all(k)]

    def end(self, k: int) -> int:
        """Byte offset just past code token k."""
        return self.all.ends[self.to_all(k)]

    def text(self, k: int | None) -> str:
        """The text of code token k ("" out of range or for None)."""
        return self.texts[k] if k is not None and 0 <= k < len(self) else ""

    def punct(self, k: int | None, text: str) -> bool:
        """Code token k is the punctuation `text`."""
        return (
            k is not None
            and 0 <= k < len(self)
            and self.texts[k] == text
            and self.kinds[k] == PUNCTUATION
        )

    def is_member(self, k: int) -> bool:
        """Code token k follows `.` or `->`."""
        return k > 0 and self.kinds[k - 1] == PUNCTUATION and self.texts[k - 1] in (".", "->")

    def brackets(self) -> tuple[list[int], list[int]]:
        """The code indices of the brackets ( [ { } ] ) and the nesting depth after each
        (one `accumulate` from the start of the file, made once)."""
        if self._brackets is None:
            deltas = list(map(_DEPTH.get, self.texts))  # None for any other text
            ks = list(compress(range(len(self)), deltas))
            # only punctuation tokens are spelled as brackets (comments are not code)
            self._brackets = ks, list(accumulate(filter(None, deltas)))
        return self._brackets

    def match(self, k: int, limit: int | None = None) -> int | None:
        """The code index of the bracket closing the one at k ( ( [ { ), None if it does
        not close (before `limit`) with its own kind. A near pair is walked over the
        columns; else, from the bracket depths of the whole file (made once), the first
        later bracket back at the depth before k (a `list.index`)."""
        texts = self.texts
        close = OPENERS.get(texts[k])
        if close is None:
            return None
        if self._brackets is None:
            n = len(self)
            end = n if limit is None else min(limit, n)
            found = self._walk_match(k, close, min(end, k + _NEAR))
            if found is not None or k + _NEAR >= end:
                return found if found != -1 else None
        ks, depth = self.brackets()
        p = bisect_left(ks, k)
        try:
            q = depth.index(depth[p] - 1, p + 1)
        except ValueError:
            return None
        j = ks[q]
        if limit is not None and j >= limit:
            return None
        return j if texts[j] == close else None

    def _walk_match(self, k: int, close: str, end: int) -> int | None:
        """match's walk from k up to `end`: the match, -1 for a bracket that does not
        match, None if the walk reached `end` first."""
        texts, kinds = self.texts, self.kinds
        depth = 0
        for j in range(k, end):
            t = texts[j]
            if t in _DEPTH and kinds[j] == PUNCTUATION:
                depth += _DEPTH[t]
                if depth == 0:
                    return j if t == close else -1
        return None

    def arguments(
        self, open_: int, close: int, *, templates: bool = False
    ) -> list[tuple[int, int]] | None:
        """The top-level comma-separated arguments between the code tokens open_ and close
        (brackets, or any two tokens such as the `<` and `>>` of a launch), as half-open
        code-index ranges [a, b); [] for an empty list, None when the brackets inside do not
        balance. With `templates`, commas inside template argument lists (`f<a, b>`) do
        not split. A far pair that `match` found is split from the bracket depths."""
        if (
            not templates
            and (close - open_ > _NEAR or self._brackets is not None)
            and self.match(open_) == close
        ):
            return self._depth_arguments(open_, close)
        return self._walk_arguments(open_, close, templates)

    def _depth_arguments(self, open_: int, close: int) -> list[tuple[int, int]]:
        """The commas at the pair's own depth: found by `list.index`, their depth by the
        last bracket before each."""
        ks, depth = self.brackets()
        inner = depth[bisect_left(ks, open_)]
        find = self.texts.index
        out: list[tuple[int, int]] = []
        start = j = open_ + 1
        while True:
            try:
                j = find(",", j, close)
            except ValueError:
                break
            if depth[bisect_left(ks, j) - 1] == inner:
                out.append((start, j))
                start = j + 1
            j += 1
        if not out and start >= close:
            return []
        out.append((start, close))
        return out

    def _walk_arguments(
        self, open_: int, close: int, templates: bool
    ) -> list[tuple[int, int]] | None:
        texts, kinds = self.texts, self.kinds
        out: list[tuple[int, int]] = []
        depth = 0
        start = j = open_ + 1
        while j < close:
            if kinds[j] == PUNCTUATION:
                t = texts[j]
                if t == "<" and templates:
                    end = self.template_close(j, close)
                    if end is not None:
                        j = end + 1
                        continue
                elif t in OPENERS:
                    depth += 1
                elif t in CLOSERS:
                    depth -= 1
                    if depth < 0:
                        return None
                elif t == "," and depth == 0:
                    out.append((start, j))
                    start = j + 1
            j += 1
        if depth != 0:
            return None
        if not out and start >= close:
            return []
        out.append((start, close))
        return out

    def template_close(self, k: int, end: int) -> int | None:
        """If code token k is a `<` right after a name and reads as a template argument
        list, the code index of its closing `>` (a `>>` closing two lists counts for the
        outer one too); else None. Only type-like tokens may sit inside."""
        texts, kinds = self.texts, self.kinds
        if texts[k] != "<" or k == 0 or kinds[k - 1] not in _WORDS:
            return None
        depth = 0
        for j in range(k, end):
            text = texts[j]
            if kinds[j] == PUNCTUATION and text not in _TEMPLATE_INNER:
                return None
            if text == "<":
                depth += 1
            elif text == ">":
                depth -= 1
            elif text == ">>":
                depth -= 2
            if depth <= 0 and text in (">", ">>"):
                return j if depth == 0 or (depth == -1 and text == ">>") else None
        return None


def _runs_between(cuts: list[int], n: int) -> list[tuple[int, int]]:
    """The non-empty index ranges [a, b) of 0..n that hold none of the ascending `cuts`."""
    return [(a, b) for a, b in zip((0, *map((1).__add__, cuts)), (*cuts, n), strict=True) if a < b]


def _dropped(items: list, cuts: list[int]) -> list:
    """`items` without the ascending indices `cuts`: a copy with the cuts deleted
    (memmoves) while that stays near linear, else the ranges between the cuts joined."""
    if len(cuts) * len(items) <= _MAX_MOVES:
        out = items[:]
        for i in reversed(cuts):
            del out[i]
        return out
    joined: list = []
    for a, b in _runs_between(cuts, len(items)):
        joined += items[a:b]
    return joined
