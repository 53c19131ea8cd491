"""HIP103 lane-mask-32bit: 32-bit lane masks passed to *_sync intrinsics, and ballot
results kept in 32 bits."""

from __future__ import annotations

from collections.abc import Callable

from hipport.catalogue import LANE_MASK_32BIT
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, KEYWORD
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule
from hipport.rules.lane_masks import declared_narrow, full_mask_at, full_mask_names, narrow_type
from hipport.rules.names import MASKED_SYNC
from hipport.tables import Status

BALLOTS = frozenset({"__ballot_sync", "__ballot", "__activemask"})


# 32-bit bit helpers and their 64-bit HIP/CUDA counterparts.
NARROW_BIT_OPS = {
    "__popc": "__popcll",
    "__ffs": "__ffsll",
    "__clz": "__clzll",
    "__brev": "__brevll",
}


def check_lane_mask_32bit(v: CodeIndex) -> list[Finding]:
    out = []
    calls = v.indices(MASKED_SYNC | BALLOTS)
    if not calls:
        return out
    known: list[set[str]] = []

    def names() -> set[str]:  # read only when a mask argument is a name
        if not known:
            known.append(full_mask_names(v))
        return known[0]

    for k in calls:
        t = v.tokens[k]
        if v.tokens.is_member(k) or not v.tokens.punct(k + 1, "("):
            continue
        # where the target has the call, its mask is 64-bit and rules/warp_masks.py rewrites
        # a full mask (or reports a narrow one as an error)
        if t.text in MASKED_SYNC and v.ctx.resolve(t.text).status is not Status.MAPPED:
            out.extend(_mask_argument(v, k, names))
        if t.text in BALLOTS:
            f = _narrow_ballot(v, k)
            if f is not None:
                out.append(f)
    return out


def _mask_argument(v: CodeIndex, k: int, names: Callable[[], set[str]]) -> list[Finding]:
    close = v.tokens.match(k + 1)
    args = v.tokens.arguments(k + 1, close) if close is not None else None
    if not args:
        return []
    a, b = args[0]
    name = v.tokens[k].text
    for j in range(a, b):
        last = full_mask_at(v, j)
        if last is None and v.tokens[j].kind == IDENTIFIER and v.tokens[j].text in names():
            last = j
        if last is None:
            continue
        text = " ".join(v.tokens[i].text for i in range(j, last + 1)).replace("~ ", "~")
        return [
            v.finding(
                LANE_MASK_32BIT,
                j,
                last,
                f"{name} mask `{text}` covers only lanes 0-31; AMD wavefronts have 64 lanes and "
                "HIP masks are 64-bit: pass __activemask() or a 64-bit mask (~0ull)",
                api=name,
                hint=LANE_MASK_32BIT.fix,
            )
        ]
    return []


def _narrow_ballot(v: CodeIndex, k: int) -> Finding | None:
    """__ballot*/__activemask result stored, cast or passed into 32 bits."""
    name = v.tokens[k].text
    p = k - 1
    narrow: str | None = None
    if v.tokens.punct(p, "=") and p >= 1 and v.tokens[p - 1].kind == IDENTIFIER:
        narrow = declared_narrow(v, p - 1)
    elif v.tokens.punct(p, ")"):  # C-style cast (unsigned)__ballot(...)
        q = p - 1
        words = []
        while q >= 0 and v.tokens[q].kind in (KEYWORD, IDENTIFIER):
            words.append(v.tokens[q].text)
            q -= 1
        if v.tokens.punct(q, "(") and narrow_type(words):
            narrow = " ".join(reversed(words))
    elif v.tokens.punct(p, "(") and v.tokens.punct(p - 1, ">"):  # static_cast<unsigned>(...)
        q = p - 2
        words = []
        while q >= 0 and v.tokens[q].kind in (KEYWORD, IDENTIFIER) or v.tokens.text(q) == "::":
            words.append(v.tokens[q].text)
            q -= 1
        if v.tokens.punct(q, "<") and v.tokens.text(q - 1) == "static_cast" and narrow_type(words):
            narrow = " ".join(reversed(words))
    elif v.tokens.punct(p, "(") and v.tokens.text(p - 1) in NARROW_BIT_OPS:
        op = v.tokens.text(p - 1)
        return v.finding(
            LANE_MASK_32BIT,
            p - 1,
            k,
            f"{op} takes a 32-bit value, so {op}({name}(...)) drops lanes 32-63 of a 64-lane "
            f"AMD wavefront: use {NARROW_BIT_OPS[op]}",
            api=name,
            hip=NARROW_BIT_OPS[op],
            hint=LANE_MASK_32BIT.fix,
        )
    if narrow is None:
        return None
    return v.finding(
        LANE_MASK_32BIT,
        k,
        k,
        f"{name} result kept in 32-bit `{narrow}` loses lanes 32-63 of a 64-lane AMD "
        "wavefront: store it in unsigned long long (or auto)",
        api=name,
        hip="unsigned long long",
        hint=LANE_MASK_32BIT.fix,
    )


RULE = HazardRule(
    LANE_MASK_32BIT,
    check_lane_mask_32bit,
    Triggers(names=MASKED_SYNC | BALLOTS),
    MASKED_SYNC | BALLOTS | {"="},
)
