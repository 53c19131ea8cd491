"""Token helpers shared by every rule: significant neighbours, matching brackets (round,
square, curly and template angle brackets, forwards and backwards), call arguments,
integer literals, preprocessor directive lines and #include spellings. Rules never copy
these; a helper that a second rule needs moves here."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

from hipport.lexer import (
    COMMENT,
    IDENTIFIER,
    KEYWORD,
    LITERAL,
    PUNCTUATION,
    Columns,
    Token,
    TokenList,
    columns,
)

OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = {")", "]", "}"}


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


def next_code(tokens: list[Token], i: int) -> int | None:
    """Index of the next token after i that is not a comment."""
    n = len(tokens)
    i += 1
    while i < n:
        if tokens[i].kind != COMMENT:
            return i
        i += 1
    return None


def prev_code(tokens: list[Token], i: int) -> int | None:
    """Index of the previous token before i that is not a comment."""
    i -= 1
    while i >= 0:
        if tokens[i].kind != COMMENT:
            return i
        i -= 1
    return None


def is_punct(tokens: list[Token], i: int | None, text: str) -> bool:
    return i is not None and tokens[i].kind == PUNCTUATION and tokens[i].text == text


def is_word(token: Token) -> bool:
    return token.kind == IDENTIFIER or token.kind == KEYWORD


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


def is_member_or_qualified(
    cols: TokenList | Columns, i: int, directive_at: dict | None = None
) -> bool:
    """Token i (of the columns: Context.columns) follows `.`, `->`, or `X::` where X is a
    user name (not the global `::`). A keyword before `::` (`return ::cudaMalloc(...)`,
    `static ::cudaStream_t s;`) is no namespace: that `::` is the global one. With
    `directive_at` (Context.directive_at), a token in another directive line (the `>`
    ending an #include) does not count as a qualifier. Reads the columns only: no Token
    is made."""
    texts, kinds = cols.texts, cols.kinds
    p = prev_code_at(kinds, i)
    if p is None:
        return False
    prev = texts[p]
    if prev in (".", "->") and kinds[p] != LITERAL:
        return True
    if prev != "::" or kinds[p] != PUNCTUATION:
        return False
    q = prev_code_at(kinds, p)
    if q is None:
        return False
    if kinds[q] == IDENTIFIER:
        if texts[q] in CUDA_SPECIFIERS:
            return False
    elif texts[q] != ">" or kinds[q] != PUNCTUATION:
        return False
    return directive_at is None or directive_at.get(q) is directive_at.get(i)


def prev_code_at(kinds: list[str], i: int) -> int | None:
    """prev_code over the kinds column: the index of the last non-comment before i."""
    i -= 1
    while i >= 0 and kinds[i] == COMMENT:
        i -= 1
    return i if i >= 0 else None


def next_code_at(kinds: list[str], i: int) -> int | None:
    """next_code over the kinds column: the index of the first non-comment after i."""
    n = len(kinds)
    i += 1
    while i < n and kinds[i] == COMMENT:
        i += 1
    return i if i < n else None


class LazyTokens(Sequence[Token]):
    """A file's tokens made one at a time when indexed (`Context.token`), for the helpers
    here at the few positions a rule visits, without a list of every Token."""

    __slots__ = ("_n", "_token")

    def __init__(self, token: Callable[[int], Token], n: int) -> None:
        self._token, self._n = token, n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: int) -> Token:  # type: ignore[override] (no slices)
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._token(i)


def matching(tokens: list[Token], i: int, limit: int | None = None) -> int | None:
    """Index of the bracket closing the one at i ( ( [ { ), or None if unbalanced."""
    close = OPENERS.get(tokens[i].text)
    if close is None:
        return None
    depth = 0
    end = len(tokens) if limit is None else limit
    for j in range(i, end):
        tok = tokens[j]
        if tok.kind != PUNCTUATION:
            continue
        if tok.text in OPENERS:
            depth += 1
        elif tok.text in CLOSERS:
            depth -= 1
            if depth == 0:
                return j if tok.text == close else None
    return None


def split_args(
    tokens: list[Token], open_i: int, close_i: int, *, templates: bool = False
) -> list[tuple[int, int]] | None:
    """Top-level comma-separated arguments between brackets at open_i and close_i, as
    half-open token index ranges [a, b). None when brackets inside do not balance.
    An empty argument list gives []. With `templates`, commas inside template argument
    lists (`f<a, b>`) do not split."""
    args: list[tuple[int, int]] = []
    depth = 0
    start = open_i + 1
    j = open_i + 1
    while j < close_i:
        tok = tokens[j]
        if tok.kind == PUNCTUATION:
            if templates and tok.text == "<":
                k = template_close(tokens, j, close_i)
                if k is not None:
                    j = k + 1
                    continue
            elif tok.text in OPENERS:
                depth += 1
            elif tok.text in CLOSERS:
                depth -= 1
                if depth < 0:
                    return None
            elif tok.text == "," and depth == 0:
                args.append((start, j))
                start = j + 1
        j += 1
    if depth != 0:
        return None
    if not args and not _has_code(tokens, start, close_i):
        return []
    args.append((start, close_i))
    return args


_TEMPLATE_INNER = frozenset({"::", ",", "*", "&", "(", ")", "<", ">", ">>", "[", "]", "-", "+"})


def template_close(tokens: list[Token], i: int, end: int) -> int | None:
    """If tokens[i] is a `<` right after a name and reads as a template argument list,
    the index of its closing `>` (a `>>` closing two lists counts for the outer one too);
    else None. Only type-like tokens may sit inside, so `a < b, c > d` is not taken."""
    if tokens[i].text != "<" or i == 0 or not is_word(tokens[i - 1]):
        return None
    depth = 0
    for j in range(i, end):
        tok = tokens[j]
        if tok.kind == COMMENT:
            continue
        text = tok.text
        if tok.kind == PUNCTUATION and text not in _TEMPLATE_INNER:
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


def template_open(tokens: list[Token], p: int) -> int | None:
    """Index of the `<` opening the template argument list that ends at tokens[p] (a `>`
    or `>>`), walking backwards over balanced (...) and [...]; None at ; { } first."""
    depth = 0
    j = p
    while j >= 0:
        t = tokens[j]
        if t.kind != COMMENT:
            if t.text == ">":
                depth += 1
            elif t.text == ">>":
                depth += 2
            elif t.text == "<":
                depth -= 1
                if depth == 0:
                    return j
            elif t.text in (";", "{", "}"):
                return None
            elif t.text in (")", "]"):
                opener = _back_match(tokens, j)
                if opener is None:
                    return None
                j = opener
        j -= 1
    return None


def _back_match(tokens: list[Token], j: int) -> int | None:
    close = tokens[j].text
    open_ = "(" if close == ")" else "["
    depth = 0
    while j >= 0:
        t = tokens[j].text
        if t == close:
            depth += 1
        elif t == open_:
            depth -= 1
            if depth == 0:
                return j
        j -= 1
    return None


def split_template_args(
    tokens: list[Token], open_i: int, close_i: int
) -> list[tuple[int, int]] | None:
    """As split_args, but commas inside template argument lists (`f<a, b>`) do not split."""
    return split_args(tokens, open_i, close_i, templates=True)


def _has_code(tokens: list[Token], a: int, b: int) -> bool:
    return any(tokens[k].kind != COMMENT for k in range(a, b))


def code_range(tokens: list[Token], a: int, b: int) -> tuple[int, int] | None:
    """Shrink [a, b) to its first and last non-comment tokens; None if only comments."""
    while a < b and tokens[a].kind == COMMENT:
        a += 1
    while b > a and tokens[b - 1].kind == COMMENT:
        b -= 1
    return (a, b) if a < b else None


def adjacent(tokens: list[Token], i: int) -> bool:
    """tokens[i] and tokens[i + 1] touch (no space between them)."""
    return i + 1 < len(tokens) and tokens[i].end == tokens[i + 1].start


def is_launch_open(tokens: list[Token], i: int) -> bool:
    """`<<<` lexes as `<<` `<`."""
    return (
        tokens[i].text == "<<"
        and tokens[i].kind == PUNCTUATION
        and adjacent(tokens, i)
        and tokens[i + 1].text == "<"
    )


def is_launch_close(tokens: list[Token], i: int) -> bool:
    """`>>>` lexes as `>>` `>`."""
    return (
        tokens[i].text == ">>"
        and tokens[i].kind == PUNCTUATION
        and adjacent(tokens, i)
        and tokens[i + 1].text == ">"
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
    """Offset just after the newline ending the logical line that holds pos."""
    n = len(source)
    while True:
        nl = source.find(b"\n", pos)
        if nl == -1:
            return n
        k = nl - 1
        if k >= 0 and source[k] == 0x0D:
            k -= 1
        if k >= 0 and source[k] == 0x5C:  # backslash: the line continues
            pos = nl + 1
            continue
        return nl + 1


def directives(source: bytes, tokens: list[Token] | Columns) -> list[Directive]:
    """Every preprocessor directive in the file, in order.

    Only the `#` bytes of the source are looked at (bytes.find), each matched to the token
    starting there by bisection over the token starts: no walk over the other tokens."""
    cols = columns(tokens)
    texts, kinds, starts = cols.texts, cols.kinds, cols.starts
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
        line_start = source.rfind(b"\n", 0, pos) + 1
        line_end = find(b"\n", pos) + 1
        if line_end == 0 or source[line_end - 2] in b"\\\r":  # the end, a continuation, CR
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


def include_spelling(
    source: bytes, tokens: list[Token] | Columns, d: Directive
) -> IncludeSpelling | None:
    """The header an #include / #include_next / #import directive names; None for a
    computed include (#include MACRO) or an empty one. `tokens`: the file's tokens, or
    their columns (then no Token is made)."""
    if isinstance(tokens, Columns) or hasattr(tokens, "texts"):
        texts, kinds, starts, ends = tokens.texts, tokens.kinds, tokens.starts, tokens.ends
        base = 0
    else:  # Token objects: the directive's own, as columns
        part = tokens[d.hash : d.end]
        kinds, texts, starts, ends = ([t[f] for t in part] for f in range(4))
        base = d.hash
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
