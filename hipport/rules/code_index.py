"""The file's code tokens (comments dropped), indexed once per file, and the structure
several rules read: directive lines, #defines, #includes, function bodies, brackets.

One per file (Context.code), every part made on first use from the lexer's columns at C
speed, never by a Python pass over the tokens: the code tokens' texts and kinds (comments
found by `list.index`, cut out by memmove), whether the file has a text at all
(ctx.identifiers for names, a bytes test of the source for a few other texts, one set
intersection with the rules' vocabularies otherwise), a present text's positions (a
`list.index` scan, or one `compress` pass for many texts), bracket pairs (a walk over the
columns for a near pair, else one `accumulate` of the whole file's bracket depths) and
function bodies. A check that returns on ctx.identifiers alone costs nothing here.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import accumulate, chain, compress, count
from operator import sub
from typing import TYPE_CHECKING, overload

from hipport.findings import Finding, RuleInfo
from hipport.lexer import COMMENT, IDENTIFIER, KEYWORD, LITERAL, PUNCTUATION, Token, lex_columns
from hipport.rules.branches import branches
from hipport.rules.tokens import (
    INCLUDE_DIRECTIVES,
    OPENERS,
    include_spelling,
    int_value,
    positions,
)

if TYPE_CHECKING:
    from hipport.rules.context import Context

# The texts the index itself looks up (function bodies).
_STRUCTURE = frozenset({"{"})
# Bracket text -> its change of the nesting depth (tokens.matching counts all three kinds).
_DEPTH = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
# Words that may stand between a parameter list's `)` and a function body's `{`.
_AFTER_PARAMETERS = frozenset(
    {"const", "noexcept", "override", "final", "mutable", "volatile", "&", "&&"}
)
# A bracket pair at most this many code tokens long is matched by a walk over the columns
# (cheaper than the whole file's bracket depths, unless those are made already).
_NEAR = 256
# Up to this many texts are located by a `list.index` scan each (about a fifth of the
# cost of one `compress` pass each), more by one `compress` pass for all.
_FEW_TEXTS = 4
# Deleting k items from a list of n moves up to k * n pointers (memmove, fast).
_MAX_MOVES = 1 << 25
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
    """The file's code tokens (comments dropped) and the structure the checks share.

    `texts` and `kinds` are lists parallel to the code tokens (read-only: without comments
    in the file they are the Context's own columns), `orig` maps a code-token index to its
    index in ctx.tokens and `toks` holds the Token objects (all made on first use).
    Lookups by text (`indices`) read positions found at C speed: which of the asked texts
    the file has at all (one set intersection for all the vocabularies, on the first
    lookup), then where a present text is, on its first lookup (a `list.index` scan from
    one to the next, or one `compress` pass for many texts at once)."""

    def __init__(self, ctx: Context, vocabulary: Collection[str] = ()) -> None:
        self.ctx = ctx
        # What is known of the texts in self._indexed (the rules' vocabularies, asked for
        # all at the first lookup, others on their own): `_present` those the file has;
        # `_at` text -> the ascending code-token indices of the tokens (any kind) spelled
        # so, for the present texts looked up already.
        self._pending: frozenset[str] = _STRUCTURE | frozenset(vocabulary)
        self._indexed: set[str] = set()
        self._present: set[str] = set()
        self._at: dict[str, list[int]] = {}

    @cached_property
    def _comments(self) -> list[int]:
        """The ctx-token indices of the comments."""
        return positions(self.ctx.kinds, COMMENT)

    @cached_property
    def texts(self) -> list[str]:
        """The code tokens' texts (made on first use: a check that returns on
        ctx.identifiers alone never pays for them)."""
        texts = self.ctx.texts
        return _dropped(texts, self._comments) if self._comments else texts

    @cached_property
    def kinds(self) -> list[str]:
        """The code tokens' kinds."""
        kinds = self.ctx.kinds
        return _dropped(kinds, self._comments) if self._comments else kinds

    @cached_property
    def n(self) -> int:
        """The number of code tokens."""
        return len(self.ctx.kinds) - len(self._comments)

    @cached_property
    def orig(self) -> list[int]:
        """Code-token index -> index in ctx.tokens."""
        out: list[int] = []
        for a, b in _runs_between(self._comments, len(self.ctx.kinds)):
            out += range(a, b)
        return out

    @cached_property
    def toks(self) -> Sequence[Token]:
        """The code tokens (comments dropped), parallel to `texts`: each Token made when
        it is read (ctx.token), unless the file's Token objects are made already."""
        if "tokens" in self.ctx.__dict__:  # Context.tokens made them: a plain list
            return _dropped(self.ctx.tokens, self._comments)
        return _CodeTokens(self)

    def _code_index(self, i: int) -> int:
        """The code-token index of ctx.tokens[i] (of the next code token if i is a comment)."""
        return i - bisect_left(self._comments, i)

    def first_at(self, i: int) -> int:
        """The index of the first code token at or after ctx.tokens[i] (n if none)."""
        return self._code_index(i)

    @cached_property
    def _comment_slots(self) -> list[int]:
        """For each comment, the code-token index of the code token after it."""
        return list(map(sub, self._comments, count()))

    def ctx_index(self, k: int) -> int:
        """orig[k] without the list: the index in ctx.tokens of code token k."""
        return k + bisect_right(self._comment_slots, k) if self._comments else k

    def token(self, k: int) -> Token:
        """Code token k (made on its own when the Token objects are not made yet)."""
        return self.ctx.token(self.ctx_index(k))

    def start(self, k: int) -> int:
        """Byte offset of code token k."""
        return self.ctx.columns.starts[self.ctx_index(k)]

    def end(self, k: int) -> int:
        """Byte offset just past code token k."""
        return self.ctx.columns.ends[self.ctx_index(k)]

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
        cols = self.ctx.columns
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
        return sorted(map(self._code_index, found))

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
        self._present |= missing.intersection(self.texts)

    def _locate(self, texts: Collection[str]) -> None:
        """Find the positions of the present `texts` not located yet: one `compress` pass
        for all of them when they are many, else a `list.index` scan for each (cheaper
        than a pass of Python calls for a few texts)."""
        todo = [t for t in texts if t not in self._at]
        if len(todo) <= _FEW_TEXTS:
            for t in todo:
                self._at[t] = positions(self.texts, t)
            return
        all_texts = self.texts
        hits = list(compress(range(self.n), map(frozenset(todo).__contains__, all_texts)))
        hit_texts = list(map(all_texts.__getitem__, hits))
        for t in todo:
            self._at[t] = list(compress(hits, map(t.__eq__, hit_texts)))

    def text(self, k: int | None) -> str:
        return self.texts[k] if k is not None and 0 <= k < self.n else ""

    def punct(self, k: int | None, text: str) -> bool:
        return (
            k is not None
            and 0 <= k < self.n
            and self.texts[k] == text
            and self.kinds[k] == PUNCTUATION
        )

    def is_member(self, k: int) -> bool:
        """tokens[k] follows `.` or `->`."""
        return k > 0 and self.kinds[k - 1] == PUNCTUATION and self.texts[k - 1] in (".", "->")

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
        return list(compress(ks, map(kinds.__contains__, map(self.kinds.__getitem__, ks))))

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
        return frozenset(self.texts)

    def finding(self, info: RuleInfo, a: int, b: int, message: str, **fields: object) -> Finding:
        """A finding spanning code tokens a..b inclusive."""
        return self.ctx.finding(info.code, self.start(a), self.end(b), message, **fields)

    @cached_property
    def directive_ranges(self) -> list[tuple[str, int, int]]:
        """(name, first, end) of every directive, in code-token indices."""
        out = []
        code_index = self._code_index
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
            fn = self.punct(n + 1, "(") and self.end(n) == self.start(n + 1)
            out.append(Define(self.texts[n], n, tuple(range(n + 1, b)), fn))
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
            a, b = self._code_index(d.hash), self._code_index(d.end)
            if a < b and (spelled := include_spelling(ctx.source, ctx.columns, d)) is not None:
                out.append((spelled.header, a, b - 1))
        return out

    @cached_property
    def _brackets(self) -> tuple[list[int], list[int]]:
        """The code-token indices of the brackets ( [ { } ] ) and the nesting depth after
        each (one `accumulate`, from the start of the file)."""
        deltas = list(map(_DEPTH.get, self.texts))  # None for any other text
        ks = list(compress(range(self.n), deltas))
        # only punctuation tokens are spelled as brackets (comments are not code tokens)
        return ks, list(accumulate(filter(None, deltas)))

    def match(self, k: int, limit: int | None = None) -> int | None:
        """tokens.matching(self.toks, k, limit): walked over the columns when the pair is
        near (a call's parentheses), else from the bracket depths of the whole file (made
        once): the first later bracket back at the depth before k (a `list.index`)."""
        texts = self.texts
        close = OPENERS.get(texts[k])
        if close is None:
            return None
        if "_brackets" not in self.__dict__:
            end = self.n if limit is None else min(limit, self.n)
            found = self._walk_match(k, close, min(end, k + _NEAR))
            if found is not None or k + _NEAR >= end:
                return found if found != -1 else None
        ks, depth = self._brackets
        p = bisect_left(ks, k)
        try:
            q = depth.index(depth[p] - 1, p + 1)
        except ValueError:
            return None
        j = ks[q]
        if limit is not None and j >= limit:
            return None
        return j if self.texts[j] == close else None

    def _walk_match(self, k: int, close: str, end: int) -> int | None:
        """tokens.matching's walk from k up to `end`: the match, -1 for a bracket that
        does not match, None if the walk reached `end` first."""
        texts, kinds = self.texts, self.kinds
        depth = 0
        for j in range(k, end):
            t = texts[j]
            if t in _DEPTH and kinds[j] == PUNCTUATION:
                depth += _DEPTH[t]
                if depth == 0:
                    return j if t == close else -1
        return None

    def arguments(self, open_: int, close: int) -> list[tuple[int, int]]:
        """tokens.split_args(self.toks, open_, close) (no template lists) for a pair that
        match() found: the commas at the pair's own depth (walked over the columns for a
        near pair, else found by `list.index` and the bracket depths)."""
        if close - open_ <= _NEAR and "_brackets" not in self.__dict__:
            return self._walk_arguments(open_, close)
        ks, depth = self._brackets
        inner = depth[bisect_left(ks, open_)]
        find = self.texts.index
        out: list[tuple[int, int]] = []
        start = j = open_ + 1
        while True:
            try:
                j = find(",", j, close)
            except ValueError:
                break
            if depth[bisect_left(ks, j) - 1] == inner:  # the last bracket before it
                out.append((start, j))
                start = j + 1
            j += 1
        if not out and start >= close:
            return []
        out.append((start, close))
        return out

    def _walk_arguments(self, open_: int, close: int) -> list[tuple[int, int]]:
        texts, kinds = self.texts, self.kinds
        out: list[tuple[int, int]] = []
        depth = 0
        start = open_ + 1
        for j in range(open_ + 1, close):
            t = texts[j]
            if t == "," and depth == 0 and kinds[j] == PUNCTUATION:
                out.append((start, j))
                start = j + 1
            elif t in _DEPTH and kinds[j] == PUNCTUATION:
                depth += _DEPTH[t]
        if not out and start >= close:
            return []
        out.append((start, close))
        return out

    @cached_property
    def bodies(self) -> list[Body]:
        """Outermost function bodies: a `{` after `)` (or a trailing const/noexcept/...)
        outside any other function body. Namespace, class and initializer braces are
        walked into, never taken as bodies."""
        out: list[Body] = []
        ks, _ = self._brackets
        texts = self.texts
        opens = list(compress(ks, map("{".__eq__, map(texts.__getitem__, ks))))
        i = 0
        while i < len(opens):
            k = opens[i]
            i += 1
            if self.in_directive_at(k) or not self._opens_function(k):
                continue
            close = self.match(k)
            if close is not None:
                out.append(Body(self._head(k), k, close, self._name(k)))
                i = bisect_left(opens, close + 1, i)  # braces inside it are not bodies
        return out

    def _opens_function(self, k: int) -> bool:
        p = k - 1
        texts = self.texts
        while p >= 0 and texts[p] in _AFTER_PARAMETERS:
            p -= 1
        return self.punct(p, ")")

    def _name(self, k: int) -> str:
        """The identifier before the parameter list that ends right before `{` at k."""
        texts, kinds = self.texts, self.kinds
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
        return self.texts[p - 1] if p >= 1 and self.kinds[p - 1] == IDENTIFIER else ""

    def _head(self, k: int) -> int:
        """Start of the declaration a body belongs to (k is not in a directive): after the
        previous ; { } or directive line."""
        texts, kinds = self.texts, self.kinds
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
        return branches(self.ctx).is_dead(self.start(k))

    def body_at(self, k: int) -> Body | None:
        for b in self.bodies:
            if b.open < k < b.close:
                return b
        return None

    def between(self, ks: list[int], a: int, b: int) -> list[int]:
        """The indices of ascending `ks` in [a, b)."""
        return ks[bisect_left(ks, a) : bisect_left(ks, b)]

    def is_device_body(self, body: Body) -> bool:
        return not _DEVICE_WORDS.isdisjoint(self.texts[body.head : body.open])

    def device_kind(self, body: Body) -> str | None:
        """ "device" (a __global__ function, or __device__ without __host__), "host-device"
        (__host__ __device__) or None (host code)."""
        head = set(self.texts[body.head : body.open])
        if "__global__" in head or ("__device__" in head and "__host__" not in head):
            return "device"
        return "host-device" if "__device__" in head else None

    def describe_function(self, body: Body) -> str:
        """`__global__ function name` / `__device__ function name`, for messages."""
        head = self.texts[body.head : body.open]
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
        toks = [self.token(k) for k in ks]
        while len(toks) >= 2 and toks[0].text == "(" and toks[-1].text == ")":
            toks = toks[1:-1]
        return tuple(toks)


class _CodeTokens(Sequence[Token]):
    """CodeIndex.toks as a sequence that makes a Token per read (the token helpers of
    rules/tokens.py index it like a list)."""

    __slots__ = ("_index",)

    def __init__(self, index: CodeIndex) -> None:
        self._index = index

    def __len__(self) -> int:
        return self._index.n

    @overload
    def __getitem__(self, k: int) -> Token: ...
    @overload
    def __getitem__(self, k: slice) -> list[Token]: ...
    def __getitem__(self, k: int | slice) -> Token | list[Token]:
        index = self._index
        if isinstance(k, slice):
            return [index.token(j) for j in range(*k.indices(index.n))]
        if k < 0:
            k += index.n
        if not 0 <= k < index.n:
            raise IndexError(k)
        return index.token(k)


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
    lexed = lex_columns(" ".join(sorted(words)).encode())
    return frozenset(t for t, k in zip(lexed.texts, lexed.kinds, strict=True) if k == KEYWORD)
