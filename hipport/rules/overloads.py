"""Overloads HIP lacks: a CUDA name that maps to a HIP function declared only for some
argument types (mappings/alternatives.tsv lists its approximate alternative: `__ldcs` and
`__ldcg` exist in HIP for `const __half*`/`const __half2*` only). A call whose pointer
argument is declared in the function with another type is HIP025 as an error (it does not
compile), a call whose argument type hipport cannot see a warning; both name the alternative.
Nothing is rewritten: the alternative is approximate."""

from __future__ import annotations

import re
from dataclasses import replace

from hipport.catalogue import MISSING_OVERLOAD
from hipport.findings import Finding, Severity
from hipport.lexer import IDENTIFIER
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.lane_masks import declared_type
from hipport.tables import Status

# the argument types HIP declares these functions for (alternatives.tsv's note says where)
_HALF_WORDS = frozenset({"__half", "__half2", "half", "half2"})
# HIP's vector types are structs (HIP_vector_type), which clang's nontemporal builtins reject
_VECTOR_TYPE = re.compile(r"^(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]$")
_NONTEMPORAL = ("__builtin_nontemporal_store", "__builtin_nontemporal_load")


class OverloadRule:
    name = "overloads"
    priority = 17  # after the warp masks, before the namespaces
    codes = (MISSING_OVERLOAD.code,)
    # the CUDA names with an alternative (an overload HIP lacks, a nontemporal builtin)
    triggers = Triggers(data=lambda m: {a.cuda for a in m.tables.alternatives.values()})

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        names = {
            n
            for n in ctx.identifiers & {a.cuda for a in ctx.tables.alternatives.values()}
            if ctx.resolve(n).status is Status.MAPPED
            and (ctx.resolve(n).substitute is not None or ctx.resolve(n).new_name in _NONTEMPORAL)
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
            res = ctx.resolve(v.tokens.texts[k])
            if res.substitute is None:  # an exact nontemporal alternative: vectors only
                if words is not None and any(_VECTOR_TYPE.match(w) for w in words):
                    out.findings.append(_vector_finding(v, k, close, res.new_name, words))
                continue
            if words is not None and _HALF_WORDS & set(words):
                continue
            alt = res.substitute
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


def _vector_finding(
    v: CodeIndex, k: int, close: int | None, hip: str | None, words: list[str]
) -> Finding:
    """clang's nontemporal builtins take scalars and ext_vector_types, not HIP's float4."""
    return replace(
        v.finding(
            MISSING_OVERLOAD,
            k,
            close if close is not None else k,
            f"{v.tokens.texts[k]} on a `{' '.join(words)}`: {hip} takes a pointer to a scalar "
            "or an ext_vector_type, and HIP's vector types are structs: store the components "
            "(__builtin_nontemporal_store(v.x, &p->x), ...) or use a plain store",
            api=v.tokens.texts[k],
            hip=hip,
        ),
        severity=Severity.ERROR,
    )


RULE = OverloadRule()
