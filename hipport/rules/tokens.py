"""Token helpers shared by every rule, over a file's `Tokens` or its code view
(hipport.tokens: brackets and call arguments are the code view's `match` and
`arguments`): significant neighbours, qualified names, template argument lists read
backwards, kernel launch brackets, integer literals, preprocessor directive lines and
#include spellings. Rules never copy these; a helper that a second rule needs moves here."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

from hipport.tokens import (
    CLANG_NEWLINE,
    COMMENT,
    IDENTIFIER,
    KEYWORD,
    LITERAL,
    PUNCTUATION,
    CodeTokens,
    Tokens,
)


def next_code(tokens: Tokens | CodeTokens, i: int) -> int | None:
    """The index of the first token after i that is not a comment."""
    kinds = tokens.kinds
    n = len(kinds)
    i += 1
    while i < n and kinds[i] == COMMENT:
        i += 1
    return i if i < n else None


def prev_code(tokens: Tokens | CodeTokens, i: int) -> int | None:
    """The index of the last token before i that is not a comment."""
    kinds = tokens.kinds
    i -= 1
    while i >= 0 and kinds[i] == COMMENT:
        i -= 1
    return i if i >= 0 else None


def is_punct(tokens: Tokens | CodeTokens, i: int | None, text: str) -> bool:
    return i is not None and tokens.kinds[i] == PUNCTUATION and tokens.texts[i] == text


# CUDA's declaration specifiers (macros, so identifiers to the lexer): never a namespace,
# so `__host__ __device__ ::cudaError_t f();` has the global `::`.
CUDA_SPECIFIERS = frozenset(
    {
        "__global__",
        "__device__",
        "__host__",
        "__shared__",
        "__constant__",
        "__managed__",
        "__forceinline__",
        "__noinline__",
        "__inline__",
        "__restrict__",
        "__grid_constant__",
    }
)


def is_member_or_qualified(tokens: Tokens, i: int, directive_at: dict | None = None) -> bool:
    """Token i follows `.`, `->`, or `X::` where X is a
    user name (not the global `::`). A keyword before `::` (`return ::cudaMalloc(...)`,
    `static ::cudaStream_t s;`) is no namespace: that `::` is the global one. With
    `directive_at` (Context.directive_at), a token in another directive line (the `>`
    ending an #include) does not count as a qualifier. Reads the columns only: no Token
    is made."""
    texts, kinds = tokens.texts, tokens.kinds
    p = prev_code(tokens, i)
    if p is None:
        return False
    prev = texts[p]
    if prev in (".", "->") and kinds[p] != LITERAL:
        return True
    if prev != "::" or kinds[p] != PUNCTUATION:
        return False
    q = prev_code(tokens, p)
    if q is None:
        return False
    if kinds[q] == IDENTIFIER:
        if texts[q] in CUDA_SPECIFIERS:
            return False
    elif texts[q] != ">" or kinds[q] != PUNCTUATION:
        return False
    return directive_at is None or directive_at.get(q) is directive_at.get(i)


def close_of(tokens: Tokens, i: int) -> int | None:
    """The code view's `match` in all-token indices: the index of the bracket closing the
    one at all-token index i (None if it does not close)."""
    code = tokens.code()
    close = code.match(code.from_all(i))
    return None if close is None else code.to_all(close)


def template_open(tokens: Tokens | CodeTokens, p: int) -> int | None:
    """Index of the `<` opening the template argument list that ends at token p (a `>`
    or `>>`), walking backwards over balanced (...) and [...]; None at ; { } first."""
    texts, kinds = tokens.texts, tokens.kinds
    depth = 0
    j = p
    while j >= 0:
        if kinds[j] != COMMENT:
            t = texts[j]
            if t == ">":
                depth += 1
            elif t == ">>":
                depth += 2
            elif t == "<":
                depth -= 1
                if depth == 0:
                    return j
            elif t in (";", "{", "}"):
                return None
            elif t in (")", "]"):
                opener = _back_match(texts, j)
                if opener is None:
                    return None
                j = opener
        j -= 1
    return None


def opening_bracket(texts: list[str], j: int) -> int | None:
    """The index of the ( or [ that the ) or ] at j closes."""
    return _back_match(texts, j)


def _back_match(texts: list[str], j: int) -> int | None:
    """The index of the ( or [ that the ) or ] at j closes (counting that kind only)."""
    close = texts[j]
    open_ = "(" if close == ")" else "["
    depth = 0
    while j >= 0:
        t = texts[j]
        if t == close:
            depth += 1
        elif t == open_:
            depth -= 1
            if depth == 0:
                return j
        j -= 1
    return None


def code_range(tokens: Tokens, a: int, b: int) -> tuple[int, int] | None:
    """Shrink [a, b) to its first and last non-comment tokens; None if only comments."""
    kinds = tokens.kinds
    while a < b and kinds[a] == COMMENT:
        a += 1
    while b > a and kinds[b - 1] == COMMENT:
        b -= 1
    return (a, b) if a < b else None


def adjacent(tokens: Tokens | CodeTokens, i: int) -> bool:
    """Tokens i and i + 1 touch (no space between them)."""
    return i + 1 < len(tokens) and tokens[i].end == tokens[i + 1].start


def is_launch_open(tokens: Tokens | CodeTokens, i: int) -> bool:
    """`<<<` lexes as `<<` `<`."""
    texts = tokens.texts
    return (
        texts[i] == "<<"
        and tokens.kinds[i] == PUNCTUATION
        and i + 1 < len(texts)
        and texts[i + 1] == "<"
        and adjacent(tokens, i)
    )


def is_launch_close(tokens: Tokens | CodeTokens, i: int) -> bool:
    """`>>>` lexes as `>>` `>`."""
    texts = tokens.texts
    return (
        texts[i] == ">>"
        and tokens.kinds[i] == PUNCTUATION
        and i + 1 < len(texts)
        and texts[i + 1] == ">"
        and adjacent(tokens, i)
    )


class Directive(NamedTuple):
    """One preprocessor directive: `#` at token index `hash`, its name (include, define,
    if, ...; "" for a null directive), the token range [hash, end) it spans (backslash
    continuations included), and the byte range of its whole line(s) including the
    newline that ends it. (A NamedTuple: a file has thousands, made in a few instructions
    each.)"""

    name: str
    hash: int
    end: int
    line_start: int
    line_end: int


_new_directive = partial(tuple.__new__, Directive)  # Directive(...) without its Python __new__


def _logical_line_end(source: bytes, pos: int) -> int:
    """Offset just after the line break ending the logical line that holds pos (breaks as
    clang reads them: \n, a lone \r, \r\n; one after a backslash continues the line)."""
    for m in CLANG_NEWLINE.finditer(source, pos):
        at = m.start()
        if at == 0 or source[at - 1] != 0x5C:  # no backslash: the line ends here
            return m.end()
    return len(source)


def directives(source: bytes, tokens: Tokens) -> list[Directive]:
    """Every preprocessor directive in the file, in order.

    Only the `#` bytes of the source are looked at (bytes.find), each matched to the token
    starting there by bisection over the token starts: no walk over the other tokens."""
    texts, kinds, starts = tokens.texts, tokens.kinds, tokens.starts
    out: list[Directive] = []
    n = len(texts)
    find = source.find
    pos = find(b"#")
    lo = 0
    while pos != -1:
        i = lo = bisect_left(starts, pos, lo)
        if (
            i == n
            or starts[i] != pos
            or texts[i] != "#"
            or kinds[i] != PUNCTUATION
            or not (pos == 0 or source[pos - 1] == 0x0A or _at_line_start(source, pos))
        ):
            pos = find(b"#", pos + 1)  # in a comment or a literal, `##`, or not first
            continue
        line_start = max(source.rfind(b"\n", 0, pos), source.rfind(b"\r", 0, pos)) + 1
        line_end = find(b"\n", pos) + 1
        if (
            line_end == 0  # the end
            or source[line_end - 2] in b"\\\r"  # a continuation, CRLF
            or source.find(b"\r", pos, line_end) != -1  # a lone CR before the \n
        ):
            line_end = _logical_line_end(source, pos)
        # a block comment may run past the line end; the directive still ends there
        j = bisect_left(starts, line_end, i + 1)
        name = ""
        if i + 1 < j and (kinds[i + 1] == IDENTIFIER or kinds[i + 1] == KEYWORD):
            name = texts[i + 1]
        out.append(_new_directive((name, i, j, line_start, line_end)))
        pos = find(b"#", line_end)
    return out


def _at_line_start(source: bytes, pos: int) -> bool:
    k = pos - 1
    while k >= 0 and source[k] in b" \t\f\v":
        k -= 1
    return k < 0 or source[k] in b"\n\r" or (k == 2 and source[:3] == b"\xef\xbb\xbf")


INCLUDE_DIRECTIVES = frozenset({"include", "include_next", "import"})


@dataclass(frozen=True)
class IncludeSpelling:
    """What an #include names: the header text, whether it is "quoted" (else <angled>),
    and the byte range of the header text inside the quotes or brackets."""

    header: str
    quoted: bool
    start: int
    end: int


def include_spelling(source: bytes, tokens: Tokens, d: Directive) -> IncludeSpelling | None:
    """The header an #include / #include_next / #import directive names; None for a
    computed include (#include MACRO) or an empty one. No Token is made."""
    texts, kinds, starts, ends = tokens.texts, tokens.kinds, tokens.starts, tokens.ends
    base = 0
    body = [i - base for i in range(d.hash + 2, d.end) if kinds[i - base] != COMMENT]
    if not body:
        return None
    first = body[0]
    text = texts[first]
    if kinds[first] == LITERAL and text.startswith('"') and text.endswith('"'):
        return IncludeSpelling(text[1:-1], True, starts[first] + 1, ends[first] - 1)
    if kinds[first] == PUNCTUATION and text == "<":
        for i in body[1:]:
            if kinds[i] == PUNCTUATION and texts[i] == ">":
                start, end = ends[first], starts[i]
                header = source[start:end].decode("utf-8", "surrogateescape")
                return IncludeSpelling(header, False, start, end)
    return None


def int_value(text: str) -> int | None:
    """The value of an integer literal token (0x1f, 32u, 0b11, 1'000), else None."""
    body = text.replace("'", "").rstrip("uUlLzZ")
    try:
        if body[:2] in ("0x", "0X"):
            return int(body[2:], 16)
        if body[:2] in ("0b", "0B"):
            return int(body[2:], 2)
        if len(body) > 1 and body[0] == "0":
            return int(body[1:], 8)
        return int(body, 10)
    except ValueError:
        return None
