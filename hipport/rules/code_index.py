"""The file's code tokens (comments dropped), indexed once per file, and the structure
several rules read: directive lines, #defines, #includes, function bodies.

Built once per file (Context.code) in one pass over the tokens: every text of the rules'
vocabularies (Rule.vocabulary, collected by the engine) is indexed up front, so that a
rule visits only the names or operators it looks for instead of walking every token
again. A text outside the vocabularies is indexed on its first lookup (one more pass).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter
from typing import TYPE_CHECKING

from hipport.findings import Finding, RuleInfo
from hipport.lexer import COMMENT, IDENTIFIER, LITERAL, PUNCTUATION, Token
from hipport.rules.tokens import INCLUDE_DIRECTIVES, include_spelling, int_value, matching

if TYPE_CHECKING:
    from hipport.rules.context import Context

_TEXT = itemgetter(1)  # Token.text
_KIND = itemgetter(0)  # Token.kind
# The texts the index itself looks up (function bodies).
_STRUCTURE = frozenset({"{"})


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

    Built once per file: the token texts and kinds as lists, and every text's code-token
    indices, so that a check visits only the names or operators it looks for instead of
    walking every token again."""

    def __init__(self, ctx: Context, vocabulary: Collection[str] = ()) -> None:
        self.ctx = ctx
        self.orig = [i for i, t in enumerate(ctx.tokens) if t.kind != COMMENT]
        self.toks: list[Token] = [ctx.tokens[i] for i in self.orig]
        self.texts: list[str] = list(map(_TEXT, self.toks))
        self.kinds: list[str] = list(map(_KIND, self.toks))
        self.n = len(self.toks)
        # text -> ascending code-token indices of the tokens spelled so (any kind), for
        # the texts in self._indexed: the rules' vocabularies up front (one pass for all),
        # others on demand
        self.at: dict[str, list[int]] = {}
        self._indexed: set[str] = set()
        self._index(_STRUCTURE | frozenset(vocabulary))

    def _index(self, texts: Collection[str]) -> None:
        """Add the positions of `texts` to self.at, in one pass over the tokens."""
        if self._indexed.issuperset(texts):  # the common case, tested in C
            return
        missing = {t for t in texts if t not in self._indexed}
        at, all_texts = self.at, self.texts
        for k in [k for k, t in enumerate(all_texts) if t in missing]:
            ks = at.get(all_texts[k])
            if ks is None:
                at[all_texts[k]] = [k]
            else:
                ks.append(k)
        self._indexed |= missing

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
        self._index(texts)
        at, own = self.at, self.kinds
        hits = [at[t] for t in texts if t in at]
        if not hits:
            return []
        ks = hits[0] if len(hits) == 1 else sorted(k for h in hits for k in h)
        return [k for k in ks if own[k] in kinds]

    def mentions(self, texts: Collection[str]) -> bool:
        """Some identifier is spelled as one of `texts`."""
        return bool(self.indices(texts))

    def names_where(self, test: Callable[[str], bool]) -> list[str]:
        """Distinct token texts passing `test` (each text tested once)."""
        return [t for t in set(self.texts) if test(t)]

    def finding(self, info: RuleInfo, a: int, b: int, message: str, **fields: object) -> Finding:
        """A finding spanning code tokens a..b inclusive."""
        return self.ctx.finding(info.code, self.toks[a].start, self.toks[b].end, message, **fields)

    @cached_property
    def directive_ranges(self) -> list[tuple[str, int, int]]:
        """(name, first, end) of every directive, in code-token indices."""
        out = []
        orig = self.orig
        for d in self.ctx.directives:
            # the code tokens of [hash, end) are consecutive in orig (which is ascending)
            first, end = bisect_left(orig, d.hash), bisect_left(orig, d.end)
            if first < end:
                out.append((d.name, first, end))
        return out

    @cached_property
    def in_directive(self) -> frozenset[int]:
        return frozenset(k for _, a, b in self.directive_ranges for k in range(a, b))

    @cached_property
    def defines(self) -> list[Define]:
        out = []
        for name, a, b in self.directive_ranges:
            if name != "define" or b - a < 3:
                continue
            n = a + 2
            fn = self.punct(n + 1, "(") and self.toks[n].end == self.toks[n + 1].start
            out.append(Define(self.toks[n].text, n, tuple(range(n + 1, b)), fn))
        return out

    @cached_property
    def includes(self) -> list[tuple[str, int, int]]:
        """(header text, first, last) of every #include, in code-token indices (the whole
        directive), for the includes tokens.include_spelling can read."""
        out = []
        ranges = {d.hash: d for d in self.ctx.directives}
        for name, a, b in self.directive_ranges:
            if name not in INCLUDE_DIRECTIVES:
                continue
            spelled = include_spelling(self.ctx.source, self.ctx.tokens, ranges[self.orig[a]])
            if spelled is not None:
                out.append((spelled.header, a, b - 1))
        return out

    @cached_property
    def bodies(self) -> list[Body]:
        """Outermost function bodies: a `{` after `)` (or a trailing const/noexcept/...)
        outside any other function body. Namespace, class and initializer braces are
        walked into, never taken as bodies."""
        out: list[Body] = []
        toks = self.toks
        after = 0  # braces before this index are inside a body already taken
        for k in self.indices(("{",), (PUNCTUATION,)):
            if k < after or k in self.in_directive or not self._opens_function(k):
                continue
            close = matching(toks, k)
            if close is not None:
                out.append(Body(self._head(k), k, close, self._name(k)))
                after = close + 1
        return out

    def _opens_function(self, k: int) -> bool:
        p = k - 1
        while p >= 0 and self.text(p) in (
            "const",
            "noexcept",
            "override",
            "final",
            "mutable",
            "volatile",
            "&",
            "&&",
        ):
            p -= 1
        return self.punct(p, ")")

    def _name(self, k: int) -> str:
        """The identifier before the parameter list that ends right before `{` at k."""
        p = k - 1
        while p >= 0 and not self.punct(p, ")"):
            p -= 1
        depth = 0
        while p >= 0:
            if self.punct(p, ")"):
                depth += 1
            elif self.punct(p, "("):
                depth -= 1
                if depth == 0:
                    break
            p -= 1
        return self.toks[p - 1].text if p >= 1 and self.toks[p - 1].kind == IDENTIFIER else ""

    def _head(self, k: int) -> int:
        """Start of the declaration a body belongs to: after the previous ; { } or
        directive line."""
        p = k - 1
        depth = 0
        while p >= 0:
            t = self.toks[p]
            if p in self.in_directive:
                break
            if t.kind == PUNCTUATION:
                if t.text in (")", "]"):
                    depth += 1
                elif t.text in ("(", "["):
                    depth -= 1
                elif depth <= 0 and t.text in (";", "{", "}"):
                    break
            p -= 1
        return p + 1

    def body_at(self, k: int) -> Body | None:
        for b in self.bodies:
            if b.open < k < b.close:
                return b
        return None

    def between(self, ks: list[int], a: int, b: int) -> list[int]:
        """The indices of ascending `ks` in [a, b)."""
        return ks[bisect_left(ks, a) : bisect_left(ks, b)]

    def is_device_body(self, body: Body) -> bool:
        return any(
            self.toks[k].text in ("__device__", "__global__") for k in range(body.head, body.open)
        )

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
        toks = [self.toks[k] for k in ks]
        while len(toks) >= 2 and toks[0].text == "(" and toks[-1].text == ")":
            toks = toks[1:-1]
        return tuple(toks)
