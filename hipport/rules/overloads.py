"""Overloads HIP lacks: a CUDA name that maps to a HIP function declared only for some
argument types (mappings/alternatives.tsv lists its approximate alternative: `__ldcs` and
`__ldcg` exist in HIP for `const __half*`/`const __half2*` only). A call whose pointer
argument is declared in the function with another type is HIP025 as an error (it does not
compile), a call whose argument type hipport cannot see a warning; both name the alternative.
Nothing is rewritten: the alternative is approximate."""

from __future__ import annotations

from dataclasses import replace

from hipport.catalogue import MISSING_OVERLOAD
from hipport.findings import Severity
from hipport.lexer import IDENTIFIER
from hipport.rules.context import Context, RuleResult
from hipport.rules.lane_masks import declared_type
from hipport.tables import Status

# the argument types HIP declares these functions for (alternatives.tsv's note says where)
_HALF_WORDS = frozenset({"__half", "__half2", "half", "half2"})


class OverloadRule:
    name = "overloads"
    priority = 17  # after the warp masks, before the namespaces
    codes = (MISSING_OVERLOAD.code,)

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        names = {
            n
            for n in ctx.identifiers & {a.cuda for a in ctx.tables.alternatives.values()}
            if ctx.resolve(n).status is Status.MAPPED and ctx.resolve(n).substitute is not None
        }
        if not names:
            return out
        v = ctx.code
        for k in v.indices(names):
            if v.tokens.is_member(k) or not v.tokens.punct(k + 1, "("):
                continue
            close = v.tokens.match(k + 1)
            args = v.tokens.arguments(k + 1, close) if close is not None else None
            if not args or v.is_dead(k):
                continue
            a, b = args[0]
            first = next((q for q in range(a, b) if v.tokens.kinds[q] == IDENTIFIER), None)
            words = declared_type(v, first) if first is not None else None
            if words is not None and _HALF_WORDS & set(words):
                continue
            res = ctx.resolve(v.tokens.texts[k])
            alt = res.substitute
            assert alt is not None
            seen = "its type is unseen"
            if words:
                seen = f"`{v.tokens.texts[first]}` is `{' '.join(words)}`"
            finding = v.finding(
                MISSING_OVERLOAD,
                k,
                close if close is not None else k,
                f"HIP's {res.new_name} has no overload for this argument ({seen}): "
                f"{alt.note}; instead: {alt.hip}",
                api=v.tokens.texts[k],
                hip=alt.hip,
                alternative=alt.hip,
                hint=alt.text(),
            )
            if words is not None:
                finding = replace(finding, severity=Severity.ERROR)
            out.findings.append(finding)
        return out


RULE = OverloadRule()
