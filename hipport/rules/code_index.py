"""Lookups over the file's code tokens (`tokens`, the code view of hipport.tokens:
comments dropped, with its bracket matcher and argument splitter), indexed once per file,
and the structure several rules read: directive lines, #defines, #includes, function
bodies.

One per file (Context.code), every part made on first use from the lexer's columns at C
speed, never by a Python pass over the tokens: whether the file has a text at all
(ctx.identifiers for names, a bytes test of the source for a few other texts, one set
intersection with the rules' vocabularies otherwise), a present text's positions (a
`list.index` scan, or one `compress` pass for many texts) and function bodies. A check
that returns on ctx.identifiers alone costs nothing here.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import chain, compress
from typing import TYPE_CHECKING

from hipport.findings import Finding, RuleInfo
from hipport.lexer import lex
from hipport.rules.tokens import INCLUDE_DIRECTIVES, include_spelling, int_value
from hipport.tokens import (
    COMMENT,
    IDENTIFIER,
    KEYWORD,
    LITERAL,
    PUNCTUATION,
    Token,
    positions,
)

if TYPE_CHECKING:
    from hipport.rules.file_context import FileContext as Context

# The texts the index itself looks up (function bodies).
_STRUCTURE = frozenset({"{"})
# Words that may stand between a parameter list's `)` and a function body's `{`.
_AFTER_PARAMETERS = frozenset(
    {"const", "noexcept", "override", "final", "mutable", "volatile", "&", "&&"}
)
# Up to this many texts are located by a `list.index` scan each (about a fifth of the
# cost of one `compress` pass each), more by one `compress` pass for all.
_FEW_TEXTS = 4
_DEVICE_WORDS = frozenset({"__device__", "__global__"})


@dataclass(frozen=True)
class Body:
    """A function body: code-token indices of its header start, `{` and `}`."""

    head: int
    open: int
    close: int
    name: str  # the function's name ("" when not found, e.g. a lambda)


@dataclass(frozen=True)
class Define:
    name: str
    name_index: int  # code-token index of the macro name
    value: tuple[int, ...]  # code-token indices of the replacement list
    function_like: bool


class CodeIndex:
    """Lookups over the file's code tokens and the structure the checks share.

    `tokens` is the code view (ctx.tokens.code()): every index here and in what it returns
    is a code-token index. Lookups by text (`indices`) read positions found at C speed:
    which of the asked texts the file has at all (one set intersection for all the
    vocabularies, on the first lookup), then where a present text is, on its first lookup
    (a `list.index` scan from one to the next, or one `compress` pass for many texts)."""

    def __init__(self, ctx: Context, vocabulary: Collection[str] = ()) -> None:
        self.ctx = ctx
        self.tokens = ctx.tokens.code()
        # What is known of the texts in self._indexed (the rules' vocabularies, asked for
        # all at the first lookup, others on their own): `_present` those the file has;
        # `_at` text -> the ascending code-token indices of the tokens (any kind) spelled
        # so, for the present texts looked up already.
        self._pending: frozenset[str] = _STRUCTURE | frozenset(vocabulary)
        self._indexed: set[str] = set()
        self._present: set[str] = set()
        self._at: dict[str, list[int]] = {}

    @cached_property
    def lowered_source(self) -> bytes:
        """The source with ASCII letters lower-cased (same offsets)."""
        return self.ctx.source.lower()

    def containing(self, words: tuple[bytes, ...], lowered: bool = False) -> list[int]:
        """Ascending code-token indices of the code tokens holding one of `words` in the
        source (`lowered`: in the lower-cased source): `bytes.find` from one token to the
        next, one bisect per token found, for words no vocabulary can list (every name
        holding "warp")."""
        source = self.lowered_source if lowered else self.ctx.source
        cols = self.ctx.tokens
        starts, ends, kinds = cols.starts, cols.ends, cols.kinds
        found: set[int] = set()
        for word in words:
            at = source.find(word)
            while at >= 0:
                i = bisect_right(starts, at) - 1
                after = at + 1  # the next search starts past this token (or this byte)
                while 0 <= i < len(starts) and starts[i] < at + len(word):
                    if ends[i] > at:
                        if kinds[i] != COMMENT:
                            found.add(i)
                        after = max(after, ends[i])
                    i += 1
                at = source.find(word, after)
        return sorted(map(self.tokens.from_all, found))

    def _know(self, texts: Collection[str]) -> None:
        """Learn which of `texts` (and of the vocabularies, the first time) the file has:
        one C-speed pass over the texts."""
        if self._indexed.issuperset(texts):  # the common case, tested in C
            return
        missing = set(texts) - self._indexed
        if self._pending:
            missing |= self._pending - self._indexed
            self._pending = frozenset()
        self._indexed |= missing
        self._present |= missing.intersection(self.tokens.texts)

    def _locate(self, texts: Collection[str]) -> None:
        """Find the positions of the present `texts` not located yet: one `compress` pass
        for all of them when they are many, else a `list.index` scan for each (cheaper
        than a pass of Python calls for a few texts)."""
        todo = [t for t in texts if t not in self._at]
        if len(todo) <= _FEW_TEXTS:
            for t in todo:
                self._at[t] = positions(self.tokens.texts, t)
            return
        all_texts = self.tokens.texts
        hits = list(compress(range(len(self.tokens)), map(frozenset(todo).__contains__, all_texts)))
        hit_texts = list(map(all_texts.__getitem__, hits))
        for t in todo:
            self._at[t] = list(compress(hits, map(t.__eq__, hit_texts)))

    def indices(self, texts: Collection[str], kinds: Collection[str] = (IDENTIFIER,)) -> list[int]:
        """Ascending code-token indices of the tokens spelled as one of `texts` and of one
        of `kinds` (identifiers by default)."""
        want = self._present_of(texts, kinds)
        if not want:
            return []
        self._locate(want)
        at = self._at
        if len(want) == 1:
            ks = at[next(iter(want))]
        else:  # ascending runs, merged (a token has one text: no duplicates)
            ks = sorted(chain.from_iterable(map(at.__getitem__, want)))
        return list(compress(ks, map(kinds.__contains__, map(self.tokens.kinds.__getitem__, ks))))

    def _present_of(self, texts: Collection[str], kinds: Collection[str]) -> set[str]:
        """The texts of `texts` the file may have as a token of one of `kinds` (a superset:
        the positions decide): the identifiers from ctx.identifiers (the file's distinct
        identifier texts), keywords among the texts the lexer makes keywords, and a few
        other texts when their bytes are in the source; else one pass over the texts."""
        found = self.ctx.identifiers.intersection(texts) if IDENTIFIER in kinds else set()
        if all(kind == IDENTIFIER for kind in kinds):
            return found
        rest = [t for t in texts if t not in found]
        if all(kind in (IDENTIFIER, KEYWORD) for kind in kinds):
            keywords = _keywords(frozenset(texts)) if rest else frozenset()
            rest = [t for t in rest if t in keywords]
        if len(rest) <= _FEW_TEXTS * 2:
            source = self.ctx.source
            return found | {t for t in rest if _encoded(t) in source}
        self._know(texts)
        return found | self._present.intersection(rest)

    def mentions(self, texts: Collection[str]) -> bool:
        """Some identifier is spelled as one of `texts`."""
        return not self.ctx.identifiers.isdisjoint(texts)

    def names_where(self, test: Callable[[str], bool]) -> list[str]:
        """Distinct token texts passing `test` (each text tested once)."""
        return [t for t in self.distinct_texts if test(t)]

    @cached_property
    def distinct_texts(self) -> frozenset[str]:
        """The distinct code-token texts."""
        return frozenset(self.tokens.texts)

    def finding(self, info: RuleInfo, a: int, b: int, message: str, **fields: object) -> Finding:
        """A finding spanning code tokens a..b inclusive."""
        return self.ctx.finding(
            info.code, self.tokens.start(a), self.tokens.end(b), message, **fields
        )

    @cached_property
    def directive_ranges(self) -> list[tuple[str, int, int]]:
        """(name, first, end) of every directive, in code-token indices."""
        out = []
        code_index = self.tokens.from_all
        for d in self.ctx.directives:
            # the code tokens of [hash, end) are consecutive code tokens
            first, end = code_index(d.hash), code_index(d.end)
            if first < end:
                out.append((d.name, first, end))
        return out

    @cached_property
    def in_directive(self) -> frozenset[int]:
        """The code-token indices inside a directive line (a set as large as the
        directives: `directive_at`/`in_directive_at` answer one index without it)."""
        return frozenset(k for _, a, b in self.directive_ranges for k in range(a, b))

    @cached_property
    def _directive_bounds(self) -> tuple[list[int], list[int]]:
        """The first and end code-token indices of the directives (ascending, disjoint)."""
        ranges = self.directive_ranges
        return [a for _, a, _ in ranges], [b for _, _, b in ranges]

    def in_directive_at(self, k: int) -> bool:
        """Code token k is part of a directive line."""
        return self._directive_end_before(k + 1) > k

    def _directive_end_before(self, k: int) -> int:
        """The end of the last directive starting before code token k (0 if none)."""
        firsts, ends = self._directive_bounds
        i = bisect_left(firsts, k) - 1
        return ends[i] if i >= 0 else 0

    @cached_property
    def defines(self) -> list[Define]:
        out = []
        for name, a, b in self.directive_ranges:
            if name != "define" or b - a < 3:
                continue
            n = a + 2
            fn = self.tokens.punct(n + 1, "(") and self.tokens.end(n) == self.tokens.start(n + 1)
            out.append(Define(self.tokens.texts[n], n, tuple(range(n + 1, b)), fn))
        return out

    @cached_property
    def includes(self) -> list[tuple[str, int, int]]:
        """(header text, first, last) of every #include, in code-token indices (the whole
        directive), for the includes tokens.include_spelling can read."""
        out = []
        ctx = self.ctx
        for d in ctx.directives:
            if d.name not in INCLUDE_DIRECTIVES:
                continue
            a, b = self.tokens.from_all(d.hash), self.tokens.from_all(d.end)
            if a < b and (spelled := include_spelling(ctx.source, ctx.tokens, d)) is not None:
                out.append((spelled.header, a, b - 1))
        return out

    @cached_property
    def bodies(self) -> list[Body]:
        """Outermost function bodies: a `{` after `)` (or a trailing const/noexcept/...)
        outside any other function body. Namespace, class and initializer braces are
        walked into, never taken as bodies."""
        out: list[Body] = []
        ks, _ = self.tokens.brackets()
        texts = self.tokens.texts
        opens = list(compress(ks, map("{".__eq__, map(texts.__getitem__, ks))))
        i = 0
        while i < len(opens):
            k = opens[i]
            i += 1
            if self.in_directive_at(k) or not self._opens_function(k):
                continue
            close = self.tokens.match(k)
            if close is not None:
                out.append(Body(self._head(k), k, close, self._name(k)))
                i = bisect_left(opens, close + 1, i)  # braces inside it are not bodies
        return out

    def _opens_function(self, k: int) -> bool:
        p = k - 1
        texts = self.tokens.texts
        while p >= 0 and texts[p] in _AFTER_PARAMETERS:
            p -= 1
        return self.tokens.punct(p, ")")

    def _name(self, k: int) -> str:
        """The identifier before the parameter list that ends right before `{` at k."""
        texts, kinds = self.tokens.texts, self.tokens.kinds
        p = k - 1
        while p >= 0 and not (texts[p] == ")" and kinds[p] == PUNCTUATION):
            p -= 1
        depth = 0
        while p >= 0:
            t = texts[p]
            if t == ")" and kinds[p] == PUNCTUATION:
                depth += 1
            elif t == "(" and kinds[p] == PUNCTUATION:
                depth -= 1
                if depth == 0:
                    break
            p -= 1
        return self.tokens.texts[p - 1] if p >= 1 and self.tokens.kinds[p - 1] == IDENTIFIER else ""

    def declaration_start(self, k: int) -> int:
        """Start of the declaration code token k belongs to (k is not in a directive):
        after the previous ; { } or directive line."""
        return self._head(k)

    def _head(self, k: int) -> int:
        """Start of the declaration a body belongs to (k is not in a directive): after the
        previous ; { } or directive line."""
        texts, kinds = self.tokens.texts, self.tokens.kinds
        stop = self._directive_end_before(k)  # the directive before k ends there
        p = k - 1
        depth = 0
        while p >= stop:
            if kinds[p] == PUNCTUATION:
                t = texts[p]
                if t in (")", "]"):
                    depth += 1
                elif t in ("(", "["):
                    depth -= 1
                elif depth <= 0 and t in (";", "{", "}"):
                    break
            p -= 1
        return p + 1

    def is_dead(self, k: int) -> bool:
        """Code token k sits in an #if arm hipcc does not compile (rules.branches, worked
        out on the first question: ask it last, of the few tokens that would be found)."""
        return self.ctx.branches.is_dead(self.tokens.start(k))

    def body_at(self, k: int) -> Body | None:
        for b in self.bodies:
            if b.open < k < b.close:
                return b
        return None

    def between(self, ks: list[int], a: int, b: int) -> list[int]:
        """The indices of ascending `ks` in [a, b)."""
        return ks[bisect_left(ks, a) : bisect_left(ks, b)]

    def is_device_body(self, body: Body) -> bool:
        return not _DEVICE_WORDS.isdisjoint(self.tokens.texts[body.head : body.open])

    def device_kind(self, body: Body) -> str | None:
        """ "device" (a __global__ function, or __device__ without __host__), "host-device"
        (__host__ __device__) or None (host code)."""
        head = set(self.tokens.texts[body.head : body.open])
        if "__global__" in head or ("__device__" in head and "__host__" not in head):
            return "device"
        return "host-device" if "__device__" in head else None

    def describe_function(self, body: Body) -> str:
        """`__global__ function name` / `__device__ function name`, for messages."""
        head = self.tokens.texts[body.head : body.open]
        kind = "__global__" if "__global__" in head else "__device__"
        return f"{kind} function {body.name}" if body.name else f"a {kind} function"

    def int_of(self, ks: tuple[int, ...] | list[int]) -> int | None:
        """The value of an expression that is one integer literal (in parentheses or not)."""
        toks = self.value_of(ks)
        if len(toks) == 1 and toks[0].kind == LITERAL:
            return int_value(toks[0].text)
        return None

    def value_of(self, ks: tuple[int, ...] | list[int]) -> tuple[Token, ...]:
        """Tokens of an expression with one level of surrounding parentheses dropped."""
        toks = [self.tokens[k] for k in ks]
        while len(toks) >= 2 and toks[0].text == "(" and toks[-1].text == ")":
            toks = toks[1:-1]
        return tuple(toks)


@lru_cache(maxsize=1 << 12)
def _encoded(text: str) -> bytes:
    """A token text as the bytes it was sliced from."""
    return text.encode("utf-8", "surrogateescape")


@lru_cache(maxsize=256)
def _keywords(texts: frozenset[str]) -> frozenset[str]:
    """The texts the lexer makes keywords (its language options decide, not the file)."""
    words = [t for t in texts if t.isidentifier() and t.isascii()]
    if not words:
        return frozenset()
    lexed = lex(" ".join(sorted(words)).encode())
    return frozenset(t for t, k in zip(lexed.texts, lexed.kinds, strict=True) if k == KEYWORD)
