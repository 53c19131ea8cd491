"""HIP116 deviceptr-arithmetic: integer arithmetic on a CUdeviceptr variable. CUdeviceptr is an
unsigned integer in CUDA and `hipDeviceptr_t`, a `void*`, in HIP: `base + offset` becomes
arithmetic on a pointer to void, which does not compile (and `& ~mask` on a pointer neither).
The fix keeps byte offsets: `(hipDeviceptr_t)((char *)base + offset)`; hipport cannot tell
which expressions want a pointer back and which an integer, so it reports, with the cast."""

from __future__ import annotations

from hipport.catalogue import DEVICEPTR_ARITHMETIC as INFO
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule
from hipport.rules.lane_masks import declared_type
from hipport.tables import Status

_TYPES = frozenset({"CUdeviceptr", "CUdeviceptr_v2"})
# integer operators that are not defined, or mean another thing, on a void*
_ARITHMETIC = frozenset({"+", "-", "+=", "-=", "&", "|", "%", "*", "/", "&=", "|="})


def check(v: CodeIndex) -> list[Finding]:
    ctx = v.ctx
    types = {t for t in _TYPES & ctx.identifiers if ctx.resolve(t).status is Status.MAPPED}
    if not types:
        return []
    toks = v.tokens
    declared = {
        toks.texts[k + 1]
        for k in v.indices(types)
        if k + 1 < len(toks) and toks.kinds[k + 1] == IDENTIFIER
    }
    out: list[Finding] = []
    seen: set[int] = set()
    for k in v.indices(declared - types):
        if toks.is_member(k) or toks.punct(k + 1, "(") or toks.punct(k - 1, "*"):
            continue
        after, before = toks.text(k + 1), toks.text(k - 1)
        binary_before = before in _ARITHMETIC and toks.kinds[k - 2] in (IDENTIFIER, "literal")
        if after not in _ARITHMETIC and not binary_before:
            continue
        words = declared_type(v, k)
        if words is None or not _TYPES & set(words) or k in seen or v.is_dead(k):
            continue
        seen.add(k)
        name = toks.texts[k]
        hip = ctx.resolve(next(w for w in words if w in _TYPES)).new_name
        out.append(
            v.finding(
                INFO,
                k,
                k,
                f"integer arithmetic on `{name}`, a CUdeviceptr: an unsigned integer in CUDA, "
                f"{hip} (a void*) in HIP, where it does not compile; keep the byte offset "
                f"and cast: ({hip})((char *){name} + offset), or (uintptr_t){name} for the "
                "integer",
                api="CUdeviceptr",
                hint=INFO.fix,
            )
        )
    return out


RULE = HazardRule(INFO, check, Triggers(names=_TYPES), _ARITHMETIC)
